{#-
    One row per grounding record (answer): its consensus labels, whether all are resolved, its language,
    its evaluation run and its pairing key (int_records__runs).
-#}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where task = 'grounding'

),

unit_consensus as (

    {{ ragmart_unit_consensus('grounding', 'label_consensus') }}

),

record_languages as (

    select * from {{ ref('int_annotations__record_languages') }}
    where task = 'grounding'

),

record_runs as (

    select * from {{ ref('int_records__runs') }}
    where task = 'grounding'

),

final as (

    select
        unit_consensus.*,
        record_runs.run_id,
        record_runs.pairing_key,
        coalesce(record_languages.language, 'unknown') as language

    from unit_consensus
    left join record_languages
        on unit_consensus.record_uuid = record_languages.record_uuid
    left join record_runs
        on unit_consensus.record_uuid = record_runs.record_uuid

)

select * from final
