{#-
    Retrieval metrics of ADR 0002, one row per evaluation run and K of the var retrieval_k_values:
    a column `<metric>_at_k` per retrieval measure of the task spec (ragmart_metrics).
-#}
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
        {%- for measure in ragmart_metrics('retrieval') %}
        max(case when summary.metric = '{{ measure.metric }}' then summary.value end) as {{ measure.metric }}_at_k,
        {%- endfor %}
        record_counts.run_id,
        k_values.k,
        record_counts.n_queries,
        record_counts.n_pending_adjudication

    from record_counts
    cross join k_values
    left join summary
        on
            record_counts.run_id = summary.run_id
            and k_values.k = summary.k
    group by
        record_counts.run_id,
        k_values.k,
        record_counts.n_queries,
        record_counts.n_pending_adjudication

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from pivoted

)

select * from final
