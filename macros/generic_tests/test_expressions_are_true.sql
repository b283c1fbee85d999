{#- Default implementation of the generic test `expressions_are_true` (tests/generic/expressions_are_true.sql). -#}
{% macro default__test_expressions_are_true(model, expressions, condition) %}
    {%- if expressions is string or expressions is not iterable or (expressions | length) == 0 -%}
        {{ exceptions.raise_compiler_error("expressions_are_true: 'expressions' must be a list of SQL predicates") }}
    {%- endif %}
    with failure_counts as (
        select
            {%- for expression in expressions %}
            sum(case when not ({{ expression }}) then 1 else 0 end) as n_failing_{{ loop.index }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ model }}
        {%- if condition %}
        where {{ condition }}
        {%- endif %}
    )

    {% for expression in expressions -%}
    select
        '{{ expression | replace("'", "''") }}' as expression,
        n_failing_{{ loop.index }} as n_failing_rows
    from failure_counts
    where n_failing_{{ loop.index }} > 0
    {% if not loop.last %}union all
    {% endif -%}
    {%- endfor %}
{% endmacro %}
