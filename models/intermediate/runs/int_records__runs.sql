{#-
    The evaluation run and the pairing key of every record in every family it has an accepted row
    in (docs/rules.md, Runs): the run_id of its accepted records row, else the var default_run_id;
    the query_id of that row, else the record's query text in the family: the trimmed query of
    its accepted rows (any annotator, judges included), the smallest in byte order when they
    differ. The pairing key is the query_id, else the query text.
-#}
with

records_input as (

    select * from {{ ref('int_records__validated') }}
    where annotation_status = 'accepted'

),

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}

),

retrieval_staged as (

    select * from {{ ref('stg_annotation_exports__retrieval') }}

),

grounding_staged as (

    select * from {{ ref('stg_annotation_exports__grounding') }}

),

generation_staged as (

    select * from {{ ref('stg_annotation_exports__generation') }}

),

{# The query text is parsed in staging and not carried on: each row's is looked up by its id. #}
staged_query_texts as (

    select
        'retrieval' as task,
        annotation_row_id,
        query_text
    from retrieval_staged

    union all

    select
        'grounding' as task,
        annotation_row_id,
        query_text
    from grounding_staged

    union all

    select
        'generation' as task,
        annotation_row_id,
        query_text
    from generation_staged

),

accepted_query_texts as (

    select distinct
        accepted_rows.task,
        accepted_rows.record_uuid,
        staged_query_texts.query_text

    from accepted_rows
    inner join staged_query_texts
        on
            accepted_rows.task = staged_query_texts.task
            and accepted_rows.annotation_row_id = staged_query_texts.annotation_row_id

),

{# The smallest text by its bytes, ordered rather than min() so that it keeps its collation. #}
ordered_query_texts as (

    select
        task,
        record_uuid,
        query_text,
        row_number() over (
            partition by task, record_uuid
            order by {{ ragmart_collate_binary('query_text') }}
        ) as position_in_record

    from accepted_query_texts

),

family_records as (

    select
        task,
        record_uuid,
        query_text

    from ordered_query_texts
    where position_in_record = 1

),

final as (

    select
        family_records.task,
        family_records.record_uuid,
        coalesce(records_input.run_id, {{ ragmart_default_run_id() }}) as run_id,
        records_input.query_id,
        family_records.query_text,
        coalesce(records_input.query_id, family_records.query_text) as pairing_key

    from family_records
    left join records_input
        on family_records.record_uuid = records_input.record_uuid

)

select * from final
