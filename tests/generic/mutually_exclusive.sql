{#-
    At most one of `predicates` holds on each row (ADR 0006: evidence_sufficient and misleading
    cannot co-occur). Fails on the rows where two or more hold.
-#}
{% test mutually_exclusive(model, predicates, condition=none) %}
    {{ adapter.dispatch('test_mutually_exclusive', 'ragmart')(model, predicates, condition) }}
{% endtest %}
