{#-
    How well each judge agrees with the human consensus, per task, label, tier (all, tier_b) and
    slice (overall, language, task_type; int_records__slices), over the units of int_judges__compared_labels (docs/rules.md, Judges): confusion counts,
    accuracy, Cohen's kappa, precision, recall and F1; the human and judge prevalence; and
    Krippendorff's alpha of the human votes on those units without and with the judge as one
    more coder, the humans' alpha with its jackknife interval by record (the alpha-based bound
    of int_judges__weights). Kappa's 95 % interval uses its record-clustered jackknife standard error
    (docs/rules.md, Agreement uncertainty): a record's replicate is kappa over the compared units
    of the other records, the kappa of the row's counts minus the record's, with the formula of
    the annotator pairs (ragmart_cohen_kappa_from_counts; the judge is source a, the human
    consensus source b). The compared units are counted once per record (a record has one tier
    and one value per slice dimension), and a row's counts are the sums over its records.
-#}
with

compared_labels as (

    select * from {{ ref('int_judges__compared_labels') }}

),

record_slices as (

    select * from {{ ref('int_records__slices') }}

),

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

),

with_judge_votes as (

    select
        *,
        n_votes + 1 as n_votes_with_judge,
        n_positive_votes + judge_value as n_positive_votes_with_judge

    from compared_labels

),

record_counts_by_tier as (

    select
        annotator_id,
        task,
        label,
        tier,
        record_uuid,
        count(*) as n_units,
        sum(case when judge_value = 1 and human_value = 1 then 1 else 0 end) as tp,
        sum(case when judge_value = 1 and human_value = 0 then 1 else 0 end) as fp,
        sum(case when judge_value = 0 and human_value = 1 then 1 else 0 end) as fn,
        sum(case when judge_value = 0 and human_value = 0 then 1 else 0 end) as tn,
        sum(case when n_votes >= 2 then n_votes else 0 end) as n_human_values,
        sum(case when n_votes >= 2 then n_positive_votes else 0 end) as n_positive_human_values,
        coalesce({{ ragmart_exact_sum(ragmart_unit_disagreement('n_positive_votes', 'n_votes')) }}, 0)
            as human_disagreement,
        sum(case when n_votes_with_judge >= 2 then n_votes_with_judge else 0 end) as n_values_with_judge,
        sum(case when n_votes_with_judge >= 2 then n_positive_votes_with_judge else 0 end)
            as n_positive_values_with_judge,
        coalesce({{ ragmart_exact_sum(ragmart_unit_disagreement('n_positive_votes_with_judge', 'n_votes_with_judge')) }}, 0)
            as disagreement_with_judge

    from with_judge_votes
    group by annotator_id, task, label, tier, record_uuid

),

record_counts_by_slice as (

    select
        record_counts_by_tier.*,
        record_slices.slice_dimension,
        record_slices.slice_value

    from record_counts_by_tier
    inner join record_slices
        on
            record_counts_by_tier.task = record_slices.task
            and record_counts_by_tier.record_uuid = record_slices.record_uuid

),

record_counts as (

    select
        annotator_id,
        task,
        label,
        'all' as tier,
        slice_dimension,
        slice_value,
        record_uuid,
        n_units,
        tp,
        fp,
        fn,
        tn,
        n_human_values,
        n_positive_human_values,
        human_disagreement,
        n_values_with_judge,
        n_positive_values_with_judge,
        disagreement_with_judge

    from record_counts_by_slice

    union all

    select
        annotator_id,
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        record_uuid,
        n_units,
        tp,
        fp,
        fn,
        tn,
        n_human_values,
        n_positive_human_values,
        human_disagreement,
        n_values_with_judge,
        n_positive_values_with_judge,
        disagreement_with_judge

    from record_counts_by_slice
    where tier = 'tier_b'

),

counted as (

    select
        annotator_id,
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        sum(n_units) as n_units,
        sum(tp) as tp,
        sum(fp) as fp,
        sum(fn) as fn,
        sum(tn) as tn,
        sum(n_human_values) as n_human_values,
        sum(n_positive_human_values) as n_positive_human_values,
        {{ ragmart_exact_sum('human_disagreement') }} as human_disagreement,
        sum(n_values_with_judge) as n_values_with_judge,
        sum(n_positive_values_with_judge) as n_positive_values_with_judge,
        {{ ragmart_exact_sum('disagreement_with_judge') }} as disagreement_with_judge

    from record_counts
    group by annotator_id, task, label, tier, slice_dimension, slice_value

),

