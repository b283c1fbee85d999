{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the generation export with
    its own reason codes, `;`-separated in code order (generation has no logical constraint).
    Superseding and duplicates follow in int_annotations__deduplicated.
-#}

with

staged as (

    select * from {{ ref('stg_annotation_exports__generation') }}

),

checked as (

    select
        annotation_row_id,
        'generation' as task,
        record_uuid,
        annotator_id,
        created_at_utc,
        language,
        {{ dbt.concat([
            "coalesce(cast(proper_action as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(response_on_topic as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(helpful as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(incomplete as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(unsafe_content as " ~ dbt.type_string() ~ "), '-')"]) }} as label_signature,
        proper_action,
        response_on_topic,
        helpful,
        incomplete,
        unsafe_content,
        false as was_repaired,
        case
            when is_malformed then 'malformed_row'
            else nullif(concat_ws(
                ';',
                case when {{ ragmart_invalid_boolean('helpful') }} then 'invalid_boolean:helpful' end,
                case when {{ ragmart_invalid_boolean('incomplete') }} then 'invalid_boolean:incomplete' end,
                case when {{ ragmart_invalid_boolean('proper_action') }} then 'invalid_boolean:proper_action' end,
                case when {{ ragmart_invalid_boolean('response_on_topic') }} then 'invalid_boolean:response_on_topic' end,
                case when {{ ragmart_invalid_boolean('unsafe_content') }} then 'invalid_boolean:unsafe_content' end,
                case when {{ ragmart_invalid_language('language') }} then 'invalid_language' end,
                case when not {{ ragmart_is_blank('created_at') }} and created_at_utc is null then 'invalid_timestamp' end,
                case when annotator_id is null then 'missing:annotator_id' end,
                case when is_missing_answer then 'missing:answer' end,
                case when {{ ragmart_is_blank('created_at') }} then 'missing:created_at' end,
                case when {{ ragmart_is_blank('helpful_raw') }} then 'missing:helpful' end,
                case when {{ ragmart_is_blank('incomplete_raw') }} then 'missing:incomplete' end,
                case when {{ ragmart_is_blank('proper_action_raw') }} then 'missing:proper_action' end,
                case when is_missing_query then 'missing:query' end,
                case when record_uuid is null then 'missing:record_uuid' end,
                case when {{ ragmart_is_blank('response_on_topic_raw') }} then 'missing:response_on_topic' end,
                case when task is null then 'missing:task' end,
                case when {{ ragmart_is_blank('unsafe_content_raw') }} then 'missing:unsafe_content' end,
                case when task <> 'generation' then 'wrong_task' end
            ), '')
        end as row_reasons

    from staged

)

select * from checked
