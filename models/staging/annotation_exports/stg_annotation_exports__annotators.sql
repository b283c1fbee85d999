{#-
    The annotators input (ragmart_source_model: the 0005 annotators seed or files, and for a tool
    that records annotator kinds the ids it records). One row per listing (annotator_id, kind, role): rows that list an annotator
    the same way count once, however many files or copies hold them (several daily copies of one
    list in a folder), and the files they came from are kept. An id listed with two kinds or
    roles keeps a row for each, which assert_annotators_are_valid stops on, naming the files.
-#}

with

source as (

    select * from {{ ragmart_source_model('annotators') }}

),

renamed as (

    select
        {{ ragmart_clean_text('annotator_id') }} as annotator_id,
        upper({{ ragmart_clean_text('annotator_kind') }}) as annotator_kind,
        lower({{ ragmart_clean_text('role') }}) as annotator_role,
        {{ ragmart_clean_text('display_name') }} as display_name,
        source_file

    from source

),

listings_per_file as (

    select
        annotator_id,
        annotator_kind,
        annotator_role,
        source_file,
        min(display_name) as display_name,
        count(*) as n_rows

    from renamed
    group by
        annotator_id,
        annotator_kind,
        annotator_role,
        source_file

),

final as (

    select
        annotator_id,
        annotator_kind,
        annotator_role,
        min(display_name) as display_name,
        {{ ragmart_sorted_list('source_file', ';') }} as source_files,
        sum(n_rows) as n_listed_rows

    from listings_per_file
    group by
        annotator_id,
        annotator_kind,
        annotator_role

)

select * from final
