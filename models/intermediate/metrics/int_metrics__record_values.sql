{#-
    One row per resolved record and metric (and K for retrieval): the record's score, which the
    metric averages over records. For conditional fabrication the value is null on records whose
    answer cites nothing, so that the average runs over citing answers only.
-#}
with

retrieval_scores as (

    select * from {{ ref('int_retrieval__record_scores') }}

),

grounding_records as (

    select * from {{ ref('int_grounding__records') }}
    where is_resolved

),

generation_records as (

    select * from {{ ref('int_generation__records') }}
    where is_resolved

),

record_tiers as (

    select * from {{ ref('int_records__tiers') }}

),

unioned as (
    {%- for metric in ragmart_metrics() %}

    select
        '{{ metric.family }}' as family,
        '{{ metric.metric }}' as metric,
        {{ 'scored.k' if metric.family == 'retrieval' else 'cast(null as ' ~ dbt.type_int() ~ ')' }} as k,
        scored.record_uuid,
        scored.language,
        coalesce(record_tiers.tier, 'unknown') as tier,
        '{{ metric.interval }}' as interval_method,
        cast({{ metric.column }} as {{ ragmart_type_double() }}) as value

    from {{ metric.family }}_{{ 'scores' if metric.family == 'retrieval' else 'records' }} as scored
    left join record_tiers
        on
            record_tiers.task = '{{ metric.family }}'
            and scored.record_uuid = record_tiers.record_uuid
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from unioned
