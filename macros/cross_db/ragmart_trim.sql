{#- Trim spaces, tabs, carriage returns and line feeds from both ends of a text. -#}
{% macro ragmart_trim(expression) -%}
    {{ return(adapter.dispatch('ragmart_trim', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_trim(expression) -%}
    trim(both ' ' || chr(9) || chr(10) || chr(13) from {{ expression }})
{%- endmacro %}

{% macro duckdb__ragmart_trim(expression) -%}
    trim({{ expression }}, ' ' || chr(9) || chr(10) || chr(13))
{%- endmacro %}
