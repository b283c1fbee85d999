{#-
    The annotators a Phoenix export records that the 0005 annotators input does not list: for
    every annotator id of the labels of the families read from Phoenix, the kind Phoenix records
    with its annotations (`HUMAN`, `LLM`, `CODE`). The annotators input stays optional (for roles:
    Phoenix records no adjudicator); stg_annotation_exports__annotators adds these ids to it in the
    role `annotator`. An unlisted id that Phoenix records with two kinds gives a row for each, and
    assert_annotators_are_valid stops the build naming it.
-#}
{%- set phoenix_families = ragmart_families_in_format('phoenix') %}

with

listed as (

    select * from {{ ref('stg_native__annotators') }}

),

labels as (

    select * from {{ ref('stg_phoenix__labels') }}
    where family in ('{{ phoenix_families | join("', '") }}')

),

final as (

    select distinct
        labels.annotator_id,
        upper({{ ragmart_clean_text('labels.annotator_kind') }}) as annotator_kind,
        labels.source_file

    from labels
    where
        labels.annotator_id is not null
        and labels.annotator_id not in (
            select {{ ragmart_clean_text('listed.annotator_id') }}
            from listed
            where {{ ragmart_clean_text('listed.annotator_id') }} is not null
        )

)

select * from final
