{#-
    The project's settings: the vars of dbt_project.yml that a user sets (docs/rules.md, "Vars").
    Every model, test and macro reads them through ragmart_setting(name), which checks the value
    against the var's rule and stops the run with a message that names the var, says what it
    accepts and shows what it got. The rules, by kind:
      cutoffs      a non-empty list of whole numbers >= 1 (returned sorted, without repeats)
      texts        a list of texts
      choice       one of the listed values (none for null)
      switch       true or false (also 'true', 'false', 1, 0, case-insensitive)
      number       a number (or numeric text), within the bounds given
      whole        a whole number >= 1
      run          a non-empty text naming a run, trimmed (a number is read as its text); none
                   where null is allowed
      run_pairs    a list of [baseline, candidate] pairs of runs
      exports      a list of exports (the families of the task spec)
      label_names  a mapping of a tool's label names to ragmart labels
      label_values a mapping of spellings to 1 or 0, flat or under a label's name
      split_shares the shares of train, validation and test, adding up to 1
-#}
{% macro ragmart_setting(name) -%}
    {%- set checked = ragmart_checked_setting(name, var(name)) -%}
    {%- if checked.problem -%}
        {{ exceptions.raise_compiler_error("ragmart: var '" ~ name ~ "' " ~ checked.problem) }}
    {%- endif -%}
    {{ return(checked.value) }}
{%- endmacro %}

{#-
    The check of ragmart_setting for a value of the setting `name`: {value, problem}, the value
    as the models use it and none, or none and what is wrong (the message without the var's name).
-#}
{% macro ragmart_checked_setting(name, value) -%}
    {%- set rules = {
        'retrieval_k_values': {'kind': 'cutoffs'},
        'accepted_languages': {'kind': 'texts', 'meaning': 'a list of language codes'},
        'gold_task_types': {'kind': 'texts', 'meaning': 'a list of task types'},
        'constraint_policy': {'kind': 'choice', 'choices': ['reject', 'repair']},
        'input_mode': {'kind': 'choice', 'choices': ['seeds', 'files']},
        'langfuse_run_field': {'kind': 'choice', 'choices': ['release', 'version', 'environment', none]},
        'fail_on_rejected': {'kind': 'switch'},
        'fail_on_unknown_annotators': {'kind': 'switch'},
        'require_annotators': {'kind': 'switch'},
        'allow_outside_links': {'kind': 'switch'},
        'max_rejected_share': {'kind': 'number', 'min': 0, 'max': 1, 'meaning': "a share of an export's rows"},
        'comparison_alpha': {'kind': 'number', 'min': 0, 'max': 1, 'meaning': 'the level of the Holm test'},
        'max_permutation_rows': {'kind': 'number', 'min': 0},
        'drift_min_spot_checks': {'kind': 'whole', 'meaning': 'the spot-checked units a week needs to alert'},
        'spot_check_rate_target': {'kind': 'number', 'min': 0, 'max': 1, 'meaning': 'the share of triage records spot-checked'},
        'gold_target_cases': {'kind': 'whole', 'meaning': 'the cases of the labeling plan'},
        'gold_target_high_stakes': {'kind': 'whole', 'meaning': 'the high-stakes cases of the labeling plan'},
        'judge_bound': {'kind': 'choice', 'choices': ['alpha', 'kappa']},
        'score_threshold': {'kind': 'number', 'nullable': true},
        'comparison_permutations': {'kind': 'whole', 'meaning': 'the permutations of the run comparison'},
        'default_run_id': {'kind': 'run', 'meaning': 'the run of records without a run_id'},
        'baseline_run_id': {'kind': 'run', 'nullable': true,
                            'meaning': 'the run every other run is compared with, or null'},
        'comparison_pairs': {'kind': 'run_pairs'},
        'allow_empty_exports': {'kind': 'exports'},
        'label_names': {'kind': 'label_names'},
        'label_values': {'kind': 'label_values'},
        'training_split_shares': {'kind': 'split_shares'},
        'training_query_group_passes': {'kind': 'whole', 'meaning': 'the passes that find the query groups'},
    } -%}
    {%- for plain in ['gold_uncertainty_threshold', 'agreement_alpha_target', 'drift_disagreement_threshold',
                      'gold_share_target', 'single_annotation_cost', 'dual_annotation_cost', 'judge_min_kappa'] -%}
        {%- do rules.update({plain: {'kind': 'number'}}) -%}
    {%- endfor -%}
    {%- if name not in rules -%}
        {{ exceptions.raise_compiler_error("ragmart: '" ~ name ~ "' is not a setting; the settings are "
            ~ (rules.keys() | sort | join(', '))) }}
    {%- endif -%}
    {%- set rule = rules[name] -%}
    {%- set kind = rule.kind -%}
    {%- set is_null = value is none or (value is string and value | trim | lower in ['', 'none', 'null']) -%}
    {%- set is_list = value is iterable and value is not string and value is not mapping -%}
    {%- set result = {'value': value, 'problem': none} -%}

    {%- if kind == 'cutoffs' -%}
        {%- if not is_list or (value | length) == 0 -%}
            {%- do result.update({'problem': 'must be a non-empty list of whole numbers >= 1, got ' ~ value}) -%}
        {%- endif -%}
        {%- for k in (value if is_list else []) if not result.problem
            and (k is boolean or k is not number or k < 1 or k != (k | int)) -%}
            {%- do result.update({'problem': 'must hold whole numbers >= 1, got ' ~ k}) -%}
        {%- endfor -%}
        {%- do result.update({'value': value | map('int') | unique | sort | list}) if not result.problem -%}

    {%- elif kind == 'texts' -%}
        {%- do result.update({'value': value | list} if is_list else {'problem': 'must be ' ~ rule.meaning ~ ', got ' ~ value}) -%}

    {%- elif kind == 'choice' -%}
        {%- set given = none if (is_null and none in rule.choices) else value -%}
        {%- if given not in rule.choices -%}
            {%- set named = [] -%}
            {%- for choice in rule.choices -%}
                {%- do named.append('null' if choice is none else ("'" ~ choice ~ "'")) -%}
            {%- endfor -%}
            {%- do result.update({'problem': 'must be ' ~ named[:-1] | join(', ') ~ ' or ' ~ named[-1]
                ~ ", got '" ~ value ~ "'"}) -%}
        {%- endif -%}
        {%- do result.update({'value': given}) -%}

    {%- elif kind == 'switch' -%}
        {%- set text = value | string | trim | lower -%}
        {%- if value is boolean -%}
        {%- elif text in ['true', '1'] -%}
            {%- do result.update({'value': true}) -%}
        {%- elif text in ['false', '0'] -%}
            {%- do result.update({'value': false}) -%}
        {%- else -%}
            {%- do result.update({'problem': 'must be true or false, got ' ~ value}) -%}
        {%- endif -%}

    {%- elif kind == 'number' -%}
        {%- set parsed = value if (value is number and value is not boolean)
            else (value | float(none) if value is string else none) -%}
        {%- set bounds = (' from ' ~ rule.min ~ ' to ' ~ rule.max) if 'max' in rule
            else ((' >= ' ~ rule.min) if 'min' in rule else '') -%}
        {%- if rule.nullable and is_null -%}
            {%- set parsed = none -%}
        {%- elif parsed is none or parsed != parsed or ('min' in rule and parsed < rule.min)
            or ('max' in rule and parsed > rule.max) -%}
            {%- do result.update({'problem': 'must be a number' ~ bounds
                ~ (' (' ~ rule.meaning ~ ')' if rule.meaning else '') ~ ', got ' ~ value}) -%}
        {%- endif -%}
        {%- do result.update({'value': parsed}) -%}

    {%- elif kind == 'whole' -%}
        {%- set parsed = (value | int(-1)) if (value is number or value is string) and value is not boolean else -1 -%}
        {%- if parsed < 1 or (value is number and value != parsed) -%}
            {%- do result.update({'problem': 'must be a whole number >= 1 (' ~ rule.meaning ~ '), got ' ~ value}) -%}
        {%- endif -%}
        {%- do result.update({'value': parsed}) -%}

    {%- elif kind == 'run' -%}
        {%- set text = '' if value is none or value is boolean or value is mapping or is_list else (value | string | trim) -%}
        {%- if rule.nullable and value is none -%}
            {%- do result.update({'value': none}) -%}
        {%- elif value is float -%}
            {%- do result.update({'problem': 'was read as the number ' ~ value ~ ', not as the run id as written'
                ~ ' (YAML reads an unquoted 1.10 as 1.1); quote it as written, e.g. ' ~ '{' ~ name ~ ': "1.10"}'
                ~ ' (make build and make build-files keep it as written)'}) -%}
        {%- elif text == '' -%}
            {%- do result.update({'problem': 'must be a non-empty text (' ~ rule.meaning ~ "), got '" ~ value ~ "'"}) -%}
        {%- else -%}
            {%- do result.update({'value': text}) -%}
        {%- endif -%}

    {%- elif kind == 'run_pairs' -%}
        {%- set pairs = [] -%}
        {%- if value is not none and not is_list -%}
            {%- do result.update({'problem': 'must be a list of [baseline, candidate] pairs of run ids, got ' ~ value}) -%}
        {%- endif -%}
        {%- for pair in (value if is_list else []) -%}
            {%- set texts = [] -%}
            {%- if pair is not string and pair is not mapping and pair is iterable and (pair | length) == 2 -%}
                {%- for run_id in pair if run_id is not none and run_id is not boolean
                    and (run_id is string or run_id is number) and (run_id | string | trim) != '' -%}
                    {%- do texts.append(run_id | string | trim) -%}
                {%- endfor -%}
            {%- endif -%}
            {%- if pair is iterable and pair is not string and pair is not mapping
                and (pair | select('float') | list) and not result.problem -%}
                {%- do result.update({'problem': 'has the run id ' ~ (pair | select('float') | first)
                    ~ ' read as a number, not as written (YAML reads an unquoted 1.10 as 1.1); quote the run ids,'
                    ~ ' e.g. [["1.10", "1.2"]] (make build and make build-files keep them as written)'}) -%}
            {%- endif -%}
            {%- if (texts | length) != 2 and not result.problem -%}
                {%- do result.update({'problem': 'must be a list of [baseline, candidate] pairs of run ids'
                    ~ ' (non-empty texts), got the item ' ~ pair}) -%}
            {%- endif -%}
            {%- do pairs.append(texts) -%}
        {%- endfor -%}
        {%- do result.update({'value': pairs}) -%}

    {%- elif kind == 'exports' -%}
        {%- set given = value or [] -%}
        {%- if given is string or given is mapping -%}
            {%- do result.update({'problem': 'must be a list of exports, e.g. [grounding]; got ' ~ given}) -%}
        {%- else -%}
            {%- for export in given if export not in ragmart_tasks() and not result.problem -%}
                {%- do result.update({'problem': "lists '" ~ export ~ "', which is no export; the exports are "
                    ~ (ragmart_tasks() | join(', '))}) -%}
            {%- endfor -%}
            {%- do result.update({'value': given | list}) -%}
        {%- endif -%}

    {%- elif kind == 'label_names' -%}
        {%- set given = value or {} -%}
        {%- set known = ragmart_labels() + ['can_answer', 'notes'] -%}
        {%- if given is not mapping -%}
            {%- do result.update({'problem': "must be a mapping of a tool's label names to ragmart labels,"
                ~ ' e.g. {relevance: topically_relevant}; got ' ~ given}) -%}
        {%- else -%}
            {%- for tool_name, label in given.items() if label not in known and not result.problem -%}
                {%- do result.update({'problem': "maps '" ~ tool_name ~ "' to '" ~ label
                    ~ "', which is not a label; the labels are " ~ (known | join(', '))}) -%}
            {%- endfor -%}
            {%- do result.update({'value': given}) -%}
        {%- endif -%}

    {%- elif kind == 'label_values' -%}
        {#- Returns {label: {spelling: 1 or 0}} for every label and '' for the flat entries alone;
            a label's own entries win over a flat entry of the same spelling. -#}
        {%- set given = value or {} -%}
        {%- set known = ragmart_labels() + ['can_answer'] -%}
        {%- set flat, own = {}, {} -%}
        {%- if given is not mapping -%}
            {%- do result.update({'problem': 'must be a mapping of spellings to 1 or 0, e.g. {relevant: 1, irrelevant: 0},'
                ~ ' or of labels to such mappings, e.g. {unsupported_claim_present: {hallucinated: 1, factual: 0}}; got '
                ~ given}) -%}
        {%- endif -%}
        {%- set entries = [] -%}
        {%- for key, entry in (given.items() if given is mapping else []) -%}
            {%- if entry is mapping and key not in known -%}
                {%- do result.update({'problem': "gives a mapping under '" ~ key ~ "', which is not a label; the labels are "
                    ~ (known | join(', '))}) if not result.problem -%}
            {%- elif entry is mapping -%}
                {%- do own.update({key: {}}) if key not in own -%}
                {%- for spelling, number in entry.items() -%}
                    {%- do entries.append([key, spelling, number, own[key]]) -%}
                {%- endfor -%}
            {%- else -%}
                {%- do entries.append([none, key, entry, flat]) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- for label, spelling, number, into in entries if not result.problem -%}
            {%- set key = spelling | string | trim | lower -%}
            {%- set bit = 1 if number in [1, '1', true, 'true'] else (0 if number in [0, '0', false, 'false'] else none) -%}
            {%- if key in ['false', 'f', '0', 'no', 'n', 'true', 't', '1', 'yes', 'y'] and not label -%}
                {%- do result.update({'problem': "gives '" ~ spelling ~ "', which is already a boolean spelling (a label's"
                    ~ " own mapping may invert it for that label alone, e.g. {unsafe_content: {'yes': 0, 'no': 1}})"}) -%}
            {%- elif bit is none -%}
                {%- do result.update({'problem': "maps '" ~ spelling ~ "'" ~ (' of ' ~ label if label else '') ~ ' to ' ~ number
                    ~ '; each spelling must map to 1 or 0'}) -%}
            {%- else -%}
                {%- do into.update({key: bit}) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set per_label = {'': flat} -%}
        {%- for label in known -%}
            {%- set merged = flat.copy() -%}
            {%- do merged.update(own.get(label, {})) -%}
            {%- do per_label.update({label: merged}) -%}
        {%- endfor -%}
        {%- do result.update({'value': per_label}) -%}

    {%- elif kind == 'split_shares' -%}
        {%- set shares = {} -%}
        {%- if value is not mapping or (value.keys() | list | sort) != ['test', 'train', 'validation'] -%}
            {%- do result.update({'problem': 'must give the shares of train, validation and test, e.g.'
                ~ ' {train: 0.8, validation: 0.1, test: 0.1}; got ' ~ value}) -%}
        {%- else -%}
            {%- for split in ['train', 'validation', 'test'] -%}
                {%- set share = value[split] | float(-1) -%}
                {%- if (value[split] is boolean or share < 0 or share > 1) and not result.problem -%}
                    {%- do result.update({'problem': 'gives ' ~ split ~ ' = ' ~ value[split]
                        ~ '; a share is a number from 0 to 1'}) -%}
                {%- endif -%}
                {%- do shares.update({split: share}) -%}
            {%- endfor -%}
            {%- if not result.problem and ((shares.train + shares.validation + shares.test) - 1) | abs > 1e-9 -%}
                {%- do result.update({'problem': 'must add up to 1; got ' ~ value}) -%}
            {%- endif -%}
        {%- endif -%}
        {%- do result.update({'value': shares}) -%}
    {%- endif -%}

    {%- do result.update({'value': none}) if result.problem -%}
    {{ return(result) }}
{%- endmacro %}

{#- A text as a SQL string literal, its single quotes doubled. -#}
{% macro ragmart_text_literal(text) -%}
    {{ return("'" ~ (text | string | replace("'", "''")) ~ "'") }}
{%- endmacro %}

{#- A one-column relation (column k) with one row per cut-off of retrieval_k_values. -#}
{% macro ragmart_k_values_relation() -%}
    {%- for k in ragmart_setting('retrieval_k_values') %}
    select {{ k }} as k
    {%- if not loop.last %} union all{% endif %}
    {%- endfor %}
{%- endmacro %}
