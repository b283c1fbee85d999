{{ config(severity='warn') }}
{#-
    Warns when a tool's export is read for some family (Phoenix, Label Studio, Langfuse: they
    record annotators and, for Phoenix and Langfuse, their kinds, but no roles) and no annotators
    input lists an adjudicator: then no row adjudicates, every HUMAN row votes in the consensus,
    and an adjudicator's labels count as one more vote (docs/rules.md, Daily exports). One result when it applies, with the HUMAN rows of
    the exports; in dbt build and dbt test the warning says what to add.
-#}
{%- set tools = ragmart_input_formats().values() | reject('equalto', 'native') | unique | list %}
{%- set applies = tools | length > 0 %}
{%- set annotators = ref('stg_annotation_exports__annotators') %}
{%- set row_status = ref('int_annotations__row_status') %}
{%- if applies and ragmart_guards_active() and load_relation(annotators) is not none %}
    {%- set n_adjudicators = run_query(
        "select count(*) from " ~ annotators ~ " where annotator_role = 'adjudicator'").rows[0][0] | int %}
    {%- if n_adjudicators == 0 %}
        {% do exceptions.warn(
            "ragmart: the " ~ (tools | join(' and ')) ~ " export" ~ ('s record' if tools | length > 1 else ' records') ~ " no roles, and no annotators input lists an"
            ~ " adjudicator: no row adjudicates, so every HUMAN row votes in the consensus (an adjudicator's labels"
            ~ " count as one more vote). List your adjudicators in an annotators file beside the export"
            ~ " (annotator_id, annotator_kind, role = adjudicator).") %}
    {%- endif %}
{%- endif %}

with

annotators as (

    select * from {{ annotators }}

),

row_status as (

    select * from {{ row_status }}

),

adjudicators as (

    select count(*) as n_adjudicators
    from annotators
    where annotator_role = 'adjudicator'

),

exports as (

    select count(*) as n_rows
    from row_status
    where task <> 'records'

),

final as (

    select
        exports.n_rows,
        adjudicators.n_adjudicators

    from exports
    cross join adjudicators
    where
        {{ 'true' if applies else 'false' }}
        and adjudicators.n_adjudicators = 0
        and exports.n_rows > 0

)

select * from final
