{#-
    One row per label source, record and metric (and K for retrieval), with the record's run: the
    record's value of the metric computed from the judges' labels of int_judges__unit_labels, by the same macros as the
    human consensus (int_metrics__record_values). Records whose units are not all resolved (a
    tied weighted vote) are left out, as pending human records are.
-#}
with

unit_labels as (

    select * from {{ ref('int_judges__unit_labels') }}

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

{# A chunk's rank is the same on every accepted row of its record (the rank check of validation). #}
retrieval_units as (

    {{ ragmart_unit_consensus('retrieval', 'unit_labels', ['label_source', 'source_id', 'chunk_rank']) }}

),

retrieval_chunks as (

    select
        retrieval_units.label_source,
        retrieval_units.source_id,
        retrieval_units.record_uuid,
        retrieval_units.chunk_rank,
        retrieval_units.topically_relevant,
        retrieval_units.evidence_sufficient,
        retrieval_units.misleading,
        {{ ragmart_relevance_grade('retrieval_units.evidence_sufficient', 'retrieval_units.topically_relevant') }}
            as relevance_grade,
        retrieval_units.is_resolved

    from retrieval_units

),

retrieval_records as (

    select
        label_source,
        source_id,
        record_uuid

    from retrieval_chunks
    group by label_source, source_id, record_uuid
    having min(case when is_resolved then 1 else 0 end) = 1

),

resolved_chunks as (

    select retrieval_chunks.*

    from retrieval_chunks
    inner join retrieval_records
        on
            retrieval_chunks.label_source = retrieval_records.label_source
            and retrieval_chunks.source_id = retrieval_records.source_id
            and retrieval_chunks.record_uuid = retrieval_records.record_uuid

),

retrieval_scored as (

    {{ ragmart_retrieval_record_scores('resolved_chunks', ['label_source', 'source_id']) }}

),

retrieval_resolved as (

    select
        retrieval_scored.*,
        family_records.run_id,
        family_records.language

    from retrieval_scored
    inner join family_records
        on
            family_records.task = 'retrieval'
            and retrieval_scored.record_uuid = family_records.record_uuid

),

grounding_units as (

    {{ ragmart_unit_consensus('grounding', 'unit_labels', ['label_source', 'source_id']) }}

),

grounding_resolved as (

    select
        grounding_units.*,
        family_records.run_id,
        family_records.language

    from grounding_units
    inner join family_records
        on
            family_records.task = 'grounding'
            and grounding_units.record_uuid = family_records.record_uuid
    where grounding_units.is_resolved

),

generation_units as (

    {{ ragmart_unit_consensus('generation', 'unit_labels', ['label_source', 'source_id']) }}

),

generation_resolved as (

    select
        generation_units.*,
        family_records.run_id,
        family_records.language

    from generation_units
    inner join family_records
        on
            family_records.task = 'generation'
            and generation_units.record_uuid = family_records.record_uuid
    where generation_units.is_resolved

),

final as (

    {{ ragmart_metric_record_values({
        'retrieval': 'retrieval_resolved',
        'grounding': 'grounding_resolved',
        'generation': 'generation_resolved',
    }, ['label_source', 'source_id', 'run_id']) }}

)

select * from final
