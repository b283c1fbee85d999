{#-
    Per task and voter (HUMAN annotator in the role `annotator`): how much they labelled, how often
    they agree with the other voters on the units they share, and how often their vote matches the
    adjudicated value where a unit was adjudicated, so that a lead sees who drifts. The pairwise
    comparisons are counted from the unit's vote counts (a vote of 1 agrees with the unit's other
    1-votes, a vote of 0 with its other 0-votes) instead of pairing the votes themselves, and the
    votes are read in wide form (int_annotations__human_rows in the role `annotator`: one row per
    voter and unit, every label a column), so each vote row is read once for all the labels of its task.
-#}
with

adjudicated as (

    select
        task,
        record_uuid,
        label,
        consensus_value,
        coalesce(chunk_id, '') as unit_chunk_key

    from {{ ref('int_annotations__label_consensus') }}
    where consensus_method = 'adjudicated'

),
{%- for task in ragmart_tasks() %}
{%- set labels = ragmart_task_spec(task).labels %}

{{ task }}_votes as (

    select * from {{ ref('int_annotations__human_rows') }}
    where task = '{{ task }}' and annotator_role = 'annotator'

),

{{ task }}_units as (

    select
        record_uuid,
        unit_chunk_key,
        count(*) as n_votes,
        {%- for label in labels %}
        sum({{ label }}) as n_positive_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ task }}_votes
    group by record_uuid, unit_chunk_key

),

{{ task }}_voter_totals as (

    select
        {{ task }}_votes.annotator_id,
        count(*) as n_units,
        count(*) * {{ labels | length }} as n_label_votes,
        {%- for label in labels %}
        sum({{ task }}_votes.{{ label }}) as n_positive_{{ label }},
        count({{ task }}_votes.{{ label }}) as n_valued_{{ label }},
        {%- endfor %}
        min({{ task }}_votes.created_at_utc) as first_vote_at_utc,
        max({{ task }}_votes.created_at_utc) as last_vote_at_utc,
        {%- for label in labels %}
        sum(
            case
                when {{ task }}_units.n_votes < 2 then 0
                when {{ task }}_votes.{{ label }} = 1 then {{ task }}_units.n_positive_{{ label }} - 1
                else {{ task }}_units.n_votes - {{ task }}_units.n_positive_{{ label }} - 1
            end
        ) as n_agreeing_{{ label }},
        {%- endfor %}
        sum(case when {{ task }}_units.n_votes >= 2 then 1 else 0 end) as n_shared_units,
        sum(case when {{ task }}_units.n_votes >= 2 then {{ labels | length }} * ({{ task }}_units.n_votes - 1) else 0 end)
            as n_pairwise_comparisons

    from {{ task }}_votes
    inner join {{ task }}_units
        on
            {{ task }}_votes.record_uuid = {{ task }}_units.record_uuid
            and {{ task }}_votes.unit_chunk_key = {{ task }}_units.unit_chunk_key
    group by {{ task }}_votes.annotator_id

),

{{ task }}_adjudication as (

    select
        {{ task }}_votes.annotator_id,
        count(*) as n_adjudicated_labels,
        sum(
            case
                {%- for label in labels %}
                when adjudicated.label = '{{ label }}' and {{ task }}_votes.{{ label }} = adjudicated.consensus_value then 1
                {%- endfor %}
                else 0
            end
        ) as n_matching_adjudication

    from {{ task }}_votes
    inner join adjudicated
        on
            adjudicated.task = '{{ task }}'
            and {{ task }}_votes.record_uuid = adjudicated.record_uuid
            and {{ task }}_votes.unit_chunk_key = adjudicated.unit_chunk_key
    group by {{ task }}_votes.annotator_id

),
{%- endfor %}

labelled as (
    {%- for task in ragmart_tasks() %}
    {%- set labels = ragmart_task_spec(task).labels %}

    select
        '{{ task }}' as task,
        {{ task }}_voter_totals.annotator_id,
        {{ task }}_voter_totals.n_units,
        {{ task }}_voter_totals.n_label_votes,
        cast({% for label in labels %}{{ task }}_voter_totals.n_positive_{{ label }}{% if not loop.last %} + {% endif %}{% endfor %} as {{ ragmart_type_double() }})
        / nullif({% for label in labels %}{{ task }}_voter_totals.n_valued_{{ label }}{% if not loop.last %} + {% endif %}{% endfor %}, 0)
            as positive_vote_rate,
        {{ task }}_voter_totals.first_vote_at_utc,
        {{ task }}_voter_totals.last_vote_at_utc,
        {{ task }}_voter_totals.n_shared_units,
        {{ task }}_voter_totals.n_pairwise_comparisons,
        cast({% for label in labels %}{{ task }}_voter_totals.n_agreeing_{{ label }}{% if not loop.last %} + {% endif %}{% endfor %} as {{ ragmart_type_double() }})
        / nullif({{ task }}_voter_totals.n_pairwise_comparisons, 0) as pairwise_agreement,
        {{ task }}_adjudication.n_adjudicated_labels,
        cast({{ task }}_adjudication.n_matching_adjudication as {{ ragmart_type_double() }})
        / {{ task }}_adjudication.n_adjudicated_labels as adjudication_agreement

    from {{ task }}_voter_totals
    left join {{ task }}_adjudication
        on {{ task }}_voter_totals.annotator_id = {{ task }}_adjudication.annotator_id
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(n_units as {{ dbt.type_bigint() }}) as n_units,
        cast(n_label_votes as {{ dbt.type_bigint() }}) as n_label_votes,
        cast(positive_vote_rate as {{ ragmart_type_double() }}) as positive_vote_rate,
        cast(n_shared_units as {{ dbt.type_bigint() }}) as n_shared_units,
        cast(n_pairwise_comparisons as {{ dbt.type_bigint() }}) as n_pairwise_comparisons,
        cast(pairwise_agreement as {{ ragmart_type_double() }}) as pairwise_agreement,
        cast(coalesce(n_adjudicated_labels, 0) as {{ dbt.type_bigint() }}) as n_adjudicated_labels,
        cast(adjudication_agreement as {{ ragmart_type_double() }}) as adjudication_agreement,
        first_vote_at_utc,
        last_vote_at_utc

    from labelled

)

select * from final
