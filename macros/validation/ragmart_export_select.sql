{#-
    The select list that reads an input (`input`, the relation the model names, through
    ragmart_input_relation): every column of the task's export
    (ADR 0005), as text, an empty value as null (whatever the loader or file format made of it).
    A missing optional column reads as null; a missing required column stops the run with a
    message that names it. Extra columns are ignored.
-#}
{% macro ragmart_export_select(task, input) -%}
    {%- set expected = ragmart_export_columns(task) -%}
    {%- set present = [] -%}
    {%- if execute -%}
        {%- set found = ragmart_input_columns(task, input) -%}
        {%- for name in found or [] -%}
            {%- do present.append(name) -%}
        {%- endfor -%}
        {#-
            Before the relation exists (a lint or compile on a fresh database) every column is
            assumed. In files mode an input without files (annotators, records) has no column:
            every column reads as null, over no row.
        -#}
        {%- if found is none or (present | length == 0 and ragmart_input_mode() == 'seeds') -%}
            {%- for column in expected -%}
                {%- do present.append(column.name) -%}
            {%- endfor -%}
        {%- endif -%}
        {%- set missing = [] -%}
        {%- for column in expected if column.required and column.name not in present -%}
            {%- do missing.append(column.name) -%}
        {%- endfor -%}
        {%- if missing and present | length > 0 -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: the " ~ task ~ " input (" ~ ragmart_input_mode() ~ " mode) lacks the required column(s) "
                ~ (missing | join(', ')) ~ ". " ~ ragmart_export_columns_text(task)) }}
        {%- endif -%}
    {%- endif -%}
    {%- for column in expected %}
        {% if not execute or column.name in present -%}
            nullif(cast({{ adapter.quote(column.name) }} as {{ dbt.type_string() }}), '')
        {%- else -%}
            cast(null as {{ dbt.type_string() }})
        {%- endif %} as {{ column.name }}
        {%- if not loop.last %},{% endif %}
    {%- endfor %}
{%- endmacro %}
