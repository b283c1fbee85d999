{#- Grounding metrics of ADR 0002, one row per evaluation run. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'grounding' and slice_dimension = 'overall'

),

records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'grounding' and has_human_labels

),

runs as (

    select * from {{ ref('int_metrics__runs') }}

),

record_counts as (

    select
        runs.run_id,
        count(case when records.is_resolved then 1 end) as n_answers,
        count(case when not records.is_resolved then 1 end) as n_pending_adjudication

    from runs
    left join records
        on runs.run_id = records.run_id
    group by runs.run_id

),

pivoted as (

    select
        record_counts.run_id,
        record_counts.n_answers,
        record_counts.n_pending_adjudication,
        max(case when summary.metric = 'grounding_presence_rate' then summary.value end) as grounding_presence_rate,
        max(case when summary.metric = 'unsupported_claim_rate' then summary.value end) as unsupported_claim_rate,
        max(case when summary.metric = 'contradiction_rate' then summary.value end) as contradiction_rate,
        max(case when summary.metric = 'citation_presence_rate' then summary.value end) as citation_presence_rate,
        coalesce(max(case when summary.metric = 'conditional_fabrication_rate' then summary.n_units end), 0)
            as n_cited_answers,
        max(case when summary.metric = 'conditional_fabrication_rate' then summary.value end) as conditional_fabrication_rate

    from record_counts
    left join summary
        on record_counts.run_id = summary.run_id
    group by
        record_counts.run_id,
        record_counts.n_answers,
        record_counts.n_pending_adjudication

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from pivoted

)

select * from final
