{#-
    The labels that the judges give, in the long shape of int_annotations__label_consensus, from
    two label sources:
    - `judge` (source_id = the judge's annotator_id): each judge's own labels on the records the
      humans resolved and on which the judge labelled every human unit (for judge_metric_values);
    - `judges` (source_id = 'weighted_vote'): on the records no human labelled in that family,
      the weighted vote of the within-bounds judges of int_judges__weights; a score of 0 leaves
      the label tied (unresolved).
-#}
with

judge_labels as (

    select * from {{ ref('int_judges__labels') }}

),

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}

),

weights as (

    select * from {{ ref('int_judges__weights') }}

),

{# Whether a record is resolved is the record grain's to say. #}
family_records as (

    select * from {{ ref('int_records__per_family') }}

),

human_units as (

    select distinct
        task,
        record_uuid,
        unit_chunk_key

    from label_consensus

),

human_records as (

    select
        task,
        record_uuid,
        count(*) as n_units

    from human_units
    group by task, record_uuid

),

judge_units as (

    select distinct
        annotator_id,
        task,
        record_uuid,
        unit_chunk_key

    from judge_labels

),

{# The human-resolved records on which a judge labelled every human unit. #}
compared_records as (

    select
        judge_units.annotator_id,
        judge_units.task,
        judge_units.record_uuid

    from judge_units
    inner join human_units
        on
            judge_units.task = human_units.task
            and judge_units.record_uuid = human_units.record_uuid
            and judge_units.unit_chunk_key = human_units.unit_chunk_key
    inner join human_records
        on
            judge_units.task = human_records.task
            and judge_units.record_uuid = human_records.record_uuid
    inner join family_records
        on
            judge_units.task = family_records.task
            and judge_units.record_uuid = family_records.record_uuid
    where family_records.is_resolved
    group by judge_units.annotator_id, judge_units.task, judge_units.record_uuid, human_records.n_units
    having count(*) = human_records.n_units

),

judge_source as (

    select
        'judge' as label_source,
        judge_labels.annotator_id as source_id,
        judge_labels.task,
        judge_labels.record_uuid,
        judge_labels.chunk_id,
        judge_labels.chunk_rank,
        judge_labels.label,
        judge_labels.label_value as consensus_value,
        cast(1 as bigint) as n_judges,
        cast(null as {{ ragmart_type_double() }}) as vote_score,
        true as is_resolved

    from judge_labels
    inner join compared_records
        on
            judge_labels.annotator_id = compared_records.annotator_id
            and judge_labels.task = compared_records.task
            and judge_labels.record_uuid = compared_records.record_uuid
    inner join human_units
        on
            judge_labels.task = human_units.task
            and judge_labels.record_uuid = human_units.record_uuid
            and judge_labels.unit_chunk_key = human_units.unit_chunk_key

),

{# The judges' labels on records with no accepted human row in that family. #}
unlabelled_judge_labels as (

    select
        judge_labels.*,
        case when weights.is_within_bounds then weights.weight else 0.0 end as vote_weight

    from judge_labels
    left join human_records
        on
            judge_labels.task = human_records.task
            and judge_labels.record_uuid = human_records.record_uuid
    inner join weights
        on
            judge_labels.annotator_id = weights.annotator_id
            and judge_labels.task = weights.task
    where human_records.record_uuid is null

),

weighted_votes as (

    select
        task,
        record_uuid,
        chunk_id,
        chunk_rank,
        label,
        cast(count(*) as bigint) as n_judges,
        sum(vote_weight * (2 * label_value - 1)) as vote_score

    from unlabelled_judge_labels
    group by task, record_uuid, chunk_id, chunk_rank, label

),

judges_source as (

    select
        'judges' as label_source,
        'weighted_vote' as source_id,
        task,
        record_uuid,
        chunk_id,
        chunk_rank,
        label,
        {{ ragmart_weighted_vote('vote_score') }} as consensus_value,
        n_judges,
        vote_score,
        {{ ragmart_weighted_vote('vote_score') }} is not null as is_resolved

    from weighted_votes

),

final as (

    select * from judge_source

    union all

    select * from judges_source

)

select * from final
