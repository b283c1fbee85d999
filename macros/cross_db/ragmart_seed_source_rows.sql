{#-
    Seeds that remember their rows' place in the file. DuckDB loads a seed with one COPY of the
    file and gives the rows back in that order (`rowid`). PostgreSQL and Spark do not: PostgreSQL
    fills free space of earlier pages with later rows, Spark reads a table's files in any order.
    On those two engines the seed table gets one more column, `ragmart_source_row`, the 1-based
    data row of the file, written by the loader below (found by dbt's dispatch before the
    adapter's own macros). A seed table created before this column existed needs one
    `dbt seed --full-refresh`.
-#}

{% macro ragmart_seed_table_columns(model, agate_table) -%}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set quote_seed_column = model['config'].get('quote_columns', None) -%}
    {%- set columns = [] -%}
    {%- for col_name in agate_table.column_names -%}
        {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
        {%- do columns.append(adapter.quote_seed_column(col_name | string, quote_seed_column) ~ ' ' ~ type) -%}
    {%- endfor -%}
    {%- do columns.append('ragmart_source_row ' ~ dbt.type_bigint()) -%}
    {{ return(columns | join(', ')) }}
{%- endmacro %}

{% macro postgres__create_csv_table(model, agate_table) %}
    {%- set sql -%}
        create table {{ this.render() }} ({{ ragmart_seed_table_columns(model, agate_table) }})
    {%- endset -%}
    {%- call statement('_') -%}
        {{ sql }}
    {%- endcall -%}
    {{ return(sql) }}
{% endmacro %}

{#- dbt-postgres' batched insert, with each row's place in the file as the last value. -#}
{% macro postgres__load_csv_rows(model, agate_table) %}
    {%- set batch_size = get_batch_size() -%}
    {%- set cols_sql = get_seed_column_quoted_csv(model, agate_table.column_names) ~ ', ragmart_source_row' -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(batch_size) -%}
        {%- set outer_loop = loop -%}
        {%- set bindings = [] -%}
        {%- for row in chunk -%}
            {%- do bindings.extend(row) -%}
            {%- do bindings.append((outer_loop.index0 * batch_size) + loop.index) -%}
        {%- endfor -%}
        {%- set sql -%}
            insert into {{ this.render() }} ({{ cols_sql }}) values
            {% for row in chunk -%}
                ({%- for column in agate_table.column_names -%}{{ get_binding_char() }}, {% endfor -%}{{ get_binding_char() }})
                {%- if not loop.last %},{% endif %}
            {%- endfor %}
        {%- endset -%}
        {%- do adapter.add_query(sql, bindings=bindings, abridge_sql_log=True) -%}
        {%- if loop.index0 == 0 -%}
            {%- do statements.append(sql) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(statements[0] if statements else '') }}
{% endmacro %}

{% macro spark__create_csv_table(model, agate_table) %}
    {%- set sql -%}
        create table {{ this.render() }} ({{ ragmart_seed_table_columns(model, agate_table) }})
        {{ file_format_clause() }}
        {{ location_clause() }}
        {{ comment_clause() }}
    {%- endset -%}
    {%- call statement('_') -%}
        {{ sql }}
    {%- endcall -%}
    {{ return(sql) }}
{% endmacro %}
