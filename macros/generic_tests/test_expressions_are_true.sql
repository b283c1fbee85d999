{#- Default implementation of the generic test `expressions_are_true` (tests/generic/expressions_are_true.sql). -#}
{% macro default__test_expressions_are_true(model, expressions, condition) %}
    {%- if expressions is string or expressions is not iterable or (expressions | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expressions_are_true: 'expressions' must be a list of SQL predicates") }}
    {%- endif -%}
    {#- an item may be a list of predicates itself (ragmart_column_predicates): taken in its place -#}
    {%- set predicates = [] -%}
    {%- for expression in expressions -%}
        {%- for predicate in (expression if expression is iterable and expression is not string else [expression]) -%}
            {%- if predicate is not string or (predicate | trim) == '' -%}
                {{ exceptions.raise_compiler_error("expressions_are_true: every expression must be a SQL predicate, not " ~ predicate) }}
            {%- endif -%}
            {%- do predicates.append(predicate) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if predicates | length == 0 and not execute -%}
        {#- while dbt parses, a macro call among the expressions is not run yet (it renders as nothing) -#}
        {%- do predicates.append('true') -%}
    {%- endif -%}
    {{ ragmart_failing_columns(model, predicates, 'not ({column})', 'n_failing_rows', condition, name_column='expression') }}
{% endmacro %}
