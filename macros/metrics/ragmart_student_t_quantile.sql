{#-
    t_0.975(df), the 0.975 quantile of Student's t distribution with df degrees of freedom: the
    factor of every 95 % t interval (docs/rules.md, Intervals and Agreement uncertainty).
    df = 1 ... 100: `tabled`, the t_975 column of int_metrics__t_quantiles joined on df by the
    caller (scipy's values, written by dev/generate/make_student_t_table.py). df > 100: the
    Cornish-Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5, with the fifth term of Fisher &
    Cornish 1960),
        t = z + g1/df + g2/df² + g3/df³ + g4/df⁴ + g5/df⁵,  z = Φ⁻¹(0.975),
        g1 = (z³ + z)/4, g2 = (5z⁵ + 16z³ + 3z)/96, g3 = (3z⁷ + 19z⁵ + 17z³ − 15z)/384,
        g4 = (79z⁹ + 776z⁷ + 1482z⁵ − 1920z³ − 945z)/92160,
        g5 = (27z¹¹ + 339z⁹ + 930z⁷ − 1782z⁵ − 765z³ + 17955z)/368640,
    whose error is below 7e-13 at df = 101 and falls as df⁻⁶ (dev/tests/test_intervals.py
    compares df = 1 ... 5000 and larger with scipy). Null when df is null or below 1 (the table
    has no row there); df is a whole number (a count less one).
    `degrees_of_freedom` is repeated in the SQL: pass a column or a short expression.
-#}
{% macro ragmart_student_t_975(degrees_of_freedom, tabled) -%}
    {%- set df = '(' ~ degrees_of_freedom ~ ')' -%}
    {%- set z = 1.959963984540054 -%}
    {%- set g = [
        (z ** 3 + z) / 4,
        (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
        (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
        (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160,
        (27 * z ** 11 + 339 * z ** 9 + 930 * z ** 7 - 1782 * z ** 5 - 765 * z ** 3 + 17955 * z) / 368640,
    ] -%}
    case
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
        else {{ tabled }}
    end
{%- endmacro %}

{#-
    The quantile of Student's t at any upper tail probability q (docs/rules.md, Run comparison:
    the adjusted intervals use q = alpha / (2m)), in three steps, each a column of its own step
    of the model (each reads the column before it, so that the SQL stays short):
      1. z = ragmart_normal_upper_quantile(q);
      2. t₀ = ragmart_student_t_start(z, df): the Cornish-Fisher expansion as in
         ragmart_student_t_975, with z for Φ⁻¹(0.975). For df > 50 this is the quantile: its error
         is below 4e-7 down to q = 1e-6 (below 1e-8 at q ≥ 2.5e-4);
      3. for df ≤ 50 (a column ν, null above 50), ragmart_student_t_upper_tail and
         ragmart_student_t_newton_step twice (t₁, t₂; each step three columns: the estimate's
         x = ν/(ν + t²), its tail, then the next estimate): Newton's method on
         ln Q(t) = ln q in ln t, with Q the upper tail of t given exactly by the finite series of
         Abramowitz & Stegun 26.7.3 and 26.7.4 for whole df. The tail is nearly a power of t, so
         ln Q is nearly linear in ln t and two steps from t₀ reach the quantile to a relative
         1e-10 (dev/tests/test_intervals.py: within 1e-6 of scipy.stats.t.isf on DuckDB and
         PostgreSQL for df 1 to 300 and up to 10⁹, q from 1e-6 to 0.05).
    Null when df is null or below 1, or q is null.
-#}
{% macro ragmart_student_t_start(z, degrees_of_freedom) -%}
    {%- set df = '(' ~ degrees_of_freedom ~ ')' -%}
    {%- set z = '(' ~ z ~ ')' -%}
    {%- set g = [
        [0, 1 / 4, 0, 1 / 4],
        [0, 3 / 96, 0, 16 / 96, 0, 5 / 96],
        [0, -15 / 384, 0, 17 / 384, 0, 19 / 384, 0, 3 / 384],
        [0, -945 / 92160, 0, -1920 / 92160, 0, 1482 / 92160, 0, 776 / 92160, 0, 79 / 92160],
        [0, 17955 / 368640, 0, -765 / 368640, 0, -1782 / 368640, 0, 930 / 368640, 0, 339 / 368640,
         0, 27 / 368640],
    ] -%}
    case
        when {{ df }} >= 1 then
            {{ z }}
            + ({{ ragmart_polynomial(g[0], z) }}
                + ({{ ragmart_polynomial(g[1], z) }}
                    + ({{ ragmart_polynomial(g[2], z) }}
                        + ({{ ragmart_polynomial(g[3], z) }}
                            + {{ ragmart_polynomial(g[4], z) }} / {{ df }}
                        ) / {{ df }}
                    ) / {{ df }}
                ) / {{ df }}
            ) / {{ df }}
    end
{%- endmacro %}

{#-
    Q(t), the upper tail of Student's t with ν ≤ 50 degrees of freedom at t > 0, exactly, by the
    finite series of Abramowitz & Stegun 26.7.3 and 26.7.4 for whole ν: with x = ν/(ν + t²) and
    s = t/√(ν + t²), Q = (1 − s·S)/2 for even ν and Q = (atan(√ν/t) − s·√x·S)/π for odd ν,
    S = Σ_j a_j x^j over j < (ν − 1)/2 (a_j = Π (2i − 1)/(2i) for even ν, Π (2i)/(2i + 1) for odd
    ν, i = 1 … j). `t`, `x` and `nu` are columns (each is repeated in the SQL): the point, its x,
    and ν, null where ν is above `largest_df` (the series is written up to it, and the rows above
    it are left alone by ragmart_student_t_newton_step; nothing overflows, which PostgreSQL would
    raise as an error). Null when ν is null.
-#}
{% macro ragmart_student_t_upper_tail(t, x, nu, largest_df=50) -%}
    {%- set nu_double = 'cast(' ~ nu ~ ' as ' ~ ragmart_type_double() ~ ')' -%}
    {%- set ns = namespace(even=[1.0], odd=[1.0]) -%}
    {%- for j in range(1, (largest_df + 1) // 2) -%}
        {%- set ns.even = ns.even + [ns.even[-1] * (2 * j - 1) / (2 * j)] -%}
        {%- set ns.odd = ns.odd + [ns.odd[-1] * (2 * j) / (2 * j + 1)] -%}
    {%- endfor -%}
    {#- a flat sum (a nested Horner scheme of 25 steps is too deep for sqlfluff's parser); a_j is 0
        where j ≥ (ν − 1)/2, i.e. ν < 2j + 2 -#}
    {%- set terms = [] -%}
    {%- for j in range((largest_df + 1) // 2) -%}
        {%- do terms.append('case when ' ~ nu ~ ' < ' ~ (2 * j + 2) ~ ' then 0.0 when mod(' ~ nu ~ ', 2) = 0 then '
            ~ ragmart_double_literal(ns.even[j]) ~ ' else ' ~ ragmart_double_literal(ns.odd[j]) ~ ' end'
            ~ ('' if j == 0 else ' * power(' ~ x ~ ', ' ~ j ~ ')')) -%}
    {%- endfor -%}
    {%- set pi = ragmart_double_literal(3.141592653589793) -%}
    case when mod({{ nu }}, 2) = 0 then 0.5 else atan(sqrt({{ nu_double }}) / {{ t }}) / {{ pi }} end
    - {{ t }} / sqrt({{ nu_double }} + {{ t }} * {{ t }})
    * case when mod({{ nu }}, 2) = 0 then 0.5 else sqrt({{ x }}) / {{ pi }} end
    * ({{ terms | join('\n        + ') }})
{%- endmacro %}

{#-
    One Newton step towards the t quantile with upper tail probability `tail`, from the estimate
    `t` (a column, > 0) with its `x` = ν/(ν + t²) and its upper tail `upper_tail` (columns holding
    ν / (ν + t * t) and ragmart_student_t_upper_tail(t, x, nu)); where `nu` is null (ν above
    `largest_df`) it returns `t` unchanged. With the density f(t) = k_ν · x^((ν + 1)/2),
    k_ν = Γ((ν + 1)/2)/(√(νπ) Γ(ν/2)), the step solves ln Q = ln q in ln t:
    t · exp((ln Q − ln q) · Q/(t · f)).
-#}
{% macro ragmart_student_t_newton_step(t, x, upper_tail, tail, nu, largest_df=50) -%}
    {#- Γ((ν + 1)/2)/Γ(ν/2) by the recurrence r_ν = r_{ν−2} · (ν − 1)/(ν − 2) from r_1 = 1/√π and
        r_2 = √π/2; k_ν = r_ν/√(νπ) -#}
    {%- set ns = namespace(ratios=[0.5641895835477563, 0.886226925452758]) -%}
    {%- for degrees in range(3, largest_df + 1) -%}
        {%- set ns.ratios = ns.ratios + [ns.ratios[-2] * (degrees - 1) / (degrees - 2)] -%}
    {%- endfor -%}
    {%- set constants = [] -%}
    {%- for ratio in ns.ratios -%}
        {%- do constants.append(ratio / (loop.index * 3.141592653589793) ** 0.5) -%}
    {%- endfor -%}
    case
        when {{ nu }} is null then {{ t }}
        else
            {{ t }} * exp(
                (ln(greatest({{ upper_tail }}, {{ ragmart_double_literal(1e-300) }})) - ln({{ tail }}))
                * {{ upper_tail }} / (
                    {{ t }}
                    * {{ ragmart_double_at(constants, nu) | indent(20) }}
                    * power({{ x }}, (cast({{ nu }} as {{ ragmart_type_double() }}) + 1) / 2)
                )
            )
    end
{%- endmacro %}
