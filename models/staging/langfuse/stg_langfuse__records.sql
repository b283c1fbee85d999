{#-
    The records input with the runs Langfuse records (in the 0005 shape of stg_native__records):
    every row of the 0005 records input, its run_id the input's when it gives one, else the run of
    the Langfuse trace of that id (stg_langfuse__traces: the field the var langfuse_run_field
    names); and for each trace that is a record, has a run and is not in the records input, a row
    of its own (the run, in every family, also those read in another format). Such a row is placed
    at the trace's file and row and numbered by them as a row of the records input
    (ragmart_row_id of `records`, the trace's file and row).
-#}

with

records_input as (

    select * from {{ ref('stg_native__records') }}

),

traces as (

    select * from {{ ref('stg_langfuse__traces') }}
    where is_record and run_id is not null

),

listed as (

    select
        records_input.annotation_row_id,
        records_input.source_file,
        records_input.source_row,
        records_input.malformed_record,
        records_input.record_uuid,
        records_input.task_type,
        records_input.model_uncertainty,
        records_input.is_adversarial,
        records_input.tier,
        coalesce({{ ragmart_clean_text('records_input.run_id') }}, traces.run_id) as run_id,
        records_input.query_id

    from records_input
    left join traces
        on {{ ragmart_clean_text('records_input.record_uuid') }} = traces.trace_id

),

unlisted as (

    select
        {{ ragmart_row_id(["'records'", 'traces.source_file', 'traces.source_row']) }} as annotation_row_id,
        traces.source_file,
        traces.source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        traces.trace_id as record_uuid,
        cast(null as {{ dbt.type_string() }}) as task_type,
        cast(null as {{ dbt.type_string() }}) as model_uncertainty,
        cast(null as {{ dbt.type_string() }}) as is_adversarial,
        cast(null as {{ dbt.type_string() }}) as tier,
        traces.run_id,
        cast(null as {{ dbt.type_string() }}) as query_id

    from traces
    where traces.trace_id not in (
        select {{ ragmart_clean_text('records_input.record_uuid') }}
        from records_input
        where {{ ragmart_clean_text('records_input.record_uuid') }} is not null
    )

),

final as (

    select * from listed

    union all

    select * from unlisted

)

select * from final
