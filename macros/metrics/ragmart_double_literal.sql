{#-
    A double-precision literal of a number known at compile time: the shortest decimal that
    reads back as the same double, with an exponent so that DuckDB and Spark read it as a double
    (not as a decimal, which they would round to fewer digits), cast to the double type
    (PostgreSQL reads it as an exact numeric and rounds it once).
-#}
{% macro ragmart_double_literal(value) -%}
    {%- set text = value | string -%}
    cast({{ text if ('e' in text or 'E' in text) else text ~ 'e0' }} as {{ ragmart_type_double() }})
{%- endmacro %}
