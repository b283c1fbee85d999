{#-
    t_0.975(df), the 0.975 quantile of Student's t distribution with df degrees of freedom: the
    factor of every 95 % t interval (docs/rules.md, Intervals and Agreement uncertainty).
    df = 1 ... 100: the table of ragmart_student_t_975_table (scipy, written by
    scripts/make_student_t_table.py). df > 100: the Cornish-Fisher expansion in 1/df
    (Abramowitz & Stegun 26.7.5, with the fifth term of Fisher & Cornish 1960),
        t = z + g1/df + g2/df² + g3/df³ + g4/df⁴ + g5/df⁵,  z = Φ⁻¹(0.975),
        g1 = (z³ + z)/4, g2 = (5z⁵ + 16z³ + 3z)/96, g3 = (3z⁷ + 19z⁵ + 17z³ − 15z)/384,
        g4 = (79z⁹ + 776z⁷ + 1482z⁵ − 1920z³ − 945z)/92160,
        g5 = (27z¹¹ + 339z⁹ + 930z⁷ − 1782z⁵ − 765z³ + 17955z)/368640,
    whose error is below 7e-13 at df = 101 and falls as df⁻⁶ (tests/python/test_intervals.py
    compares df = 1 ... 5000 and larger with scipy). Null when df is null or below 1.
    `degrees_of_freedom` is repeated in the SQL: pass a column or a short expression.
-#}
{% macro ragmart_student_t_975(degrees_of_freedom) -%}
    {%- set df = '(' ~ degrees_of_freedom ~ ')' -%}
    {%- set z = 1.959963984540054 -%}
    {%- set g = [
        (z ** 3 + z) / 4,
        (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
        (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
        (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160,
        (27 * z ** 11 + 339 * z ** 9 + 930 * z ** 7 - 1782 * z ** 5 - 765 * z ** 3 + 17955 * z) / 368640,
    ] -%}
    {#- one dispatch for the hundred literals of the table -#}
    {%- set double_literal = adapter.dispatch('ragmart_double_literal', 'ragmart') -%}
    case
        when {{ df }} >= 1 and {{ df }} <= 100 then
            case {{ df }}
                {%- for value in ragmart_student_t_975_table() %}
                when {{ loop.index }} then {{ double_literal(value) }}
                {%- endfor %}
            end
        when {{ df }} > 100 then
            {{ ragmart_double_literal(z) }}
            + ({{ ragmart_double_literal(g[0]) }}
                + ({{ ragmart_double_literal(g[1]) }}
                    + ({{ ragmart_double_literal(g[2]) }}
                        + ({{ ragmart_double_literal(g[3]) }}
                            + {{ ragmart_double_literal(g[4]) }} / {{ df }}
                        ) / {{ df }}
                    ) / {{ df }}
                ) / {{ df }}
            ) / {{ df }}
    end
{%- endmacro %}
