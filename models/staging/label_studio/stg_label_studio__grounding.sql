{#-
    Label Studio's grounding export as grounding rows in the 0005 shape of stg_native__grounding (every
    value as text): the grounding rows of stg_label_studio__annotations, with the columns of the
    grounding export (ragmart_export_columns('grounding'); test_label_studio compares them).
-#}

with

annotations as (

    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'grounding'

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        record_uuid,
        annotator_id,
        'grounding' as task,
        language,
        created_at,
        query,
        answer,
        context_set,
        {{ ragmart_label_columns('grounding') }},
        notes

    from annotations

)

select * from final
