{#-
    A text expression that compares and sorts by its bytes (UTF-8 code points), whatever the
    database's default collation: ordering and `<` on text then give the same result on every
    engine.
-#}
{% macro ragmart_collate_binary(expression) -%}
    {{ return(adapter.dispatch('ragmart_collate_binary', 'ragmart')(expression)) }}
{%- endmacro %}

{#- DuckDB and Spark compare text by its bytes unless told otherwise. -#}
{% macro default__ragmart_collate_binary(expression) -%}
    {{ expression }}
{%- endmacro %}

{% macro postgres__ragmart_collate_binary(expression) -%}
    ({{ expression }} collate "C")
{%- endmacro %}

{#-
    The aggregate min() of a text in byte order (as ragmart_collate_binary orders it), whatever
    the database's default collation, with the database's default collation on the result: a
    column that holds it compares and sorts like any other text column.
-#}
{% macro ragmart_min_binary(expression) -%}
    {{ return(adapter.dispatch('ragmart_min_binary', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_min_binary(expression) -%}
    min({{ ragmart_collate_binary(expression) }})
{%- endmacro %}

{#- PostgreSQL: min() under collation "C", then the default collation again. -#}
{% macro postgres__ragmart_min_binary(expression) -%}
    (min({{ ragmart_collate_binary(expression) }}) collate "default")
{%- endmacro %}
