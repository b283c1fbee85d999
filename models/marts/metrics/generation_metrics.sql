{#- Generation metrics of ADR 0002, one row per evaluation run. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'generation' and slice_dimension = 'overall'

),

run_records as (

    select * from {{ ref('int_metrics__run_records') }}
    where family = 'generation'

),

pivoted as (

    select
        run_records.run_id,
        run_records.n_resolved as n_answers,
        run_records.n_pending_adjudication,
        max(case when summary.metric = 'proper_action_rate' then summary.value end) as proper_action_rate,
        max(case when summary.metric = 'on_topic_rate' then summary.value end) as on_topic_rate,
        max(case when summary.metric = 'helpfulness_rate' then summary.value end) as helpfulness_rate,
        max(case when summary.metric = 'incompleteness_rate' then summary.value end) as incompleteness_rate,
        max(case when summary.metric = 'unsafe_content_rate' then summary.value end) as unsafe_content_rate

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
