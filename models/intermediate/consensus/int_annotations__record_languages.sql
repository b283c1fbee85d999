{#-
    The language of each record per family (docs/rules.md, Consensus): the one non-empty language
    of its accepted rows in that family (any annotator kind); none, or more than one, gives
    `unknown`.
-#}
with

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}

),

final as (

    select
        task,
        record_uuid,
        case when count(distinct language) = 1 then max(language) else 'unknown' end as language

    from accepted_rows
    group by task, record_uuid

)

select * from final
