{#-
    Judge-powered metrics (docs/rules.md, Judge-powered metrics): per run, judge, metric and
    slice, the mean of the humans' values on the records both labelled (L), corrected with the
    judge's values on L and on the run's records no human labelled (U) by prediction-powered
    inference with power tuning (PPI++), beside the humans' value on L and the judge's alone on
    L and U. Three passes over the records' values, each sum exact (ragmart_exact_sums.sql): the
    means, then the sums of squares and products about them (λ), then the spread of Y − λŶ.
-#}
{%- set z = 1.959963984540054 %}
{%- set group_columns = ['run_id', 'annotator_id', 'family', 'metric', 'k', 'slice_dimension', 'slice_value'] %}
with

judge_record_values as (

    select * from {{ ref('int_judges__record_values') }}
    {#- conditional fabrication is a ratio over the cited answers, not a mean over records #}
    where
        label_source in ('judge', 'judge_unlabelled')
        and metric <> 'conditional_fabrication_rate'

),

human_record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

annotators as (

    select * from {{ ref('stg_annotation_exports__annotators') }}

),

{# L: the judge's compared records, with the human value (Y) and the judge's (Ŷ); U: Ŷ alone. #}
record_values as (

    select
        judge_record_values.run_id,
        judge_record_values.source_id as annotator_id,
        judge_record_values.family,
        judge_record_values.metric,
        judge_record_values.k,
        judge_record_values.language,
        human_record_values.value as human_value,
        judge_record_values.value as judge_value

    from judge_record_values
    inner join human_record_values
        on
            judge_record_values.family = human_record_values.family
            and judge_record_values.record_uuid = human_record_values.record_uuid
            and judge_record_values.metric = human_record_values.metric
            and coalesce(judge_record_values.k, 0) = coalesce(human_record_values.k, 0)
    where judge_record_values.label_source = 'judge'

    union all

    select
        run_id,
        source_id as annotator_id,
        family,
        metric,
        k,
        language,
        cast(null as {{ ragmart_type_double() }}) as human_value,
        value as judge_value

    from judge_record_values
    where label_source = 'judge_unlabelled'

),

sliced as (

    select
        run_id,
        annotator_id,
        family,
        metric,
        k,
        'overall' as slice_dimension,
        'all' as slice_value,
        human_value,
        judge_value

    from record_values

    union all

    select
        run_id,
        annotator_id,
        family,
        metric,
        k,
        'language' as slice_dimension,
        language as slice_value,
        human_value,
        judge_value

    from record_values

),

{#
    Pass 1: n, N and the means ȳ, f̄ (Ŷ on L), f̃ (Ŷ on U) and Ŷ's on L and U together. The mean
    of equal values is that value, to the last bit, so that equal values have no spread.
#}
group_means as (

    select
        {{ group_columns | join(',\n        ') }},
        count(human_value) as n_labeled,
        count(*) - count(human_value) as n_unlabeled,
        {%- for name, expression in [
            ('human_mean', 'human_value'),
            ('labeled_judge_mean', 'case when human_value is not null then judge_value end'),
            ('unlabeled_judge_mean', 'case when human_value is null then judge_value end'),
            ('judge_mean', 'judge_value'),
        ] %}
        case
            when min({{ expression }}) = max({{ expression }}) then min({{ expression }})
            else {{ ragmart_exact_avg(expression) }}
        end as {{ name }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from sliced
    group by {{ group_columns | join(', ') }}
    having count(human_value) >= 2 and count(*) - count(human_value) >= 1

),

{# Pass 2: the sums of squares and products about those means, and λ. #}
group_moments as (

    select
        {%- for column in group_columns %}
        group_means.{{ column }},
        {%- endfor %}
        group_means.n_labeled,
        group_means.n_unlabeled,
        group_means.human_mean,
        group_means.labeled_judge_mean,
        group_means.unlabeled_judge_mean,
        group_means.judge_mean,
        {{ ragmart_exact_sum('(sliced.human_value - group_means.human_mean)'
                             ~ ' * (sliced.judge_value - group_means.labeled_judge_mean)') }} as product_sum,
        {{ ragmart_exact_sum('(sliced.human_value - group_means.human_mean)'
                             ~ ' * (sliced.human_value - group_means.human_mean)') }} as human_squares,
        {{ ragmart_exact_sum('(sliced.judge_value - group_means.judge_mean)'
                             ~ ' * (sliced.judge_value - group_means.judge_mean)') }} as judge_squares,
        {{ ragmart_exact_sum('case when sliced.human_value is null then'
                             ~ ' (sliced.judge_value - group_means.unlabeled_judge_mean)'
                             ~ ' * (sliced.judge_value - group_means.unlabeled_judge_mean) end') }}
            as unlabeled_judge_squares

    from group_means
    inner join sliced
        on
            group_means.run_id = sliced.run_id
            and group_means.annotator_id = sliced.annotator_id
            and group_means.family = sliced.family
            and group_means.metric = sliced.metric
            and coalesce(group_means.k, 0) = coalesce(sliced.k, 0)
            and group_means.slice_dimension = sliced.slice_dimension
            and group_means.slice_value = sliced.slice_value
    group by
        {%- for column in group_columns %}
        group_means.{{ column }},
        {%- endfor %}
        group_means.n_labeled,
        group_means.n_unlabeled,
        group_means.human_mean,
        group_means.labeled_judge_mean,
        group_means.unlabeled_judge_mean,
        group_means.judge_mean

),

{#
    λ = ĉ / ((1 + n/N) v̂) clipped to [0, 1], ĉ = (1/n) Σ_L (Y − ȳ)(Ŷ − f̄) and v̂ the sample
    variance of Ŷ over L and U (denominator n + N − 1); 0 when v̂ = 0.
#}
tuned as (

    select
        group_moments.*,
        case
            when group_moments.judge_squares = 0 then 0.0
            else greatest(
                0.0,
                least(
                    1.0,
                    (group_moments.product_sum / group_moments.n_labeled)
                    / (
                        (1 + cast(group_moments.n_labeled as {{ ragmart_type_double() }}) / group_moments.n_unlabeled)
                        * (group_moments.judge_squares / (group_moments.n_labeled + group_moments.n_unlabeled - 1))
                    )
                )
            )
        end as power_tuning

    from group_moments

),

{# Pass 3: the spread of Y − λŶ on L about its mean ȳ − λf̄. #}
rectified as (

    select
        {%- for column in group_columns %}
        tuned.{{ column }},
        {%- endfor %}
        min(tuned.n_labeled) as n_labeled,
        min(tuned.n_unlabeled) as n_unlabeled,
        min(tuned.human_mean) as human_mean,
        min(tuned.labeled_judge_mean) as labeled_judge_mean,
        min(tuned.unlabeled_judge_mean) as unlabeled_judge_mean,
        min(tuned.judge_mean) as judge_mean,
        {#- population variances (denominators n and N) #}
        min(tuned.human_squares / tuned.n_labeled) as human_variance,
        min(tuned.unlabeled_judge_squares / tuned.n_unlabeled) as unlabeled_judge_variance,
        min(tuned.judge_squares / (tuned.n_labeled + tuned.n_unlabeled)) as judge_variance,
        min(tuned.power_tuning) as power_tuning,
        {{ ragmart_exact_sum('((sliced.human_value - tuned.human_mean)'
                             ~ ' - tuned.power_tuning * (sliced.judge_value - tuned.labeled_judge_mean))'
                             ~ ' * ((sliced.human_value - tuned.human_mean)'
                             ~ ' - tuned.power_tuning * (sliced.judge_value - tuned.labeled_judge_mean))') }}
        / min(tuned.n_labeled) as rectifier_variance

    from tuned
    inner join sliced
        on
            tuned.run_id = sliced.run_id
            and tuned.annotator_id = sliced.annotator_id
            and tuned.family = sliced.family
            and tuned.metric = sliced.metric
            and coalesce(tuned.k, 0) = coalesce(sliced.k, 0)
            and tuned.slice_dimension = sliced.slice_dimension
            and tuned.slice_value = sliced.slice_value
    where sliced.human_value is not null
    group by {% for column in group_columns %}tuned.{{ column }}{% if not loop.last %}, {% endif %}{% endfor %}

),

{#
    ppi_value = λ f̃ + (1/n) Σ_L (Y − λŶ) = λ f̃ + ȳ − λ f̄; se² = Var_U(λŶ)/N + Var_L(Y − λŶ)/n;
    the humans' standard error sd(Y)/√n and the judge's alone sd(Ŷ)/√(n + N) over L and U
    (population sds, as ppi-python's classical interval).
#}
estimated as (

    select
        rectified.*,
        rectified.power_tuning * rectified.unlabeled_judge_mean
        + rectified.human_mean - rectified.power_tuning * rectified.labeled_judge_mean as ppi_value,
        sqrt(
            rectified.power_tuning * rectified.power_tuning * rectified.unlabeled_judge_variance / rectified.n_unlabeled
            + rectified.rectifier_variance / rectified.n_labeled
        ) as ppi_standard_error,
        sqrt(rectified.human_variance / rectified.n_labeled) as human_standard_error,
        sqrt(rectified.judge_variance / (rectified.n_labeled + rectified.n_unlabeled)) as judge_standard_error

    from rectified

),

with_intervals as (

    select
        estimated.run_id,
        estimated.annotator_id,
        annotators.annotator_kind,
        estimated.family,
        estimated.metric,
        estimated.k,
        estimated.slice_dimension,
        estimated.slice_value,
        estimated.n_labeled,
        estimated.n_unlabeled,
        estimated.human_mean as human_value,
        greatest(0.0, least(1.0, estimated.human_mean - {{ z }} * estimated.human_standard_error)) as human_ci_lower,
        greatest(0.0, least(1.0, estimated.human_mean + {{ z }} * estimated.human_standard_error)) as human_ci_upper,
        estimated.judge_mean as judge_value,
        greatest(0.0, least(1.0, estimated.judge_mean - {{ z }} * estimated.judge_standard_error)) as judge_ci_lower,
        greatest(0.0, least(1.0, estimated.judge_mean + {{ z }} * estimated.judge_standard_error)) as judge_ci_upper,
        estimated.power_tuning as {{ adapter.quote('lambda') }},
        estimated.ppi_value,
        greatest(0.0, least(1.0, estimated.ppi_value - {{ z }} * estimated.ppi_standard_error)) as ppi_ci_lower,
        greatest(0.0, least(1.0, estimated.ppi_value + {{ z }} * estimated.ppi_standard_error)) as ppi_ci_upper,
        case
            when estimated.ppi_standard_error > 0
                then estimated.human_variance / (estimated.ppi_standard_error * estimated.ppi_standard_error)
        end as effective_n,
        case
            when estimated.human_standard_error > 0
                then estimated.ppi_standard_error / estimated.human_standard_error
        end as width_ratio

    from estimated
    left join annotators
        on estimated.annotator_id = annotators.annotator_id

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from with_intervals

)

select * from final
