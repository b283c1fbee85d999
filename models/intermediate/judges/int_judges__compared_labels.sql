{#-
    One row per judge (annotator of kind LLM or CODE, whatever its role), unit and label where the
    label has a resolved human consensus and the judge an accepted row: the judge's value beside
    the consensus, the human votes of the unit and the record's tier (docs/rules.md, Judges).
-#}
with

judge_labels as (

    select * from {{ ref('int_judges__labels') }}

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where is_resolved

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

final as (

    select
        judge_labels.annotator_id,
        judge_labels.annotator_kind,
        judge_labels.task,
        judge_labels.record_uuid,
        judge_labels.chunk_id,
        judge_labels.label,
        family_records.tier,
        judge_labels.label_value as judge_value,
        label_consensus.consensus_value as human_value,
        label_consensus.n_votes,
        label_consensus.n_positive_votes

    from judge_labels
    inner join label_consensus
        on
            judge_labels.task = label_consensus.task
            and judge_labels.record_uuid = label_consensus.record_uuid
            and judge_labels.unit_chunk_key = label_consensus.unit_chunk_key
            and judge_labels.label = label_consensus.label
    inner join family_records
        on
            judge_labels.task = family_records.task
            and judge_labels.record_uuid = family_records.record_uuid

)

select * from final
