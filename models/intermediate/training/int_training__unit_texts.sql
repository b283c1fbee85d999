{#-
    The texts of every unit for the training view (docs/rules.md, Training view): per unit (a
    retrieval chunk of a record, or a grounding or generation record), the text and text_pair of
    its accepted HUMAN rows, trimmed, the smallest in byte order when they differ (retrieval: the
    query and the chunk; grounding: the answer and the context set; generation: the query and the
    answer), and how many HUMAN annotators, of any role, have an accepted row for the unit. The
    texts are read from the staged rows of each input (ragmart_source_model), since validation
    carries no long text.
-#}
{%- set text_columns = {
    'retrieval': ('input_query', 'chunk'),
    'grounding': ('answer', 'context_set'),
    'generation': ('query', 'answer'),
} %}

with

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

input_texts as (
    {%- for task in ragmart_tasks() %}

    select
        '{{ task }}' as task,
        annotation_row_id,
        {{ ragmart_clean_text(text_columns[task][0]) }} as unit_text,
        {{ ragmart_clean_text(text_columns[task][1]) }} as unit_text_pair

    from {{ ragmart_source_model(task) }}
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

unit_rows as (

    select
        accepted_rows.task,
        accepted_rows.record_uuid,
        accepted_rows.unit_chunk_key,
        accepted_rows.annotator_id,
        input_texts.unit_text,
        input_texts.unit_text_pair

    from accepted_rows
    inner join input_texts
        on
            accepted_rows.task = input_texts.task
            and accepted_rows.annotation_row_id = input_texts.annotation_row_id

),

final as (

    select
        task,
        record_uuid,
        unit_chunk_key,
        min({{ ragmart_collate_binary('unit_text') }}) as unit_text,
        min({{ ragmart_collate_binary('unit_text_pair') }}) as unit_text_pair,
        -- one accepted row per annotator and unit (validation keeps one): the rows count the annotators
        count(*) as n_annotators

    from unit_rows
    group by
        task,
        record_uuid,
        unit_chunk_key

)

select * from final
