{#-
    MLflow's feedback as rows of the exports of the families read from MLflow (the 0005 shapes of
    stg_native__<family>), stacked (`family`):
    - retrieval: one row per (trace, RETRIEVER span, chunk_index, annotator); the chunk is the span's
      document at that index (chunk_id = its id, chunk_rank = index + 1, chunk = its page_content,
      doc_id = its metadata's doc_id); input_query is the root span's input and
      generated_search_query the RETRIEVER span's input;
    - grounding and generation: one row per (trace, annotator); query and answer are the root span's
      input and output, context_set (grounding) the trace's retrieved documents joined with ` [SEP] `.
    The record is the trace's client_request_id, else its id. Every label the annotator gave the
    unit is a column (its latest valid feedback: stg_mlflow__feedback). created_at is the latest
    last_update_time of those feedback; notes the first non-empty rationale, in label order. The row
    is placed by its first feedback (by file and row) and numbered by its family, file, row, unit
    and annotator (ragmart_row_id). A column of another family's export is null.
-#}
{%- set families = ragmart_families_in_format('mlflow') %}
{%- set labels = [] %}
{%- for family in ragmart_tasks() %}
{%- do labels.extend(ragmart_task_spec(family).labels + ragmart_task_spec(family).optional_booleans) %}
{%- endfor %}
{#-
    What the build log says of the experiment's assessments that fill no row (stg_mlflow__feedback,
    built before this model): their counts by reason, and the names that map to no label.
-#}
{%- set feedback_model = ref('stg_mlflow__feedback') %}
{%- if execute and load_relation(feedback_model) is not none %}
    {%- set unread = run_query(
        "select not_read_because, count(*), string_agg(distinct coalesce(trim(name), '(no name)'), ', ' order by"
        ~ " coalesce(trim(name), '(no name)')) from " ~ feedback_model ~ " where not_read_because is not null"
        ~ " group by not_read_because order by not_read_because").rows %}
    {%- set reasons = {
        'expectation': 'expectations (reference values, not annotations)',
        'overridden': 'overridden feedback (MLflow keeps the override)',
        'no_label': 'feedback whose name maps to no label (map it with the var label_names)',
        'retrieval_not_on_a_chunk': 'retrieval feedback not on a RETRIEVER span with metadata.chunk_index',
        'not_on_the_trace': 'grounding or generation feedback on a span other than the root span'} %}
    {%- for row in unread %}
        {%- set message = "ragmart: MLflow: " ~ row[1] ~ " " ~ reasons[row[0]] ~ " are not read: " ~ row[2] %}
        {%- if row[0] in ('no_label', 'retrieval_not_on_a_chunk', 'not_on_the_trace') %}
            {%- do exceptions.warn(message) %}
        {%- else %}
            {%- do log(message, info=true) %}
        {%- endif %}
    {%- endfor %}
{%- endif %}

with

feedback as (

    select
        read_as as family,
        trace_id,
        document_position,
        annotator_id,
        source_file,
        source_row,
        last_update_time,
        label_name,
        label_value,
        rationale,
        case when read_as = 'retrieval' then span_id end as span_id,
        row_number() over (
            partition by read_as, trace_id, case when read_as = 'retrieval' then span_id end, document_position, annotator_id
            order by source_file, source_row, assessment_id
        ) as feedback_order

    from {{ ref('stg_mlflow__feedback') }}
    where is_latest and read_as in ('{{ families | join("', '") }}')

),

export as (

    select * from {{ ref('base_mlflow__export') }}

),

traces as (

    select * from {{ ref('stg_mlflow__traces') }}

),

per_row as (

    select
        family,
        trace_id,
        span_id,
        document_position,
        annotator_id,
        max(case when feedback_order = 1 then source_file end) as source_file,
        max(case when feedback_order = 1 then source_row end) as source_row,
        max(last_update_time) as created_at,
        {%- for label in labels %}
        max(case when label_name = '{{ label }}' then label_value end) as {{ label }},
        {%- endfor %}
        coalesce(
            {%- for label in labels %}
            max(case when label_name = '{{ label }}' then {{ ragmart_clean_text('rationale') }} end)
            {%- if not loop.last %},{% endif %}
            {%- endfor %}
        ) as notes

    from feedback
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
        {{ ragmart_row_id([
            'per_row.family', 'per_row.source_file', 'per_row.source_row', "coalesce(per_row.span_id, '')",
            "coalesce(cast(per_row.document_position as " ~ dbt.type_string() ~ "), '')",
            "coalesce(per_row.annotator_id, '')"]) }} as annotation_row_id,
        per_row.source_file,
        per_row.source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        traces.record_uuid,
        per_row.annotator_id,
        per_row.family as task,
        traces.language,
        per_row.created_at,
        case when per_row.family = 'retrieval' then traces.query end as input_query,
        spans.input_text as generated_search_query,
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
            per_row.trace_id = spans.trace_id
            and per_row.span_id = spans.span_id
            and spans.row_kind = 'span'
    left join export as documents
        on
            per_row.trace_id = documents.trace_id
            and per_row.span_id = documents.span_id
            and per_row.document_position = documents.document_position
            and documents.row_kind = 'document'

)

select * from final
