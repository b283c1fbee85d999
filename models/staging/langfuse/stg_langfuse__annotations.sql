{#-
    Langfuse's scores of the labels of the families read from Langfuse (grounding, generation) as
    rows of those exports (the 0005 shapes of stg_native__<family>), stacked (`family`): one row
    per (family, trace, annotator), each label the annotator's score of that name on the trace or
    any of its observations (the latest when several), empty when the annotator gave none. The
    record is the trace; query, answer, language and (grounding) the context set come from
    stg_langfuse__traces; a column of another family's export is null. created_at is the latest update of the row's label scores; notes the
    annotator's latest `notes` score of the trace (it does not move created_at). The row is placed
    by its latest score (of two updated at once, the one of the file that sorts last, then the
    later row): its file, its row there, and its number of (family, file, row), ragmart_row_id.
-#}
{%- set families = ragmart_families_in_format('langfuse') %}
{%- set labels = [] %}
{%- for family in families %}
{%- do labels.extend(ragmart_task_spec(family).labels) %}
{%- endfor %}

with

scores as (

    select * from {{ ref('stg_langfuse__scores') }}

),

traces as (

    select * from {{ ref('stg_langfuse__traces') }}

),

labels as (

    select
        *,
        row_number() over (
            partition by family, trace_id, annotator_id, label_name
            order by updated_at_utc desc, file_index desc, source_row desc
        ) as label_version,
        row_number() over (
            partition by family, trace_id, annotator_id
            order by updated_at_utc desc, file_index desc, source_row desc
        ) as row_version

    from scores
    where family in ('{{ families | join("', '") }}')

),

notes as (

    select
        trace_id,
        annotator_id,
        value_text as notes,
        row_number() over (
            partition by trace_id, annotator_id
            order by updated_at_utc desc, file_index desc, source_row desc
        ) as notes_version

    from scores
    where family = 'notes'

),

per_row as (

    select
        family,
        trace_id,
        annotator_id,
        max(case when row_version = 1 then source_file end) as source_file,
        max(case when row_version = 1 then source_row end) as source_row,
        max(case when row_version = 1 then updated_at end) as created_at,
        {%- for label in labels %}
        max(case when label_name = '{{ label }}' then value_text end) as {{ label }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from labels
    where label_version = 1
    group by
        family,
        trace_id,
        annotator_id

),

final as (

    select
        per_row.family,
        {{ ragmart_row_id(['per_row.family', 'per_row.source_file', 'per_row.source_row']) }} as annotation_row_id,
        per_row.source_file,
        per_row.source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        per_row.trace_id as record_uuid,
        per_row.annotator_id,
        per_row.family as task,
        traces.language,
        per_row.created_at,
        traces.query,
        traces.answer,
        case when per_row.family = 'grounding' then traces.context_set end as context_set,
        {%- for label in labels %}
        per_row.{{ label }},
        {%- endfor %}
        notes.notes

    from per_row
    left join traces
        on per_row.trace_id = traces.trace_id
    left join notes
        on
            per_row.trace_id = notes.trace_id
            and per_row.annotator_id is not distinct from notes.annotator_id
            and notes.notes_version = 1

)

select * from final
