{#-
    Inter-annotator agreement per task, label and tier (all, tier_a, tier_b), over the units with
    two or more votes (docs/rules.md, Agreement and tiers), with the 95 % record-clustered
    jackknife intervals of alpha and AC1 and the probability that alpha misses its target
    (Agreement uncertainty); computed in int_agreement__label_agreement.
-#}
with

label_agreement as (

    select * from {{ ref('int_agreement__label_agreement') }}

),

final as (

    select
        cast(task as {{ dbt.type_string() }}) as task,
        cast(label as {{ dbt.type_string() }}) as label,
        cast(tier as {{ dbt.type_string() }}) as tier,
        cast(n_units as bigint) as n_units,
        cast(n_annotators as bigint) as n_annotators,
        cast(n_pairable_values as bigint) as n_pairable_values,
        cast(observed_agreement as {{ ragmart_type_double() }}) as observed_agreement,
        cast(krippendorff_alpha as {{ ragmart_type_double() }}) as krippendorff_alpha,
        cast(gwet_ac1 as {{ ragmart_type_double() }}) as gwet_ac1,
        cast(prevalence as {{ ragmart_type_double() }}) as prevalence,
        cast(alpha_target as {{ ragmart_type_double() }}) as alpha_target,
        meets_target,
        cast(alpha_ci_lower as {{ ragmart_type_double() }}) as alpha_ci_lower,
        cast(alpha_ci_upper as {{ ragmart_type_double() }}) as alpha_ci_upper,
        cast(ac1_ci_lower as {{ ragmart_type_double() }}) as ac1_ci_lower,
        cast(ac1_ci_upper as {{ ragmart_type_double() }}) as ac1_ci_upper,
        cast(p_alpha_below_target as {{ ragmart_type_double() }}) as p_alpha_below_target

    from label_agreement

)

select * from final
