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
    {%- endfor %}
    with out_of_set_counts as (
        select
            {%- for column in column_list %}
            sum(case when {{ column }} not in ({{ values | join(', ') }}) then 1 else 0 end) as n_out_of_set_{{ loop.index }},
            min(case when {{ column }} not in ({{ values | join(', ') }}) then cast({{ column }} as {{ dbt.type_string() }}) end)
                as smallest_out_of_set_{{ loop.index }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ model }}
        {%- if row_condition %}
        where {{ row_condition }}
        {%- endif %}
    )

    {% for column in column_list -%}
    select
        '{{ column }}' as column_name,
        n_out_of_set_{{ loop.index }} as n_out_of_set_rows,
        smallest_out_of_set_{{ loop.index }} as smallest_value_found
    from out_of_set_counts
    where n_out_of_set_{{ loop.index }} > 0
    {% if not loop.last %}union all
    {% endif -%}
    {%- endfor %}
{% endmacro %}
