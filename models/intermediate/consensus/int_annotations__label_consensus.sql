{#-
    The human consensus of every unit and label (docs/rules.md, Consensus): the latest adjudicator
    row decides; else unanimous (single when one vote); else the strict majority; else tied.
    Counted in wide form: one aggregation per task over its accepted HUMAN rows
    (int_annotations__human_rows: every label a column, no window), the latest adjudication found
    among the adjudicator rows alone, and only then one row per label. Every accepted row carries
    every label of its task, so the latest adjudicator row of a unit is the same for all its labels.
-#}
with
{%- for task in ragmart_tasks() %}
{%- set labels = ragmart_task_spec(task).labels %}

{{ task }}_human_rows as (

    select * from {{ ref('int_annotations__human_rows') }}
    where task = '{{ task }}'

),

{{ task }}_counted as (

    select
        record_uuid,
        chunk_id,
        sum(case when annotator_role = 'annotator' then 1 else 0 end) as n_votes,
        {%- for label in labels %}
        sum(case when annotator_role = 'annotator' then {{ label }} else 0 end) as n_positive_{{ label }},
        {%- endfor %}
        sum(case when annotator_role = 'adjudicator' then 1 else 0 end) as n_adjudications,
        max(case when annotator_role = 'annotator' then created_at_utc end) as latest_vote_at_utc

    from {{ task }}_human_rows
    group by record_uuid, chunk_id

),

{{ task }}_adjudications as (

    select * from {{ task }}_human_rows
    where annotator_role = 'adjudicator'

),

{{ task }}_latest_adjudications as (

    select
        record_uuid,
        chunk_id,
        max(created_at_utc) as latest_adjudicated_at_utc

    from {{ task }}_adjudications
    group by record_uuid, chunk_id

),

{{ task }}_latest_values as (

    select
        {{ task }}_adjudications.record_uuid,
        {{ task }}_adjudications.chunk_id,
        {%- for label in labels %}
        min({{ task }}_adjudications.{{ label }}) as min_latest_{{ label }},
        max({{ task }}_adjudications.{{ label }}) as max_latest_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ task }}_adjudications
    inner join {{ task }}_latest_adjudications
        on
            {{ task }}_adjudications.record_uuid = {{ task }}_latest_adjudications.record_uuid
            {%- if task == 'retrieval' %}
            and {{ task }}_adjudications.chunk_id = {{ task }}_latest_adjudications.chunk_id
            {%- endif %}
            and {{ task }}_adjudications.created_at_utc = {{ task }}_latest_adjudications.latest_adjudicated_at_utc
    group by {{ task }}_adjudications.record_uuid, {{ task }}_adjudications.chunk_id

),

{{ task }}_units as (

    select
        {{ task }}_counted.*,
        {%- for label in labels %}
        {{ task }}_latest_values.min_latest_{{ label }},
        {{ task }}_latest_values.max_latest_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ task }}_counted
    left join {{ task }}_latest_values
        on
            {{ task }}_counted.record_uuid = {{ task }}_latest_values.record_uuid
            {%- if task == 'retrieval' %}
            and {{ task }}_counted.chunk_id = {{ task }}_latest_values.chunk_id
            {%- endif %}

),
{%- endfor %}

unpivoted as (
    {{- ragmart_unpivot_labels('{task}_units', [
        'record_uuid',
        'chunk_id',
        'n_votes',
        'n_positive_{label} as n_positive_votes',
        'n_adjudications',
        'latest_vote_at_utc',
        'min_latest_{label} as min_latest_adjudication',
        'max_latest_{label} as max_latest_adjudication',
    ]) }}

),

resolved as (

    select
        task,
        record_uuid,
        chunk_id,
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

    from unpivoted

),

final as (

    select
        *,
        consensus_method <> 'tied' as is_resolved

    from resolved

)

select * from final
