{#-
    Φ(x), the standard normal distribution function, from W. J. Cody's rational Chebyshev
    approximations of erf and erfc (Cody 1969, "Rational Chebyshev approximations for the error
    function", Math. Comp. 23, 631-637; the coefficients of his Netlib SPECFUN routine CALERF,
    1990), with Φ(x) = (1 + erf(x/√2))/2 = erfc(−x/√2)/2. With y = |x|/√2:
      - y ≤ 0.46875:     erf(x/√2) = (x/√2) · A(y²)/B(y²)          (degree 4 over 4)
      - 0.46875 < y ≤ 4: erfc(y) = exp(−y²) · C(y)/D(y)            (degree 8 over 8)
      - y > 4:           erfc(y) = exp(−y²)/y · (1/√π − R(1/y²)/y²) (degree 5 over 5)
    Cody's bound on the relative error is about 1e-16 (1.2e-20 in exact arithmetic for the
    middle interval), so in double precision Φ is exact to a few 1e-16
    (dev/tests/test_intervals.py: within 1e-15 of scipy.special.ndtr from −40 to 40). y is capped at
    26 (erfc(26) < 1e-295: Φ is 0 or 1 there) so that exp never underflows, which is an error on
    PostgreSQL. Null when x is null. `x` is repeated in the SQL: pass a column. `y`, if given, is a
    column holding ragmart_normal_y(x), which Cody's polynomials repeat at every term: with it the
    SQL is half as long (and sqlfluff lints the model in half the time).
-#}
{% macro ragmart_normal_cdf(x, y=none) -%}
    {%- set value = '(' ~ x ~ ')' -%}
    {%- set a = [3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
                 3.20937758913846947e03, 1.85777706184603153e-1] -%}
    {%- set b = [2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
                 2.84423683343917062e03] -%}
    {%- set c = [5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
                 2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
                 2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8] -%}
    {%- set d = [1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
                 1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
                 3.43936767414372164e03, 1.23033935480374942e03] -%}
    {%- set p = [3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
                 1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2] -%}
    {%- set q = [2.56852019228982242e00, 1.87295284992346047e00, 5.27905102951428412e-1,
                 6.05183413124413191e-2, 2.33520497626869185e-3] -%}
    {%- set double = ragmart_type_double() -%}
    {%- set inverse_sqrt2 = ragmart_double_literal(0.7071067811865476) -%}
    {%- set y = y if y is not none else ragmart_normal_y(x) -%}
    {%- set y2 = '(' ~ y ~ ' * ' ~ y ~ ')' -%}
    {#- The third interval has y > 4: the floors 16 and 4 change nothing there and keep 1/y² and
        1/y from dividing by zero where the planner evaluates an unused branch of the case. -#}
    {%- set inverse_y2 = '(1 / greatest(' ~ y2 ~ ', ' ~ ragmart_double_literal(16.0) ~ '))' -%}
    {#- Cody's Horner scheme: num = (((lead·v + k1)·v + k2)·v ... + k_{m−1})·v + k_m. -#}
    {%- set ns = namespace() -%}
    {%- set ns.small_num = '(' ~ ragmart_double_literal(a[4]) ~ ' * ' ~ y2 ~ ')' -%}
    {%- set ns.small_den = y2 -%}
    {%- for i in range(3) -%}
        {%- set ns.small_num = '((' ~ ns.small_num ~ ' + ' ~ ragmart_double_literal(a[i]) ~ ') * ' ~ y2 ~ ')' -%}
        {%- set ns.small_den = '((' ~ ns.small_den ~ ' + ' ~ ragmart_double_literal(b[i]) ~ ') * ' ~ y2 ~ ')' -%}
    {%- endfor -%}
    {%- set ns.mid_num = '(' ~ ragmart_double_literal(c[8]) ~ ' * ' ~ y ~ ')' -%}
    {%- set ns.mid_den = y -%}
    {%- for i in range(7) -%}
        {%- set ns.mid_num = '((' ~ ns.mid_num ~ ' + ' ~ ragmart_double_literal(c[i]) ~ ') * ' ~ y ~ ')' -%}
        {%- set ns.mid_den = '((' ~ ns.mid_den ~ ' + ' ~ ragmart_double_literal(d[i]) ~ ') * ' ~ y ~ ')' -%}
    {%- endfor -%}
    {%- set ns.big_num = '(' ~ ragmart_double_literal(p[5]) ~ ' * ' ~ inverse_y2 ~ ')' -%}
    {%- set ns.big_den = inverse_y2 -%}
    {%- for i in range(4) -%}
        {%- set ns.big_num = '((' ~ ns.big_num ~ ' + ' ~ ragmart_double_literal(p[i]) ~ ') * ' ~ inverse_y2 ~ ')' -%}
        {%- set ns.big_den = '((' ~ ns.big_den ~ ' + ' ~ ragmart_double_literal(q[i]) ~ ') * ' ~ inverse_y2 ~ ')' -%}
    {%- endfor -%}
    {%- set erfc_mid = 'exp(-' ~ y2 ~ ') * (' ~ ns.mid_num ~ ' + ' ~ ragmart_double_literal(c[7]) ~ ') / ('
        ~ ns.mid_den ~ ' + ' ~ ragmart_double_literal(d[7]) ~ ')' -%}
    {%- set erfc_big -%}
        exp(-{{ y2 }}) * (
            {{ ragmart_double_literal(0.5641895835477563) }}
            - {{ inverse_y2 }} * ({{ ns.big_num }} + {{ ragmart_double_literal(p[4]) }})
            / ({{ ns.big_den }} + {{ ragmart_double_literal(q[4]) }})
        ) / greatest({{ y }}, {{ ragmart_double_literal(4.0) }})
    {%- endset -%}
    {#- Φ(x) = erfc(y)/2 for x < 0 and 1 − erfc(y)/2 otherwise (y > 0.46875), written once as
        lower + half · erfc(y) with (lower, half) = (0, 0.5) or (1, −0.5): the same doubles as
        0.5 · erfc(y) and 1 − 0.5 · erfc(y), since 0 + v = v and 1 + (−v) = 1 − v, and ±0.5
        times a normal double is exact wherever it stands in the product (y ≤ 26 keeps exp(−y²)
        above 1e-295, far from the subnormals). -#}
    {%- set lower = '(case when ' ~ value ~ ' < 0 then 0.0 else 1.0 end)' -%}
    {%- set half = '(case when ' ~ value ~ ' < 0 then 0.5 else -0.5 end)' -%}
    case
        when {{ value }} is null then null
        when {{ y }} <= 0.46875 then
            0.5 + 0.5 * (
                cast({{ value }} as {{ double }}) * {{ inverse_sqrt2 }}
                * ({{ ns.small_num }} + {{ ragmart_double_literal(a[3]) }})
                / ({{ ns.small_den }} + {{ ragmart_double_literal(b[3]) }})
            )
        else {{ lower }} + {{ half }} * case when {{ y }} <= 4 then {{ erfc_mid }} else {{ erfc_big }} end
    end
{%- endmacro %}

{#-
    y = min(|x|/√2, 26), the argument of Cody's approximations in ragmart_normal_cdf (capped so that
    exp(−y²) never underflows). Computed in a column of an earlier step and passed to
    ragmart_normal_cdf as `y`, it is not written out again at every term of the polynomials.
-#}
{% macro ragmart_normal_y(x) -%}
    least(abs(cast(({{ x }}) as {{ ragmart_type_double() }})) * {{ ragmart_double_literal(0.7071067811865476) }}, {{ ragmart_double_literal(26.0) }})
{%- endmacro %}
