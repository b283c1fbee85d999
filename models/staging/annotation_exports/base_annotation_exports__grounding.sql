{#
    The grounding export as read, narrowed: the row id, where the row came from, the short columns as
    given (text) and a blank flag per long text; see the model's docs for why this is a table of
    its own. The rows come from the format the var input_format reads this family in: the
    native export (stg_native__grounding) or a tool's (stg_<format>__grounding).
-#}

with

source as (

    {%- if ragmart_family_format('grounding') == 'phoenix' %}
    select * from {{ ref('stg_phoenix__grounding') }}
    {%- elif ragmart_family_format('grounding') == 'label_studio' %}
    select * from {{ ref('stg_label_studio__grounding') }}
    {%- elif ragmart_family_format('grounding') == 'langfuse' %}
    select * from {{ ref('stg_langfuse__grounding') }}
    {%- else %}
    select * from {{ ref('stg_native__grounding') }}
    {%- endif %}

),

{#
    Blank rows and exact copies (docs/rules.md, Daily exports): rows equal in every column of the
    export after trimming are one row, read where it stands in the file that sorts last by name
    (its first place there); the others are repeats. Both are counted, never rejected. Copies share
    their copy key (the row's ids and created_at), so only the rows whose key another row shares
    are compared column by column; a row with a key of its own is read where it stands.
#}
with_copy_key as (

    select
        *,
        {{ ragmart_copy_key('grounding') }} as copy_key

    from source

),

shared_copy_keys as (

    select copy_key
    from with_copy_key
    group by copy_key
    having count(*) > 1

),

keyed as {{ ragmart_cte_materialized() }}(

    select
        with_copy_key.*,
        shared_copy_keys.copy_key is not null as is_key_shared,
        {# A blank row's key is empty: only the rows with an empty key are checked column by column. #}
        case
            when with_copy_key.copy_key = '' then {{ ragmart_is_blank_row('grounding') }}
            else false
        end as is_blank_row

    from with_copy_key
    left join shared_copy_keys
        on with_copy_key.copy_key = shared_copy_keys.copy_key

),

with_copies as (

    select
        *,
        row_number() over (
            partition by {{ ragmart_row_content('grounding') }}
            order by {{ ragmart_collate_binary('source_file') }} desc, source_row
        ) as copy_number,
        first_value(source_file) over (
            partition by {{ ragmart_row_content('grounding') }}
            order by {{ ragmart_collate_binary('source_file') }} desc, source_row
        ) as read_source_file

    from keyed
    where is_key_shared

    union all

    select
        *,
        1 as copy_number,
        source_file as read_source_file

    from keyed
    where not is_key_shared

),

narrowed as (

    select
        annotation_row_id,
        source_file,
        source_row,
        is_blank_row,
        not is_blank_row and copy_number > 1 as is_repeated_row,
        read_source_file,
        malformed_record is not null as is_malformed,
        record_uuid,
        annotator_id,
        task,
        language,
        created_at,
        {{ ragmart_label_columns('grounding') }},
        query,
        {{ ragmart_is_blank('query') }} as is_missing_query,
        {{ ragmart_is_blank('answer') }} as is_missing_answer,
        {{ ragmart_is_blank('context_set') }} as is_missing_context_set

    from with_copies

)

select * from narrowed
