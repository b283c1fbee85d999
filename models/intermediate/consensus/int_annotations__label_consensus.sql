{#-
    The human consensus of every unit and label (CONTRACT.md, Consensus): the latest adjudicator
    row decides; else unanimous (single when one vote); else the strict majority; else tied.
-#}
with

human_labels as (

    select * from {{ ref('int_annotations__accepted_labels') }}
    where annotator_kind = 'HUMAN'

),

with_latest_adjudication as (

    select
        *,
        max(case when annotator_role = 'adjudicator' then created_at_utc end) over (
            partition by task, record_uuid, chunk_id, label
        ) as latest_adjudicated_at_utc

    from human_labels

),

counted as (

    select
        task,
        record_uuid,
        chunk_id,
        label,
        sum(case when annotator_role = 'annotator' then 1 else 0 end) as n_votes,
        sum(case when annotator_role = 'annotator' then label_value else 0 end) as n_positive_votes,
        sum(case when annotator_role = 'adjudicator' then 1 else 0 end) as n_adjudications,
        min(
            case
                when annotator_role = 'adjudicator' and created_at_utc = latest_adjudicated_at_utc
                    then label_value
            end
        ) as min_latest_adjudication,
        max(
            case
                when annotator_role = 'adjudicator' and created_at_utc = latest_adjudicated_at_utc
                    then label_value
            end
        ) as max_latest_adjudication

    from with_latest_adjudication
    group by task, record_uuid, chunk_id, label

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

    from counted

),

final as (

    select
        *,
        consensus_method <> 'tied' as is_resolved

    from resolved

)

select * from final
