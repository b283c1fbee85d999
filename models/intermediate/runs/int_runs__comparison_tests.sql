{#-
    One row per compared pair of runs, metric (and K) and slice (overall, language) with at least
    one pair (docs/rules.md, Run comparison): the paired counts, both means over the pairs, the
    mean difference and its standard deviation, the metric's direction, wins, ties and losses (a
    win is the candidate being better in that direction), and which test gives the
    p-value: the sign-flip permutation test when n_pairs · B ≤ max_permutation_rows, else the
    normal approximation.
-#}
{%- set n_permutations = ragmart_setting('comparison_permutations') %}
with

paired_queries as (

    select * from {{ ref('int_runs__paired_queries') }}

),

sliced as (

    select
        *,
        'overall' as slice_dimension,
        'all' as slice_value

    from paired_queries

    union all

    select
        *,
        'language' as slice_dimension,
        language as slice_value

    from paired_queries

),

summarised as (

    select
        baseline_run_id,
        candidate_run_id,
        family,
        metric,
        k,
        higher_is_better,
        slice_dimension,
        slice_value,
        count(difference) as n_pairs,
        sum(case when candidate_value is null then 1 else 0 end) as n_baseline_only,
        sum(case when baseline_value is null then 1 else 0 end) as n_candidate_only,
        avg(case when difference is not null then baseline_value end) as baseline_value,
        avg(case when difference is not null then candidate_value end) as candidate_value,
        avg(difference) as difference,
        sum(difference) as difference_sum,
        stddev_samp(difference) as difference_stddev,
        sum(case when outcome = 'win' then 1 else 0 end) as n_wins,
        sum(case when outcome = 'tie' then 1 else 0 end) as n_ties,
        sum(case when outcome = 'loss' then 1 else 0 end) as n_losses,
        max(abs(difference)) <= 1e-12 as all_differences_zero

    from sliced
    group by
        baseline_run_id,
        candidate_run_id,
        family,
        metric,
        k,
        higher_is_better,
        slice_dimension,
        slice_value

),

final as (

    select
        *,
        case
            when n_pairs * {{ n_permutations }} <= {{ ragmart_setting('max_permutation_rows') }} then 'permutation'
            else 'normal'
        end as p_value_method

    from summarised
    where n_pairs > 0

)

select * from final
