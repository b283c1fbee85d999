{#- Graded relevance of a chunk (ADR 0002, NDCG): 2 if sufficient, 1 if relevant and not sufficient, else 0. -#}
{% macro ragmart_relevance_grade(evidence_sufficient, topically_relevant) -%}
    case
        when {{ evidence_sufficient }} = 1 then 2
        when {{ topically_relevant }} = 1 then 1
        else 0
    end
{%- endmacro %}
