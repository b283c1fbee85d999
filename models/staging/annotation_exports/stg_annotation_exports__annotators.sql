with

source as (

    select {{ ragmart_export_select('annotators') }}
    from {{ ragmart_input_relation('annotators') }}

),

renamed as (

    select
        {{ ragmart_clean_text('annotator_id') }} as annotator_id,
        upper({{ ragmart_clean_text('annotator_kind') }}) as annotator_kind,
        lower({{ ragmart_clean_text('role') }}) as annotator_role,
        {{ ragmart_clean_text('display_name') }} as display_name

    from source

)

select * from renamed
