{#-
    What the build log says of a Label Studio export (stg_label_studio__annotations calls it once
    the export is read): the skipped (cancelled) annotations and the tasks without annotations
    (JSON_MIN, CSV and TSV exports of all tasks) per file, which are not rows; a
    warning per JSON export that lists its predictions by id only (the UI's JSON export: the
    judges' results are not in it, the snapshot export has them); a warning naming the controls
    (JSON results) whose names map to no label, `can_answer` or `notes`; and one naming the
    columns of JSON_MIN, CSV and TSV exports (control or task data) that are no 0005 column.
    `export`: base_label_studio__export; `controls`: the column names a control can fill;
    `data_columns`: those the task data fills; `label_names`: the var label_names.
-#}
{% macro ragmart_label_studio_log(export, controls, data_columns, label_names) -%}
    {%- set skipped = run_query(
        "select source_file, count(*) from " ~ export ~ " where item_kind = 'cancelled' and field_source = 'item'"
        ~ " group by source_file order by source_file").rows -%}
    {%- for row in skipped -%}
        {%- do log("ragmart: " ~ row[0] ~ ": " ~ row[1] ~ " skipped (cancelled) annotation(s), not read", info=true) -%}
    {%- endfor -%}
    {%- set unannotated = run_query(
        "select source_file, count(*) from " ~ export ~ " where item_kind = 'unannotated'"
        ~ " group by source_file order by source_file").rows -%}
    {%- for row in unannotated -%}
        {%- do log("ragmart: " ~ row[0] ~ ": " ~ row[1] ~ " task(s) without annotations (an export of all tasks), not read",
                   info=true) -%}
    {%- endfor -%}
    {%- set by_id = run_query(
        "select source_file, count(*) from " ~ export ~ " where item_kind = 'prediction_without_result'"
        ~ " and field_source = 'item' group by source_file order by source_file").rows -%}
    {%- for row in by_id -%}
        {%- do exceptions.warn(
            "ragmart: " ~ row[0] ~ " lists its " ~ row[1] ~ " prediction(s) by id only (Label Studio's JSON export"
            ~ " from the UI), so the judges' labels are not in it and not read. Export the project with the snapshot"
            ~ " export instead (label_studio_sdk: projects.exports.create, then projects.exports.download as JSON),"
            ~ " which carries each prediction's result and model_version.") -%}
    {%- endfor -%}
    {%- set names = run_query(
        "select trim(field_name), count(*) from " ~ export ~ " where field_source = 'control'"
        ~ " group by trim(field_name) order by trim(field_name)").rows -%}
    {%- set mapped = {} -%}
    {%- for tool_name, label in label_names.items() -%}
        {%- do mapped.update({tool_name | lower | trim: label}) -%}
    {%- endfor -%}
    {%- set unread = [] -%}
    {%- for row in names if mapped.get(row[0] | lower, row[0] | lower) not in controls -%}
        {%- do unread.append(row[0] ~ " (" ~ row[1] ~ " results)") -%}
    {%- endfor -%}
    {%- if unread -%}
        {%- do exceptions.warn(
            "ragmart: Label Studio controls that map to no label are not read: " ~ (unread | join(', '))
            ~ ". Map a control's name to a label with the var label_names, e.g. {relevance: topically_relevant}.") -%}
    {%- endif -%}
    {%- set columns = run_query(
        "select trim(field_name), count(*) from " ~ export ~ " where field_source = 'column'"
        ~ " group by trim(field_name) order by trim(field_name)").rows -%}
    {%- set unread_columns = [] -%}
    {%- for row in columns if mapped.get(row[0] | lower, row[0] | lower) not in controls + data_columns -%}
        {%- do unread_columns.append(row[0] ~ " (" ~ row[1] ~ " rows)") -%}
    {%- endfor -%}
    {%- if unread_columns -%}
        {%- do exceptions.warn(
            "ragmart: columns of the Label Studio exports that are no 0005 column and map to no label are not read: "
            ~ (unread_columns | join(', ')) ~ ". If one is a control of a label, map it with the var label_names.") -%}
    {%- endif -%}
{%- endmacro %}

{#-
    The value of one 0005 column of a Label Studio item (the rows of base_label_studio__export
    grouped by item): the field from its precise source (`data`: the task data or a `_data_`
    column; `control`: a JSON result) when the item has it, even empty; else the CSV or JSON_MIN
    column of that name. `name_column`: the column holding the field's 0005 name for that source
    (data_name or control_name).
-#}
{% macro ragmart_label_studio_field(source, name_column, column) -%}
    case
            when count(case when field_source = '{{ source }}' and {{ name_column }} = '{{ column }}' then 1 end) > 0
                then max(case when field_source = '{{ source }}' and {{ name_column }} = '{{ column }}' then field_value end)
            else max(case when field_source = 'column' and {{ name_column }} = '{{ column }}' then field_value end)
        end
{%- endmacro %}
