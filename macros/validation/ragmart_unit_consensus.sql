{#-
    One row per unit of `task` with its consensus labels side by side and `is_resolved` (every
    label resolved), read from int_annotations__label_consensus.
-#}
{% macro ragmart_unit_consensus(task) -%}
    {%- set spec = ragmart_task_spec(task) -%}
    select
        {{ spec.unit_columns | join(',\n        ') }},
        {%- for label in spec.labels %}
        max(case when label = '{{ label }}' then consensus_value end) as {{ label }},
        {%- endfor %}
        min(case when is_resolved then 1 else 0 end) = 1 as is_resolved

    from {{ ref('int_annotations__label_consensus') }}
    where task = '{{ task }}'
    group by {{ spec.unit_columns | join(', ') }}
{%- endmacro %}
