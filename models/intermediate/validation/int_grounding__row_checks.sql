{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the grounding export with
    its own reason codes, `;`-separated in code order, and its labels after the constraint policy
    (under `repair`, the consequent of a violated implication is set to 1). Superseding and
    duplicates follow in int_annotations__deduplicated.
-#}
{%- set rejects_implications = ragmart_constraint_policy() == 'reject' %}

with

staged as (

    select * from {{ ref('stg_annotation_exports__grounding') }}

),

checked as (

    select
        annotation_row_id,
        record_uuid,
        annotator_id,
        created_at_utc,
        language,
        support_present,
        unsupported_claim_present,
        contradicted_claim_present,
        source_cited,
        fabricated_source,
        case
            when is_malformed then 'malformed_row'
            else nullif(concat_ws(
                ';',
                case
                    when {{ ragmart_invalid_boolean('contradicted_claim_present') }}
                        then 'invalid_boolean:contradicted_claim_present'
                end,
                case when {{ ragmart_invalid_boolean('fabricated_source') }} then 'invalid_boolean:fabricated_source' end,
                case when {{ ragmart_invalid_boolean('source_cited') }} then 'invalid_boolean:source_cited' end,
                case when {{ ragmart_invalid_boolean('support_present') }} then 'invalid_boolean:support_present' end,
                case
                    when {{ ragmart_invalid_boolean('unsupported_claim_present') }}
                        then 'invalid_boolean:unsupported_claim_present'
                end,
                case when {{ ragmart_invalid_language('language') }} then 'invalid_language' end,
                case when not {{ ragmart_is_blank('created_at') }} and created_at_utc is null then 'invalid_timestamp' end,
                case when annotator_id is null then 'missing:annotator_id' end,
                case when is_missing_answer then 'missing:answer' end,
                case when is_missing_context_set then 'missing:context_set' end,
                case
                    when {{ ragmart_is_blank('contradicted_claim_present_raw') }} then 'missing:contradicted_claim_present'
                end,
                case when {{ ragmart_is_blank('created_at') }} then 'missing:created_at' end,
                case when {{ ragmart_is_blank('fabricated_source_raw') }} then 'missing:fabricated_source' end,
                case when is_missing_query then 'missing:query' end,
                case when record_uuid is null then 'missing:record_uuid' end,
                case when {{ ragmart_is_blank('source_cited_raw') }} then 'missing:source_cited' end,
                case when {{ ragmart_is_blank('support_present_raw') }} then 'missing:support_present' end,
                case when task is null then 'missing:task' end,
                case
                    when {{ ragmart_is_blank('unsupported_claim_present_raw') }} then 'missing:unsupported_claim_present'
                end,
                case
                    when {{ rejects_implications }} and contradicted_claim_present = 1 and unsupported_claim_present = 0
                        then 'violates:contradicted_implies_unsupported'
                end,
                case
                    when {{ rejects_implications }} and fabricated_source = 1 and source_cited = 0
                        then 'violates:fabricated_implies_cited'
                end,
                case when task <> 'grounding' then 'wrong_task' end
            ), '')
        end as row_reasons

    from staged

),

repaired as (

    select
        annotation_row_id,
        'grounding' as task,
        record_uuid,
        annotator_id,
        created_at_utc,
        language,
        {{ dbt.concat([
            "coalesce(cast(support_present as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(unsupported_claim_present as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(contradicted_claim_present as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(source_cited as " ~ dbt.type_string() ~ "), '-')",
            "coalesce(cast(fabricated_source as " ~ dbt.type_string() ~ "), '-')"]) }} as label_signature,
        support_present,
        case
            when not {{ rejects_implications }} and contradicted_claim_present = 1 and unsupported_claim_present = 0
                then 1
            else unsupported_claim_present
        end as unsupported_claim_present,
        contradicted_claim_present,
        case
            when not {{ rejects_implications }} and fabricated_source = 1 and source_cited = 0 then 1
            else source_cited
        end as source_cited,
        fabricated_source,
        case
            when {{ rejects_implications }} then false
            else (
                (contradicted_claim_present = 1 and unsupported_claim_present = 0)
                or (fabricated_source = 1 and source_cited = 0)
            )
        end as was_repaired,
        row_reasons

    from checked

)

select * from repaired
