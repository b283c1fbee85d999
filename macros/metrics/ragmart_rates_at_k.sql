{#-
    Precision-style rates at K (ADR 0002): the share of the K top ranks whose chunk carries the
    label, over K (missing ranks count as 0). Aggregate: call in a query grouped by record.
    Serves Topical Precision@K, Sufficiency Rate@K and Misleading Context Rate@K.
-#}
{% macro ragmart_rate_at_k(label, rank, k) -%}
    (cast(sum(case when {{ rank }} <= {{ k }} then {{ label }} else 0 end) as {{ ragmart_type_double() }}) / {{ k }})
{%- endmacro %}

{#- Hit at K (ADR 0002, Sufficiency Hit@K): 1 if any chunk ranked within K carries the label, else 0. Aggregate. -#}
{% macro ragmart_hit_at_k(label, rank, k) -%}
    max(case when {{ rank }} <= {{ k }} and {{ label }} = 1 then 1 else 0 end)
{%- endmacro %}
