{#-
    One row per judge (annotator of kind LLM or CODE, whatever its role), unit and label where the
    label has a resolved human consensus and the judge an accepted row: the judge's value beside
    the consensus, the human votes of the unit and the record's tier (docs/rules.md, Judges).
    A judge's accepted rows (int_annotations__accepted_rows, every label a column) are joined to
    the unit's consensus rows (one per label) by unit, and each consensus row takes the judge's
    value of its label: the judge's rows, one per unit, are the small side of the join.
-#}
with

judge_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind in ('LLM', 'CODE')

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
        judge_rows.annotator_id,
        judge_rows.annotator_kind,
        judge_rows.task,
        judge_rows.record_uuid,
        judge_rows.chunk_id,
        label_consensus.label,
        family_records.tier,
        {{ ragmart_label_value('label_consensus.label', 'judge_rows.{label}') | indent(8) }} as judge_value,
        label_consensus.consensus_value as human_value,
        label_consensus.n_votes,
        label_consensus.n_positive_votes

    from judge_rows
    inner join label_consensus
        on
            judge_rows.task = label_consensus.task
            and judge_rows.record_uuid = label_consensus.record_uuid
            and judge_rows.unit_chunk_key = label_consensus.unit_chunk_key
    inner join family_records
        on
            judge_rows.task = family_records.task
            and judge_rows.record_uuid = family_records.record_uuid

)

select * from final
