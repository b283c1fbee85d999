{#-
    Step 1 of the row status (docs/rules.md, Row status): every row of the generation export with
    its own reason codes, `;`-separated in code order (generation has no logical constraint). The
    checks of the labels come from the task spec (ragmart_label_checks), those of every export
    from ragmart_common_row_checks; this export's own are written out here.
    Superseding, duplicates and the rest of the status follow in int_annotations__row_status.
-#}
{%- set labels = ragmart_task_spec('generation').labels %}
{%- set checks = ragmart_common_row_checks('generation') + ragmart_label_checks('generation') + [
    {'code': 'missing:answer', 'condition': 'is_missing_answer'},
    {'code': 'missing:query', 'condition': 'is_missing_query'},
] %}

with

staged as (

    select * from {{ ref('stg_annotation_exports__generation') }}

),

checked as (

    select
        annotation_row_id,
        'generation' as task,
        record_uuid,
        annotator_id,
        created_at_utc,
        language,
        {{ ragmart_label_signature('generation') }} as label_signature,
        {%- for label in labels %}
        {{ ragmart_repaired_label('generation', label) }} as {{ label }},
        {%- endfor %}
        {{ ragmart_was_repaired('generation') }} as was_repaired,
        {{ ragmart_reasons_expression(checks | sort(attribute='code')) }} as row_reasons

    from staged

)

select * from checked
