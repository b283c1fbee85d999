{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the retrieval export with
    its own reason codes, `;`-separated in code order, and its labels after the constraint policy
    (under `repair`, the consequent of a violated implication is set to 1). The checks of the
    labels and of their logical constraints come from the task spec (ragmart_label_checks), those
    of every export from ragmart_common_row_checks; this export's own are written out here.
    Superseding, duplicates and the rank check follow in int_annotations__row_status.
-#}
{%- set labels = ragmart_task_spec('retrieval').labels %}
{%- set checks = ragmart_common_row_checks('retrieval') + ragmart_label_checks('retrieval') + [
    {'code': 'invalid_rank', 'condition': 'not ' ~ ragmart_is_blank('chunk_rank_raw') ~ ' and chunk_rank is null'},
    {'code': 'missing:chunk', 'condition': 'is_missing_chunk'},
    {'code': 'missing:chunk_id', 'condition': 'chunk_id is null'},
    {'code': 'missing:chunk_rank', 'condition': ragmart_is_blank('chunk_rank_raw')},
    {'code': 'missing:input_query', 'condition': 'is_missing_input_query'},
] %}

with

staged as (

    select * from {{ ref('stg_annotation_exports__retrieval') }}

),

checked as (

    select
        staged.*,
        {{ ragmart_reasons_expression(checks | sort(attribute='code')) }} as row_reasons

    from staged

),

repaired as (

    select
        annotation_row_id,
        'retrieval' as task,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        language,
        chunk_rank,
        {{ ragmart_label_signature('retrieval') }} as label_signature,
        {%- for label in labels %}
        {{ ragmart_repaired_label('retrieval', label) }} as {{ label }},
        {%- endfor %}
        {{ ragmart_was_repaired('retrieval') }} as was_repaired,
        row_reasons

    from checked

)

select * from repaired
