{#- Generation metrics of ADR 0002, one row per evaluation run. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'generation' and slice_dimension = 'overall'

),

records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'generation' and has_human_labels

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
        max(case when summary.metric = 'proper_action_rate' then summary.value end) as proper_action_rate,
        max(case when summary.metric = 'on_topic_rate' then summary.value end) as on_topic_rate,
        max(case when summary.metric = 'helpfulness_rate' then summary.value end) as helpfulness_rate,
        max(case when summary.metric = 'incompleteness_rate' then summary.value end) as incompleteness_rate,
        max(case when summary.metric = 'unsafe_content_rate' then summary.value end) as unsafe_content_rate

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
