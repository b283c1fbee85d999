{#-
    One row per compared pair of runs, metric (and K) and slice (overall, language) with at least
    one pair (docs/rules.md, Run comparison): the paired counts, both means over the pairs, the
    mean difference and its standard deviation (from exact sums, ragmart_exact_sums.sql), the
    metric's direction, wins, ties and losses (a win is the candidate being better in that
    direction), and which test gives the p-value: the sign-flip permutation test when
    n_pairs · B ≤ max_permutation_rows, else the normal approximation.
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

{# The standard deviation of each test's differences, from exact sums (ragmart_exact_moments). #}
difference_moments as (

    {{ ragmart_exact_moments('sliced', ['baseline_run_id', 'candidate_run_id', 'family', 'metric', 'k',
                                        'higher_is_better', 'slice_dimension', 'slice_value'], 'difference') }}

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
        {{ ragmart_exact_avg('case when difference is not null then baseline_value end') }} as baseline_value,
        {{ ragmart_exact_avg('case when difference is not null then candidate_value end') }} as candidate_value,
        {{ ragmart_exact_avg('difference') }} as difference,
        {{ ragmart_exact_sum('difference') }} as difference_sum,
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
        summarised.*,
        difference_moments.stddev as difference_stddev,
        case
            when summarised.n_pairs * {{ n_permutations }} <= {{ ragmart_setting('max_permutation_rows') }} then 'permutation'
            else 'normal'
        end as p_value_method

    from summarised
    inner join difference_moments
        on
            summarised.baseline_run_id = difference_moments.baseline_run_id
            and summarised.candidate_run_id = difference_moments.candidate_run_id
            and summarised.family = difference_moments.family
            and summarised.metric = difference_moments.metric
            and coalesce(summarised.k, 0) = coalesce(difference_moments.k, 0)
            and summarised.slice_dimension = difference_moments.slice_dimension
            and summarised.slice_value = difference_moments.slice_value
    where summarised.n_pairs > 0

)

select * from final
