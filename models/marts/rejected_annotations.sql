{#-
    Quarantine: every rejected row of the three exports (and of the records seed) with its reason
    codes and its original values, so that an annotation lead can fix the source. Columns of
    another input are null. Staging keeps only the columns the pipeline needs, so the original
    values are read again from the input (ragmart_input_rows), for the rejected rows only, with the
    file and data row each came from: the seeds or, in files mode, the files read by
    base_export_files.
-#}
{%- set original_columns = ragmart_rejected_original_columns() -%}
{%- set files_mode = ragmart_input_mode() == 'files' %}
{%- set inputs = {
    'retrieval': ref('base_export_files') if files_mode else ref('retrieval_annotations'),
    'grounding': ref('base_export_files') if files_mode else ref('grounding_annotations'),
    'generation': ref('base_export_files') if files_mode else ref('generation_annotations'),
    'records': ref('base_export_files') if files_mode else ref('records'),
} %}
with

row_status as (

    select * from {{ ref('int_annotations__row_status') }}
    where annotation_status = 'rejected'

),
{%- for task in ragmart_status_inputs() %}

{{ task }}_rejected_rows as (

    select annotation_row_id from row_status
    where task = '{{ task }}'

),

{{ task }}_originals as (

    select * from (
        {{ ragmart_input_rows(task, inputs[task]) }}
    ) as input_rows
    where annotation_row_id in (select {{ task }}_rejected_rows.annotation_row_id from {{ task }}_rejected_rows)

),

{{ task }}_rejected as (

    select
        row_status.task,
        row_status.record_uuid,
        row_status.annotator_id,
        row_status.chunk_id,
        {{ 'cast(null as ' ~ dbt.type_string() ~ ')' if task == 'records' else task ~ '_originals.created_at' }} as created_at,
        row_status.reasons,
        {{ task }}_originals.source_file,
        {{ task }}_originals.source_row,
        {{ task }}_originals.malformed_record,
        row_status.annotation_row_id,
        {{ 'cast(null as ' ~ dbt.type_string() ~ ')' if task == 'records' else ragmart_clean_text(task ~ '_originals.task') }} as task_as_given,
        {%- set input_columns = ragmart_export_columns(task) | map(attribute='name') | list %}
        {%- for column in original_columns %}
        {%- if column not in input_columns %}
        cast(null as {{ dbt.type_string() }}) as {{ column }}
        {%- else %}
        {{ task }}_originals.{{ column }}
        {%- endif %}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from row_status
    inner join {{ task }}_originals
        on row_status.annotation_row_id = {{ task }}_originals.annotation_row_id
    where row_status.task = '{{ task }}'

),
{%- endfor %}

unioned as (
    {%- for task in ragmart_status_inputs() %}

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
        cast(source_file as {{ dbt.type_string() }}) as source_file,
        cast(source_row as bigint) as source_row,
        cast(annotation_row_id as bigint) as annotation_row_id,
        cast(task_as_given as {{ dbt.type_string() }}) as task_as_given,
        {%- for column in original_columns %}
        cast({{ column }} as {{ dbt.type_string() }}) as {{ column }},
        {%- endfor %}
        cast(malformed_record as {{ dbt.type_string() }}) as malformed_record

    from unioned

)

select * from final
