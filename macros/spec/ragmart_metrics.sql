{#-
    The measures of ADR 0002 as the var ragmart_measures of dbt_project.yml declares them (docs/rules.md,
    metric_values): public name, family, the per-record column or expression they average, their
    direction (`higher_is_better`) and their interval (`wilson`, `wilson_at_k1` or `mean`).
    `family`: only that family's measures.
-#}
{% macro ragmart_metrics(family=none) -%}
    {%- set measures = [] -%}
    {%- for measure in var('ragmart_measures') if family is none or measure.family == family -%}
        {%- do measures.append(measure) -%}
    {%- endfor -%}
    {{ return(measures) }}
{%- endmacro %}
