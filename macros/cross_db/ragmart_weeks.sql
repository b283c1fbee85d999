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

{#-
    Spark: its datetime patterns have no week-based year, so the ISO year is the calendar year of
    the week's Thursday (ISO 8601: week 1 holds the year's first Thursday); weekofyear() is the
    ISO week number.
-#}
{% macro spark__ragmart_iso_week(expression) -%}
    concat(
        cast(year(date_add(to_date({{ expression }}), 4 - (((dayofweek({{ expression }}) + 5) % 7) + 1))) as string),
        '-W',
        lpad(cast(weekofyear({{ expression }}) as string), 2, '0')
    )
{%- endmacro %}
