{#- One weight per judge and task from its gold-tier agreement, and whether it is within bounds (int_judges__weights). -#}
with

weights as (

    select * from {{ ref('int_judges__weights') }}

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from weights

)

select * from final
