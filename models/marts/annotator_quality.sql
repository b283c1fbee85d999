{#-
    Per task and voter (HUMAN annotator in the role `annotator`): how much they labelled, how often
    they agree with the other voters on the units they share, and how often their vote matches the
    adjudicated value where a unit was adjudicated, so that a lead sees who drifts. The pairwise
    comparisons are counted from the unit's vote counts (a vote of 1 agrees with the unit's other
    1-votes, a vote of 0 with its other 0-votes) instead of pairing the votes themselves, and the
    votes are read in wide form (int_annotations__accepted_rows of HUMAN annotators in the role
    `annotator`: one row per voter and unit, every label a column), so each vote row is read once
    for all the labels of its task; only the voters' totals become one row per label.
-#}
with

votes as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

adjudicated as (

    select
        task,
        record_uuid,
        label,
        consensus_value,
        coalesce(chunk_id, '') as unit_chunk_key

    from {{ ref('int_annotations__label_consensus') }}
    where consensus_method = 'adjudicated'

),

task_labels as (
    {{ ragmart_task_labels() }}

),

units as (

    select
        task,
        record_uuid,
        unit_chunk_key,
        count(*) as n_votes,
        {%- for label in ragmart_labels() %}
        sum({{ label }}) as n_positive_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from votes
    group by task, record_uuid, unit_chunk_key

),

{# A vote of 1 agrees with the unit's other 1-votes, a vote of 0 with its other 0-votes. #}
voter_totals as (

    select
        votes.task,
        votes.annotator_id,
        count(*) as n_units,
        {%- for label in ragmart_labels() %}
        sum(votes.{{ label }}) as n_positive_{{ label }},
        count(votes.{{ label }}) as n_valued_{{ label }},
        {%- endfor %}
        min(votes.created_at_utc) as first_vote_at_utc,
        max(votes.created_at_utc) as last_vote_at_utc,
        {%- for label in ragmart_labels() %}
        sum(
            case
                when units.n_votes < 2 then 0
                when votes.{{ label }} = 1 then units.n_positive_{{ label }} - 1
                else units.n_votes - units.n_positive_{{ label }} - 1
            end
        ) as n_agreeing_{{ label }},
        {%- endfor %}
        sum(case when units.n_votes >= 2 then 1 else 0 end) as n_shared_units,
        sum(case when units.n_votes >= 2 then units.n_votes - 1 else 0 end) as n_other_votes

    from votes
    inner join units
        on
            votes.task = units.task
            and votes.record_uuid = units.record_uuid
            and votes.unit_chunk_key = units.unit_chunk_key
    group by votes.task, votes.annotator_id

),

voter_labels as (

    select
        voter_totals.task,
        voter_totals.annotator_id,
        {{ ragmart_label_value('task_labels.label', 'voter_totals.n_positive_{label}') | indent(8) }} as n_positive,
        {{ ragmart_label_value('task_labels.label', 'voter_totals.n_valued_{label}') | indent(8) }} as n_valued,
        {{ ragmart_label_value('task_labels.label', 'voter_totals.n_agreeing_{label}') | indent(8) }} as n_agreeing

    from voter_totals
    inner join task_labels
        on voter_totals.task = task_labels.task

),

voter_label_sums as (

    select
        task,
        annotator_id,
        count(*) as n_labels,
        sum(n_positive) as n_positive,
        sum(n_valued) as n_valued,
        sum(n_agreeing) as n_agreeing

    from voter_labels
    group by task, annotator_id

),

adjudication as (

    select
        votes.task,
        votes.annotator_id,
        count(*) as n_adjudicated_labels,
        sum(
            case
                when {{ ragmart_label_value('adjudicated.label', 'votes.{label}') | indent(16) }} = adjudicated.consensus_value
                    then 1
                else 0
            end
        ) as n_matching_adjudication

    from votes
    inner join adjudicated
        on
            votes.task = adjudicated.task
            and votes.record_uuid = adjudicated.record_uuid
            and votes.unit_chunk_key = adjudicated.unit_chunk_key
    group by votes.task, votes.annotator_id

),

labelled as (

    select
        voter_totals.task,
        voter_totals.annotator_id,
        voter_totals.n_units,
        voter_totals.n_units * voter_label_sums.n_labels as n_label_votes,
        cast(voter_label_sums.n_positive as {{ ragmart_type_double() }})
        / nullif(voter_label_sums.n_valued, 0) as positive_vote_rate,
        voter_totals.first_vote_at_utc,
        voter_totals.last_vote_at_utc,
        voter_totals.n_shared_units,
        voter_label_sums.n_labels * voter_totals.n_other_votes as n_pairwise_comparisons,
        cast(voter_label_sums.n_agreeing as {{ ragmart_type_double() }})
        / nullif(voter_label_sums.n_labels * voter_totals.n_other_votes, 0) as pairwise_agreement,
        adjudication.n_adjudicated_labels,
        cast(adjudication.n_matching_adjudication as {{ ragmart_type_double() }})
        / adjudication.n_adjudicated_labels as adjudication_agreement

    from voter_totals
    inner join voter_label_sums
        on
            voter_totals.task = voter_label_sums.task
            and voter_totals.annotator_id = voter_label_sums.annotator_id
    left join adjudication
        on
            voter_totals.task = adjudication.task
            and voter_totals.annotator_id = adjudication.annotator_id

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(n_units as bigint) as n_units,
        cast(n_label_votes as bigint) as n_label_votes,
        cast(positive_vote_rate as {{ ragmart_type_double() }}) as positive_vote_rate,
        cast(n_shared_units as bigint) as n_shared_units,
        cast(n_pairwise_comparisons as bigint) as n_pairwise_comparisons,
        cast(pairwise_agreement as {{ ragmart_type_double() }}) as pairwise_agreement,
        cast(coalesce(n_adjudicated_labels, 0) as bigint) as n_adjudicated_labels,
        cast(adjudication_agreement as {{ ragmart_type_double() }}) as adjudication_agreement,
        first_vote_at_utc,
        last_vote_at_utc

    from labelled

)

select * from final
