{#- A timestamp plus a whole number of minutes (negative to subtract), fractions of a second kept. -#}
{% macro ragmart_add_minutes(expression, minutes) -%}
    {{ return(adapter.dispatch('ragmart_add_minutes', 'ragmart')(expression, minutes)) }}
{%- endmacro %}

{% macro default__ragmart_add_minutes(expression, minutes) -%}
    {{ dbt.dateadd('minute', minutes, expression) }}
{%- endmacro %}

{#- dbt-spark's dateadd goes through unix seconds and drops the fraction of a second. -#}
{% macro spark__ragmart_add_minutes(expression, minutes) -%}
    timestampadd(minute, {{ minutes }}, {{ expression }})
{%- endmacro %}
