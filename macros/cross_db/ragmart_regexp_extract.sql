{#- The text of capture group `group_number` of the first match, null when the group did not take part. -#}
{% macro ragmart_regexp_extract(expression, pattern, group_number) -%}
    {{ return(adapter.dispatch('ragmart_regexp_extract', 'ragmart')(expression, pattern, group_number)) }}
{%- endmacro %}

{% macro default__ragmart_regexp_extract(expression, pattern, group_number) -%}
    nullif(regexp_extract({{ expression }}, '{{ pattern }}', {{ group_number }}), '')
{%- endmacro %}

{% macro postgres__ragmart_regexp_extract(expression, pattern, group_number) -%}
    nullif((regexp_match({{ expression }}, '{{ pattern }}'))[{{ group_number }}], '')
{%- endmacro %}
