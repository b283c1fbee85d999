{#-
    95 % intervals of metric_values (docs/rules.md, Intervals). Wilson uses z = 1.96; the
    interval of a mean uses t_0.975(n − 1) (ragmart_student_t_975).
    Wilson score interval for a proportion p of n records (measures that are 0 or 1 per record).
-#}
{% macro ragmart_wilson_bound(proportion, n, side, z=1.96) -%}
    {%- set sign = '-' if side == 'lower' else '+' -%}
    {%- set formula -%}
        (
            {{ proportion }} + {{ z * z }} / (2.0 * {{ n }})
            {{ sign }} {{ z }} * sqrt(
                {{ proportion }} * (1 - {{ proportion }}) / {{ n }} + {{ z * z }} / (4.0 * {{ n }} * {{ n }})
            )
        ) / (1 + {{ z * z }} / {{ n }})
    {%- endset -%}
    {#- The Wilson interval always contains the estimate and lies in [0, 1]; the clamps only absorb
        floating-point rounding (e.g. a lower bound of 3e-18 instead of 0 when the estimate is 0). -#}
    case
        when {{ n }} > 0 then
            {% if side == 'lower' -%}
            greatest(0.0, least({{ proportion }}, {{ formula }}))
            {%- else -%}
            least(1.0, greatest({{ proportion }}, {{ formula }}))
            {%- endif %}
    end
{%- endmacro %}

{#-
    Interval of a mean: mean ± t · s / √n with the sample standard deviation s and t =
    t_0.975(n − 1), clipped to [0, 1] (a rate; `clip=false` for a difference of rates, which is
    not clipped); null when n < 2. `t` is the SQL of that quantile (a column holding
    ragmart_student_t_975(n − 1), so that it is computed once for both sides).
-#}
{% macro ragmart_mean_bound(mean, stddev, n, t, side, clip=true) -%}
    {%- set bound = mean ~ (' - ' if side == 'lower' else ' + ') ~ t ~ ' * ' ~ stddev ~ ' / sqrt(' ~ n ~ ')' -%}
    case
        when {{ n }} >= 2 then
            {% if not clip -%}
            {{ bound }}
            {%- elif side == 'lower' -%}
            greatest(0.0, {{ bound }})
            {%- else -%}
            least(1.0, {{ bound }})
            {%- endif %}
    end
{%- endmacro %}
