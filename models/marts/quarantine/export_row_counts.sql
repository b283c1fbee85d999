{#-
    The accounting of every input, for the lead who asks whether the numbers can be trusted: how
    many distinct rows each export (and the records input) had, and how many were accepted,
    superseded by a later submission, or rejected into rejected_annotations, with the rejected
    share; beside them the exact copies left out and the blank rows skipped. Every export has a
    row, 0 rows included (an empty export stops the build unless the var allow_empty_exports lists
    it); the records input when it has rows.
-#}
with

row_status as (

    select * from {{ ref('int_annotations__row_status') }}

),

export_files as (

    select * from {{ ref('stg_annotation_exports__files') }}

),

{# The three exports always, and any other input (records) that has rows. #}
inputs as (
    {%- for task in ragmart_tasks() %}

    select '{{ task }}' as task
    {%- if not loop.last %}

    union
    {%- endif %}
    {%- endfor %}

    union

    select task from row_status

),

status_counts as (

    select
        task,
        count(*) as n_rows,
        sum(case when annotation_status = 'accepted' then 1 else 0 end) as n_accepted,
        sum(case when annotation_status = 'superseded' then 1 else 0 end) as n_superseded,
        sum(case when annotation_status = 'rejected' then 1 else 0 end) as n_rejected

    from row_status
    group by task

),

left_out_counts as (

    select
        task,
        sum(n_repeated) as n_repeated,
        sum(n_blank) as n_blank

    from export_files
    group by task

),

counted as (

    select
        inputs.task,
        coalesce(status_counts.n_rows, 0) as n_rows,
        coalesce(status_counts.n_accepted, 0) as n_accepted,
        coalesce(status_counts.n_superseded, 0) as n_superseded,
        coalesce(status_counts.n_rejected, 0) as n_rejected,
        coalesce(left_out_counts.n_repeated, 0) as n_repeated,
        coalesce(left_out_counts.n_blank, 0) as n_blank

    from inputs
    left join status_counts
        on inputs.task = status_counts.task
    left join left_out_counts
        on inputs.task = left_out_counts.task

),

with_share as (

    select
        *,
        case
            when n_rows = 0 then 0
            else cast(n_rejected as {{ ragmart_type_double() }}) / n_rows
        end as rejected_share

    from counted

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from with_share

)

select * from final
