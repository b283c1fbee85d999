{#-
    How far each judge would move each metric, per evaluation run: every metric of metric_values
    recomputed from each judge's own labels on the run's records it can be compared on
    (label source `judge`), beside the human value of the same records (`human`): means, records
    behind them and 95 % intervals of int_judges__summary, side by side, and the difference
    judge − human.
-#}
with

summarised as (

    select * from {{ ref('int_judges__summary') }}
    where label_source in ('judge', 'human')

),

annotators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}

),

side_by_side as (

    select
        run_id,
        annotator_id,
        family,
        metric,
        k,
        max(case when label_source = 'judge' then n_records end) as n_records,
        max(case when label_source = 'judge' then value end) as judge_value,
        max(case when label_source = 'judge' then n_units end) as judge_n_units,
        max(case when label_source = 'judge' then ci_lower end) as judge_ci_lower,
        max(case when label_source = 'judge' then ci_upper end) as judge_ci_upper,
        max(case when label_source = 'human' then value end) as human_value,
        max(case when label_source = 'human' then n_units end) as human_n_units,
        max(case when label_source = 'human' then ci_lower end) as human_ci_lower,
        max(case when label_source = 'human' then ci_upper end) as human_ci_upper

    from summarised
    group by run_id, annotator_id, family, metric, k

),

with_kind as (

    select
        side_by_side.run_id,
        side_by_side.annotator_id,
        annotators.annotator_kind,
        side_by_side.family,
        side_by_side.metric,
        side_by_side.k,
        side_by_side.n_records,
        side_by_side.judge_value,
        side_by_side.judge_n_units,
        side_by_side.judge_ci_lower,
        side_by_side.judge_ci_upper,
        side_by_side.human_value,
        side_by_side.human_n_units,
        side_by_side.human_ci_lower,
        side_by_side.human_ci_upper,
        side_by_side.judge_value - side_by_side.human_value as difference

    from side_by_side
    left join annotators
        on side_by_side.annotator_id = annotators.annotator_id

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from with_kind

)

select * from final
