{#-
    A double-precision floating-point type. dbt.type_float() is `float`, which is single
    precision on DuckDB: every measure uses this type instead.
-#}
{% macro ragmart_type_double() -%}
    {{ return(adapter.dispatch('ragmart_type_double', 'ragmart')()) }}
{%- endmacro %}

{% macro default__ragmart_type_double() -%}
    double precision
{%- endmacro %}

{% macro duckdb__ragmart_type_double() -%}
    double
{%- endmacro %}

{% macro spark__ragmart_type_double() -%}
    double
{%- endmacro %}
