{#-
    Fails when the rejected rows of an export (retrieval, grounding, generation) exceed the var
    max_rejected_share of its rows (int_annotations__row_status): one row per such export. In
    dbt build and dbt test it stops with a message giving the rejected rows per task and reason
    code. It runs after rejected_annotations, so that a failure never skips the quarantine.
-#}
-- depends_on: {{ ref('rejected_annotations') }}
{%- set max_share = ragmart_setting('max_rejected_share') %}
{%- set row_status = ref('int_annotations__row_status') %}
{%- if ragmart_guards_active() %}
    {%- set counts = ragmart_rejection_counts(row_status, ragmart_tasks()) %}
    {%- set over = [] %}
    {%- for count in counts if count.n_rejected > max_share * count.n_rows %}
        {%- do over.append(count.task) %}
    {%- endfor %}
    {%- if over %}
        {{ exceptions.raise_compiler_error(
            "ragmart: too many rows rejected in " ~ (over | join(', ')) ~ ": more than max_rejected_share = "
            ~ max_share ~ " (" ~ '%.1f' | format(100 * max_share) ~ " %) of the export's rows.\n"
            ~ ragmart_rejection_summary(counts, max_share, ragmart_invalid_spellings(ref('rejected_annotations'))) ~ "\n"
            ~ "  The rows and their reasons are in rejected_annotations. Fix the export, or raise the var"
            ~ " max_rejected_share (a number from 0 to 1).") }}
    {%- endif %}
{%- endif %}

with

row_status as (

    select * from {{ row_status }}
    where task in ('{{ ragmart_tasks() | join("', '") }}')

),

per_export as (

    select
        task,
        count(*) as n_rows,
        sum(case when annotation_status = 'rejected' then 1 else 0 end) as n_rejected_rows

    from row_status
    group by task

),

final as (

    select
        task,
        n_rows,
        n_rejected_rows,
        {{ max_share }} as max_rejected_share

    from per_export
    where n_rejected_rows > {{ max_share }} * n_rows

)

select * from final
