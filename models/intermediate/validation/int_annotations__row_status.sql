{#- One row per row of the three exports and the records seed with its final status and reasons: the accounting base. -#}
{{ config(materialized='view') }}

with
{%- for task in ragmart_status_inputs() %}

{{ task }}_rows as (

    select * from {{ ref('int_records__validated' if task == 'records' else 'int_' ~ task ~ '__annotations_validated') }}

),
{%- endfor %}

unioned as (
    {%- for task in ragmart_status_inputs() %}

    select
        task,
        annotation_row_id,
        record_uuid,
        {{ 'chunk_id' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        {{ 'cast(null as ' ~ dbt.type_string() ~ ')' if task == 'records' else 'annotator_id' }} as annotator_id,
        annotation_status,
        reasons,
        {{ 'false' if task == 'records' else 'was_repaired' }} as was_repaired

    from {{ task }}_rows
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from unioned
