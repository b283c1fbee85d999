{#-
    The retrieval export as read, narrowed: the row id, where the row came from, the short columns as
    given (text) and a blank flag per long text; see the model's docs for why this is a table of
    its own. The input is the seed or, in files mode, the export files read by base_export_files.
-#}
{%- set input = ref('base_export_files') if ragmart_input_mode() == 'files' else ref('retrieval_annotations') %}

with

source as (

    {{ ragmart_input_rows('retrieval', input) }}

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
        topically_relevant,
        evidence_sufficient,
        misleading,
        input_query,
        {{ ragmart_is_blank('input_query') }} as is_missing_input_query,
        {{ ragmart_is_blank('chunk') }} as is_missing_chunk

    from source

)

select * from narrowed
