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
