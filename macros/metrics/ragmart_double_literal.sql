{#-
    A double-precision literal of a number known at compile time: the shortest decimal that
    reads back as the same double, with an exponent so that DuckDB and Spark read it as a double
    (not as a decimal, which they would round to fewer digits). DuckDB takes it as it is (a
    literal with an exponent is a DOUBLE there); elsewhere it is cast to the double type
    (PostgreSQL reads it as an exact numeric and rounds it once).
-#}
{% macro ragmart_double_literal(value) -%}
    {{ return(adapter.dispatch('ragmart_double_literal', 'ragmart')(value)) }}
{%- endmacro %}

{#-
    The literal is the number's shortest round-trip decimal with an exponent (`2.5e0`, `1e-05`).
    Each engine's macro takes the number itself: ragmart_double_literals dispatches once and
    calls the engine's macro for each value of its list.
-#}
{% macro default__ragmart_double_literal(value) -%}
    {%- set text = value | string -%}
    cast({{ text if ('e' in text or 'E' in text) else text ~ 'e0' }} as {{ ragmart_type_double() }})
{%- endmacro %}

{% macro duckdb__ragmart_double_literal(value) -%}
    {%- set text = value | string -%}
    {{ text if ('e' in text or 'E' in text) else text ~ 'e0' }}
{%- endmacro %}
