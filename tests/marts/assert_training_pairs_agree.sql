{{ config(severity='warn') }}
{#-
    Warns when the units of a training pair disagree on a label (docs/rules.md, Training view):
    such a pair is not a row of its mart. One result per such pair (family, text, text_pair,
    n_units, record_uuids); in dbt build and dbt test it prints the count per family, e.g.
    `ragmart: 5 training pairs left out, their units disagree on a label: retrieval 5, grounding 0,
    generation 0`.
-#}
{%- set pairs = {
    'retrieval': ref('int_training__retrieval_pairs'),
    'grounding': ref('int_training__grounding_pairs'),
    'generation': ref('int_training__generation_pairs'),
} %}
{%- if ragmart_guards_active() %}
    {%- set counts = ragmart_training_conflict_counts(pairs) %}
    {%- set n_conflicting = counts.values() | sum %}
    {%- if n_conflicting > 0 %}
        {%- set parts = [] %}
        {%- for family in ['retrieval', 'grounding', 'generation'] if family in counts %}
            {%- do parts.append(family ~ ' ' ~ ragmart_format_count(counts[family])) %}
        {%- endfor %}
        {%- do exceptions.warn("ragmart: " ~ ragmart_format_count(n_conflicting)
            ~ " training pairs left out, their units disagree on a label (int_training__<family>_pairs"
            ~ " flags them): " ~ (parts | join(', '))) %}
    {%- endif %}
{%- endif %}
with

retrieval_pairs as (

    select * from {{ pairs.retrieval }}

),

grounding_pairs as (

    select * from {{ pairs.grounding }}

),

generation_pairs as (

    select * from {{ pairs.generation }}

),

conflicting_pairs as (

    select
        'retrieval' as family,
        text,
        text_pair,
        n_units,
        record_uuids
    from retrieval_pairs
    where has_conflicting_labels

    union all

    select
        'grounding' as family,
        text,
        text_pair,
        n_units,
        record_uuids
    from grounding_pairs
    where has_conflicting_labels

    union all

    select
        'generation' as family,
        text,
        text_pair,
        n_units,
        record_uuids
    from generation_pairs
    where has_conflicting_labels

)

select * from conflicting_pairs
