{#-
    One row per file of the three exports (docs/rules.md, Daily exports): the rows read from it, its
    blank rows (skipped), and its exact copies of rows read elsewhere (left out), with how many of
    those repeat another file's rows (whole-history exports, the usual cause). Read by
    export_row_counts and by the guard assert_exports_have_rows, which names empty exports and
    says in the build log which files repeat which.
-#}

with

retrieval_rows as (

    select * from {{ ref('base_annotation_exports__retrieval') }}

),

grounding_rows as (

    select * from {{ ref('base_annotation_exports__grounding') }}

),

generation_rows as (

    select * from {{ ref('base_annotation_exports__generation') }}

),

input_rows as (

    select
        'retrieval' as task,
        source_file,
        read_source_file,
        is_blank_row,
        is_repeated_row

    from retrieval_rows

    union all

    select
        'grounding' as task,
        source_file,
        read_source_file,
        is_blank_row,
        is_repeated_row

    from grounding_rows

    union all

    select
        'generation' as task,
        source_file,
        read_source_file,
        is_blank_row,
        is_repeated_row

    from generation_rows

),

final as (

    select
        task,
        source_file,
        count(*) as n_rows_read,
        sum(case when is_blank_row then 1 else 0 end) as n_blank,
        sum(case when is_repeated_row then 1 else 0 end) as n_repeated,
        sum(
            case when is_repeated_row and read_source_file <> source_file then 1 else 0 end
        ) as n_repeating_other_files

    from input_rows
    group by task, source_file

)

select * from final
