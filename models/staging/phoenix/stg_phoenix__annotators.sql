{#-
    The annotators of a Phoenix export: the rows of the 0005 annotators input (optional here, for
    roles: Phoenix records no adjudicator), and for every annotator id of the labels that it does
    not list, the kind Phoenix records with its annotations (`HUMAN`, `LLM`, `CODE`) in the role
    `annotator`. An unlisted id that Phoenix records with two kinds gives a row for each, and
    assert_annotators_are_valid stops the build naming it.
-#}

with

listed as (

    select * from {{ ref('stg_native__annotators') }}

),

labels as (

    select * from {{ ref('stg_phoenix__labels') }}

),

recorded as (

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

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        annotator_id,
        annotator_kind,
        role,
        display_name

    from listed

    union all

    select
        cast(null as bigint) as annotation_row_id,
        source_file,
        cast(null as bigint) as source_row,
        cast(null as {{ dbt.type_string() }}) as malformed_record,
        annotator_id,
        annotator_kind,
        'annotator' as role,
        cast(null as {{ dbt.type_string() }}) as display_name

    from recorded

)

select * from final
