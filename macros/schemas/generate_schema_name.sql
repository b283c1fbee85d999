{#-
    Where each model and seed is written (dbt calls this for every node; the project's own version
    replaces dbt's). The public marts go to the target's schema, the one a BI tool opens first
    (`main` in the DuckDB file; the profile's schema on PostgreSQL and Spark); everything else to a
    schema of its own, set per folder in dbt_project.yml (`+schema`): `staging` (the seeds and
    the staging models), `intermediate` and `semantic` (the semantic layer's time spine). In the
    DuckDB file, which holds one project, those names are used as they are; on a server, where the
    profile's schema names one deployment among others, they are prefixed with it, as dbt does
    (`ragmart_staging`), so that two deployments never share a table.
-#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {%- if custom_schema_name is none -%}
        {{ target.schema }}
    {%- elif target.type == 'duckdb' -%}
        {{ custom_schema_name | trim }}
    {%- else -%}
        {{ target.schema }}_{{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
