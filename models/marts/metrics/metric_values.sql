{#-
    Every metric in long form for BI tools: per evaluation run, family, metric, K and slice, with its 95 % interval;
    the human consensus's slices and the judges' value of the label_source slice.
-#}
with

human_summary as (

    select * from {{ ref('int_metrics__summary') }}

),

judge_summary as (

    select * from {{ ref('int_judges__metric_summary') }}

),

summary as (

    select * from human_summary

    union all

    select * from judge_summary

),

final as (

    select
        cast(run_id as {{ dbt.type_string() }}) as run_id,
        cast(family as {{ dbt.type_string() }}) as family,
        cast(metric as {{ dbt.type_string() }}) as metric,
        cast(k as integer) as k,
        cast(slice_dimension as {{ dbt.type_string() }}) as slice_dimension,
        cast(slice_value as {{ dbt.type_string() }}) as slice_value,
        cast(value as {{ ragmart_type_double() }}) as value,
        cast(n_units as bigint) as n_units,
        cast(ci_lower as {{ ragmart_type_double() }}) as ci_lower,
        cast(ci_upper as {{ ragmart_type_double() }}) as ci_upper

    from summary

)

select * from final
