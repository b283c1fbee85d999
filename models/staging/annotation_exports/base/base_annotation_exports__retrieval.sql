{#-
    The retrieval export as read, narrowed: the row id, the short columns as given (text) and a
    blank flag per long text; see the model's docs for why this is a table of its own.
-#}
with

source as (

    {{ ragmart_input_rows('retrieval') }}

),

narrowed as (

    select
        annotation_row_id,
        record_uuid,
        annotator_id,
        task,
        language,
        created_at,
        chunk_id,
        chunk_rank,
        can_answer,
        topically_relevant,
        evidence_sufficient,
        misleading,
        {{ ragmart_is_blank('input_query') }} as is_missing_input_query,
        {{ ragmart_is_blank('chunk') }} as is_missing_chunk

    from source

)

select * from narrowed
