{#-
    One row per grounding record (answer): its consensus labels, whether all are resolved, its language,
    its evaluation run and its pairing key (int_records__per_family).
-#}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where task = 'grounding'

),

unit_consensus as (

    {{ ragmart_unit_consensus('grounding', 'label_consensus') }}

),

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'grounding'

),

final as (

    select
        unit_consensus.*,
        family_records.run_id,
        family_records.pairing_key,
        family_records.language

    from unit_consensus
    inner join family_records
        on unit_consensus.record_uuid = family_records.record_uuid

)

select * from final
