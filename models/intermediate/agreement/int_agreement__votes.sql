{{ config(materialized='view') }}

{#-
    The votes of CONTRACT.md (Agreement and tiers): for each unit and label, the accepted row of
    each HUMAN annotator in the role `annotator` (adjudicators and LLM / CODE annotators never
    vote), with the record's tier in that family. Read from the wide vote rows of each task
    (ragmart_voter_rows), one row per label.
-#}
with
{%- for task in ragmart_tasks() %}

{{ task }}_votes as (
    {{ ragmart_voter_rows(task) | indent(4) }}

),
{%- endfor %}

record_tiers as (

    select * from {{ ref('int_records__tiers') }}

),

unpivoted as (
    {%- for task in ragmart_tasks() %}
    {%- set outer_loop = loop %}
    {%- for label in ragmart_task_spec(task).labels %}

    select
        '{{ task }}' as task,
        record_uuid,
        {{ "nullif(unit_chunk_key, '')" if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        '{{ label }}' as label,
        annotator_id,
        {{ label }} as label_value,
        created_at_utc,
        unit_chunk_key

    from {{ task }}_votes
    {%- if not (outer_loop.last and loop.last) %}

    union all
    {%- endif %}
    {%- endfor %}
    {%- endfor %}

),

final as (

    select
        unpivoted.task,
        unpivoted.record_uuid,
        unpivoted.chunk_id,
        unpivoted.label,
        unpivoted.annotator_id,
        unpivoted.label_value,
        unpivoted.created_at_utc,
        record_tiers.tier,
        unpivoted.unit_chunk_key

    from unpivoted
    inner join record_tiers
        on
            unpivoted.task = record_tiers.task
            and unpivoted.record_uuid = record_tiers.record_uuid

)

select * from final
