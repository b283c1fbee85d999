{#-
    Fails on the rows where `expression` is false (rows where it is null pass: pair with not_null).
    `condition` restricts the rows tested. Shaped like dbt_utils / dbt-expectations
    `expression_is_true`, the core the other expression tests build on.
-#}
{% test expression_is_true(model, expression, condition=none) %}
    {{ adapter.dispatch('test_expression_is_true', 'ragmart')(model, expression, condition) }}
{% endtest %}
