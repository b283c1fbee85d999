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
        runs.run_id,
        max(case when summary.metric = 'grounding_presence_rate' then summary.value end) as grounding_presence_rate,
        max(case when summary.metric = 'unsupported_claim_rate' then summary.value end) as unsupported_claim_rate,
        max(case when summary.metric = 'contradiction_rate' then summary.value end) as contradiction_rate,
        max(case when summary.metric = 'citation_presence_rate' then summary.value end) as citation_presence_rate,
        max(case when summary.metric = 'conditional_fabrication_rate' then summary.n_units end) as n_cited_answers,
        max(case when summary.metric = 'conditional_fabrication_rate' then summary.value end) as conditional_fabrication_rate

    from runs
    left join summary
        on runs.run_id = summary.run_id
    group by runs.run_id

),

final as (

    select
        cast(record_counts.run_id as {{ dbt.type_string() }}) as run_id,
        cast(record_counts.n_answers as bigint) as n_answers,
        cast(record_counts.n_pending_adjudication as bigint) as n_pending_adjudication,
        cast(pivoted.grounding_presence_rate as {{ ragmart_type_double() }}) as grounding_presence_rate,
        cast(pivoted.unsupported_claim_rate as {{ ragmart_type_double() }}) as unsupported_claim_rate,
        cast(pivoted.contradiction_rate as {{ ragmart_type_double() }}) as contradiction_rate,
        cast(pivoted.citation_presence_rate as {{ ragmart_type_double() }}) as citation_presence_rate,
        cast(coalesce(pivoted.n_cited_answers, 0) as bigint) as n_cited_answers,
        cast(pivoted.conditional_fabrication_rate as {{ ragmart_type_double() }}) as conditional_fabrication_rate

    from record_counts
    inner join pivoted
        on record_counts.run_id = pivoted.run_id

)

select * from final
