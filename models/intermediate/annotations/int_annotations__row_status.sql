{#-
    The row status (docs/rules.md, Row status) of every row of the three exports together, each
    with its own reasons from step 1 (int_annotations__row_checks), then of the rows of the records
    input with the status int_records__validated gave them. One row per input row with its
    deduplication outcome, final status and reasons: the accounting base.
    2.-3. Superseding and duplicates, per submission (one annotator's rows of one unit;
       retrieval: record and chunk, else the record), which gives each row an outcome:
       - `latest`: the row its annotator submitted last for its unit (or alone in its submission);
       - `superseded`: an older row of the submission, or an agreeing duplicate at the latest
         instant that is not the one kept (the fewest reasons, then the first in the files: the
         file first by name, then the earlier row);
       - `conflicting_duplicate`: a row at the latest instant whose labels differ from another's there;
       - `not_compared`: a row without unit, annotator or parsed created_at, which takes no part.
    4. A superseded row is superseded; a row that is a conflicting duplicate or has any reason of
       its own is rejected; the others are accepted.
    5. Rank check (retrieval): over the accepted rows of a record, a chunk with two ranks or a rank
       with two chunks rejects every row involved with rank_conflict.
-#}

with

row_checks as (

    select * from {{ ref('int_annotations__row_checks') }}

),

records_rows as (

    select * from {{ ref('int_records__validated') }}

),

{#
    A submission is one annotator's rows of one unit; rows without a unit, annotator or time take
    no part. The labels are compared by their signature alone.
#}
with_submission as (

    select
        task,
        annotation_row_id,
        source_file,
        source_row,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        chunk_rank,
        label_signature,
        was_repaired,
        row_reasons,
        coalesce(chunk_id, '') as chunk_key,
        {#- how many `;`-separated reason codes row_reasons holds (0 for null) #}
        case
            when row_reasons is null then 0
            else length(row_reasons) - length(replace(row_reasons, ';', '')) + 1
        end as n_row_reasons,
        (
            record_uuid is not null
            and annotator_id is not null
            and created_at_utc is not null
            and (task <> 'retrieval' or chunk_id is not null)
        ) as is_compared

    from row_checks

),

{# Most submissions have one row; only the rows of a repeated submission need comparing. #}
repeated_submissions as (

    select
        task,
        record_uuid,
        chunk_key,
        annotator_id

    from with_submission
    where is_compared
    group by task, record_uuid, chunk_key, annotator_id
    having count(*) > 1

),

marked as (

    select
        with_submission.*,
        with_submission.is_compared and repeated_submissions.task is not null as is_repeated

    from with_submission
    left join repeated_submissions
        on
            with_submission.task = repeated_submissions.task
            and with_submission.record_uuid = repeated_submissions.record_uuid
            and with_submission.chunk_key = repeated_submissions.chunk_key
            and with_submission.annotator_id = repeated_submissions.annotator_id

),

compared_with_same_submission as (

    select
        *,
        max(created_at_utc) over (
            partition by task, record_uuid, chunk_key, annotator_id
        ) as latest_created_at_utc,
        min(label_signature) over (
            partition by task, record_uuid, chunk_key, annotator_id, created_at_utc
        ) as min_label_signature_at_time,
        max(label_signature) over (
            partition by task, record_uuid, chunk_key, annotator_id, created_at_utc
        ) as max_label_signature_at_time,
        row_number() over (
            partition by task, record_uuid, chunk_key, annotator_id, created_at_utc
            order by n_row_reasons, {{ ragmart_collate_binary('source_file') }}, source_row
        ) as position_at_time

    from marked
    where is_repeated

),

deduplicated as (

    select
        task,
        annotation_row_id,
        record_uuid,
        chunk_id,
        annotator_id,
        chunk_rank,
        was_repaired,
        row_reasons,
        n_row_reasons,
        case
            when created_at_utc < latest_created_at_utc then 'superseded'
            when min_label_signature_at_time <> max_label_signature_at_time then 'conflicting_duplicate'
            when position_at_time > 1 then 'superseded'
            else 'latest'
        end as deduplication_outcome

    from compared_with_same_submission

    union all

    {# A row alone in its submission is its own latest row; a row that takes no part is not compared. #}
    select
        task,
        annotation_row_id,
        record_uuid,
        chunk_id,
        annotator_id,
        chunk_rank,
        was_repaired,
        row_reasons,
        n_row_reasons,
        case when is_compared then 'latest' else 'not_compared' end as deduplication_outcome

    from marked
    where not is_repeated

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
        was_repaired,
        deduplication_outcome

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
        false as was_repaired,
        cast(null as {{ dbt.type_string() }}) as deduplication_outcome

    from records_rows

),

final as (

    select * from export_statuses

    union all

    select * from records_statuses

)

select * from final
