{#-
    Judge-against-consensus measures (docs/rules.md, Judges) from the confusion counts of a binary
    label, positive = 1.
-#}

{#- Precision tp / (tp + fp); null when the judge never says 1. -#}
{% macro ragmart_precision(tp, fp) -%}
    case when {{ tp }} + {{ fp }} > 0 then cast({{ tp }} as {{ ragmart_type_double() }}) / ({{ tp }} + {{ fp }}) end
{%- endmacro %}

{#- Recall tp / (tp + fn); null when the consensus is never 1. -#}
{% macro ragmart_recall(tp, fn) -%}
    case when {{ tp }} + {{ fn }} > 0 then cast({{ tp }} as {{ ragmart_type_double() }}) / ({{ tp }} + {{ fn }}) end
{%- endmacro %}

{#- F1 2pr / (p + r); null when precision or recall is null or both are 0. -#}
{% macro ragmart_f1(precision, recall) -%}
    case
        when {{ precision }} + {{ recall }} > 0
            then 2 * {{ precision }} * {{ recall }} / ({{ precision }} + {{ recall }})
    end
{%- endmacro %}
