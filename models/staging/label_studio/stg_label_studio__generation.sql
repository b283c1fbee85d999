{#-
    Label Studio's generation export as generation rows in the 0005 shape of stg_native__generation (every
    value as text): the generation rows of stg_label_studio__annotations.
-#}
{{ ragmart_label_studio_rows('generation') }}
