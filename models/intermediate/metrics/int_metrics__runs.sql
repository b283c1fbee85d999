{#-
    The evaluation runs the metric marts report (docs/rules.md, Runs): every run with a record
    (int_records__per_family); with no record at all, the default run alone, so that the wide marts
    keep their rows (zero records, null measures) as they have without runs.
-#}
with

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

recorded_runs as (

    select distinct run_id
    from family_records

),

run_counts as (

    select count(*) as n_runs
    from recorded_runs

),

final as (

    select run_id
    from recorded_runs

    union all

    select {{ ragmart_text_literal(ragmart_setting('default_run_id')) }} as run_id
    from run_counts
    where n_runs = 0

)

select * from final
