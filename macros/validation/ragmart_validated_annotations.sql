{#-
    The status of every row of one export, decided in the order of docs/rules.md (Row status):
    1. row checks (ragmart_row_checks), 2. superseding by a later submission of the same unit and
    annotator, 3. conflicting duplicates at the latest created_at (or the row with the fewest
    reasons kept), 4. rejection of rows with reasons, 5. rank conflicts (retrieval).
    Returns the body of the task's validation model: one row per export row with
    `annotation_status` (accepted, rejected, superseded), `reasons` and the labels after the
    constraint policy.
-#}
{% macro ragmart_validated_annotations(task) -%}
    {%- set spec = ragmart_task_spec(task) -%}
    {%- set checks = ragmart_row_checks(task) -%}
    {%- set submission_key = spec.unit_columns + ['annotator_id'] -%}
    {%- set extra_columns = ['chunk_rank'] if task == 'retrieval' else [] %}
with

staged as (

    select * from {{ ref('stg_annotation_exports__' ~ task) }}

),

checked as (

    select
        annotation_row_id,
        {{ submission_key | join(',\n        ') }},
        created_at_utc,
        language,
        {%- for column in extra_columns %}
        {{ column }},
        {%- endfor %}
        {%- for label in spec.labels %}
        {{ ragmart_repaired_label(task, label) }} as {{ label }},
        {%- endfor %}
        {{ ragmart_was_repaired(task) }} as was_repaired,
        {{ ragmart_reasons_expression(checks) }} as row_reasons,
        {{ ragmart_reason_count_expression(checks) }} as n_row_reasons,
        {{ dbt.concat(ragmart_label_signature_parts(spec.labels)) }} as label_signature,
        (
            {%- for column in submission_key %}
            {{ column }} is not null and
            {%- endfor %}
            created_at_utc is not null
        ) as is_deduplicated

    from staged

),

{# Most submissions have one row; only the rows of a repeated submission need comparing. #}
repeated_submissions as (

    select
        {{ submission_key | join(',\n        ') }}

    from checked
    where is_deduplicated
    group by {{ submission_key | join(', ') }}
    having count(*) > 1

),

marked as (

    select
        checked.*,
        repeated_submissions.annotator_id is not null as is_repeated

    from checked
    left join repeated_submissions
        on
            {%- for column in submission_key %}
            {% if not loop.first %}and {% endif %}checked.{{ column }} = repeated_submissions.{{ column }}
            {%- endfor %}

),

compared_with_same_submitter as (

    select
        *,
        max(created_at_utc) over (
            partition by {{ submission_key | join(', ') }}
        ) as latest_created_at_utc,
        min(label_signature) over (
            partition by {{ submission_key | join(', ') }}, created_at_utc
        ) as min_label_signature_at_time,
        max(label_signature) over (
            partition by {{ submission_key | join(', ') }}, created_at_utc
        ) as max_label_signature_at_time,
        row_number() over (
            partition by {{ submission_key | join(', ') }}, created_at_utc
            order by n_row_reasons, annotation_row_id
        ) as position_at_time

    from marked
    where is_repeated

    union all

    {# A row alone in its submission is its own latest row, at its own time. #}
    select
        *,
        created_at_utc as latest_created_at_utc,
        label_signature as min_label_signature_at_time,
        label_signature as max_label_signature_at_time,
        cast(1 as {{ dbt.type_bigint() }}) as position_at_time

    from marked
    where not is_repeated

),

deduplicated as (

    select
        *,
        case
            when not is_deduplicated then 'not_compared'
            when created_at_utc < latest_created_at_utc then 'superseded'
            when min_label_signature_at_time <> max_label_signature_at_time then 'conflicting_duplicate'
            when position_at_time > 1 then 'superseded'
            else 'latest'
        end as deduplication_outcome

    from compared_with_same_submitter

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
{%- if task == 'retrieval' %}

accepted_ranks as (

    select distinct
        record_uuid,
        chunk_id,
        chunk_rank

    from with_row_status
    where row_status = 'accepted'

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
            with_row_status.record_uuid = chunks_with_several_ranks.record_uuid
            and with_row_status.chunk_id = chunks_with_several_ranks.chunk_id
    left join ranks_with_several_chunks
        on
            with_row_status.record_uuid = ranks_with_several_chunks.record_uuid
            and with_row_status.chunk_rank = ranks_with_several_chunks.chunk_rank

),
{%- else %}

rank_checked as (

    select
        *,
        false as has_rank_conflict

    from with_row_status

),
{%- endif %}

final as (

    select
        annotation_row_id,
        '{{ task }}' as task,
        {{ submission_key | join(',\n        ') }},
        created_at_utc,
        language,
        {%- for column in extra_columns %}
        {{ column }},
        {%- endfor %}
        {%- for label in spec.labels %}
        {{ label }},
        {%- endfor %}
        was_repaired,
        case when has_rank_conflict then 'rejected' else row_status end as annotation_status,
        case when has_rank_conflict then 'rank_conflict' else row_status_reasons end as reasons

    from rank_checked

)

select * from final
{%- endmacro %}

{#- The parts of a text that is equal for two rows exactly when their parsed labels (before any repair) are equal; an unparseable label reads as `-`. -#}
{% macro ragmart_label_signature_parts(labels) -%}
    {%- set parts = [] -%}
    {%- for label in labels -%}
        {%- do parts.append("coalesce(cast(" ~ label ~ " as " ~ dbt.type_string() ~ "), '-')") -%}
    {%- endfor -%}
    {{ return(parts) }}
{%- endmacro %}
