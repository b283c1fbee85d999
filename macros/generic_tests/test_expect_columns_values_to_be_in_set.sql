{#- Default implementation of the generic test `expect_columns_values_to_be_in_set` (tests/generic/expect_columns_values_to_be_in_set.sql). -#}
{% macro default__test_expect_columns_values_to_be_in_set(model, column_list, value_set, quote_values, row_condition) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_columns_values_to_be_in_set: 'column_list' must be a list of column names") }}
    {%- endif -%}
    {%- if value_set is string or value_set is not iterable or (value_set | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_columns_values_to_be_in_set: 'value_set' must be a list of values") }}
    {%- endif -%}
    {%- set values = [] -%}
    {%- for value in value_set -%}
        {%- do values.append("'" ~ (value | string | replace("'", "''")) ~ "'" if quote_values else value | string) -%}
    {%- endfor -%}
    {{ ragmart_failing_columns(
        model, column_list, '{column} not in (' ~ (values | join(', ')) ~ ')', 'n_out_of_set_rows', row_condition,
        with_value=true) }}
{% endmacro %}
