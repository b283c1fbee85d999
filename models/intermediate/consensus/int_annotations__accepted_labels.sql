{#- One row per accepted export row and binary label, with who gave it. -#}
with

annotators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}

),
{%- for task in ragmart_tasks() %}

{{ task }}_annotations as (

    select * from {{ ref('int_' ~ task ~ '__annotations_validated') }}
    where annotation_status = 'accepted'

),
{%- endfor %}

unpivoted as (
    {%- for task in ragmart_tasks() %}
    {%- set outer_loop = loop %}
    {%- for label in ragmart_task_spec(task).labels %}

    select
        task,
        record_uuid,
        {{ 'chunk_id' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        annotator_id,
        created_at_utc,
        '{{ label }}' as label,
        {{ label }} as label_value

    from {{ task }}_annotations
    {%- if not (outer_loop.last and loop.last) %}

    union all
    {%- endif %}
    {%- endfor %}
    {%- endfor %}

),

with_annotators as (

    select
        unpivoted.task,
        unpivoted.record_uuid,
        unpivoted.chunk_id,
        unpivoted.annotator_id,
        unpivoted.created_at_utc,
        unpivoted.label,
        unpivoted.label_value,
        coalesce(annotators.annotator_kind, 'HUMAN') as annotator_kind,
        coalesce(annotators.annotator_role, 'annotator') as annotator_role

    from unpivoted
    left join annotators
        on unpivoted.annotator_id = annotators.annotator_id

)

select * from with_annotators
