{#-
    One weight per judge and task from its gold-tier agreement (ADR-001: the gold tier is the
    calibration set): gold_kappa is the mean Cohen's kappa over the task's labels on tier_b
    units (labels with a null kappa left out), the weight is ragmart_judge_weight(gold_kappa)
    (by default the kappa clipped at 0). Two bounds: the kappa bound (gold_kappa reaches the var
    judge_min_kappa) and the alpha bound (on every tier_b label with a humans' alpha, adding the judge
    as one more coder keeps alpha at or above the humans' jackknife lower bound, when it has one,
    and at or above agreement_alpha_target when the humans' alpha meets it). The var
    judge_bound (`alpha` or `kappa`) chooses which one decides is_within_bounds; only
    within-bounds judges vote in int_judges__unit_labels.
-#}
with

judge_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind in ('LLM', 'CODE')

),

compared_labels as (

    select * from {{ ref('int_judges__compared_labels') }}

),

label_agreement as (

    select * from {{ ref('int_judges__label_agreement') }}

),

judge_tasks as (

    select distinct
        annotator_id,
        annotator_kind,
        task

    from judge_rows

),

gold_units as (

    select distinct
        annotator_id,
        task,
        record_uuid,
        chunk_id

    from compared_labels
    where tier = 'tier_b'

),

gold_labels as (

    select * from label_agreement
    where tier = 'tier_b' and slice_dimension = 'overall'

),

gold_unit_counts as (

    select
        annotator_id,
        task,
        count(*) as n_gold_units

    from gold_units
    group by annotator_id, task

),

gold_kappas as (

    select
        annotator_id,
        task,
        count(*) as n_gold_labels,
        {{ ragmart_exact_avg('cohen_kappa') }} as gold_kappa,
        {#- the labels the alpha bound can judge, and those where the judge falls outside it #}
        sum(case when alpha_with_judge is not null and alpha_humans is not null then 1 else 0 end)
            as n_alpha_labels,
        sum(
            case
                when
                    alpha_with_judge < alpha_humans_ci_lower
                    or (
                        alpha_humans >= {{ ragmart_setting('agreement_alpha_target') }}
                        and alpha_with_judge < {{ ragmart_setting('agreement_alpha_target') }}
                    )
                    then 1
                else 0
            end
        ) as n_alpha_labels_out_of_bounds,
        min(alpha_with_judge - alpha_humans_ci_lower) as min_alpha_margin

    from gold_labels
    group by annotator_id, task

),

bounds as (

    select
        *,
        coalesce(gold_kappa >= {{ ragmart_setting('judge_min_kappa') }}, false) as is_within_kappa_bounds,
        n_alpha_labels > 0 and n_alpha_labels_out_of_bounds = 0 as is_within_alpha_bounds

    from gold_kappas

),

final as (

    select
        judge_tasks.annotator_id,
        judge_tasks.annotator_kind,
        judge_tasks.task,
        coalesce(gold_unit_counts.n_gold_units, 0) as n_gold_units,
        coalesce(gold_kappas.n_gold_labels, 0) as n_gold_labels,
        gold_kappas.gold_kappa,
        {{ ragmart_judge_weight('gold_kappas.gold_kappa') }} as weight,
        {{ ragmart_setting('judge_min_kappa') }} as min_kappa,
        coalesce(gold_kappas.is_within_kappa_bounds, false) as is_within_kappa_bounds,
        coalesce(gold_kappas.n_alpha_labels, 0) as n_alpha_labels,
        coalesce(gold_kappas.n_alpha_labels_out_of_bounds, 0) as n_alpha_labels_out_of_bounds,
        gold_kappas.min_alpha_margin,
        coalesce(gold_kappas.is_within_alpha_bounds, false) as is_within_alpha_bounds,
        '{{ ragmart_setting('judge_bound') }}' as bound,
        coalesce(
            gold_kappas.is_within_{{ ragmart_setting('judge_bound') }}_bounds, false
        ) as is_within_bounds

    from judge_tasks
    left join gold_unit_counts
        on
            judge_tasks.annotator_id = gold_unit_counts.annotator_id
            and judge_tasks.task = gold_unit_counts.task
    left join bounds as gold_kappas
        on
            judge_tasks.annotator_id = gold_kappas.annotator_id
            and judge_tasks.task = gold_kappas.task

)

select * from final
