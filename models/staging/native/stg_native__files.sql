{#-
    One row per file of the folder input_path that a build read (files mode), as base_native__export_files
    keeps it between builds: its input, size, modification time and content digest, its data rows, and
    the rows left out as it was read because a file that sorts after it holds the same row (exact copies,
    the native exports alone; counted in n_repeated by stg_annotation_exports__files). Files read at an
    earlier build that are no longer in the folder are left out.
-#}
{{ config(materialized='view') }}

with

file_states as (

    select * from {{ ref('base_native__export_files') }}
    where ragmart_input = 'file' and ragmart_file_state = 'read'

),

final as (

    select
        ragmart_file_input as input_name,
        ragmart_source_file as source_file,
        ragmart_file_bytes as n_bytes,
        ragmart_file_modified as modified_ns,
        ragmart_file_digest as content_digest,
        ragmart_file_rows as n_rows_read,
        ragmart_rows_left_out as n_left_out_when_read

    from file_states

)

select * from final
