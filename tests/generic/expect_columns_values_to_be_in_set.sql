{#-
    Every non-null value of every column of `column_list` is one of `value_set`, among the rows
    where `row_condition` holds: dbt-expectations' `expect_column_values_to_be_in_set` (dbt's
    `accepted_values`) for several columns with the same set, in one query (one node instead of
    one per column). Fails with one row per column and value outside the set, with its rows.
-#}
{% test expect_columns_values_to_be_in_set(model, column_list, value_set, quote_values=true, row_condition=none) %}
    {{ adapter.dispatch('test_expect_columns_values_to_be_in_set', 'ragmart')(
        model, column_list, value_set, quote_values, row_condition) }}
{% endtest %}
