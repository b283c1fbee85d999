{#-
    Judge calibration rules (README, "Judges"). Both are dispatched, so a project that installs
    ragmart as a package can replace them (dispatch config with its own namespace first) and a
    clone can edit the default.
-#}

{#-
    A judge's weight in the weighted vote from its gold-tier kappa (judge_weights.gold_kappa):
    by default the kappa clipped at 0, and 0 when the kappa is null (no gold-tier unit, or
    chance agreement of 1 on every label).
-#}
{% macro ragmart_judge_weight(gold_kappa) -%}
    {{ return(adapter.dispatch('ragmart_judge_weight', 'ragmart')(gold_kappa)) }}
{%- endmacro %}

{% macro default__ragmart_judge_weight(gold_kappa) -%}
    case when {{ gold_kappa }} > 0 then cast({{ gold_kappa }} as {{ ragmart_type_double() }}) else 0.0 end
{%- endmacro %}

{#-
    The label of a weighted vote from its score, the sum over the voting judges of weight · (+1
    for a 1, −1 for a 0): 1 when the score is positive, 0 when negative, null (tied, unresolved)
    when it is 0. A score within `tolerance` of 0 is a tie: sums of floating-point weights that
    cancel exactly in arithmetic (0.1 + 0.2 − 0.3) must not decide a label by rounding.
-#}
{% macro ragmart_weighted_vote(score, tolerance=1e-9) -%}
    {{ return(adapter.dispatch('ragmart_weighted_vote', 'ragmart')(score, tolerance)) }}
{%- endmacro %}

{% macro default__ragmart_weighted_vote(score, tolerance=1e-9) -%}
    case
        when {{ score }} > {{ tolerance }} then 1
        when {{ score }} < -{{ tolerance }} then 0
    end
{%- endmacro %}
