{#-
    Agreement of every pair of voters (annotator_a < annotator_b) per task, label and slice
    (overall, language, task_type) over the units both labelled (tier all): shared units, observed agreement, Cohen's kappa and its 95 %
    record-clustered jackknife interval; computed in int_agreement__pair_agreement.
-#}
with

pair_agreement as (

    select * from {{ ref('int_agreement__pair_agreement') }}

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from pair_agreement

)

select * from final
