{#- Default implementation of the generic test `expect_columns_values_to_be_between` (tests/generic/expect_columns_values_to_be_between.sql). -#}
{% macro default__test_expect_columns_values_to_be_between(model, column_list, min_value, max_value, row_condition) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expect_columns_values_to_be_between: 'column_list' must be a list of column names") }}
    {%- endif -%}
    {%- if min_value is none and max_value is none -%}
        {{ exceptions.raise_compiler_error("expect_columns_values_to_be_between: give min_value, max_value or both") }}
    {%- endif %}
    with out_of_range_counts as (
        select
            {%- for column in column_list %}
            sum(case
                when {% if min_value is not none %}{{ column }} < {{ min_value }}{% endif -%}
                {%- if min_value is not none and max_value is not none %} or {% endif -%}
                {%- if max_value is not none %}{{ column }} > {{ max_value }}{% endif %} then 1
                else 0
            end) as n_out_of_range_{{ loop.index }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ model }}
        {%- if row_condition %}
        where {{ row_condition }}
        {%- endif %}
    )

    {% for column in column_list -%}
    select
        '{{ column }}' as column_name,
        n_out_of_range_{{ loop.index }} as n_out_of_range_rows
    from out_of_range_counts
    where n_out_of_range_{{ loop.index }} > 0
    {% if not loop.last %}union all
    {% endif -%}
    {%- endfor %}
{% endmacro %}
