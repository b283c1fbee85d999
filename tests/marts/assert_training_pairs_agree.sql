{{ config(severity='warn') }}
{#-
    Warns when the units of a training pair whose labels count disagree on a label (docs/rules.md,
    Training view: the gold units of a pair that has any, else all its units): such a pair is not
    a row of its mart. One result per such pair (family, tier, text, text_pair, n_units,
    record_uuids); in dbt build and dbt test it prints the count per family, and how many of them
    are pairs whose gold units disagree (tier_b) or pairs without gold units (tier_a), e.g.
    `ragmart: 5 training pairs left out, their units disagree on a label (...): retrieval 5,
    grounding 0, generation 0 (gold units disagree in 0, triage units of pairs without gold units
    in 5)`.
-#}
{%- set pairs_relation = ref('int_training__pairs') %}
{%- if ragmart_guards_active() %}
    {#- the pairs left out because their units disagree on a label: family -> count, for the families that have any; and per tier #}
    {%- set counts = {} %}
    {%- set tier_counts = {'tier_a': 0, 'tier_b': 0} %}
    {%- if load_relation(pairs_relation) is not none %}
        {%- set query -%}
            select task, tier, count(*) from {{ pairs_relation }} where has_conflicting_labels group by task, tier
        {%- endset %}
        {%- for row in run_query(query).rows %}
            {%- do counts.update({row[0]: counts.get(row[0], 0) + (row[2] | int)}) %}
            {%- do tier_counts.update({row[1]: tier_counts[row[1]] + (row[2] | int)}) %}
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
            ~ " flags them): " ~ (parts | join(', ')) ~ " (gold units disagree in "
            ~ ragmart_format_count(tier_counts.tier_b) ~ ", triage units of pairs without gold units in "
            ~ ragmart_format_count(tier_counts.tier_a) ~ ")") %}
    {%- endif %}
{%- endif %}
with

pairs as (

    select * from {{ pairs_relation }}

),

conflicting_pairs as (

    select
        task as family,
        tier,
        text,
        text_pair,
        n_units,
        record_uuids

    from pairs
    where has_conflicting_labels

)

select * from conflicting_pairs
