{#-
    Seed loading on Spark. dbt-spark's own version formats every value as '<value>' without
    escaping, so a quote in a text breaks the insert and an empty cell arrives as the text
    'None'. This version (found by dbt's dispatch before the adapter's) writes each value as a
    Spark string literal with backslashes and quotes escaped, and an empty cell as null, and
    each row's place in the file as `ragmart_source_row` (ragmart_seed_source_rows.sql).
-#}
{% macro spark__load_csv_rows(model, agate_table) %}
    {%- set batch_size = get_batch_size() -%}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(batch_size) -%}
        {%- set first_row = loop.index0 * batch_size -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
                {%- set source_row = first_row + loop.index -%}
                ({%- for col_name in agate_table.column_names -%}
                    {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
                    {%- set value = row[loop.index0] -%}
                    {#- the value as a Spark SQL literal: null, or a quoted text with \ and ' escaped -#}
                    cast({% if value is none %}null{% else %}'{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}'{% endif %} as {{ type }}),
                {% endfor -%}
                cast({{ source_row }} as bigint))
                {%- if not loop.last %},{% endif %}
            {% endfor -%}
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 -%}
            {%- do statements.append(sql) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(statements[0] if statements else '') }}
{% endmacro %}
