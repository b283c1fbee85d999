{#-
    A row's id from where it stands, the same on every engine and in every build: the first 15
    hexadecimal digits (60 bits) of the MD5 of `parts` as text joined by `/`, as a bigint (0 to
    2^60 - 1). `parts` are SQL expressions, e.g. ["'retrieval'", 'source_file', 'source_row']:
    md5('retrieval/retrieval_2026-11-27.csv/17'). Only the row's own input, file and row go into
    it, so a file added to the folder moves no other file's ids.
-#}
{% macro ragmart_row_id(parts) -%}
    {%- set texts = [] -%}
    {%- for part in parts -%}
        {%- if not loop.first %}{% do texts.append("'/'") %}{% endif -%}
        {%- do texts.append('cast(' ~ part ~ ' as ' ~ dbt.type_string() ~ ')') -%}
    {%- endfor -%}
    {{ return(ragmart_bigint_of_hex('substr(' ~ dbt.hash(dbt.concat(texts)) ~ ', 1, 15)')) }}
{%- endmacro %}

{#- The bigint that a text of at most 15 lower-case hexadecimal digits stands for (dispatched). -#}
{% macro ragmart_bigint_of_hex(digits) -%}
    {{ return(adapter.dispatch('ragmart_bigint_of_hex', 'ragmart')(digits)) }}
{%- endmacro %}

{#- DuckDB (and the default): a `0x` text casts as a hexadecimal number. -#}
{% macro default__ragmart_bigint_of_hex(digits) -%}
    cast('0x' || {{ digits }} as bigint)
{%- endmacro %}

{#- PostgreSQL: the digits as a bit string of 64 bits (zeros in front), which casts to bigint. -#}
{% macro postgres__ragmart_bigint_of_hex(digits) -%}
    cast(cast('x' || lpad({{ digits }}, 16, '0') as bit(64)) as bigint)
{%- endmacro %}

{% macro spark__ragmart_bigint_of_hex(digits) -%}
    cast(conv({{ digits }}, 16, 10) as bigint)
{%- endmacro %}
