{#-
    How well each judge (annotator of kind LLM or CODE, whatever its role) agrees with the human
    consensus, per task, label, tier (all, tier_b) and slice (overall, language, task_type), over
    the units whose label has a resolved human consensus and an accepted row of that judge
    (docs/rules.md, Judges), with kappa's 95 % record-clustered jackknife interval. Computed in int_judges__label_agreement.
-#}
with

label_agreement as (

    select * from {{ ref('int_judges__label_agreement') }}

),

named as (

    select
        *,
        precision_value as precision,
        recall_value as recall

    from label_agreement

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from named

)

select * from final
