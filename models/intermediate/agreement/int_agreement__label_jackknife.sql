{#-
    The record-clustered jackknife of Krippendorff's alpha and Gwet's AC1 per task, label and tier
    (docs/rules.md, Agreement uncertainty): one row per row of int_agreement__label_agreement with
    the number of replicates G' and the standard error of each. A record's replicate is the
    statistic without every unit of that record (for AC1 also without its single-vote units),
    computed from the row's totals minus the record's sums: one group-by per record and a join
    with the totals, since alpha and AC1 of binary labels depend on the units only through sums.
    The left-out records are those holding a unit with two or more votes.
-#}
with

unit_votes as (

    select * from {{ ref('int_agreement__unit_votes') }}

),

{#
    A record's sums, once per task and label (a record has one tier). Summing the units once and
    then counting each record for its tier and for `all` holds half the groups that summing the
    units twice (once per tier row) did: under a 3GB memory cap at 12.1M retrieval rows that ran
    out of memory, and this passes, faster uncapped too (docs/benchmarks.md, "Measurements behind the models' shapes").
#}
record_sums_by_tier as (

    select
        task,
        label,
        tier,
        record_uuid,
        sum(case when n_votes >= 2 then 1 else 0 end) as n_units,
        sum(case when n_votes >= 2 then n_votes else 0 end) as n_values,
        sum(case when n_votes >= 2 then n_positive_votes else 0 end) as n_positive_values,
        coalesce(sum({{ ragmart_unit_observed_agreement('n_positive_votes', 'n_votes') }}), 0)
            as observed_agreement_sum,
        coalesce(sum({{ ragmart_unit_disagreement('n_positive_votes', 'n_votes') }}), 0) as disagreement_sum,
        count(*) as n_voted_units,
        sum(cast(n_positive_votes as {{ ragmart_type_double() }}) / n_votes) as positive_share_sum

    from unit_votes
    group by task, label, tier, record_uuid

),

record_sums as (

    select
        task,
        label,
        'all' as tier,
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
        sum(n_units) as n_units,
        sum(n_values) as n_values,
        sum(n_positive_values) as n_positive_values,
        sum(observed_agreement_sum) as observed_agreement_sum,
        sum(disagreement_sum) as disagreement_sum,
        sum(n_voted_units) as n_voted_units,
        sum(positive_share_sum) as positive_share_sum

    from record_sums
    group by task, label, tier
    having sum(n_units) > 0

),

left_out as (

    select
        totals.task,
        totals.label,
        totals.tier,
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
    where record_sums.n_units > 0

),

replicates as (

    select
        task,
        label,
        tier,
        record_uuid,
        case
            when n_units > 0
                then {{ ragmart_krippendorff_alpha('n_values', 'n_positive_values', 'disagreement_sum') }}
        end as krippendorff_alpha,
        case
            when n_units > 0
                then {{ ragmart_gwet_ac1(
                    'observed_agreement_sum / n_units',
                    'positive_share_sum / n_voted_units'
                ) }}
        end as gwet_ac1

    from left_out

),

standard_errors as (

    {{ ragmart_jackknife_standard_errors('replicates', ['task', 'label', 'tier'], ['krippendorff_alpha', 'gwet_ac1']) }}

),

final as (

    select
        task,
        label,
        tier,
        krippendorff_alpha_n_replicates as alpha_n_replicates,
        krippendorff_alpha_standard_error as alpha_standard_error,
        gwet_ac1_n_replicates as ac1_n_replicates,
        gwet_ac1_standard_error as ac1_standard_error

    from standard_errors

)

select * from final
