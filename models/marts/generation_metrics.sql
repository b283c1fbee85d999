{#- Generation metrics of ADR 0002, one row. -#}
with

summary as (

    select * from {{ ref('int_metrics__summary') }}
    where family = 'generation' and slice_dimension = 'overall'

),

records as (

    select * from {{ ref('int_generation__records') }}

),

record_counts as (

    select
        coalesce(sum(case when is_resolved then 1 else 0 end), 0) as n_answers,
        coalesce(sum(case when is_resolved then 0 else 1 end), 0) as n_pending_adjudication

    from records

),

pivoted as (

    select
        max(case when metric = 'proper_action_rate' then value end) as proper_action_rate,
        max(case when metric = 'on_topic_rate' then value end) as on_topic_rate,
        max(case when metric = 'helpfulness_rate' then value end) as helpfulness_rate,
        max(case when metric = 'incompleteness_rate' then value end) as incompleteness_rate,
        max(case when metric = 'unsafe_content_rate' then value end) as unsafe_content_rate

    from summary

),

final as (

    select
        cast(record_counts.n_answers as {{ dbt.type_bigint() }}) as n_answers,
        cast(record_counts.n_pending_adjudication as {{ dbt.type_bigint() }}) as n_pending_adjudication,
        cast(pivoted.proper_action_rate as {{ ragmart_type_double() }}) as proper_action_rate,
        cast(pivoted.on_topic_rate as {{ ragmart_type_double() }}) as on_topic_rate,
        cast(pivoted.helpfulness_rate as {{ ragmart_type_double() }}) as helpfulness_rate,
        cast(pivoted.incompleteness_rate as {{ ragmart_type_double() }}) as incompleteness_rate,
        cast(pivoted.unsafe_content_rate as {{ ragmart_type_double() }}) as unsafe_content_rate

    from record_counts
    cross join pivoted

)

select * from final
