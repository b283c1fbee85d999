{#-
    The row checks of docs/rules.md (Row status, step 1) for one task: a list of
    {code, condition} pairs, sorted by code, over the columns of the task's staging model (a
    required long text by its `is_missing_<column>` flag).
    `condition` is a SQL predicate that is true when the row earns the code.
-#}
{% macro ragmart_row_checks(task) -%}
    {%- set spec = ragmart_task_spec(task) -%}
    {%- set parsed = ragmart_parsed_columns(task) -%}
    {%- set checks = [] -%}
    {%- for column in ragmart_export_columns(task) -%}
        {%- set given = column.name ~ '_raw' if column.name in parsed else column.name -%}
        {%- if column.required and column.name in spec.required_texts -%}
            {#- staging keeps the long texts out and says whether they are blank -#}
            {%- do checks.append({'code': 'missing:' ~ column.name, 'condition': 'is_missing_' ~ column.name}) -%}
        {%- elif column.required -%}
            {%- do checks.append({'code': 'missing:' ~ column.name, 'condition': ragmart_is_blank(given)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for name in spec.labels + spec.optional_booleans -%}
        {%- do checks.append({
            'code': 'invalid_boolean:' ~ name,
            'condition': 'not ' ~ ragmart_is_blank(name ~ '_raw') ~ ' and ' ~ name ~ ' is null'}) -%}
    {%- endfor -%}
    {%- if task == 'retrieval' -%}
        {%- do checks.append({
            'code': 'invalid_rank',
            'condition': 'not ' ~ ragmart_is_blank('chunk_rank_raw') ~ ' and chunk_rank is null'}) -%}
    {%- endif -%}
    {%- do checks.append({
        'code': 'invalid_timestamp',
        'condition': 'not ' ~ ragmart_is_blank('created_at') ~ ' and created_at_utc is null'}) -%}
    {%- set languages = ragmart_accepted_languages() -%}
    {%- do checks.append({
        'code': 'invalid_language',
        'condition': 'language is not null'
            ~ (" and language not in ('" ~ (languages | join("', '")) ~ "')" if languages | length > 0 else '')}) -%}
    {%- do checks.append({'code': 'wrong_task', 'condition': "task <> '" ~ task ~ "'"}) -%}
    {%- for constraint in spec.constraints -%}
        {%- if constraint.kind == 'excludes' or ragmart_constraint_policy() == 'reject' -%}
            {%- set consequent_value = 1 if constraint.kind == 'excludes' else 0 -%}
            {%- do checks.append({
                'code': ragmart_constraint_code(constraint),
                'condition': constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = ' ~ consequent_value}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(checks | sort(attribute='code')) }}
{%- endmacro %}

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
    The value of a label after the constraint policy: under `repair`, the consequent of a
    violated implication is set to 1 (as the annotation UI would); otherwise the parsed value.
-#}
{% macro ragmart_repaired_label(task, label) -%}
    {%- set antecedents = [] -%}
    {%- if ragmart_constraint_policy() == 'repair' -%}
        {%- for constraint in ragmart_task_spec(task).constraints
            if constraint.kind == 'implies' and constraint.consequent == label -%}
            {%- do antecedents.append(constraint.antecedent) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if antecedents -%}
        case
            {%- for antecedent in antecedents %}
            when {{ antecedent }} = 1 and {{ label }} = 0 then 1
            {%- endfor %}
            else {{ label }}
        end
    {%- else -%}
        {{ label }}
    {%- endif -%}
{%- endmacro %}

{#- True when the constraint policy changed any label of the row. -#}
{% macro ragmart_was_repaired(task) -%}
    {%- set violations = [] -%}
    {%- if ragmart_constraint_policy() == 'repair' -%}
        {%- for constraint in ragmart_task_spec(task).constraints if constraint.kind == 'implies' -%}
            {%- do violations.append('(' ~ constraint.antecedent ~ ' = 1 and ' ~ constraint.consequent ~ ' = 0)') -%}
        {%- endfor -%}
    {%- endif -%}
    {{ violations | join(' or ') if violations else 'false' }}
{%- endmacro %}

{#-
    The row checks of the optional records seed (ADR-001 routing inputs), in the shape of
    ragmart_row_checks: missing record_uuid, a model_uncertainty that is not a decimal, an
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
