{#-
    Per task and voter (HUMAN annotator in the role `annotator`): how much they labelled, how often
    they agree with the other voters on the units they share, and how often their vote matches the
    adjudicated value where a unit was adjudicated, so that a lead sees who drifts. Each vote row
    (int_annotations__accepted_rows, every label a column) meets its unit's consensus rows
    (int_annotations__label_consensus, one per label), which already count the unit's votes: a
    vote of 1 agrees with the unit's other 1-votes, a vote of 0 with its other 0-votes, so the
    votes need not be paired. The vote rows are joined by unit and each consensus row takes the
    vote's value of its label, rather than joining one row per vote and label by unit and label:
    the long form's join held about three times the rows on its probe side.
-#}
with

votes as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}

),

vote_labels as (

    select
        votes.task,
        votes.annotator_id,
        votes.created_at_utc,
        label_consensus.label,
        {{ ragmart_label_value('label_consensus.label', 'votes.{label}') | indent(8) }} as label_value,
        label_consensus.n_votes,
        label_consensus.n_positive_votes,
        label_consensus.consensus_method,
        label_consensus.consensus_value

    from votes
    inner join label_consensus
        on
            votes.task = label_consensus.task
            and votes.record_uuid = label_consensus.record_uuid
            and votes.unit_chunk_key = label_consensus.unit_chunk_key

),

voter_labels as (

    select
        task,
        annotator_id,
        label,
        count(*) as n_units,
        sum(label_value) as n_positive,
        count(label_value) as n_valued,
        min(created_at_utc) as first_vote_at_utc,
        max(created_at_utc) as last_vote_at_utc,
        sum(case when n_votes >= 2 then 1 else 0 end) as n_shared_units,
        sum(case when n_votes >= 2 then n_votes - 1 else 0 end) as n_other_votes,
        sum(
            case
                when n_votes < 2 then 0
                when label_value = 1 then n_positive_votes - 1
                else n_votes - n_positive_votes - 1
            end
        ) as n_agreeing,
        sum(case when consensus_method = 'adjudicated' then 1 else 0 end) as n_adjudicated_labels,
        sum(
            case
                when
                    consensus_method = 'adjudicated'
                    and label_value = consensus_value
                    then 1
                else 0
            end
        ) as n_matching_adjudication

    from vote_labels
    group by task, annotator_id, label

),

{#
    A vote carries every label of its task, so a voter has the same units, and the same shared
    units, in every label: max() takes that one number.
#}
voters as (

    select
        task,
        annotator_id,
        max(n_units) as n_units,
        sum(n_units) as n_label_votes,
        sum(n_positive) as n_positive,
        sum(n_valued) as n_valued,
        min(first_vote_at_utc) as first_vote_at_utc,
        max(last_vote_at_utc) as last_vote_at_utc,
        max(n_shared_units) as n_shared_units,
        sum(n_other_votes) as n_pairwise_comparisons,
        sum(n_agreeing) as n_agreeing,
        sum(n_adjudicated_labels) as n_adjudicated_labels,
        sum(n_matching_adjudication) as n_matching_adjudication

    from voter_labels
    group by task, annotator_id

),

labelled as (

    select
        task,
        annotator_id,
        n_units,
        n_label_votes,
        cast(n_positive as {{ ragmart_type_double() }}) / nullif(n_valued, 0) as positive_vote_rate,
        first_vote_at_utc,
        last_vote_at_utc,
        n_shared_units,
        n_pairwise_comparisons,
        cast(n_agreeing as {{ ragmart_type_double() }}) / nullif(n_pairwise_comparisons, 0) as pairwise_agreement,
        n_adjudicated_labels,
        cast(n_matching_adjudication as {{ ragmart_type_double() }})
        / nullif(n_adjudicated_labels, 0) as adjudication_agreement

    from voters

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from labelled

)

select * from final
