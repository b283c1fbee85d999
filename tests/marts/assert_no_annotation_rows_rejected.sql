{{ config(severity=ragmart_rejected_rows_severity()) }}
{#-
    Warns (or, with var fail_on_rejected: true, fails) when any export row was rejected: one row
    per task and reason set, with how many rows. The rows themselves are in rejected_annotations.
-#}
select
    task,
    reasons,
    count(*) as n_rejected_rows

from {{ ref('rejected_annotations') }}
group by task, reasons
