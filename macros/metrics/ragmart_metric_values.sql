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
        {#-
            NDCG@K = DCG / IDCG, and 0 when IDCG is 0 (docs/rules.md, Measures). DCG never exceeds
            IDCG; the cap at 1 only absorbs floating-point rounding when both are sums of the same
            terms in another order.
        #}
        case when scored.idcg > 0 then least(scored.dcg / scored.idcg, 1.0) else 0.0 end as ndcg

    from (

        select
            {%- for column in record_key %}
            ranked_chunks.{{ column }},
            {%- endfor %}
            k_values.k,
            {#-
                Topical Precision@K, Sufficiency Rate@K and Misleading Context Rate@K: the share of
                the K top ranks whose chunk carries the label, over K (a missing rank counts as 0)
            #}
            {%- for label, rate in [
                ('topically_relevant', 'topical_precision'),
                ('evidence_sufficient', 'sufficiency_rate'),
                ('misleading', 'misleading_context_rate'),
            ] %}
            cast(sum(case when ranked_chunks.chunk_rank <= k_values.k then ranked_chunks.{{ label }} else 0 end)
                as {{ ragmart_type_double() }}) / k_values.k as {{ rate }},
            {%- endfor %}
            {#- Sufficiency Hit@K: 1 if a chunk ranked within K is evidence-sufficient, else 0 #}
            max(case when ranked_chunks.chunk_rank <= k_values.k and ranked_chunks.evidence_sufficient = 1 then 1 else 0 end)
                as sufficiency_hit,
            {#- the reciprocal rank at K (MRR@K): 1 / the rank of the first topically relevant chunk within K, 0 when none #}
            coalesce(max(
                case
                    when ranked_chunks.chunk_rank <= k_values.k and ranked_chunks.topically_relevant = 1
                        then 1 / cast(ranked_chunks.chunk_rank as {{ ragmart_type_double() }})
                end
            ), 0) as reciprocal_rank,
            {{ ragmart_dcg_at_k('ranked_chunks.relevance_grade', 'ranked_chunks.chunk_rank', 'k_values.k') }}
                as dcg,
            {{ ragmart_dcg_at_k('ranked_chunks.relevance_grade', 'ranked_chunks.ideal_rank', 'k_values.k') }}
                as idcg

        from (

            select
                chunks.*,
                {#- the chunk's rank in its record's chunks re-ordered by grade descending: the ideal ranking of IDCG@K #}
                row_number() over (partition by chunks.{{ record_key | join(', chunks.') }} order by chunks.relevance_grade desc)
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
    `key_columns`, record_uuid and language. Each family's rows are crossed with the list of its
    metrics (name and interval), and a case picks each metric's column. Returns a select of the
    key columns, family, metric, k, record_uuid, language, interval_method and value.
-#}
{% macro ragmart_metric_record_values(sources, key_columns=[]) -%}
    {%- set families = [] -%}
    {%- for metric in ragmart_metrics() if metric.family not in families -%}
        {%- do families.append(metric.family) -%}
    {%- endfor -%}
    {%- for family in families %}
    {%- set metrics = ragmart_metrics(family) %}
    select
        {%- for column in key_columns %}
        scored.{{ column }},
        {%- endfor %}
        '{{ family }}' as family,
        family_metrics.metric,
        {{ 'scored.k' if family == 'retrieval' else 'cast(null as ' ~ dbt.type_int() ~ ')' }} as k,
        scored.record_uuid,
        scored.language,
        {% if metrics | selectattr('interval', 'equalto', 'wilson_at_k1') | list -%}
        case
            when family_metrics.interval_method = 'wilson_at_k1' then case when scored.k = 1 then 'wilson' else 'mean' end
            else family_metrics.interval_method
        end
        {%- else -%}
        family_metrics.interval_method
        {%- endif %} as interval_method,
        case family_metrics.metric
            {%- for metric in metrics %}
            when '{{ metric.metric }}' then cast({{ metric.column }} as {{ ragmart_type_double() }})
            {%- endfor %}
        end as value

    from {{ sources[family] }} as scored
    cross join (
        values
        {%- for metric in metrics %}
        ('{{ metric.metric }}', '{{ metric.interval }}'){{ ',' if not loop.last }}
        {%- endfor %}
    ) as family_metrics (metric, interval_method)
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
    `group_columns`, interval_method and value. The mean and s come from exact sums
    (ragmart_exact_sums.sql), so they do not depend on the order of the rows. Returns a select of
    the group columns, value, n_units, n_records (rows, null values included), ci_lower and ci_upper.
    `student_t` is the relation of int_metrics__t_quantiles (the caller's ref), joined on n − 1.
-#}
{% macro ragmart_metric_summary(relation, group_columns, student_t) -%}
    select
        {%- for column in group_columns %}
        with_quantile.{{ column }},
        {%- endfor %}
        with_quantile.value,
        with_quantile.n_units,
        with_quantile.n_records,
        {#-
            ci_lower and ci_upper. The Wilson score interval of the proportion p (value) of n records
            (n_units), z = 1.96: (p + z²/2n ∓ z·√(p(1 − p)/n + z²/4n²)) / (1 + z²/n), null when
            n = 0. It always contains the estimate and lies in [0, 1]; the clamps only absorb
            floating-point rounding (e.g. a lower bound of 3e-18 instead of 0 when the estimate is 0).
        #}
        {%- set z = 1.96 %}
        {%- for side in ['lower', 'upper'] %}
        {%- set wilson -%}
            (
                with_quantile.value + {{ z * z }} / (2.0 * with_quantile.n_units)
                {{ '-' if side == 'lower' else '+' }} {{ z }} * sqrt(
                    with_quantile.value * (1 - with_quantile.value) / with_quantile.n_units
                    + {{ z * z }} / (4.0 * with_quantile.n_units * with_quantile.n_units)
                )
            ) / (1 + {{ z * z }} / with_quantile.n_units)
        {%- endset %}
        case
            when with_quantile.interval_method = 'wilson' or with_quantile.has_equal_values
                then case
                    when with_quantile.n_units > 0 then
                        {% if side == 'lower' -%}
                        greatest(0.0, least(with_quantile.value, {{ wilson }}))
                        {%- else -%}
                        least(1.0, greatest(with_quantile.value, {{ wilson }}))
                        {%- endif %}
                end
            else {{ ragmart_mean_bound('with_quantile.value', 'with_quantile.value_stddev', 'with_quantile.n_units',
                                       'with_quantile.t_quantile', side) }}
        end as ci_{{ side }}{%- if not loop.last %},{% endif %}
        {%- endfor %}

    from (

        select
            aggregated.*,
            {{ ragmart_student_t_975('aggregated.n_units - 1', 'student_t.t_975') | indent(12) }} as t_quantile

        from (

            select
                {%- for column in group_columns %}
                {{ column }},
                {%- endfor %}
                interval_method,
                mean as value,
                n_values as n_units,
                n_rows as n_records,
                stddev as value_stddev,
                {#- compared as values (docs/rules.md, Intervals) -#}
                n_values >= 2 and min_value = max_value as has_equal_values

            from (
                {{ ragmart_exact_moments(relation, group_columns + ['interval_method'], 'value') | indent(16) }}
            ) as moments

        ) as aggregated
        left join {{ student_t }} as student_t
            on aggregated.n_units - 1 = student_t.degrees_of_freedom

    ) as with_quantile
{%- endmacro %}
