{#-
    Where the inputs come from (var input_mode): `seeds` (default) reads the project's seeds;
    `files` reads the folder var input_path through the model base_native__export_files (every
    retrieval*, grounding*, generation*, annotators*, records* .csv or .parquet file, every value
    as text). The exports are required; a missing annotators or records input is empty. Each model
    that reads an input names both of its possible parents in its own file,
    `ref('base_native__export_files')` in files mode and the seed's ref otherwise, and hands the one it
    took (`input`) to the macros below.
-#}

{% macro ragmart_input_mode() -%}
    {%- set mode = ragmart_setting('input_mode') -%}
    {%- if mode == 'files' and target.type != 'duckdb' -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: input_mode 'files' reads files with DuckDB; on " ~ target.type
            ~ " load the exports into tables and use input_mode 'seeds' or point the seeds at them") }}
    {%- endif -%}
    {{ return(mode) }}
{%- endmacro %}

{#-
    The source system whose own export each family is read from (var input_format): `native` (the
    0005 files, seeds or files mode), `phoenix`, `label_studio`, `langfuse` or `mlflow` (files mode), one for
    every family, or a mapping per family such as {retrieval: label_studio, grounding: langfuse}
    (a family it leaves out is native). Each format has a folder of its own under models/staging;
    a model of a format is enabled for the families mapped to it (the `enabled` configs of the
    folders' YAML spell the same rule with var() alone, as YAML cannot call a macro).
    Returns {family: format} for every family (retrieval read from Langfuse stops the build:
    Langfuse cannot hold retrieval labels).
-#}
{% macro ragmart_input_formats() -%}
    {%- set known = ['native', 'phoenix', 'label_studio', 'langfuse', 'mlflow'] -%}
    {%- set setting = var('input_format', 'native') -%}
    {%- set formats = {} -%}
    {%- if setting is mapping -%}
        {%- for family in setting if family not in ragmart_tasks() -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: var 'input_format' maps the family '" ~ family ~ "', which is not one of "
                ~ (ragmart_tasks() | join(', '))) }}
        {%- endfor -%}
        {%- for family in ragmart_tasks() -%}
            {%- do formats.update({family: setting.get(family, 'native') or 'native'}) -%}
        {%- endfor -%}
    {%- else -%}
        {%- for family in ragmart_tasks() -%}
            {%- do formats.update({family: setting}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for family, input_format in formats.items() -%}
        {%- if input_format not in known -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: var 'input_format' must be 'native', 'phoenix', 'label_studio', 'langfuse' or 'mlflow', or a"
                ~ " mapping of families to them, got '" ~ input_format ~ "'"
                ~ (" for " ~ family if setting is mapping else "")) }}
        {%- endif -%}
        {%- if family == 'retrieval' and input_format == 'langfuse' -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: Langfuse cannot hold retrieval labels (its scores attach to traces, observations and"
                ~ " sessions, never to one retrieved document): read retrieval in another format, e.g."
                ~ " --vars '{input_format: {retrieval: label_studio, grounding: langfuse, generation: langfuse}}'") }}
        {%- endif -%}
        {%- if input_format != 'native' and ragmart_input_mode() != 'files' -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: input_format '" ~ input_format ~ "' reads a folder of the tool's export: use"
                ~ " make build-files INPUT=folder (input_mode 'files' with input_path)") }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(formats) }}
{%- endmacro %}

