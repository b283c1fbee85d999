{#-
    One row per family and evaluation run the metric marts report (int_metrics__runs): the records
    of the family in the run with human labels, resolved (the records the family's measures
    average over) and pending adjudication. A run without records of the family has zero of both.
-#}
with

runs as (

    select * from {{ ref('int_metrics__runs') }}

),

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where has_human_labels

),

families as (
    {%- for family in ragmart_tasks() %}
    select '{{ family }}' as family{{ ' union all' if not loop.last }}
    {%- endfor %}
),

final as (

    select
        families.family,
        runs.run_id,
        count(case when family_records.is_resolved then 1 end) as n_resolved,
        count(case when not family_records.is_resolved then 1 end) as n_pending_adjudication

    from runs
    cross join families
    left join family_records
        on
            families.family = family_records.task
            and runs.run_id = family_records.run_id
    group by
        families.family,
        runs.run_id

)

select * from final
