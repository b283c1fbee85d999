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
        {{ ragmart_contract_columns() }}

    from paired_queries

)

select * from final
