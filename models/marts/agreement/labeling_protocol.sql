{#-
    ADR-001 protocol accounting per family, tier (tier_a triage, tier_b gold, all) and slice
    (overall, and each task type of the records input: ADR-001 tracks alpha per task type):
    records and their share against the 40 % gold target, dual-annotated, disagreeing,
    adjudicated and pending records, the triage spot-check rate against its 10 % target, the
    weakest label's alpha against 0.75, and the labeling cost of the set; what the agreement
    intervals say about that target: the lowest 95 % lower bound of alpha and the largest
    probability that a label's alpha misses the target (docs/rules.md, Agreement uncertainty);
    and, on the tier `all` rows, the cases against ADR-001's plan (docs/rules.md, Agreement
    where it is tracked): the resolved cases against the var gold_target_cases, those of the
    high-stakes task types (gold_task_types) against gold_target_high_stakes, shared out to the
    task types, the cases still needed, and the cost per case against the plan's.
-#}
{%- set gold_share_target = ragmart_setting('gold_share_target') %}
{%- set gold_task_types = ragmart_setting('gold_task_types') %}
{%- set single_cost = ragmart_setting('single_annotation_cost') %}
{%- set dual_cost = ragmart_setting('dual_annotation_cost') %}
{%- set target_cases = ragmart_setting('gold_target_cases') %}
{%- set target_high_stakes = ragmart_setting('gold_target_high_stakes') %}
{#- the share of one high-stakes task type divides by their number (1 when the list is empty: no
    task type is high-stakes then, and the branch is never taken) #}
{%- set n_gold_task_types = [gold_task_types | length, 1] | max %}
{%- set is_high_stakes = "slice_value in ('" ~ (gold_task_types | join("', '")) ~ "')"
    if gold_task_types | length > 0 else 'false' %}
with

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where has_human_labels

),

{# The overall and task_type slices of each record (the protocol is tracked per task type). #}
record_slices as (

    select * from {{ ref('int_records__slices') }}
    where slice_dimension in ('overall', 'task_type')

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}

),

