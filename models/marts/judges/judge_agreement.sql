{#-
    How well each judge (annotator of kind LLM or CODE, whatever its role) agrees with the human
    consensus, per task, label and tier (all, tier_b), over the units whose label has a resolved
    human consensus and an accepted row of that judge (docs/rules.md, Judges), with kappa's 95 %
    record-clustered jackknife interval. Computed in int_judges__label_agreement.
-#}
with

label_agreement as (

    select * from {{ ref('int_judges__label_agreement') }}

),

final as (

    select
        cast(annotator_id as {{ dbt.type_string() }}) as annotator_id,
        cast(task as {{ dbt.type_string() }}) as task,
        cast(label as {{ dbt.type_string() }}) as label,
        cast(tier as {{ dbt.type_string() }}) as tier,
        cast(n_units as bigint) as n_units,
        cast(tp as bigint) as tp,
        cast(fp as bigint) as fp,
        cast(fn as bigint) as fn,
        cast(tn as bigint) as tn,
        cast(accuracy as {{ ragmart_type_double() }}) as accuracy,
        cast(cohen_kappa as {{ ragmart_type_double() }}) as cohen_kappa,
        cast(precision_value as {{ ragmart_type_double() }}) as precision,
        cast(recall_value as {{ ragmart_type_double() }}) as recall,
        cast(f1 as {{ ragmart_type_double() }}) as f1,
        cast(human_prevalence as {{ ragmart_type_double() }}) as human_prevalence,
        cast(judge_prevalence as {{ ragmart_type_double() }}) as judge_prevalence,
        cast(alpha_humans as {{ ragmart_type_double() }}) as alpha_humans,
        cast(alpha_with_judge as {{ ragmart_type_double() }}) as alpha_with_judge,
        cast(kappa_ci_lower as {{ ragmart_type_double() }}) as kappa_ci_lower,
        cast(kappa_ci_upper as {{ ragmart_type_double() }}) as kappa_ci_upper

    from label_agreement

)

select * from final
