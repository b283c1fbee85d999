{#- One weight per judge and task from its gold-tier agreement, and whether it is within bounds (int_judges__weights). -#}
with

weights as (

    select * from {{ ref('int_judges__weights') }}

),

final as (

    select
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(annotator_kind as {{ dbt.type_string() }}) as annotator_kind,
        cast(task as {{ dbt.type_string() }}) as task,
        cast(n_gold_units as bigint) as n_gold_units,
        cast(n_gold_labels as bigint) as n_gold_labels,
        cast(gold_kappa as {{ ragmart_type_double() }}) as gold_kappa,
        cast(weight as {{ ragmart_type_double() }}) as weight,
        cast(min_kappa as {{ ragmart_type_double() }}) as min_kappa,
        cast(is_within_bounds as boolean) as is_within_bounds

    from weights

)

select * from final
