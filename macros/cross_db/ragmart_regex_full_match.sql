{#- True when the whole text matches the regular expression (RE2/POSIX syntax common to the engines). -#}
{% macro ragmart_regex_full_match(expression, pattern) -%}
    {{ return(adapter.dispatch('ragmart_regex_full_match', 'ragmart')(expression, pattern)) }}
{%- endmacro %}

{% macro default__ragmart_regex_full_match(expression, pattern) -%}
    regexp_like({{ expression }}, '^(?:{{ pattern }})$')
{%- endmacro %}

{% macro duckdb__ragmart_regex_full_match(expression, pattern) -%}
    regexp_full_match({{ expression }}, '{{ pattern }}')
{%- endmacro %}

{% macro postgres__ragmart_regex_full_match(expression, pattern) -%}
    ({{ expression }} ~ '^(?:{{ pattern }})$')
{%- endmacro %}

{% macro spark__ragmart_regex_full_match(expression, pattern) -%}
    ({{ expression }} rlike '^(?:{{ pattern }})$')
{%- endmacro %}
