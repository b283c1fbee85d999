{#-
    Where the inputs come from (var input_mode): `seeds` (default) reads the project's seeds;
    `files` reads every file of the folder var input_path whose name starts with the input's
    prefix (retrieval*, grounding*, generation*, annotators*, records*) and ends in .csv or
    .parquet, appended, every column as text. The exports are required; a missing annotators or
    records input is empty.
-#}

{% macro ragmart_input_mode() -%}
    {%- set mode = var('input_mode', 'seeds') -%}
    {%- if mode not in ['seeds', 'files'] -%}
        {{ exceptions.raise_compiler_error("ragmart: var 'input_mode' must be 'seeds' or 'files', got '" ~ mode ~ "'") }}
    {%- endif -%}
    {{ return(mode) }}
{%- endmacro %}

{#- The file-name prefix of an input in files mode. -#}
{% macro ragmart_input_prefix(task) -%}
    {{ return(task) }}
{%- endmacro %}

{#- The folder of the input files (var input_path), without a trailing slash. -#}
{% macro ragmart_input_path() -%}
    {%- set path = var('input_path', none) -%}
    {%- if path is none or (path | string | trim) == '' -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: input_mode 'files' needs the var 'input_path', the folder of the exports, e.g. "
            ~ "--vars '{input_mode: files, input_path: /data/exports}'") }}
    {%- endif -%}
    {{ return((path | string).rstrip('/')) }}
{%- endmacro %}

{#- The files of one input with one extension (csv or parquet), sorted; empty before execution. -#}
{% macro ragmart_input_files(task, extension) -%}
    {%- set files = [] -%}
    {%- if execute -%}
        {%- set pattern = ragmart_input_path() ~ '/' ~ ragmart_input_prefix(task) ~ '*.' ~ extension -%}
        {%- set result = run_query("select file from glob('" ~ (pattern | replace("'", "''")) ~ "') order by file") -%}
        {%- for row in result.rows -%}
            {%- do files.append(row[0]) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(files) }}
{%- endmacro %}

{#-
    The query that reads one input in files mode: each CSV file with a header, quoted multi-line
    fields and "" escapes, every column as text; each Parquet file as it is (staging casts every
    column to text); all appended by column name, each row with its place in the input
    (`ragmart_file_position`, see ragmart_file_position_base). A missing optional input reads as an empty
    relation with the input's columns.
-#}
{% macro ragmart_file_scan(task) -%}
    {{ return(adapter.dispatch('ragmart_file_scan', 'ragmart')(task)) }}
{%- endmacro %}

{% macro default__ragmart_file_scan(task) -%}
    {{ exceptions.raise_compiler_error(
        "ragmart: input_mode 'files' reads files with DuckDB; on " ~ target.type
        ~ " load the exports into tables and use input_mode 'seeds' or point the seeds at them") }}
{%- endmacro %}

{% macro duckdb__ragmart_file_scan(task) -%}
    {%- set scans = [] -%}
    {%- set csv_options = ", header = true, all_varchar = true, quote = '\"', escape = '\"', delim = ','" -%}
    {%- for extension in ['csv', 'parquet'] -%}
        {%- for file in ragmart_input_files(task, extension) -%}
            {%- set reader = "read_csv('" ~ (file | replace("'", "''")) ~ "'" ~ csv_options ~ ")" if extension == 'csv'
                else "read_parquet('" ~ (file | replace("'", "''")) ~ "')" -%}
            {%- do scans.append(
                "select " ~ (scans | length + 1) ~ " * " ~ ragmart_file_position_base() ~ " + ordinality as ragmart_file_position"
                ~ ", * exclude (ordinality) from " ~ reader ~ " with ordinality") -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if scans -%}
        {{ return(scans | join(' union all by name ')) }}
    {%- elif not execute or task in ['annotators', 'records'] -%}
        {%- set columns = ['cast(null as ' ~ dbt.type_bigint() ~ ') as ragmart_file_position'] -%}
        {%- for column in ragmart_export_columns(task) -%}
            {%- do columns.append('cast(null as ' ~ dbt.type_string() ~ ') as ' ~ column.name) -%}
        {%- endfor -%}
        {{ return('select ' ~ (columns | join(', ')) ~ ' where 1 = 0') }}
    {%- else -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: no " ~ ragmart_input_prefix(task) ~ "*.csv or " ~ ragmart_input_prefix(task)
            ~ "*.parquet file in input_path '" ~ ragmart_input_path() ~ "'") }}
    {%- endif -%}
{%- endmacro %}

