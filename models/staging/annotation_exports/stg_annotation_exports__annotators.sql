{#-
    The annotators: the 0005 annotators input (seed or files), and for each tool that records
    annotator kinds and is read for some family (Phoenix, Langfuse, MLflow: var input_format) the ids it
    records that the input does not list, with that kind, in the role `annotator`. One row per
    listing (annotator_id, kind, role): rows that list an annotator
    the same way count once, however many files or copies hold them (several daily copies of one
    list in a folder), and the files they came from are kept. An id listed with two kinds or
    roles keeps a row for each, which assert_annotators_are_valid stops on, naming the files.
-#}

{%- set formats = ragmart_input_formats().values() | list %}

with

listed as (

    select * from {{ ref('stg_native__annotators') }}

),

{# The kinds that a tool records, for the ids the annotators input does not list. #}
recorded as (
    {%- if 'phoenix' in formats %}

    select * from {{ ref('stg_phoenix__annotators') }}

    union all
    {%- endif %}
    {%- if 'langfuse' in formats %}

    select * from {{ ref('stg_langfuse__annotators') }}

    union all
    {%- endif %}
    {%- if 'mlflow' in formats %}

    select * from {{ ref('stg_mlflow__annotators') }}

    union all
    {%- endif %}

    select
        cast(null as {{ dbt.type_string() }}) as annotator_id,
        cast(null as {{ dbt.type_string() }}) as annotator_kind,
        cast(null as {{ dbt.type_string() }}) as source_file
    where 1 = 0

),

renamed as (

    select
        {{ ragmart_clean_text('annotator_id') }} as annotator_id,
        upper({{ ragmart_clean_text('annotator_kind') }}) as annotator_kind,
        lower({{ ragmart_clean_text('role') }}) as annotator_role,
        {{ ragmart_clean_text('display_name') }} as display_name,
        source_file

    from listed

    union all

    select
        annotator_id,
        annotator_kind,
        'annotator' as annotator_role,
        cast(null as {{ dbt.type_string() }}) as display_name,
        source_file

    from recorded

),

listings_per_file as (

    select
        annotator_id,
        annotator_kind,
        annotator_role,
        source_file,
        min(display_name) as display_name,
        count(*) as n_rows

    from renamed
    group by
        annotator_id,
        annotator_kind,
        annotator_role,
        source_file

),

final as (

    select
        annotator_id,
        annotator_kind,
        annotator_role,
        min(display_name) as display_name,
        {{ ragmart_sorted_list('source_file', ';') }} as source_files,
        sum(n_rows) as n_listed_rows

    from listings_per_file
    group by
        annotator_id,
        annotator_kind,
        annotator_role

)

select * from final
