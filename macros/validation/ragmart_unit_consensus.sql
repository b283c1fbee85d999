{#-
    One row per unit of `task` with its consensus labels side by side and `is_resolved` (every
    label resolved), read from `relation`, the CTE of the caller that holds
    int_annotations__label_consensus or another long table with the same columns (task, the unit
    columns, label, consensus_value, is_resolved), with `key_columns` in front (e.g. the label
    source of judge-estimated labels).
-#}
{% macro ragmart_unit_consensus(task, relation, key_columns=[]) -%}
    {%- set spec = ragmart_task_spec(task) -%}
    {%- set group_columns = key_columns + spec.unit_columns -%}
    select
        {{ group_columns | join(',\n        ') }},
        {%- for label in spec.labels %}
        max(case when label = '{{ label }}' then consensus_value end) as {{ label }},
        {%- endfor %}
        min(case when is_resolved then 1 else 0 end) = 1 as is_resolved

    from {{ relation }}
    where task = '{{ task }}'
    group by {{ group_columns | join(', ') }}
{%- endmacro %}
