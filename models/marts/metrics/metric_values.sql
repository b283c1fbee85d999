{#-
    Every metric in long form for BI tools: per evaluation run, family, metric, K and slice, with its 95 % interval;
    the human consensus's slices and the judges' value of the label_source slice.
-#}
with

human_summary as (

    select * from {{ ref('int_metrics__summary') }}

),

{#
    The `judges` value of the `label_source` slice: every metric, per run, over the run's records
    whose labels the judges estimated (int_judges__summary, label source `judges`), with the
    mean, count and interval of every other slice.
#}
judge_summary as (

    select
        run_id,
        family,
        metric,
        k,
        'label_source' as slice_dimension,
        'judges' as slice_value,
        value,
        n_units,
        ci_lower,
        ci_upper

    from {{ ref('int_judges__summary') }}
    where label_source = 'judges'

),

summary as (

    select * from human_summary

    union all

    select * from judge_summary

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from summary

)

select * from final
