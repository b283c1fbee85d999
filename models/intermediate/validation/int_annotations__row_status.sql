{#-
    Steps 4 and 5 of the row status (docs/rules.md, Row status) for the rows of the three exports
    together, from their deduplication outcome (int_annotations__deduplicated, steps 2 and 3);
    then the rows of the records seed with their status (int_records__validated). One row per
    input row with its final status and reasons: the accounting base.
    4. A superseded row is superseded; a row that is a conflicting duplicate or has any reason of
       its own is rejected; the others are accepted.
    5. Rank check (retrieval): over the accepted rows of a record, a chunk with two ranks or a rank
       with two chunks rejects every row involved with rank_conflict.
-#}

with

deduplicated as (

    select * from {{ ref('int_annotations__deduplicated') }}

),

records_rows as (

    select * from {{ ref('int_records__validated') }}

),

with_row_status as (

    select
        *,
        case
            when deduplication_outcome = 'superseded' then 'superseded'
            when deduplication_outcome = 'conflicting_duplicate' or n_row_reasons > 0 then 'rejected'
            else 'accepted'
        end as row_status,
        case
            when deduplication_outcome = 'conflicting_duplicate'
                then concat_ws(';', 'conflicting_duplicate', row_reasons)
            else row_reasons
        end as row_status_reasons

    from deduplicated

),

accepted_ranks as (

    select distinct
        record_uuid,
        chunk_id,
        chunk_rank

    from with_row_status
    where task = 'retrieval' and row_status = 'accepted'

),

chunks_with_several_ranks as (

    select
        record_uuid,
        chunk_id

    from accepted_ranks
    group by record_uuid, chunk_id
    having count(*) > 1

),

ranks_with_several_chunks as (

    select
        record_uuid,
        chunk_rank

    from accepted_ranks
    group by record_uuid, chunk_rank
    having count(*) > 1

),

rank_checked as (

    select
        with_row_status.*,
        (
            with_row_status.row_status = 'accepted'
            and (
                chunks_with_several_ranks.chunk_id is not null
                or ranks_with_several_chunks.chunk_rank is not null
            )
        ) as has_rank_conflict

    from with_row_status
    left join chunks_with_several_ranks
        on
            with_row_status.task = 'retrieval'
            and with_row_status.record_uuid = chunks_with_several_ranks.record_uuid
            and with_row_status.chunk_id = chunks_with_several_ranks.chunk_id
    left join ranks_with_several_chunks
        on
            with_row_status.task = 'retrieval'
            and with_row_status.record_uuid = ranks_with_several_chunks.record_uuid
            and with_row_status.chunk_rank = ranks_with_several_chunks.chunk_rank

),

export_statuses as (

    select
        task,
        annotation_row_id,
        record_uuid,
        chunk_id,
        annotator_id,
        case when has_rank_conflict then 'rejected' else row_status end as annotation_status,
        case when has_rank_conflict then 'rank_conflict' else row_status_reasons end as reasons,
        was_repaired

    from rank_checked

),

records_statuses as (

    select
        'records' as task,
        annotation_row_id,
        record_uuid,
        cast(null as {{ dbt.type_string() }}) as chunk_id,
        cast(null as {{ dbt.type_string() }}) as annotator_id,
        annotation_status,
        reasons,
        false as was_repaired

    from records_rows

),

final as (

    select * from export_statuses

    union all

    select * from records_statuses

)

select * from final
