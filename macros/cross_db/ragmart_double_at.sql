{#-
    The `index`-th (counting from 1) of `values`, a list of numbers, as a double: one lookup in a
    list of literals (DuckDB's list, PostgreSQL's array, Spark's element_at) instead of a case of
    one branch a value. `index` is a whole number from 1 to the list's length (the caller checks).
-#}
{% macro ragmart_double_at(values, index) -%}
    {{ return(adapter.dispatch('ragmart_double_at', 'ragmart')(values, index)) }}
{%- endmacro %}

{% macro default__ragmart_double_at(values, index) -%}
    (array[{{ ragmart_double_literals(values) }}])[cast({{ index }} as integer)]
{%- endmacro %}

{% macro duckdb__ragmart_double_at(values, index) -%}
    [{{ ragmart_double_literals(values) }}][{{ index }}]
{%- endmacro %}

{% macro spark__ragmart_double_at(values, index) -%}
    element_at(array({{ ragmart_double_literals(values) }}), cast({{ index }} as int))
{%- endmacro %}

{#- The values as double literals, comma-separated, four to a line. -#}
{% macro ragmart_double_literals(values) -%}
    {%- set double_literal = adapter.dispatch('ragmart_double_literal', 'ragmart') -%}
    {%- for value in values -%}
        {{ double_literal(value) }}{{ '' if loop.last else (',\n    ' if loop.index % 4 == 0 else ', ') }}
    {%- endfor -%}
{%- endmacro %}
