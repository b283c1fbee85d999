{#-
    The formulas of the run comparison (docs/rules.md, Run comparison), used by the models of
    models/intermediate/runs and the mart run_comparison. The t quantile of the interval on a
    difference is ragmart_student_t_975, the normal distribution function ragmart_normal_cdf.
-#}

{#-
    The sign (+1 or −1) that permutation `draw` (1 … B) gives the pair with `pairing_key`: +1 when
    the first character of the hexadecimal md5 of the text `<draw>:<pairing_key>` is one of 0 … 7,
    else −1. md5 is the same function on every engine, so DuckDB, PostgreSQL and Spark flip the
    same signs and give the same p-value to the last digit; each sign is +1 or −1 with
    probability 1/2, independently across draws and keys (as far as md5's output is uniform).
-#}
{% macro ragmart_permutation_sign(draw, pairing_key) -%}
    case
        when substring({{ dbt.hash(dbt.concat(['cast(' ~ draw ~ ' as ' ~ dbt.type_string() ~ ')', "':'", pairing_key])) }}, 1, 1)
            in ('0', '1', '2', '3', '4', '5', '6', '7')
            then 1
        else -1
    end
{%- endmacro %}

{#-
    The two-sided p-value of the paired sign-flip permutation test from B permutations, of which
    `n_extreme` gave a sum at least as far from 0 as the observed one: (1 + n_extreme) / (B + 1).
    Counting the observed sum among the permutations keeps p above 0 and makes the test exact
    at its level (Phipson & Smyth 2010, "Permutation p-values should never be zero").
-#}
{% macro ragmart_permutation_p_value(n_extreme, n_permutations) -%}
    (1 + {{ n_extreme }}) / cast({{ n_permutations }} + 1 as {{ ragmart_type_double() }})
{%- endmacro %}

{#-
    The two-sided p-value of a z statistic under the standard normal: 2·Φ(−|z|), which equals
    2·(1 − Φ(|z|)) and keeps its precision for large |z| (ragmart_normal_cdf, exact to a few
    1e-16; Φ(0) is exactly 0.5, so p is at most 1). Null when z is null. `z` is repeated in the
    SQL: pass a column; `y`, if given, a column holding ragmart_normal_y(z) (ragmart_normal_cdf).
-#}
{% macro ragmart_normal_p_value(z, y=none) -%}
    2 * {{ ragmart_normal_cdf('-abs(' ~ z ~ ')', y) }}
{%- endmacro %}

{#-
    Holm's step-down adjustment (Holm 1979) of the p-value at `position` (1 for the smallest, ties
    in any order) among the `n_tests` p-values of one family of tests (`partition_by`, a list of
    columns): max over j ≤ position of min(1, (n_tests − j + 1)·p_(j)). Tied p-values get the same
    adjusted value whatever their order; the result equals statsmodels'
    multipletests(method='holm').
-#}
{% macro ragmart_holm_adjusted(p_value, position, n_tests, partition_by) -%}
    max(least(1.0, ({{ n_tests }} - {{ position }} + 1) * {{ p_value }})) over (
        partition by {{ partition_by | join(', ') }}
        order by {{ position }}
        rows between unbounded preceding and current row
    )
{%- endmacro %}
