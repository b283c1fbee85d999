{#-
    Quarantine: every rejected row of the three exports (and of the records seed) with its reason
    codes and its original values, so that an annotation lead can fix the source. Columns of
    another input are null. Staging keeps only the columns the pipeline needs, so the original
    values are read again from the input rows as given (base_annotation_exports__input_rows: every
    column as text, with the file and data row each came from, whatever the source system). The
    rows of the four inputs are one union (each input's columns, null for another input's), met
    once with the rejected rows. Filtering each input by its rejected rows before the union instead (a family
    of CTEs per input) was faster by too little to pay for four times the SQL
    (docs/benchmarks.md, "Measurements behind the models' shapes").
-#}
{%- set original_columns = ragmart_rejected_original_columns() -%}
with

row_status as (

    select * from {{ ref('int_annotations__row_status') }}
    where annotation_status = 'rejected'

),

{# Every row of every input as given: the columns of its input, null for another input's. #}
input_rows as (

    select * from {{ ref('base_annotation_exports__input_rows') }}

),

rejected as (

    select
        input_rows.input_name as task,
        input_rows.annotation_row_id,
        input_rows.source_file,
        input_rows.source_row,
        input_rows.malformed_record,
        input_rows.created_at,
        {{ ragmart_clean_text('input_rows.task') }} as task_as_given,
        {%- for column in original_columns %}
        input_rows.{{ column }},
        {%- endfor %}
        row_status.record_uuid,
        row_status.annotator_id,
        row_status.chunk_id,
        row_status.reasons

    from row_status
    inner join input_rows
        on
            row_status.task = input_rows.input_name
            and row_status.annotation_row_id = input_rows.annotation_row_id

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from rejected

)

select * from final
