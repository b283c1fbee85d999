{#-
    ADR-001 protocol accounting per family and tier (tier_a triage, tier_b gold, all): records and
    their share against the 40 % gold target, dual-annotated, disagreeing, adjudicated and pending
    records, the triage spot-check rate against its 10 % target, the weakest label's alpha against
    0.75, and the labeling cost of the set; then what the agreement intervals say about that
    target: the lowest 95 % lower bound of alpha and the largest probability that a label's alpha
    misses the target (docs/rules.md, Agreement uncertainty).
-#}
{%- set gold_share_target = ragmart_setting('gold_share_target') %}
with

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where has_human_labels

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}

),

label_agreement as (

    select * from {{ ref('int_agreement__label_agreement') }}

),

{# A record disagrees when the votes on a unit and label are not all equal. #}
record_labels as (

    select
        task,
        record_uuid,
        max(case when n_positive_votes > 0 and n_positive_votes < n_votes then 1 else 0 end) as has_disagreement,
        max(case when consensus_method = 'adjudicated' then 1 else 0 end) as is_adjudicated

    from label_consensus
    group by task, record_uuid

),

records as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.tier,
        case when family_records.n_voters >= 2 then 1 else 0 end as is_dual_annotated,
        coalesce(record_labels.has_disagreement, 0) as has_disagreement,
        coalesce(record_labels.is_adjudicated, 0) as is_adjudicated,
        case when family_records.is_resolved then 0 else 1 end as is_pending

    from family_records
    left join record_labels
        on
            family_records.task = record_labels.task
            and family_records.record_uuid = record_labels.record_uuid

),

tiered as (

    select
        task,
        tier,
        is_dual_annotated,
        has_disagreement,
        is_adjudicated,
        is_pending

    from records

    union all

    select
        task,
        'all' as tier,
        is_dual_annotated,
        has_disagreement,
        is_adjudicated,
        is_pending

    from records

),

counted as (

    select
        task,
        tier,
        count(*) as n_records,
        sum(is_dual_annotated) as n_dual_annotated,
        sum(has_disagreement) as n_disagreeing,
        sum(is_adjudicated) as n_adjudicated,
        sum(is_pending) as n_pending

    from tiered
    group by task, tier

),

family_totals as (

    select
        task,
        count(*) as n_family_records

    from records
    group by task

),

alphas as (

    select
        task,
        tier,
        count(krippendorff_alpha) as n_labels_with_alpha,
        min(krippendorff_alpha) as min_krippendorff_alpha,
        sum(case when meets_target then 1 else 0 end) as n_labels_meeting_target,
        min(alpha_ci_lower) as min_alpha_ci_lower,
        max(p_alpha_below_target) as max_p_alpha_below_target

    from label_agreement
    group by task, tier

),

protocol as (

    select
        counted.task,
        counted.tier,
        counted.n_records,
        cast(counted.n_records as {{ ragmart_type_double() }}) / family_totals.n_family_records as share_of_records,
        case
            when counted.tier = 'tier_b' then {{ gold_share_target }}
            when counted.tier = 'tier_a' then 1 - {{ gold_share_target }}
            else 1
        end as target_share_of_records,
        counted.n_dual_annotated,
        counted.n_disagreeing,
        counted.n_adjudicated,
        counted.n_pending,
        cast(counted.n_dual_annotated as {{ ragmart_type_double() }}) / counted.n_records as dual_annotation_rate,
        case when counted.tier = 'tier_a' then {{ ragmart_setting('spot_check_rate_target') }} end
            as spot_check_rate_target,
        coalesce(alphas.n_labels_with_alpha, 0) as n_labels_with_alpha,
        alphas.min_krippendorff_alpha,
        {{ ragmart_setting('agreement_alpha_target') }} as alpha_target,
        case
            when alphas.n_labels_with_alpha > 0
                then alphas.n_labels_meeting_target = alphas.n_labels_with_alpha
        end as meets_alpha_target,
        (counted.n_records - counted.n_dual_annotated) * {{ ragmart_setting('single_annotation_cost') }}
        + counted.n_dual_annotated * {{ ragmart_setting('dual_annotation_cost') }} as labeling_cost,
        alphas.min_alpha_ci_lower,
        alphas.max_p_alpha_below_target

    from counted
    inner join family_totals
        on counted.task = family_totals.task
    left join alphas
        on
            counted.task = alphas.task
            and counted.tier = alphas.tier

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from protocol

)

select * from final
