{#- Retrieval metrics of ADR 0002, one row per evaluation run and K of the var retrieval_k_values. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'retrieval' and slice_dimension = 'overall'

),

records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'retrieval' and has_human_labels

),

runs as (

    select * from {{ ref('int_metrics__runs') }}

),

k_values as (

    {{ ragmart_k_values_relation() }}

),

record_counts as (

    select
        runs.run_id,
        count(case when records.is_resolved then 1 end) as n_queries,
        count(case when not records.is_resolved then 1 end) as n_pending_adjudication

    from runs
    left join records
        on runs.run_id = records.run_id
    group by runs.run_id

),

pivoted as (

    select
        runs.run_id,
        k_values.k,
        max(case when summary.metric = 'topical_precision' then summary.value end) as topical_precision_at_k,
        max(case when summary.metric = 'sufficiency_hit' then summary.value end) as sufficiency_hit_at_k,
        max(case when summary.metric = 'sufficiency_rate' then summary.value end) as sufficiency_rate_at_k,
        max(case when summary.metric = 'misleading_context_rate' then summary.value end)
            as misleading_context_rate_at_k,
        max(case when summary.metric = 'mrr' then summary.value end) as mrr_at_k,
        max(case when summary.metric = 'ndcg' then summary.value end) as ndcg_at_k

    from runs
    cross join k_values
    left join summary
        on
            runs.run_id = summary.run_id
            and k_values.k = summary.k
    group by runs.run_id, k_values.k

),

final as (

    select
        cast(pivoted.run_id as {{ dbt.type_string() }}) as run_id,
        cast(pivoted.k as integer) as k,
        cast(record_counts.n_queries as bigint) as n_queries,
        cast(record_counts.n_pending_adjudication as bigint) as n_pending_adjudication,
        cast(pivoted.topical_precision_at_k as {{ ragmart_type_double() }}) as topical_precision_at_k,
        cast(pivoted.sufficiency_hit_at_k as {{ ragmart_type_double() }}) as sufficiency_hit_at_k,
        cast(pivoted.sufficiency_rate_at_k as {{ ragmart_type_double() }}) as sufficiency_rate_at_k,
        cast(pivoted.misleading_context_rate_at_k as {{ ragmart_type_double() }}) as misleading_context_rate_at_k,
        cast(pivoted.mrr_at_k as {{ ragmart_type_double() }}) as mrr_at_k,
        cast(pivoted.ndcg_at_k as {{ ragmart_type_double() }}) as ndcg_at_k

    from pivoted
    inner join record_counts
        on pivoted.run_id = record_counts.run_id

)

select * from final
