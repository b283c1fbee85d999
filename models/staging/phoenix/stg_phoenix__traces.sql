{#-
    One row per Phoenix trace (a record) with what its spans say of it: the query and the answer
    (the root span's input and output), the language (the root span's metadata), and the
    context set: the contents of the trace's retrieved documents in position order, joined with
    ` [SEP] ` (0005's separator).
-#}

with

export as (

    select * from {{ ref('base_phoenix__export') }}

),

root_spans as (

    select
        trace_id,
        min(span_id) as span_id

    from export
    where row_kind = 'span' and parent_id is null
    group by trace_id

),

documents as (

    select
        trace_id,
        string_agg(document_content, ' [SEP] ' order by span_id, document_position) as context_set

    from export
    where row_kind = 'document'
    group by trace_id

),

final as (

    select
        root_spans.trace_id,
        spans.input_value as query,
        spans.output_value as answer,
        spans.language,
        documents.context_set

    from root_spans
    inner join export as spans
        on
            root_spans.span_id = spans.span_id
            and spans.row_kind = 'span'
    left join documents
        on root_spans.trace_id = documents.trace_id

)

select * from final
