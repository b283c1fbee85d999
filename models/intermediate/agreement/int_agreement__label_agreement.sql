{#-
    Inter-annotator agreement per task, label and tier (all, tier_a, tier_b), over the units with
    two or more votes (docs/rules.md, Agreement and tiers), by the formulas of
    macros/metrics/ragmart_agreement.sql. A tier row exists when the tier has at least one such
    unit. Read by the marts annotator_agreement and labeling_protocol. The voters are counted per
    task and tier from the wide vote rows (int_annotations__accepted_rows of HUMAN annotators in
    the role `annotator`): every accepted row carries every label of its task, so a unit has the
    same votes for all its labels and so the same voters.
    The 95 % intervals of alpha and AC1 and p_alpha_below_target use the record-clustered
    jackknife standard errors of int_agreement__label_jackknife (docs/rules.md, Agreement
    uncertainty).
-#}
with

unit_votes as (

    select * from {{ ref('int_agreement__unit_votes') }}

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

label_jackknife as (

    select * from {{ ref('int_agreement__label_jackknife') }}

),

votes as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

pairable_units as (

    select
        task,
        record_uuid,
        unit_chunk_key

    from votes
    group by task, record_uuid, unit_chunk_key
    having count(*) >= 2

),

pairable_voters as (

    select distinct
        votes.task,
        family_records.tier,
        votes.annotator_id

    from votes
    inner join pairable_units
        on
            votes.task = pairable_units.task
            and votes.record_uuid = pairable_units.record_uuid
            and votes.unit_chunk_key = pairable_units.unit_chunk_key
    inner join family_records
        on
            votes.task = family_records.task
            and votes.record_uuid = family_records.record_uuid

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

voters as (

    select
        'all' as tier,
        task,
        count(distinct annotator_id) as n_annotators

    from pairable_voters
    group by task

    union all

    select
        tier,
        task,
        count(distinct annotator_id) as n_annotators

    from pairable_voters
    group by tier, task

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
            and summed.tier = voters.tier

),

with_uncertainty as (

    select
        measured.*,
        cast({{ ragmart_number_var('agreement_alpha_target', 0.75) }} as {{ ragmart_type_double() }}) as alpha_target,
        label_jackknife.alpha_n_replicates,
        label_jackknife.alpha_standard_error,
        label_jackknife.ac1_n_replicates,
        label_jackknife.ac1_standard_error,
        {{ ragmart_student_t_975('label_jackknife.alpha_n_replicates - 1') | indent(8) }} as alpha_t_quantile,
        {{ ragmart_student_t_975('label_jackknife.ac1_n_replicates - 1') | indent(8) }} as ac1_t_quantile

    from measured
    left join label_jackknife
        on
            measured.task = label_jackknife.task
            and measured.label = label_jackknife.label
            and measured.tier = label_jackknife.tier

),

with_z as (

    select
        *,
        {{ ragmart_jackknife_z('krippendorff_alpha', 'alpha_standard_error', 'alpha_target') }} as alpha_target_z

    from with_uncertainty

),

with_normal_argument as (

    select
        *,
        {{ ragmart_normal_y('alpha_target_z') }} as alpha_target_normal_y

    from with_z

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
        alpha_target,
        case
            when krippendorff_alpha is not null
                then krippendorff_alpha >= {{ ragmart_number_var('agreement_alpha_target', 0.75) }}
        end as meets_target,
        alpha_n_replicates,
        alpha_standard_error,
        {{ ragmart_jackknife_bound('krippendorff_alpha', 'alpha_standard_error', 'alpha_n_replicates',
                                   'alpha_t_quantile', 'lower') }} as alpha_ci_lower,
        {{ ragmart_jackknife_bound('krippendorff_alpha', 'alpha_standard_error', 'alpha_n_replicates',
                                   'alpha_t_quantile', 'upper') }} as alpha_ci_upper,
        ac1_n_replicates,
        ac1_standard_error,
        {{ ragmart_jackknife_bound('gwet_ac1', 'ac1_standard_error', 'ac1_n_replicates', 'ac1_t_quantile', 'lower') }}
            as ac1_ci_lower,
        {{ ragmart_jackknife_bound('gwet_ac1', 'ac1_standard_error', 'ac1_n_replicates', 'ac1_t_quantile', 'upper') }}
            as ac1_ci_upper,
        case
            when krippendorff_alpha is not null
                then {{ ragmart_normal_cdf('alpha_target_z', 'alpha_target_normal_y') | indent(16) }}
        end as p_alpha_below_target

    from with_normal_argument

)

select * from final
