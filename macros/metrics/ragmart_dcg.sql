{#-
    Discounted cumulative gain at K (ADR 0002): the sum over chunks ranked within K of their gain
    2^grade - 1 over log2(rank + 1). Aggregate: call in a query grouped by record. For the ideal
    DCG (IDCG@K), pass the chunk's position in the record's chunks re-ordered by grade
    descending as `rank`.
-#}
{% macro ragmart_dcg_at_k(grade, rank, k) -%}
    sum(
        case
            when {{ rank }} <= {{ k }}
                then cast((power(2, {{ grade }}) - 1) as {{ ragmart_type_double() }}) / {{ ragmart_log2('(' ~ rank ~ ' + 1)') }}
            else 0.0
        end
    )
{%- endmacro %}
