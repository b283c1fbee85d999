{#-
    How well each judge (annotator of kind LLM or CODE, whatever its role) agrees with the human
    consensus, per task, label and tier (all, tier_b), over the units whose label has a resolved
    human consensus and an accepted row of that judge (CONTRACT.md, Judges).
-#}
with

accepted_labels as (

    select * from {{ ref('int_annotations__accepted_labels') }}
    where annotator_kind in ('LLM', 'CODE')

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where is_resolved

),

record_tiers as (

    select * from {{ ref('int_records__tiers') }}

),

compared as (

    select
        accepted_labels.annotator_id,
        accepted_labels.task,
        accepted_labels.label,
        record_tiers.tier,
        accepted_labels.label_value as judge_value,
        label_consensus.consensus_value as human_value

    from accepted_labels
    inner join label_consensus
        on
            accepted_labels.task = label_consensus.task
            and accepted_labels.record_uuid = label_consensus.record_uuid
            and coalesce(accepted_labels.chunk_id, '') = coalesce(label_consensus.chunk_id, '')
            and accepted_labels.label = label_consensus.label
    inner join record_tiers
        on
            accepted_labels.task = record_tiers.task
            and accepted_labels.record_uuid = record_tiers.record_uuid

),

tiered as (

    select
        annotator_id,
        task,
        label,
        'all' as tier,
        judge_value,
        human_value

    from compared

    union all

    select
        annotator_id,
        task,
        label,
        tier,
        judge_value,
        human_value

    from compared
    where tier = 'tier_b'

),

counted as (

    select
        annotator_id,
        task,
        label,
        tier,
        count(*) as n_units,
        sum(case when judge_value = 1 and human_value = 1 then 1 else 0 end) as tp,
        sum(case when judge_value = 1 and human_value = 0 then 1 else 0 end) as fp,
        sum(case when judge_value = 0 and human_value = 1 then 1 else 0 end) as fn,
        sum(case when judge_value = 0 and human_value = 0 then 1 else 0 end) as tn

    from tiered
    group by annotator_id, task, label, tier

),

measured as (

    select
        *,
        cast(tp + tn as {{ ragmart_type_double() }}) / n_units as accuracy,
        cast(tp + fp as {{ ragmart_type_double() }}) / n_units as judge_positive_share,
        cast(tp + fn as {{ ragmart_type_double() }}) / n_units as human_positive_share,
        {{ ragmart_precision('tp', 'fp') }} as precision_value,
        {{ ragmart_recall('tp', 'fn') }} as recall_value

    from counted

),

final as (

    select
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(task as {{ dbt.type_string() }}) as task,
        cast(label as {{ dbt.type_string() }}) as label,
        cast(tier as {{ dbt.type_string() }}) as tier,
        cast(n_units as {{ dbt.type_bigint() }}) as n_units,
        cast(tp as {{ dbt.type_bigint() }}) as tp,
        cast(fp as {{ dbt.type_bigint() }}) as fp,
        cast(fn as {{ dbt.type_bigint() }}) as fn,
        cast(tn as {{ dbt.type_bigint() }}) as tn,
        cast(accuracy as {{ ragmart_type_double() }}) as accuracy,
        cast(
            {{ ragmart_cohen_kappa('accuracy', 'judge_positive_share', 'human_positive_share') }}
            as {{ ragmart_type_double() }}
        ) as cohen_kappa,
        cast(precision_value as {{ ragmart_type_double() }}) as precision,
        cast(recall_value as {{ ragmart_type_double() }}) as recall,
        cast({{ ragmart_f1('precision_value', 'recall_value') }} as {{ ragmart_type_double() }}) as f1

    from measured

)

select * from final
