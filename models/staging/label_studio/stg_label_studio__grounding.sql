{#-
    Label Studio's grounding export as grounding rows in the 0005 shape of stg_native__grounding (every value
    as text): the grounding rows of stg_label_studio__annotations.
-#}

with

annotations as (

    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'grounding'

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        {%- for column in ragmart_export_columns('grounding') %}
        {%- if column.name == 'task' %}
        'grounding' as task{% if not loop.last %},{% endif %}
        {%- else %}
        {{ column.name }}{% if not loop.last %},{% endif %}
        {%- endif %}
        {%- endfor %}

    from annotations

)

select * from final
