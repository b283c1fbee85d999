{#-
    The sign-flip permutation test of every row of int_runs__comparison_tests whose p-value is
    found by permutation (docs/rules.md, Run comparison): for b = 1 … B, the sum T_b of the pairs'
    differences with the signs of permutation b (from the md5 of the draw and the pairing key:
    one sign per draw and pairing key, shared by every measure and comparison), and how many draws
    give |T_b| ≥ |T| − 1e-12, T the observed sum.

    The sums run over one row per pair's key holding the differences of all measures of its
    family as columns (difference_1 … difference_M, M the largest number of measures of a family,
    a retrieval metric counted once per K), so that each draw's sign meets M differences in one
    pass: one measure per row (a long join of the signs with every measure's differences) is
    several times slower (docs/benchmarks.md, "Measurements behind the models' shapes"). Only the
    keys whose sign is −1 are joined: T_b = Σ d − 2 · (Σ of their d).
    The language slices are summed first; the overall sum of a draw is the sum of its languages,
    since the languages split the pairs. Every sum of differences is exact (ragmart_exact_sums.sql),
    so no count depends on the order in which the engine adds the rows.

    The B rows per slice and test are grouped and joined by integers (slice_index, test_index),
    not by the texts of the runs, family, metric and slice: PostgreSQL sorts those texts with the
    database's linguistic collation, which takes minutes on a small export. The
    signs are computed once per draw and key (ragmart_cte_materialized), and found by the key's
    number rather than its text.
-#}
{%- set n_permutations = ragmart_setting('comparison_permutations') %}
{%- set per_family = {} %}
{%- for measure in ragmart_metrics() %}
{%- set per_measure = (ragmart_setting('retrieval_k_values') | length) if measure.family == 'retrieval' else 1 %}
{%- do per_family.update({measure.family: per_family.get(measure.family, 0) + per_measure}) %}
{%- endfor %}
{%- set n_columns = per_family.values() | max %}
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

{# Every test by permutation with a number, by which the permuted sums find it. #}
numbered_tests as (

    select
        baseline_run_id,
        candidate_run_id,
        family,
        metric,
        k,
        slice_dimension,
        slice_value,
        difference_sum,
        row_number() over (
            order by baseline_run_id, candidate_run_id, family, metric, k, slice_dimension, slice_value
        ) as test_index

    from comparison_tests

),

tested_languages as (

    select distinct
        baseline_run_id,
        candidate_run_id,
        family,
        slice_value as language

    from comparison_tests
    where slice_dimension = 'language'

),

{# The language slices (pair of runs, family, language) with a test by permutation, numbered. #}
language_slices as (

    select
        baseline_run_id,
        candidate_run_id,
        family,
        language,
        row_number() over (order by baseline_run_id, candidate_run_id, family, language) as slice_index

    from tested_languages

),

{#
    Each test of a language slice: its slice, its measure's column, and the test of the
    measure's overall slice (null when that one is tested by the normal approximation), each
    with its observed sum T.
#}
slice_tests as (

    select
        language_slices.slice_index,
        measures.measure_index,
        language_tests.test_index as language_test_index,
        language_tests.difference_sum as language_difference_sum,
        overall_tests.test_index as overall_test_index,
        overall_tests.difference_sum as overall_difference_sum

    from language_slices
    inner join measures
        on language_slices.family = measures.family
    inner join numbered_tests as language_tests
        on
            language_slices.baseline_run_id = language_tests.baseline_run_id
            and language_slices.candidate_run_id = language_tests.candidate_run_id
            and language_slices.family = language_tests.family
            and language_slices.language = language_tests.slice_value
            and language_tests.slice_dimension = 'language'
            and measures.metric = language_tests.metric
            and coalesce(measures.k, 0) = coalesce(language_tests.k, 0)
    left join numbered_tests as overall_tests
        on
            language_slices.baseline_run_id = overall_tests.baseline_run_id
            and language_slices.candidate_run_id = overall_tests.candidate_run_id
            and language_slices.family = overall_tests.family
            and overall_tests.slice_dimension = 'overall'
            and measures.metric = overall_tests.metric
            and coalesce(measures.k, 0) = coalesce(overall_tests.k, 0)

),

{# The pairs of the tested language slices (every pair of a measure whose overall slice is tested). #}
permuted_pairs as (

    select
        slice_tests.slice_index,
        slice_tests.measure_index,
        paired_queries.pairing_key,
        paired_queries.difference

    from paired_queries
    inner join language_slices
        on
            paired_queries.baseline_run_id = language_slices.baseline_run_id
            and paired_queries.candidate_run_id = language_slices.candidate_run_id
            and paired_queries.family = language_slices.family
            and paired_queries.language = language_slices.language
    inner join measures
        on
            paired_queries.family = measures.family
            and paired_queries.metric = measures.metric
            and coalesce(paired_queries.k, 0) = coalesce(measures.k, 0)
    inner join slice_tests
        on
            language_slices.slice_index = slice_tests.slice_index
            and measures.measure_index = slice_tests.measure_index

),

{# Each difference already as its exact term (ragmart_exact_term): the sums over the draws add them without a cast per row. #}
key_differences as (

    select
        slice_index,
        pairing_key,
        {%- for i in range(1, n_columns + 1) %}
        {{ ragmart_exact_term('sum(case when measure_index = ' ~ i ~ ' then difference end)') }} as difference_{{ i }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from permuted_pairs
    group by
        slice_index,
        pairing_key

),

draws as (

    select cast(generated_number as integer) as draw
    from ({{ dbt.generate_series(n_permutations) }}) as series

),

{# Every permuted key with a number, by which the signs find the keys' differences. #}
permuted_keys as (

    select
        pairing_key,
        row_number() over (order by pairing_key) as key_index

    from (select distinct pairing_key from key_differences) as distinct_keys

),

indexed_differences as (

    select
        key_differences.*,
        permuted_keys.key_index

    from key_differences
    inner join permuted_keys
        on key_differences.pairing_key = permuted_keys.pairing_key

),

{#
    The draws and keys whose sign is −1. The sign is +1 when the first character of the
    hexadecimal md5 of `<draw>:<pairing_key>` is one of 0 … 7, else −1. md5 is the same function
    on every engine, so DuckDB, PostgreSQL and Spark flip the same signs and give the same
    p-value to the last digit; each sign is +1 or −1 with probability 1/2, independently across
    draws and keys (as far as md5's output is uniform).
#}
negative_signs as {{ ragmart_cte_materialized() }}(

    select
        draws.draw,
        permuted_keys.key_index

    from draws
    cross join permuted_keys
    where
        substring({{ dbt.hash(dbt.concat(['cast(draws.draw as ' ~ dbt.type_string() ~ ')', "':'", 'permuted_keys.pairing_key'])) }}, 1, 1)
        not in ('0', '1', '2', '3', '4', '5', '6', '7')

),

{#
    T_b = Σ sign · d = Σ d − 2 · Σ of the d whose sign is −1: only the negative half of the
    signs is joined with the differences, and no sign multiplies a difference (half the rows
    of a sum over every sign, and a third of its time on a two-run export of 10,000 queries).
    The sums stay exact terms (ragmart_exact_term) up to the comparison with T.
#}
negative_sums as (

    select
        indexed_differences.slice_index,
        negative_signs.draw,
        {%- for i in range(1, n_columns + 1) %}
        sum(indexed_differences.difference_{{ i }}) as negative_sum_{{ i }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from indexed_differences
    inner join negative_signs
        on indexed_differences.key_index = negative_signs.key_index
    group by
        indexed_differences.slice_index,
        negative_signs.draw

),

slice_totals as (

    select
        slice_index,
        {%- for i in range(1, n_columns + 1) %}
        sum(difference_{{ i }}) as total_{{ i }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from key_differences
    group by slice_index

),

slice_sums as (

    select
        slice_totals.slice_index,
        draws.draw,
        {%- for i in range(1, n_columns + 1) %}
        slice_totals.total_{{ i }} - 2 * coalesce(negative_sums.negative_sum_{{ i }}, 0) as permuted_sum_{{ i }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from slice_totals
    cross join draws
    left join negative_sums
        on
            slice_totals.slice_index = negative_sums.slice_index
            and draws.draw = negative_sums.draw

),

language_sums as (

    select
        slice_tests.language_test_index,
        slice_tests.language_difference_sum,
        slice_tests.overall_test_index,
        slice_tests.overall_difference_sum,
        slice_sums.draw,
        case slice_tests.measure_index
            {%- for i in range(1, n_columns + 1) %}
            when {{ i }} then slice_sums.permuted_sum_{{ i }}
            {%- endfor %}
        end as permuted_sum

    from slice_sums
    inner join slice_tests
        on slice_sums.slice_index = slice_tests.slice_index

),

test_sums as (

    select
        language_test_index as test_index,
        language_difference_sum as difference_sum,
        draw,
        permuted_sum

    from language_sums

    union all

    select
        overall_test_index as test_index,
        min(overall_difference_sum) as difference_sum,
        draw,
        sum(permuted_sum) as permuted_sum

    from language_sums
    where overall_test_index is not null
    group by
        overall_test_index,
        draw

),

{# The observed sum travels with the B sums: a join with numbered_tests here could be a nested loop over them. #}
extreme_counts as (

    select
        test_index,
        count(*) as n_permutations,
        sum(case when abs({{ ragmart_exact_double('permuted_sum') }}) >= abs(difference_sum) - 1e-12 then 1 else 0 end)
            as n_extreme

    from test_sums
    group by test_index

),

final as (

    select
        numbered_tests.baseline_run_id,
        numbered_tests.candidate_run_id,
        numbered_tests.family,
        numbered_tests.metric,
        numbered_tests.k,
        numbered_tests.slice_dimension,
        numbered_tests.slice_value,
        extreme_counts.n_permutations,
        extreme_counts.n_extreme

    from numbered_tests
    inner join extreme_counts
        on numbered_tests.test_index = extreme_counts.test_index

)

select * from final
