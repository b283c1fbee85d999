{#-
    Sums, means and standard deviations of doubles that do not depend on the order in which the
    engine adds the rows (docs/rules.md, Reproducible numbers). A sum of doubles rounds after each
    addition, so its last digits depend on that order, which DuckDB's threads (and Spark's
    partitions) change from one build to the next. Here each term becomes a whole number of
    2^-80 (ragmart_exact_term, a DECIMAL(38, 0)); whole numbers add exactly on every engine,
    whatever the order, and the sum is scaled back to a double once (ragmart_exact_double): the
    same rows give the same double, to the last bit.
    Why 2^-80 and not a decimal fraction such as DECIMAL(38, 24): a double times a power of two is
    exact, and DuckDB casts a whole double to a decimal exactly, so on DuckDB the term is the
    double itself (rounded only below 2^-80, about 8e-25) and the sum is the exact sum of the
    doubles rounded once; DuckDB casts a double to a decimal fraction by multiplying by a power of
    ten in floating point, which rounds (a mean of ten 1s would come out 0.9999999999999998).
    PostgreSQL converts a double to a decimal with 15 significant digits, so there the term is
    built from two exact bigint casts (postgres__ragmart_exact_term) and equals DuckDB's; Spark
    converts with the digits Java prints for the double, so its sums can differ from DuckDB's in
    the last digit or two, and are as reproducible. A term and a sum must stay below 2^46 (about 7e13) in
    absolute value (the decimal's 38 digits; the project's terms are a few units at most: rates,
    gains, differences, agreement terms): beyond it DuckDB and PostgreSQL stop the query.
-#}

{#- A double expression as the whole number of 2^-80 whose sums are exact. -#}
{% macro ragmart_exact_term(expression) -%}
    {{ return(adapter.dispatch('ragmart_exact_term', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_exact_term(expression) -%}
    cast(({{ expression }}) * {{ ragmart_double_literal(2.0 ** 80) }} as decimal(38, 0))
{%- endmacro %}

{#-
    PostgreSQL converts a double to numeric with 15 significant digits, so the default's term
    would not be the double (a mean of ones came out above 1). Here the double is split where
    casts to bigint are exact: x * 2^30 = h + f, h = floor(x * 2^30) (a whole double) and
    f * 2^50 (exact: f is the fraction of a double, times a power of two), each cast to bigint
    and joined in numeric as h * 2^50 + f * 2^50: the whole number of 2^-80, as on DuckDB, for
    terms below 2^23 in absolute value.
-#}
{% macro postgres__ragmart_exact_term(expression) -%}
    {%- set scaled = '((' ~ expression ~ ') * ' ~ ragmart_double_literal(2.0 ** 30) ~ ')' -%}
    cast(
        cast(cast(floor({{ scaled }}) as bigint) as numeric) * 1125899906842624
        + cast(({{ scaled }} - floor({{ scaled }})) * {{ ragmart_double_literal(2.0 ** 50) }} as bigint)
        as decimal(38, 0)
    )
{%- endmacro %}

{#- A sum of ragmart_exact_term values back as a double (in parentheses). -#}
{% macro ragmart_exact_double(exact_sum) -%}
    (cast({{ exact_sum }} as {{ ragmart_type_double() }}) / {{ ragmart_double_literal(2.0 ** 80) }})
{%- endmacro %}

{#- The exact sum of a double expression, as a double; with `window` (e.g. `partition by g`) a window aggregate. -#}
{% macro ragmart_exact_sum(expression, window=none) -%}
    {{ ragmart_exact_double('sum(' ~ ragmart_exact_term(expression) ~ ')' ~ (' over (' ~ window ~ ')' if window else '')) }}
{%- endmacro %}

{#- The mean of the non-null values of a double expression from its exact sum, null when there are none. -#}
{% macro ragmart_exact_avg(expression, window=none) -%}
    (
        {{ ragmart_exact_sum(expression, window) }}
        / nullif(count({{ expression }}){{ ' over (' ~ window ~ ')' if window else '' }}, 0)
    )
{%- endmacro %}

{#-
    One row per group of `relation` (`group_columns`) with n_rows (its rows), n_values (its
    non-null values of the double expression `value`), mean, stddev (the sample standard
    deviation: null below two values, exactly 0 when every value is equal), min_value and
    max_value. Two passes, so that s loses no digits to cancellation: the mean from an exact sum,
    then the exact sum of the squared deviations from it. The rows are first counted per
    distinct value (each value's term times its count is exact), so the second pass, a window
    over each group, runs over a group's distinct values rather than over every row (a window
    over every record value sorts them all: 20 times the time of the whole summary at 6 million
    record values).
-#}
{% macro ragmart_exact_moments(relation, group_columns, value) -%}
    {%- set window = 'partition by ' ~ group_columns | join(', ') %}
    select
        {%- for column in group_columns %}
        {{ column }},
        {%- endfor %}
        cast(sum(n_rows) as {{ dbt.type_bigint() }}) as n_rows,
        cast(sum(n_values) as {{ dbt.type_bigint() }}) as n_values,
        min(group_mean) as mean,
        case
            when sum(n_values) >= 2 and max(value) = min(value) then 0.0
            when sum(n_values) >= 2
                then sqrt(
                    {{ ragmart_exact_double('sum(' ~ ragmart_exact_term('(value - group_mean) * (value - group_mean)') ~ ' * n_values)') }}
                    / (sum(n_values) - 1)
                )
        end as stddev,
        min(value) as min_value,
        max(value) as max_value

    from (

        select
            *,
            {{ ragmart_exact_double('sum(' ~ ragmart_exact_term('value') ~ ' * n_values) over (' ~ window ~ ')') }}
            / nullif(sum(n_values) over ({{ window }}), 0) as group_mean

        from (

            select
                {%- for column in group_columns %}
                {{ column }},
                {%- endfor %}
                {{ value }} as value,
                count({{ value }}) as n_values,
                count(*) as n_rows

            from {{ relation }}
            group by {{ group_columns | join(', ') }}, {{ value }}

        ) as distinct_values

    ) as with_group_mean
    group by {{ group_columns | join(', ') }}
{%- endmacro %}
