{#-
    A mart's output: every column of its contract (the model's YAML, in its order), cast to the
    data_type declared there. The types are written once, in the YAML that dbt enforces and
    documents, with each engine's type names; the mart's last CTE selects the columns by name.
-#}
{% macro ragmart_contract_columns() -%}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {#-
        A unit test compiles the model it tests without its YAML's columns, and compares only
        the columns its expected rows name, each cast to the type the model gives it: every
        column of the CTE before the last one.
    -#}
    {%- if model['resource_type'] == 'unit_test' -%}
        {{ return('*') }}
    {%- endif -%}
    {%- set columns = model['columns'].values() | list -%}
    {%- if not columns -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: " ~ model['name'] ~ " calls ragmart_contract_columns but declares no columns in its YAML") }}
    {%- endif -%}
    {%- for column in columns -%}{%- set name = adapter.quote(column['name']) if column['quote'] else column['name'] %}
        cast({{ name }} as {{ column['data_type'] }}) as {{ name }}{{ ',' if not loop.last }}
    {% endfor -%}
{%- endmacro %}
