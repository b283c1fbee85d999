{#-
    Label Studio's generation export as generation rows in the 0005 shape of stg_native__generation (every value
    as text): the generation rows of stg_label_studio__annotations.
-#}

with

annotations as (

    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'generation'

),

final as (

    select
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        {%- for column in ragmart_export_columns('generation') %}
        {%- if column.name == 'task' %}
        'generation' as task{% if not loop.last %},{% endif %}
        {%- else %}
        {{ column.name }}{% if not loop.last %},{% endif %}
        {%- endif %}
        {%- endfor %}

    from annotations

)

select * from final
