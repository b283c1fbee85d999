{#-
    Inter-annotator agreement per task, label and tier (all, tier_a, tier_b), over the units with
    two or more votes (CONTRACT.md, Agreement and tiers), by the formulas of
    macros/metrics/ragmart_agreement.sql. A tier row exists when the tier has at least one such
    unit. Read by the marts annotator_agreement and labeling_protocol.
-#}
with

unit_votes as (

    select * from {{ ref('int_agreement__unit_votes') }}

),

votes as (

    select * from {{ ref('int_agreement__votes') }}

),

tiered_units as (

    select
        'all' as tier,
        task,
        label,
        n_votes,
        n_positive_votes,
        {{ ragmart_unit_observed_agreement('n_positive_votes', 'n_votes') }} as observed_agreement,
        {{ ragmart_unit_disagreement('n_positive_votes', 'n_votes') }} as disagreement_term,
        cast(n_positive_votes as {{ ragmart_type_double() }}) / n_votes as positive_share

    from unit_votes

    union all

    select
        tier,
        task,
        label,
        n_votes,
        n_positive_votes,
        {{ ragmart_unit_observed_agreement('n_positive_votes', 'n_votes') }} as observed_agreement,
        {{ ragmart_unit_disagreement('n_positive_votes', 'n_votes') }} as disagreement_term,
        cast(n_positive_votes as {{ ragmart_type_double() }}) / n_votes as positive_share

    from unit_votes

),

votes_on_pairable_units as (

    select
        votes.tier,
        votes.task,
        votes.label,
        votes.annotator_id

    from votes
    inner join unit_votes
        on
            votes.task = unit_votes.task
            and votes.record_uuid = unit_votes.record_uuid
            and votes.unit_chunk_key is not distinct from unit_votes.unit_chunk_key
            and votes.label = unit_votes.label
    where unit_votes.n_votes >= 2

),

voters as (

    select
        'all' as tier,
        task,
        label,
        count(distinct annotator_id) as n_annotators

    from votes_on_pairable_units
    group by task, label

    union all

    select
        tier,
        task,
        label,
        count(distinct annotator_id) as n_annotators

    from votes_on_pairable_units
    group by tier, task, label

),

summed as (

    select
        task,
        label,
        tier,
        sum(case when n_votes >= 2 then 1 else 0 end) as n_units,
        sum(case when n_votes >= 2 then n_votes else 0 end) as n_pairable_values,
        sum(case when n_votes >= 2 then n_positive_votes else 0 end) as n_positive_values,
        avg(observed_agreement) as observed_agreement,
        sum(disagreement_term) as disagreement_sum,
        avg(positive_share) as mean_positive_share

    from tiered_units
    group by task, label, tier
    having sum(case when n_votes >= 2 then 1 else 0 end) > 0

),

measured as (

    select
        summed.task,
        summed.label,
        summed.tier,
        summed.n_units,
        voters.n_annotators,
        summed.n_pairable_values,
        summed.observed_agreement,
        {{ ragmart_krippendorff_alpha('summed.n_pairable_values', 'summed.n_positive_values', 'summed.disagreement_sum') }}
            as krippendorff_alpha,
        {{ ragmart_gwet_ac1('summed.observed_agreement', 'summed.mean_positive_share') }} as gwet_ac1,
        cast(summed.n_positive_values as {{ ragmart_type_double() }}) / summed.n_pairable_values as prevalence

    from summed
    inner join voters
        on
            summed.task = voters.task
            and summed.label = voters.label
            and summed.tier = voters.tier

),

final as (

    select
        task,
        label,
        tier,
        n_units,
        n_annotators,
        n_pairable_values,
        observed_agreement,
        krippendorff_alpha,
        gwet_ac1,
        prevalence,
        cast({{ ragmart_number_var('agreement_alpha_target', 0.75) }} as {{ ragmart_type_double() }}) as alpha_target,
        case
            when krippendorff_alpha is not null
                then krippendorff_alpha >= {{ ragmart_number_var('agreement_alpha_target', 0.75) }}
        end as meets_target

    from measured

)

select * from final
