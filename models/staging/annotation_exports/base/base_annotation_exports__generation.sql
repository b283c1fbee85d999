{#-
    The generation export as read, narrowed: the row id, the short columns as given (text) and a
    blank flag per long text; see the model's docs for why this is a table of its own.
-#}
{{ ragmart_base_export('generation') }}
