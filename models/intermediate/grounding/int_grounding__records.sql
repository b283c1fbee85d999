{#- One row per grounding record (answer): its consensus labels, whether all are resolved, and its language. -#}
with

unit_consensus as (

    {{ ragmart_unit_consensus('grounding') }}

),

record_languages as (

    select * from {{ ref('int_annotations__record_languages') }}
    where task = 'grounding'

),

final as (

    select
        unit_consensus.*,
        coalesce(record_languages.language, 'unknown') as language

    from unit_consensus
    left join record_languages
        on unit_consensus.record_uuid = record_languages.record_uuid

)

select * from final
