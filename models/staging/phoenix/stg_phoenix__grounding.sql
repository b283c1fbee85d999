{#-
    Phoenix's span and trace annotations of the grounding labels as grounding rows (the 0005 shape of
    stg_native__grounding): one row per (trace, annotator), every label of the annotator on the
    trace's spans or the trace itself a column. The record is the trace; query and answer are the
    root span's input and output, context_set = the trace's retrieved documents joined with ` [SEP] `. created_at is the latest update of the row's
    annotations; notes the first non-empty explanation, in label order. The row is numbered and
    placed by its first annotation.
-#}
{%- set labels = ragmart_task_spec('grounding').labels %}

with

labels as (

    select * from {{ ref('stg_phoenix__labels') }}
    where family = 'grounding' and annotation_target in ('span', 'trace') and is_latest

),

traces as (

    select * from {{ ref('stg_phoenix__traces') }}

),

per_row as (

    select
        trace_id,
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
        'grounding' as task,
        traces.language,
        per_row.created_at,
        traces.query,
        traces.answer,
        traces.context_set,
        {{ ragmart_label_columns('grounding', 'per_row') }},
        per_row.notes

    from per_row
    left join traces
        on per_row.trace_id = traces.trace_id

)

select * from final
