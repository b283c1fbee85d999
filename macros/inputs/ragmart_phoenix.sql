{#-
    What the build log says of a Phoenix export (called by stg_phoenix__labels): a warning naming
    the annotation names that map to no label (by their own name or through the var label_names)
    nor to `can_answer`, with their counts; such annotations are not read.
    `export`: base_phoenix__export; `label_names`: the var label_names.
-#}
{% macro ragmart_phoenix_log(export, label_names) -%}
    {%- set names = run_query(
        "select trim(name), count(*) from " ~ export ~ " where row_kind = 'annotation' and trim(name) <> ''"
        ~ " group by trim(name) order by trim(name)").rows %}
    {%- set known = ragmart_labels() + ['can_answer'] %}
    {%- set unread = [] %}
    {%- for row in names if label_names.get(row[0], row[0]) not in known %}
        {%- do unread.append(row[0] ~ " (" ~ row[1] ~ " annotations)") %}
    {%- endfor %}
    {%- if unread %}
        {%- do exceptions.warn(
            "ragmart: Phoenix annotation names that map to no label are not read: " ~ (unread | join(', '))
            ~ ". Map a name to a label with the var label_names, e.g. {relevance: topically_relevant}.") %}
    {%- endif %}
{%- endmacro %}
