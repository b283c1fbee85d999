{#-
    The records input with what MLflow records of them (in the 0005 shape of stg_native__records):
    every row of the 0005 records input (with the runs Langfuse records, when Langfuse is read for
    another family: stg_langfuse__records), its run_id and query_id the input's when it gives them, else
    the trace's (stg_mlflow__traces: the name of its logged model or source run; its metadata's
    query_id); and for each trace of the experiment that the records input does not list and that
    has a run or a query id, a row of its own. Such a row is placed at the trace's file and row and
    numbered by them as a row of the records input (ragmart_row_id of `records`, the trace's file
    and row).
-#}

with

{# The records input: the 0005 rows, with the runs Langfuse records when Langfuse is read too. #}
records_input as (

    {%- if 'langfuse' in ragmart_input_formats().values() %}
    select * from {{ ref('stg_langfuse__records') }}
    {%- else %}
    select * from {{ ref('stg_native__records') }}
    {%- endif %}

),

{# One row per record: two traces of one client_request_id give it the first run and query id. #}
traces as (

    select
        record_uuid,
        min(run_id) as run_id,
        min(query_id) as query_id,
        min(source_file) as source_file,
        min(source_row) as source_row

    from {{ ref('stg_mlflow__traces') }}
    group by record_uuid

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
        coalesce({{ ragmart_clean_text('records_input.query_id') }}, traces.query_id) as query_id

    from records_input
    left join traces
        on {{ ragmart_clean_text('records_input.record_uuid') }} = traces.record_uuid

),

unlisted as (

    select
        {{ ragmart_row_id(["'records'", 'traces.source_file', 'traces.source_row']) }} as annotation_row_id,
        traces.source_file,
        traces.source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        traces.record_uuid,
        cast(null as {{ dbt.type_string() }}) as task_type,
        cast(null as {{ dbt.type_string() }}) as model_uncertainty,
        cast(null as {{ dbt.type_string() }}) as is_adversarial,
        cast(null as {{ dbt.type_string() }}) as tier,
        traces.run_id,
        traces.query_id

    from traces
    where
        (traces.run_id is not null or traces.query_id is not null)
        and traces.record_uuid not in (
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
