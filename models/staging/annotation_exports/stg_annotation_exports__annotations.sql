{#-
    The three exports, stacked: one row per distinct row (blank rows and exact copies left out),
    identifiers trimmed, created_at parsed to a UTC instant, booleans and ranks parsed next to the
    value as given. A column of another family's export is null.
-#}
{{ config(materialized='view') }}

with

source as (

    select * from {{ ref('base_annotation_exports__annotations') }}
    where family <> 'records' and not is_blank_row and not is_repeated_row

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
        family,
        annotation_row_id,
        source_file,
        source_row,
        is_malformed,
        {{ ragmart_clean_text('record_uuid') }} as record_uuid,
        {{ ragmart_clean_text('annotator_id') }} as annotator_id,
        {{ ragmart_clean_text('task') }} as task,
        language as language_raw,
        {{ ragmart_clean_text('language') }} as language,
        created_at,
        {{ ragmart_timestamp_from_parts('created_at_parts') }} as created_at_utc,
        {%- for label in ragmart_labels() %}
        {{ label }} as {{ label }}_raw,
        {{ ragmart_parse_boolean(label, label) }} as {{ label }},
        {%- endfor %}
        {{ ragmart_clean_text('query_text') }} as query_text,
        {%- for text in ragmart_required_texts() %}
        is_missing_{{ text }},
        {%- endfor %}
        {{ ragmart_clean_text('chunk_id') }} as chunk_id,
        chunk_rank as chunk_rank_raw,
        {#- a rank: digits only after trimming, optionally with a fraction of zeros (`3.0`: pandas writes
            ranks that way), and at least 1, else null #}
        case
            when {{ ragmart_regex_full_match(ragmart_trim('chunk_rank'), '[0-9]+([.]0+)?') }}
                then nullif({{ ragmart_try_cast(ragmart_regexp_extract(ragmart_trim('chunk_rank'), '^([0-9]+)', 1),
                                                dbt.type_bigint()) }}, 0)
        end as chunk_rank,
        can_answer as can_answer_raw,
        {{ ragmart_parse_boolean('can_answer', 'can_answer') }} as can_answer

    from with_timestamp_parts

)

select * from renamed
