{#-
    The grounding input in the 0005 shape, every row as read: the seed, or in files mode the
    grounding* files read by base_native__export_files.
-#}
{{ config(materialized='view') }}
{%- set input = ref('base_native__export_files') if ragmart_input_mode() == 'files' else ref('grounding_annotations') %}

{{ ragmart_input_rows('grounding', input) }}
