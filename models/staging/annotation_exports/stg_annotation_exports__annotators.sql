{#- The annotators input: the seed or, in files mode, the annotators files read by base_export_files. -#}
{%- set input = ref('base_export_files') if ragmart_input_mode() == 'files' else ref('annotators') %}

with

source as (

    select {{ ragmart_export_select('annotators', input) }}
    from {{ ragmart_input_relation('annotators', input) }}

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
