{#-
    Record-clustered jackknife of an agreement statistic (docs/rules.md, Agreement uncertainty).
    For a statistic θ of one row, the replicates θ_(−g) are the statistic computed without every
    unit of record g, for each record g holding a unit of the row; the G' replicates that are not
    null give SE = √((G' − 1)/G' · Σ (θ_(−g) − mean θ_(−·))²).
-#}

{#-
    One row per group: for each replicate column c of `relation` (one row per group and left-out
    record), c_n_replicates = G' (its non-null values) and c_standard_error = the jackknife SE,
    null when G' = 0 and exactly 0 when every replicate is equal. Two passes (the mean, then the
    squared deviations), so the sum does not lose digits to cancellation; both sums exact
    (ragmart_exact_sum), so the SE does not depend on the order of the rows.
-#}
{% macro ragmart_jackknife_standard_errors(relation, group_columns, replicate_columns) -%}
    select
        {%- for column in group_columns %}
        deviations.{{ column }},
        {%- endfor %}
        {%- for column in replicate_columns %}
        count(deviations.{{ column }}) as {{ column }}_n_replicates,
        case
            when max(deviations.{{ column }}) = min(deviations.{{ column }}) then 0.0
            when count(deviations.{{ column }}) > 0 then
                sqrt(
                    cast(count(deviations.{{ column }}) - 1 as {{ ragmart_type_double() }})
                    / count(deviations.{{ column }})
                    * {{ ragmart_exact_sum('deviations.' ~ column ~ '_deviation * deviations.' ~ column ~ '_deviation') }}
                )
        end as {{ column }}_standard_error{% if not loop.last %},{% endif %}
        {%- endfor %}

    from (

        select
            replicates.*,
            {%- for column in replicate_columns %}
            replicates.{{ column }} - {{ ragmart_exact_avg('replicates.' ~ column,
                'partition by replicates.' ~ group_columns | join(', replicates.')) }} as {{ column }}_deviation
            {%- if not loop.last %},{% endif %}
            {%- endfor %}

        from {{ relation }} as replicates

    ) as deviations
    group by {% for column in group_columns %}deviations.{{ column }}{% if not loop.last %}, {% endif %}{% endfor %}
{%- endmacro %}

{#-
    One side of a jackknife interval: θ ± t_0.975(G' − 1) · SE, clipped to [−1, 1]; null when θ is
    null or G' < 2. `t` is the SQL of that quantile (a column holding
    ragmart_student_t_975(G' − 1)).
-#}
{% macro ragmart_jackknife_bound(estimate, standard_error, n_replicates, t, side) -%}
    case
        when {{ estimate }} is not null and {{ n_replicates }} >= 2 then
            {% if side == 'lower' -%}
            greatest(-1.0, {{ estimate }} - {{ t }} * {{ standard_error }})
            {%- else -%}
            least(1.0, {{ estimate }} + {{ t }} * {{ standard_error }})
            {%- endif %}
    end
{%- endmacro %}

{#-
    The probability, under a normal approximation, that the true value lies below `target`:
    Φ((target − θ) / SE) (ragmart_normal_cdf); null when SE is 0 or null or θ is null.
    `z` names a column holding ragmart_jackknife_z(...), computed in an earlier step.
-#}
{% macro ragmart_jackknife_z(estimate, standard_error, target) -%}
    case
        when {{ standard_error }} > 0 then ({{ target }} - {{ estimate }}) / {{ standard_error }}
    end
{%- endmacro %}
