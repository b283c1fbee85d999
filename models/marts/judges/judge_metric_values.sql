{#-
    How far each judge would move each metric, per evaluation run: every metric of metric_values
    recomputed from each judge's own labels on the run's records it can be compared on
    (int_judges__record_values, label source `judge`), beside the human value of the same records:
    means, records behind them and 95 % intervals by ragmart_metric_summary, and the difference
    judge − human.
-#}
with

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

),

judge_record_values as (

    select * from {{ ref('int_judges__record_values') }}
    where label_source = 'judge'

),

human_record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

annotators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}

),

compared_records as (

    select distinct
        source_id as annotator_id,
        run_id,
        family,
        record_uuid

    from judge_record_values

),

paired as (

    select
        source_id as annotator_id,
        'judge' as label_source,
        run_id,
        family,
        metric,
        k,
        interval_method,
        value

    from judge_record_values

    union all

    select
        compared_records.annotator_id,
        'human' as label_source,
        compared_records.run_id,
        human_record_values.family,
        human_record_values.metric,
        human_record_values.k,
        human_record_values.interval_method,
        human_record_values.value

    from compared_records
    inner join human_record_values
        on
            compared_records.family = human_record_values.family
            and compared_records.record_uuid = human_record_values.record_uuid

),

summarised as (

    {{ ragmart_metric_summary('paired', ['annotator_id', 'label_source', 'run_id', 'family', 'metric', 'k'], 'student_t') }}

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
