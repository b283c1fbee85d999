{#-
    95 % intervals of metric_values (CONTRACT.md). z defaults to 1.96.
    Wilson score interval for a proportion p of n records (measures that are 0 or 1 per record).
-#}
{% macro ragmart_wilson_bound(proportion, n, side, z=1.96) -%}
    {%- set sign = '-' if side == 'lower' else '+' -%}
    case
        when {{ n }} > 0 then
            (
                {{ proportion }} + {{ z * z }} / (2.0 * {{ n }})
                {{ sign }} {{ z }} * sqrt(
                    {{ proportion }} * (1 - {{ proportion }}) / {{ n }} + {{ z * z }} / (4.0 * {{ n }} * {{ n }})
                )
            ) / (1 + {{ z * z }} / {{ n }})
    end
{%- endmacro %}

{#-
    Normal interval of a mean: mean ± z · s / √n with the sample standard deviation s, clipped
    to [0, 1]; null when n < 2.
-#}
{% macro ragmart_mean_bound(mean, stddev, n, side, z=1.96) -%}
    case
        when {{ n }} >= 2 then
            {% if side == 'lower' -%}
            greatest(0.0, {{ mean }} - {{ z }} * {{ stddev }} / sqrt({{ n }}))
            {%- else -%}
            least(1.0, {{ mean }} + {{ z }} * {{ stddev }} / sqrt({{ n }}))
            {%- endif %}
    end
{%- endmacro %}
