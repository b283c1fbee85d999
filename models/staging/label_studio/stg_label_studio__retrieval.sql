{#-
    Label Studio's retrieval export as retrieval rows in the 0005 shape of stg_native__retrieval (every value
    as text): the retrieval rows of stg_label_studio__annotations.
-#}

with

annotations as (

    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'retrieval'

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        {%- for column in ragmart_export_columns('retrieval') %}
        {%- if column.name == 'task' %}
        'retrieval' as task{% if not loop.last %},{% endif %}
        {%- else %}
        {{ column.name }}{% if not loop.last %},{% endif %}
        {%- endif %}
        {%- endfor %}

    from annotations

)

select * from final
