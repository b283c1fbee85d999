{#-
    Fails when a listing of the annotators input is not what the consensus can use: no
    annotator_id, an annotator_kind other than HUMAN, LLM or CODE, a role other than annotator or
    adjudicator (staging compares both case-insensitively), or an annotator_id listed with two
    different kinds or roles (rows that list an annotator the same way count once, so copies of
    one list are fine). Each would change the numbers silently: an unknown kind or role puts a
    judge among the voters or a human nowhere, and an id with two kinds or roles has no one
    meaning. One result per bad listing; in dbt build and dbt test it stops with a message that
    names each id once, with its listings and the files that hold them.
-#}
{%- set annotators = ref('stg_annotation_exports__annotators') -%}
{%- set bad_rows -%}
with

annotators as (

    select * from {{ annotators }}

),

id_counts as (

    select
        annotator_id,
        count(*) as n_listings

    from annotators
    where annotator_id is not null
    group by annotator_id

),

checked as (

    select
        annotators.annotator_id,
        annotators.annotator_kind,
        annotators.annotator_role,
        annotators.source_files,
        concat_ws(
            '; ',
            case when annotators.annotator_id is null then 'no annotator_id' end,
            case
                when coalesce(annotators.annotator_kind, '') not in ('HUMAN', 'LLM', 'CODE')
                    then 'annotator_kind is not HUMAN, LLM or CODE'
            end,
            case
                when coalesce(annotators.annotator_role, '') not in ('annotator', 'adjudicator')
                    then 'role is not annotator or adjudicator'
            end,
            case when id_counts.n_listings > 1 then 'annotator_id listed with different kinds or roles' end
        ) as problems

    from annotators
    left join id_counts
        on annotators.annotator_id = id_counts.annotator_id

),

final as (

    select * from checked
    where problems <> ''

)

select * from final
{%- endset -%}
{%- if ragmart_guards_active() and load_relation(annotators) is not none -%}
    {%- set found = run_query(bad_rows ~ ' order by annotator_id, annotator_kind, annotator_role') -%}
    {%- if found.rows | length > 0 -%}
        {%- set by_id = {} -%}
        {%- set ids = [] -%}
        {%- for row in found.rows -%}
            {%- set id = row[0] or '(empty)' -%}
            {%- if id not in by_id -%}
                {%- do ids.append(id) -%}
                {%- do by_id.update({id: {'listings': [], 'problems': []}}) -%}
            {%- endif -%}
            {%- do by_id[id].listings.append("annotator_kind " ~ (row[1] or '(empty)') ~ ", role " ~ (row[2] or '(empty)')
                ~ " in " ~ (row[3] or '').replace(';', ', ')) -%}
            {%- for problem in row[4].split('; ') if problem not in by_id[id].problems -%}
                {%- do by_id[id].problems.append(problem) -%}
            {%- endfor -%}
        {%- endfor -%}
        {%- set lines = [] -%}
        {%- for id in ids[:20] -%}
            {%- do lines.append("  annotator_id " ~ id ~ ": " ~ (by_id[id].problems | join('; ')) ~ " ("
                ~ (by_id[id].listings | join('; ')) ~ ")") -%}
        {%- endfor -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: " ~ (ids | length) ~ " annotator id(s) of the annotators input cannot be used as they are:\n"
            ~ (lines | join('\n')) ~ "\n"
            ~ "  annotator_kind must be HUMAN, LLM or CODE and role annotator or adjudicator (any case), one kind"
            ~ " and role per annotator_id: otherwise judges would vote as humans, humans would not vote, or one id"
            ~ " would have two meanings.") }}
    {%- endif -%}
{%- endif %}
{{ bad_rows }}
