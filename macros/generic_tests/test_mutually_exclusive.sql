{#- Default implementation of the generic test `mutually_exclusive` (tests/generic/mutually_exclusive.sql). -#}
{% macro default__test_mutually_exclusive(model, predicates, condition) %}
    {%- if predicates is string or predicates is not iterable or (predicates | length) < 2 -%}
        {{ exceptions.raise_compiler_error("mutually_exclusive: 'predicates' must be a list of two or more SQL predicates") }}
    {%- endif -%}
    {%- set terms = [] -%}
    {%- for predicate in predicates -%}
        {%- do terms.append('case when ' ~ predicate ~ ' then 1 else 0 end') -%}
    {%- endfor -%}
    {{ adapter.dispatch('test_expression_is_true', 'ragmart')(model, '(' ~ (terms | join(' + ')) ~ ') <= 1', condition) }}
{% endmacro %}
