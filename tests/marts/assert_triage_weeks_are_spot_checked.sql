{{ config(severity='warn') }}
{#- Weeks of triage votes with fewer spot-checked units than drift_min_spot_checks (labeling_drift). -#}
with

drift as (

    select * from {{ ref('labeling_drift') }}

),

thin_weeks as (

    select
        task,
        iso_week,
        n_triage_units,
        n_spot_checked_units,
        min_spot_checks

    from drift
    where has_too_few_spot_checks

)

select * from thin_weeks
