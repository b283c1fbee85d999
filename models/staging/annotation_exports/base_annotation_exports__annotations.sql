{#
    The three exports as read, stacked and narrowed: the family, the row id, where the row came
    from, the short columns as given (text) and a blank flag per required long text; see the
    model's docs for why this is a table of its own. The rows are the exports' of
    base_annotation_exports__input_rows (each family in the format the var input_format names); a
    column of another family's export is null. The rows of the records input are here too (family
    `records`, every export column null), for their exact copies alone: staging reads the exports'
    rows (stg_annotation_exports__annotations) and the records' own (stg_annotation_exports__records)
    without the copies found here.
-#}
{%- set columns = [] %}
{%- set export_columns = [] %}
{%- set unit_columns = [] %}
{%- for input_name in ragmart_status_inputs() %}
{%- for column in ragmart_export_columns(input_name) if column.name not in columns %}
{%- do columns.append(column.name) %}
{%- endfor %}
{%- endfor %}
{%- for family in ragmart_tasks() %}
{%- for column in ragmart_export_columns(family) if column.name not in export_columns %}
{%- do export_columns.append(column.name) %}
{%- endfor %}
{%- for column in ragmart_task_spec(family).unit_columns if column not in unit_columns %}
{%- do unit_columns.append(column) %}
{%- endfor %}
{%- endfor %}

with

input_rows as (

    select * from {{ ref('base_annotation_exports__input_rows') }}

),

{#
    Blank rows and exact copies (docs/rules.md, Daily exports) are found per input: rows equal in
    every column of the input after trimming are one row, read where it stands in the file that
    sorts last by name (its first place there); the others are repeats. Both are counted, never
    rejected; blank rows are the exports' alone (a blank records row is a row without record_uuid).
    Copies share their copy key (the row's unit, annotator and created_at, trimmed, blank parts
    left out, and the raw text of a record that failed to parse; another family's unit column is
    null and so left out; a records row's unit is its record_uuid), so only the rows whose key
    another row shares are compared column by column, read again from the input rows; the narrow
    rows carry no long text.
#}
keyed as (

    select
        *,
        concat_ws(
            '|',
            {%- for column in unit_columns + ['annotator_id', 'created_at'] %}
            {{ ragmart_clean_text(column) }},
            {%- endfor %}
            malformed_record
        ) as copy_key

    from input_rows

),

narrow_rows as (

    select
        input_name as family,
        annotation_row_id,
        source_file,
        source_row,
        copy_key,
        {# A blank row's key is empty: only the exports' rows with an empty key are checked column by column. #}
        case
            when copy_key = '' and input_name <> 'records'
                then (
                    malformed_record is null
                    {%- for column in export_columns %}
                    and {{ ragmart_is_blank(column) }}
                    {%- endfor %}
                )
            else false
        end as is_blank_row,
        malformed_record is not null as is_malformed,
        record_uuid,
        annotator_id,
        task,
        language,
        created_at,
        chunk_id,
        chunk_rank,
        can_answer,
        {%- for label in ragmart_labels() %}
        {{ label }},
        {%- endfor %}
        {%- for text, families in ragmart_required_texts().items() %}
        case
            when input_name in ('{{ families | join("', '") }}') then {{ ragmart_is_blank(text) }}
        end as is_missing_{{ text }},
        {%- endfor %}
        case when input_name = 'retrieval' then input_query else query end as query_text

    from keyed

),

shared_copy_keys as (

    select
        family,
        copy_key

    from narrow_rows
    group by family, copy_key
    having count(*) > 1

),

rows_of_shared_keys as (

    select
        narrow_rows.family,
        narrow_rows.annotation_row_id

    from narrow_rows
    inner join shared_copy_keys
        on
            narrow_rows.family = shared_copy_keys.family
            and narrow_rows.copy_key = shared_copy_keys.copy_key

),

{# The input rows of the shared keys, read again with every column. #}
shared_rows as (

    select input_rows.*

    from input_rows
    inner join rows_of_shared_keys
        on
            input_rows.input_name = rows_of_shared_keys.family
            and input_rows.annotation_row_id = rows_of_shared_keys.annotation_row_id

),

{# Each row of a shared key, numbered among the rows equal to it in every column. #}
copies as (

    select
        input_name as family,
        annotation_row_id,
        row_number() over equal_rows as copy_number,
        first_value(source_file) over equal_rows as read_source_file

    from shared_rows
    window equal_rows as (
        partition by
            input_name,
            {%- for column in columns %}
            {{ ragmart_clean_text(column) }},
            {%- endfor %}
            malformed_record
        order by {{ ragmart_collate_binary('source_file') }} desc, source_row
    )

),

narrowed as (

    select
        narrow_rows.family,
        narrow_rows.annotation_row_id,
        narrow_rows.source_file,
        narrow_rows.source_row,
        narrow_rows.is_blank_row,
        not narrow_rows.is_blank_row and coalesce(copies.copy_number, 1) > 1 as is_repeated_row,
        coalesce(copies.read_source_file, narrow_rows.source_file) as read_source_file,
        narrow_rows.is_malformed,
        narrow_rows.record_uuid,
        narrow_rows.annotator_id,
        narrow_rows.task,
        narrow_rows.language,
        narrow_rows.created_at,
        narrow_rows.chunk_id,
        narrow_rows.chunk_rank,
        narrow_rows.can_answer,
        {%- for label in ragmart_labels() %}
        narrow_rows.{{ label }},
        {%- endfor %}
        {%- for text in ragmart_required_texts() %}
        narrow_rows.is_missing_{{ text }},
        {%- endfor %}
        narrow_rows.query_text

    from narrow_rows
    left join copies
        on
            narrow_rows.family = copies.family
            and narrow_rows.annotation_row_id = copies.annotation_row_id

)

select * from narrowed
