{#-
    The evaluation run and the pairing key of every record in every family it has an accepted row
    in (docs/rules.md, Runs): the run_id of its accepted records row, else the var default_run_id;
    the query_id of that row, else the record's query text in the family: the trimmed query of
    its accepted rows (any annotator, judges included), the smallest in byte order when they
    differ. The pairing key is the query_id, else the query text.
-#}
with

records_input as (

    select * from {{ ref('int_records__validated') }}
    where annotation_status = 'accepted'

),
{%- for task in ragmart_tasks() %}

{{ task }}_accepted as (

    select * from {{ ref('int_' ~ task ~ '__annotations_validated') }}
    where annotation_status = 'accepted'

),

{{ task }}_staged as (

    select * from {{ ref('stg_annotation_exports__' ~ task) }}

),
{%- endfor %}

accepted_query_texts as (
    {%- for task in ragmart_tasks() %}

    select distinct
        '{{ task }}' as task,
        {{ task }}_accepted.record_uuid,
        {{ task }}_staged.query_text

    from {{ task }}_accepted
    inner join {{ task }}_staged
        on {{ task }}_accepted.annotation_row_id = {{ task }}_staged.annotation_row_id
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

{# The smallest text by its bytes, ordered rather than min() so that it keeps its collation. #}
ordered_query_texts as (

    select
        task,
        record_uuid,
        query_text,
        row_number() over (
            partition by task, record_uuid
            order by {{ ragmart_collate_binary('query_text') }}
        ) as position_in_record

    from accepted_query_texts

),

family_records as (

    select
        task,
        record_uuid,
        query_text

    from ordered_query_texts
    where position_in_record = 1

),

final as (

    select
        family_records.task,
        family_records.record_uuid,
        coalesce(records_input.run_id, {{ ragmart_default_run_id() }}) as run_id,
        records_input.query_id,
        family_records.query_text,
        coalesce(records_input.query_id, family_records.query_text) as pairing_key

    from family_records
    left join records_input
        on family_records.record_uuid = records_input.record_uuid

)

select * from final
