{#-
    The 16 metrics of ADR 0002 with their public names (docs/rules.md, metric_values), the
    per-record column they average, their direction (`higher_is_better`: false for the six
    measures where a lower value is the better system, docs/rules.md, Run comparison), and their
    interval (docs/rules.md, Intervals): `wilson` for
    the measures that are 0 or 1 per record by definition at every K, `wilson_at_k1` for those
    that are 0 or 1 per record at K = 1 only (Wilson at K = 1, the interval of the mean above),
    `mean` (mean ± t·s/√n) for the others.
-#}
{% macro ragmart_metrics() -%}
    {{ return([
        {'family': 'retrieval', 'metric': 'topical_precision', 'column': 'topical_precision', 'higher_is_better': true, 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'sufficiency_hit', 'column': 'sufficiency_hit', 'higher_is_better': true, 'interval': 'wilson'},
        {'family': 'retrieval', 'metric': 'sufficiency_rate', 'column': 'sufficiency_rate', 'higher_is_better': true, 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'misleading_context_rate', 'column': 'misleading_context_rate', 'higher_is_better': false, 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'mrr', 'column': 'reciprocal_rank', 'higher_is_better': true, 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'ndcg', 'column': 'ndcg', 'higher_is_better': true, 'interval': 'mean'},
        {'family': 'grounding', 'metric': 'grounding_presence_rate', 'column': 'support_present', 'higher_is_better': true, 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'unsupported_claim_rate', 'column': 'unsupported_claim_present', 'higher_is_better': false, 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'contradiction_rate', 'column': 'contradicted_claim_present', 'higher_is_better': false, 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'citation_presence_rate', 'column': 'source_cited', 'higher_is_better': true, 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'conditional_fabrication_rate',
         'column': 'case when source_cited = 1 then fabricated_source end', 'higher_is_better': false, 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'proper_action_rate', 'column': 'proper_action', 'higher_is_better': true, 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'on_topic_rate', 'column': 'response_on_topic', 'higher_is_better': true, 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'helpfulness_rate', 'column': 'helpful', 'higher_is_better': true, 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'incompleteness_rate', 'column': 'incomplete', 'higher_is_better': false, 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'unsafe_content_rate', 'column': 'unsafe_content', 'higher_is_better': false, 'interval': 'wilson'},
    ]) }}
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
