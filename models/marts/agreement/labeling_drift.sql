{#-
    ADR-001's first reversal trigger, per family and ISO week: the triage (tier_a) units that were
    spot-checked (two or more votes), the share whose votes disagree on any label, and an alert
    when that share exceeds the var drift_disagreement_threshold in the week and the week before.
    A unit belongs to the week of its latest vote. The votes are counted per unit and label in
    int_annotations__label_consensus; a unit's votes on a label disagree when some but not all are 1.
-#}
{%- set threshold = ragmart_setting('drift_disagreement_threshold') %}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where n_votes > 0

),

triage_records as (

    select * from {{ ref('int_records__per_family') }}
    where tier = 'tier_a'

),

units as (

    select
        label_consensus.task,
        label_consensus.record_uuid,
        label_consensus.unit_chunk_key,
        max(label_consensus.n_votes) as n_votes,
        max(
            case
                when label_consensus.n_positive_votes > 0 and label_consensus.n_positive_votes < label_consensus.n_votes
                    then 1
                else 0
            end
        ) as has_disagreement,
        max(label_consensus.latest_vote_at_utc) as latest_vote_at_utc

    from label_consensus
    inner join triage_records
        on
            label_consensus.task = triage_records.task
            and label_consensus.record_uuid = triage_records.record_uuid
    group by label_consensus.task, label_consensus.record_uuid, label_consensus.unit_chunk_key

),

spot_checked_units as (

    select
        task,
        has_disagreement,
        {{ ragmart_week_start('latest_vote_at_utc') }} as week_start,
        {{ ragmart_iso_week('latest_vote_at_utc') }} as iso_week

    from units
    where n_votes >= 2

),

weekly as (

    select
        task,
        week_start,
        iso_week,
        count(*) as n_spot_checked_units,
        sum(has_disagreement) as n_disagreeing_units,
        cast(sum(has_disagreement) as {{ ragmart_type_double() }}) / count(*) as disagreement_rate

    from spot_checked_units
    group by task, week_start, iso_week

),

with_previous_week as (

    select
        weekly.*,
        previous_week.disagreement_rate as previous_week_disagreement_rate

    from weekly
    left join weekly as previous_week
        on
            weekly.task = previous_week.task
            and {{ dbt.dateadd('day', -7, 'weekly.week_start') }} = previous_week.week_start

),

flagged as (

    select
        *,
        {{ threshold }} as drift_threshold,
        disagreement_rate > {{ threshold }} as is_above_threshold,
        coalesce(
            disagreement_rate > {{ threshold }} and previous_week_disagreement_rate > {{ threshold }},
            false
        ) as is_drift_alert

    from with_previous_week

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from flagged

)

select * from final
