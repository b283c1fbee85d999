{#-
    Fails when an export has rows but the annotators input is missing or empty (var
    require_annotators, default true): one row per export with rows. In dbt build and dbt test it
    stops with a message saying why. It counts the rows of the base tables (each export as read,
    before staging), so it runs early and costs nothing on a large export: counting through the
    staging views would parse every row.
-#}
{%- set required = ragmart_setting('require_annotators') -%}
{%- set annotators = ref('stg_annotation_exports__annotators') -%}
{%- set exports = ref('base_annotation_exports__annotations') -%}
{%- if required and ragmart_guards_active() and load_relation(annotators) is not none -%}
    {%- set counts = {'annotators': 0} -%}
    {%- for task in ragmart_tasks() -%}
        {%- do counts.update({task: 0}) -%}
    {%- endfor -%}
    {%- set query -%}
        select 'annotators' as input_name, count(*) as n_rows from {{ annotators }}
        union all
        select family as input_name, count(*) as n_rows from {{ exports }} group by family
    {%- endset -%}
    {%- for row in run_query(query).rows -%}
        {%- do counts.update({row[0]: row[1] | int}) -%}
    {%- endfor -%}
    {%- set with_rows = [] -%}
    {%- for task in ragmart_tasks() if counts[task] > 0 -%}
        {%- do with_rows.append(task ~ ' ' ~ ragmart_format_count(counts[task])) -%}
    {%- endfor -%}
    {%- if counts['annotators'] == 0 and with_rows -%}
        {%- set where = "seeds mode: annotators.csv has no row" if ragmart_input_mode() == 'seeds'
            else "files mode: no annotators*.csv or annotators*.parquet file with rows in input_path '"
            ~ var('input_path', '') ~ "'" %}
        {{ exceptions.raise_compiler_error(
            "ragmart: the annotators input is missing or empty (" ~ where ~ "), but the exports have rows (" ~ (with_rows | join(', ')) ~ ").\n"
            ~ "  Without it every annotator counts as a HUMAN annotator: every LLM and CODE judge would vote in"
            ~ " the consensus as a human, and the judge marts (judge_agreement, judge_weights, judge_metric_values)"
            ~ " would be empty.\n"
            ~ "  Provide the annotators (annotator_id, annotator_kind, role, display_name), or set the var"
            ~ " require_annotators: false to build without them, e.g. --vars '{require_annotators: false}'.") }}
    {%- endif -%}
{%- endif -%}

with

annotators as (

    select count(*) as n_annotators from {{ annotators }}

),

exports as (

    select
        family as task,
        count(*) as n_rows

    from {{ exports }}
    group by family

),

final as (

    select
        exports.task,
        exports.n_rows,
        annotators.n_annotators

    from exports
    cross join annotators
    where
        exports.n_rows > 0
        and annotators.n_annotators = 0
        and {{ 'true' if required else 'false' }}

)

select * from final
