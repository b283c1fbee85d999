{#-
    Every expression of `expressions` holds on every row, among the rows where `condition` holds:
    dbt_utils / dbt-expectations' `expression_is_true` for several expressions of one model, in
    one query (one node instead of one per expression). Rows where an expression is null pass it,
    as in `expression_is_true`. An item may be a list of expressions itself (one per label of the
    task spec, from ragmart_column_predicates). Fails with one row per expression that is false
    on some row: the expression and how many rows.
-#}
{% test expressions_are_true(model, expressions, condition=none) %}
    {{ adapter.dispatch('test_expressions_are_true', 'ragmart')(model, expressions, condition) }}
{% endtest %}
