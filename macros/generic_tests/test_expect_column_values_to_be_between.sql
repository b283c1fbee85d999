{#- Default implementation of the generic test `expect_column_values_to_be_between` (tests/generic/expect_column_values_to_be_between.sql). -#}
{% macro default__test_expect_column_values_to_be_between(model, column_name, min_value, max_value, row_condition) %}
    {%- if min_value is none and max_value is none -%}
        {{ exceptions.raise_compiler_error("expect_column_values_to_be_between: give min_value, max_value or both") }}
    {%- endif -%}
    {%- set bounds = [] -%}
    {%- if min_value is not none %}{% do bounds.append(column_name ~ ' >= ' ~ min_value) %}{% endif -%}
    {%- if max_value is not none %}{% do bounds.append(column_name ~ ' <= ' ~ max_value) %}{% endif -%}
    {{ adapter.dispatch('test_expression_is_true', 'ragmart')(model, bounds | join(' and '), row_condition) }}
{% endmacro %}
