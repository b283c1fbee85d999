{#-
    Blank rows and exact copies (docs/rules.md, "Daily exports"), read by the base models of the
    three exports (base_annotation_exports__<task>), whatever the source system.
-#}

{#-
    True when a row of `task`'s export is blank: every column of the export (ADR 0005) empty or
    blank, and the row is not a record that failed to parse. Such a row (a spreadsheet's trailing
    `,,,,`) is skipped and counted, never rejected.
-#}
{% macro ragmart_is_blank_row(task) -%}
    (malformed_record is null
    {%- for column in ragmart_export_columns(task) %}
        and {{ ragmart_is_blank(column.name) }}
    {%- endfor %})
{%- endmacro %}

{#-
    What makes two rows of `task`'s export exact copies: every column of the export after trimming
    (an empty or blank value as null), and the raw text of a record that failed to parse. A
    comma-separated list for a `partition by`.
-#}
{% macro ragmart_row_content(task) -%}
    {%- for column in ragmart_export_columns(task) %}
        {{ ragmart_clean_text(column.name) }},
    {%- endfor %}
        malformed_record
{%- endmacro %}

{#-
    A text that exact copies of a row of `task`'s export share (their unit, annotator, created_at
    and the raw text of a record that failed to parse, trimmed; so do some rows that are not
    copies): a row whose key no other row has is no copy, and only the others are compared in
    every column (ragmart_row_content). Blank parts are left out, which can only make more keys
    shared.
-#}
{% macro ragmart_copy_key(task) -%}
    concat_ws(
        '|',
        {%- for column in ragmart_task_spec(task).unit_columns + ['annotator_id', 'created_at'] %}
        {{ ragmart_clean_text(column) }},
        {%- endfor %}
        malformed_record
    )
{%- endmacro %}
