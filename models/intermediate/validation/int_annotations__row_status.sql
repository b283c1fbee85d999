{#- One row per row of the three exports with its final status and reasons: the accounting base. -#}
with
{%- for task in ragmart_tasks() %}

{{ task }}_annotations as (

    select * from {{ ref('int_' ~ task ~ '__annotations_validated') }}

),
{%- endfor %}

unioned as (
    {%- for task in ragmart_tasks() %}

    select
        task,
        annotation_row_id,
        record_uuid,
        {{ 'chunk_id' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        annotator_id,
        created_at,
        annotation_status,
        reasons,
        was_repaired

    from {{ task }}_annotations
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from unioned
