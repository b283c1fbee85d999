{#-
    The accounting of every input, for the lead who asks whether the numbers can be trusted: how
    many rows each export (and the records input) had, and how many were accepted, superseded by
    a later submission, or rejected into rejected_annotations, with the rejected share.
-#}
with

row_status as (

    select * from {{ ref('int_annotations__row_status') }}

),

counted as (

    select
        task,
        count(*) as n_rows,
        sum(case when annotation_status = 'accepted' then 1 else 0 end) as n_accepted,
        sum(case when annotation_status = 'superseded' then 1 else 0 end) as n_superseded,
        sum(case when annotation_status = 'rejected' then 1 else 0 end) as n_rejected

    from row_status
    group by task

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(n_rows as bigint) as n_rows,
        cast(n_accepted as bigint) as n_accepted,
        cast(n_superseded as bigint) as n_superseded,
        cast(n_rejected as bigint) as n_rejected,
        cast(n_rejected as {{ ragmart_type_double() }}) / n_rows as rejected_share

    from counted

)

select * from final
