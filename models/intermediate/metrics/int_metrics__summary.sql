{#-
    Every metric per slice: the mean of the per-record values, the records behind it and its
    95 % interval (docs/rules.md, metric_values). A slice row exists when the slice has at least
    one resolved record. Every slice of ragmart_slices() reads the human consensus only; the
    judge-estimated records (int_judges__record_values, label source `judges`) appear in the
    `label_source` slice alone, as slice value `judges`, beside `human`.
-#}
with

record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

judge_estimated_values as (

    select * from {{ ref('int_judges__record_values') }}
    where label_source = 'judges'

),

sliced as (
    {%- for slice in ragmart_slices() %}

    select
        family,
        metric,
        k,
        '{{ slice.dimension }}' as slice_dimension,
        {{ slice.value }} as slice_value,
        interval_method,
        value

    from record_values

    union all
    {%- endfor %}

    select
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

    {{ ragmart_metric_summary('sliced', ['family', 'metric', 'k', 'slice_dimension', 'slice_value']) }}

),

final as (

    select
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
