{#-
    How far each judge would move each metric, per evaluation run: every metric of metric_values
    computed from the judge's own labels on the run's records it can be compared on, beside the human value of the same
    records and the difference (int_judges__metric_values).
-#}
with

metric_values as (

    select * from {{ ref('int_judges__metric_values') }}

),

final as (

    select
        cast(run_id as {{ dbt.type_string() }}) as run_id,
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(annotator_kind as {{ dbt.type_string() }}) as annotator_kind,
        cast(family as {{ dbt.type_string() }}) as family,
        cast(metric as {{ dbt.type_string() }}) as metric,
        cast(k as integer) as k,
        cast(n_records as bigint) as n_records,
        cast(judge_value as {{ ragmart_type_double() }}) as judge_value,
        cast(judge_n_units as bigint) as judge_n_units,
        cast(judge_ci_lower as {{ ragmart_type_double() }}) as judge_ci_lower,
        cast(judge_ci_upper as {{ ragmart_type_double() }}) as judge_ci_upper,
        cast(human_value as {{ ragmart_type_double() }}) as human_value,
        cast(human_n_units as bigint) as human_n_units,
        cast(human_ci_lower as {{ ragmart_type_double() }}) as human_ci_lower,
        cast(human_ci_upper as {{ ragmart_type_double() }}) as human_ci_upper,
        cast(difference as {{ ragmart_type_double() }}) as difference

    from metric_values

)

select * from final
