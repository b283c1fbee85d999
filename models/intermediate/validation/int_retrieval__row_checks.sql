{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the retrieval export with
    its own reason codes, `;`-separated in code order, and its labels after the constraint policy
    (under `repair`, the consequent of a violated implication is set to 1). Superseding and
    duplicates follow in int_annotations__deduplicated, the rank check in int_annotations__row_status.
-#}
{%- set rejects_implications = ragmart_constraint_policy() == 'reject' %}

with

staged as (

    select * from {{ ref('stg_annotation_exports__retrieval') }}

),

checked as (

    select
        annotation_row_id,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        language,
        chunk_rank,
        topically_relevant,
        evidence_sufficient,
        misleading,
        case
            when is_malformed then 'malformed_row'
            else nullif(concat_ws(
                ';',
                case when {{ ragmart_invalid_boolean('can_answer') }} then 'invalid_boolean:can_answer' end,
                case when {{ ragmart_invalid_boolean('evidence_sufficient') }} then 'invalid_boolean:evidence_sufficient' end,
                case when {{ ragmart_invalid_boolean('misleading') }} then 'invalid_boolean:misleading' end,
                case when {{ ragmart_invalid_boolean('topically_relevant') }} then 'invalid_boolean:topically_relevant' end,
                case when {{ ragmart_invalid_language('language') }} then 'invalid_language' end,
                case when not {{ ragmart_is_blank('chunk_rank_raw') }} and chunk_rank is null then 'invalid_rank' end,
                case when not {{ ragmart_is_blank('created_at') }} and created_at_utc is null then 'invalid_timestamp' end,
                case when annotator_id is null then 'missing:annotator_id' end,
                case when is_missing_chunk then 'missing:chunk' end,
                case when chunk_id is null then 'missing:chunk_id' end,
                case when {{ ragmart_is_blank('chunk_rank_raw') }} then 'missing:chunk_rank' end,
                case when {{ ragmart_is_blank('created_at') }} then 'missing:created_at' end,
                case when {{ ragmart_is_blank('evidence_sufficient_raw') }} then 'missing:evidence_sufficient' end,
                case when is_missing_input_query then 'missing:input_query' end,
                case when {{ ragmart_is_blank('misleading_raw') }} then 'missing:misleading' end,
                case when record_uuid is null then 'missing:record_uuid' end,
                case when task is null then 'missing:task' end,
                case when {{ ragmart_is_blank('topically_relevant_raw') }} then 'missing:topically_relevant' end,
                case
                    when evidence_sufficient = 1 and misleading = 1 then 'violates:sufficient_excludes_misleading'
                end,
                case
                    when {{ rejects_implications }} and evidence_sufficient = 1 and topically_relevant = 0
                        then 'violates:sufficient_implies_relevant'
                end,
                case when task <> 'retrieval' then 'wrong_task' end
            ), '')
        end as row_reasons

    from staged

),

repaired as (

    select
        annotation_row_id,
        'retrieval' as task,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        language,
        chunk_rank,
        {{ dbt.concat([
            "coalesce(cast(topically_relevant as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(evidence_sufficient as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(misleading as " ~ dbt.type_string() ~ "), '-')"]) }} as label_signature,
        case
            when not {{ rejects_implications }} and evidence_sufficient = 1 and topically_relevant = 0 then 1
            else topically_relevant
        end as topically_relevant,
        evidence_sufficient,
        misleading,
        case
            when {{ rejects_implications }} then false
            else (evidence_sufficient = 1 and topically_relevant = 0)
        end as was_repaired,
        row_reasons

    from checked

)

select * from repaired
