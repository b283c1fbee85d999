{#-
    The records input: the 0005 records seed or files (stg_native__records), or, when Langfuse is
    read for some family, the same rows with the runs Langfuse records (stg_langfuse__records), or
    when MLflow is, with the runs and query ids MLflow records (stg_mlflow__records, which starts
    from Langfuse's rows when both are read);
    one row per distinct row: the exact copies that base_annotation_exports__annotations finds, as
    for the exports (docs/rules.md, Daily exports), are left out.
-#}

with

source as (

    {%- if 'mlflow' in ragmart_input_formats().values() %}
    select * from {{ ref('stg_mlflow__records') }}
    {%- elif 'langfuse' in ragmart_input_formats().values() %}
    select * from {{ ref('stg_langfuse__records') }}
    {%- else %}
    select * from {{ ref('stg_native__records') }}
    {%- endif %}

),

repeated_rows as (

    select annotation_row_id from {{ ref('base_annotation_exports__annotations') }}
    where family = 'records' and is_repeated_row

),

renamed as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record is not null as is_malformed,
        {{ ragmart_clean_text('record_uuid') }} as record_uuid,
        task_type,
        model_uncertainty as model_uncertainty_raw,
        {#- a decimal number (optional sign, digits with an optional fraction) after trimming, else null #}
        case
            when {{ ragmart_regex_full_match(ragmart_trim('model_uncertainty'), '[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)') }}
                then cast({{ ragmart_trim('model_uncertainty') }} as {{ ragmart_type_double() }})
        end as model_uncertainty,
        is_adversarial as is_adversarial_raw,
        {{ ragmart_parse_boolean('is_adversarial') }} as is_adversarial,
        tier as tier_raw,
        {{ ragmart_clean_text('tier') }} as tier,
        run_id as run_id_raw,
        {{ ragmart_clean_text('run_id') }} as run_id,
        query_id as query_id_raw,
        {{ ragmart_clean_text('query_id') }} as query_id

    from source
    where annotation_row_id not in (select repeated_rows.annotation_row_id from repeated_rows)

)

select * from renamed
