{#- Default implementation of the generic test `expect_columns_to_not_be_null` (tests/generic/expect_columns_to_not_be_null.sql). -#}
{% macro default__test_expect_columns_to_not_be_null(model, column_list, row_condition) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_columns_to_not_be_null: 'column_list' must be a list of column names") }}
    {%- endif %}
    with null_counts as (
        select
            {%- for column in column_list %}
            sum(case when {{ column }} is null then 1 else 0 end) as n_null_{{ loop.index }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ model }}
        {%- if row_condition %}
        where {{ row_condition }}
        {%- endif %}
    )

    {% for column in column_list -%}
    select
        '{{ column }}' as column_name,
        n_null_{{ loop.index }} as n_null_rows
    from null_counts
    where n_null_{{ loop.index }} > 0
    {% if not loop.last %}union all
    {% endif -%}
    {%- endfor %}
{% endmacro %}
