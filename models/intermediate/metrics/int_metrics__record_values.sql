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

unioned as (
    {%- for metric in ragmart_metrics() %}

    select
        '{{ metric.family }}' as family,
        '{{ metric.metric }}' as metric,
        {{ 'k' if metric.family == 'retrieval' else 'cast(null as ' ~ dbt.type_int() ~ ')' }} as k,
        record_uuid,
        language,
        '{{ metric.interval }}' as interval_method,
        cast({{ metric.column }} as {{ ragmart_type_double() }}) as value

    from {{ metric.family }}_{{ 'scores' if metric.family == 'retrieval' else 'records' }}
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

)

select * from unioned
