{#-
    The retrieval measures of ADR 0002 for every resolved record and every K of the var
    retrieval_k_values, computed by the macros of macros/metrics.
-#}
with

chunk_consensus as (

    select * from {{ ref('int_retrieval__chunk_consensus') }}

),

records as (

    select * from {{ ref('int_retrieval__records') }}
    where is_resolved

),

k_values as (

    {{ ragmart_k_values_relation() }}

),

resolved_chunks as (

    select
        chunk_consensus.record_uuid,
        chunk_consensus.chunk_rank,
        chunk_consensus.topically_relevant,
        chunk_consensus.evidence_sufficient,
        chunk_consensus.misleading,
        chunk_consensus.relevance_grade,
        {{ ragmart_ideal_rank('chunk_consensus.relevance_grade', 'chunk_consensus.record_uuid') }} as ideal_rank

    from chunk_consensus
    inner join records
        on chunk_consensus.record_uuid = records.record_uuid

),

scored as (

    select
        resolved_chunks.record_uuid,
        k_values.k,
        {{ ragmart_rate_at_k('resolved_chunks.topically_relevant', 'resolved_chunks.chunk_rank', 'k_values.k') }}
            as topical_precision,
        {{ ragmart_hit_at_k('resolved_chunks.evidence_sufficient', 'resolved_chunks.chunk_rank', 'k_values.k') }}
            as sufficiency_hit,
        {{ ragmart_rate_at_k('resolved_chunks.evidence_sufficient', 'resolved_chunks.chunk_rank', 'k_values.k') }}
            as sufficiency_rate,
        {{ ragmart_rate_at_k('resolved_chunks.misleading', 'resolved_chunks.chunk_rank', 'k_values.k') }}
            as misleading_context_rate,
        {{ ragmart_reciprocal_rank_at_k('resolved_chunks.topically_relevant', 'resolved_chunks.chunk_rank', 'k_values.k') }}
            as reciprocal_rank,
        {{ ragmart_dcg_at_k('resolved_chunks.relevance_grade', 'resolved_chunks.chunk_rank', 'k_values.k') }}
            as dcg,
        {{ ragmart_dcg_at_k('resolved_chunks.relevance_grade', 'resolved_chunks.ideal_rank', 'k_values.k') }}
            as idcg

    from resolved_chunks
    cross join k_values
    group by resolved_chunks.record_uuid, k_values.k

),

final as (

    select
        scored.record_uuid,
        scored.k,
        records.language,
        scored.topical_precision,
        scored.sufficiency_hit,
        scored.sufficiency_rate,
        scored.misleading_context_rate,
        scored.reciprocal_rank,
        scored.dcg,
        scored.idcg,
        {{ ragmart_ndcg('scored.dcg', 'scored.idcg') }} as ndcg

    from scored
    inner join records
        on scored.record_uuid = records.record_uuid

)

select * from final
