{#-
    Per task and voter (HUMAN annotator in the role `annotator`): how much they labelled, how often
    they agree with the other voters on the units they share, and how often their vote matches the
    adjudicated value where a unit was adjudicated, so that a lead sees who drifts. The pairwise
    comparisons are counted from the unit's vote counts (a vote of 1 agrees with the unit's other
    1-votes, a vote of 0 with its other 0-votes) instead of pairing the votes themselves.
-#}
with

votes as (

    select * from {{ ref('int_agreement__votes') }}

),

unit_votes as (

    select * from {{ ref('int_agreement__unit_votes') }}

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where consensus_method = 'adjudicated'

),

labelled as (

    select
        task,
        annotator_id,
        count(distinct {{ dbt.concat(['record_uuid', "'|'", 'unit_chunk_key']) }}) as n_units,
        count(*) as n_label_votes,
        avg(cast(label_value as {{ ragmart_type_double() }})) as positive_vote_rate,
        min(created_at_utc) as first_vote_at_utc,
        max(created_at_utc) as last_vote_at_utc

    from votes
    group by task, annotator_id

),

votes_on_shared_units as (

    select
        votes.task,
        votes.annotator_id,
        votes.record_uuid,
        votes.unit_chunk_key,
        unit_votes.n_votes - 1 as n_other_votes,
        case
            when votes.label_value = 1 then unit_votes.n_positive_votes - 1
            else unit_votes.n_votes - unit_votes.n_positive_votes - 1
        end as n_agreeing_other_votes

    from votes
    inner join unit_votes
        on
            votes.task = unit_votes.task
            and votes.record_uuid = unit_votes.record_uuid
            and votes.unit_chunk_key is not distinct from unit_votes.unit_chunk_key
            and votes.label = unit_votes.label
    where unit_votes.n_votes >= 2

),

compared_with_others as (

    select
        task,
        annotator_id,
        count(distinct {{ dbt.concat(['record_uuid', "'|'", 'unit_chunk_key']) }}) as n_shared_units,
        sum(n_other_votes) as n_pairwise_comparisons,
        cast(sum(n_agreeing_other_votes) as {{ ragmart_type_double() }}) / sum(n_other_votes) as pairwise_agreement

    from votes_on_shared_units
    group by task, annotator_id

),

compared_with_adjudication as (

    select
        votes.task,
        votes.annotator_id,
        count(*) as n_adjudicated_labels,
        avg(cast(case when votes.label_value = label_consensus.consensus_value then 1 else 0 end as {{ ragmart_type_double() }}))
            as adjudication_agreement

    from votes
    inner join label_consensus
        on
            votes.task = label_consensus.task
            and votes.record_uuid = label_consensus.record_uuid
            and votes.unit_chunk_key = coalesce(label_consensus.chunk_id, '')
            and votes.label = label_consensus.label
    group by votes.task, votes.annotator_id

),

final as (

    select
        cast(labelled.task as {{ dbt.type_string() }}) as task,
        cast(labelled.annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(labelled.n_units as {{ dbt.type_bigint() }}) as n_units,
        cast(labelled.n_label_votes as {{ dbt.type_bigint() }}) as n_label_votes,
        cast(labelled.positive_vote_rate as {{ ragmart_type_double() }}) as positive_vote_rate,
        cast(coalesce(compared_with_others.n_shared_units, 0) as {{ dbt.type_bigint() }}) as n_shared_units,
        cast(coalesce(compared_with_others.n_pairwise_comparisons, 0) as {{ dbt.type_bigint() }})
            as n_pairwise_comparisons,
        cast(compared_with_others.pairwise_agreement as {{ ragmart_type_double() }}) as pairwise_agreement,
        cast(coalesce(compared_with_adjudication.n_adjudicated_labels, 0) as {{ dbt.type_bigint() }})
            as n_adjudicated_labels,
        cast(compared_with_adjudication.adjudication_agreement as {{ ragmart_type_double() }})
            as adjudication_agreement,
        labelled.first_vote_at_utc,
        labelled.last_vote_at_utc

    from labelled
    left join compared_with_others
        on
            labelled.task = compared_with_others.task
            and labelled.annotator_id = compared_with_others.annotator_id
    left join compared_with_adjudication
        on
            labelled.task = compared_with_adjudication.task
            and labelled.annotator_id = compared_with_adjudication.annotator_id

)

select * from final
