{#-
    The labels that the judges give, in the long shape of int_annotations__label_consensus, from
    three label sources:
    - `judge` (source_id = the judge's annotator_id): each judge's own labels on the records the
      humans resolved and on which the judge labelled every human unit (for judge_metric_values
      and the labelled records of judge_powered_metric_values);
    - `judge_unlabelled` (source_id = the judge's annotator_id): each judge's own labels on the
      records no human labelled in that family, every unit it labelled (the unlabelled records of
      judge_powered_metric_values);
    - `judges` (source_id = 'weighted_vote'): on the records no human labelled in that family,
      the weighted vote of the within-bounds judges of int_judges__weights; a score of 0 leaves
      the label tied (unresolved).
    The judges' accepted rows (int_annotations__accepted_rows, every label a column) stay wide
    until a unit becomes one row per label: a judge's row meets the consensus rows of its unit,
    each taking the judge's value of its label, and the weighted vote sums each label's column
    per unit before the unit becomes one row per label of its task.
-#}
{%- set labels = ragmart_labels() %}
with

judge_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind in ('LLM', 'CODE')

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

task_labels as (
    {{ ragmart_task_labels() }}

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

    from judge_rows

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

{# The consensus has a row for every label of the unit's task: each takes the judge's value. #}
judge_source as (

    select
        'judge' as label_source,
        judge_rows.annotator_id as source_id,
        judge_rows.task,
        judge_rows.record_uuid,
        judge_rows.chunk_id,
        judge_rows.chunk_rank,
        label_consensus.label,
        {{ ragmart_label_value('label_consensus.label', 'judge_rows.{label}') | indent(8) }} as consensus_value,
        cast(1 as bigint) as n_judges,
        cast(null as {{ ragmart_type_double() }}) as vote_score,
        true as is_resolved

    from judge_rows
    inner join compared_records
        on
            judge_rows.annotator_id = compared_records.annotator_id
            and judge_rows.task = compared_records.task
            and judge_rows.record_uuid = compared_records.record_uuid
    inner join label_consensus
        on
            judge_rows.task = label_consensus.task
            and judge_rows.record_uuid = label_consensus.record_uuid
            and judge_rows.unit_chunk_key = label_consensus.unit_chunk_key

),

{# The judges' rows on records with no accepted human row in that family. #}
unlabelled_judge_rows as (

    select judge_rows.*

    from judge_rows
    left join human_records
        on
            judge_rows.task = human_records.task
            and judge_rows.record_uuid = human_records.record_uuid
    where human_records.record_uuid is null

),

{# Each judge's own labels there: one row per label of the row's task, the judge's value. #}
unlabelled_judge_source as (

    select
        'judge_unlabelled' as label_source,
        unlabelled_judge_rows.annotator_id as source_id,
        unlabelled_judge_rows.task,
        unlabelled_judge_rows.record_uuid,
        unlabelled_judge_rows.chunk_id,
        unlabelled_judge_rows.chunk_rank,
        task_labels.label,
        {{ ragmart_label_value('task_labels.label', 'unlabelled_judge_rows.{label}') | indent(8) }} as consensus_value,
        cast(1 as bigint) as n_judges,
        cast(null as {{ ragmart_type_double() }}) as vote_score,
        true as is_resolved

    from unlabelled_judge_rows
    inner join task_labels
        on unlabelled_judge_rows.task = task_labels.task

),

weighted_rows as (

    select
        unlabelled_judge_rows.*,
        case when weights.is_within_bounds then weights.weight else 0.0 end as vote_weight

    from unlabelled_judge_rows
    inner join weights
        on
            unlabelled_judge_rows.annotator_id = weights.annotator_id
            and unlabelled_judge_rows.task = weights.task

),

{# Every row carries every label of its task, so a unit's judges are the same for all its labels. #}
weighted_votes as (

    select
        task,
        record_uuid,
        chunk_id,
        chunk_rank,
        cast(count(*) as bigint) as n_judges,
        {%- for label in labels %}
        {{ ragmart_exact_sum('vote_weight * (2 * ' ~ label ~ ' - 1)') }} as vote_score_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from weighted_rows
    group by task, record_uuid, chunk_id, chunk_rank

),

label_votes as (

    select
        weighted_votes.task,
        weighted_votes.record_uuid,
        weighted_votes.chunk_id,
        weighted_votes.chunk_rank,
        task_labels.label,
        weighted_votes.n_judges,
        {{ ragmart_label_value('task_labels.label', 'weighted_votes.vote_score_{label}') | indent(8) }} as vote_score

    from weighted_votes
    inner join task_labels
        on weighted_votes.task = task_labels.task

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

    from label_votes

),

final as (

    select * from judge_source

    union all

    select * from judges_source

    union all

    select * from unlabelled_judge_source

)

select * from final
