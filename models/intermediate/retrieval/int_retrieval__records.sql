{#-
    One row per retrieval record (query): its judged chunks, whether all are resolved, its language,
    its evaluation run and its pairing key (int_records__runs).
-#}
with

chunk_consensus as (

    select * from {{ ref('int_retrieval__chunk_consensus') }}

),

record_languages as (

    select * from {{ ref('int_annotations__record_languages') }}
    where task = 'retrieval'

),

record_runs as (

    select * from {{ ref('int_records__runs') }}
    where task = 'retrieval'

),

records as (

    select
        record_uuid,
        count(*) as n_judged_chunks,
        min(case when is_resolved then 1 else 0 end) = 1 as is_resolved

    from chunk_consensus
    group by record_uuid

),

final as (

    select
        records.record_uuid,
        records.n_judged_chunks,
        records.is_resolved,
        record_runs.run_id,
        record_runs.pairing_key,
        coalesce(record_languages.language, 'unknown') as language

    from records
    left join record_languages
        on records.record_uuid = record_languages.record_uuid
    left join record_runs
        on records.record_uuid = record_runs.record_uuid

)

select * from final
