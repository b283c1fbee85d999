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
        runs.run_id,
        max(case when summary.metric = 'proper_action_rate' then summary.value end) as proper_action_rate,
        max(case when summary.metric = 'on_topic_rate' then summary.value end) as on_topic_rate,
        max(case when summary.metric = 'helpfulness_rate' then summary.value end) as helpfulness_rate,
        max(case when summary.metric = 'incompleteness_rate' then summary.value end) as incompleteness_rate,
        max(case when summary.metric = 'unsafe_content_rate' then summary.value end) as unsafe_content_rate

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
        cast(pivoted.proper_action_rate as {{ ragmart_type_double() }}) as proper_action_rate,
        cast(pivoted.on_topic_rate as {{ ragmart_type_double() }}) as on_topic_rate,
        cast(pivoted.helpfulness_rate as {{ ragmart_type_double() }}) as helpfulness_rate,
        cast(pivoted.incompleteness_rate as {{ ragmart_type_double() }}) as incompleteness_rate,
        cast(pivoted.unsafe_content_rate as {{ ragmart_type_double() }}) as unsafe_content_rate

    from record_counts
    inner join pivoted
        on record_counts.run_id = pivoted.run_id

)

select * from final
