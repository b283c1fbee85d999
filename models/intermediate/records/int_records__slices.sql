{#-
    The slices of the agreement marts (docs/rules.md, Agreement where it is tracked): one row per
    record, family (task) and slice the record belongs to, with the record's tier: `overall`
    (`overall`), `language` (its language in the family, as the metric slices take it) and
    `task_type` (the records input's `task_type`, trimmed; `unknown` for a record without one, or
    without an accepted records row). Every agreement statistic groups its records' sums by
    (slice_dimension, slice_value) beside its own keys, so each slice is computed by the same
    formulas as the overall row.
-#}
with

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

records_input as (

    select * from {{ ref('int_records__validated') }}
    where annotation_status = 'accepted'

),

with_task_type as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.tier,
        family_records.language,
        coalesce({{ ragmart_clean_text('records_input.task_type') }}, 'unknown') as task_type

    from family_records
    left join records_input
        on family_records.record_uuid = records_input.record_uuid

),

final as (

    select
        task,
        record_uuid,
        tier,
        'overall' as slice_dimension,
        'overall' as slice_value

    from with_task_type

    union all

    select
        task,
        record_uuid,
        tier,
        'language' as slice_dimension,
        language as slice_value

    from with_task_type

    union all

    select
        task,
        record_uuid,
        tier,
        'task_type' as slice_dimension,
        task_type as slice_value

    from with_task_type

)

select * from final
