{#-
    One weight per judge and task from its gold-tier agreement (ADR-001: the gold tier is the
    calibration set): gold_kappa is the mean Cohen's kappa over the task's labels on tier_b
    units (labels with a null kappa left out), the weight is ragmart_judge_weight(gold_kappa)
    (by default the kappa clipped at 0), and a judge is within bounds when gold_kappa reaches
    the var judge_min_kappa. Only within-bounds judges vote in int_judges__unit_labels.
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
    where tier = 'tier_b'

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
        {{ ragmart_exact_avg('cohen_kappa') }} as gold_kappa

    from gold_labels
    group by annotator_id, task

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
        coalesce(gold_kappas.gold_kappa >= {{ ragmart_setting('judge_min_kappa') }}, false)
            as is_within_bounds

    from judge_tasks
    left join gold_unit_counts
        on
            judge_tasks.annotator_id = gold_unit_counts.annotator_id
            and judge_tasks.task = gold_unit_counts.task
    left join gold_kappas
        on
            judge_tasks.annotator_id = gold_kappas.annotator_id
            and judge_tasks.task = gold_kappas.task

)

select * from final
