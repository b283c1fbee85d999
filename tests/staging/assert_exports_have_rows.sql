{#-
    Fails when an export (retrieval, grounding, generation) holds no data row, unless the var
    allow_empty_exports lists it: a header-only file, a file of blank rows alone, or a tool's export
    without an annotation of the family would otherwise publish no metric of the family with exit 0
    (docs/rules.md, Daily exports). One result per empty export. In dbt build and dbt test it stops
    with a message naming the export and its files, and it says in the build log what was read:
    which files repeat rows of others (whole-history exports), how many blank rows were skipped,
    and every label spelling beyond the boolean ones with the value it got (an inverted
    label_values mapping shows there).
-#}
{%- set allowed = ragmart_setting('allow_empty_exports') %}
{%- set export_files = ref('stg_annotation_exports__files') %}
{%- set staged = ref('stg_annotation_exports__annotations') %}
{%- if ragmart_guards_active() and load_relation(export_files) is not none %}
    {#-
        The spellings read beyond the boolean ones that became a value (through the var
        label_values), one line per label: `unsupported_claim_present: hallucinated → 1 (111 rows),
        factual → 0 (95 rows)`, over the distinct rows of the staged exports (where a label is null
        outside its task), for the labels that label_values gives extra spellings (no query when it
        gives none).
    #}
    {%- set selects = [] %}
    {%- for task in ragmart_tasks() %}
        {#- a label without extra spellings reads none: only the boolean spellings give it a value #}
        {%- for label in ragmart_spelled_labels(task) if ragmart_setting('label_values')[label or ''] -%}
            {%- do selects.append(
                "select '" ~ label ~ "' as label_name, lower(" ~ ragmart_trim(label ~ '_raw') ~ ") as spelling, "
                ~ label ~ " as label_value, count(*) as n_rows from " ~ staged
                ~ " where " ~ label ~ " is not null and lower(" ~ ragmart_trim(label ~ '_raw') ~ ") not in ('"
                ~ (['true', 't', '1', 'yes', 'y', 'false', 'f', '0', 'no', 'n'] | reject('in', ragmart_setting('label_values')[label])
                   | join("', '")) ~ "') group by lower(" ~ ragmart_trim(label ~ '_raw') ~ "), " ~ label) -%}
        {%- endfor -%}
    {%- endfor %}
    {%- if selects %}
        {%- set by_label = {} %}
        {%- for row in run_query(selects | join(' union all ') ~ ' order by 1, 4 desc, 2').rows %}
            {%- do by_label.update({row[0]: by_label.get(row[0], []) + [row[1] ~ ' → ' ~ row[2] ~ ' ('
                ~ ragmart_format_count(row[3]) ~ ' rows)']}) %}
        {%- endfor %}
        {%- for label, parts in by_label.items() %}
            {%- do log("ragmart: label values read beyond the boolean spellings (var label_values): "
                ~ label ~ ': ' ~ (parts | join(', ')), info=true) %}
        {%- endfor %}
    {%- endif %}
    {%- set files = run_query(
        "select task, source_file, n_rows_read, n_blank, n_repeated, n_repeating_other_files from "
        ~ export_files ~ " order by task, source_file").rows %}
    {%- set distinct_rows = {} %}
    {%- set file_names = {} %}
    {%- for row in files %}
        {%- set n_read, n_blank, n_repeated, n_other = row[2] | int, row[3] | int, row[4] | int, row[5] | int %}
        {%- do distinct_rows.update({row[0]: distinct_rows.get(row[0], 0) + n_read - n_blank - n_repeated}) %}
        {%- do file_names.update({row[0]: file_names.get(row[0], []) + [row[1]]}) %}
        {%- if n_repeated > 0 %}
            {%- set where = 'later files' if n_other == n_repeated else (
                'rows earlier in the file' if n_other == 0 else 'later files (' ~ ragmart_format_count(n_other)
                ~ ') or rows earlier in the file (' ~ ragmart_format_count(n_repeated - n_other) ~ ')') %}
            {%- do log("ragmart: " ~ row[1] ~ ": " ~ ragmart_format_count(n_repeated) ~ " of " ~ ragmart_format_count(n_read)
                ~ " rows repeat " ~ where ~ " (exact copies count once; export_row_counts.n_repeated)", info=true) %}
        {%- endif %}
        {%- if n_blank > 0 %}
            {%- do log("ragmart: " ~ row[1] ~ ": " ~ ragmart_format_count(n_blank) ~ " blank row(s) skipped"
                ~ " (export_row_counts.n_blank)", info=true) %}
        {%- endif %}
    {%- endfor %}
    {%- set empty = [] %}
    {%- for task in ragmart_tasks() if distinct_rows.get(task, 0) == 0 and task not in allowed %}
        {%- if file_names.get(task) %}
            {%- set source = file_names[task] | join(', ') %}
        {%- elif ragmart_input_mode() == 'seeds' %}
            {%- set source = ragmart_input_seed(task) ~ '.csv' %}
        {%- else %}
            {%- set source = 'no ' ~ task ~ ' row in the ' ~ ragmart_family_format(task) ~ ' export' %}
        {%- endif %}
        {%- do empty.append(task ~ ' (' ~ source ~ ')') %}
    {%- endfor %}
    {%- if empty %}
        {{ exceptions.raise_compiler_error(
            "ragmart: an export holds no data row: " ~ (empty | join('; ')) ~ ".\n"
            ~ "  A build without it would publish no metric of that family and replace the published"
            ~ " database. Export again, or list the family in the var allow_empty_exports to publish"
            ~ " without it, e.g. --vars '{allow_empty_exports: [" ~ empty[0].split(' ')[0] ~ "]}'.") }}
    {%- endif %}
{%- endif %}

with

export_files as (

    select * from {{ export_files }}

),

exports as (
    {%- for task in ragmart_tasks() %}

    select '{{ task }}' as task
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

distinct_rows as (

    select
        task,
        sum(n_rows_read - n_blank - n_repeated) as n_rows

    from export_files
    group by task

),

final as (

    select
        exports.task,
        coalesce(distinct_rows.n_rows, 0) as n_rows

    from exports
    left join distinct_rows
        on exports.task = distinct_rows.task
    where
        coalesce(distinct_rows.n_rows, 0) = 0
        and exports.task not in ('{{ allowed | join("', '") }}')

)

select * from final
