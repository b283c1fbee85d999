{{ config(materialized='view') }}

with

source as (

    select * from {{ ref('base_annotation_exports__retrieval') }}

),

{# The timestamp pattern is matched once per row here and its groups read below. #}
with_timestamp_parts as (

    select
        *,
        {{ ragmart_timestamp_parts('created_at') }} as created_at_parts

    from source

),

renamed as (

    select
        annotation_row_id,
        is_malformed,
        {{ ragmart_clean_text('record_uuid') }} as record_uuid,
        {{ ragmart_clean_text('annotator_id') }} as annotator_id,
        {{ ragmart_clean_text('task') }} as task,
        language as language_raw,
        {{ ragmart_clean_text('language') }} as language,
        created_at,
        {{ ragmart_timestamp_from_parts('created_at_parts') }} as created_at_utc,
        {{ ragmart_clean_text('input_query') }} as query_text,
        is_missing_input_query,
        is_missing_chunk,
        {{ ragmart_clean_text('chunk_id') }} as chunk_id,
        chunk_rank as chunk_rank_raw,
        {{ ragmart_parse_rank('chunk_rank') }} as chunk_rank,
        can_answer as can_answer_raw,
        {{ ragmart_parse_boolean('can_answer') }} as can_answer,
        topically_relevant as topically_relevant_raw,
        {{ ragmart_parse_boolean('topically_relevant') }} as topically_relevant,
        evidence_sufficient as evidence_sufficient_raw,
        {{ ragmart_parse_boolean('evidence_sufficient') }} as evidence_sufficient,
        misleading as misleading_raw,
        {{ ragmart_parse_boolean('misleading') }} as misleading

    from with_timestamp_parts

)

select * from renamed
