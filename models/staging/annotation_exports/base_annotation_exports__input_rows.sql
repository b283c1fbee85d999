{#-
    The rows of the three exports and of the records input as given, stacked (`input_name`): every
    column of every input as text (a column of another input null) with the row id, file and data
    row each came from and the raw text of a record that did not parse. Each family's rows come
    from the format the var input_format reads it in: the native export (stg_native__<family>) or
    a tool's (stg_<format>__<family>); the records from the 0005 records input, or with the runs
    Langfuse or MLflow records when one of them is read (stg_langfuse__records,
    stg_mlflow__records). A view, no copy:
    base_annotation_exports__annotations narrows the exports' rows, the quarantine reads the
    original values of its rejected rows, the training view the long texts of its units and the
    accounting test counts the rows here, so that no model after staging knows where rows came from.
-#}
{{ config(materialized='view') }}
{%- set columns = [] %}
{%- for input_name in ragmart_status_inputs() %}
{%- for column in ragmart_export_columns(input_name) if column.name not in columns %}
{%- do columns.append(column.name) %}
{%- endfor %}
{%- endfor %}

with

retrieval_source as (

    {%- if ragmart_family_format('retrieval') == 'phoenix' %}
    select * from {{ ref('stg_phoenix__annotations') }}
    where family = 'retrieval'
    {%- elif ragmart_family_format('retrieval') == 'label_studio' %}
    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'retrieval'
    {%- elif ragmart_family_format('retrieval') == 'mlflow' %}
    select * from {{ ref('stg_mlflow__annotations') }}
    where family = 'retrieval'
    {%- else %}
    select * from {{ ref('stg_native__retrieval') }}
    {%- endif %}

),

grounding_source as (

    {%- if ragmart_family_format('grounding') == 'phoenix' %}
    select * from {{ ref('stg_phoenix__annotations') }}
    where family = 'grounding'
    {%- elif ragmart_family_format('grounding') == 'label_studio' %}
    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'grounding'
    {%- elif ragmart_family_format('grounding') == 'langfuse' %}
    select * from {{ ref('stg_langfuse__annotations') }}
    where family = 'grounding'
    {%- elif ragmart_family_format('grounding') == 'mlflow' %}
    select * from {{ ref('stg_mlflow__annotations') }}
    where family = 'grounding'
    {%- else %}
    select * from {{ ref('stg_native__grounding') }}
    {%- endif %}

),

generation_source as (

    {%- if ragmart_family_format('generation') == 'phoenix' %}
    select * from {{ ref('stg_phoenix__annotations') }}
    where family = 'generation'
    {%- elif ragmart_family_format('generation') == 'label_studio' %}
    select * from {{ ref('stg_label_studio__annotations') }}
    where family = 'generation'
    {%- elif ragmart_family_format('generation') == 'langfuse' %}
    select * from {{ ref('stg_langfuse__annotations') }}
    where family = 'generation'
    {%- elif ragmart_family_format('generation') == 'mlflow' %}
    select * from {{ ref('stg_mlflow__annotations') }}
    where family = 'generation'
    {%- else %}
    select * from {{ ref('stg_native__generation') }}
    {%- endif %}

),

records_source as (

    {%- if 'mlflow' in ragmart_input_formats().values() %}
    select * from {{ ref('stg_mlflow__records') }}
    {%- elif 'langfuse' in ragmart_input_formats().values() %}
    select * from {{ ref('stg_langfuse__records') }}
    {%- else %}
    select * from {{ ref('stg_native__records') }}
    {%- endif %}

),

input_rows as (
    {%- for input_name in ragmart_status_inputs() %}
    {%- set input_columns = ragmart_export_columns(input_name) | map(attribute='name') | list %}

    select
        '{{ input_name }}' as input_name,
        annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        {%- for column in columns %}
        {{ column if column in input_columns else 'cast(null as ' ~ dbt.type_string() ~ ')' }} as {{ column }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from {{ input_name }}_source

    {{ 'union all' if not loop.last }}
    {%- endfor %}

)

select * from input_rows
