{#- Default implementation of the generic test `expect_compound_columns_to_be_unique` (tests/generic/expect_compound_columns_to_be_unique.sql). -#}
{% macro default__test_expect_compound_columns_to_be_unique(model, column_list, row_condition) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_compound_columns_to_be_unique: 'column_list' must be a list of column names") }}
    {%- endif %}
    select
        {{ column_list | join(', ') }},
        count(*) as n_rows
    from {{ model }}
    {%- if row_condition %}
    where {{ row_condition }}
    {%- endif %}
    group by {{ column_list | join(', ') }}
    having count(*) > 1
{% endmacro %}
