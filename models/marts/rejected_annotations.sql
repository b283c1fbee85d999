{#-
    Quarantine: every rejected row of the three exports with its reason codes and its original
    values, so that an annotation lead can fix the source. Columns of another export are null.
-#}
{%- set original_columns = ragmart_rejected_original_columns() -%}
{%- set parsed_columns = ['chunk_rank', 'can_answer'] -%}
with
{%- for task in ragmart_tasks() %}

{{ task }}_status as (

    select * from {{ ref('int_' ~ task ~ '__annotations_validated') }}
    where annotation_status = 'rejected'

),

{{ task }}_originals as (

    select * from {{ ref('stg_annotation_exports__' ~ task) }}

),

{{ task }}_rejected as (

    select
        '{{ task }}' as task,
        {{ task }}_status.record_uuid,
        {{ task }}_status.annotator_id,
        {{ 'retrieval_status.chunk_id' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }}
            as chunk_id,
        {{ task }}_status.created_at,
        {{ task }}_status.reasons,
        {{ task }}_status.annotation_row_id,
        {{ task }}_originals.task as task_as_given,
        {%- set task_columns = ragmart_export_columns(task) | map(attribute='name') | list %}
        {%- set task_spec = ragmart_task_spec(task) %}
        {%- for column in original_columns %}
        {%- if column not in task_columns %}
        cast(null as {{ dbt.type_string() }}) as {{ column }}
        {%- elif column in task_spec.labels or column in parsed_columns %}
        {{ task }}_originals.{{ column }}_raw as {{ column }}
        {%- else %}
        {{ task }}_originals.{{ column }}
        {%- endif %}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ task }}_status
    inner join {{ task }}_originals
        on {{ task }}_status.annotation_row_id = {{ task }}_originals.annotation_row_id

),
{%- endfor %}

unioned as (
    {%- for task in ragmart_tasks() %}

    select * from {{ task }}_rejected
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(record_uuid as {{ dbt.type_string() }}) as record_uuid,
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(chunk_id as {{ dbt.type_string() }}) as chunk_id,
        cast(created_at as {{ dbt.type_string() }}) as created_at,
        cast(reasons as {{ dbt.type_string() }}) as reasons,
        cast(annotation_row_id as {{ dbt.type_bigint() }}) as annotation_row_id,
        cast(task_as_given as {{ dbt.type_string() }}) as task_as_given,
        {%- for column in original_columns %}
        cast({{ column }} as {{ dbt.type_string() }}) as {{ column }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from unioned

)

select * from final
