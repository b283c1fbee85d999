{#-
    The accepted rows of every task (int_annotations__validated), one row each, with the unit,
    the annotator's kind and role, the instant and every binary label as a column (a label of
    another task is null). An
    annotator id not in the annotators input counts as a HUMAN in the role `annotator`. The
    consensus and the pair agreement count its HUMAN votes in wide form, every label a column, for
    all tasks at once; annotator_quality, int_judges__compared_labels and int_judges__unit_labels
    meet each HUMAN vote row and each judge row with its unit's consensus rows, and the judges'
    weighted vote sums the judges' rows per unit in wide form too; the record grain, the
    agreement's voter counts and the judges' tasks read it a row at a time. A view: no copy of the
    accepted rows is written, and each reader reads only the columns it needs.
-#}
{{ config(materialized='view') }}

with

accepted_validated as (

    select * from {{ ref('int_annotations__validated') }}
    where annotation_status = 'accepted'

),

annotators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}

),

final as (

    select
        accepted_validated.task,
        accepted_validated.annotation_row_id,
        accepted_validated.record_uuid,
        accepted_validated.chunk_id,
        accepted_validated.chunk_rank,
        accepted_validated.annotator_id,
        accepted_validated.created_at_utc,
        accepted_validated.language,
        {%- for label in ragmart_labels() %}
        accepted_validated.{{ label }},
        {%- endfor %}
        coalesce(accepted_validated.chunk_id, '') as unit_chunk_key,
        coalesce(annotators.annotator_kind, 'HUMAN') as annotator_kind,
        coalesce(annotators.annotator_role, 'annotator') as annotator_role

    from accepted_validated
    left join annotators
        on accepted_validated.annotator_id = annotators.annotator_id

)

select * from final
