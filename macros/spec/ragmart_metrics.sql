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

{#-
    A boolean SQL expression: whether a higher value of the metric named by `metric_column` is the
    better system (from the `higher_is_better` of ragmart_metrics; true for a name it does not list).
-#}
{% macro ragmart_higher_is_better(metric_column) -%}
    {%- set lower_is_better = [] -%}
    {%- for metric in ragmart_metrics() if not metric.higher_is_better -%}
        {%- do lower_is_better.append("'" ~ metric.metric ~ "'") -%}
    {%- endfor -%}
    {{ metric_column }} not in ({{ lower_is_better | join(', ') }})
{%- endmacro %}

{#-
    The slices of metric_values over the human consensus: `dimension` is the public
    slice_dimension, `value` the SQL expression (over int_metrics__record_values) that gives
    slice_value. The `label_source` slice adds the judge-estimated records as `judges`
    (int_metrics__summary).
-#}
{% macro ragmart_slices() -%}
    {{ return([
        {'dimension': 'overall', 'value': "'all'"},
        {'dimension': 'language', 'value': 'language'},
        {'dimension': 'tier', 'value': 'tier'},
        {'dimension': 'label_source', 'value': "'human'"},
    ]) }}
{%- endmacro %}

{#-
    The largest number of measures of one family (a retrieval metric counts once per K of the var
    retrieval_k_values): the number of difference columns of int_runs__permutation_counts.
-#}
{% macro ragmart_max_measures_per_family() -%}
    {%- set counts = {} -%}
    {%- for metric in ragmart_metrics() -%}
        {%- set per_metric = (ragmart_k_values() | length) if metric.family == 'retrieval' else 1 -%}
        {%- do counts.update({metric.family: counts.get(metric.family, 0) + per_metric}) -%}
    {%- endfor -%}
    {{ return(counts.values() | max) }}
{%- endmacro %}
