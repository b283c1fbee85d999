{#- The records input (ragmart_source_model: the 0005 records seed or files). -#}

with

source as (

    select * from {{ ragmart_source_model('records') }}

),

renamed as (

    select
        annotation_row_id,
        malformed_record is not null as is_malformed,
        {{ ragmart_clean_text('record_uuid') }} as record_uuid,
        task_type,
        model_uncertainty as model_uncertainty_raw,
        {{ ragmart_parse_decimal('model_uncertainty') }} as model_uncertainty,
        is_adversarial as is_adversarial_raw,
        {{ ragmart_parse_boolean('is_adversarial') }} as is_adversarial,
        tier as tier_raw,
        {{ ragmart_clean_text('tier') }} as tier,
        run_id as run_id_raw,
        {{ ragmart_clean_text('run_id') }} as run_id,
        query_id as query_id_raw,
        {{ ragmart_clean_text('query_id') }} as query_id

    from source

)

select * from renamed
