{#-
    Every distinct (text, text_pair) of the generation training view over every run, from the
    resolved records (docs/rules.md, Training view), conflicting or not: text is the
    query, text_pair the answer, each the unit's accepted HUMAN rows' text, trimmed, the
    smallest in byte order when they differ. A label is the consensus value that every unit of the
    pair shares, null when they disagree (has_conflicting_labels); the mart keeps the pairs whose
    units agree, the build log and the dataset card count the others.
-#}
with

units as (

    select * from {{ ref('int_generation__records') }}
    where is_resolved

),

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'generation'

),

query_keys as (

    select * from {{ ref('int_training__query_keys') }}
    where task = 'generation'

),

{# The accepted HUMAN rows of the task: a unit's annotators, and where its texts are read. #}
human_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where
        task = 'generation'
        and annotator_kind = 'HUMAN'

),

{# Validation carries no long text: the texts are read from the staged input rows. #}
input_rows as (

    select * from {{ ragmart_source_model('generation') }}

),

{# Per resolved record, its texts; only the rows of resolved records read them. #}
unit_texts as (

    select
        human_rows.record_uuid,
        human_rows.unit_chunk_key,
        {{ ragmart_min_binary(ragmart_clean_text('input_rows.query')) }} as text,
        {{ ragmart_min_binary(ragmart_clean_text('input_rows.answer')) }} as text_pair,
        min(human_rows.annotator_id) as first_annotator_id

    from human_rows
    inner join units
        on
            human_rows.record_uuid = units.record_uuid
            and human_rows.unit_chunk_key = ''
    inner join input_rows
        on human_rows.annotation_row_id = input_rows.annotation_row_id
    group by
        human_rows.record_uuid,
        human_rows.unit_chunk_key

),

{#
    One row per resolved record and HUMAN annotator with an accepted row for it (validation keeps
    one per annotator and unit), with the unit's pair, labels and record; the unit's first row
    counts the unit: the row of its smallest annotator_id.
-#}
unit_annotators as (

    select
        unit_texts.text,
        unit_texts.text_pair,
        units.record_uuid,
        family_records.run_id,
        family_records.language,
        family_records.tier,
        query_keys.query_key,
        {{ ragmart_label_columns('generation', 'units') }},
        human_rows.annotator_id,
        human_rows.annotator_id = unit_texts.first_annotator_id as is_first_row_of_unit

    from units
    inner join unit_texts
        on
            units.record_uuid = unit_texts.record_uuid
            and unit_texts.unit_chunk_key = ''
    inner join family_records
        on units.record_uuid = family_records.record_uuid
    inner join query_keys
        on units.record_uuid = query_keys.record_uuid
    inner join human_rows
        on
            units.record_uuid = human_rows.record_uuid
            and human_rows.unit_chunk_key = ''

),

pairs as (

    select
        text,
        text_pair,
        {%- for label in ragmart_task_spec('generation').labels %}
        case when min({{ label }}) = max({{ label }}) then min({{ label }}) end as {{ label }},
        {%- endfor %}
        (
            {%- for label in ragmart_task_spec('generation').labels %}
            min({{ label }}) <> max({{ label }}){% if not loop.last %} or{% endif %}
            {%- endfor %}
        ) as has_conflicting_labels,
        case when min(language) = max(language) then min(language) else 'unknown' end as language,
        case when max(case when tier = 'tier_b' then 1 else 0 end) = 1 then 'tier_b' else 'tier_a' end as tier,
        {{ ragmart_min_binary('query_key') }} as query_key,
        sum(case when is_first_row_of_unit then 1 else 0 end) as n_units,
        count(distinct annotator_id) as n_annotators,
        {{ ragmart_sorted_set('run_id', ';') }} as run_ids,
        {{ ragmart_sorted_set('record_uuid', ';') }} as record_uuids

    from unit_annotators
    group by
        text,
        text_pair

),

final as (

    select
        text,
        text_pair,
        {{ ragmart_label_columns('generation') }},
        has_conflicting_labels,
        {{ ragmart_training_split('query_key') }} as split,
        language,
        tier,
        query_key,
        n_units,
        n_annotators,
        run_ids,
        record_uuids

    from pairs

)

select * from final
