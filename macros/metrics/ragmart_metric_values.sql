{#-
    The shared steps from labels to metric_values rows, used for the human consensus and for the
    judges' labels alike, so that both are measured by the same SQL.
-#}

{#-
    The retrieval measures of ADR 0002 per record and K (every K of the var retrieval_k_values)
    from `chunks`, a relation with one row per judged chunk of a resolved record: `key_columns`,
    record_uuid, chunk_rank, topically_relevant, evidence_sufficient, misleading and
    relevance_grade. Returns a select with the key columns, record_uuid, k, topical_precision,
    sufficiency_hit, sufficiency_rate, misleading_context_rate, reciprocal_rank, dcg, idcg, ndcg.
-#}
{% macro ragmart_retrieval_record_scores(chunks, key_columns=[]) -%}
    {%- set record_key = key_columns + ['record_uuid'] -%}
    select
        {%- for column in record_key %}
        scored.{{ column }},
        {%- endfor %}
        scored.k,
        scored.topical_precision,
        scored.sufficiency_hit,
        scored.sufficiency_rate,
        scored.misleading_context_rate,
        scored.reciprocal_rank,
        scored.dcg,
        scored.idcg,
        {{ ragmart_ndcg('scored.dcg', 'scored.idcg') }} as ndcg

    from (

        select
            {%- for column in record_key %}
            ranked_chunks.{{ column }},
            {%- endfor %}
            k_values.k,
            {{ ragmart_rate_at_k('ranked_chunks.topically_relevant', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as topical_precision,
            {{ ragmart_hit_at_k('ranked_chunks.evidence_sufficient', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as sufficiency_hit,
            {{ ragmart_rate_at_k('ranked_chunks.evidence_sufficient', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as sufficiency_rate,
            {{ ragmart_rate_at_k('ranked_chunks.misleading', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as misleading_context_rate,
            {{ ragmart_reciprocal_rank_at_k('ranked_chunks.topically_relevant', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as reciprocal_rank,
            {{ ragmart_dcg_at_k('ranked_chunks.relevance_grade', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as dcg,
            {{ ragmart_dcg_at_k('ranked_chunks.relevance_grade', 'ranked_chunks.ideal_rank', 'k_values.k') }}
                as idcg

        from (

            select
                chunks.*,
                {{ ragmart_ideal_rank('chunks.relevance_grade', 'chunks.' ~ (record_key | join(', chunks.'))) }}
                    as ideal_rank

            from {{ chunks }} as chunks

        ) as ranked_chunks
        cross join (
            {{ ragmart_k_values_relation() }}
        ) as k_values
        group by
            {%- for column in record_key %}
            ranked_chunks.{{ column }},
            {%- endfor %}
            k_values.k

    ) as scored
{%- endmacro %}

{#-
    One row per record and metric of ragmart_metrics() (and K for retrieval): the record's value
    of the metric, the value that metric_values averages. `sources` maps each family to a
    relation: for retrieval one row per record and K as ragmart_retrieval_record_scores gives,
    for grounding and generation one row per resolved record with its labels; each with the
    `key_columns`, record_uuid and language. Returns a select of the key columns, family, metric,
    k, record_uuid, language, interval_method and value.
-#}
{% macro ragmart_metric_record_values(sources, key_columns=[]) -%}
    {%- for metric in ragmart_metrics() %}
    select
        {%- for column in key_columns %}
        scored.{{ column }},
        {%- endfor %}
        '{{ metric.family }}' as family,
        '{{ metric.metric }}' as metric,
        {{ 'scored.k' if metric.family == 'retrieval' else 'cast(null as ' ~ dbt.type_int() ~ ')' }} as k,
        scored.record_uuid,
        scored.language,
        {% if metric.interval == 'wilson_at_k1' -%}
        case when scored.k = 1 then 'wilson' else 'mean' end
        {%- else -%}
        '{{ metric.interval }}'
        {%- endif %} as interval_method,
        cast({{ metric.column }} as {{ ragmart_type_double() }}) as value

    from {{ sources[metric.family] }} as scored
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}
{%- endmacro %}

{#-
    Per-record metric values summarised per group (docs/rules.md, metric_values): the mean, the
    records behind it (non-null values) and the 95 % interval given by each row's
    interval_method (`wilson`, or `mean`: mean ± t_0.975(n − 1) · s/√n). A mean whose records
    all have the same value (s = 0, n ≥ 2) gets the Wilson interval of that value with n instead
    of a zero-width interval (docs/rules.md, Intervals: no interval claims certainty). `relation` has the
    `group_columns`, interval_method and value. Returns a select of the group columns, value,
    n_units, n_records (rows, null values included), ci_lower and ci_upper.
-#}
{% macro ragmart_metric_summary(relation, group_columns) -%}
    select
        {%- for column in group_columns %}
        with_quantile.{{ column }},
        {%- endfor %}
        with_quantile.value,
        with_quantile.n_units,
        with_quantile.n_records,
        case
            when with_quantile.interval_method = 'wilson' or with_quantile.has_equal_values
                then {{ ragmart_wilson_bound('with_quantile.value', 'with_quantile.n_units', 'lower') }}
            else {{ ragmart_mean_bound('with_quantile.value', 'with_quantile.value_stddev', 'with_quantile.n_units',
                                       'with_quantile.t_quantile', 'lower') }}
        end as ci_lower,
        case
            when with_quantile.interval_method = 'wilson' or with_quantile.has_equal_values
                then {{ ragmart_wilson_bound('with_quantile.value', 'with_quantile.n_units', 'upper') }}
            else {{ ragmart_mean_bound('with_quantile.value', 'with_quantile.value_stddev', 'with_quantile.n_units',
                                       'with_quantile.t_quantile', 'upper') }}
        end as ci_upper

    from (

        select
            aggregated.*,
            {{ ragmart_student_t_975('aggregated.n_units - 1') | indent(12) }} as t_quantile

        from (

            select
                {%- for column in group_columns %}
                {{ column }},
                {%- endfor %}
                interval_method,
                avg(value) as value,
                count(value) as n_units,
                count(*) as n_records,
                stddev_samp(value) as value_stddev,
                {#- compared as values, not as s = 0: the standard deviation of equal values
                    that are not exact binary fractions (0.1, 1/3) can round to 1e-17 -#}
                count(value) >= 2 and min(value) = max(value) as has_equal_values

            from {{ relation }}
            group by {{ group_columns | join(', ') }}, interval_method

        ) as aggregated

    ) as with_quantile
{%- endmacro %}
