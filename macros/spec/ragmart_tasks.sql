{#-
    The annotation tasks of ADR 0005 / 0006 (docs/rules.md, The task spec), as the var ragmart_tasks
    of dbt_project.yml declares them: the columns of each export, which are required, which are
    binary labels, the unit of annotation and the logical constraints between labels.
-#}
{% macro ragmart_tasks() -%}
    {{ return(var('ragmart_tasks').keys() | list) }}
{%- endmacro %}

{#- Every binary label of every task, in task order (the columns of int_annotations__accepted_rows). -#}
{% macro ragmart_labels() -%}
    {%- set labels = [] -%}
    {%- for task in ragmart_tasks() -%}
        {%- do labels.extend(ragmart_task_spec(task).labels) -%}
    {%- endfor -%}
    {{ return(labels) }}
{%- endmacro %}

{#-
    The pairs (task, label) of every binary label as literal rows joined by `union all`: the body of
    a CTE that turns one row per unit (every label a column) into one row per unit and label of
    its task, with ragmart_label_value picking the label's column.
-#}
{% macro ragmart_task_labels() -%}
    {%- for task in ragmart_tasks() %}
    {%- set outer = loop %}
    {%- for label in ragmart_task_spec(task).labels %}
    select '{{ task }}' as task, '{{ label }}' as label{% if not (outer.last and loop.last) %} union all{% endif %}
    {%- endfor %}
    {%- endfor %}
{%- endmacro %}

{#-
    The value, for the label named by `label_column`, of the column `column_pattern` with `{label}`
    replaced by that label (e.g. 'counted.n_positive_{label}'): a case over every binary label.
-#}
{% macro ragmart_label_value(label_column, column_pattern) -%}
    case {{ label_column }}
        {%- for label in ragmart_labels() %}
        when '{{ label }}' then {{ column_pattern | replace('{label}', label) }}
        {%- endfor %}
    end
{%- endmacro %}

{#-
    The spec of one task from the var ragmart_tasks (dbt_project.yml): unit_columns, labels,
    required_texts, optional_texts, optional_booleans, constraints, and the seed it is read from.
-#}
{% macro ragmart_task_spec(task) -%}
    {%- set specs = var('ragmart_tasks') -%}
    {%- if task not in specs -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: unknown task '" ~ task ~ "'; expected one of " ~ (specs.keys() | list | join(', '))) }}
    {%- endif -%}
    {%- set spec = {'seed': task ~ '_annotations'} -%}
    {%- do spec.update(specs[task]) -%}
    {{ return(spec) }}
{%- endmacro %}

{#-
    The required long texts of every task (the task spec's required_texts, first seen first), each
    with the tasks that require it: a dict text -> list of tasks. The stacked staging flags each
    as blank (is_missing_<text>) in the rows of the tasks that require it.
-#}
{% macro ragmart_required_texts() -%}
    {%- set texts = {} -%}
    {%- for task in ragmart_tasks() -%}
        {%- for text in ragmart_task_spec(task).required_texts -%}
            {%- do texts.setdefault(text, []).append(task) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(texts) }}
{%- endmacro %}

{#- The columns of an export (ADR 0005) or of the annotators or records seed, with whether each must be non-empty. -#}
{% macro ragmart_export_columns(task) -%}
    {%- if task == 'annotators' -%}
        {{ return([
            {'name': 'annotator_id', 'required': true},
            {'name': 'annotator_kind', 'required': true},
            {'name': 'role', 'required': true},
            {'name': 'display_name', 'required': false},
        ]) }}
    {%- elif task == 'records' -%}
        {{ return([
            {'name': 'record_uuid', 'required': true},
            {'name': 'task_type', 'required': false},
            {'name': 'model_uncertainty', 'required': false},
            {'name': 'is_adversarial', 'required': false},
            {'name': 'tier', 'required': false},
            {'name': 'run_id', 'required': false},
            {'name': 'query_id', 'required': false},
        ]) }}
    {%- endif -%}
    {%- set spec = ragmart_task_spec(task) -%}
    {%- set columns = [
        {'name': 'record_uuid', 'required': true},
        {'name': 'annotator_id', 'required': true},
        {'name': 'task', 'required': true},
        {'name': 'language', 'required': false},
        {'name': 'created_at', 'required': true},
    ] -%}
    {%- for name in spec.required_texts -%}
        {%- do columns.append({'name': name, 'required': true}) -%}
    {%- endfor -%}
    {%- if task == 'retrieval' -%}
        {%- do columns.append({'name': 'chunk_id', 'required': true}) -%}
        {%- do columns.append({'name': 'chunk_rank', 'required': true}) -%}
    {%- endif -%}
    {%- for name in spec.optional_texts + spec.optional_booleans -%}
        {%- do columns.append({'name': name, 'required': false}) -%}
    {%- endfor -%}
    {%- for name in spec.labels -%}
        {%- do columns.append({'name': name, 'required': true}) -%}
    {%- endfor -%}
    {{ return(columns) }}
{%- endmacro %}

{#- The columns of an input in words, for the message of a missing column: required ...; optional ... -#}
{% macro ragmart_export_columns_text(task) -%}
    {%- set columns = ragmart_export_columns(task) -%}
    {{ return("The columns of the " ~ task ~ " input (docs/rules.md, Inputs): required "
        ~ (columns | selectattr('required') | map(attribute='name') | join(', ')) ~ "; optional "
        ~ (columns | rejectattr('required') | map(attribute='name') | join(', '))) }}
{%- endmacro %}

{#-
    The original-value columns of rejected_annotations: every column of the three exports and of
    the records seed (first seen first) except the keys the mart names on its own.
-#}
{% macro ragmart_rejected_original_columns() -%}
    {%- set columns = [] -%}
    {%- for task in ragmart_tasks() + ['records'] -%}
        {%- for column in ragmart_export_columns(task) -%}
            {%- if column.name not in ['record_uuid', 'annotator_id', 'created_at', 'chunk_id', 'task']
                and column.name not in columns -%}
                {%- do columns.append(column.name) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(columns) }}
{%- endmacro %}

{#- The inputs whose rows get a status: the three exports and the records seed. -#}
{% macro ragmart_status_inputs() -%}
    {{ return(ragmart_tasks() + ['records']) }}
{%- endmacro %}

{#- The seed an input is read from. -#}
{% macro ragmart_input_seed(task) -%}
    {{ return(task if task in ['records', 'annotators'] else ragmart_task_spec(task).seed) }}
{%- endmacro %}
