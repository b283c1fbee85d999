{#-
    Every distinct (task, text, text_pair) of the training view over every run, from the resolved
    units of the three families (docs/rules.md, Training view: retrieval's chunks,
    int_retrieval__chunk_consensus, and the records of the others, int_records__consensus),
    conflicting or not. text and
    text_pair are the query (input_query) and the chunk (retrieval), the answer and the context set
    (grounding), the query and the answer (generation), each the unit's accepted HUMAN rows' text,
    trimmed, the smallest in byte order when they differ. A label is the consensus value that
    every unit of the pair shares, null when they disagree (has_conflicting_labels) and for the
    labels of another family; each family's mart keeps its pairs whose units agree, the build log
    and the dataset card count the others.
-#}
{%- set labels = ragmart_labels() %}
{%- set retrieval_labels = ragmart_task_spec('retrieval').labels %}
{#- The shares of train, validation and test (setting training_split_shares). -#}
{%- set shares = ragmart_setting('training_split_shares') %}
{#-
    The split of a query key: h = the first 8 hexadecimal digits of md5(key) read as an integer,
    h / 2^32 below the train share is `train`, below train + validation `validation`, else `test`.
    The digits are read one by one (their place in '0123456789abcdef', as bigint: 15 · 16^7 passes
    a 32-bit integer), which every engine does alike.
-#}
{%- set key_hash_digits -%}
(
{%- for i in range(8) %}
cast(position(substr({{ dbt.hash('pairs.query_key') }}, {{ i + 1 }}, 1) in '0123456789abcdef') - 1 as bigint)
* {{ 16 ** (7 - i) }}{% if not loop.last %} +{% endif %}
{%- endfor %}
)
{%- endset %}
with

chunk_consensus as (

    select * from {{ ref('int_retrieval__chunk_consensus') }}
    where is_resolved

),

record_consensus as (

    select * from {{ ref('int_records__consensus') }}
    where is_resolved

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

query_keys as (

    select * from {{ ref('int_training__query_keys') }}

),

{# The accepted HUMAN rows: a unit's annotators, and where its texts are read. #}
human_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

{# Validation carries no long text: the texts are read from the input rows as given. #}
input_rows as (

    select * from {{ ref('base_annotation_exports__input_rows') }}
    where input_name <> 'records'

),

{# text and text_pair: retrieval's query and chunk, grounding's answer and context set, generation's query and answer. #}
input_texts as (

    select
        input_name as task,
        annotation_row_id,
        case input_name
            when 'retrieval' then input_query
            when 'grounding' then answer
            else query
        end as text,
        case input_name
            when 'retrieval' then chunk
            when 'grounding' then context_set
            else answer
        end as text_pair

    from input_rows

),

{#
    The resolved units (every label resolved) with their consensus labels side by side: retrieval's
    chunks and the records of the other tasks; a label of another task is null.
#}
units as (

    select
        'retrieval' as task,
        record_uuid,
        chunk_id as unit_chunk_key,
        {%- for label in labels %}
        {{ label if label in retrieval_labels else 'cast(null as integer)' }} as {{ label }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from chunk_consensus

    union all

    select
        task,
        record_uuid,
        '' as unit_chunk_key,
        {%- for label in labels %}
        {{ 'cast(null as integer)' if label in retrieval_labels else label }} as {{ label }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from record_consensus

),

{# Per resolved unit, its texts; only the rows of resolved units read them. #}
unit_texts as (

    select
        human_rows.task,
        human_rows.record_uuid,
        human_rows.unit_chunk_key,
        {{ ragmart_min_binary(ragmart_clean_text('input_texts.text')) }} as text,
        {{ ragmart_min_binary(ragmart_clean_text('input_texts.text_pair')) }} as text_pair

    from human_rows
    inner join units
        on
            human_rows.task = units.task
            and human_rows.record_uuid = units.record_uuid
            and human_rows.unit_chunk_key = units.unit_chunk_key
    inner join input_texts
        on
            human_rows.task = input_texts.task
            and human_rows.annotation_row_id = input_texts.annotation_row_id
    group by
        human_rows.task,
        human_rows.record_uuid,
        human_rows.unit_chunk_key

),

{# One row per resolved unit: its pair, labels, record and query key. #}
unit_rows as (

    select
        units.task,
        unit_texts.text,
        unit_texts.text_pair,
        units.record_uuid,
        units.unit_chunk_key,
        family_records.run_id,
        family_records.language,
        family_records.tier,
        query_keys.query_key,
        {%- for label in labels %}
        units.{{ label }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from units
    inner join unit_texts
        on
            units.task = unit_texts.task
            and units.record_uuid = unit_texts.record_uuid
            and units.unit_chunk_key = unit_texts.unit_chunk_key
    inner join family_records
        on
            units.task = family_records.task
            and units.record_uuid = family_records.record_uuid
    inner join query_keys
        on
            units.task = query_keys.task
            and units.record_uuid = query_keys.record_uuid

),

{#
    The pairs, over their units (a label, language or tier is the unit's, whatever its
    annotators); another family's label is null in every unit: it neither conflicts nor has a value.
#}
pairs as (

    select
        task,
        text,
        text_pair,
        {%- for label in labels %}
        case when min({{ label }}) = max({{ label }}) then min({{ label }}) end as {{ label }},
        {%- endfor %}
        (
            {%- for label in labels %}
            coalesce(min({{ label }}) <> max({{ label }}), false){% if not loop.last %} or{% endif %}
            {%- endfor %}
        ) as has_conflicting_labels,
        case when min(language) = max(language) then min(language) else 'unknown' end as language,
        case when max(case when tier = 'tier_b' then 1 else 0 end) = 1 then 'tier_b' else 'tier_a' end as tier,
        {{ ragmart_min_binary('query_key') }} as query_key,
        count(*) as n_units,
        {{ ragmart_sorted_set('run_id', ';') }} as run_ids,
        {{ ragmart_sorted_set('record_uuid', ';') }} as record_uuids

    from unit_rows
    group by
        task,
        text,
        text_pair

),

{# The HUMAN annotators, of any role, with an accepted row for any unit of the pair (one each per unit). #}
pair_annotators as (

    select
        unit_rows.task,
        unit_rows.text,
        unit_rows.text_pair,
        count(distinct human_rows.annotator_id) as n_annotators

    from unit_rows
    inner join human_rows
        on
            unit_rows.task = human_rows.task
            and unit_rows.record_uuid = human_rows.record_uuid
            and unit_rows.unit_chunk_key = human_rows.unit_chunk_key
    group by
        unit_rows.task,
        unit_rows.text,
        unit_rows.text_pair

),

final as (

    select
        pairs.task,
        pairs.text,
        pairs.text_pair,
        {%- for label in labels %}
        pairs.{{ label }},
        {%- endfor %}
        pairs.has_conflicting_labels,
        case
            when {{ key_hash_digits }} / 4294967296.0 < {{ shares.train }} then 'train'
            when {{ key_hash_digits }} / 4294967296.0 < {{ shares.train + shares.validation }} then 'validation'
            else 'test'
        end as split,
        pairs.language,
        pairs.tier,
        pairs.query_key,
        pairs.n_units,
        pair_annotators.n_annotators,
        pairs.run_ids,
        pairs.record_uuids

    from pairs
    inner join pair_annotators
        on
            pairs.task = pair_annotators.task
            and pairs.text = pair_annotators.text
            and pairs.text_pair = pair_annotators.text_pair

)

select * from final