{#- The format the family `task` is read in (ragmart_input_formats). -#}
{% macro ragmart_family_format(task) -%}
    {{ return(ragmart_input_formats()[task]) }}
{%- endmacro %}

{#- The families the var input_format reads in `input_format` (ragmart_input_formats), in task order. -#}
{% macro ragmart_families_in_format(input_format) -%}
    {%- set families = [] -%}
    {%- for family, family_format in ragmart_input_formats().items() if family_format == input_format -%}
        {%- do families.append(family) -%}
    {%- endfor -%}
    {{ return(families) }}
{%- endmacro %}

{#-
    The rows of an input with their annotation_row_id, where they came from (source_file,
    source_row, malformed_record) and every column of the export as text (ragmart_export_select).
    Both modes number a row by where it stands, its input, file name and row
    (ragmart_row_id), the same on every engine and in every build: a file added to the folder
    changes no other file's numbers. Read by staging, and by the quarantine for the original values
    of its rejected rows. `input`: the model's ref of base_native__export_files (files mode) or of
    the task's seed.
-#}
{% macro ragmart_input_rows(task, input) -%}
    {%- if ragmart_input_mode() == 'files' -%}
    select
        {{ ragmart_row_id(["'" ~ task ~ "'", 'ragmart_source_file', 'ragmart_source_row']) }} as annotation_row_id,
        ragmart_source_file as source_file,
        ragmart_source_row as source_row,
        ragmart_malformed_record as malformed_record,
        {{ ragmart_export_select(task, input) }}
    from {{ ragmart_input_relation(task, input) }}
    {%- else -%}
    select
        {{ ragmart_row_id(["'" ~ task ~ "'", "'" ~ ragmart_input_seed(task) ~ ".csv'", 'source_row']) }} as annotation_row_id,
        '{{ ragmart_input_seed(task) }}.csv' as source_file,
        exported_columns.*
    from (
        select
            {{ ragmart_seed_row_number() }} as source_row,
            cast(null as {{ dbt.type_string() }}) as malformed_record,
            {{ ragmart_export_select(task, input) }}
        from {{ ragmart_input_relation(task, input) }}
    ) as exported_columns
    {%- endif -%}
{%- endmacro %}

{#-
    Stops the run when a model hands the input macros no relation for `task`, or at run time
    another relation than base_native__export_files (files mode) or the input's own seed (seeds mode).
-#}
{% macro ragmart_check_input(task, input) -%}
    {%- set expected = 'base_native__export_files' if ragmart_input_mode() == 'files' else ragmart_input_seed(task) -%}
    {%- if input is undefined or input is none -%}
        {{ exceptions.raise_compiler_error("ragmart: no relation given for the " ~ task ~ " input; expected ref('" ~ expected ~ "')") }}
    {%- endif -%}
    {%- if execute and input.identifier != expected -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: the " ~ task ~ " input is read from " ~ input ~ "; expected ref('" ~ expected ~ "') in "
            ~ ragmart_input_mode() ~ " mode") }}
    {%- endif -%}
{%- endmacro %}

{#-
    What an input is read from: in files mode the task's rows of `input` (base_native__export_files) as an
    aliased subquery, in seeds mode `input` (the seed) itself (ragmart_check_input first).
-#}
{% macro ragmart_input_relation(task, input) -%}
    {%- do ragmart_check_input(task, input) -%}
    {%- if ragmart_input_mode() == 'files' -%}
        {{ return('(select * from ' ~ input ~ " where ragmart_input = '" ~ task ~ "') as " ~ task ~ '_input_rows') }}
    {%- else -%}
        {{ return(input) }}
    {%- endif -%}
{%- endmacro %}

{#-
    The names (lower-cased) of the columns an input has (empty in files mode when the input has
    no file); none when they cannot be known yet (before execution, or before the files are read). In
    files mode, each file of the input must have every required column of the export: a file
    that lacks one stops the run with a message that names the file and the column; and an
    annotators file with a record that does not parse stops it too (its rows have no status of
    their own, so a lost annotator row would silently make a judge count as a human).
-#}
{% macro ragmart_input_columns(task, input) -%}
    {%- do ragmart_check_input(task, input) -%}
    {%- set names = [] -%}
    {%- if execute -%}
        {%- if ragmart_input_mode() == 'files' -%}
            {%- if load_relation(input) is none -%}
                {{ return(none) }}
            {%- endif -%}
            {%- set required = ragmart_export_columns(task) | selectattr('required') | map(attribute='name') | list -%}
            {%- set result = run_query(
                "select ragmart_source_file, ragmart_file_columns, count(ragmart_malformed_record)"
                ~ " from " ~ input ~ " where ragmart_input = '" ~ task ~ "'"
                ~ " group by ragmart_source_file, ragmart_file_columns order by ragmart_source_file") -%}
            {%- for row in result.rows -%}
                {%- set file_columns = row[1].split(',') -%}
                {%- set missing = [] -%}
                {%- for name in required if name not in file_columns -%}
                    {%- do missing.append(name) -%}
                {%- endfor -%}
                {%- if missing -%}
                    {{ exceptions.raise_compiler_error(
                        "ragmart: the " ~ task ~ " file " ~ row[0] ~ " lacks the required column(s) "
                        ~ (missing | join(', ')) ~ " (its columns: " ~ row[1] ~ "). " ~ ragmart_export_columns_text(task)) }}
                {%- endif -%}
                {%- if task == 'annotators' and row[2] > 0 -%}
                    {{ exceptions.raise_compiler_error(
                        "ragmart: the annotators file " ~ row[0] ~ " has " ~ row[2] ~ " record(s) that do not parse"
                        ~ " (see base_native__export_files.ragmart_malformed_record); fix the file: a lost annotator row would"
                        ~ " make that annotator count as a HUMAN annotator") }}
                {%- endif -%}
                {%- for name in file_columns if name not in names -%}
                    {%- do names.append(name) -%}
                {%- endfor -%}
            {%- endfor -%}
        {%- else -%}
            {%- for column in adapter.get_columns_in_relation(input) -%}
                {%- do names.append(column.name | lower) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(names) }}
{%- endmacro %}

{#-
    The 1-based row of a seed table's row in its file (dispatched): on DuckDB the order of the
    table's rowids, the insertion order of dbt-duckdb's COPY of the seed file; on PostgreSQL and Spark the column
    ragmart_source_row that the project's seed loader writes (ragmart_seed_source_rows.sql).
-#}
{% macro ragmart_seed_row_number() -%}
    {{ return(adapter.dispatch('ragmart_seed_row_number', 'ragmart')()) }}
{%- endmacro %}

{% macro default__ragmart_seed_row_number() -%}
    ragmart_source_row
{%- endmacro %}

{#-
    DuckDB: the order of the rowids, which is the insertion order of dbt-duckdb's COPY of the seed
    file (the rowids themselves go on counting when dbt seed reloads an existing table).
-#}
{% macro duckdb__ragmart_seed_row_number() -%}
    row_number() over (order by rowid)
{%- endmacro %}

{#-
    A tool's name of a label (`expression`, trimmed, empty as null) as the ragmart label the var
    label_names maps it to, else as it is (Phoenix's annotation names, Langfuse's score names,
    MLflow's feedback names).
-#}
{% macro ragmart_label_name(expression) -%}
    {%- set label_names = ragmart_setting('label_names') -%}
    {%- if label_names -%}
    case {{ ragmart_clean_text(expression) }}
        {%- for tool_name, label in label_names.items() %}
        when '{{ tool_name | replace("'", "''") }}' then '{{ label }}'
        {%- endfor %}
        else {{ ragmart_clean_text(expression) }}
    end
    {%- else -%}
    {{ ragmart_clean_text(expression) }}
    {%- endif -%}
{%- endmacro %}

{#-
    The post-hook of the incremental readers (Python models, DuckDB only): dbt-duckdb writes the rows a
    Python model returns at an incremental build to a table `<model>__dbt_tmp<time>` in the database's
    default schema, merges it, and leaves it there. Drop it, so that no copy of the day's rows stays in
    the published database (beside the marts) or piles up build after build.
-#}
{% macro ragmart_drop_reader_temp_tables() -%}
    {%- if execute -%}
        {%- set prefix = this.identifier ~ '__dbt_tmp' -%}
        {%- set found = run_query(
            "select table_schema, table_name from information_schema.tables where table_catalog = '"
            ~ this.database ~ "' and substr(table_name, 1, " ~ (prefix | length) ~ ") = '" ~ prefix ~ "'") -%}
        {%- for row in found.rows -%}
            {%- do run_query('drop table if exists "' ~ row[0] ~ '"."' ~ row[1] ~ '"') -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro %}
