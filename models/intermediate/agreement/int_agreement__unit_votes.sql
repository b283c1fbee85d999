{#-
    Per unit and label with at least one vote: the number of votes m_u, the 1-votes n_u1, whether
    the votes disagree, the latest vote and the record's tier. The votes (accepted rows of HUMAN
    annotators in the role `annotator`) are already counted per unit and label by
    int_annotations__label_consensus; this view adds the tier.
-#}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where n_votes > 0

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

final as (

    select
        label_consensus.task,
        label_consensus.record_uuid,
        label_consensus.chunk_id,
        label_consensus.label,
        family_records.tier,
        label_consensus.n_votes,
        label_consensus.n_positive_votes,
        label_consensus.latest_vote_at_utc,
        label_consensus.unit_chunk_key,
        label_consensus.n_positive_votes > 0
        and label_consensus.n_positive_votes < label_consensus.n_votes as has_disagreement

    from label_consensus
    inner join family_records
        on
            label_consensus.task = family_records.task
            and label_consensus.record_uuid = family_records.record_uuid

)

select * from final
