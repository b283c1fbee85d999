{#-
    Fails when a row of the annotators input is not what the consensus can use: no annotator_id,
    an annotator_kind other than HUMAN, LLM or CODE, a role other than annotator or adjudicator
    (staging compares both case-insensitively), or an annotator_id listed more than once. Each
    would change the numbers silently: an unknown kind or role puts a judge among the voters or
    a human nowhere, and a repeated id counts that annotator's votes twice. One result per bad
    row; in dbt build and dbt test it stops with a message listing them.
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
        count(*) as n_rows

    from annotators
    where annotator_id is not null
    group by annotator_id

),

checked as (

    select
        annotators.annotator_id,
        annotators.annotator_kind,
        annotators.annotator_role,
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
            case when id_counts.n_rows > 1 then 'annotator_id listed more than once' end
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
    {%- set found = run_query(bad_rows ~ ' order by annotator_id') -%}
    {%- if found.rows | length > 0 -%}
        {%- set lines = [] -%}
        {%- for row in found.rows[:20] -%}
            {%- do lines.append("  annotator_id " ~ (row[0] or '(empty)') ~ ", annotator_kind " ~ (row[1] or '(empty)')
                ~ ", role " ~ (row[2] or '(empty)') ~ ": " ~ row[3]) -%}
        {%- endfor -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: " ~ (found.rows | length) ~ " row(s) of the annotators input cannot be used as they are:\n"
            ~ (lines | join('\n')) ~ "\n"
            ~ "  annotator_kind must be HUMAN, LLM or CODE and role annotator or adjudicator (any case), once per"
            ~ " annotator_id: otherwise judges would vote as humans, humans would not vote, or votes would count twice.") }}
    {%- endif -%}
{%- endif %}
{{ bad_rows }}
