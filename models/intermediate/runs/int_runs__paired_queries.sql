{#-
    One row per compared pair of runs, metric (and K) and pairing key that has a value in at least
    one of the two runs (docs/rules.md, Run comparison): both values, the difference d = candidate −
    baseline and its outcome when the key has a value in both (a pair), and the key's language:
    that of its baseline records, or of its candidate records when it has none in the baseline.
    A run's value for a key is the mean of the values of its resolved records with that key (for
    conditional fabrication over the cited ones; null when none cites), with the records behind it,
    one of the key's query texts, and the key's language in the run (that of its records when they
    agree, else `unknown`). The outcome reads the difference in the metric's direction: a `win` is
    the candidate being better (a higher value, or a lower one for the measures where lower is
    better).
-#}
with

comparisons as (

    select * from {{ ref('int_runs__comparisons') }}

),

record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

compared_runs as (

    select baseline_run_id as run_id from comparisons

    union

    select candidate_run_id as run_id from comparisons

),

keyed_values as (

    select
        record_values.run_id,
        record_values.family,
        record_values.metric,
        record_values.k,
        record_values.pairing_key,
        record_values.record_uuid,
        record_values.value,
        family_records.query_text,
        coalesce(record_values.language, 'unknown') as language

    from record_values
    inner join compared_runs
        on record_values.run_id = compared_runs.run_id
    inner join family_records
        on
            record_values.family = family_records.task
            and record_values.record_uuid = family_records.record_uuid

),

{# A compared run's value per key: the mean over its records with that key. #}
query_values as {{ ragmart_cte_materialized() }}(

    select
        run_id,
        family,
        metric,
        k,
        pairing_key,
        {{ ragmart_exact_avg('value') }} as value,
        {{ ragmart_sorted_list('case when value is not null then record_uuid end', ';') }} as record_uuids,
        min(query_text) as query_text,
        case when count(distinct language) = 1 then min(language) else 'unknown' end as language

    from keyed_values
    group by
        run_id,
        family,
        metric,
        k,
        pairing_key

),

baseline_values as (

    select
        query_values.*,
        comparisons.baseline_run_id,
        comparisons.candidate_run_id

    from comparisons
    inner join query_values
        on comparisons.baseline_run_id = query_values.run_id

),

candidate_values as (

    select
        query_values.*,
        comparisons.baseline_run_id,
        comparisons.candidate_run_id

    from comparisons
    inner join query_values
        on comparisons.candidate_run_id = query_values.run_id

),

joined as (

    select
        coalesce(baseline_values.baseline_run_id, candidate_values.baseline_run_id) as baseline_run_id,
        coalesce(baseline_values.candidate_run_id, candidate_values.candidate_run_id) as candidate_run_id,
        coalesce(baseline_values.family, candidate_values.family) as family,
        coalesce(baseline_values.metric, candidate_values.metric) as metric,
        coalesce(baseline_values.k, candidate_values.k) as k,
        coalesce(baseline_values.pairing_key, candidate_values.pairing_key) as pairing_key,
        coalesce(baseline_values.language, candidate_values.language) as language,
        case
            when candidate_values.query_text is null then baseline_values.query_text
            when
                {{ ragmart_collate_binary('baseline_values.query_text') }}
                <= {{ ragmart_collate_binary('candidate_values.query_text') }}
                then baseline_values.query_text
            else candidate_values.query_text
        end as query_text,
        baseline_values.record_uuids as baseline_record_uuids,
        candidate_values.record_uuids as candidate_record_uuids,
        baseline_values.value as baseline_value,
        candidate_values.value as candidate_value

    from baseline_values
    full outer join candidate_values
        on
            baseline_values.baseline_run_id = candidate_values.baseline_run_id
            and baseline_values.candidate_run_id = candidate_values.candidate_run_id
            and baseline_values.family = candidate_values.family
            and baseline_values.metric = candidate_values.metric
            and coalesce(baseline_values.k, 0) = coalesce(candidate_values.k, 0)
            and baseline_values.pairing_key = candidate_values.pairing_key

),

directed as (

    select
        *,
        candidate_value - baseline_value as difference,
        metric not in (
            {%- for measure in ragmart_metrics() if not measure.higher_is_better %}
            '{{ measure.metric }}'
            {%- if not loop.last %},{% endif %}
            {%- endfor %}
        ) as higher_is_better

    from joined
    where baseline_value is not null or candidate_value is not null

),

final as (

    select
        *,
        case
            when abs(difference) <= 1e-12 then 'tie'
            when (difference > 0) = higher_is_better then 'win'
            when difference is not null then 'loss'
        end as outcome

    from directed

)

select * from final
