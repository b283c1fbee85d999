{#- Default implementation of the generic test `expect_columns_to_not_be_null` (tests/generic/expect_columns_to_not_be_null.sql). -#}
{% macro default__test_expect_columns_to_not_be_null(model, column_list, row_condition) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_columns_to_not_be_null: 'column_list' must be a list of column names") }}
    {%- endif -%}
    {{ ragmart_failing_columns(model, column_list, '{column} is null', 'n_null_rows', row_condition) }}
{% endmacro %}
