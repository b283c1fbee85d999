{#-
    The record-clustered jackknife of each judge's Cohen's kappa against the human consensus, per
    judge, task, label and tier (all, tier_b) of int_judges__label_agreement (docs/rules.md,
    Agreement uncertainty): the number of replicates G' and the standard error. A record's
    replicate is kappa over the compared units of the other records: the kappa of the row's counts
    minus the record's (one group-by per record and a join with the totals), with the formula of
    the annotator pairs (ragmart_cohen_kappa_from_counts; the judge is source a, the human
    consensus source b).
-#}
with

compared_labels as (

    select * from {{ ref('int_judges__compared_labels') }}

),

tiered as (

    select
        annotator_id,
        task,
        label,
        'all' as tier,
        record_uuid,
        judge_value,
        human_value

    from compared_labels

    union all

    select
        annotator_id,
        task,
        label,
        tier,
        record_uuid,
        judge_value,
        human_value

    from compared_labels
    where tier = 'tier_b'

),

record_counts as (

    select
        annotator_id,
        task,
        label,
        tier,
        record_uuid,
        count(*) as n_units,
        sum(case when judge_value = human_value then 1 else 0 end) as n_agreeing,
        sum(judge_value) as n_judge_positive,
        sum(human_value) as n_human_positive

    from tiered
    group by annotator_id, task, label, tier, record_uuid

),

totals as (

    select
        annotator_id,
        task,
        label,
        tier,
        sum(n_units) as n_units,
        sum(n_agreeing) as n_agreeing,
        sum(n_judge_positive) as n_judge_positive,
        sum(n_human_positive) as n_human_positive

    from record_counts
    group by annotator_id, task, label, tier

),

replicates as (

    select
        totals.annotator_id,
        totals.task,
        totals.label,
        totals.tier,
        record_counts.record_uuid,
        {{ ragmart_cohen_kappa_from_counts(
            'totals.n_units - record_counts.n_units',
            'totals.n_agreeing - record_counts.n_agreeing',
            'totals.n_judge_positive - record_counts.n_judge_positive',
            'totals.n_human_positive - record_counts.n_human_positive',
        ) | indent(8) }} as cohen_kappa

    from record_counts
    inner join totals
        on
            record_counts.annotator_id = totals.annotator_id
            and record_counts.task = totals.task
            and record_counts.label = totals.label
            and record_counts.tier = totals.tier

),

standard_errors as (

    {{ ragmart_jackknife_standard_errors('replicates', ['annotator_id', 'task', 'label', 'tier'], ['cohen_kappa']) }}

),

final as (

    select
        annotator_id,
        task,
        label,
        tier,
        cohen_kappa_n_replicates as kappa_n_replicates,
        cohen_kappa_standard_error as kappa_standard_error

    from standard_errors

)

select * from final