{# Each record's counts taken out of its group's: the group's totals without the record. #}
left_out as (

    select
        counted.annotator_id,
        counted.task,
        counted.label,
        counted.tier,
        counted.slice_dimension,
        counted.slice_value,
        record_counts.record_uuid,
        record_counts.n_human_values > 0 as has_human_values,
        counted.n_units - record_counts.n_units as n_units,
        (counted.tp + counted.tn) - (record_counts.tp + record_counts.tn) as n_agreeing,
        (counted.tp + counted.fp) - (record_counts.tp + record_counts.fp) as n_positive_judge,
        (counted.tp + counted.fn) - (record_counts.tp + record_counts.fn) as n_positive_human,
        counted.n_human_values - record_counts.n_human_values as n_human_values,
        counted.n_positive_human_values - record_counts.n_positive_human_values as n_positive_human_values,
        counted.human_disagreement - record_counts.human_disagreement as human_disagreement

    from record_counts
    inner join counted
        on
            record_counts.annotator_id = counted.annotator_id
            and record_counts.task = counted.task
            and record_counts.label = counted.label
            and record_counts.tier = counted.tier
            and record_counts.slice_dimension = counted.slice_dimension
            and record_counts.slice_value = counted.slice_value

),

replicates as (

    select
        annotator_id,
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        record_uuid,
        {{ ragmart_cohen_kappa_from_counts('n_units', 'n_agreeing', 'n_positive_judge', 'n_positive_human') }}
            as cohen_kappa,
        {#- the humans' alpha without the record, for the records holding a pairable unit #}
        case
            when has_human_values
                then {{ ragmart_krippendorff_alpha('n_human_values', 'n_positive_human_values', 'human_disagreement') }}
        end as alpha_humans

    from left_out

),

standard_errors as (

    {{ ragmart_jackknife_standard_errors('replicates', ['annotator_id', 'task', 'label', 'tier', 'slice_dimension', 'slice_value'],
        ['cohen_kappa', 'alpha_humans'],
    ) }}

),

measured as (

    select
        *,
        cast(tp + tn as {{ ragmart_type_double() }}) / n_units as accuracy,
        cast(tp + fp as {{ ragmart_type_double() }}) / n_units as judge_prevalence,
        cast(tp + fn as {{ ragmart_type_double() }}) / n_units as human_prevalence,
        {#- precision tp / (tp + fp), null when the judge never says 1 #}
        case when tp + fp > 0 then cast(tp as {{ ragmart_type_double() }}) / (tp + fp) end as precision_value,
        {#- recall tp / (tp + fn), null when the consensus is never 1 #}
        case when tp + fn > 0 then cast(tp as {{ ragmart_type_double() }}) / (tp + fn) end as recall_value

    from counted

),

with_kappa as (

    select
        *,
        {{ ragmart_cohen_kappa_from_counts('n_units', 'tp + tn', 'tp + fp', 'tp + fn') }} as cohen_kappa,
        {{ ragmart_krippendorff_alpha('n_human_values', 'n_positive_human_values', 'human_disagreement') }}
            as alpha_humans,
        {{ ragmart_krippendorff_alpha('n_values_with_judge', 'n_positive_values_with_judge', 'disagreement_with_judge') }}
            as alpha_with_judge

    from measured

),

with_uncertainty as (

    select
        with_kappa.*,
        standard_errors.cohen_kappa_n_replicates as kappa_n_replicates,
        standard_errors.cohen_kappa_standard_error as kappa_standard_error,
        {{ ragmart_student_t_975('standard_errors.cohen_kappa_n_replicates - 1', 'kappa_t.t_975') | indent(8) }}
            as kappa_t_quantile,
        standard_errors.alpha_humans_n_replicates,
        standard_errors.alpha_humans_standard_error,
        {{ ragmart_student_t_975('standard_errors.alpha_humans_n_replicates - 1', 'alpha_humans_t.t_975') | indent(8) }}
            as alpha_humans_t_quantile

    from with_kappa
    left join standard_errors
        on
            with_kappa.annotator_id = standard_errors.annotator_id
            and with_kappa.task = standard_errors.task
            and with_kappa.label = standard_errors.label
            and with_kappa.tier = standard_errors.tier
            and with_kappa.slice_dimension = standard_errors.slice_dimension
            and with_kappa.slice_value = standard_errors.slice_value
    left join student_t as kappa_t
        on standard_errors.cohen_kappa_n_replicates - 1 = kappa_t.degrees_of_freedom
    left join student_t as alpha_humans_t
        on standard_errors.alpha_humans_n_replicates - 1 = alpha_humans_t.degrees_of_freedom

),

final as (

    select
        annotator_id,
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        n_units,
        tp,
        fp,
        fn,
        tn,
        accuracy,
        cohen_kappa,
        kappa_n_replicates,
        kappa_standard_error,
        {{ ragmart_jackknife_bound('cohen_kappa', 'kappa_standard_error', 'kappa_n_replicates', 'kappa_t_quantile', 'lower') }}
            as kappa_ci_lower,
        {{ ragmart_jackknife_bound('cohen_kappa', 'kappa_standard_error', 'kappa_n_replicates', 'kappa_t_quantile', 'upper') }}
            as kappa_ci_upper,
        precision_value,
        recall_value,
        {#- F1 2pr / (p + r), null when precision or recall is null or both are 0 #}
        case
            when precision_value + recall_value > 0
                then 2 * precision_value * recall_value / (precision_value + recall_value)
        end as f1,
        human_prevalence,
        judge_prevalence,
        alpha_humans,
        alpha_humans_n_replicates,
        alpha_humans_standard_error,
        {{ ragmart_jackknife_bound('alpha_humans', 'alpha_humans_standard_error', 'alpha_humans_n_replicates',
            'alpha_humans_t_quantile', 'lower') }} as alpha_humans_ci_lower,
        {{ ragmart_jackknife_bound('alpha_humans', 'alpha_humans_standard_error', 'alpha_humans_n_replicates',
            'alpha_humans_t_quantile', 'upper') }} as alpha_humans_ci_upper,
        alpha_with_judge

    from with_uncertainty

)

select * from final
