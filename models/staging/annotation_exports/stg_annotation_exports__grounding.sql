{{ config(materialized='view') }}

with

source as (

    select * from {{ ref('base_annotation_exports__grounding') }}

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
        {{ ragmart_clean_text('query') }} as query_text,
        is_missing_query,
        is_missing_answer,
        is_missing_context_set,
        support_present as support_present_raw,
        {{ ragmart_parse_boolean('support_present') }} as support_present,
        unsupported_claim_present as unsupported_claim_present_raw,
        {{ ragmart_parse_boolean('unsupported_claim_present') }} as unsupported_claim_present,
        contradicted_claim_present as contradicted_claim_present_raw,
        {{ ragmart_parse_boolean('contradicted_claim_present') }} as contradicted_claim_present,
        source_cited as source_cited_raw,
        {{ ragmart_parse_boolean('source_cited') }} as source_cited,
        fabricated_source as fabricated_source_raw,
        {{ ragmart_parse_boolean('fabricated_source') }} as fabricated_source

    from with_timestamp_parts

)

select * from renamed
