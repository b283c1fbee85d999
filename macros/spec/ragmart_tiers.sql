{#-
    ADR-001 routing (docs/rules.md, "Tier of a record"), as a SQL expression naming the rule that
    decides a record's tier in one family, first match in this order:
    `explicit_tier` (the records seed's tier), `gold_task_type`, `gold_uncertainty`,
    `gold_adversarial` (ANY of these three routes to the gold tier), `triage_default` (in the
    records seed, no rule matched), `fallback_dual_voters` / `fallback_single_voter` (not in the
    records seed: two or more voters route to gold).
-#}
{% macro ragmart_tier_source(explicit_tier, task_type, model_uncertainty, is_adversarial, is_in_records, n_voters) -%}
    {%- set task_types = ragmart_gold_task_types() -%}
    case
        when {{ explicit_tier }} is not null then 'explicit_tier'
        {%- if task_types | length > 0 %}
        when {{ task_type }} in ('{{ task_types | join("', '") }}') then 'gold_task_type'
        {%- endif %}
        when {{ model_uncertainty }} >= {{ ragmart_number_var('gold_uncertainty_threshold', 0.65) }} then 'gold_uncertainty'
        when {{ is_adversarial }} = 1 then 'gold_adversarial'
        when {{ is_in_records }} then 'triage_default'
        when {{ n_voters }} >= 2 then 'fallback_dual_voters'
        else 'fallback_single_voter'
    end
{%- endmacro %}

{#- The tier (`tier_a` triage, `tier_b` gold) that a tier_source stands for. -#}
{% macro ragmart_tier_of_source(tier_source, explicit_tier) -%}
    case
        when {{ tier_source }} = 'explicit_tier' then {{ explicit_tier }}
        when {{ tier_source }} in ('gold_task_type', 'gold_uncertainty', 'gold_adversarial', 'fallback_dual_voters')
            then 'tier_b'
        else 'tier_a'
    end
{%- endmacro %}
