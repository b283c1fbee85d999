{#-
    The build guards' messages: rejected rows per task and reason code, read at run time from
    int_annotations__row_status, and the text that assert_no_annotation_rows_rejected and
    assert_rejected_share_within_limit print from them.
-#}

{#- True while dbt runs the data tests (build, test, retry), so a guard neither queries nor raises in compile, docs generate or a lint. -#}
{% macro ragmart_guards_active() -%}
    {{ return(execute and flags.WHICH in ['build', 'test', 'retry']) }}
{%- endmacro %}

{#- A guard's message: the build fails with it when `is_error`, else dbt prints it as a warning. -#}
{% macro ragmart_raise_or_warn(message, is_error) -%}
    {%- if is_error -%}
        {{ exceptions.raise_compiler_error(message) }}
    {%- else -%}
        {% do exceptions.warn(message) %}
    {%- endif -%}
{%- endmacro %}

{#- A whole number with thousands separators: 1116 -> 1,116. -#}
{% macro ragmart_format_count(n) -%}
    {{ return('{:,}'.format(n | int)) }}
{%- endmacro %}

{#-
    One dict per task of `tasks` that has rows: task, n_rows, n_rejected and codes, a list of
    [reason code, rejected rows] (a row with two codes counts under each), the most frequent
    first. Empty before the relation exists or outside execution.
-#}
{% macro ragmart_rejection_counts(row_status, tasks) -%}
    {%- set counts = [] -%}
    {%- if not execute or load_relation(row_status) is none -%}
        {{ return(counts) }}
    {%- endif -%}
    {%- set query -%}
        select
            task,
            is_rejected,
            reasons,
            count(*) as n_rows
        from (
            select
                task,
                case when annotation_status = 'rejected' then 1 else 0 end as is_rejected,
                case when annotation_status = 'rejected' then reasons end as reasons
            from {{ row_status }}
        ) as statuses
        group by task, is_rejected, reasons
    {%- endset -%}
    {%- set groups = run_query(query).rows -%}
    {%- for task in tasks -%}
        {%- set totals = {'n_rows': 0, 'n_rejected': 0} -%}
        {%- set by_code = {} -%}
        {%- for group in groups if group[0] == task -%}
            {%- set n = group[3] | int -%}
            {%- do totals.update({'n_rows': totals.n_rows + n}) -%}
            {%- if group[1] | int == 1 -%}
                {%- do totals.update({'n_rejected': totals.n_rejected + n}) -%}
                {%- set codes = (group[2] or '').split(';') | map('trim') | reject('equalto', '') | list -%}
                {%- for code in (codes or ['(no reason code)']) -%}
                    {%- do by_code.update({code: by_code.get(code, 0) + n}) -%}
                {%- endfor -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if totals.n_rows > 0 -%}
            {%- set ordered = [] -%}
            {%- for code, n in by_code.items() -%}
                {%- do ordered.append([0 - n, code]) -%}
            {%- endfor -%}
            {%- set code_counts = [] -%}
            {%- for item in ordered | sort -%}
                {%- do code_counts.append([item[1], 0 - item[0]]) -%}
            {%- endfor -%}
            {%- do counts.append({
                'task': task,
                'n_rows': totals.n_rows,
                'n_rejected': totals.n_rejected,
                'codes': code_counts,
            }) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(counts) }}
{%- endmacro %}

{#-
    The summary text, one indented line per task, e.g.
      retrieval: 26 of 1,116 rows rejected (2.3 %): invalid_rank 5, rank_conflict 4, ...
    With max_share, a task whose rejected rows exceed that share of its rows is marked
    `(12.5 %, over the limit of 10.0 %)`. With spellings (ragmart_invalid_spellings), an
    `invalid_boolean:<label>` code names its most frequent values: `invalid_boolean:topically_relevant
    501 ('unrelated' 272, 'relevant' 229)`, and an `invalid_language` code its languages, followed by
    a line that names the var accepted_languages and how to list the languages seen (at most three).
-#}
{% macro ragmart_rejection_summary(counts, max_share=none, spellings={}) -%}
    {%- set lines = [] -%}
    {%- for count in counts -%}
        {%- set share = count.n_rejected / count.n_rows -%}
        {%- set line = '  ' ~ count.task ~ ': ' ~ ragmart_format_count(count.n_rejected) ~ ' of '
            ~ ragmart_format_count(count.n_rows) ~ ' rows rejected (' ~ '%.1f' | format(100 * share) ~ ' %' -%}
        {%- if max_share is not none and count.n_rejected > max_share * count.n_rows -%}
            {%- set line = line ~ ', over the limit of ' ~ '%.1f' | format(100 * max_share) ~ ' %' -%}
        {%- endif -%}
        {%- set line = line ~ ')' -%}
        {%- if count.codes -%}
            {%- set parts = [] -%}
            {%- for code_count in count.codes -%}
                {%- set values = spellings.get(count.task ~ ':' ~ code_count[0]) -%}
                {%- do parts.append(code_count[0] ~ ' ' ~ ragmart_format_count(code_count[1])
                    ~ (' (' ~ values ~ ')' if values else '')) -%}
            {%- endfor -%}
            {%- set line = line ~ ': ' ~ (parts | join(', ')) -%}
        {%- endif -%}
        {%- do lines.append(line) -%}
    {%- endfor -%}
    {%- set seen = spellings.get('invalid_language', []) -%}
    {%- if seen -%}
        {%- set accepted = ragmart_setting('accepted_languages') -%}
        {%- do lines.append("  invalid_language: the row's language is not one of the var accepted_languages ["
            ~ (accepted | join(', ')) ~ "]; to accept the languages seen, list them there, e.g. --vars '"
            ~ '{accepted_languages: [' ~ ((accepted + seen[:3]) | unique | join(', ')) ~ "]}'") -%}
    {%- endif -%}
    {{ return(lines | join('\n')) }}
{%- endmacro %}
