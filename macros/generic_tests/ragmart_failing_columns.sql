{#-
    The failing rows of a generic test over several columns of one model
    (expect_columns_to_not_be_null, expressions_are_true): one pass over `model` (the rows where
    `row_condition` holds) counts, per column of `column_list`, the rows where `failure` holds (a
    SQL predicate with `{column}` standing for the column), then one row per column with such
    rows: the column (or expression) as written in `name_column` and the count named `count_name`.
-#}
{% macro ragmart_failing_columns(model, column_list, failure, count_name, row_condition=none, name_column='column_name') %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("'column_list' must be a list of column names") }}
    {%- endif %}
    with failure_counts as (
        select
            {%- for column in column_list %}
            {%- set failing = failure | replace('{column}', column) %}
            sum(case when {{ failing }} then 1 else 0 end) as n_failing_{{ loop.index }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ model }}
        {%- if row_condition %}
        where {{ row_condition }}
        {%- endif %}
    )

    {% for column in column_list -%}
    select
        '{{ column | replace("'", "''") }}' as {{ name_column }},
        n_failing_{{ loop.index }} as {{ count_name }}
    from failure_counts
    where n_failing_{{ loop.index }} > 0
    {% if not loop.last %}union all
    {% endif -%}
    {%- endfor %}
{% endmacro %}
