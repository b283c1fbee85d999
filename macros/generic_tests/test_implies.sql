{#- Default implementation of the generic test `implies` (tests/generic/implies.sql). -#}
{% macro default__test_implies(model, if_true, then_true, condition) %}
    {%- if not if_true or not then_true -%}
        {{ exceptions.raise_compiler_error("implies: both 'if_true' and 'then_true' must be SQL predicates") }}
    {%- endif -%}
    {{ adapter.dispatch('test_expression_is_true', 'ragmart')(
        model,
        'not (' ~ if_true ~ ') or coalesce(' ~ then_true ~ ', false)',
        condition) }}
{% endmacro %}
