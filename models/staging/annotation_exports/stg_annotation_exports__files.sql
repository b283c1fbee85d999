{#-
    One row per file of the three exports and of the records input (docs/rules.md, Daily exports):
    the rows read from it, its blank rows (skipped; the exports' alone), and its exact copies of
    rows read elsewhere (left out), with how many of those repeat another file's rows
    (whole-history exports, the usual cause). Read by export_row_counts and by the guard
    assert_exports_have_rows, which names empty exports and says in the build log which files
    repeat which.
-#}

with

input_rows as (

    select * from {{ ref('base_annotation_exports__annotations') }}

),

final as (

    select
        family as task,
        source_file,
        count(*) as n_rows_read,
        sum(case when is_blank_row then 1 else 0 end) as n_blank,
        sum(case when is_repeated_row then 1 else 0 end) as n_repeated,
        sum(
            case when is_repeated_row and read_source_file <> source_file then 1 else 0 end
        ) as n_repeating_other_files

    from input_rows
    group by family, source_file

)

select * from final
