{#-
    The compared pairs of runs (docs/rules.md, Run comparison): every run other than the baseline
    against the baseline, which is the var baseline_run_id or else the smallest run id in byte
    order, and every [baseline, candidate] pair of the var comparison_pairs.
-#}
{%- set listed_pairs = ragmart_comparison_pairs() %}
with

runs as (

    select * from {{ ref('int_metrics__runs') }}

),

ordered_runs as (

    select
        run_id,
        row_number() over (order by {{ ragmart_collate_binary('run_id') }}) as run_position

    from runs

),

baseline as (

    select coalesce({{ ragmart_baseline_run_id() }}, run_id) as run_id
    from ordered_runs
    where run_position = 1

),

baseline_pairs as (

    select
        baseline.run_id as baseline_run_id,
        runs.run_id as candidate_run_id

    from runs
    cross join baseline
    where runs.run_id <> baseline.run_id

),

listed_pairs as (
    {%- for pair in listed_pairs %}

    select
        {{ ragmart_text_literal(pair[0]) }} as baseline_run_id,
        {{ ragmart_text_literal(pair[1]) }} as candidate_run_id
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- else %}

    select
        baseline_run_id,
        candidate_run_id

    from baseline_pairs
    where 1 = 0
    {%- endfor %}

),

final as (

    select
        baseline_run_id,
        candidate_run_id

    from baseline_pairs

    union

    select
        baseline_run_id,
        candidate_run_id

    from listed_pairs

)

select * from final
