{{ config(severity=('error' if ragmart_setting('fail_on_rejected') else 'warn'), fail_calc='coalesce(sum(n_rejected_rows), 0)') }}
{#-
    Warns (or, with var fail_on_rejected: true, fails) when any export row was rejected: one row
    per task and reason set, with how many rows; the failure count is the number of rejected rows.
    In dbt build and dbt test it prints the rejected rows per task and reason code (or, when it
    fails, stops with them). The rows themselves are in rejected_annotations.
-#}
{%- set row_status = ref('int_annotations__row_status') %}
{%- if ragmart_guards_active() %}
    {%- set counts = ragmart_rejection_counts(row_status, ragmart_status_inputs()) %}
    {%- set n_rejected = counts | sum(attribute='n_rejected') %}
    {%- if n_rejected > 0 %}
        {%- set failing = ragmart_setting('fail_on_rejected') %}
        {%- set message = "ragmart: " ~ ragmart_format_count(n_rejected) ~ " rows rejected"
            ~ (" and the var fail_on_rejected is true" if failing else "")
            ~ " (the rows and their reasons are in rejected_annotations):\n"
            ~ ragmart_rejection_summary(counts, none, ragmart_invalid_spellings(ref('rejected_annotations'))) %}
        {%- do ragmart_raise_or_warn(message, failing) %}
    {%- endif %}
{%- endif %}
select
    task,
    reasons,
    count(*) as n_rejected_rows

from {{ ref('rejected_annotations') }}
group by task, reasons
