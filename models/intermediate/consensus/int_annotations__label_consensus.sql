{#-
    The human consensus of every unit and label (CONTRACT.md, Consensus): the latest adjudicator
    row decides; else unanimous (single when one vote); else the strict majority; else tied.
    Adjudicator rows are few, so the latest adjudication is found among them alone and joined to
    the counts of every unit and label (one aggregation of the human rows, no window over them).
-#}
with

human_labels as (

    select * from {{ ref('int_annotations__accepted_labels') }}
    where annotator_kind = 'HUMAN'

),

adjudications as (

    select
        task,
        record_uuid,
        label,
        created_at_utc,
        label_value,
        coalesce(chunk_id, '') as unit_chunk_key

    from human_labels
    where annotator_role = 'adjudicator'

),

latest_adjudications as (

    select
        task,
        record_uuid,
        unit_chunk_key,
        label,
        max(created_at_utc) as latest_adjudicated_at_utc

    from adjudications
    group by task, record_uuid, unit_chunk_key, label

),

latest_adjudicated_values as (

    select
        adjudications.task,
        adjudications.record_uuid,
        adjudications.unit_chunk_key,
        adjudications.label,
        min(adjudications.label_value) as min_latest_adjudication,
        max(adjudications.label_value) as max_latest_adjudication

    from adjudications
    inner join latest_adjudications
        on
            adjudications.task = latest_adjudications.task
            and adjudications.record_uuid = latest_adjudications.record_uuid
            and adjudications.unit_chunk_key = latest_adjudications.unit_chunk_key
            and adjudications.label = latest_adjudications.label
            and adjudications.created_at_utc = latest_adjudications.latest_adjudicated_at_utc
    group by adjudications.task, adjudications.record_uuid, adjudications.unit_chunk_key, adjudications.label

),

counted as (

    select
        task,
        record_uuid,
        chunk_id,
        label,
        coalesce(chunk_id, '') as unit_chunk_key,
        sum(case when annotator_role = 'annotator' then 1 else 0 end) as n_votes,
        sum(case when annotator_role = 'annotator' then label_value else 0 end) as n_positive_votes,
        sum(case when annotator_role = 'adjudicator' then 1 else 0 end) as n_adjudications

    from human_labels
    group by task, record_uuid, chunk_id, label

),

with_adjudication as (

    select
        counted.task,
        counted.record_uuid,
        counted.chunk_id,
        counted.label,
        counted.n_votes,
        counted.n_positive_votes,
        counted.n_adjudications,
        latest_adjudicated_values.min_latest_adjudication,
        latest_adjudicated_values.max_latest_adjudication

    from counted
    left join latest_adjudicated_values
        on
            counted.task = latest_adjudicated_values.task
            and counted.record_uuid = latest_adjudicated_values.record_uuid
            and counted.unit_chunk_key = latest_adjudicated_values.unit_chunk_key
            and counted.label = latest_adjudicated_values.label

),

resolved as (

    select
        task,
        record_uuid,
        chunk_id,
        label,
        n_votes,
        n_positive_votes,
        n_adjudications,
        case
            when n_adjudications > 0 and min_latest_adjudication = max_latest_adjudication then 'adjudicated'
            when n_adjudications > 0 then 'tied'
            when n_votes = 1 then 'single'
            when n_positive_votes = 0 or n_positive_votes = n_votes then 'unanimous'
            when 2 * n_positive_votes <> n_votes then 'majority'
            else 'tied'
        end as consensus_method,
        case
            when n_adjudications > 0 and min_latest_adjudication = max_latest_adjudication
                then min_latest_adjudication
            when n_adjudications > 0 or 2 * n_positive_votes = n_votes then null
            when 2 * n_positive_votes > n_votes then 1
            else 0
        end as consensus_value

    from with_adjudication

),

final as (

    select
        *,
        consensus_method <> 'tied' as is_resolved

    from resolved

)

select * from final
