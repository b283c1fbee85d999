{#- Default implementation of the generic test `expression_is_true` (tests/generic/expression_is_true.sql). -#}
{% macro default__test_expression_is_true(model, expression, condition) %}
    {%- if expression is none or (expression | trim) == '' -%}
        {{ exceptions.raise_compiler_error("expression_is_true: 'expression' must be a SQL predicate") }}
    {%- endif %}
    select *
    from {{ model }}
    where
        {% if condition %}({{ condition }}) and {% endif %}not ({{ expression }})
{% endmacro %}
