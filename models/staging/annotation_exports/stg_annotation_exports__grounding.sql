{{ config(materialized='view') }}

with

source as (

    select * from {{ ref('base_annotation_exports__grounding') }}
    where not is_blank_row and not is_repeated_row

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
        {%- for label in ragmart_task_spec('grounding').labels %}
        {{ label }} as {{ label }}_raw,
        {{ ragmart_parse_boolean(label, label) }} as {{ label }},
        {%- endfor %}
        {{ ragmart_clean_text('query') }} as query_text,
        is_missing_query,
        is_missing_answer,
        is_missing_context_set

    from with_timestamp_parts

)

select * from renamed
