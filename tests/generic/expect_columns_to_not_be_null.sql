{#-
    None of the columns of `column_list` is null, among the rows where `row_condition` holds: the
    not_null test of several columns of one model in one query (one node instead of one per
    column). Fails with one row per column that has nulls, naming it and counting its null rows.
    Shaped like dbt-expectations' `expect_column_values_to_not_be_null`, with its `row_condition`.
-#}
{% test expect_columns_to_not_be_null(model, column_list, row_condition=none) %}
    {{ adapter.dispatch('test_expect_columns_to_not_be_null', 'ragmart')(model, column_list, row_condition) }}
{% endtest %}
