{#-
    Label Studio's grounding export as grounding rows in the 0005 shape of stg_native__grounding (every
    value as text): the grounding rows of stg_label_studio__annotations.
-#}
{{ ragmart_label_studio_rows('grounding') }}
