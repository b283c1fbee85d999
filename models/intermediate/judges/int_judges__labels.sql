{#-
    One row per accepted row of a judge (an annotator of kind LLM or CODE in the annotators seed,
    whatever its role) and binary label, the judges' rows of int_annotations__label_values: what
    int_judges__unit_labels and int_judges__weights read of the judges (int_judges__compared_labels
    reads their wide rows).
-#}
with

label_values as (

    select * from {{ ref('int_annotations__label_values') }}
    where annotator_kind in ('LLM', 'CODE')

),

final as (

    select
        task,
        record_uuid,
        chunk_id,
        chunk_rank,
        unit_chunk_key,
        annotator_id,
        annotator_kind,
        label,
        label_value

    from label_values

)

select * from final
