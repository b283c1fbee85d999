{#-
    What the build log says of the label values read (docs/rules.md, Daily exports): the spellings
    beyond the boolean ones with the value each got, so that an inverted label_values mapping is
    visible, and the most frequent invalid spellings behind an `invalid_boolean:<label>` code.
-#}

{#- The boolean spellings (trimmed, lower-cased) as a quoted SQL list. -#}
{% macro ragmart_plain_boolean_spellings() -%}
    ('true', 't', '1', 'yes', 'y', 'false', 'f', '0', 'no', 'n')
{%- endmacro %}

{#- The labels of `task` whose values the exports spell (its binary labels, and can_answer for retrieval). -#}
{% macro ragmart_spelled_labels(task) -%}
    {{ return(ragmart_task_spec(task).labels + ragmart_task_spec(task).optional_booleans) }}
{%- endmacro %}

{#-
    The spellings read beyond the boolean ones that became a value (through the var label_values),
    one line per label: `unsupported_claim_present: hallucinated → 1 (111 rows), factual → 0 (95
    rows)`, over the distinct rows of the staged exports (`staged`: the relation
    stg_annotation_exports__annotations, where a label is null outside its task), for the labels
    that label_values gives extra spellings (no query when it gives none). Empty outside execution.
-#}
{% macro ragmart_mapped_spellings(staged) -%}
    {%- set lines = [] -%}
    {%- if not execute -%}
        {{ return(lines) }}
    {%- endif -%}
    {%- set selects = [] -%}
    {%- for task in ragmart_tasks() -%}
        {#- a label without extra spellings reads none: only the boolean spellings give it a value -#}
        {%- for label in ragmart_spelled_labels(task) if ragmart_setting('label_values')[label or ''] -%}
            {%- do selects.append(
                "select '" ~ label ~ "' as label_name, lower(" ~ ragmart_trim(label ~ '_raw') ~ ") as spelling, "
                ~ label ~ " as label_value, count(*) as n_rows from " ~ staged
                ~ " where " ~ label ~ " is not null and lower(" ~ ragmart_trim(label ~ '_raw') ~ ") not in "
                ~ ragmart_plain_boolean_spellings() ~ " group by lower(" ~ ragmart_trim(label ~ '_raw') ~ "), " ~ label) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if not selects -%}
        {{ return(lines) }}
    {%- endif -%}
    {%- set by_label = {} -%}
    {%- for row in run_query(selects | join(' union all ') ~ ' order by 1, 4 desc, 2').rows -%}
        {%- do by_label.update({row[0]: by_label.get(row[0], []) + [row[1] ~ ' → ' ~ row[2] ~ ' ('
            ~ ragmart_format_count(row[3]) ~ ' rows)']}) -%}
    {%- endfor -%}
    {%- for label, parts in by_label.items() -%}
        {%- do lines.append(label ~ ': ' ~ (parts | join(', '))) -%}
    {%- endfor -%}
    {{ return(lines) }}
{%- endmacro %}

{#-
    The most frequent values behind each `invalid_boolean:<label>` code of the rejected rows
    (`rejected`: the rejected_annotations relation, which keeps every value as given), at most three
    per code, as a dict `<task>:<code>` -> `'unrelated' 272, 'relevant' 229`. Empty outside execution.
-#}
{% macro ragmart_invalid_spellings(rejected) -%}
    {%- set found = {} -%}
    {%- if not execute or load_relation(rejected) is none -%}
        {{ return(found) }}
    {%- endif -%}
    {%- set selects = [] -%}
    {%- for task in ragmart_tasks() -%}
        {%- for label in ragmart_spelled_labels(task) -%}
            {%- do selects.append(
                "select '" ~ task ~ ":invalid_boolean:" ~ label ~ "' as code, " ~ label ~ " as spelling, count(*) as n_rows"
                ~ " from " ~ rejected ~ " where task = '" ~ task ~ "' and " ~ dbt.concat(["';'", 'reasons', "';'"])
                ~ " like '%;invalid_boolean:" ~ label ~ ";%' group by " ~ label) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- for row in run_query(selects | join(' union all ') ~ ' order by 1, 3 desc, 2').rows -%}
        {%- set parts = found.get(row[0], []) -%}
        {%- if parts | length < 3 -%}
            {%- do found.update({row[0]: parts + ["'" ~ row[1] ~ "' " ~ ragmart_format_count(row[2])]}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set out = {} -%}
    {%- for code, parts in found.items() -%}
        {%- do out.update({code: parts | join(', ')}) -%}
    {%- endfor -%}
    {{ return(out) }}
{%- endmacro %}
