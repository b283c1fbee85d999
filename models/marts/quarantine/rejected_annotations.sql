{#-
    Quarantine: every rejected row of the three exports (and of the records seed) with its reason
    codes and its original values, so that an annotation lead can fix the source. Columns of
    another input are null. Staging keeps only the columns the pipeline needs, so the original
    values are read again from the staged input rows (ragmart_source_model: every column as
    given, with the file and data row each came from, whatever the source system). The rows of the
    four inputs are one union (each input's columns, null for another input's), met once with the
    rejected rows. Filtering each input by its rejected rows before the union instead (a family
    of CTEs per input) was faster by too little to pay for four times the SQL
    (docs/benchmarks.md, "Measurements behind the models' shapes").
-#}
{%- set original_columns = ragmart_rejected_original_columns() -%}
{%- set null_text = 'cast(null as ' ~ dbt.type_string() ~ ')' %}
with

row_status as (

    select * from {{ ref('int_annotations__row_status') }}
    where annotation_status = 'rejected'

),

{# Every row of every input as read: the columns of its input, null for another input's. #}
input_rows as (
    {%- for input_name in ragmart_status_inputs() %}
    {%- set input_columns = ragmart_export_columns(input_name) | map(attribute='name') | list %}

    select
        '{{ input_name }}' as task,
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        {{ 'created_at' if 'created_at' in input_columns else null_text }} as created_at,
        {{ ragmart_clean_text('task') if 'task' in input_columns else null_text }} as task_as_given,
        {%- for column in original_columns %}
        {{ column if column in input_columns else null_text }} as {{ column }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ ragmart_source_model(input_name) }}

    {{ 'union all' if not loop.last }}
    {%- endfor %}

),

rejected as (

    select
        input_rows.*,
        row_status.record_uuid,
        row_status.annotator_id,
        row_status.chunk_id,
        row_status.reasons

    from row_status
    inner join input_rows
        on
            row_status.task = input_rows.task
            and row_status.annotation_row_id = input_rows.annotation_row_id

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from rejected

)

select * from final
