{#-
    One SQL predicate per column of `column_list`: `predicate` with `{column}` standing for the
    column, e.g. ragmart_column_predicates(var('ragmart_tasks').retrieval.labels, '{column} in (0, 1)').
    An item of expressions_are_true's `expressions`, so that a rule over the columns of a var
    (every label of the task spec) follows the var.
-#}
{% macro ragmart_column_predicates(column_list, predicate) %}
    {%- if column_list is string or column_list is not iterable or (column_list | length) == 0 -%}
        {{ exceptions.raise_compiler_error("ragmart_column_predicates: 'column_list' must be a list of column names") }}
    {%- endif -%}
    {%- if predicate is not string or '{column}' not in predicate -%}
        {{ exceptions.raise_compiler_error("ragmart_column_predicates: 'predicate' must be a SQL predicate with {column} in it") }}
    {%- endif -%}
    {%- set predicates = [] -%}
    {%- for column in column_list -%}
        {%- do predicates.append(predicate | replace('{column}', column)) -%}
    {%- endfor -%}
    {{ return(predicates) }}
{% endmacro %}
