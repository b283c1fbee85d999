{{ config(materialized='view') }}

{#-
    The votes of CONTRACT.md (Agreement and tiers): for each unit and label, the accepted row of
    each HUMAN annotator in the role `annotator` (adjudicators and LLM / CODE annotators never
    vote), with the record's tier in that family.
-#}
with

accepted_labels as (

    select * from {{ ref('int_annotations__accepted_labels') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

record_tiers as (

    select * from {{ ref('int_records__tiers') }}

),

final as (

    select
        accepted_labels.task,
        accepted_labels.record_uuid,
        accepted_labels.chunk_id,
        accepted_labels.label,
        accepted_labels.annotator_id,
        accepted_labels.label_value,
        accepted_labels.created_at_utc,
        record_tiers.tier,
        coalesce(accepted_labels.chunk_id, '') as unit_chunk_key

    from accepted_labels
    inner join record_tiers
        on
            accepted_labels.task = record_tiers.task
            and accepted_labels.record_uuid = record_tiers.record_uuid

)

select * from final
