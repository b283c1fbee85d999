{#-
    Every compared pair of runs, per family, metric (and K) and slice (overall, language): the
    paired difference with its 95 % t interval, the metric's direction, wins, ties and losses (a win
    is the candidate being better, whichever the direction), the two-sided p-value of the
    paired test and Holm's adjustment over the metrics of one comparison and slice, with the
    interval adjusted for the same family of tests (Bonferroni: the t quantile at
    1 − alpha/(2m)), and how the baseline was chosen (docs/rules.md, Run comparison).
-#}
with

comparisons as (

    select * from {{ ref('int_runs__comparisons') }}

),

comparison_tests as (

    select * from {{ ref('int_runs__comparison_tests') }}

),

permutation_counts as (

    select * from {{ ref('int_runs__permutation_counts') }}

),

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

),

tested as (

    select
        comparison_tests.*,
        {{ ragmart_student_t_975('comparison_tests.n_pairs - 1', 'student_t.t_975') | indent(8) }} as t_quantile,
        case
            when comparison_tests.all_differences_zero then 1.0
            {#-
                the permutation p-value from B permutations, n_extreme of them at least as far from
                0 as the observed sum: (1 + n_extreme) / (B + 1). Counting the observed sum among
                the permutations keeps p above 0 and makes the test exact at its level (Phipson &
                Smyth 2010, "Permutation p-values should never be zero")
            #}
            when comparison_tests.p_value_method = 'permutation'
                then
                    (1 + permutation_counts.n_extreme)
                    / cast({{ ragmart_setting('comparison_permutations') }} + 1 as {{ ragmart_type_double() }})
            when comparison_tests.difference_stddev = 0 then 0.0
        end as exact_p_value,
        case
            when comparison_tests.difference_stddev > 0
                then
                    comparison_tests.difference
                    / (comparison_tests.difference_stddev / sqrt(comparison_tests.n_pairs))
        end as z_statistic

    from comparison_tests
    left join permutation_counts
        on
            comparison_tests.baseline_run_id = permutation_counts.baseline_run_id
            and comparison_tests.candidate_run_id = permutation_counts.candidate_run_id
            and comparison_tests.family = permutation_counts.family
            and comparison_tests.metric = permutation_counts.metric
            and coalesce(comparison_tests.k, 0) = coalesce(permutation_counts.k, 0)
            and comparison_tests.slice_dimension = permutation_counts.slice_dimension
            and comparison_tests.slice_value = permutation_counts.slice_value
    left join student_t
        on comparison_tests.n_pairs - 1 = student_t.degrees_of_freedom

),

with_normal_argument as (

    select
        *,
        {{ ragmart_normal_y('z_statistic') }} as z_normal_y

    from tested

),

with_p_values as (

    select
        *,
        {#-
            else the two-sided p-value of z under the standard normal, 2·Φ(−|z|), which equals
            2·(1 − Φ(|z|)) and keeps its precision for large |z| (Φ(0) is exactly 0.5, so p is at
            most 1); null when z is null
        #}
        coalesce(exact_p_value, 2 * {{ ragmart_normal_cdf('-abs(z_statistic)', 'z_normal_y') }}) as p_value

    from with_normal_argument

),

{#
    Holm's family of tests: the metrics of one comparison and slice that have a p-value. The rows
    without one form their own partition and get no adjusted p-value.
#}
ranked as (

    select
        *,
        p_value is not null as has_p_value,
        row_number() over (
            partition by baseline_run_id, candidate_run_id, slice_dimension, slice_value, p_value is not null
            order by p_value
        ) as p_value_position,
        count(p_value) over (
            partition by baseline_run_id, candidate_run_id, slice_dimension, slice_value
        ) as n_tests

    from with_p_values

),

adjusted as (

    select
        *,
        {#-
            Holm's step-down adjustment (Holm 1979) of the p-value at p_value_position among the
            n_tests of its family: max over j ≤ position of min(1, (n_tests − j + 1)·p_(j)). Tied
            p-values get the same adjusted value whatever their order; the result equals
            statsmodels' multipletests(method='holm').
        #}
        case
            when has_p_value
                then max(least(1.0, (n_tests - p_value_position + 1) * p_value)) over (
                    partition by baseline_run_id, candidate_run_id, slice_dimension, slice_value, has_p_value
                    order by p_value_position
                    rows between unbounded preceding and current row
                )
        end as p_value_holm

    from ranked

),

{#
    The interval adjusted for the m tests of the row's Holm family (Bonferroni): the t quantile
    with upper tail q = alpha/(2m) and n − 1 degrees of freedom, from z = Φ⁻¹(1 − q) (AS 241,
    with its w = √(−ln min(q, 1 − q)) a column of its own) by the Cornish-Fisher expansion, then, for n − 1 ≤ 50 (refined_df), two Newton steps on the exact
    tail, each from the estimate's x = ν/(ν + t²) and its tail (docs/rules.md, Run comparison;
    ragmart_student_t_quantile.sql). Each step is computed once (ragmart_cte_materialized):
    PostgreSQL would paste every column into the next step's many uses of it, an expression that
    grows with each step until the server runs out of memory.
#}
with_adjusted_tail as (

    select
        *,
        case
            when n_pairs >= 2 and has_p_value then cast({{ ragmart_setting('comparison_alpha') }} as {{ ragmart_type_double() }}) / (2.0 * n_tests)
        end as adjusted_tail,
        case when n_pairs - 1 between 1 and 50 then n_pairs - 1 end as refined_df

    from adjusted

),

with_adjusted_w as (

    select
        *,
        {{ ragmart_normal_quantile_w('adjusted_tail') }} as adjusted_w

    from with_adjusted_tail

),

with_adjusted_z as {{ ragmart_cte_materialized() }}(

    select
        *,
        {{ ragmart_normal_upper_quantile('adjusted_tail', 'adjusted_w') | indent(8) }} as adjusted_z

    from with_adjusted_w

),

adjusted_t_start as {{ ragmart_cte_materialized() }}(

    select
        *,
        {{ ragmart_student_t_start('adjusted_z', 'n_pairs - 1') | indent(8) }} as adjusted_t_start

    from with_adjusted_z

),

adjusted_t_start_x as {{ ragmart_cte_materialized() }}(

    select
        *,
        cast(refined_df as {{ ragmart_type_double() }})
        / (cast(refined_df as {{ ragmart_type_double() }}) + adjusted_t_start * adjusted_t_start) as adjusted_t_start_x

    from adjusted_t_start

),

adjusted_t_start_tail as {{ ragmart_cte_materialized() }}(

    select
        *,
        {{ ragmart_student_t_upper_tail('adjusted_t_start', 'adjusted_t_start_x', 'refined_df') | indent(8) }}
            as adjusted_t_start_tail

    from adjusted_t_start_x

),

adjusted_t_first as {{ ragmart_cte_materialized() }}(

    select
        *,
        {{ ragmart_student_t_newton_step(
            'adjusted_t_start', 'adjusted_t_start_x', 'adjusted_t_start_tail', 'adjusted_tail', 'refined_df'
        ) | indent(8) }} as adjusted_t_first

    from adjusted_t_start_tail

),

adjusted_t_first_x as {{ ragmart_cte_materialized() }}(

    select
        *,
        cast(refined_df as {{ ragmart_type_double() }})
        / (cast(refined_df as {{ ragmart_type_double() }}) + adjusted_t_first * adjusted_t_first) as adjusted_t_first_x

    from adjusted_t_first

),

adjusted_t_first_tail as {{ ragmart_cte_materialized() }}(

    select
        *,
        {{ ragmart_student_t_upper_tail('adjusted_t_first', 'adjusted_t_first_x', 'refined_df') | indent(8) }}
            as adjusted_t_first_tail

    from adjusted_t_first_x

),

adjusted_t_quantile as (

    select
        *,
        {{ ragmart_student_t_newton_step(
            'adjusted_t_first', 'adjusted_t_first_x', 'adjusted_t_first_tail', 'adjusted_tail', 'refined_df'
        ) | indent(8) }} as adjusted_t_quantile

    from adjusted_t_first_tail

),

with_baseline_source as (

    select
        adjusted_t_quantile.*,
        comparisons.baseline_source

    from adjusted_t_quantile
    inner join comparisons
        on
            adjusted_t_quantile.baseline_run_id = comparisons.baseline_run_id
            and adjusted_t_quantile.candidate_run_id = comparisons.candidate_run_id

),

bounded as (

    select
        *,
        {{ ragmart_mean_bound('difference', 'difference_stddev', 'n_pairs', 't_quantile', 'lower', clip=false) }}
            as difference_ci_lower,
        {{ ragmart_mean_bound('difference', 'difference_stddev', 'n_pairs', 't_quantile', 'upper', clip=false) }}
            as difference_ci_upper,
        coalesce(p_value_holm < {{ ragmart_setting('comparison_alpha') }}, false) as is_significant,
        {{ ragmart_mean_bound('difference', 'difference_stddev', 'n_pairs', 'adjusted_t_quantile', 'lower', clip=false) }}
            as adjusted_ci_lower,
        {{ ragmart_mean_bound('difference', 'difference_stddev', 'n_pairs', 'adjusted_t_quantile', 'upper', clip=false) }}
            as adjusted_ci_upper

    from with_baseline_source

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from bounded

)

select * from final
