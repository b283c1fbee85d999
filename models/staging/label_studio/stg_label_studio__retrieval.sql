{#-
    Label Studio's retrieval export as retrieval rows in the 0005 shape of stg_native__retrieval (every
    value as text): the retrieval rows of stg_label_studio__annotations.
-#}
{{ ragmart_label_studio_rows('retrieval') }}
