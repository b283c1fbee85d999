{#- Base-2 logarithm. -#}
{% macro ragmart_log2(expression) -%}
    {{ return(adapter.dispatch('ragmart_log2', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_log2(expression) -%}
    (ln({{ expression }}) / ln(2))
{%- endmacro %}

{% macro duckdb__ragmart_log2(expression) -%}
    log2({{ expression }})
{%- endmacro %}
