{#-
    Phoenix's annotations as rows of the exports of the families read from Phoenix (the 0005 shapes
    of stg_native__<family>), stacked (`family`):
    - retrieval: the document annotations, one row per (trace, span, document, annotator); the
      chunk is the document (chunk_id = document.id, chunk_rank = position + 1, chunk = its
      content, doc_id = its metadata's doc_id); input_query is the root span's input and
      generated_search_query the annotated span's input (a RETRIEVER span);
    - grounding and generation: the span and trace annotations, one row per (trace, annotator);
      query and answer are the root span's input and output, context_set (grounding) the trace's
      retrieved documents joined with ` [SEP] `.
    The record is the trace; every label of the annotator on the unit is a column. created_at is
    the latest update of the row's annotations; notes the first non-empty explanation, in label
    order. The row is placed by its first annotation (by table: document, span, trace; then file
    and row) and numbered by it: ragmart_row_id of (family, file, table, row), since a database's
    tables number their annotations each from 1. A column of another family's export is null.
-#}
{%- set families = ragmart_families_in_format('phoenix') %}
{%- set labels = [] %}
{%- for family in ragmart_tasks() %}
{%- do labels.extend(ragmart_task_spec(family).labels + ragmart_task_spec(family).optional_booleans) %}
{%- endfor %}

with

{# A retrieval label annotates a document; a label of another family a span or the trace. #}
labels as (

    select * from {{ ref('stg_phoenix__labels') }}
    where
        is_latest
        and family in ('{{ families | join("', '") }}')
        and (
            (family = 'retrieval' and annotation_target = 'document')
            or (family <> 'retrieval' and annotation_target in ('span', 'trace'))
        )

),

{# The unit: a document of a span (retrieval), else the trace. #}
labels_by_unit as (

    select
        family,
        trace_id,
        annotator_id,
        table_index,
        annotation_target,
        source_file,
        source_row,
        updated_at,
        label_name,
        value_text,
        explanation,
        case when family = 'retrieval' then span_id end as span_id,
        case when family = 'retrieval' then document_position end as document_position

    from labels

),

{# The unit's annotations in their order: by table (document, span, trace), then file and row. #}
numbered as (

    select
        *,
        row_number() over (
            partition by family, trace_id, span_id, document_position, annotator_id
            order by table_index, source_file, source_row
        ) as annotation_order

    from labels_by_unit

),

export as (

    select * from {{ ref('base_phoenix__export') }}

),

traces as (

    select * from {{ ref('stg_phoenix__traces') }}

),

per_row as (

    select
        family,
        trace_id,
        span_id,
        document_position,
        annotator_id,
        max(case when annotation_order = 1 then annotation_target end) as annotation_target,
        max(case when annotation_order = 1 then source_file end) as source_file,
        max(case when annotation_order = 1 then source_row end) as source_row,
        max(updated_at) as created_at,
        {%- for label in labels %}
        max(case when label_name = '{{ label }}' then value_text end) as {{ label }},
        {%- endfor %}
        coalesce(
            {%- for label in labels %}
            max(case when label_name = '{{ label }}' then {{ ragmart_clean_text('explanation') }} end){{ ',' if not loop.last }}
            {%- endfor %}
        ) as notes

    from numbered
    group by
        family,
        trace_id,
        span_id,
        document_position,
        annotator_id

),

final as (

    select
        per_row.family,
        {{ ragmart_row_id(['per_row.family', 'per_row.source_file', 'per_row.annotation_target', 'per_row.source_row']) }}
            as annotation_row_id,
        per_row.source_file,
        per_row.source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        per_row.trace_id as record_uuid,
        per_row.annotator_id,
        per_row.family as task,
        traces.language,
        per_row.created_at,
        case when per_row.family = 'retrieval' then traces.query end as input_query,
        spans.input_value as generated_search_query,
        documents.document_content as chunk,
        documents.document_id as chunk_id,
        documents.document_doc_id as doc_id,
        cast(per_row.document_position + 1 as {{ dbt.type_string() }}) as chunk_rank,
        {%- for label in labels %}
        per_row.{{ label }},
        {%- endfor %}
        case when per_row.family <> 'retrieval' then traces.query end as query,
        case when per_row.family <> 'retrieval' then traces.answer end as answer,
        case when per_row.family = 'grounding' then traces.context_set end as context_set,
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
