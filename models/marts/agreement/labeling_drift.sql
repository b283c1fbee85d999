{#-
    ADR-001's first reversal trigger, per family and ISO week: every week with triage (tier_a)
    votes, its triage units, those that were spot-checked (two or more votes), the share whose votes
    disagree on any label, and an alert when that share exceeds the var drift_disagreement_threshold
    in the week and the week before, each on at least drift_min_spot_checks spot-checked units.
    A unit belongs to the week of its latest vote. The votes are counted per unit and label in
    int_annotations__label_consensus; a unit's votes on a label disagree when some but not all are 1.
-#}
{%- set threshold = ragmart_setting('drift_disagreement_threshold') %}
{%- set min_spot_checks = ragmart_setting('drift_min_spot_checks') %}
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

weekly_units as (

    select
        task,
        case when n_votes >= 2 then 1 else 0 end as is_spot_checked,
        case when n_votes >= 2 then has_disagreement else 0 end as has_disagreement,
        {{ ragmart_week_start('latest_vote_at_utc') }} as week_start,
        {{ ragmart_iso_week('latest_vote_at_utc') }} as iso_week

    from units

),

weekly as (

    select
        task,
        week_start,
        iso_week,
        count(*) as n_triage_units,
        sum(is_spot_checked) as n_spot_checked_units,
        sum(has_disagreement) as n_disagreeing_units,
        case
            when sum(is_spot_checked) > 0
                then cast(sum(has_disagreement) as {{ ragmart_type_double() }}) / sum(is_spot_checked)
        end as disagreement_rate

    from weekly_units
    group by task, week_start, iso_week

),

with_previous_week as (

    select
        weekly.*,
        previous_week.disagreement_rate as previous_week_disagreement_rate,
        coalesce(previous_week.n_spot_checked_units, 0) as previous_week_n_spot_checked_units

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
        coalesce(disagreement_rate > {{ threshold }}, false) as is_above_threshold,
        {{ min_spot_checks }} as min_spot_checks,
        n_spot_checked_units < {{ min_spot_checks }} as has_too_few_spot_checks,
        coalesce(
            disagreement_rate > {{ threshold }}
            and n_spot_checked_units >= {{ min_spot_checks }}
            and previous_week_disagreement_rate > {{ threshold }}
            and previous_week_n_spot_checked_units >= {{ min_spot_checks }},
            false
        ) as is_drift_alert

    from with_previous_week

),

{# Once trigger 1 has fired, ADR-001's reversal plan is due: it stays true in the later weeks. #}
with_reversal as (

    select
        *,
        max(case when is_drift_alert then 1 else 0 end) over (
            partition by task
            order by week_start
            rows between unbounded preceding and current row
        ) = 1 as is_reversal_triggered

    from flagged

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from with_reversal

)

select * from final
