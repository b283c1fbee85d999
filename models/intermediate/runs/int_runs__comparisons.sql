{#-
    The compared pairs of runs (docs/rules.md, Run comparison): every run other than the baseline
    against the baseline, which is the var baseline_run_id or else the smallest run id in byte
    order, and every [baseline, candidate] pair of the var comparison_pairs. `baseline_source`
    says how the pair's baseline was chosen: `baseline_run_id` (the var), `smallest_run_id` (no
    var: the default, fine for reading, not for a release decision) or `comparison_pairs` (listed
    there and not already a pair of the baseline).
-#}
{%- set listed_pairs = ragmart_setting('comparison_pairs') %}
{%- set baseline_run_id = ragmart_setting('baseline_run_id') %}
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

    select coalesce({{ 'null' if baseline_run_id is none else ragmart_text_literal(baseline_run_id) }}, run_id) as run_id
    from ordered_runs
    where run_position = 1

),

baseline_pairs as (

    select
        baseline.run_id as baseline_run_id,
        runs.run_id as candidate_run_id,
        {{ "'smallest_run_id'" if baseline_run_id is none else "'baseline_run_id'" }} as baseline_source

    from runs
    cross join baseline
    where runs.run_id <> baseline.run_id

),

listed_pairs as (
    {%- for pair in listed_pairs %}

    select
        {{ ragmart_text_literal(pair[0]) }} as baseline_run_id,
        {{ ragmart_text_literal(pair[1]) }} as candidate_run_id

    {{ 'union all' if not loop.last }}
    {%- else %}

    select
        baseline_run_id,
        candidate_run_id

    from baseline_pairs
    where 1 = 0
    {%- endfor %}

),

listed_only as (

    select distinct
        listed_pairs.baseline_run_id,
        listed_pairs.candidate_run_id,
        'comparison_pairs' as baseline_source

    from listed_pairs
    left join baseline_pairs
        on
            listed_pairs.baseline_run_id = baseline_pairs.baseline_run_id
            and listed_pairs.candidate_run_id = baseline_pairs.candidate_run_id
    where baseline_pairs.baseline_run_id is null

),

final as (

    select
        baseline_run_id,
        candidate_run_id,
        baseline_source

    from baseline_pairs

    union all

    select
        baseline_run_id,
        candidate_run_id,
        baseline_source

    from listed_only

)

select * from final
