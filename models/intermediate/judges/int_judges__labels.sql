{#-
    One row per accepted row of a judge (an annotator of kind LLM or CODE in the annotators seed,
    whatever its role) and binary label: the base of every judge model. Each task's validated
    rows are joined to the annotators in wide form and only the judges' rows are unpivoted, so
    the HUMAN rows (most of an export) are read once and never multiplied by their labels.
-#}
with

judges as (

    select * from {{ ref('stg_annotation_exports__annotators') }}
    where annotator_kind in ('LLM', 'CODE')

),
{%- for task in ragmart_tasks() %}
{%- set spec = ragmart_task_spec(task) %}

{{ task }}_judge_rows as (

    select
        validated.record_uuid,
        {{ 'validated.chunk_id' if 'chunk_id' in spec.unit_columns else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as chunk_id,
        {{ 'validated.chunk_rank' if task == 'retrieval' else 'cast(null as ' ~ dbt.type_bigint() ~ ')' }} as chunk_rank,
        validated.annotator_id,
        judges.annotator_kind,
        {%- for label in spec.labels %}
        validated.{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ ref('int_' ~ task ~ '__annotations_validated') }} as validated
    inner join judges
        on validated.annotator_id = judges.annotator_id
    where validated.annotation_status = 'accepted'

),
{%- endfor %}

unpivoted as (
    {{- ragmart_unpivot_labels('{task}_judge_rows', [
        'record_uuid',
        'chunk_id',
        'chunk_rank',
        'annotator_id',
        'annotator_kind',
        '{label} as label_value',
    ]) }}

),

final as (

    select
        task,
        record_uuid,
        chunk_id,
        chunk_rank,
        annotator_id,
        annotator_kind,
        label,
        label_value

    from unpivoted

)

select * from final
