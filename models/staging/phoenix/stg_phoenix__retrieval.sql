{#-
    Phoenix's document annotations as retrieval rows (the 0005 shape of stg_native__retrieval): one
    row per (trace, span, document, annotator), every label of the annotator on that document a
    column. The record is the trace; the chunk is the document (chunk_id = document.id,
    chunk_rank = position + 1, chunk = its content, doc_id = its metadata's doc_id); input_query is
    the root span's input and generated_search_query the annotated span's input (a RETRIEVER span).
    created_at is the latest update of the row's annotations; notes the first non-empty
    explanation, in label order. The row is numbered and placed by its first annotation.
-#}
{%- set labels = ragmart_task_spec('retrieval').labels + ['can_answer'] %}

with

labels as (

    select * from {{ ref('stg_phoenix__labels') }}
    where family = 'retrieval' and annotation_target = 'document' and is_latest

),

export as (

    select * from {{ ref('base_phoenix__export') }}

),

traces as (

    select * from {{ ref('stg_phoenix__traces') }}

),

per_row as (

    select
        trace_id,
        span_id,
        document_position,
        annotator_id,
        min(annotation_key) as annotation_row_id,
        arg_min(source_file, annotation_key) as source_file,
        arg_min(source_row, annotation_key) as source_row,
        max(updated_at) as created_at,
        {%- for label in labels %}
        max(case when label_name = '{{ label }}' then value_text end) as {{ label }},
        {%- endfor %}
        coalesce(
            {%- for label in labels %}
            max(case when label_name = '{{ label }}' then {{ ragmart_clean_text('explanation') }} end){{ ',' if not loop.last }}
            {%- endfor %}
        ) as notes

    from labels
    group by
        trace_id,
        span_id,
        document_position,
        annotator_id

),

final as (

    select
        per_row.annotation_row_id,
        per_row.source_file,
        per_row.source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        per_row.trace_id as record_uuid,
        per_row.annotator_id,
        'retrieval' as task,
        traces.language,
        per_row.created_at,
        traces.query as input_query,
        spans.input_value as generated_search_query,
        documents.document_content as chunk,
        documents.document_id as chunk_id,
        documents.document_doc_id as doc_id,
        cast(per_row.document_position + 1 as {{ dbt.type_string() }}) as chunk_rank,
        per_row.can_answer,
        {{ ragmart_label_columns('retrieval', 'per_row') }},
        per_row.notes

    from per_row
    left join traces
        on per_row.trace_id = traces.trace_id
    left join export as spans
        on
            per_row.span_id = spans.span_id
            and spans.row_kind = 'span'
    left join export as documents
        on
            per_row.span_id = documents.span_id
            and per_row.document_position = documents.document_position
            and documents.row_kind = 'document'

)

select * from final
