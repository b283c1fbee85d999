{#-
    Retrieval metrics of ADR 0002, one row per evaluation run and K of the var retrieval_k_values:
    a column `<metric>_at_k` per retrieval measure of the task spec (ragmart_metrics).
-#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'retrieval' and slice_dimension = 'overall'

),

run_records as (

    select * from {{ ref('int_metrics__run_records') }}
    where family = 'retrieval'

),

k_values as (

    {{ ragmart_k_values_relation() }}

),

pivoted as (

    select
        {%- for measure in ragmart_metrics('retrieval') %}
        max(case when summary.metric = '{{ measure.metric }}' then summary.value end) as {{ measure.metric }}_at_k,
        {%- endfor %}
        run_records.run_id,
        k_values.k,
        run_records.n_resolved as n_queries,
        run_records.n_pending_adjudication

    from run_records
    cross join k_values
    left join summary
        on
            run_records.run_id = summary.run_id
            and k_values.k = summary.k
    group by
        run_records.run_id,
        k_values.k,
        run_records.n_resolved,
        run_records.n_pending_adjudication

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from pivoted

)

select * from final
