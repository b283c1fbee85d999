{#-
    Agreement measures of docs/rules.md (Agreement and tiers) for binary labels. Votes of a unit u:
    m_u votes of which n_u1 are 1 (n_u0 = m_u − n_u1).
-#}

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
    Cohen's kappa of two label sources a and b from their counts on the n units both labelled:
    (p_o − p_e) / (1 − p_e) with p_o = agreeing / n and p_e from the two sources' marginal shares
    of 1, p_a1 = positive_a / n and p_b1 = positive_b / n: p_a1 p_b1 + (1 − p_a1)(1 − p_b1).
    Null when n = 0 (a replicate without units) or p_e = 1. The arguments may be expressions
    (e.g. a total minus one record's count); each share is parenthesised, so p_a1 p_b1 is the
    product of the two shares whatever the expressions.
-#}
{% macro ragmart_cohen_kappa_from_counts(n_units, n_agreeing, n_positive_a, n_positive_b) -%}
    {%- set observed_agreement = '(cast(' ~ n_agreeing ~ ' as ' ~ ragmart_type_double() ~ ') / (' ~ n_units ~ '))' -%}
    {%- set positive_share_a = '(cast(' ~ n_positive_a ~ ' as ' ~ ragmart_type_double() ~ ') / (' ~ n_units ~ '))' -%}
    {%- set positive_share_b = '(cast(' ~ n_positive_b ~ ' as ' ~ ragmart_type_double() ~ ') / (' ~ n_units ~ '))' -%}
    {%- set expected -%}
        ({{ positive_share_a }} * {{ positive_share_b }} + (1 - {{ positive_share_a }}) * (1 - {{ positive_share_b }}))
    {%- endset -%}
    case
        when ({{ n_units }}) > 0 then case
            when {{ expected }} < 1 then ({{ observed_agreement }} - {{ expected }}) / (1 - {{ expected }})
        end
    end
{%- endmacro %}
