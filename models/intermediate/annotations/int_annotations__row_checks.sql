{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the three exports with its
    own reason codes, `;`-separated in code order, and its labels after the constraint policy
    (under `repair`, the consequent of a violated implication is set to 1). The checks every export
    gets come from ragmart_common_row_checks; a task's own (its labels and their logical
    constraints from the task spec, ragmart_label_checks, and retrieval's chunk and rank) hold in
    its rows alone; a required text is missing where staging flags it blank (is_missing_<text>,
    null in the rows of a task without that text). Superseding, duplicates and the rank check
    follow in int_annotations__row_status.
-#}
{%- set conditions = {} %}
{%- for check in ragmart_common_row_checks() %}
{%- do conditions.setdefault(check.code, []).append(check.condition) %}
{%- endfor %}
{%- for text in ragmart_required_texts() %}
{%- do conditions.setdefault('missing:' ~ text, []).append('is_missing_' ~ text) %}
{%- endfor %}
{%- set retrieval_checks = [
    {'code': 'invalid_rank', 'condition': 'not ' ~ ragmart_is_blank('chunk_rank_raw') ~ ' and chunk_rank is null'},
    {'code': 'missing:chunk_id', 'condition': 'chunk_id is null'},
    {'code': 'missing:chunk_rank', 'condition': ragmart_is_blank('chunk_rank_raw')},
] %}
{%- for task in ragmart_tasks() %}
{%- set task_checks = ragmart_label_checks(task) + (retrieval_checks if task == 'retrieval' else []) %}
{%- for check in task_checks %}
{%- do conditions.setdefault(check.code, []).append("(family = '" ~ task ~ "' and " ~ check.condition ~ ")") %}
{%- endfor %}
{%- endfor %}
{%- set checks = [] %}
{%- for code in conditions | sort %}
{%- do checks.append({'code': code, 'condition': conditions[code] | join(' or ')}) %}
{%- endfor %}

with

staged as (

    select * from {{ ref('stg_annotation_exports__annotations') }}

),

checked as (

    select
        staged.*,
        {{ ragmart_reasons_expression(checks) }} as row_reasons

    from staged

),

repaired as (

    select
        annotation_row_id,
        family as task,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        language,
        chunk_rank,
        case
            {%- for task in ragmart_tasks() %}
            when family = '{{ task }}' then {{ ragmart_label_signature(task) }}
            {%- endfor %}
        end as label_signature,
        {%- for task in ragmart_tasks() %}
        {%- for label in ragmart_task_spec(task).labels %}
        {{ ragmart_repaired_label(task, label) }} as {{ label }},
        {%- endfor %}
        {%- endfor %}
        case
            {%- for task in ragmart_tasks() %}
            when family = '{{ task }}' then {{ ragmart_was_repaired(task) }}
            {%- endfor %}
        end as was_repaired,
        row_reasons

    from checked

)

select * from repaired
