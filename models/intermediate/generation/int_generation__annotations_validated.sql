{#-
    One row per row of the generation export with its status and reasons (docs/rules.md, Row status):
    the row's values and labels after the constraint policy (int_generation__row_checks) with the status
    that int_annotations__row_status gave it. What every later model reads of the export.
-#}

with

row_checks as (

    select * from {{ ref('int_generation__row_checks') }}

),

row_status as (

    select * from {{ ref('int_annotations__row_status') }}
    where task = 'generation'

),

validated as (

    select
        row_checks.annotation_row_id,
        row_checks.task,
        row_checks.record_uuid,
        row_checks.annotator_id,
        row_checks.created_at_utc,
        row_checks.language,
        {{ ragmart_label_columns('generation', 'row_checks') }},
        row_checks.was_repaired,
        row_status.annotation_status,
        row_status.reasons

    from row_checks
    inner join row_status
        on row_checks.annotation_row_id = row_status.annotation_row_id

)

select * from validated
