{#-
    One row per row of the three exports with its status and reasons (docs/rules.md, Row status):
    the row's values and labels after the constraint policy (int_annotations__row_checks) with
    the status that int_annotations__row_status gave it, every label of every task a column (a label
    of another task is null; the chunk and its rank only in retrieval). What every later model
    reads of the exports.
-#}
with

row_checks as (

    select * from {{ ref('int_annotations__row_checks') }}

),

row_status as (

    select * from {{ ref('int_annotations__row_status') }}
    where task <> 'records'

),

validated as (

    select
        row_checks.task,
        row_checks.annotation_row_id,
        row_checks.record_uuid,
        row_checks.chunk_id,
        row_checks.chunk_rank,
        row_checks.annotator_id,
        row_checks.created_at_utc,
        row_checks.language,
        {%- for label in ragmart_labels() %}
        row_checks.{{ label }},
        {%- endfor %}
        row_checks.was_repaired,
        row_status.annotation_status,
        row_status.reasons

    from row_checks
    inner join row_status
        on
            row_checks.task = row_status.task
            and row_checks.annotation_row_id = row_status.annotation_row_id

)

select * from validated
