{#-
    ADR-001's weekly spot-check of the triage tier (docs/rules.md, Spot-check queue): for each
    family and ISO week, the triage (tier_a) records drawn for a second labeler. A record belongs
    to the ISO week (UTC) of its first vote: the earliest accepted row of a voter (a HUMAN
    annotator in the role `annotator`) in the family; that voter is its first annotator (the
    smallest id when two vote at the same instant). The draw: h = the first 8 hexadecimal digits
    of md5('<record_uuid>/<iso_week>') read as an integer; the record is drawn when
    h < ceil(share · 2^32), share being the var spot_check_rate_target, so every triage record of
    a week is drawn with probability ceil(share · 2^32) / 2^32 (0.1 gives 0.10000000009), the
    same in every build and on every engine. The frame is every triage record with a voter, so
    a drawn record stays in the queue once its second vote is in (has_second_vote).
-#}
{%- set share = ragmart_setting('spot_check_rate_target') %}
{%- set selection_cut = (share * 4294967296) | round(0, 'ceil') | int %}
with

family_records as (

    select * from {{ ref('int_records__per_family') }}
    where tier = 'tier_a' and n_voters >= 1

),

vote_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

labelers as (

    select * from {{ ref('stg_annotation_exports__annotators') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

record_voters as (

    select
        task,
        record_uuid,
        annotator_id,
        min(created_at_utc) as first_vote_at_utc

    from vote_rows
    group by task, record_uuid, annotator_id

),

ordered_voters as (

    select
        *,
        row_number() over (
            partition by task, record_uuid
            order by first_vote_at_utc, {{ ragmart_collate_binary('annotator_id') }}
        ) as voter_order

    from record_voters

),

weekly_records as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.run_id,
        family_records.language,
        family_records.task_type,
        family_records.n_voters,
        ordered_voters.annotator_id as first_annotator_id,
        ordered_voters.first_vote_at_utc,
        {{ ragmart_iso_week('ordered_voters.first_vote_at_utc') }} as iso_week,
        {{ ragmart_week_start('ordered_voters.first_vote_at_utc') }} as week_start

    from family_records
    inner join ordered_voters
        on
            family_records.task = ordered_voters.task
            and family_records.record_uuid = ordered_voters.record_uuid
            and ordered_voters.voter_order = 1

),

hashed as (

    select
        *,
        {{ ragmart_bigint_of_hex('substr(' ~ dbt.hash(dbt.concat(['record_uuid', "'/'", 'iso_week'])) ~ ', 1, 8)') }}
            as selection_hash

    from weekly_records

),

week_sizes as (

    select
        task,
        week_start,
        count(*) as n_week_records

    from hashed
    group by task, week_start

),

drawn as (

    select * from hashed
    where selection_hash < {{ selection_cut }}

),

{# The voters in the role annotator who have not voted on the record yet (listed annotators only). #}
second_labelers as (

    select
        drawn.task,
        drawn.record_uuid,
        {{ ragmart_sorted_list('labelers.annotator_id', ';') }} as eligible_second_labelers,
        count(*) as n_eligible_second_labelers

    from drawn
    cross join labelers
    where
        not exists (
            select 1
            from record_voters
            where
                record_voters.task = drawn.task
                and record_voters.record_uuid = drawn.record_uuid
                and record_voters.annotator_id = labelers.annotator_id
        )
    group by drawn.task, drawn.record_uuid

),

queue as (

    select
        drawn.task,
        drawn.iso_week,
        drawn.week_start,
        drawn.record_uuid,
        drawn.run_id,
        drawn.language,
        drawn.task_type,
        drawn.first_annotator_id,
        drawn.first_vote_at_utc,
        drawn.n_voters,
        drawn.n_voters >= 2 as has_second_vote,
        second_labelers.eligible_second_labelers,
        coalesce(second_labelers.n_eligible_second_labelers, 0) as n_eligible_second_labelers,
        cast(drawn.selection_hash as {{ ragmart_type_double() }}) / 4294967296 as selection_score,
        {{ ragmart_double_literal(selection_cut / 4294967296) }} as inclusion_probability,
        week_sizes.n_week_records

    from drawn
    inner join week_sizes
        on
            drawn.task = week_sizes.task
            and drawn.week_start = week_sizes.week_start
    left join second_labelers
        on
            drawn.task = second_labelers.task
            and drawn.record_uuid = second_labelers.record_uuid

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from queue

)

select * from final