{#-
    Files mode numbers the rows by their place in the input: file k (1 for the first CSV file by
    name, then the next, then the Parquet files) and row n of that file (1 for the first row after
    the header) give k * ragmart_file_position_base() + n. DuckDB's `with ordinality` numbers
    the rows of a table function in the order it reads them.
-#}
{% macro ragmart_file_position_base() -%}
    {{ return(1000000000000) }}
{%- endmacro %}

{#-
    The rows of an input with their annotation_row_id, every column of the export as text
    (ragmart_export_select). Seeds mode numbers the rows by their content
    (ragmart_content_row_number), the same on every engine; files mode (DuckDB) by their place in
    the files (ragmart_file_position_base), which needs no sort. Read by staging, and by the
    quarantine for the original values of its rejected rows.
-#}
{% macro ragmart_input_rows(task) -%}
    {%- if ragmart_input_mode() == 'files' -%}
    select
        ragmart_file_position as annotation_row_id,
        {{ ragmart_export_select(task) }}
    from {{ ragmart_input_relation(task) }}
    {%- else -%}
    select
        {{ ragmart_content_row_number(task) }} as annotation_row_id,
        exported_columns.*
    from (
        select {{ ragmart_export_select(task) }}
        from {{ ragmart_input_relation(task) }}
    ) as exported_columns
    {%- endif -%}
{%- endmacro %}

{#- The relation (seeds mode) or aliased subquery (files mode) an input is read from. -#}
{% macro ragmart_input_relation(task) -%}
    {%- if ragmart_input_mode() == 'files' -%}
        {{ return('(' ~ ragmart_file_scan(task) ~ ') as ' ~ task ~ '_input_rows') }}
    {%- else -%}
        {{ return(ref(ragmart_input_seed(task))) }}
    {%- endif -%}
{%- endmacro %}

{#- The names (lower-cased) of the columns an input has; empty when it cannot be known yet. -#}
{% macro ragmart_input_columns(task) -%}
    {%- set names = [] -%}
    {%- if execute -%}
        {%- if ragmart_input_mode() == 'files' -%}
            {%- set result = run_query('describe ' ~ ragmart_file_scan(task)) -%}
            {%- for row in result.rows -%}
                {%- do names.append(row[0] | lower) -%}
            {%- endfor -%}
        {%- else -%}
            {%- for column in adapter.get_columns_in_relation(ref(ragmart_input_seed(task))) -%}
                {%- do names.append(column.name | lower) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(names) }}
{%- endmacro %}

{#-
    The body of base_annotation_exports__<task>: the export as read, narrowed to the row id, every
    column of the export as given except its long texts (ragmart_task_spec's required and optional
    texts), and a blank flag `is_missing_<text>` per required text.
-#}
{% macro ragmart_base_export(task) -%}
    {%- set spec = ragmart_task_spec(task) -%}
    {%- set long_texts = spec.required_texts + spec.optional_texts -%}
    {%- set columns = [] -%}
    {%- for column in ragmart_export_columns(task) if column.name not in long_texts -%}
        {%- do columns.append(column.name) -%}
    {%- endfor -%}
    {%- for text in spec.required_texts -%}
        {%- do columns.append(ragmart_is_blank(text) ~ ' as is_missing_' ~ text) -%}
    {%- endfor -%}
with

source as (

    {{ ragmart_input_rows(task) }}

),

narrowed as (

    select
        annotation_row_id,
        {{ columns | join(',\n        ') }}

    from source

)

select * from narrowed
{%- endmacro %}
