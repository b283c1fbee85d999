{#-
    z = Φ⁻¹(1 − q), the standard normal quantile with upper tail probability q (0 < q < 1), by
    M. J. Wichura's algorithm AS 241, PPND16 (1988, "The percentage points of the normal
    distribution", Applied Statistics 37, 477-484): rational approximations of degree 7 over 7,
    with p = 1 − q and r = min(q, 1 − q):
      - |p − 0.5| ≤ 0.425:  z = (p − 0.5) · A(v)/B(v), v = 0.180625 − (p − 0.5)²
      - else, w = √(−ln r):  z = ±C(w − 1.6)/D(w − 1.6) for w ≤ 5, ±E(w − 5)/F(w − 5) beyond
    (+ for q < 0.5). Wichura's bound on the relative error is about 1e-16; taking the upper tail q
    rather than p keeps the small tails of the adjusted intervals exact (1 − p would round them).
    dev/tests/test_intervals.py: within 1e-13 of scipy.special.ndtri from q = 1e-12 to 1 − 1e-12.
    Null when q is null or outside (0, 1). `tail` is repeated in the SQL: pass a column. `w`, if
    given, is a column holding ragmart_normal_quantile_w(tail), which the rational functions of
    the tails repeat at every term: with it the SQL is a third shorter.
-#}
{% macro ragmart_normal_upper_quantile(tail, w=none) -%}
    {%- set a = [3.3871328727963666080e0, 1.3314166789178437745e2, 1.9715909503065514427e3,
                 1.3731693765509461125e4, 4.5921953931549871457e4, 6.7265770927008700853e4,
                 3.3430575583588128105e4, 2.5090809287301226727e3] -%}
    {%- set b = [1.0, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3,
                 2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4,
                 5.2264952788528545610e3] -%}
    {%- set c = [1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
                 3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
                 2.27238449892691845833e-2, 7.74545014278341407640e-4] -%}
    {%- set d = [1.0, 2.05319162663775882187e0, 1.67638483018380384940e0, 6.89767334985100004550e-1,
                 1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4,
                 1.05075007164441684324e-9] -%}
    {%- set e = [6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
                 2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                 2.71155556874348757815e-5, 2.01033439929228813265e-7] -%}
    {%- set f = [1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
                 7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7,
                 2.04426310338993978564e-15] -%}
    {%- set q = '(' ~ tail ~ ')' -%}
    {%- set centre = '(0.5 - ' ~ q ~ ')' -%}
    {%- set v = '(' ~ ragmart_double_literal(0.180625) ~ ' - ' ~ centre ~ ' * ' ~ centre ~ ')' -%}
    {%- set w = '(' ~ (w if w is not none else ragmart_normal_quantile_w(tail)) ~ ')' -%}
    {%- set near = '(' ~ w ~ ' - ' ~ ragmart_double_literal(1.6) ~ ')' -%}
    {%- set far = '(' ~ w ~ ' - ' ~ ragmart_double_literal(5.0) ~ ')' -%}
    {%- set sign = 'case when ' ~ q ~ ' < 0.5 then 1 else -1 end' -%}
    case
        when {{ q }} is null or {{ q }} <= 0 or {{ q }} >= 1 then null
        when abs({{ centre }}) <= 0.425 then
            {{ centre }} * {{ ragmart_polynomial(a, v) }} / {{ ragmart_polynomial(b, v) }}
        when {{ w }} <= 5 then
            ({{ sign }}) * {{ ragmart_polynomial(c, near) }} / {{ ragmart_polynomial(d, near) }}
        else
            ({{ sign }}) * {{ ragmart_polynomial(e, far) }} / {{ ragmart_polynomial(f, far) }}
    end
{%- endmacro %}

{#-
    w = √(−ln r), r = min(q, 1 − q), the argument of AS 241's tails in
    ragmart_normal_upper_quantile. Computed in a column of an earlier step and passed to it as
    `w`, it is not written out again at every term. The floor keeps ln away from 0 where the
    planner evaluates an unused branch. `tail` is repeated: pass a column.
-#}
{% macro ragmart_normal_quantile_w(tail) -%}
    sqrt(-ln(greatest(least(({{ tail }}), 1 - ({{ tail }})), {{ ragmart_double_literal(1e-300) }})))
{%- endmacro %}

{#-
    Σ coefficients[i] · x^i in Horner's scheme, (((c_n · x + c_{n−1}) · x + ...) · x + c_0), with
    the coefficients as double literals. `x` is repeated n times: pass a column or a short
    expression.
-#}
{% macro ragmart_polynomial(coefficients, x) -%}
    {%- set ns = namespace(sql=ragmart_double_literal(coefficients[-1])) -%}
    {%- for coefficient in coefficients[:-1] | reverse -%}
        {%- set ns.sql = '(' ~ ns.sql ~ ' * ' ~ x ~ ' + ' ~ ragmart_double_literal(coefficient) ~ ')' -%}
    {%- endfor -%}
    {{ ns.sql }}
{%- endmacro %}
