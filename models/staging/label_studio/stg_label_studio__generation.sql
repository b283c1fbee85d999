{#-
    Label Studio's generation export as generation rows in the 0005 shape of stg_native__generation (every
    value as text): the generation rows of stg_label_studio__annotations, with the columns of the
    generation export (ragmart_export_columns('generation'); test_label_studio compares them).
-#}

with

annotations as (

    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'generation'

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        record_uuid,
        annotator_id,
        'generation' as task,
        language,
        created_at,
        query,
        answer,
        {{ ragmart_label_columns('generation') }},
        notes

    from annotations

)

select * from final
