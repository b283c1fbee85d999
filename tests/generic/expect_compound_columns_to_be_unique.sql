{#-
    The combination of `column_list` is unique across rows (a compound primary key), as in
    dbt-expectations. Null is a value like any other here, so a key with a null part is checked too.
    `row_condition` restricts the rows tested.
-#}
{% test expect_compound_columns_to_be_unique(model, column_list, row_condition=none) %}
    {{ adapter.dispatch('test_expect_compound_columns_to_be_unique', 'ragmart')(model, column_list, row_condition) }}
{% endtest %}
