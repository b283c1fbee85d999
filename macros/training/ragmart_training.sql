{#-
    The training view's split of a query key (docs/rules.md, Training view): h = the first 8
    hexadecimal digits of md5(key) read as an integer, h / 2^32 below the train share is
    `train`, below train + validation `validation`, else `test`. The digits are read one by one
    (their place in '0123456789abcdef', as bigint: 15 · 16^7 passes a 32-bit integer), which
    every engine does alike.
-#}
{% macro ragmart_training_split(key_expression) -%}
    {%- set shares = ragmart_setting('training_split_shares') -%}
    {%- set digits -%}
        (
        {%- for i in range(8) %}
            cast(position(substr({{ dbt.hash(key_expression) }}, {{ i + 1 }}, 1) in '0123456789abcdef') - 1 as bigint)
            * {{ 16 ** (7 - i) }}{% if not loop.last %} +{% endif %}
        {%- endfor %}
        )
    {%- endset -%}
    case
        when {{ digits }} / 4294967296.0 < {{ shares.train }} then 'train'
        when {{ digits }} / 4294967296.0 < {{ shares.train + shares.validation }} then 'validation'
        else 'test'
    end
{%- endmacro %}

{#-
    A query text as the training view's query key compares it (docs/rules.md, Training view):
    trimmed, every run of spaces, tabs, carriage returns and line feeds inside as one space, case
    kept.
-#}
{% macro ragmart_normalized_query_text(expression) -%}
    {{ ragmart_trim(ragmart_regexp_replace(expression, '[ \\t\\r\\n]+', ' ')) }}
{%- endmacro %}

{#-
    The training pairs left out because their units disagree on a label, per family: a dict
    family -> count of the families that have any, read at run time from `relation`
    (int_training__pairs); empty outside execution or before it exists.
-#}
{% macro ragmart_training_conflict_counts(relation) -%}
    {%- set counts = {} -%}
    {%- if not execute or load_relation(relation) is none -%}
        {{ return(counts) }}
    {%- endif -%}
    {%- set query -%}
        select task, count(*) from {{ relation }} where has_conflicting_labels group by task
    {%- endset -%}
    {%- for row in run_query(query).rows -%}
        {%- do counts.update({row[0]: row[1] | int}) -%}
    {%- endfor -%}
    {{ return(counts) }}
{%- endmacro %}
