{#-
    One row per accepted row and binary label of its task, the label's value in one column: the
    long form of int_annotations__accepted_rows, of which int_judges__labels keeps the LLM and
    CODE rows. A view, like the accepted rows.
-#}
{{ config(materialized='view') }}

with

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}

),

task_labels as (
    {{ ragmart_task_labels() }}

),

final as (

    select
        accepted_rows.task,
        accepted_rows.record_uuid,
        accepted_rows.chunk_id,
        accepted_rows.chunk_rank,
        accepted_rows.unit_chunk_key,
        accepted_rows.annotator_id,
        accepted_rows.annotator_kind,
        accepted_rows.annotator_role,
        accepted_rows.created_at_utc,
        task_labels.label,
        {{ ragmart_label_value('task_labels.label', 'accepted_rows.{label}') | indent(8) }} as label_value

    from accepted_rows
    inner join task_labels
        on accepted_rows.task = task_labels.task

)

select * from final
