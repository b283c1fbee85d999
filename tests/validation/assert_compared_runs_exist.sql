{#-
    Fails when the var baseline_run_id, or a run of the var comparison_pairs, is not a run of the
    data: the run comparison would have no row for it and say nothing. One row per such run; in dbt
    build and dbt test it stops with a message that names the var, the run and the runs there are,
    so nothing is published.
-#}
{%- set baseline = ragmart_setting('baseline_run_id') %}
{%- set named = [] %}
{%- if baseline is not none %}
{%- do named.append(['baseline_run_id', baseline]) %}
{%- endif %}
{%- for pair in ragmart_setting('comparison_pairs') %}
{%- for run_id in pair %}
{%- do named.append(['comparison_pairs', run_id]) %}
{%- endfor %}
{%- endfor %}
{%- set runs = ref('int_metrics__runs') %}
{%- if named and ragmart_guards_active() and load_relation(runs) is not none %}
{%- set known = run_query('select run_id from ' ~ runs ~ ' order by run_id').columns[0].values() | list %}
{%- set missing = [] %}
{%- for var_name, run_id in named if run_id not in known %}
{%- do missing.append("var '" ~ var_name ~ "' names the run '" ~ run_id ~ "'") %}
{%- endfor %}
{%- if missing %}
{{ exceptions.raise_compiler_error(
    "ragmart: " ~ (missing | unique | join('; ')) ~ ", which is not a run of the data; the runs are "
    ~ (known | join(', ')) ~ ". Give a run id as it is in the records input (run_id), e.g. --vars '{baseline_run_id: "
    ~ (known | first) ~ "}'") }}
{%- endif %}
{%- endif %}
with

named_runs as (

    {%- for var_name, run_id in named %}
    select
        '{{ var_name }}' as var_name,
        {{ ragmart_text_literal(run_id) }} as run_id
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- else %}
    select
        cast(null as {{ dbt.type_string() }}) as var_name,
        cast(null as {{ dbt.type_string() }}) as run_id
    where 1 = 0
    {%- endfor %}

),

runs as (

    select * from {{ runs }}

),

final as (

    select
        named_runs.var_name,
        named_runs.run_id

    from named_runs
    left join runs
        on named_runs.run_id = runs.run_id
    where runs.run_id is null

)

select * from final