label_agreement as (

    select * from {{ ref('int_agreement__label_agreement') }}
    where slice_dimension in ('overall', 'task_type')

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

{# A record is high-stakes when its task type (trimmed) is one of gold_task_types. #}
record_task_types as (

    select
        task,
        record_uuid,
        case when {{ is_high_stakes }} then 1 else 0 end as is_high_stakes

    from record_slices
    where slice_dimension = 'task_type'

),

records as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.tier,
        record_slices.slice_dimension,
        record_slices.slice_value,
        record_task_types.is_high_stakes,
        case when family_records.n_voters >= 2 then 1 else 0 end as is_dual_annotated,
        coalesce(record_labels.has_disagreement, 0) as has_disagreement,
        coalesce(record_labels.is_adjudicated, 0) as is_adjudicated,
        case when family_records.is_resolved then 0 else 1 end as is_pending

    from family_records
    inner join record_slices
        on
            family_records.task = record_slices.task
            and family_records.record_uuid = record_slices.record_uuid
    inner join record_task_types
        on
            family_records.task = record_task_types.task
            and family_records.record_uuid = record_task_types.record_uuid
    left join record_labels
        on
            family_records.task = record_labels.task
            and family_records.record_uuid = record_labels.record_uuid

),

tiered as (

    select
        task,
        tier,
        slice_dimension,
        slice_value,
        is_dual_annotated,
        has_disagreement,
        is_adjudicated,
        is_pending,
        is_high_stakes

    from records

    union all

    select
        task,
        'all' as tier,
        slice_dimension,
        slice_value,
        is_dual_annotated,
        has_disagreement,
        is_adjudicated,
        is_pending,
        is_high_stakes

    from records

),

counted as (

    select
        task,
        tier,
        slice_dimension,
        slice_value,
        count(*) as n_records,
        sum(is_dual_annotated) as n_dual_annotated,
        sum(has_disagreement) as n_disagreeing,
        sum(is_adjudicated) as n_adjudicated,
        sum(is_pending) as n_pending,
        sum(1 - is_pending) as n_gold_cases,
        sum(is_high_stakes * (1 - is_pending)) as n_high_stakes_cases

    from tiered
    group by task, tier, slice_dimension, slice_value

),

slice_totals as (

    select
        task,
        slice_dimension,
        slice_value,
        count(*) as n_slice_records,
        slice_dimension = 'task_type' and {{ is_high_stakes }} as is_high_stakes_type

    from records
    group by task, slice_dimension, slice_value

),

{#
    The plan's cases shared out to a family's task types: the high-stakes target equally among
    the task types of gold_task_types, the rest of the cases equally among the other task types
    the family's records have (`unknown` takes no share).
#}
other_task_types as (

    select
        task,
        count(*) as n_other_task_types

    from slice_totals
    where slice_dimension = 'task_type' and slice_value <> 'unknown' and not is_high_stakes_type
    group by task

),

alphas as (

    select
        task,
        tier,
        slice_dimension,
        slice_value,
        count(krippendorff_alpha) as n_labels_with_alpha,
        min(krippendorff_alpha) as min_krippendorff_alpha,
        sum(case when meets_target then 1 else 0 end) as n_labels_meeting_target,
        min(alpha_ci_lower) as min_alpha_ci_lower,
        max(p_alpha_below_target) as max_p_alpha_below_target

    from label_agreement
    group by task, tier, slice_dimension, slice_value

),

protocol as (

    select
        counted.task,
        counted.tier,
        counted.slice_dimension,
        counted.slice_value,
        counted.n_records,
        cast(counted.n_records as {{ ragmart_type_double() }}) / slice_totals.n_slice_records as share_of_records,
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
        (counted.n_records - counted.n_dual_annotated) * {{ single_cost }}
        + counted.n_dual_annotated * {{ dual_cost }} as labeling_cost,
        alphas.min_alpha_ci_lower,
        alphas.max_p_alpha_below_target,
        counted.n_gold_cases,
        case
            when counted.tier <> 'all' then null
            when counted.slice_dimension = 'overall' then {{ target_cases }}
            when counted.slice_value = 'unknown' then null
            when slice_totals.is_high_stakes_type
                then cast({{ target_high_stakes }} as {{ ragmart_type_double() }}) / {{ n_gold_task_types }}
            else
                cast({{ target_cases }} - {{ target_high_stakes }} as {{ ragmart_type_double() }})
                / other_task_types.n_other_task_types
        end as gold_target_cases,
        counted.n_high_stakes_cases,
        case
            when counted.tier <> 'all' then null
            when counted.slice_dimension = 'overall' then {{ target_high_stakes }}
            when slice_totals.is_high_stakes_type
                then cast({{ target_high_stakes }} as {{ ragmart_type_double() }}) / {{ n_gold_task_types }}
        end as gold_target_high_stakes,
        (
            (counted.n_records - counted.n_dual_annotated) * {{ single_cost }}
            + counted.n_dual_annotated * {{ dual_cost }}
        ) / counted.n_records as cost_per_case,
        {{ dual_cost }} * {{ gold_share_target }} + {{ single_cost }} * (1 - {{ gold_share_target }})
            as target_cost_per_case

    from counted
    inner join slice_totals
        on
            counted.task = slice_totals.task
            and counted.slice_dimension = slice_totals.slice_dimension
            and counted.slice_value = slice_totals.slice_value
    left join other_task_types
        on counted.task = other_task_types.task
    left join alphas
        on
            counted.task = alphas.task
            and counted.tier = alphas.tier
            and counted.slice_dimension = alphas.slice_dimension
            and counted.slice_value = alphas.slice_value

),

with_needed as (

    select
        *,
        case
            when gold_target_cases is not null
                then greatest(cast(ceiling(gold_target_cases - n_gold_cases) as bigint), 0)
        end as n_gold_cases_needed,
        case
            when gold_target_high_stakes is not null
                then greatest(cast(ceiling(gold_target_high_stakes - n_high_stakes_cases) as bigint), 0)
        end as n_high_stakes_cases_needed

    from protocol

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from with_needed

)

select * from final
