{#-
    One row per compared pair of runs, metric (and K) and pairing key that has a value in at least
    one of the two runs (docs/rules.md, Run comparison): both values, the difference d = candidate −
    baseline and its outcome when the key has a value in both (a pair), and the key's language:
    that of its baseline records, or of its candidate records when it has none in the baseline.
    The outcome reads the difference in the metric's direction: a `win` is the candidate being
    better (a higher value, or a lower one for the six measures where lower is better).
-#}
with

comparisons as (

    select * from {{ ref('int_runs__comparisons') }}

),

query_values as (

    select * from {{ ref('int_runs__query_values') }}

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
        {{ ragmart_higher_is_better('metric') }} as higher_is_better

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
