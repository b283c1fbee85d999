{#-
    Per unit and label: the number of votes m_u, the 1-votes n_u1, whether the votes disagree, the
    latest vote and the record's tier. The votes are those of ragmart_voter_rows (accepted rows of
    HUMAN annotators in the role `annotator`; an id not in the annotators seed is one), counted in
    wide form: one aggregation per task over its validated rows, every label a column, then one row
    per label, the record's tier joined before that. Every accepted row carries every label of its
    task, so a unit's votes are the same for all its labels.
-#}
with

record_tiers as (

    select * from {{ ref('int_records__tiers') }}

),
{%- for task in ragmart_tasks() %}
{%- set labels = ragmart_task_spec(task).labels %}

{{ task }}_votes as (
    {{ ragmart_voter_rows(task) | indent(4) }}

),

{{ task }}_units as (

    select
        record_uuid,
        chunk_id,
        count(*) as n_votes,
        {%- for label in labels %}
        sum({{ label }}) as n_positive_{{ label }},
        {%- endfor %}
        max(created_at_utc) as latest_vote_at_utc

    from {{ task }}_votes
    group by record_uuid, chunk_id

),

{{ task }}_tiered_units as (

    select
        {{ task }}_units.*,
        record_tiers.tier

    from {{ task }}_units
    inner join record_tiers
        on
            record_tiers.task = '{{ task }}'
            and {{ task }}_units.record_uuid = record_tiers.record_uuid

),
{%- endfor %}

unpivoted as (
    {%- for task in ragmart_tasks() %}
    {%- set outer_loop = loop %}
    {%- for label in ragmart_task_spec(task).labels %}

    select
        record_uuid,
        chunk_id,
        n_votes,
        n_positive_{{ label }} as n_positive_votes,
        latest_vote_at_utc,
        tier,
        '{{ task }}' as task,
        '{{ label }}' as label

    from {{ task }}_tiered_units
    {%- if not (outer_loop.last and loop.last) %}

    union all
    {%- endif %}
    {%- endfor %}
    {%- endfor %}

),

final as (

    select
        task,
        record_uuid,
        chunk_id,
        label,
        tier,
        n_votes,
        n_positive_votes,
        latest_vote_at_utc,
        coalesce(chunk_id, '') as unit_chunk_key,
        n_positive_votes > 0 and n_positive_votes < n_votes as has_disagreement

    from unpivoted

)

select * from final
