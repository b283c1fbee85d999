{#-
    What the build log says of the label values read (docs/rules.md, Daily exports): the most
    frequent invalid spellings behind an `invalid_boolean:<label>` code (the spellings beyond the
    boolean ones, with the value each got, are logged by assert_exports_have_rows).
-#}

{#- The labels of `task` whose values the exports spell (its binary labels, and can_answer for retrieval). -#}
{% macro ragmart_spelled_labels(task) -%}
    {{ return(ragmart_task_spec(task).labels + ragmart_task_spec(task).optional_booleans) }}
{%- endmacro %}

{#-
    The most frequent values behind each `invalid_boolean:<label>` and `invalid_language` code of the
    rejected rows (`rejected`: the rejected_annotations relation, which keeps every value as given;
    a language trimmed, as it is checked), at most three per code, as a dict `<task>:<code>` ->
    `'unrelated' 272, 'relevant' 229`, and under `invalid_language` the list of the rejected
    languages of every task, the most frequent first. Empty outside execution.
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
        {%- do selects.append(
            "select '" ~ task ~ ":invalid_language' as code, " ~ ragmart_clean_text('language') ~ " as spelling,"
            ~ " count(*) as n_rows from " ~ rejected ~ " where task = '" ~ task ~ "' and "
            ~ dbt.concat(["';'", 'reasons', "';'"]) ~ " like '%;invalid_language;%' group by "
            ~ ragmart_clean_text('language')) -%}
    {%- endfor -%}
    {%- set languages = {} -%}
    {%- for row in run_query(selects | join(' union all ') ~ ' order by 1, 3 desc, 2').rows -%}
        {%- set parts = found.get(row[0], []) -%}
        {%- if parts | length < 3 -%}
            {%- do found.update({row[0]: parts + ["'" ~ row[1] ~ "' " ~ ragmart_format_count(row[2])]}) -%}
        {%- endif -%}
        {%- if row[0].endswith(':invalid_language') -%}
            {%- do languages.update({row[1]: languages.get(row[1], 0) + row[2] | int}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set out = {} -%}
    {%- for code, parts in found.items() -%}
        {%- do out.update({code: parts | join(', ')}) -%}
    {%- endfor -%}
    {%- set ordered = [] -%}
    {%- for language, n in languages.items() -%}
        {%- do ordered.append([0 - n, language]) -%}
    {%- endfor -%}
    {%- for item in ordered | sort -%}
        {%- do out.update({'invalid_language': out.get('invalid_language', []) + [item[1]]}) -%}
    {%- endfor -%}
    {{ return(out) }}
{%- endmacro %}
