{#-
    Every non-null value of the column lies in [min_value, max_value] (either bound may be
    omitted), as in dbt-expectations. `row_condition` restricts the rows tested.
-#}
{% test expect_column_values_to_be_between(model, column_name, min_value=none, max_value=none, row_condition=none) %}
    {{ adapter.dispatch('test_expect_column_values_to_be_between', 'ragmart')(
        model, column_name, min_value, max_value, row_condition) }}
{% endtest %}
