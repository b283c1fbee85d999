{#-
    One row per record of each task whose unit is the record (grounding, generation: an answer)
    with an accepted human row: its consensus labels side by side (every label of those tasks a
    column, null outside its task), whether all are resolved, its language, its evaluation run and
    its pairing key (int_records__per_family). Retrieval's units are chunks:
    int_retrieval__chunk_consensus.
-#}
{%- set record_tasks = [] %}
{%- for task in ragmart_tasks() if ragmart_task_spec(task).unit_columns == ['record_uuid'] %}
{%- do record_tasks.append(task) %}
{%- endfor %}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where task in ('{{ record_tasks | join("', '") }}')

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

record_consensus as (

    select
        task,
        record_uuid,
        {%- for task in record_tasks %}
        {%- for label in ragmart_task_spec(task).labels %}
        max(case when label = '{{ label }}' then consensus_value end) as {{ label }},
        {%- endfor %}
        {%- endfor %}
        min(case when is_resolved then 1 else 0 end) = 1 as is_resolved

    from label_consensus
    group by
        task,
        record_uuid

),

final as (

    select
        record_consensus.*,
        family_records.run_id,
        family_records.pairing_key,
        family_records.language

    from record_consensus
    inner join family_records
        on
            record_consensus.task = family_records.task
            and record_consensus.record_uuid = family_records.record_uuid

)

select * from final
