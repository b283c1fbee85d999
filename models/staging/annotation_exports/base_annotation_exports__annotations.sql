{#
    The three exports as read, stacked and narrowed: the family, the row id, where the row came
    from, the short columns as given (text) and a blank flag per required long text; see the
    model's docs for why this is a table of its own. The rows are the exports' of
    base_annotation_exports__input_rows (each family in the format the var input_format names); a
    column of another family's export is null.
-#}
{%- set columns = [] %}
{%- set unit_columns = [] %}
{%- for family in ragmart_tasks() %}
{%- for column in ragmart_export_columns(family) if column.name not in columns %}
{%- do columns.append(column.name) %}
{%- endfor %}
{%- for column in ragmart_task_spec(family).unit_columns if column not in unit_columns %}
{%- do unit_columns.append(column) %}
{%- endfor %}
{%- endfor %}

with

input_rows as (

    select * from {{ ref('base_annotation_exports__input_rows') }}
    where input_name <> 'records'

),

{#
    Blank rows and exact copies (docs/rules.md, Daily exports) are found per family: rows equal in
    every column of the export after trimming are one row, read where it stands in the file that
    sorts last by name (its first place there); the others are repeats. Both are counted, never
    rejected. Copies share their copy key (the row's unit, annotator and created_at, trimmed,
    blank parts left out, and the raw text of a record that failed to parse; another family's unit
    column is null and so left out), so only the rows whose key another row shares are compared
    column by column; a row with a key of its own is read where it stands.
#}
stacked as (

    select
        input_name as family,
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        {%- for column in columns %}
        {{ column }},
        {%- endfor %}
        concat_ws(
            '|',
            {%- for column in unit_columns + ['annotator_id', 'created_at'] %}
            {{ ragmart_clean_text(column) }},
            {%- endfor %}
            malformed_record
        ) as copy_key

    from input_rows

),

shared_copy_keys as (

    select
        family,
        copy_key

    from stacked
    group by family, copy_key
    having count(*) > 1

),

keyed as {{ ragmart_cte_materialized() }}(

    select
        stacked.*,
        shared_copy_keys.copy_key is not null as is_key_shared,
        {# A blank row's key is empty: only the rows with an empty key are checked column by column. #}
        case
            when stacked.copy_key = ''
                then (
                    stacked.malformed_record is null
                    {%- for column in columns %}
                    and {{ ragmart_is_blank('stacked.' ~ column) }}
                    {%- endfor %}
                )
            else false
        end as is_blank_row

    from stacked
    left join shared_copy_keys
        on
            stacked.family = shared_copy_keys.family
            and stacked.copy_key = shared_copy_keys.copy_key

),

with_copies as (

    select
        *,
        row_number() over (
            partition by
                family,
                {%- for column in columns %}
                {{ ragmart_clean_text(column) }},
                {%- endfor %}
                malformed_record
            order by {{ ragmart_collate_binary('source_file') }} desc, source_row
        ) as copy_number,
        first_value(source_file) over (
            partition by
                family,
                {%- for column in columns %}
                {{ ragmart_clean_text(column) }},
                {%- endfor %}
                malformed_record
            order by {{ ragmart_collate_binary('source_file') }} desc, source_row
        ) as read_source_file

    from keyed
    where is_key_shared

    union all

    select
        *,
        1 as copy_number,
        source_file as read_source_file

    from keyed
    where not is_key_shared

),

narrowed as (

    select
        family,
        annotation_row_id,
        source_file,
        source_row,
        is_blank_row,
        not is_blank_row and copy_number > 1 as is_repeated_row,
        read_source_file,
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
            when family in ('{{ families | join("', '") }}') then {{ ragmart_is_blank(text) }}
        end as is_missing_{{ text }},
        {%- endfor %}
        case when family = 'retrieval' then input_query else query end as query_text

    from with_copies

)

select * from narrowed
