{#-
    The tier of every record in every family it was labelled in (ADR-001; docs/rules.md, "Tier of a record"): explicit
    tier, else the gold routing rules on the records seed, else triage for a record in the seed,
    else two or more voters route to gold. `tier_source` names the rule that decided.
-#}
with

records_seed as (

    select * from {{ ref('int_records__validated') }}
    where annotation_status = 'accepted'

),

human_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

family_records as (

    select
        task,
        record_uuid,
        count(distinct case when annotator_role = 'annotator' then annotator_id end) as n_voters

    from human_rows
    group by task, record_uuid

),

routed as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.n_voters,
        records_seed.record_uuid is not null as is_in_records,
        records_seed.task_type,
        records_seed.model_uncertainty,
        records_seed.is_adversarial,
        records_seed.tier as explicit_tier,
        {{ ragmart_tier_source(
            'records_seed.tier', 'records_seed.task_type', 'records_seed.model_uncertainty',
            'records_seed.is_adversarial', 'records_seed.record_uuid is not null', 'family_records.n_voters') }}
            as tier_source

    from family_records
    left join records_seed
        on family_records.record_uuid = records_seed.record_uuid

),

final as (

    select
        task,
        record_uuid,
        {{ ragmart_tier_of_source('tier_source', 'explicit_tier') }} as tier,
        tier_source,
        n_voters,
        is_in_records,
        task_type,
        model_uncertainty,
        is_adversarial,
        explicit_tier

    from routed

)

select * from final
