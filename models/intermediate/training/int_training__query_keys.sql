{#-
    The training view's query key of each record with accepted HUMAN rows, per family
    (docs/rules.md, Training view): its query_id when it has one; else the smallest query_id of
    the family's records (any run) whose normalized query text equals its own; else its
    normalized query text. The query text is the trimmed input_query (retrieval) or query
    (grounding, generation) of the record's accepted HUMAN rows in the family, the smallest in
    byte order when they differ. So a query asked in a run with a query_id and in a run without
    one has one key, and one split.
-#}
with

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

{# The query text is parsed in staging and not carried on: each row's is looked up by its id. #}
staged_rows as (

    select * from {{ ref('stg_annotation_exports__annotations') }}

),

human_query_texts as (

    select
        accepted_rows.task,
        accepted_rows.record_uuid,
        {{ ragmart_min_binary('staged_rows.query_text') }} as query_text

    from accepted_rows
    inner join staged_rows
        on
            accepted_rows.task = staged_rows.family
            and accepted_rows.annotation_row_id = staged_rows.annotation_row_id
    group by
        accepted_rows.task,
        accepted_rows.record_uuid

),

records_with_texts as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.query_id,
        {#- trimmed, every run of spaces, tabs, carriage returns and line feeds inside as one space, case kept #}
        {{ ragmart_trim(ragmart_regexp_replace('human_query_texts.query_text', '[ \\t\\r\\n]+', ' ')) }}
            as normalized_query_text

    from family_records
    inner join human_query_texts
        on
            family_records.task = human_query_texts.task
            and family_records.record_uuid = human_query_texts.record_uuid

),

{# Per family and normalized query text, the smallest query_id that a record of it carries. #}
query_ids_of_texts as (

    select
        task,
        normalized_query_text,
        {{ ragmart_min_binary('query_id') }} as query_id

    from records_with_texts
    where
        query_id is not null
        and normalized_query_text is not null
    group by
        task,
        normalized_query_text

),

final as (

    select
        records_with_texts.task,
        records_with_texts.record_uuid,
        records_with_texts.query_id,
        records_with_texts.normalized_query_text,
        coalesce(
            records_with_texts.query_id,
            query_ids_of_texts.query_id,
            records_with_texts.normalized_query_text
        ) as query_key

    from records_with_texts
    left join query_ids_of_texts
        on
            records_with_texts.task = query_ids_of_texts.task
            and records_with_texts.normalized_query_text = query_ids_of_texts.normalized_query_text

)

select * from final
