{#-
    The judges' numbers summarised once for the two marts that report them: the mean, the records
    behind it and the 95 % interval of every metric (ragmart_metric_summary), per group of
    - label source `judge`: each judge's own labels on the run's records it can be compared on,
      and `human`: the human consensus on the same records (per annotator_id, the judge); both
      feed judge_metric_values;
    - label source `judges`: every record whose labels the judges estimated (no annotator_id): the
      `judges` value of metric_values' `label_source` slice.
-#}
with

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

),

judge_values as (

    select * from {{ ref('int_judges__record_values') }}
    where label_source in ('judge', 'judges')

),

human_record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

compared_records as (

    select distinct
        source_id as annotator_id,
        run_id,
        family,
        record_uuid

    from judge_values
    where label_source = 'judge'

),

grouped_values as (

    select
        case when label_source = 'judge' then source_id end as annotator_id,
        label_source,
        run_id,
        family,
        metric,
        k,
        interval_method,
        value

    from judge_values

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

    {{ ragmart_metric_summary('grouped_values', ['annotator_id', 'label_source', 'run_id', 'family', 'metric', 'k'], 'student_t') }}

)

select * from summarised
