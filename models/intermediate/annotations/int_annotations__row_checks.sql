{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the three exports with its
    own reason codes, `;`-separated in code order, and its labels after the constraint policy
    (under `repair`, the consequent of a violated implication is set to 1). The checks every export
    gets (the keys and created_at given, a timestamp and a language that parse, the row's task the
    export's) hold in every row; a task's own (every label given and a boolean spelling, the
    logical constraints of the task spec, and retrieval's chunk and rank) hold in its rows alone; a
    required text is missing where staging flags it blank (is_missing_<text>, null in the rows of a
    task without that text). Superseding, duplicates and the rank check follow in
    int_annotations__row_status.
-#}
{%- set languages = ragmart_setting('accepted_languages') -%}
{%- set common_checks = [
    {'code': 'invalid_language', 'condition': "(language is not null and language not in ('" ~ languages | join("', '") ~ "'))"
        if languages | length > 0 else '(language is not null)'},
    {'code': 'invalid_timestamp', 'condition': 'not ' ~ ragmart_is_blank('created_at') ~ ' and created_at_utc is null'},
    {'code': 'missing:annotator_id', 'condition': 'annotator_id is null'},
    {'code': 'missing:created_at', 'condition': ragmart_is_blank('created_at')},
    {'code': 'missing:record_uuid', 'condition': 'record_uuid is null'},
    {'code': 'missing:task', 'condition': 'task is null'},
    {'code': 'wrong_task', 'condition': 'task <> family'},
] %}
{%- set conditions = {} %}
{%- for check in common_checks %}
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
{#-
    Per task, from its spec: each label's checks (`missing:<label>` over the value as given,
    `<label>_raw`; `invalid_boolean:<label>` for it and each optional boolean); each constraint's
    `violates:` code (an exclusion always, an implication under constraint_policy reject); under
    repair the violated implications, keyed by the label they set to 1 (repairs) and together
    (was_repaired); and the labels as one text, `-` for a missing one (label_signature: rows of one
    submission at the same instant agree when their signatures are equal).
-#}
{%- set repairs = {} %}
{%- set was_repaired = {} %}
{%- set label_signature = {} %}
{%- for task in ragmart_tasks() %}
{%- set spec = ragmart_task_spec(task) %}
{%- set task_checks = [] %}
{%- for label in spec.labels %}
{%- do task_checks.append({'code': 'missing:' ~ label, 'condition': ragmart_is_blank(label ~ '_raw')}) %}
{%- endfor %}
{%- for label in spec.labels + spec.optional_booleans %}
{%- do task_checks.append({'code': 'invalid_boolean:' ~ label,
    'condition': '(not ' ~ ragmart_is_blank(label ~ '_raw') ~ ' and ' ~ label ~ ' is null)'}) %}
{%- endfor %}
{%- set task_repairs = {} %}
{%- set violated_implications = [] %}
{%- for constraint in spec.constraints %}
{%- if constraint.kind == 'excludes' %}
{%- do task_checks.append({'code': constraint.reason,
    'condition': constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 1'}) %}
{%- elif ragmart_setting('constraint_policy') == 'reject' -%}
{%- do task_checks.append({'code': constraint.reason,
    'condition': constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 0'}) %}
{%- elif ragmart_setting('constraint_policy') == 'repair' -%}
{%- set violated = '(' ~ constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 0)' %}
{%- do task_repairs.setdefault(constraint.consequent, []).append(violated) %}
{%- do violated_implications.append(violated) %}
{%- endif %}
{%- endfor %}
{%- for check in task_checks + (retrieval_checks if task == 'retrieval' else []) %}
{%- do conditions.setdefault(check.code, []).append("(family = '" ~ task ~ "' and " ~ check.condition ~ ")") %}
{%- endfor %}
{%- do repairs.update({task: task_repairs}) %}
{%- do was_repaired.update({task: '(' ~ violated_implications | join(' or ') ~ ')' if violated_implications else 'false'}) %}
{%- set parts = [] %}
{%- for label in spec.labels %}
{%- do parts.append("coalesce(cast(" ~ label ~ " as " ~ dbt.type_string() ~ "), '-')") %}
{%- endfor %}
{%- do label_signature.update({task: dbt.concat(parts)}) %}
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
        source_file,
        source_row,
        family as task,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        language,
        chunk_rank,
        case
            {%- for task in ragmart_tasks() %}
            when family = '{{ task }}' then {{ label_signature[task] }}
            {%- endfor %}
        end as label_signature,
        {%- for task in ragmart_tasks() %}
        {%- for label in ragmart_task_spec(task).labels %}
        {%- if label in repairs[task] %}
        case when {{ repairs[task][label] | join(' or ') }} then 1 else {{ label }} end as {{ label }},
        {%- else %}
        {{ label }},
        {%- endif %}
        {%- endfor %}
        {%- endfor %}
        case
            {%- for task in ragmart_tasks() %}
            when family = '{{ task }}' then {{ was_repaired[task] }}
            {%- endfor %}
        end as was_repaired,
        row_reasons

    from checked

)

select * from repaired
