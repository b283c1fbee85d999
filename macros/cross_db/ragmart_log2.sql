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

{#-
    Postgres: the quotient of natural logarithms can miss the correctly rounded double by one
    unit in the last place (log2(3)), where DuckDB and Spark do not; the logarithm is taken in
    `numeric` with 20 decimals and rounded to a double once. Exact for integer arguments (a
    double argument is first converted to numeric, which keeps 15 significant digits).
-#}
{% macro postgres__ragmart_log2(expression) -%}
    cast(log(cast(2 as numeric(40, 20)), cast({{ expression }} as numeric(40, 20))) as double precision)
{%- endmacro %}
