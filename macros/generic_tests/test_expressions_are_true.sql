{#- Default implementation of the generic test `expressions_are_true` (tests/generic/expressions_are_true.sql). -#}
{% macro default__test_expressions_are_true(model, expressions, condition) %}
    {%- if expressions is string or expressions is not iterable or (expressions | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expressions_are_true: 'expressions' must be a list of SQL predicates") }}
    {%- endif -%}
    {{ ragmart_failing_columns(model, expressions, 'not ({column})', 'n_failing_rows', condition, name_column='expression') }}
{% endmacro %}
