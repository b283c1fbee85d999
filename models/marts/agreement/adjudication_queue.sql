{#-
    ADR-001's adjudication queue (docs/rules.md, Adjudication queue): one row per unit and label
    whose human consensus is tied (int_annotations__label_consensus: no strict majority of the
    votes, or adjudicators who disagree at the latest instant), the rows behind
    labeling_protocol.n_pending, which counts their records per family and tier. With the votes
    (the voters' ids), the record's run, tier, language and task type, and the adjudicators who
    may take it: the HUMAN annotators in the role `adjudicator` who are not among its voters.
-#}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where not is_resolved

),

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where has_human_labels

),

vote_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

adjudicators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'adjudicator'

),

pending_units as (

    select distinct
        task,
        record_uuid,
        unit_chunk_key

    from label_consensus

),

unit_voters as (

    select
        vote_rows.task,
        vote_rows.record_uuid,
        vote_rows.unit_chunk_key,
        {{ ragmart_sorted_list('vote_rows.annotator_id', ';') }} as voter_ids

    from vote_rows
    inner join pending_units
        on
            vote_rows.task = pending_units.task
            and vote_rows.record_uuid = pending_units.record_uuid
            and vote_rows.unit_chunk_key = pending_units.unit_chunk_key
    group by vote_rows.task, vote_rows.record_uuid, vote_rows.unit_chunk_key

),

unit_adjudicators as (

    select
        pending_units.task,
        pending_units.record_uuid,
        pending_units.unit_chunk_key,
        {{ ragmart_sorted_list('adjudicators.annotator_id', ';') }} as eligible_adjudicators,
        count(*) as n_eligible_adjudicators

    from pending_units
    cross join adjudicators
    where
        not exists (
            select 1
            from vote_rows
            where
                vote_rows.task = pending_units.task
                and vote_rows.record_uuid = pending_units.record_uuid
                and vote_rows.unit_chunk_key = pending_units.unit_chunk_key
                and vote_rows.annotator_id = adjudicators.annotator_id
        )
    group by pending_units.task, pending_units.record_uuid, pending_units.unit_chunk_key

),

queue as (

    select
        label_consensus.task,
        label_consensus.record_uuid,
        label_consensus.chunk_id,
        label_consensus.label,
        family_records.run_id,
        family_records.tier,
        family_records.language,
        family_records.task_type,
        label_consensus.n_votes,
        label_consensus.n_positive_votes,
        label_consensus.n_adjudications,
        unit_voters.voter_ids,
        label_consensus.latest_vote_at_utc,
        unit_adjudicators.eligible_adjudicators,
        coalesce(unit_adjudicators.n_eligible_adjudicators, 0) as n_eligible_adjudicators

    from label_consensus
    inner join family_records
        on
            label_consensus.task = family_records.task
            and label_consensus.record_uuid = family_records.record_uuid
    left join unit_voters
        on
            label_consensus.task = unit_voters.task
            and label_consensus.record_uuid = unit_voters.record_uuid
            and label_consensus.unit_chunk_key = unit_voters.unit_chunk_key
    left join unit_adjudicators
        on
            label_consensus.task = unit_adjudicators.task
            and label_consensus.record_uuid = unit_adjudicators.record_uuid
            and label_consensus.unit_chunk_key = unit_adjudicators.unit_chunk_key

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from queue

)

select * from final
