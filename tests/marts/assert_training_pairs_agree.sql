{{ config(severity='warn') }}
{#-
    Warns when the units of a training pair disagree on a label (docs/rules.md, Training view):
    such a pair is not a row of its mart. One result per such pair (family, text, text_pair,
    n_units, record_uuids); in dbt build and dbt test it prints the count per family, e.g.
    `ragmart: 5 training pairs left out, their units disagree on a label: retrieval 5, grounding 0,
    generation 0`.
-#}
{%- set pairs_relation = ref('int_training__pairs') %}
{%- if ragmart_guards_active() %}
    {#- the pairs left out because their units disagree on a label: family -> count, for the families that have any #}
    {%- set counts = {} %}
    {%- if load_relation(pairs_relation) is not none %}
        {%- set query -%}
            select task, count(*) from {{ pairs_relation }} where has_conflicting_labels group by task
        {%- endset %}
        {%- for row in run_query(query).rows %}
            {%- do counts.update({row[0]: row[1] | int}) %}
        {%- endfor %}
    {%- endif %}
    {%- set n_conflicting = counts.values() | sum %}
    {%- if n_conflicting > 0 %}
        {%- set parts = [] %}
        {%- for family in ragmart_tasks() %}
            {%- do parts.append(family ~ ' ' ~ ragmart_format_count(counts.get(family, 0))) %}
        {%- endfor %}
        {%- do exceptions.warn("ragmart: " ~ ragmart_format_count(n_conflicting)
            ~ " training pairs left out, their units disagree on a label (int_training__pairs"
            ~ " flags them): " ~ (parts | join(', '))) %}
    {%- endif %}
{%- endif %}
with

pairs as (

    select * from {{ pairs_relation }}

),

conflicting_pairs as (

    select
        task as family,
        text,
        text_pair,
        n_units,
        record_uuids

    from pairs
    where has_conflicting_labels

)

select * from conflicting_pairs
