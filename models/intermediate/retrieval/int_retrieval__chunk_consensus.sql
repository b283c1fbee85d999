{#- One row per judged chunk (retrieval unit): its rank, consensus labels (every label of the task spec) and relevance grade. -#}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where task = 'retrieval'

),

unit_consensus as (

    {{ ragmart_unit_consensus('retrieval', 'label_consensus') }}

),

accepted_annotations as (

    select * from {{ ref('int_annotations__validated') }}
    where
        task = 'retrieval'
        and annotation_status = 'accepted'

),

chunk_ranks as (

    select
        record_uuid,
        chunk_id,
        max(chunk_rank) as chunk_rank

    from accepted_annotations
    group by record_uuid, chunk_id

),

final as (

    select
        unit_consensus.record_uuid,
        unit_consensus.chunk_id,
        chunk_ranks.chunk_rank,
        {%- for label in ragmart_task_spec('retrieval').labels %}
        unit_consensus.{{ label }},
        {%- endfor %}
        {{ ragmart_relevance_grade('unit_consensus.evidence_sufficient', 'unit_consensus.topically_relevant') }}
            as relevance_grade,
        unit_consensus.is_resolved

    from unit_consensus
    inner join chunk_ranks
        on
            unit_consensus.record_uuid = chunk_ranks.record_uuid
            and unit_consensus.chunk_id = chunk_ranks.chunk_id

)

select * from final
