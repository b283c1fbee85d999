{#-
    One row per resolved record and metric (and K for retrieval): the record's score, which the
    metric averages over the records of its run, with the record's run and pairing key. For conditional fabrication the value is null on records whose
    answer cites nothing, so that the average runs over citing answers only. Human consensus
    only: the judges' labels are measured in int_judges__record_values.
-#}
with

retrieval_scores as (

    select * from {{ ref('int_retrieval__record_scores') }}

),

resolved_records as (

    select * from {{ ref('int_records__consensus') }}
    where is_resolved

),

grounding_records as (

    select * from resolved_records
    where task = 'grounding'

),

generation_records as (

    select * from resolved_records
    where task = 'generation'

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

unioned as (

    {{ ragmart_metric_record_values({
        'retrieval': 'retrieval_scores',
        'grounding': 'grounding_records',
        'generation': 'generation_records',
    }, ['run_id', 'pairing_key']) }}

),

final as (

    select
        unioned.run_id,
        unioned.pairing_key,
        unioned.family,
        unioned.metric,
        unioned.k,
        unioned.record_uuid,
        unioned.language,
        unioned.interval_method,
        unioned.value,
        coalesce(family_records.tier, 'unknown') as tier

    from unioned
    left join family_records
        on
            unioned.family = family_records.task
            and unioned.record_uuid = family_records.record_uuid

)

select * from final
