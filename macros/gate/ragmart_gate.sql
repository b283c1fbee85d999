{#-
    The release gate for plain dbt, on any engine (docs/rules.md, "Release gate"): after `dbt build`,

        dbt run-operation ragmart_gate --vars '{baseline_run_id: prod}'

    fails (exit code 1) when a run_comparison row with that baseline is significantly worse in its
    measure's direction (is_significant after Holm, the difference against higher_is_better), on the
    measures of the var gate_metrics ([] = all; `ndcg` or `ndcg@5`) and the slices of gate_slices
    (overall, and language if listed), printing each as the verdict sentence of scripts/show_metrics.py;
    passes with one line saying what it checked. Without baseline_run_id it fails when there is more
    than one run; with it, the comparisons must have that baseline (given to the build, or the smallest
    run id the build took by default), else it fails saying to build with it. `make gate`
    (scripts/gate.py) is the same check on the published DuckDB file, read-only. A failed gate is dbt's
    "FailFast" error ending with the verdict line `gate failed: ...` (the regressions are logged above
    it), not a compilation error; a wrong var is a compilation error naming it.
-#}
{% macro ragmart_gate() -%}
    {%- set baseline = ragmart_setting('baseline_run_id') -%}
    {%- set names = var('gate_metrics', []) or [] -%}
    {%- set names = [names] if names is string else names -%}
    {%- set slices = var('gate_slices', ['overall']) or ['overall'] -%}
    {%- set slices = [slices] if slices is string else slices -%}
    {%- for slice in slices if slice not in ['overall', 'language'] -%}
        {{ exceptions.raise_compiler_error("var gate_slices: unknown slice '" ~ slice ~ "'; the slices are overall, language") }}
    {%- endfor -%}
    {%- set slices = ['overall'] + (['language'] if 'language' in slices else []) -%}
    {%- set runs_sql -%}
        select run_id from {{ ref('grounding_metrics') }}
        union select run_id from {{ ref('generation_metrics') }}
        union select run_id from {{ ref('retrieval_metrics') }}
        order by run_id
    {%- endset -%}
    {%- set runs = run_query(runs_sql).columns[0].values() | list -%}
    {%- if baseline is none -%}
        {%- if runs | length > 1 -%}
            {{ exceptions.raise_fail_fast_error("gate failed: baseline_run_id is not set, so the gate does not know which of the "
                ~ runs | length ~ " runs (" ~ runs | join(', ') ~ ") is production. Run it with the var the build was given: "
                ~ "dbt run-operation ragmart_gate --vars '{baseline_run_id: <production run>}'. (The default baseline, the "
                ~ "smallest run id, is fine for reading, not for a release decision.)") }}
        {%- endif -%}
        {{ log("gate passed: " ~ runs | length ~ " run (" ~ runs | join(', ') ~ "), nothing to compare", info=true) }}
        {{ return(none) }}
    {%- endif -%}
    {%- set rows_sql -%}
        select candidate_run_id, metric, k, slice_dimension, slice_value, difference, adjusted_ci_lower,
            adjusted_ci_upper, p_value_holm, is_significant, higher_is_better, baseline_source
        from {{ ref('run_comparison') }}
        where baseline_run_id = {{ ragmart_text_literal(baseline) }}
        order by candidate_run_id, family, metric, k, slice_dimension, slice_value
    {%- endset -%}
    {%- set rows = run_query(rows_sql).rows -%}
    {%- set built_as = rows | map(attribute='baseline_source') | reject('equalto', 'comparison_pairs') | unique | list -%}
    {%- if not built_as -%}
        {{ exceptions.raise_fail_fast_error("gate failed: the comparisons do not have the baseline " ~ baseline
            ~ " (the build was given another baseline_run_id, or none). Build with it, then gate: "
            ~ "dbt build --vars '{baseline_run_id: " ~ baseline ~ "}'") }}
    {%- endif -%}
    {%- set known = [] -%}
    {%- for row in rows -%}
        {%- do known.append(row['metric']) -%}
        {%- do known.append(row['metric'] ~ '@' ~ row['k']) if row['k'] is not none -%}
    {%- endfor -%}
    {%- for name in names if name not in known -%}
        {{ exceptions.raise_compiler_error("var gate_metrics: no measure '" ~ name ~ "' in run_comparison; a name is a "
            ~ "metric of metric_values, or metric@k for one K") }}
    {%- endfor -%}
    {%- set failures = [] -%}
    {%- set checked = [] -%}
    {%- for row in rows if row['slice_dimension'] in slices -%}
        {%- set measure = row['metric'] ~ ('@' ~ row['k'] if row['k'] is not none else '') -%}
        {%- if not names or row['metric'] in names or measure in names -%}
            {%- do checked.append(measure) -%}
            {%- if row['is_significant'] and row['difference'] != 0 and (row['difference'] > 0) != row['higher_is_better'] -%}
                {%- set where = '' if row['slice_dimension'] == 'overall' else ' (' ~ row['slice_dimension'] ~ ' ' ~ row['slice_value'] ~ ')' -%}
                {%- set interval = '' if row['adjusted_ci_lower'] is none else
                    ' [' ~ '%.3f' | format(row['adjusted_ci_lower']) ~ ', ' ~ '%.3f' | format(row['adjusted_ci_upper']) ~ '] adjusted' -%}
                {%- do failures.append(row['candidate_run_id'] ~ ' is worse than ' ~ baseline ~ ' on ' ~ measure ~ where ~ ': '
                    ~ '%+.3f' | format(row['difference']) ~ interval ~ ', p_holm ' ~ '%.3f' | format(row['p_value_holm'])
                    ~ ' (' ~ ('higher' if row['higher_is_better'] else 'lower') ~ ' is better)') -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ log("baseline: " ~ baseline ~ " (named as production by baseline_run_id; the build compared with it as "
        ~ (built_as | sort | map('replace', 'baseline_run_id', 'its baseline_run_id')
           | map('replace', 'smallest_run_id', 'the smallest run id, by default') | join(' and ')) ~ ")", info=true) }}
    {%- set what = (checked | unique | list | length) ~ " measure(s), slices " ~ slices | join(' and ') -%}
    {%- for failure in failures -%}
        {{ log(failure, info=true) }}
    {%- endfor -%}
    {%- if failures -%}
        {{ exceptions.raise_fail_fast_error('gate failed: ' ~ failures | length
            ~ ' significant regression(s) against ' ~ baseline ~ ' after Holm, on ' ~ what) }}
    {%- endif -%}
    {{ log("gate passed: no candidate is significantly worse than " ~ baseline ~ " after Holm on " ~ what, info=true) }}
{%- endmacro %}
