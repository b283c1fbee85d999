{#- `expression` with every match of the regular expression `pattern` replaced by the text `replacement`. -#}
{% macro ragmart_regexp_replace(expression, pattern, replacement) -%}
    {{ return(adapter.dispatch('ragmart_regexp_replace', 'ragmart')(expression, pattern, replacement)) }}
{%- endmacro %}

{#- DuckDB and PostgreSQL replace the first match only, unless told 'g'. -#}
{% macro default__ragmart_regexp_replace(expression, pattern, replacement) -%}
    regexp_replace({{ expression }}, '{{ pattern }}', '{{ replacement }}', 'g')
{%- endmacro %}

{% macro spark__ragmart_regexp_replace(expression, pattern, replacement) -%}
    regexp_replace({{ expression }}, '{{ pattern }}', '{{ replacement }}')
{%- endmacro %}
