{#-
    Agreement measures of docs/rules.md (Agreement and tiers) for binary labels. Votes of a unit u:
    m_u votes of which n_u1 are 1 (n_u0 = m_u − n_u1).
-#}

{#- Observed agreement of one unit: Σ_c n_uc(n_uc − 1) / (m_u(m_u − 1)); null below two votes. -#}
{% macro ragmart_unit_observed_agreement(n_positive, n_votes) -%}
    case
        when {{ n_votes }} >= 2 then
            cast(
                {{ n_positive }} * ({{ n_positive }} - 1)
                + ({{ n_votes }} - {{ n_positive }}) * ({{ n_votes }} - {{ n_positive }} - 1)
                as {{ ragmart_type_double() }}
            ) / ({{ n_votes }} * ({{ n_votes }} - 1))
    end
{%- endmacro %}

{#- A unit's term of Krippendorff's disagreement: Σ_{c≠k} n_uc n_uk / (m_u − 1), halved (binary: n_u0 n_u1 / (m_u − 1)). -#}
{% macro ragmart_unit_disagreement(n_positive, n_votes) -%}
    case
        when {{ n_votes }} >= 2 then
            cast({{ n_positive }} * ({{ n_votes }} - {{ n_positive }}) as {{ ragmart_type_double() }})
            / ({{ n_votes }} - 1)
    end
{%- endmacro %}

{#-
    Krippendorff's alpha, nominal: 1 − (n − 1) · Σ_u D_u / (n_0 n_1), with n pairable values,
    n_1 of them 1, and Σ_u D_u the summed unit disagreement terms (ragmart_unit_disagreement).
    Null when the expected disagreement is 0 (every value equal).
-#}
{% macro ragmart_krippendorff_alpha(n_values, n_positive_values, disagreement_sum) -%}
    case
        when {{ n_positive_values }} > 0 and {{ n_values }} - {{ n_positive_values }} > 0 then
            1 - ({{ n_values }} - 1) * {{ disagreement_sum }}
            / (cast({{ n_positive_values }} as {{ ragmart_type_double() }}) * ({{ n_values }} - {{ n_positive_values }}))
    end
{%- endmacro %}

{#-
    Gwet's AC1 for two categories: (p_a − p_e) / (1 − p_e), p_e = Σ_c π_c (1 − π_c) = 2 π_1 (1 − π_1),
    with π_1 the mean share of 1-votes over the units with at least one vote.
-#}
{% macro ragmart_gwet_ac1(observed_agreement, mean_positive_share) -%}
    ({{ observed_agreement }} - 2 * {{ mean_positive_share }} * (1 - {{ mean_positive_share }}))
    / (1 - 2 * {{ mean_positive_share }} * (1 - {{ mean_positive_share }}))
{%- endmacro %}

{#-
    Cohen's kappa of two raters on shared units: (p_o − p_e) / (1 − p_e), p_e from the two raters'
    marginal shares of 1 (p_a1, p_b1): p_a1 p_b1 + (1 − p_a1)(1 − p_b1). Null when p_e = 1.
-#}
{% macro ragmart_cohen_kappa(observed_agreement, positive_share_a, positive_share_b) -%}
    {%- set expected -%}
        ({{ positive_share_a }} * {{ positive_share_b }} + (1 - {{ positive_share_a }}) * (1 - {{ positive_share_b }}))
    {%- endset -%}
    case
        when {{ expected }} < 1 then ({{ observed_agreement }} - {{ expected }}) / (1 - {{ expected }})
    end
{%- endmacro %}

{#-
    Cohen's kappa of two label sources a and b from their counts on the n units both labelled:
    ragmart_cohen_kappa with p_o = agreeing / n, p_a1 = positive_a / n, p_b1 = positive_b / n.
    Null when n = 0 (a replicate without units) or p_e = 1. The arguments may be expressions
    (e.g. a total minus one record's count); each share is parenthesised, so p_a1 p_b1 is the
    product of the two shares whatever the expressions.
-#}
{% macro ragmart_cohen_kappa_from_counts(n_units, n_agreeing, n_positive_a, n_positive_b) -%}
    case
        when ({{ n_units }}) > 0 then {{ ragmart_cohen_kappa(
            '(cast(' ~ n_agreeing ~ ' as ' ~ ragmart_type_double() ~ ') / (' ~ n_units ~ '))',
            '(cast(' ~ n_positive_a ~ ' as ' ~ ragmart_type_double() ~ ') / (' ~ n_units ~ '))',
            '(cast(' ~ n_positive_b ~ ' as ' ~ ragmart_type_double() ~ ') / (' ~ n_units ~ '))',
        ) | indent(8) }}
    end
{%- endmacro %}
