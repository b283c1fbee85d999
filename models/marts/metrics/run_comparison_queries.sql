{#-
    The regression list: for every compared pair of runs, metric (and K), each query (pairing key)
    with a value in both runs, its records in each run, both values, the difference (candidate −
    baseline) and whether the candidate won, tied or lost (docs/rules.md, Run comparison). Sort
    by difference to see the queries that got worse.
-#}
with

paired_queries as (

    select * from {{ ref('int_runs__paired_queries') }}
    where difference is not null

),

final as (

    select
        cast(baseline_run_id as {{ dbt.type_string() }}) as baseline_run_id,
        cast(candidate_run_id as {{ dbt.type_string() }}) as candidate_run_id,
        cast(family as {{ dbt.type_string() }}) as family,
        cast(metric as {{ dbt.type_string() }}) as metric,
        cast(k as integer) as k,
        cast(pairing_key as {{ dbt.type_string() }}) as pairing_key,
        cast(query_text as {{ dbt.type_string() }}) as query_text,
        cast(baseline_record_uuids as {{ dbt.type_string() }}) as baseline_record_uuids,
        cast(candidate_record_uuids as {{ dbt.type_string() }}) as candidate_record_uuids,
        cast(baseline_value as {{ ragmart_type_double() }}) as baseline_value,
        cast(candidate_value as {{ ragmart_type_double() }}) as candidate_value,
        cast(difference as {{ ragmart_type_double() }}) as difference,
        cast(outcome as {{ dbt.type_string() }}) as outcome

    from paired_queries

)

select * from final
