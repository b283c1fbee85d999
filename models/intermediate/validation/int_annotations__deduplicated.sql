{#-
    Steps 2 and 3 of the row status (docs/rules.md, Row status): superseding and duplicates, for
    the rows of the three exports together, each with its own reasons from step 1
    (int_<task>__row_checks). One row per export row with its deduplication outcome:
    - `latest`: the row its annotator submitted last for its unit (or alone in its submission);
    - `superseded`: an older row of the submission, or an agreeing duplicate at the latest
      instant that is not the one kept (the fewest reasons, then the first);
    - `conflicting_duplicate`: a row at the latest instant whose labels differ from another's there;
    - `not_compared`: a row without unit, annotator or parsed created_at, which takes no part.
    A submission is one annotator's rows of one unit (retrieval: record and chunk; else the
    record). int_annotations__row_status turns the outcome and the reasons into the status.
-#}

with

retrieval_rows as (

    select * from {{ ref('int_retrieval__row_checks') }}

),

grounding_rows as (

    select * from {{ ref('int_grounding__row_checks') }}

),

generation_rows as (

    select * from {{ ref('int_generation__row_checks') }}

),

checked_rows as (

    select
        task,
        annotation_row_id,
        record_uuid,
        chunk_id,
        annotator_id,
        created_at_utc,
        chunk_rank,
        label_signature,
        was_repaired,
        row_reasons

    from retrieval_rows

    union all

    select
        task,
        annotation_row_id,
        record_uuid,
        cast(null as {{ dbt.type_string() }}) as chunk_id,
        annotator_id,
        created_at_utc,
        cast(null as bigint) as chunk_rank,
        label_signature,
        was_repaired,
        row_reasons

    from grounding_rows

    union all

    select
        task,
        annotation_row_id,
        record_uuid,
        cast(null as {{ dbt.type_string() }}) as chunk_id,
        annotator_id,
        created_at_utc,
        cast(null as bigint) as chunk_rank,
        label_signature,
        was_repaired,
        row_reasons

    from generation_rows

),

{# A submission is one annotator's rows of one unit; rows without a unit, annotator or time take no part. #}
with_submission as (

    select
        *,
        coalesce(chunk_id, '') as chunk_key,
        {{ ragmart_reason_count('row_reasons') }} as n_row_reasons,
        (
            record_uuid is not null
            and annotator_id is not null
            and created_at_utc is not null
            and (task <> 'retrieval' or chunk_id is not null)
        ) as is_compared

    from checked_rows

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
            order by n_row_reasons, annotation_row_id
        ) as position_at_time

    from marked
    where is_repeated

),

final as (

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

)

select * from final
