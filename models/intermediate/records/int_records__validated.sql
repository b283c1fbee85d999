{#-
    One row per distinct row of the records input (exact copies count once, left out in staging)
    with its status: rows with reasons are rejected; several rows for one record keep one row when
    they agree (the fewest reasons, then the first in the files: the file first by name, then the
    earlier row; the others superseded) and are all rejected as conflicting_duplicate when they
    differ (in any value, run_id and query_id included). A rejected row counts as absent from the
    input: its record falls back to the default run and its query text (int_records__per_family).
-#}
{#-
    The row checks of the records seed (ADR-001 routing inputs), sorted by code: missing
    record_uuid, a model_uncertainty that is not a decimal, an is_adversarial that is not a boolean
    spelling, a tier other than tier_a / tier_b.
-#}
{%- set checks = [
    {'code': 'missing:record_uuid', 'condition': 'record_uuid is null'},
    {'code': 'invalid_decimal:model_uncertainty',
     'condition': 'not ' ~ ragmart_is_blank('model_uncertainty_raw') ~ ' and model_uncertainty is null'},
    {'code': 'invalid_boolean:is_adversarial',
     'condition': 'not ' ~ ragmart_is_blank('is_adversarial_raw') ~ ' and is_adversarial is null'},
    {'code': 'invalid_tier', 'condition': "tier is not null and tier not in ('tier_a', 'tier_b')"},
] | sort(attribute='code') %}
with

staged as (

    select * from {{ ref('stg_annotation_exports__records') }}

),

checked as (

    select
        annotation_row_id,
        source_file,
        source_row,
        record_uuid,
        task_type,
        model_uncertainty,
        is_adversarial,
        tier,
        run_id,
        query_id,
        {{ ragmart_reasons_expression(checks) }} as row_reasons,
        {#- how many checks the row fails (1 for a malformed record) #}
        case when is_malformed then 1 else (
            {%- for check in checks %}
            case when {{ check.condition }} then 1 else 0 end{% if not loop.last %} +{% endif %}
            {%- endfor %}
        ) end as n_row_reasons,
        {{ dbt.concat([
            "coalesce(task_type, '-')", "'|'",
            "coalesce(cast(model_uncertainty as " ~ dbt.type_string() ~ "), '-')", "'|'",
            "coalesce(cast(is_adversarial as " ~ dbt.type_string() ~ "), '-')", "'|'",
            "coalesce(tier, '-')", "'|'",
            "coalesce(run_id, '-')", "'|'",
            "coalesce(query_id, '-')"]) }} as record_signature

    from staged

),

compared_with_same_record as (

    select
        *,
        min(record_signature) over (partition by record_uuid) as min_record_signature,
        max(record_signature) over (partition by record_uuid) as max_record_signature,
        row_number() over (
            partition by record_uuid
            order by n_row_reasons, {{ ragmart_collate_binary('source_file') }}, source_row
        ) as position_in_record

    from checked

),

final as (

    select
        annotation_row_id,
        record_uuid,
        task_type,
        model_uncertainty,
        tier,
        run_id,
        query_id,
        'records' as task,
        coalesce(is_adversarial, 0) as is_adversarial,
        case
            when record_uuid is not null and min_record_signature <> max_record_signature then 'rejected'
            when record_uuid is not null and position_in_record > 1 then 'superseded'
            when n_row_reasons > 0 then 'rejected'
            else 'accepted'
        end as annotation_status,
        case
            when record_uuid is not null and min_record_signature <> max_record_signature
                then concat_ws(';', 'conflicting_duplicate', row_reasons)
            else row_reasons
        end as reasons

    from compared_with_same_record

)

select * from final
