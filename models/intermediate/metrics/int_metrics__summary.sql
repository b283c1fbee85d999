{#-
    Every metric per slice: the mean of the per-record values, the records behind it and its
    95 % interval (CONTRACT.md, metric_values). A slice row exists when the slice has at least
    one resolved record.
-#}
with

record_values as (

    select * from {{ ref('int_metrics__record_values') }}

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
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

aggregated as (

    select
        family,
        metric,
        k,
        slice_dimension,
        slice_value,
        interval_method,
        avg(value) as value,
        count(value) as n_units,
        stddev_samp(value) as value_stddev

    from sliced
    group by family, metric, k, slice_dimension, slice_value, interval_method

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
        case
            when interval_method = 'wilson' then {{ ragmart_wilson_bound('value', 'n_units', 'lower') }}
            else {{ ragmart_mean_bound('value', 'value_stddev', 'n_units', 'lower') }}
        end as ci_lower,
        case
            when interval_method = 'wilson' then {{ ragmart_wilson_bound('value', 'n_units', 'upper') }}
            else {{ ragmart_mean_bound('value', 'value_stddev', 'n_units', 'upper') }}
        end as ci_upper

    from aggregated

)

select * from final
