{#-
    An aggregate: the non-null values of the text `expression` in the group, sorted by their bytes
    and joined by `delimiter`; null when there is none. `expression` is repeated in the SQL.
-#}
{% macro ragmart_sorted_list(expression, delimiter) -%}
    {{ return(adapter.dispatch('ragmart_sorted_list', 'ragmart')(expression, delimiter)) }}
{%- endmacro %}

{% macro default__ragmart_sorted_list(expression, delimiter) -%}
    string_agg({{ expression }}, '{{ delimiter }}' order by {{ ragmart_collate_binary(expression) }})
{%- endmacro %}

{#- Spark has no ordered string_agg: the collected values sorted (by their bytes) and joined. -#}
{% macro spark__ragmart_sorted_list(expression, delimiter) -%}
    nullif(array_join(array_sort(collect_list({{ expression }})), '{{ delimiter }}'), '')
{%- endmacro %}
