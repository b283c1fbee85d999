{#-
    One row per Langfuse trace, from one version of each trace and observation (of the rows of one
    id, the latest `updated_at`, then the file that sorts last): the query and the answer (the
    trace's input and output in the legacy export; else the root observation's, the observation
    without a parent, the first by start time), the language (their metadata's), the run (the
    trace's field the var langfuse_run_field names: release, version or environment), the context
    set (the items of the outputs of the trace's RETRIEVER observations in start-time order,
    joined with ` [SEP] `), where the trace was read (its file and row), and whether it is a
    record (a score of it maps to a label of a family read from Langfuse).
-#}
{%- set run_field = ragmart_setting('langfuse_run_field') %}

with

export as (

    select * from {{ ref('base_langfuse__export') }}
    where row_kind in ('trace', 'observation')

),

scores as (

    select * from {{ ref('stg_langfuse__scores') }}

),

versions as (

    select
        *,
        try_cast(start_time as timestamp) as started_at,
        row_number() over (
            partition by row_kind, id
            order by try_cast(updated_at as timestamp) desc, file_index desc, source_row desc
        ) as version_number

    from export

),

current_rows as (

    select * from versions
    where version_number = 1

),

{# The legacy export's traces, else each trace's first root observation (enriched). #}
trace_rows as (

    select
        *,
        row_number() over (
            partition by trace_id
            order by case when row_kind = 'trace' then 0 else 1 end, started_at, id
        ) as trace_row_number

    from current_rows
    where
        row_kind = 'trace'
        or {{ ragmart_clean_text('parent_observation_id') }} is null

),

contexts as (

    select
        trace_id,
        string_agg(context_text, ' [SEP] ' order by started_at, id) as context_set

    from current_rows
    where
        row_kind = 'observation'
        and observation_type = 'RETRIEVER'
        and context_text is not null
    group by trace_id

),

records as (

    select distinct trace_id
    from scores
    where family <> 'notes'

),

final as (

    select
        trace_rows.trace_id,
        trace_rows.input_text as query,
        trace_rows.output_text as answer,
        trace_rows.language,
        contexts.context_set,
        {{ ragmart_clean_text('trace_rows.' ~ run_field) if run_field else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as run_id,
        trace_rows.source_file,
        trace_rows.source_row,
        trace_rows.file_index,
        records.trace_id is not null as is_record

    from trace_rows
    left join contexts
        on trace_rows.trace_id = contexts.trace_id
    left join records
        on trace_rows.trace_id = records.trace_id
    where trace_rows.trace_row_number = 1

)

select * from final
