{#-
    The sign-flip permutation test of every row of int_runs__comparison_tests whose p-value is
    found by permutation (docs/rules.md, Run comparison): for b = 1 … B, the sum T_b of the pairs'
    differences with the signs of permutation b (ragmart_permutation_sign, one sign per draw and
    pairing key, shared by every measure and comparison), and how many draws give |T_b| ≥ |T| −
    1e-12, T the observed sum.

    The sums run over one row per pair's key holding the differences of all measures of its
    family as columns (difference_1 … difference_M, M = ragmart_max_measures_per_family()), so
    that each sign multiplies M differences in one pass: at 10,000 keys and B = 10,000, one
    measure per row (a long join of the signs with every measure's differences) took 53 s on two
    cores, the columns 6 s (the md5 of the 100M signs takes 28 s either way; docs/benchmarks.md).
    The language slices are summed first; the overall sum of a draw is the sum of its languages,
    since the languages split the pairs.
-#}
{%- set n_permutations = ragmart_comparison_permutations() %}
{%- set n_columns = ragmart_max_measures_per_family() %}
with

paired_queries as (

    select * from {{ ref('int_runs__paired_queries') }}
    where difference is not null

),

comparison_tests as (

    select * from {{ ref('int_runs__comparison_tests') }}
    where p_value_method = 'permutation'

),

distinct_measures as (

    select distinct
        family,
        metric,
        k

    from paired_queries

),

{# The column of each measure among its family's difference columns. #}
measures as (

    select
        family,
        metric,
        k,
        dense_rank() over (partition by family order by metric, k) as measure_index

    from distinct_measures

),

{# The pairs of the language slices that are tested by permutation (every pair of a measure whose overall slice is). #}
permuted_pairs as (

    select
        paired_queries.baseline_run_id,
        paired_queries.candidate_run_id,
        paired_queries.family,
        paired_queries.language,
        paired_queries.pairing_key,
        paired_queries.difference,
        measures.measure_index

    from paired_queries
    inner join measures
        on
            paired_queries.family = measures.family
            and paired_queries.metric = measures.metric
            and coalesce(paired_queries.k, 0) = coalesce(measures.k, 0)
    inner join comparison_tests
        on
            paired_queries.baseline_run_id = comparison_tests.baseline_run_id
            and paired_queries.candidate_run_id = comparison_tests.candidate_run_id
            and paired_queries.family = comparison_tests.family
            and paired_queries.metric = comparison_tests.metric
            and coalesce(paired_queries.k, 0) = coalesce(comparison_tests.k, 0)
            and comparison_tests.slice_dimension = 'language'
            and paired_queries.language = comparison_tests.slice_value

),

key_differences as (

    select
        baseline_run_id,
        candidate_run_id,
        family,
        language,
        pairing_key,
        {%- for i in range(1, n_columns + 1) %}
        sum(case when measure_index = {{ i }} then difference end) as difference_{{ i }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from permuted_pairs
    group by
        baseline_run_id,
        candidate_run_id,
        family,
        language,
        pairing_key

),

draws as (

    select cast(generated_number as {{ dbt.type_int() }}) as draw
    from ({{ dbt.generate_series(n_permutations) }}) as series

),

permuted_keys as (

    select distinct pairing_key
    from key_differences

),

signs as (

    select
        draws.draw,
        permuted_keys.pairing_key,
        {{ ragmart_permutation_sign('draws.draw', 'permuted_keys.pairing_key') }} as sign

    from draws
    cross join permuted_keys

),

language_sums as (

    select
        key_differences.baseline_run_id,
        key_differences.candidate_run_id,
        key_differences.family,
        key_differences.language,
        signs.draw,
        {%- for i in range(1, n_columns + 1) %}
        sum(signs.sign * key_differences.difference_{{ i }}) as permuted_sum_{{ i }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from key_differences
    inner join signs
        on key_differences.pairing_key = signs.pairing_key
    group by
        key_differences.baseline_run_id,
        key_differences.candidate_run_id,
        key_differences.family,
        key_differences.language,
        signs.draw

),

measure_sums as (

    select
        language_sums.baseline_run_id,
        language_sums.candidate_run_id,
        language_sums.family,
        measures.metric,
        measures.k,
        language_sums.language,
        language_sums.draw,
        case measures.measure_index
            {%- for i in range(1, n_columns + 1) %}
            when {{ i }} then language_sums.permuted_sum_{{ i }}
            {%- endfor %}
        end as permuted_sum

    from language_sums
    inner join measures
        on language_sums.family = measures.family

),

slice_sums as (

    select
        baseline_run_id,
        candidate_run_id,
        family,
        metric,
        k,
        'language' as slice_dimension,
        language as slice_value,
        draw,
        permuted_sum

    from measure_sums
    where permuted_sum is not null

    union all

    select
        baseline_run_id,
        candidate_run_id,
        family,
        metric,
        k,
        'overall' as slice_dimension,
        'all' as slice_value,
        draw,
        sum(permuted_sum) as permuted_sum

    from measure_sums
    group by
        baseline_run_id,
        candidate_run_id,
        family,
        metric,
        k,
        draw

),

final as (

    select
        comparison_tests.baseline_run_id,
        comparison_tests.candidate_run_id,
        comparison_tests.family,
        comparison_tests.metric,
        comparison_tests.k,
        comparison_tests.slice_dimension,
        comparison_tests.slice_value,
        count(*) as n_permutations,
        sum(
            case when abs(slice_sums.permuted_sum) >= abs(comparison_tests.difference_sum) - 1e-12 then 1 else 0 end
        ) as n_extreme

    from comparison_tests
    inner join slice_sums
        on
            comparison_tests.baseline_run_id = slice_sums.baseline_run_id
            and comparison_tests.candidate_run_id = slice_sums.candidate_run_id
            and comparison_tests.family = slice_sums.family
            and comparison_tests.metric = slice_sums.metric
            and coalesce(comparison_tests.k, 0) = coalesce(slice_sums.k, 0)
            and comparison_tests.slice_dimension = slice_sums.slice_dimension
            and comparison_tests.slice_value = slice_sums.slice_value
    group by
        comparison_tests.baseline_run_id,
        comparison_tests.candidate_run_id,
        comparison_tests.family,
        comparison_tests.metric,
        comparison_tests.k,
        comparison_tests.slice_dimension,
        comparison_tests.slice_value

)

select * from final
