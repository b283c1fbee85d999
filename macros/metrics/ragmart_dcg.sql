{#-
    Discounted cumulative gain at K (ADR 0002): the sum over chunks ranked within K of their gain
    2^grade - 1 over log2(rank + 1). Aggregate: call in a query grouped by record. For the ideal
    DCG (IDCG@K), pass the chunk's position in the record's chunks re-ordered by grade
    descending as `rank`. An exact sum (ragmart_exact_sum), the same whatever the order of the chunks.
-#}
{% macro ragmart_dcg_at_k(grade, rank, k) -%}
    {%- set gain -%}
        case
            when {{ rank }} <= {{ k }}
                then cast((power(2, {{ grade }}) - 1) as {{ ragmart_type_double() }}) / {{ ragmart_log2('(' ~ rank ~ ' + 1)') }}
            else 0.0
        end
    {%- endset -%}
    {{ ragmart_exact_sum(gain) }}
{%- endmacro %}
