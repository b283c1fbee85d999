{#-
    Agreement of every pair of voters (annotator_a < annotator_b) per task and label over the units
    both labelled (tier all): shared units, observed agreement, Cohen's kappa and its 95 %
    record-clustered jackknife interval; computed in int_agreement__pair_agreement.
-#}
with

pair_agreement as (

    select * from {{ ref('int_agreement__pair_agreement') }}

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(label as {{ dbt.type_string() }}) as label,
        cast(annotator_a as {{ dbt.type_string() }}) as annotator_a,
        cast(annotator_b as {{ dbt.type_string() }}) as annotator_b,
        cast(n_shared_units as bigint) as n_shared_units,
        cast(observed_agreement as {{ ragmart_type_double() }}) as observed_agreement,
        cast(cohen_kappa as {{ ragmart_type_double() }}) as cohen_kappa,
        cast(kappa_ci_lower as {{ ragmart_type_double() }}) as kappa_ci_lower,
        cast(kappa_ci_upper as {{ ragmart_type_double() }}) as kappa_ci_upper

    from pair_agreement

)

select * from final
