{#- The Monday that starts the ISO week of a timestamp, as a date. -#}
{% macro ragmart_week_start(expression) -%}
    {{ return(adapter.dispatch('ragmart_week_start', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_week_start(expression) -%}
    cast({{ dbt.date_trunc('week', expression) }} as date)
{%- endmacro %}

{#- The ISO 8601 week of a timestamp as text, e.g. `2025-W10` (ISO week-numbering year). -#}
{% macro ragmart_iso_week(expression) -%}
    {{ return(adapter.dispatch('ragmart_iso_week', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_iso_week(expression) -%}
    strftime({{ expression }}, '%G-W%V')
{%- endmacro %}

{% macro postgres__ragmart_iso_week(expression) -%}
    to_char({{ expression }}, 'IYYY-"W"IW')
{%- endmacro %}
