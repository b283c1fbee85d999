{#-
    The retrieval export as read, narrowed: the row id, where the row came from, the short columns as
    given (text) and a blank flag per long text; see the model's docs for why this is a table of
    its own. The rows come from the source system of the var input_format (ragmart_source_model).
-#}

with

source as (

    select * from {{ ragmart_source_model('retrieval') }}

),

narrowed as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record is not null as is_malformed,
        record_uuid,
        annotator_id,
        task,
        language,
        created_at,
        chunk_id,
        chunk_rank,
        can_answer,
        {%- for label in ragmart_task_spec('retrieval').labels %}
        {{ label }},
        {%- endfor %}
        input_query,
        {{ ragmart_is_blank('input_query') }} as is_missing_input_query,
        {{ ragmart_is_blank('chunk') }} as is_missing_chunk

    from source

)

select * from narrowed
