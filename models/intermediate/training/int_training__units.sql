{#-
    The training view's units (docs/rules.md, Training view): one row per resolved unit of the
    three families, retrieval's chunks (int_retrieval__chunk_consensus) and the records of the
    others (int_records__consensus), with its pair (text, text_pair), its consensus labels, and
    its record's run, language and tier. text and text_pair are the query (input_query) and the
    chunk (retrieval), the answer and the context set (grounding), the query and the answer
    (generation), each the unit's accepted HUMAN rows' text, trimmed, the smallest in byte order
    when they differ. The training pairs group these rows by (task, text, text_pair); the query
    groups link records through them; make export-gold lists them as each gold line's units.
-#}
{%- set labels = ragmart_labels() %}
{%- set retrieval_labels = ragmart_task_spec('retrieval').labels %}
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

{# The accepted HUMAN rows: where a unit's texts are read. #}
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

final as (

    select
        units.task,
        unit_texts.text,
        unit_texts.text_pair,
        units.record_uuid,
        units.unit_chunk_key,
        family_records.run_id,
        family_records.language,
        family_records.tier,
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

)

select * from final
