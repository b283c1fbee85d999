{#
    The grounding export as read, narrowed: the row id, where the row came from, the short columns as
    given (text) and a blank flag per long text; see the model's docs for why this is a table of
    its own. The rows come from the source system of the var input_format (ragmart_source_model).
-#}

with

source as (

    select * from {{ ragmart_source_model('grounding') }}

),

{#
    Blank rows and exact copies (docs/rules.md, Daily exports): rows equal in every column of the
    export after trimming are one row, read where it stands in the file that sorts last by name
    (its first place there); the others are repeats. Both are counted, never rejected.
#}
with_copies as (

    select
        *,
        {{ ragmart_is_blank_row('grounding') }} as is_blank_row,
        row_number() over (
            partition by {{ ragmart_row_content('grounding') }}
            order by {{ ragmart_collate_binary('source_file') }} desc, source_row
        ) as copy_number,
        first_value(source_file) over (
            partition by {{ ragmart_row_content('grounding') }}
            order by {{ ragmart_collate_binary('source_file') }} desc, source_row
        ) as read_source_file

    from source

),

narrowed as (

    select
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
        {%- for label in ragmart_task_spec('grounding').labels %}
        {{ label }},
        {%- endfor %}
        query,
        {{ ragmart_is_blank('query') }} as is_missing_query,
        {{ ragmart_is_blank('answer') }} as is_missing_answer,
        {{ ragmart_is_blank('context_set') }} as is_missing_context_set

    from with_copies

)

select * from narrowed
