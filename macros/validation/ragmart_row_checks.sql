{#-
    The `;`-separated, sorted reason codes a row earns from `checks`, null when it earns none. A
    record that did not parse (`is_malformed`, files mode) has no values to check: its one code is
    `malformed_row`.
-#}
{% macro ragmart_reasons_expression(checks) -%}
    case when is_malformed then 'malformed_row' else nullif(concat_ws(';'
        {%- for check in checks %},
        case when {{ check.condition }} then '{{ check.code }}' end
        {%- endfor %}
    ), '') end
{%- endmacro %}

{#- How many of `checks` a row fails (1 for a malformed record). -#}
{% macro ragmart_reason_count_expression(checks) -%}
    case when is_malformed then 1 else (
        {%- for check in checks %}
        case when {{ check.condition }} then 1 else 0 end{% if not loop.last %} +{% endif %}
        {%- endfor %}
    ) end
{%- endmacro %}

{#-
    The row checks of the optional records seed (ADR-001 routing inputs), as {code, condition}
    pairs sorted by code: missing record_uuid, a model_uncertainty that is not a decimal, an
    is_adversarial that is not a boolean spelling, a tier other than tier_a / tier_b.
-#}
{% macro ragmart_records_row_checks() -%}
    {%- set checks = [
        {'code': 'missing:record_uuid', 'condition': 'record_uuid is null'},
        {'code': 'invalid_decimal:model_uncertainty',
         'condition': 'not ' ~ ragmart_is_blank('model_uncertainty_raw') ~ ' and model_uncertainty is null'},
        {'code': 'invalid_boolean:is_adversarial',
         'condition': 'not ' ~ ragmart_is_blank('is_adversarial_raw') ~ ' and is_adversarial is null'},
        {'code': 'invalid_tier', 'condition': "tier is not null and tier not in ('tier_a', 'tier_b')"},
    ] -%}
    {{ return(checks | sort(attribute='code')) }}
{%- endmacro %}

{#-
    The row checks every export gets, as {code, condition} pairs over its staged row (the stacked
    exports, stg_annotation_exports__annotations): the keys and `created_at` given, a timestamp and
    a language that parse, the row's task the export's (`family`).
-#}
{% macro ragmart_common_row_checks() -%}
    {{ return([
        {'code': 'invalid_language', 'condition': ragmart_invalid_language('language')},
        {'code': 'invalid_timestamp', 'condition': 'not ' ~ ragmart_is_blank('created_at') ~ ' and created_at_utc is null'},
        {'code': 'missing:annotator_id', 'condition': 'annotator_id is null'},
        {'code': 'missing:created_at', 'condition': ragmart_is_blank('created_at')},
        {'code': 'missing:record_uuid', 'condition': 'record_uuid is null'},
        {'code': 'missing:task', 'condition': 'task is null'},
        {'code': 'wrong_task', 'condition': 'task <> family'},
    ]) }}
{%- endmacro %}

{#-
    The row checks that the task spec (var ragmart_tasks) gives a task's labels, as {code,
    condition} pairs: every label must be given (`missing:<label>`, over the value as given,
    `<label>_raw`) and be a boolean spelling (`invalid_boolean:<label>`), an optional boolean only
    the latter, and each logical constraint of the task its `violates:` code: an exclusion always,
    an implication under constraint_policy reject (under repair it is repaired instead,
    ragmart_repaired_label). The models add their other checks and sort them by code.
-#}
{% macro ragmart_label_checks(task) -%}
    {%- set spec = ragmart_task_spec(task) -%}
    {%- set checks = [] -%}
    {%- for label in spec.labels -%}
        {%- do checks.append({'code': 'missing:' ~ label, 'condition': ragmart_is_blank(label ~ '_raw')}) -%}
    {%- endfor -%}
    {%- for label in spec.labels + spec.optional_booleans -%}
        {%- do checks.append({'code': 'invalid_boolean:' ~ label, 'condition': ragmart_invalid_boolean(label)}) -%}
    {%- endfor -%}
    {%- for constraint in spec.constraints -%}
        {%- if constraint.kind == 'excludes' -%}
            {%- do checks.append({'code': constraint.reason,
                'condition': constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 1'}) -%}
        {%- elif ragmart_setting('constraint_policy') == 'reject' -%}
            {%- do checks.append({'code': constraint.reason,
                'condition': constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 0'}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(checks) }}
{%- endmacro %}

{#-
    The implications of a task's constraints that constraint_policy repair repairs (none under
    reject), as SQL conditions of a violated one, keyed by the label they set to 1.
-#}
{% macro ragmart_repairs(task) -%}
    {%- set repairs = {} -%}
    {%- if ragmart_setting('constraint_policy') == 'repair' -%}
        {%- for constraint in ragmart_task_spec(task).constraints if constraint.kind == 'implies' -%}
            {%- do repairs.setdefault(constraint.consequent, []).append(
                '(' ~ constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 0)') -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(repairs) }}
{%- endmacro %}

{#- A label's value after the constraint policy: 1 where repair repairs an implication it is the consequent of. -#}
{% macro ragmart_repaired_label(task, label) -%}
    {%- set conditions = ragmart_repairs(task).get(label, []) -%}
    {%- if conditions -%}
        case when {{ conditions | join(' or ') }} then 1 else {{ label }} end
    {%- else -%}
        {{ label }}
    {%- endif -%}
{%- endmacro %}

{#- Whether the constraint policy repaired the row (always false under reject). -#}
{% macro ragmart_was_repaired(task) -%}
    {%- set conditions = [] -%}
    {%- for label_conditions in ragmart_repairs(task).values() -%}
        {%- do conditions.extend(label_conditions) -%}
    {%- endfor -%}
    {%- if conditions -%}
        ({{ conditions | join(' or ') }})
    {%- else -%}
        false
    {%- endif -%}
{%- endmacro %}

{#-
    The labels of a row as one text, `-` for a missing one (e.g. `10-`): rows of one submission at
    the same instant agree when their signatures are equal.
-#}
{% macro ragmart_label_signature(task) -%}
    {%- set parts = [] -%}
    {%- for label in ragmart_task_spec(task).labels -%}
        {%- do parts.append("coalesce(cast(" ~ label ~ " as " ~ dbt.type_string() ~ "), '-')") -%}
    {%- endfor -%}
    {{ dbt.concat(parts) }}
{%- endmacro %}
