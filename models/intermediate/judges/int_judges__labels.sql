{#-
    One row per accepted row of a judge (an annotator of kind LLM or CODE in the annotators seed,
    whatever its role) and binary label: the base of every judge model. Only the judges' rows of
    int_annotations__accepted_rows (one row per accepted row, every label a column) become one row
    per label of their task, so the HUMAN rows (most of an export) are never multiplied by their
    labels.
-#}
with

judge_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind in ('LLM', 'CODE')

),

task_labels as (
    {{ ragmart_task_labels() }}

),

final as (

    select
        judge_rows.task,
        judge_rows.record_uuid,
        judge_rows.chunk_id,
        judge_rows.chunk_rank,
        judge_rows.annotator_id,
        judge_rows.annotator_kind,
        task_labels.label,
        {{ ragmart_label_value('task_labels.label', 'judge_rows.{label}') | indent(8) }} as label_value

    from judge_rows
    inner join task_labels
        on judge_rows.task = task_labels.task

)

select * from final
