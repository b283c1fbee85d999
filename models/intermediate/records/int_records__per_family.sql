{#-
    One row per record per family (task) it has an accepted row in, any annotator kind: the record
    grain that every consumer reads (docs/rules.md: Runs, Consensus, Agreement and tiers).
    - run and pairing key: the run_id of its accepted records row, else the var default_run_id;
      the pairing key is that row's query_id, else the record's query text in the family (the
      trimmed query of its accepted rows, the smallest in byte order when they differ);
    - language: the one non-empty language of its accepted rows in the family, else `unknown`;
    - task_type: the records row's task_type, trimmed, `unknown` without one (the agreement slices);
    - tier: ADR-001's routing over the records row and the HUMAN voters;
    - resolved: every label of every unit of the human consensus is resolved (null without any
      accepted HUMAN row: such a record has no consensus).
-#}
{%- set gold_task_types = ragmart_setting('gold_task_types') %}
with

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}

),

records_input as (

    select * from {{ ref('int_records__validated') }}
    where annotation_status = 'accepted'

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}

),

{# The query text is parsed in staging and not carried on: each row's is looked up by its id. #}
staged_rows as (

    select * from {{ ref('stg_annotation_exports__annotations') }}

),

{#
    One grouped pass over the accepted rows, each with its query text: the language is the one
    the rows name when their smallest and largest agree (nulls aside), the voters are the HUMAN
    annotators in the role annotator, and the query text the smallest in byte order.
#}
family_records as (

    select
        accepted_rows.task,
        accepted_rows.record_uuid,
        case
            when min(accepted_rows.language) = max(accepted_rows.language) then max(accepted_rows.language)
            else 'unknown'
        end as language,
        count(distinct case
            when accepted_rows.annotator_kind = 'HUMAN' and accepted_rows.annotator_role = 'annotator'
                then accepted_rows.annotator_id
        end) as n_voters,
        max(case when accepted_rows.annotator_kind = 'HUMAN' then 1 else 0 end) = 1 as has_human_labels,
        {{ ragmart_min_binary('staged_rows.query_text') }} as query_text

    from accepted_rows
    left join staged_rows
        on
            accepted_rows.task = staged_rows.family
            and accepted_rows.annotation_row_id = staged_rows.annotation_row_id
    group by
        accepted_rows.task,
        accepted_rows.record_uuid

),

record_consensus as (

    select
        task,
        record_uuid,
        min(case when is_resolved then 1 else 0 end) = 1 as is_resolved

    from label_consensus
    group by task, record_uuid

),

routed as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.language,
        family_records.has_human_labels,
        family_records.n_voters,
        family_records.query_text,
        records_input.record_uuid is not null as is_in_records,
        records_input.run_id,
        records_input.query_id,
        records_input.tier as explicit_tier,
        coalesce({{ ragmart_clean_text('records_input.task_type') }}, 'unknown') as task_type,
        -- ADR-001 routing (docs/rules.md, "Tier of a record"): the first rule that matches.
        case
            when records_input.tier is not null then 'explicit_tier'
            {%- if gold_task_types | length > 0 %}
            when records_input.task_type in ('{{ gold_task_types | join("', '") }}') then 'gold_task_type'
            {%- endif %}
            when records_input.model_uncertainty >= {{ ragmart_setting('gold_uncertainty_threshold') }}
                then 'gold_uncertainty'
            when records_input.is_adversarial = 1 then 'gold_adversarial'
            when records_input.record_uuid is not null then 'triage_default'
            when family_records.n_voters >= 2 then 'fallback_dual_voters'
            else 'fallback_single_voter'
        end as tier_source

    from family_records
    left join records_input
        on family_records.record_uuid = records_input.record_uuid

),

final as (

    select
        routed.task,
        routed.record_uuid,
        coalesce(routed.run_id, {{ ragmart_text_literal(ragmart_setting('default_run_id')) }}) as run_id,
        routed.query_id,
        routed.query_text,
        coalesce(routed.query_id, routed.query_text) as pairing_key,
        routed.language,
        routed.task_type,
        case
            when routed.tier_source = 'explicit_tier' then routed.explicit_tier
            when routed.tier_source in ('gold_task_type', 'gold_uncertainty', 'gold_adversarial', 'fallback_dual_voters')
                then 'tier_b'
            else 'tier_a'
        end as tier,
        routed.tier_source,
        routed.n_voters,
        routed.is_in_records,
        routed.has_human_labels,
        record_consensus.is_resolved

    from routed
    left join record_consensus
        on
            routed.task = record_consensus.task
            and routed.record_uuid = record_consensus.record_uuid

)

select * from final
