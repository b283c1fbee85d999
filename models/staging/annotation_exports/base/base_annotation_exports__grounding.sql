{#-
    The grounding export as read, narrowed: the row id, where the row came from, the short columns as
    given (text) and a blank flag per long text; see the model's docs for why this is a table of
    its own. The rows come from the source system of the var input_format (ragmart_source_model).
-#}

with

source as (

    select * from {{ ragmart_source_model('grounding') }}

),

narrowed as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record is not null as is_malformed,
        record_uuid,
        annotator_id,
        task,
        language,
        created_at,
        {%- for label in ragmart_task_spec('grounding').labels %}
        {{ label }},
        {%- endfor %}
        query,
        {{ ragmart_is_blank('query') }} as is_missing_query,
        {{ ragmart_is_blank('answer') }} as is_missing_answer,
        {{ ragmart_is_blank('context_set') }} as is_missing_context_set

    from source

)

select * from narrowed
