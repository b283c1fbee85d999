{#-
    One row per MLflow trace of the experiment read, with what MLflow records of it: the record (its
    client_request_id, else the trace id), the run (the name of its logged model, else of its source
    run), the `language` and `query_id` of its metadata, the query and the answer (the root span's
    input and output: the span without a parent, the smallest id of several) and the context set:
    the contents of the trace's retrieved documents (its RETRIEVER spans in start order, each
    span's documents in order), joined with ` [SEP] ` (0005's separator).
-#}

with

export as (

    select * from {{ ref('base_mlflow__export') }}

),

root_spans as (

    select
        trace_id,
        min(span_id) as span_id

    from export
    where row_kind = 'span' and parent_span_id is null
    group by trace_id

),

span_starts as (

    select
        trace_id,
        span_id,
        span_start

    from export
    where row_kind = 'span'

),

documents as (

    select
        export.trace_id,
        string_agg(
            export.document_content, ' [SEP] '
            order by try_cast(span_starts.span_start as hugeint), export.span_id, export.document_position
        ) as context_set

    from export
    left join span_starts
        on
            export.trace_id = span_starts.trace_id
            and export.span_id = span_starts.span_id
    where export.row_kind = 'document'
    group by export.trace_id

),

final as (

    select
        traces.trace_id,
        traces.record_id as record_uuid,
        traces.run_name as run_id,
        traces.language,
        traces.query_id,
        traces.source_file,
        traces.source_row,
        spans.input_text as query,
        spans.output_text as answer,
        documents.context_set

    from export as traces
    left join root_spans
        on traces.trace_id = root_spans.trace_id
    left join export as spans
        on
            root_spans.trace_id = spans.trace_id
            and root_spans.span_id = spans.span_id
            and spans.row_kind = 'span'
    left join documents
        on traces.trace_id = documents.trace_id
    where traces.row_kind = 'trace'

)

select * from final
