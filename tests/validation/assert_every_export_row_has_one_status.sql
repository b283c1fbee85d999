{#-
    Accounting (docs/rules.md): for each export (and the records seed), rows in the file = accepted + rejected
    + superseded + exact copies left out + blank rows skipped (the copies the files reader left out
    as it read a file are in no input row: rows read = input rows + those), and every distinct row has exactly one of
    those statuses. Returns the tasks where the books do not balance. The inputs are the rows as given
    of each input (base_annotation_exports__input_rows), whatever the source system.
-#}
with

input_rows as (

    select * from {{ ref('base_annotation_exports__input_rows') }}

),

{# An input without rows has no row here, and nothing to balance. #}
export_rows as (

    select
        input_name as task,
        count(*) as n_export_rows

    from input_rows
    group by input_name

),

row_status as (

    select * from {{ ref('int_annotations__row_status') }}

),

export_files as (

    select * from {{ ref('stg_annotation_exports__files') }}

),

left_out_counts as (

    select
        task,
        sum(n_rows_read) as n_rows_read,
        sum(n_left_out_when_read) as n_left_out_when_read,
        sum(n_blank + n_repeated - n_left_out_when_read) as n_left_out

    from export_files
    group by task

),

status_counts as (

    select
        task,
        count(*) as n_status_rows,
        count(distinct annotation_row_id) as n_distinct_rows,
        sum(case when annotation_status = 'accepted' then 1 else 0 end) as n_accepted,
        sum(case when annotation_status = 'rejected' then 1 else 0 end) as n_rejected,
        sum(case when annotation_status = 'superseded' then 1 else 0 end) as n_superseded

    from row_status
    group by task

),

books as (

    select
        export_rows.task,
        export_rows.n_export_rows,
        coalesce(status_counts.n_status_rows, 0) as n_status_rows,
        coalesce(status_counts.n_distinct_rows, 0) as n_distinct_rows,
        coalesce(status_counts.n_accepted, 0) as n_accepted,
        coalesce(status_counts.n_rejected, 0) as n_rejected,
        coalesce(status_counts.n_superseded, 0) as n_superseded,
        coalesce(left_out_counts.n_rows_read, export_rows.n_export_rows) as n_rows_read,
        coalesce(left_out_counts.n_left_out_when_read, 0) as n_left_out_when_read,
        coalesce(left_out_counts.n_left_out, 0) as n_left_out

    from export_rows
    left join status_counts
        on export_rows.task = status_counts.task
    left join left_out_counts
        on export_rows.task = left_out_counts.task

)

select * from books
where
    n_export_rows <> n_accepted + n_rejected + n_superseded + n_left_out
    or n_rows_read <> n_export_rows + n_left_out_when_read
    or n_status_rows + n_left_out <> n_export_rows
    or n_distinct_rows + n_left_out <> n_export_rows
