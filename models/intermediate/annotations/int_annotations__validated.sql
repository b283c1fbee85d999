{#-
    One row per row of the three exports with its status and reasons (docs/rules.md, Row status):
    the row's values and labels after the constraint policy (int_<task>__row_checks) with the
    status that int_annotations__row_status gave it, every label of every task a column (a label
    of another task is null; the chunk and its rank only in retrieval). What every later model
    reads of the exports.
-#}
{%- set labels = ragmart_labels() %}
with

retrieval_checks as (

    select * from {{ ref('int_retrieval__row_checks') }}

),

grounding_checks as (

    select * from {{ ref('int_grounding__row_checks') }}

),

generation_checks as (

    select * from {{ ref('int_generation__row_checks') }}

),

row_status as (

    select * from {{ ref('int_annotations__row_status') }}
    where task <> 'records'

),

checked_rows as (
    {%- for task in ragmart_tasks() %}
    {%- set task_labels = ragmart_task_spec(task).labels %}

    select
        task,
        annotation_row_id,
        record_uuid,
        {{ 'chunk_id' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        {{ 'chunk_rank' if task == 'retrieval' else 'cast(null as bigint)' }} as chunk_rank,
        annotator_id,
        created_at_utc,
        language,
        {%- for label in labels %}
        {{ label if label in task_labels else 'cast(null as integer)' }} as {{ label }},
        {%- endfor %}
        was_repaired

    from {{ task }}_checks

    {{ 'union all' if not loop.last }}
    {%- endfor %}

),

validated as (

    select
        checked_rows.*,
        row_status.annotation_status,
        row_status.reasons

    from checked_rows
    inner join row_status
        on
            checked_rows.task = row_status.task
            and checked_rows.annotation_row_id = row_status.annotation_row_id

)

select * from validated
