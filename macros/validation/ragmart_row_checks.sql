{#-
    The `;`-separated, sorted reason codes a row earns from `checks`, null when it earns none. A
    record that did not parse (`is_malformed`, files mode) has no values to check: its one code is
    `malformed_row`.
-#}
{% macro ragmart_reasons_expression(checks) -%}
    case when is_malformed then 'malformed_row' else nullif(concat_ws(';'
        {%- for check in checks %},
        case when {{ check.condition }} then '{{ check.code }}' end
        {%- endfor %}
    ), '') end
{%- endmacro %}

{#- How many of `checks` a row fails (1 for a malformed record). -#}
{% macro ragmart_reason_count_expression(checks) -%}
    case when is_malformed then 1 else (
        {%- for check in checks %}
        case when {{ check.condition }} then 1 else 0 end{% if not loop.last %} +{% endif %}
        {%- endfor %}
    ) end
{%- endmacro %}

{#-
    The row checks of the optional records seed (ADR-001 routing inputs), as {code, condition}
    pairs sorted by code: missing record_uuid, a model_uncertainty that is not a decimal, an
    is_adversarial that is not a boolean spelling, a tier other than tier_a / tier_b.
-#}
{% macro ragmart_records_row_checks() -%}
    {%- set checks = [
        {'code': 'missing:record_uuid', 'condition': 'record_uuid is null'},
        {'code': 'invalid_decimal:model_uncertainty',
         'condition': 'not ' ~ ragmart_is_blank('model_uncertainty_raw') ~ ' and model_uncertainty is null'},
        {'code': 'invalid_boolean:is_adversarial',
         'condition': 'not ' ~ ragmart_is_blank('is_adversarial_raw') ~ ' and is_adversarial is null'},
        {'code': 'invalid_tier', 'condition': "tier is not null and tier not in ('tier_a', 'tier_b')"},
    ] -%}
    {{ return(checks | sort(attribute='code')) }}
{%- endmacro %}
