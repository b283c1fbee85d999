{#-
    Agreement of every pair of voters (annotator_a < annotator_b) per task and label over the units
    both labelled (tier all): shared units, observed agreement and Cohen's kappa. The votes are
    paired in wide form (ragmart_voter_rows: one row per voter and unit, every label a column), so
    each pair of rows is joined once for all the labels of its task.
-#}
with
{%- for task in ragmart_tasks() %}
{%- set labels = ragmart_task_spec(task).labels %}

{{ task }}_votes as (
    {{ ragmart_voter_rows(task) | indent(4) }}

),

{{ task }}_pairs as (

    select
        votes_a.annotator_id as annotator_a,
        votes_b.annotator_id as annotator_b,
        count(*) as n_shared_units,
        {%- for label in labels %}
        sum(case when votes_a.{{ label }} = votes_b.{{ label }} then 1 else 0 end) as n_agreeing_{{ label }},
        sum(votes_a.{{ label }}) as n_positive_a_{{ label }},
        sum(votes_b.{{ label }}) as n_positive_b_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ task }}_votes as votes_a
    inner join {{ task }}_votes as votes_b
        on
            votes_a.record_uuid = votes_b.record_uuid
            and votes_a.unit_chunk_key = votes_b.unit_chunk_key
            and {{ ragmart_collate_binary('votes_a.annotator_id') }} < votes_b.annotator_id
    group by votes_a.annotator_id, votes_b.annotator_id

),
{%- endfor %}

summed as (
    {{- ragmart_unpivot_labels('{task}_pairs', [
        'annotator_a',
        'annotator_b',
        'n_shared_units',
        'cast(n_agreeing_{label} as ' ~ ragmart_type_double() ~ ') / n_shared_units as observed_agreement',
        'cast(n_positive_a_{label} as ' ~ ragmart_type_double() ~ ') / n_shared_units as positive_share_a',
        'cast(n_positive_b_{label} as ' ~ ragmart_type_double() ~ ') / n_shared_units as positive_share_b',
    ]) }}

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(label as {{ dbt.type_string() }}) as label,
        cast(annotator_a as {{ dbt.type_string() }}) as annotator_a,
        cast(annotator_b as {{ dbt.type_string() }}) as annotator_b,
        cast(n_shared_units as {{ dbt.type_bigint() }}) as n_shared_units,
        cast(observed_agreement as {{ ragmart_type_double() }}) as observed_agreement,
        cast(
            {{ ragmart_cohen_kappa('observed_agreement', 'positive_share_a', 'positive_share_b') }}
            as {{ ragmart_type_double() }}
        ) as cohen_kappa

    from summed

)

select * from final
