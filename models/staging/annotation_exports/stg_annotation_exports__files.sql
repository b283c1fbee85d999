{#-
    One row per file of the three exports and of the records input (docs/rules.md, Daily exports):
    the rows read from it, its blank rows (skipped; the exports' alone), and its exact copies of
    rows read elsewhere (left out), with how many of those repeat another file's rows
    (whole-history exports, the usual cause); in files mode with the copies that the folder's
    reader left out as it read the file (stg_native__files) among them. Read by export_row_counts and by the guard
    assert_exports_have_rows, which names empty exports and says in the build log which files
    repeat which.
-#}

with

input_rows as (

    select * from {{ ref('base_annotation_exports__annotations') }}

),

row_counts as (

    select
        family as task,
        source_file,
        count(*) as n_rows_read,
        sum(case when is_blank_row then 1 else 0 end) as n_blank,
        sum(case when is_repeated_row then 1 else 0 end) as n_repeated,
        sum(
            case when is_repeated_row and read_source_file <> source_file then 1 else 0 end
        ) as n_repeating_other_files,
        0 as n_left_out_when_read

    from input_rows
    group by family, source_file

),

{#
    A row the reader left out is an exact copy of a row of a file that sorts after it: repeated,
    and repeating another file.
#}
left_out_when_read as (
    {%- if ragmart_input_mode() == 'files' %}

    select
        input_name as task,
        source_file,
        n_left_out_when_read as n_rows_read,
        0 as n_blank,
        n_left_out_when_read as n_repeated,
        n_left_out_when_read as n_repeating_other_files,
        n_left_out_when_read

    from {{ ref('stg_native__files') }}
    where n_left_out_when_read > 0
    {%- else %}

    select * from row_counts
    where false
    {%- endif %}

),

final as (

    select
        task,
        source_file,
        sum(n_rows_read) as n_rows_read,
        sum(n_blank) as n_blank,
        sum(n_repeated) as n_repeated,
        sum(n_repeating_other_files) as n_repeating_other_files,
        sum(n_left_out_when_read) as n_left_out_when_read

    from (
        select * from row_counts
        union all
        select * from left_out_when_read
    ) as file_counts
    group by task, source_file

)

select * from final
