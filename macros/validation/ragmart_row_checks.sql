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
