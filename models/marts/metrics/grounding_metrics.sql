{#- Grounding metrics of ADR 0002, one row per evaluation run. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'grounding' and slice_dimension = 'overall'

),

run_records as (

    select * from {{ ref('int_metrics__run_records') }}
    where family = 'grounding'

),

pivoted as (

    select
        run_records.run_id,
        run_records.n_resolved as n_answers,
        run_records.n_pending_adjudication,
        max(case when summary.metric = 'grounding_presence_rate' then summary.value end) as grounding_presence_rate,
        max(case when summary.metric = 'unsupported_claim_rate' then summary.value end) as unsupported_claim_rate,
        max(case when summary.metric = 'contradiction_rate' then summary.value end) as contradiction_rate,
        max(case when summary.metric = 'citation_presence_rate' then summary.value end) as citation_presence_rate,
        coalesce(max(case when summary.metric = 'conditional_fabrication_rate' then summary.n_units end), 0)
            as n_cited_answers,
        max(case when summary.metric = 'conditional_fabrication_rate' then summary.value end) as conditional_fabrication_rate

    from run_records
    left join summary
        on run_records.run_id = summary.run_id
    group by
        run_records.run_id,
        run_records.n_resolved,
        run_records.n_pending_adjudication

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from pivoted

)

select * from final
