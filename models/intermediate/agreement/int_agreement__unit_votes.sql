{#- Per unit and label: the number of votes m_u, the 1-votes n_u1, whether the votes disagree, and the record's tier. -#}
with

votes as (

    select * from {{ ref('int_agreement__votes') }}

),

counted as (

    select
        task,
        record_uuid,
        chunk_id,
        unit_chunk_key,
        label,
        tier,
        count(*) as n_votes,
        sum(label_value) as n_positive_votes,
        max(created_at_utc) as latest_vote_at_utc

    from votes
    group by task, record_uuid, chunk_id, unit_chunk_key, label, tier

),

final as (

    select
        *,
        n_positive_votes > 0 and n_positive_votes < n_votes as has_disagreement

    from counted

)

select * from final
