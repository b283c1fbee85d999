{#-
    Every rejected row is in the quarantine mart with the same reasons, and the mart holds
    nothing else. Returns the rows found on one side only.
-#}
with

rejected_status as (

    select
        task,
        annotation_row_id,
        reasons

    from {{ ref('int_annotations__row_status') }}
    where annotation_status = 'rejected'

),

quarantine as (

    select
        task,
        annotation_row_id,
        reasons

    from {{ ref('rejected_annotations') }}

),

missing_from_quarantine as (

    select
        task,
        annotation_row_id,
        reasons

    from rejected_status

    except

    select
        task,
        annotation_row_id,
        reasons

    from quarantine

),

unexpected_in_quarantine as (

    select
        task,
        annotation_row_id,
        reasons

    from quarantine

    except

    select
        task,
        annotation_row_id,
        reasons

    from rejected_status

),

problems as (

    select
        'missing from rejected_annotations' as problem,
        task,
        annotation_row_id,
        reasons

    from missing_from_quarantine

    union all

    select
        'in rejected_annotations but not rejected' as problem,
        task,
        annotation_row_id,
        reasons

    from unexpected_in_quarantine

)

select * from problems
