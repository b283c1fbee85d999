{#-
    Every rejected row is in the quarantine mart with the same reasons, and the mart holds
    nothing else. Returns the rows found on one side only.
-#}
with

rejected_status as (

    select task, annotation_row_id, reasons
    from {{ ref('int_annotations__row_status') }}
    where annotation_status = 'rejected'

),

quarantine as (

    select task, annotation_row_id, reasons
    from {{ ref('rejected_annotations') }}

),

missing_from_quarantine as (

    select 'missing from rejected_annotations' as problem, task, annotation_row_id, reasons
    from (select * from rejected_status except select * from quarantine) as difference

),

unexpected_in_quarantine as (

    select 'not rejected but in rejected_annotations' as problem, task, annotation_row_id, reasons
    from (select * from quarantine except select * from rejected_status) as difference

)

select * from missing_from_quarantine
union all
select * from unexpected_in_quarantine
