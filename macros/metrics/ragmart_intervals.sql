{#-
    95 % intervals of metric_values (docs/rules.md, Intervals). The Wilson interval (z = 1.96) is
    written out in ragmart_metric_summary; the interval of a mean uses t_0.975(n − 1)
    (ragmart_student_t_975).
-#}

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
