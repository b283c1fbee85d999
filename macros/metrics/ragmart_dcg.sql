{#- Gain of a graded chunk in DCG: 2^grade - 1. -#}
{% macro ragmart_gain(grade) -%}
    (power(2, {{ grade }}) - 1)
{%- endmacro %}

{#-
    Discounted cumulative gain at K (ADR 0002): the sum over chunks ranked within K of
    (2^grade - 1) / log2(rank + 1). Aggregate: call in a query grouped by record. For the ideal
    DCG (IDCG@K), pass the chunk's position in the record's chunks re-ordered by grade
    descending as `rank` (see ragmart_ideal_rank).
-#}
{% macro ragmart_dcg_at_k(grade, rank, k) -%}
    sum(
        case
            when {{ rank }} <= {{ k }}
                then cast({{ ragmart_gain(grade) }} as {{ ragmart_type_double() }}) / {{ ragmart_log2('(' ~ rank ~ ' + 1)') }}
            else 0.0
        end
    )
{%- endmacro %}

{#-
    The position of a chunk in its record's judged chunks re-ordered by grade descending: the
    rank it would have in the ideal ranking used by IDCG@K. Window function; `partition_by` is
    the record key.
-#}
{% macro ragmart_ideal_rank(grade, partition_by) -%}
    row_number() over (partition by {{ partition_by }} order by {{ grade }} desc)
{%- endmacro %}

{#-
    Normalised DCG: DCG / IDCG, and 0 when IDCG is 0 (docs/rules.md, Measures). DCG never exceeds IDCG; the
    cap at 1 only absorbs floating-point rounding when both are sums of the same terms in another order.
-#}
{% macro ragmart_ndcg(dcg, idcg) -%}
    case when {{ idcg }} > 0 then least({{ dcg }} / {{ idcg }}, 1.0) else 0.0 end
{%- endmacro %}
