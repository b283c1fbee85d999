{#-
    Agreement of every pair of voters (annotator_a < annotator_b) per task and label over the units
    both labelled (tier all): shared units, observed agreement and Cohen's kappa.
-#}
with

votes as (

    select * from {{ ref('int_agreement__votes') }}

),

paired as (

    select
        votes_a.task,
        votes_a.label,
        votes_a.annotator_id as annotator_a,
        votes_b.annotator_id as annotator_b,
        votes_a.label_value as value_a,
        votes_b.label_value as value_b

    from votes as votes_a
    inner join votes as votes_b
        on
            votes_a.task = votes_b.task
            and votes_a.record_uuid = votes_b.record_uuid
            and votes_a.unit_chunk_key = votes_b.unit_chunk_key
            and votes_a.label = votes_b.label
            and {{ ragmart_collate_binary('votes_a.annotator_id') }} < votes_b.annotator_id

),

summed as (

    select
        task,
        label,
        annotator_a,
        annotator_b,
        count(*) as n_shared_units,
        avg(cast(case when value_a = value_b then 1 else 0 end as {{ ragmart_type_double() }})) as observed_agreement,
        avg(cast(value_a as {{ ragmart_type_double() }})) as positive_share_a,
        avg(cast(value_b as {{ ragmart_type_double() }})) as positive_share_b

    from paired
    group by task, label, annotator_a, annotator_b

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
