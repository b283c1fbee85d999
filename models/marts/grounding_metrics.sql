{#- Grounding metrics of ADR 0002, one row. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'grounding' and slice_dimension = 'overall'

),

records as (

    select * from {{ ref('int_grounding__records') }}

),

record_counts as (

    select
        coalesce(sum(case when is_resolved then 1 else 0 end), 0) as n_answers,
        coalesce(sum(case when is_resolved then 0 else 1 end), 0) as n_pending_adjudication

    from records

),

pivoted as (

    select
        max(case when metric = 'grounding_presence_rate' then value end) as grounding_presence_rate,
        max(case when metric = 'unsupported_claim_rate' then value end) as unsupported_claim_rate,
        max(case when metric = 'contradiction_rate' then value end) as contradiction_rate,
        max(case when metric = 'citation_presence_rate' then value end) as citation_presence_rate,
        max(case when metric = 'conditional_fabrication_rate' then n_units end) as n_cited_answers,
        max(case when metric = 'conditional_fabrication_rate' then value end) as conditional_fabrication_rate

    from summary

),

final as (

    select
        cast(record_counts.n_answers as {{ dbt.type_bigint() }}) as n_answers,
        cast(record_counts.n_pending_adjudication as {{ dbt.type_bigint() }}) as n_pending_adjudication,
        cast(pivoted.grounding_presence_rate as {{ ragmart_type_double() }}) as grounding_presence_rate,
        cast(pivoted.unsupported_claim_rate as {{ ragmart_type_double() }}) as unsupported_claim_rate,
        cast(pivoted.contradiction_rate as {{ ragmart_type_double() }}) as contradiction_rate,
        cast(pivoted.citation_presence_rate as {{ ragmart_type_double() }}) as citation_presence_rate,
        cast(coalesce(pivoted.n_cited_answers, 0) as {{ dbt.type_bigint() }}) as n_cited_answers,
        cast(pivoted.conditional_fabrication_rate as {{ ragmart_type_double() }}) as conditional_fabrication_rate

    from record_counts
    cross join pivoted

)

select * from final
