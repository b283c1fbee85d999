{#-
    How well each judge agrees with the human consensus, per task, label and tier (all, tier_b),
    over the units of int_judges__compared_labels (docs/rules.md, Judges): confusion counts,
    accuracy, Cohen's kappa, precision, recall and F1; the human and judge prevalence; and
    Krippendorff's alpha of the human votes on those units without and with the judge as one
    more coder. Kappa's 95 % interval uses the record-clustered jackknife standard error of
    int_judges__kappa_jackknife (docs/rules.md, Agreement uncertainty).
-#}
with

compared_labels as (

    select * from {{ ref('int_judges__compared_labels') }}

),

kappa_jackknife as (

    select * from {{ ref('int_judges__kappa_jackknife') }}

),

tiered as (

    select
        annotator_id,
        task,
        label,
        'all' as tier,
        judge_value,
        human_value,
        n_votes,
        n_positive_votes

    from compared_labels

    union all

    select
        annotator_id,
        task,
        label,
        tier,
        judge_value,
        human_value,
        n_votes,
        n_positive_votes

    from compared_labels
    where tier = 'tier_b'

),

with_judge_votes as (

    select
        *,
        n_votes + 1 as n_votes_with_judge,
        n_positive_votes + judge_value as n_positive_votes_with_judge

    from tiered

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
        sum(case when judge_value = 0 and human_value = 0 then 1 else 0 end) as tn,
        sum(case when n_votes >= 2 then n_votes else 0 end) as n_human_values,
        sum(case when n_votes >= 2 then n_positive_votes else 0 end) as n_positive_human_values,
        coalesce(sum({{ ragmart_unit_disagreement('n_positive_votes', 'n_votes') }}), 0)
            as human_disagreement,
        sum(case when n_votes_with_judge >= 2 then n_votes_with_judge else 0 end) as n_values_with_judge,
        sum(case when n_votes_with_judge >= 2 then n_positive_votes_with_judge else 0 end)
            as n_positive_values_with_judge,
        coalesce(sum({{ ragmart_unit_disagreement('n_positive_votes_with_judge', 'n_votes_with_judge') }}), 0)
            as disagreement_with_judge

    from with_judge_votes
    group by annotator_id, task, label, tier

),

measured as (

    select
        *,
        cast(tp + tn as {{ ragmart_type_double() }}) / n_units as accuracy,
        cast(tp + fp as {{ ragmart_type_double() }}) / n_units as judge_prevalence,
        cast(tp + fn as {{ ragmart_type_double() }}) / n_units as human_prevalence,
        {{ ragmart_precision('tp', 'fp') }} as precision_value,
        {{ ragmart_recall('tp', 'fn') }} as recall_value

    from counted

),

with_kappa as (

    select
        *,
        {{ ragmart_cohen_kappa_from_counts('n_units', 'tp + tn', 'tp + fp', 'tp + fn') }} as cohen_kappa

    from measured

),

with_uncertainty as (

    select
        with_kappa.*,
        kappa_jackknife.kappa_n_replicates,
        kappa_jackknife.kappa_standard_error,
        {{ ragmart_student_t_975('kappa_jackknife.kappa_n_replicates - 1') | indent(8) }} as kappa_t_quantile

    from with_kappa
    left join kappa_jackknife
        on
            with_kappa.annotator_id = kappa_jackknife.annotator_id
            and with_kappa.task = kappa_jackknife.task
            and with_kappa.label = kappa_jackknife.label
            and with_kappa.tier = kappa_jackknife.tier

),

final as (

    select
        annotator_id,
        task,
        label,
        tier,
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
        {{ ragmart_f1('precision_value', 'recall_value') }} as f1,
        human_prevalence,
        judge_prevalence,
        {{ ragmart_krippendorff_alpha('n_human_values', 'n_positive_human_values', 'human_disagreement') }}
            as alpha_humans,
        {{ ragmart_krippendorff_alpha('n_values_with_judge', 'n_positive_values_with_judge', 'disagreement_with_judge') }}
            as alpha_with_judge

    from with_uncertainty

)

select * from final
