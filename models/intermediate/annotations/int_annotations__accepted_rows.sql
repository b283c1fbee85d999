{#-
    The accepted rows of every task, one row each, with the unit, the annotator's kind and role,
    the instant and every binary label as a column (a label of another task is null). An
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

retrieval_validated as (

    select * from {{ ref('int_retrieval__annotations_validated') }}
    where annotation_status = 'accepted'

),

grounding_validated as (

    select * from {{ ref('int_grounding__annotations_validated') }}
    where annotation_status = 'accepted'

),

generation_validated as (

    select * from {{ ref('int_generation__annotations_validated') }}
    where annotation_status = 'accepted'

),

annotators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}

),

accepted_rows as (
    {%- for task in ragmart_tasks() %}
    {%- set labels = ragmart_task_spec(task).labels %}

    select
        '{{ task }}' as task,
        annotation_row_id,
        record_uuid,
        {{ 'chunk_id' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        {{ 'chunk_rank' if task == 'retrieval' else 'cast(null as bigint)' }} as chunk_rank,
        annotator_id,
        created_at_utc,
        language,
        {%- for label in ragmart_labels() %}
        {{ label if label in labels else 'cast(null as integer)' }} as {{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ task }}_validated

    {{ 'union all' if not loop.last }}
    {%- endfor %}

),

final as (

    select
        accepted_rows.*,
        coalesce(accepted_rows.chunk_id, '') as unit_chunk_key,
        coalesce(annotators.annotator_kind, 'HUMAN') as annotator_kind,
        coalesce(annotators.annotator_role, 'annotator') as annotator_role

    from accepted_rows
    left join annotators
        on accepted_rows.annotator_id = annotators.annotator_id

)

select * from final
