{#-
    Label Studio's retrieval export as retrieval rows in the 0005 shape of stg_native__retrieval (every
    value as text): the retrieval rows of stg_label_studio__annotations, with the columns of the
    retrieval export (ragmart_export_columns('retrieval'); test_label_studio compares them).
-#}

with

annotations as (

    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'retrieval'

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        record_uuid,
        annotator_id,
        'retrieval' as task,
        language,
        created_at,
        input_query,
        chunk,
        chunk_id,
        chunk_rank,
        generated_search_query,
        doc_id,
        can_answer,
        {{ ragmart_label_columns('retrieval') }},
        notes

    from annotations

)

select * from final
