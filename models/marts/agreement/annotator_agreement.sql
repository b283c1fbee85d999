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
        {{ ragmart_contract_columns() }}

    from label_agreement

)

select * from final
