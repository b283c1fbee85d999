{#-
    The `judges` value of the `label_source` slice of metric_values: every metric, per run, over
    the run's records whose labels the judges estimated (int_judges__record_values, label source `judges`), with
    the mean, count and interval of every other slice (ragmart_metric_summary). Apart from
    int_metrics__summary, so that a judge model never stands between the exports and the human
    metric marts.
-#}
with

judge_estimated_values as (

    select * from {{ ref('int_judges__record_values') }}
    where label_source = 'judges'

),

sliced as (

    select
        run_id,
        family,
        metric,
        k,
        'label_source' as slice_dimension,
        'judges' as slice_value,
        interval_method,
        value

    from judge_estimated_values

),

summarised as (

    {{ ragmart_metric_summary('sliced', ['run_id', 'family', 'metric', 'k', 'slice_dimension', 'slice_value']) }}

),

final as (

    select
        run_id,
        family,
        metric,
        k,
        slice_dimension,
        slice_value,
        value,
        n_units,
        ci_lower,
        ci_upper

    from summarised

)

select * from final
