{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the grounding export with
    its own reason codes, `;`-separated in code order, and its labels after the constraint policy
    (under `repair`, the consequent of a violated implication is set to 1). The checks of the
    labels and of their logical constraints come from the task spec (ragmart_label_checks), those
    of every export from ragmart_common_row_checks; this export's own are written out here.
    Superseding, duplicates and the rest of the status follow in int_annotations__row_status.
-#}
{%- set labels = ragmart_task_spec('grounding').labels %}
{%- set checks = ragmart_common_row_checks('grounding') + ragmart_label_checks('grounding') + [
    {'code': 'missing:answer', 'condition': 'is_missing_answer'},
    {'code': 'missing:context_set', 'condition': 'is_missing_context_set'},
    {'code': 'missing:query', 'condition': 'is_missing_query'},
] %}

with

staged as (

    select * from {{ ref('stg_annotation_exports__grounding') }}

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
        'grounding' as task,
        record_uuid,
        annotator_id,
        created_at_utc,
        language,
        {{ ragmart_label_signature('grounding') }} as label_signature,
        {%- for label in labels %}
        {{ ragmart_repaired_label('grounding', label) }} as {{ label }},
        {%- endfor %}
        {{ ragmart_was_repaired('grounding') }} as was_repaired,
        row_reasons

    from checked

)

select * from repaired
