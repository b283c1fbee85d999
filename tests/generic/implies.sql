{#-
    Logical implication between two predicates on each row (ADR 0006 constraints): fails on the
    rows where `if_true` holds and `then_true` does not.
    Example: if_true "evidence_sufficient = 1", then_true "topically_relevant = 1".
-#}
{% test implies(model, if_true, then_true, condition=none) %}
    {{ adapter.dispatch('test_implies', 'ragmart')(model, if_true, then_true, condition) }}
{% endtest %}
