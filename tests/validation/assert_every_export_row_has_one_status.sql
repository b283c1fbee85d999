{#-
    Accounting (docs/rules.md): for each export (and the records seed), rows in the file = accepted + rejected + superseded,
    and every row has exactly one of those statuses. Returns the tasks where the books do not balance.
    The inputs are the staged rows of each input (ragmart_source_model), whatever the source system.
-#}
with
{%- for task in ragmart_status_inputs() %}

{{ task }}_export as (

    select '{{ task }}' as task, count(*) as n_export_rows
    from {{ ragmart_source_model(task) }}

),
{%- endfor %}

export_rows as (
    {%- for task in ragmart_status_inputs() %}
    select * from {{ task }}_export
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

row_status as (

    select * from {{ ref('int_annotations__row_status') }}

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
        coalesce(status_counts.n_superseded, 0) as n_superseded

    from export_rows
    left join status_counts
        on export_rows.task = status_counts.task

)

select * from books
where
    n_export_rows <> n_accepted + n_rejected + n_superseded
    or n_status_rows <> n_export_rows
    or n_distinct_rows <> n_export_rows
