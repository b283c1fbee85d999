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

final as (

    select
        task,
        record_uuid,
        tier,
        'overall' as slice_dimension,
        'overall' as slice_value

    from family_records

    union all

    select
        task,
        record_uuid,
        tier,
        'language' as slice_dimension,
        language as slice_value

    from family_records

    union all

    select
        task,
        record_uuid,
        tier,
        'task_type' as slice_dimension,
        task_type as slice_value

    from family_records

)

select * from final
