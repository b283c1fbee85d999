{#- Default implementation of the generic test `expect_columns_values_to_be_between` (tests/generic/expect_columns_values_to_be_between.sql). -#}
{% macro default__test_expect_columns_values_to_be_between(model, column_list, min_value, max_value, row_condition) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_columns_values_to_be_between: 'column_list' must be a list of column names") }}
    {%- endif -%}
    {%- if min_value is none and max_value is none -%}
        {{ exceptions.raise_compiler_error("expect_columns_values_to_be_between: give min_value, max_value or both") }}
    {%- endif -%}
    {%- set bounds = [] -%}
    {%- if min_value is not none %}{% do bounds.append('{column} < ' ~ min_value) %}{% endif -%}
    {%- if max_value is not none %}{% do bounds.append('{column} > ' ~ max_value) %}{% endif -%}
    {{ ragmart_failing_columns(model, column_list, bounds | join(' or '), 'n_out_of_range_rows', row_condition) }}
{% endmacro %}
