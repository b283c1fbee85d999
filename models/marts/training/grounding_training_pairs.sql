{#-
    The grounding training view (docs/rules.md, Training view): one row per resolved record, from
    the human consensus only, in the text / text_pair convention of Hugging Face: text is the
    answer, text_pair the context set, each read from the staged input rows of the record's
    accepted HUMAN rows; every label its consensus value 0 or 1, with the record's run, language
    and ADR-001 tier, and its split (train, validation, test) by its pairing key.
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

{# The accepted HUMAN rows of the task: a unit's annotators, and where its texts are read. #}
human_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where
        task = 'grounding'
        and annotator_kind = 'HUMAN'

),

{# Validation carries no long text: the texts are read from the staged input rows. #}
input_rows as (

    select * from {{ ragmart_source_model('grounding') }}

),

{#
    Per resolved unit, the trimmed texts of its accepted HUMAN rows, the smallest in byte order
    when they differ; one accepted row per annotator and unit (validation keeps one): the rows
    count the annotators. Only the rows of resolved units read their texts.
#}
texts as (

    select
        human_rows.record_uuid,
        human_rows.unit_chunk_key,
        {{ ragmart_min_binary(ragmart_clean_text('input_rows.answer')) }} as unit_text,
        {{ ragmart_min_binary(ragmart_clean_text('input_rows.context_set')) }} as unit_text_pair,
        count(*) as n_annotators

    from human_rows
    inner join units
        on
            human_rows.record_uuid = units.record_uuid
    inner join input_rows
        on human_rows.annotation_row_id = input_rows.annotation_row_id
    group by
        human_rows.record_uuid,
        human_rows.unit_chunk_key

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
