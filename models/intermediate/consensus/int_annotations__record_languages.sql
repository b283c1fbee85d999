{#-
    The language of each record per family (docs/rules.md, Consensus): the one non-empty language
    of its accepted rows in that family; none, or more than one, gives `unknown`.
-#}
with
{%- for task in ragmart_tasks() %}

{{ task }}_annotations as (

    select
        task,
        record_uuid,
        language

    from {{ ref('int_' ~ task ~ '__annotations_validated') }}
    where annotation_status = 'accepted'

),
{%- endfor %}

accepted_annotations as (
    {%- for task in ragmart_tasks() %}

    select * from {{ task }}_annotations
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}

),

final as (

    select
        task,
        record_uuid,
        case when count(distinct language) = 1 then max(language) else 'unknown' end as language

    from accepted_annotations
    group by task, record_uuid

)

select * from final
