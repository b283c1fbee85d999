{#-
    The 16 metrics of ADR 0002 with their public names (docs/rules.md, metric_values), the
    per-record column they average, and their interval (docs/rules.md, Intervals): `wilson` for
    the measures that are 0 or 1 per record by definition at every K, `wilson_at_k1` for those
    that are 0 or 1 per record at K = 1 only (Wilson at K = 1, the interval of the mean above),
    `mean` (mean ± t·s/√n) for the others.
-#}
{% macro ragmart_metrics() -%}
    {{ return([
        {'family': 'retrieval', 'metric': 'topical_precision', 'column': 'topical_precision', 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'sufficiency_hit', 'column': 'sufficiency_hit', 'interval': 'wilson'},
        {'family': 'retrieval', 'metric': 'sufficiency_rate', 'column': 'sufficiency_rate', 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'misleading_context_rate', 'column': 'misleading_context_rate', 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'mrr', 'column': 'reciprocal_rank', 'interval': 'wilson_at_k1'},
        {'family': 'retrieval', 'metric': 'ndcg', 'column': 'ndcg', 'interval': 'mean'},
        {'family': 'grounding', 'metric': 'grounding_presence_rate', 'column': 'support_present', 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'unsupported_claim_rate', 'column': 'unsupported_claim_present', 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'contradiction_rate', 'column': 'contradicted_claim_present', 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'citation_presence_rate', 'column': 'source_cited', 'interval': 'wilson'},
        {'family': 'grounding', 'metric': 'conditional_fabrication_rate',
         'column': 'case when source_cited = 1 then fabricated_source end', 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'proper_action_rate', 'column': 'proper_action', 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'on_topic_rate', 'column': 'response_on_topic', 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'helpfulness_rate', 'column': 'helpful', 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'incompleteness_rate', 'column': 'incomplete', 'interval': 'wilson'},
        {'family': 'generation', 'metric': 'unsafe_content_rate', 'column': 'unsafe_content', 'interval': 'wilson'},
    ]) }}
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
