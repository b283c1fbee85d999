{#-
    Reciprocal rank at K (ADR 0002, MRR@K): 1 / the rank of the first chunk within K that is
    relevant, 0 when there is none. Aggregate: call in a query grouped by record.
-#}
{% macro ragmart_reciprocal_rank_at_k(is_relevant, rank, k) -%}
    coalesce(max(case when {{ rank }} <= {{ k }} and {{ is_relevant }} = 1 then 1 / cast({{ rank }} as {{ ragmart_type_double() }}) end), 0)
{%- endmacro %}
