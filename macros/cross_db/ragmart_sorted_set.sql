{#-
    An aggregate: the distinct non-null values of the text `expression` in the group, sorted by
    their bytes and joined by `delimiter`; null when there is none (ragmart_sorted_list keeps
    repeats).
-#}
{% macro ragmart_sorted_set(expression, delimiter) -%}
    {{ return(adapter.dispatch('ragmart_sorted_set', 'ragmart')(expression, delimiter)) }}
{%- endmacro %}

{% macro default__ragmart_sorted_set(expression, delimiter) -%}
    string_agg(distinct {{ expression }}, '{{ delimiter }}' order by {{ expression }})
{%- endmacro %}

{#- PostgreSQL: a distinct aggregate orders by its argument only, so the argument is the value in collation "C". -#}
{% macro postgres__ragmart_sorted_set(expression, delimiter) -%}
    (string_agg(distinct {{ ragmart_collate_binary(expression) }}, '{{ delimiter }}'
        order by {{ ragmart_collate_binary(expression) }}) collate "default")
{%- endmacro %}

{% macro spark__ragmart_sorted_set(expression, delimiter) -%}
    nullif(array_join(array_sort(collect_set({{ expression }})), '{{ delimiter }}'), '')
{%- endmacro %}
