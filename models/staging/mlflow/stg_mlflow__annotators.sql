{#-
    The annotators an MLflow export records that the 0005 annotators input does not list: for every
    source_id of the feedback read for the families read from MLflow, the kind of its source
    (`HUMAN`, `LLM` for `LLM_JUDGE`, `CODE`). The annotators input stays optional (for roles: MLflow
    records none); stg_annotation_exports__annotators adds these ids to it in the role `annotator`.
    An unlisted id that MLflow records with two source types gives a row for each, and
    assert_annotators_are_valid stops the build naming it.
-#}
{%- set mlflow_families = ragmart_families_in_format('mlflow') %}

with

listed as (

    select * from {{ ref('stg_native__annotators') }}

),

feedback as (

    select * from {{ ref('stg_mlflow__feedback') }}
    where is_latest and read_as in ('{{ mlflow_families | join("', '") }}')

),

final as (

    select distinct
        feedback.annotator_id,
        feedback.annotator_kind,
        feedback.source_file

    from feedback
    where
        feedback.annotator_id is not null
        and feedback.annotator_id not in (
            select {{ ragmart_clean_text('listed.annotator_id') }}
            from listed
            where {{ ragmart_clean_text('listed.annotator_id') }} is not null
        )

)

select * from final
