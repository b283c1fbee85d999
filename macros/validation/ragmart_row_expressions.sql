{#- Small row expressions of the row checks (docs/rules.md, Reason codes), used by int_annotations__row_checks. -#}

{#- True when a boolean column has a value that is not one of the boolean spellings (`column_raw` as given, `column` parsed). -#}
{% macro ragmart_invalid_boolean(column) -%}
    (not {{ ragmart_is_blank(column ~ '_raw') }} and {{ column }} is null)
{%- endmacro %}

{#- True when a language is given and is not one of the var accepted_languages. -#}
{% macro ragmart_invalid_language(column) -%}
    {%- set languages = ragmart_setting('accepted_languages') -%}
    {%- if languages | length > 0 -%}
        ({{ column }} is not null and {{ column }} not in ('{{ languages | join("', '") }}'))
    {%- else -%}
        ({{ column }} is not null)
    {%- endif -%}
{%- endmacro %}

{#- How many `;`-separated reason codes a reason text holds (0 for null). -#}
{% macro ragmart_reason_count(reasons) -%}
    (case
        when {{ reasons }} is null then 0
        else length({{ reasons }}) - length(replace({{ reasons }}, ';', '')) + 1
    end)
{%- endmacro %}
