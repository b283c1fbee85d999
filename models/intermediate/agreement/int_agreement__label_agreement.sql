{#-
    Inter-annotator agreement per task, label, tier (all, tier_a, tier_b) and slice (overall,
    language, task_type; int_records__slices), over the units with two or more votes
    (docs/rules.md, Agreement and tiers; Agreement where it is tracked): Krippendorff's alpha by
    the formulas of macros/metrics/ragmart_agreement.sql, the observed agreement and Gwet's AC1
    written out here, each once for the estimate and its jackknife replicates, with the 95 %
    intervals of alpha and AC1 from their record-clustered jackknife standard errors, and
    p_alpha_below_target (docs/rules.md, Agreement uncertainty). A row exists when its tier and
    slice have at least one such unit. Read by the marts annotator_agreement and labeling_protocol.
    The units are the voted ones of int_annotations__label_consensus, which has counted each
    unit's votes (m_u) and 1-votes (n_u1). Alpha and AC1 of binary labels depend on the units only
    through sums, so the units are summed once per record: a row's statistic is that of its
    records' totals, and a record's jackknife replicate (the statistic without every unit of that
    record, for AC1 also without its single-vote units) that of the totals minus the record's
    sums. The left-out records are those holding a unit with two or more votes. A slice is one
    more grouping key of the record sums: every record is in one slice of each dimension, so a
    slice's statistics are those of its records' totals, by the same formulas.
    The voters are counted per task, tier and slice from the wide vote rows
    (int_annotations__accepted_rows of HUMAN annotators in the role `annotator`): every accepted
    row carries every label of its task, so a unit has the same votes for all its labels and so
    the same voters.
-#}
with

label_consensus as (

    select * from {{ ref('int_annotations__label_consensus') }}
    where n_votes > 0

),

{# A record's tier and its slices (overall, language, task_type): one row per slice. #}
record_slices as (

    select * from {{ ref('int_records__slices') }}

),

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

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

{# The voters of a record's pairable units; a record has one tier and one value per slice dimension. #}
pairable_record_voters as (

    select distinct
        votes.task,
        votes.record_uuid,
        votes.annotator_id

    from votes
    inner join pairable_units
        on
            votes.task = pairable_units.task
            and votes.record_uuid = pairable_units.record_uuid
            and votes.unit_chunk_key = pairable_units.unit_chunk_key

),

pairable_voters as (

    select distinct
        pairable_record_voters.task,
        record_slices.tier,
        record_slices.slice_dimension,
        record_slices.slice_value,
        pairable_record_voters.annotator_id

    from pairable_record_voters
    inner join record_slices
        on
            pairable_record_voters.task = record_slices.task
            and pairable_record_voters.record_uuid = record_slices.record_uuid

),

voters as (

    select
        'all' as tier,
        task,
        slice_dimension,
        slice_value,
        count(distinct annotator_id) as n_annotators

    from pairable_voters
    group by task, slice_dimension, slice_value

    union all

    select
        tier,
        task,
        slice_dimension,
        slice_value,
        count(distinct annotator_id) as n_annotators

    from pairable_voters
    group by tier, task, slice_dimension, slice_value

),

{#
    A record's sums per task and label, then its tier and slices (one tier per record, one row
    per slice): summed before they are joined, the units meet the records once per record and
    label. Each record counts for its tier
    and for `all`: summing the units once per tier row instead holds twice the groups, which ran
    out of memory under a 3GB cap at 12.1M retrieval rows (docs/benchmarks.md, "Measurements behind
    the models' shapes").
#}
record_label_sums as (

    select
        task,
        label,
        record_uuid,
        sum(case when n_votes >= 2 then 1 else 0 end) as n_units,
        sum(case when n_votes >= 2 then n_votes else 0 end) as n_values,
        sum(case when n_votes >= 2 then n_positive_votes else 0 end) as n_positive_values,
        {#- a unit's observed agreement: Σ_c n_uc(n_uc − 1) / (m_u(m_u − 1)), null below two votes #}
        {%- set observed_agreement %}
            case
                when n_votes >= 2 then
                    cast(
                        n_positive_votes * (n_positive_votes - 1)
                        + (n_votes - n_positive_votes) * (n_votes - n_positive_votes - 1)
                        as {{ ragmart_type_double() }}
                    ) / (n_votes * (n_votes - 1))
            end
        {%- endset %}
        coalesce({{ ragmart_exact_sum(observed_agreement) }}, 0) as observed_agreement_sum,
        coalesce({{ ragmart_exact_sum(ragmart_unit_disagreement('n_positive_votes', 'n_votes')) }}, 0) as disagreement_sum,
        count(*) as n_voted_units,
        {{ ragmart_exact_sum('cast(n_positive_votes as ' ~ ragmart_type_double() ~ ') / n_votes') }} as positive_share_sum

    from label_consensus
    group by task, label, record_uuid

),

record_sums_by_tier as (

    select
        record_label_sums.*,
        record_slices.tier,
        record_slices.slice_dimension,
        record_slices.slice_value

    from record_label_sums
    inner join record_slices
        on
            record_label_sums.task = record_slices.task
            and record_label_sums.record_uuid = record_slices.record_uuid

),

record_sums as (

    select
        task,
        label,
        'all' as tier,
        slice_dimension,
        slice_value,
        record_uuid,
        n_units,
        n_values,
        n_positive_values,
        observed_agreement_sum,
        disagreement_sum,
        n_voted_units,
        positive_share_sum

    from record_sums_by_tier

    union all

    select
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        record_uuid,
        n_units,
        n_values,
        n_positive_values,
        observed_agreement_sum,
        disagreement_sum,
        n_voted_units,
        positive_share_sum

    from record_sums_by_tier

),

totals as (

    select
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        sum(n_units) as n_units,
        sum(n_values) as n_values,
        sum(n_positive_values) as n_positive_values,
        {{ ragmart_exact_sum('observed_agreement_sum') }} as observed_agreement_sum,
        {{ ragmart_exact_sum('disagreement_sum') }} as disagreement_sum,
        sum(n_voted_units) as n_voted_units,
        {{ ragmart_exact_sum('positive_share_sum') }} as positive_share_sum

    from record_sums
    group by task, label, tier, slice_dimension, slice_value
    having sum(n_units) > 0

),

left_out as (

    select
        totals.task,
        totals.label,
        totals.tier,
        totals.slice_dimension,
        totals.slice_value,
        record_sums.record_uuid,
        totals.n_units - record_sums.n_units as n_units,
        totals.n_values - record_sums.n_values as n_values,
        totals.n_positive_values - record_sums.n_positive_values as n_positive_values,
        totals.observed_agreement_sum - record_sums.observed_agreement_sum as observed_agreement_sum,
        totals.disagreement_sum - record_sums.disagreement_sum as disagreement_sum,
        totals.n_voted_units - record_sums.n_voted_units as n_voted_units,
        totals.positive_share_sum - record_sums.positive_share_sum as positive_share_sum

    from record_sums
    inner join totals
        on
            record_sums.task = totals.task
            and record_sums.label = totals.label
            and record_sums.tier = totals.tier
            and record_sums.slice_dimension = totals.slice_dimension
            and record_sums.slice_value = totals.slice_value
    where record_sums.n_units > 0

),

{#
    The inputs of the statistics: the totals, for the estimate, and for each left-out record the
    totals minus its sums, for its jackknife replicate. One formula measures both.
#}
statistic_inputs as (

    select
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        record_uuid,
        false as is_estimate,
        n_units,
        n_values,
        n_positive_values,
        observed_agreement_sum,
        disagreement_sum,
        n_voted_units,
        positive_share_sum

    from left_out

    union all

    select
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        cast(null as {{ dbt.type_string() }}) as record_uuid,
        true as is_estimate,
        n_units,
        n_values,
        n_positive_values,
        observed_agreement_sum,
        disagreement_sum,
        n_voted_units,
        positive_share_sum

    from totals

),

statistics as (

    select
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        record_uuid,
        is_estimate,
        case
            when n_units > 0
                then {{ ragmart_krippendorff_alpha('n_values', 'n_positive_values', 'disagreement_sum') }}
        end as krippendorff_alpha,
        {#-
            Gwet's AC1 for two categories: (p_a − p_e) / (1 − p_e), p_e = Σ_c π_c (1 − π_c) =
            2 π_1 (1 − π_1), with p_a the mean observed agreement of the units with two or more
            votes and π_1 the mean share of 1-votes over the units with at least one vote
        #}
        case
            when n_units > 0
                then
                    (
                        observed_agreement_sum / n_units
                        - 2 * positive_share_sum / n_voted_units * (1 - positive_share_sum / n_voted_units)
                    )
                    / (1 - 2 * positive_share_sum / n_voted_units * (1 - positive_share_sum / n_voted_units))
        end as gwet_ac1

    from statistic_inputs

),

replicates as (

    select
        task,
        label,
        tier,
        slice_dimension,
        slice_value,
        record_uuid,
        krippendorff_alpha,
        gwet_ac1

    from statistics
    where not is_estimate

),

standard_errors as (

    {{ ragmart_jackknife_standard_errors('replicates', ['task', 'label', 'tier', 'slice_dimension', 'slice_value'],
        ['krippendorff_alpha', 'gwet_ac1'],
    ) }}

),

measured as (

    select
        totals.task,
        totals.label,
        totals.tier,
        totals.slice_dimension,
        totals.slice_value,
        totals.n_units,
        voters.n_annotators,
        totals.n_values as n_pairable_values,
        totals.observed_agreement_sum / totals.n_units as observed_agreement,
        estimates.krippendorff_alpha,
        estimates.gwet_ac1,
        cast(totals.n_positive_values as {{ ragmart_type_double() }}) / totals.n_values as prevalence

    from totals
    inner join voters
        on
            totals.task = voters.task
            and totals.tier = voters.tier
            and totals.slice_dimension = voters.slice_dimension
            and totals.slice_value = voters.slice_value
    inner join statistics as estimates
        on
            totals.task = estimates.task
            and totals.label = estimates.label
            and totals.tier = estimates.tier
            and totals.slice_dimension = estimates.slice_dimension
            and totals.slice_value = estimates.slice_value
            and estimates.is_estimate

),

with_uncertainty as (

    select
        measured.*,
        cast({{ ragmart_setting('agreement_alpha_target') }} as {{ ragmart_type_double() }}) as alpha_target,
        standard_errors.krippendorff_alpha_n_replicates as alpha_n_replicates,
        standard_errors.krippendorff_alpha_standard_error as alpha_standard_error,
        standard_errors.gwet_ac1_n_replicates as ac1_n_replicates,
        standard_errors.gwet_ac1_standard_error as ac1_standard_error,
        {{ ragmart_student_t_975('standard_errors.krippendorff_alpha_n_replicates - 1', 'alpha_t.t_975') | indent(8) }}
            as alpha_t_quantile,
        {{ ragmart_student_t_975('standard_errors.gwet_ac1_n_replicates - 1', 'ac1_t.t_975') | indent(8) }}
            as ac1_t_quantile

    from measured
    left join standard_errors
        on
            measured.task = standard_errors.task
            and measured.label = standard_errors.label
            and measured.tier = standard_errors.tier
            and measured.slice_dimension = standard_errors.slice_dimension
            and measured.slice_value = standard_errors.slice_value
    left join student_t as alpha_t
        on standard_errors.krippendorff_alpha_n_replicates - 1 = alpha_t.degrees_of_freedom
    left join student_t as ac1_t
        on standard_errors.gwet_ac1_n_replicates - 1 = ac1_t.degrees_of_freedom

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
        slice_dimension,
        slice_value,
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
                then krippendorff_alpha >= {{ ragmart_setting('agreement_alpha_target') }}
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
