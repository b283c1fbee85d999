{#-
    The grounding training view (docs/rules.md, Training view): one row per resolved record, from
    the human consensus only, in the text / text_pair convention of Hugging Face: text is the answer, text_pair the context set
    (int_training__unit_texts), every label its consensus value 0 or 1, with the record's run,
    language and ADR-001 tier, and its split (train, validation, test) by its pairing key.
-#}
with

units as (

    select * from {{ ref('int_grounding__records') }}
    where is_resolved

),

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'grounding'

),

texts as (

    select * from {{ ref('int_training__unit_texts') }}
    where task = 'grounding'

),

final as (

    select
        cast(family_records.run_id as {{ dbt.type_string() }}) as run_id,
        cast(units.record_uuid as {{ dbt.type_string() }}) as record_uuid,

        cast(family_records.language as {{ dbt.type_string() }}) as language,
        cast(family_records.tier as {{ dbt.type_string() }}) as tier,
        cast({{ ragmart_training_split('family_records.pairing_key') }} as {{ dbt.type_string() }}) as split,
        cast(texts.unit_text as {{ dbt.type_string() }}) as text,
        cast(texts.unit_text_pair as {{ dbt.type_string() }}) as text_pair,
        {%- for label in ragmart_task_spec('grounding').labels %}
        cast(units.{{ label }} as integer) as {{ label }},
        {%- endfor %}
        cast(texts.n_annotators as integer) as n_annotators

    from units
    inner join family_records
        on units.record_uuid = family_records.record_uuid
    inner join texts
        on
            units.record_uuid = texts.record_uuid
            and texts.unit_chunk_key = ''

)

select * from final
