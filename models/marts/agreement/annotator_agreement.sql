{#-
    Inter-annotator agreement per task, label, tier (all, tier_a, tier_b) and slice (overall,
    language, task_type), over the units with two or more votes (docs/rules.md, Agreement and
    tiers; Agreement where it is tracked), with the 95 % record-clustered
    jackknife intervals of alpha and AC1 and the probability that alpha misses its target
    (Agreement uncertainty); computed in int_agreement__label_agreement.
-#}
with

label_agreement as (

    select * from {{ ref('int_agreement__label_agreement') }}

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from label_agreement

)

select * from final
