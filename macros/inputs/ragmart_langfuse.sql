{#-
    What the build log says of a Langfuse export (stg_langfuse__scores calls it once the export is
    read), and the stop it makes:
    - a warning naming the data files that no manifest lists (their run did not complete: Langfuse
      writes a run's manifest after all its files; they are not read), and one when the project
      folder has no manifest at all (every data file is read);
    - a stop when two score names map to one label (by their own name or through the var
      label_names), naming both: the build could not tell which score is the label;
    - a warning naming the score names that map to no label of a family read from Langfuse (nor to
      `notes`), with their scores, and the count of session scores (no trace), which are no rows.
    `export`: base_langfuse__export; `label_names`: the var label_names; `families`: the families
    read from Langfuse.
-#}
{% macro ragmart_langfuse_log(export, label_names, families) -%}
    {%- set labels = [] -%}
    {%- for family in families -%}
        {%- do labels.extend(ragmart_task_spec(family).labels) -%}
    {%- endfor -%}
    {%- set unlisted = run_query(
        "select source_file from " ~ export ~ " where row_kind = 'file' and not is_listed order by source_file").rows -%}
    {%- if unlisted -%}
        {%- do exceptions.warn(
            "ragmart: Langfuse data files that no manifest lists are not read (their export run did not complete;"
            ~ " Langfuse writes a run's manifest after its files): " ~ (unlisted | map(attribute=0) | join(', '))) -%}
    {%- endif -%}
    {%- set files = run_query(
        "select count(*), count(case when has_manifest then 1 end) from " ~ export ~ " where row_kind = 'file'").rows[0] -%}
    {%- if files[0] > 0 and files[1] == 0 -%}
        {%- do exceptions.warn(
            "ragmart: the Langfuse export has no manifests/ folder: every data file is read (" ~ files[0] ~ " files)."
            ~ " A file of a run that did not complete cannot be told apart; copy the manifests with the data.") -%}
    {%- endif -%}
    {%- set names = run_query(
        "select trim(name), count(distinct id) from " ~ export ~ " where row_kind = 'score' and trim(name) <> ''"
        ~ " and trace_id is not null group by trim(name) order by trim(name)").rows -%}
    {%- set by_label = {} -%}
    {%- set ignored = [] -%}
    {%- for row in names -%}
        {%- set label = label_names.get(row[0], row[0]) -%}
        {%- if label in labels -%}
            {%- do by_label.update({label: by_label.get(label, []) + [row[0]]}) -%}
        {%- elif label != 'notes' -%}
            {%- do ignored.append(row[0] ~ " (" ~ row[1] ~ " scores)") -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for label, score_names in by_label.items() if score_names | length > 1 -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: the Langfuse score names " ~ (score_names | join(' and ')) ~ " both map to the label " ~ label
            ~ " (by their own name or the var label_names): the build cannot tell which score is the label."
            ~ " Map only one of them to it in label_names.") }}
    {%- endfor -%}
    {%- if ignored -%}
        {%- do exceptions.warn(
            "ragmart: Langfuse score names that map to no label are not read: " ~ (ignored | join(', '))
            ~ ". Map a name to a label with the var label_names, e.g. {faithfulness: support_present}.") -%}
    {%- endif -%}
    {%- set sessions = run_query(
        "select count(distinct id) from " ~ export ~ " where row_kind = 'score' and trace_id is null").rows[0][0] -%}
    {%- if sessions > 0 -%}
        {%- do log("ragmart: " ~ sessions ~ " Langfuse session score(s) without a trace are not rows (a record is a trace)",
                   info=true) -%}
    {%- endif -%}
{%- endmacro %}
