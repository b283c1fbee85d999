{#-
    Every metric per run and slice of the human consensus: the mean of the per-record values of
    the run's records, the records behind it and its 95 % interval (docs/rules.md, metric_values).
    A slice row exists when the slice has at least one resolved record in that run. The judges' value of the `label_source` slice is
    computed in metric_values from int_judges__record_values; the human metric marts read this model
    alone, so no judge model is among their ancestors.
    The slices: `dimension` is the public slice_dimension, `value` the expression that gives slice_value.
-#}
{%- set slices = [
    {'dimension': 'overall', 'value': "'all'"},
    {'dimension': 'language', 'value': 'language'},
    {'dimension': 'tier', 'value': 'tier'},
    {'dimension': 'label_source', 'value': "'human'"},
] %}
with

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

),

record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

sliced as (
    {%- for slice in slices %}

    select
        run_id,
        family,
        metric,
        k,
        '{{ slice.dimension }}' as slice_dimension,
        {{ slice.value }} as slice_value,
        interval_method,
        value

    from record_values

    {{ 'union all' if not loop.last }}
    {%- endfor %}

),

summarised as (

    {{ ragmart_metric_summary('sliced', ['run_id', 'family', 'metric', 'k', 'slice_dimension', 'slice_value'], 'student_t') }}

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
