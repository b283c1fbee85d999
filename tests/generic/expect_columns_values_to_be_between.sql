{#-
    Every non-null value of every column of `column_list` lies in [min_value, max_value] (either
    bound may be omitted), among the rows where `row_condition` holds: dbt-expectations'
    `expect_column_values_to_be_between` for several columns with the same bounds, in one query
    (one node instead of one per column). Fails with one row per column that has a value out of
    range, naming it and counting the rows.
-#}
{% test expect_columns_values_to_be_between(model, column_list, min_value=none, max_value=none, row_condition=none) %}
    {{ adapter.dispatch('test_expect_columns_values_to_be_between', 'ragmart')(
        model, column_list, min_value, max_value, row_condition) }}
{% endtest %}
