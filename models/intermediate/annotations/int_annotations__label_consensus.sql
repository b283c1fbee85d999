{#-
    The human consensus of every unit and label (docs/rules.md, Consensus): the latest adjudicator
    row decides; else unanimous (single when one vote); else the strict majority; else tied.
    Counted over the HUMAN rows of int_annotations__accepted_rows in wide form: one group by per
    unit counts the votes of every label (each label a column, no window) and finds the latest
    adjudication among the adjudicator rows alone; only then does each unit become one row per
    label of its task. Every accepted row carries every label of its task, so the latest
    adjudicator row of a unit is the same for all its labels. The wide form is a speed trick that
    earns its keep: the same rule as one group by unit and label over long rows (one per accepted
    row and label) takes markedly longer and twice the memory (docs/benchmarks.md, "Measurements behind the models' shapes").
-#}
{%- set labels = ragmart_labels() %}
with

human_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

counted as (

    select
        task,
        record_uuid,
        unit_chunk_key,
        sum(case when annotator_role = 'annotator' then 1 else 0 end) as n_votes,
        {%- for label in labels %}
        sum(case when annotator_role = 'annotator' then {{ label }} else 0 end) as n_positive_{{ label }},
        {%- endfor %}
        sum(case when annotator_role = 'adjudicator' then 1 else 0 end) as n_adjudications,
        max(case when annotator_role = 'annotator' then created_at_utc end) as latest_vote_at_utc

    from human_rows
    group by task, record_uuid, unit_chunk_key

),

adjudications as (

    select * from human_rows
    where annotator_role = 'adjudicator'

),

latest_adjudications as (

    select
        task,
        record_uuid,
        unit_chunk_key,
        max(created_at_utc) as latest_adjudicated_at_utc

    from adjudications
    group by task, record_uuid, unit_chunk_key

),

{# Two adjudicators at the latest instant may disagree: min and max tell. #}
latest_values as (

    select
        adjudications.task,
        adjudications.record_uuid,
        adjudications.unit_chunk_key,
        {%- for label in labels %}
        min(adjudications.{{ label }}) as min_latest_{{ label }},
        max(adjudications.{{ label }}) as max_latest_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from adjudications
    inner join latest_adjudications
        on
            adjudications.task = latest_adjudications.task
            and adjudications.record_uuid = latest_adjudications.record_uuid
            and adjudications.unit_chunk_key = latest_adjudications.unit_chunk_key
            and adjudications.created_at_utc = latest_adjudications.latest_adjudicated_at_utc
    group by adjudications.task, adjudications.record_uuid, adjudications.unit_chunk_key

),

task_labels as (
    {{ ragmart_task_labels() }}

),

unit_labels as (

    select
        counted.task,
        counted.record_uuid,
        counted.unit_chunk_key,
        task_labels.label,
        counted.n_votes,
        {{ ragmart_label_value('task_labels.label', 'counted.n_positive_{label}') | indent(8) }} as n_positive_votes,
        counted.n_adjudications,
        counted.latest_vote_at_utc,
        {{ ragmart_label_value('task_labels.label', 'latest_values.min_latest_{label}') | indent(8) }} as min_latest_adjudication,
        {{ ragmart_label_value('task_labels.label', 'latest_values.max_latest_{label}') | indent(8) }} as max_latest_adjudication

    from counted
    inner join task_labels
        on counted.task = task_labels.task
    left join latest_values
        on
            counted.task = latest_values.task
            and counted.record_uuid = latest_values.record_uuid
            and counted.unit_chunk_key = latest_values.unit_chunk_key

),

resolved as (

    select
        task,
        record_uuid,
        {# the unit's chunk in retrieval, null in the tasks whose unit is the record #}
        case when task = 'retrieval' then unit_chunk_key end as chunk_id,
        unit_chunk_key,
        label,
        n_votes,
        n_positive_votes,
        n_adjudications,
        latest_vote_at_utc,
        case
            when n_adjudications > 0 and min_latest_adjudication = max_latest_adjudication then 'adjudicated'
            when n_adjudications > 0 then 'tied'
            when n_votes = 1 then 'single'
            when n_positive_votes = 0 or n_positive_votes = n_votes then 'unanimous'
            when 2 * n_positive_votes <> n_votes then 'majority'
            else 'tied'
        end as consensus_method,
        case
            when n_adjudications > 0 and min_latest_adjudication = max_latest_adjudication
                then min_latest_adjudication
            when n_adjudications > 0 or 2 * n_positive_votes = n_votes then null
            when 2 * n_positive_votes > n_votes then 1
            else 0
        end as consensus_value

    from unit_labels

),

final as (

    select
        *,
        consensus_method <> 'tied' as is_resolved

    from resolved

)

select * from final
