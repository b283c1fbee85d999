{#-
    Agreement of every pair of voters (annotator_a < annotator_b) per task, label and slice
    (overall, language, task_type; int_records__slices) over the units both labelled (tier all):
    shared units, observed agreement, Cohen's kappa and its 95 %
    record-clustered jackknife interval (docs/rules.md, Agreement and tiers, Agreement
    uncertainty). The votes are paired in wide form (int_annotations__accepted_rows of HUMAN
    annotators in the role `annotator`: one row per voter and unit, every label a column), so each
    pair of rows is joined once for all the labels of its task, and counted per record: the pair's counts are the sums
    over its records (of the slice), and a record's replicate (kappa without that record's shared units) is the
    kappa of the totals minus its counts (ragmart_cohen_kappa_from_counts, as for the judges in
    int_judges__label_agreement). Read by the mart annotator_pair_agreement. The wide form is a
    speed trick that earns its keep: pairing long rows (one per accepted row and label) per unit
    and label instead takes about twice the time and twice the memory
    (docs/benchmarks.md, "Measurements behind the models' shapes").
-#}
with

student_t as (

    select * from {{ ref('int_metrics__t_quantiles') }}

),

votes as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN' and annotator_role = 'annotator'

),

record_slices as (

    select * from {{ ref('int_records__slices') }}

),

pair_records as (

    select
        votes_a.task,
        votes_a.annotator_id as annotator_a,
        votes_b.annotator_id as annotator_b,
        votes_a.record_uuid,
        count(*) as n_shared_units,
        {%- for label in ragmart_labels() %}
        sum(case when votes_a.{{ label }} = votes_b.{{ label }} then 1 else 0 end) as n_agreeing_{{ label }},
        sum(votes_a.{{ label }}) as n_positive_a_{{ label }},
        sum(votes_b.{{ label }}) as n_positive_b_{{ label }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from votes as votes_a
    inner join votes as votes_b
        on
            votes_a.task = votes_b.task
            and votes_a.record_uuid = votes_b.record_uuid
            and votes_a.unit_chunk_key = votes_b.unit_chunk_key
            and {{ ragmart_collate_binary('votes_a.annotator_id') }} < votes_b.annotator_id
    group by votes_a.task, votes_a.annotator_id, votes_b.annotator_id, votes_a.record_uuid

),

task_labels as (
    {{ ragmart_task_labels() }}

),

record_counts as (

    select
        pair_records.task,
        task_labels.label,
        record_slices.slice_dimension,
        record_slices.slice_value,
        pair_records.annotator_a,
        pair_records.annotator_b,
        pair_records.record_uuid,
        pair_records.n_shared_units,
        {{ ragmart_label_value('task_labels.label', 'pair_records.n_agreeing_{label}') | indent(8) }} as n_agreeing,
        {{ ragmart_label_value('task_labels.label', 'pair_records.n_positive_a_{label}') | indent(8) }} as n_positive_a,
        {{ ragmart_label_value('task_labels.label', 'pair_records.n_positive_b_{label}') | indent(8) }} as n_positive_b

    from pair_records
    inner join task_labels
        on pair_records.task = task_labels.task
    inner join record_slices
        on
            pair_records.task = record_slices.task
            and pair_records.record_uuid = record_slices.record_uuid

),

totals as (

    select
        task,
        label,
        slice_dimension,
        slice_value,
        annotator_a,
        annotator_b,
        sum(n_shared_units) as n_shared_units,
        sum(n_agreeing) as n_agreeing,
        sum(n_positive_a) as n_positive_a,
        sum(n_positive_b) as n_positive_b

    from record_counts
    group by task, label, slice_dimension, slice_value, annotator_a, annotator_b

),

{# Each record's counts taken out of its pair's: the pair's totals without the record. #}
left_out as (

    select
        totals.task,
        totals.label,
        totals.slice_dimension,
        totals.slice_value,
        totals.annotator_a,
        totals.annotator_b,
        record_counts.record_uuid,
        totals.n_shared_units - record_counts.n_shared_units as n_shared_units,
        totals.n_agreeing - record_counts.n_agreeing as n_agreeing,
        totals.n_positive_a - record_counts.n_positive_a as n_positive_a,
        totals.n_positive_b - record_counts.n_positive_b as n_positive_b

    from record_counts
    inner join totals
        on
            record_counts.task = totals.task
            and record_counts.label = totals.label
            and record_counts.slice_dimension = totals.slice_dimension
            and record_counts.slice_value = totals.slice_value
            and record_counts.annotator_a = totals.annotator_a
            and record_counts.annotator_b = totals.annotator_b

),

replicates as (

    select
        task,
        label,
        slice_dimension,
        slice_value,
        annotator_a,
        annotator_b,
        record_uuid,
        {{ ragmart_cohen_kappa_from_counts('n_shared_units', 'n_agreeing', 'n_positive_a', 'n_positive_b') }} as cohen_kappa

    from left_out

),

standard_errors as (

    {{ ragmart_jackknife_standard_errors('replicates', ['task', 'label', 'slice_dimension', 'slice_value', 'annotator_a', 'annotator_b'],
        ['cohen_kappa'],
    ) }}

),

with_kappa as (

    select
        totals.task,
        totals.label,
        totals.slice_dimension,
        totals.slice_value,
        totals.annotator_a,
        totals.annotator_b,
        totals.n_shared_units,
        cast(totals.n_agreeing as {{ ragmart_type_double() }}) / totals.n_shared_units as observed_agreement,
        {{ ragmart_cohen_kappa_from_counts(
            'totals.n_shared_units', 'totals.n_agreeing', 'totals.n_positive_a', 'totals.n_positive_b'
        ) | indent(8) }} as cohen_kappa,
        standard_errors.cohen_kappa_n_replicates as kappa_n_replicates,
        standard_errors.cohen_kappa_standard_error as kappa_standard_error,
        {{ ragmart_student_t_975('standard_errors.cohen_kappa_n_replicates - 1', 'kappa_t.t_975') | indent(8) }}
            as kappa_t_quantile

    from totals
    inner join standard_errors
        on
            totals.task = standard_errors.task
            and totals.label = standard_errors.label
            and totals.slice_dimension = standard_errors.slice_dimension
            and totals.slice_value = standard_errors.slice_value
            and totals.annotator_a = standard_errors.annotator_a
            and totals.annotator_b = standard_errors.annotator_b
    left join student_t as kappa_t
        on standard_errors.cohen_kappa_n_replicates - 1 = kappa_t.degrees_of_freedom

),

final as (

    select
        task,
        label,
        slice_dimension,
        slice_value,
        annotator_a,
        annotator_b,
        n_shared_units,
        observed_agreement,
        cohen_kappa,
        kappa_n_replicates,
        kappa_standard_error,
        {{ ragmart_jackknife_bound('cohen_kappa', 'kappa_standard_error', 'kappa_n_replicates', 'kappa_t_quantile', 'lower') }}
            as kappa_ci_lower,
        {{ ragmart_jackknife_bound('cohen_kappa', 'kappa_standard_error', 'kappa_n_replicates', 'kappa_t_quantile', 'upper') }}
            as kappa_ci_upper

    from with_kappa

)

select * from final
