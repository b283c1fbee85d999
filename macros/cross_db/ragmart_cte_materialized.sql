{#-
    Put between `name as` and the `(` of a common table expression that must be computed once,
    not copied into the query that reads it: `materialized ` on PostgreSQL, nothing elsewhere.
-#}
{% macro ragmart_cte_materialized() -%}
    {{ return(adapter.dispatch('ragmart_cte_materialized', 'ragmart')()) }}
{%- endmacro %}

{#- DuckDB and Spark compute an expression of a CTE once per row of it. -#}
{% macro default__ragmart_cte_materialized() -%}
    {{ return('') }}
{%- endmacro %}

{#-
    PostgreSQL 12+ inlines a CTE that is read once, pasting its expressions into every place the
    outer query uses them: `sum(sign * d_1), …, sum(sign * d_M)` would compute the md5 of the sign
    M times per row.
-#}
{% macro postgres__ragmart_cte_materialized() -%}
    {{ return('materialized ') }}
{%- endmacro %}
