{#-
    The retrieval measures of ADR 0002 for every resolved record and every K of the var
    retrieval_k_values, computed by the macros of macros/metrics.
-#}
with

chunk_consensus as (

    select * from {{ ref('int_retrieval__chunk_consensus') }}

),

records as (

    select * from {{ ref('int_records__per_family') }}
    where task = 'retrieval' and is_resolved

),

resolved_chunks as (

    select chunk_consensus.*

    from chunk_consensus
    inner join records
        on chunk_consensus.record_uuid = records.record_uuid

),

scored as (

    {{ ragmart_retrieval_record_scores('resolved_chunks') }}

),

final as (

    -- scored: record_uuid, k and every retrieval measure's per-record column, with dcg and idcg
    select
        scored.*,
        records.language,
        records.run_id,
        records.pairing_key

    from scored
    inner join records
        on scored.record_uuid = records.record_uuid

)

select * from final
