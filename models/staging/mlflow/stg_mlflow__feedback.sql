{#-
    Every assessment of the MLflow experiment read, one row each, with what the build makes of it
    (`read_as`: the family whose rows it fills, else null, and `not_read_because` saying why):
    - only feedback counts (an expectation is a reference answer, not an annotation: `expectation`),
      and only valid feedback (an override leaves the feedback it replaces invalid: `overridden`);
    - its label is its name through the var label_names, else the name itself (`no_label` when that
      is none of the task spec's labels);
    - a retrieval label is read on a RETRIEVER span with a whole `chunk_index` in its metadata (the
      unit: that document of that span), else not (`retrieval_not_on_a_chunk`); a label of grounding
      or generation on the trace or its root span (the unit: the trace), else not
      (`not_on_the_trace`);
    - the value as 0005 text: a JSON boolean `true`/`false`; a number exactly 1 or 0 as `1`/`0` (with
      the var score_threshold: `1` at or above it, `0` below), any other number as given; a string as
      given (the boolean spellings and label_values parse it later); a list or object as its JSON
      text (invalid); null, or an error in place of a value, empty.
    The annotator is the source_id, its kind MLflow's source type (`LLM_JUDGE` as `LLM`). Of several
    valid feedback of one source for one label of one unit, the latest counts (`is_latest`: by
    last_update_time, then assessment id).
-#}
{%- set threshold = ragmart_setting('score_threshold') %}

with

export as (

    select * from {{ ref('base_mlflow__export') }}

),

spans as (

    select
        trace_id,
        span_id,
        span_type,
        parent_span_id is null as is_root

    from export
    where row_kind = 'span'

),

assessments as (

    select
        export.source_file,
        {#- an export's assessment keeps its frame row or line; the store's (no source_row: a build reads
            only some of them) are numbered here, by creation then id, all in one partition -#}
        coalesce(
            export.source_row,
            row_number() over (
                partition by export.source_file, export.source_row
                order by export.created_time, export.assessment_id
            )
        ) as source_row,
        export.trace_id,
        export.span_id,
        export.assessment_id,
        export.assessment_type,
        export.name,
        export.value_kind,
        export.value_text,
        export.has_error,
        export.source_type,
        export.is_valid,
        export.last_update_time,
        export.rationale,
        {{ ragmart_clean_text('export.source_id') }} as annotator_id,
        case upper({{ ragmart_clean_text('export.source_type') }})
            when 'LLM_JUDGE' then 'LLM'
            else upper({{ ragmart_clean_text('export.source_type') }})
        end as annotator_kind,
        {#- DuckDB's try_cast: MLflow is read in files mode, on DuckDB only -#}
        try_cast(export.chunk_index as double) as chunk_number,
        {{ ragmart_label_name('export.name') }} as label_name,
        spans.span_type,
        coalesce(spans.is_root, false) as is_root_span

    from export
    left join spans
        on
            export.trace_id = spans.trace_id
            and export.span_id = spans.span_id
    where export.row_kind = 'assessment'

),

labelled as (

    select
        *,
        case
            {%- for task in ragmart_tasks() %}
            when label_name in ('{{ ragmart_task_spec(task).labels | join("', '") }}') then '{{ task }}'
            {%- endfor %}
            when label_name = 'can_answer' then 'retrieval'
        end as family,
        span_type = 'RETRIEVER' and chunk_number >= 0 and chunk_number = floor(chunk_number) as is_on_a_chunk,
        case
            when value_kind in ('boolean', 'string', 'other') then value_text
            when value_kind = 'number' and try_cast(value_text as double) is null then value_text
            {%- if threshold is not none %}
            when value_kind = 'number' and try_cast(value_text as double) >= {{ threshold }} then '1'
            when value_kind = 'number' then '0'
            {%- else %}
            when value_kind = 'number' and try_cast(value_text as double) = 1 then '1'
            when value_kind = 'number' and try_cast(value_text as double) = 0 then '0'
            when value_kind = 'number' then value_text
            {%- endif %}
        end as label_value

    from assessments

),

classified as (

    select
        *,
        case
            when assessment_type <> 'feedback' or assessment_type is null then 'expectation'
            when is_valid <> 'true' then 'overridden'
            when family is null then 'no_label'
            when family = 'retrieval' and not coalesce(is_on_a_chunk, false) then 'retrieval_not_on_a_chunk'
            when family <> 'retrieval' and span_id is not null and not is_root_span then 'not_on_the_trace'
        end as not_read_because,
        case when family = 'retrieval' and is_on_a_chunk then cast(chunk_number as bigint) end as document_position

    from labelled

),

final as (

    select
        *,
        case when not_read_because is null then family end as read_as,
        not_read_because is null and row_number() over (
            partition by
                not_read_because is null,
                trace_id,
                family,
                case when family = 'retrieval' then span_id end,
                document_position,
                label_name,
                source_type,
                annotator_id
            order by last_update_time desc, assessment_id desc
        ) = 1 as is_latest

    from classified

)

select * from final
