{#-
    The annotators a Langfuse export records that the 0005 annotators input does not list: each
    annotator id of the label scores of the families read from Langfuse, with the kind its scores'
    `source` implies (ANNOTATION HUMAN, EVAL LLM, API CODE). stg_annotation_exports__annotators adds
    these ids in the role `annotator` (Langfuse records no roles). An unlisted id with scores of two
    sources gives a row for each, and assert_annotators_are_valid stops the build naming it.
-#}

with

listed as (

    select * from {{ ref('stg_native__annotators') }}

),

scores as (

    select * from {{ ref('stg_langfuse__scores') }}
    where family <> 'notes'

),

final as (

    select distinct
        scores.annotator_id,
        scores.annotator_kind,
        scores.source_file

    from scores
    where
        scores.annotator_id is not null
        and scores.annotator_kind is not null
        and scores.annotator_id not in (
            select {{ ragmart_clean_text('listed.annotator_id') }}
            from listed
            where {{ ragmart_clean_text('listed.annotator_id') }} is not null
        )

)

select * from final
