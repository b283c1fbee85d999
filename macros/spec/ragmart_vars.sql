{#- Read and check the project's vars once, with a clear message when a value is off. -#}

{% macro ragmart_k_values() -%}
    {%- set k_values = var('retrieval_k_values', [1, 3, 5, 10]) -%}
    {%- if k_values is string or k_values is not iterable or (k_values | length) == 0 -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'retrieval_k_values' must be a non-empty list of whole numbers >= 1, got " ~ k_values) }}
    {%- endif -%}
    {%- for k in k_values -%}
        {%- if k is not number or k < 1 or k != (k | int) -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: var 'retrieval_k_values' must hold whole numbers >= 1, got " ~ k) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(k_values | map('int') | unique | sort | list) }}
{%- endmacro %}

{% macro ragmart_constraint_policy() -%}
    {%- set policy = var('constraint_policy', 'reject') -%}
    {%- if policy not in ['reject', 'repair'] -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'constraint_policy' must be 'reject' or 'repair', got '" ~ policy ~ "'") }}
    {%- endif -%}
    {{ return(policy) }}
{%- endmacro %}

{% macro ragmart_accepted_languages() -%}
    {%- set languages = var('accepted_languages', ['de', 'en']) -%}
    {%- if languages is string or languages is not iterable -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'accepted_languages' must be a list of language codes, got " ~ languages) }}
    {%- endif -%}
    {{ return(languages | list) }}
{%- endmacro %}

{#- The severity of the test that fails when any row is rejected (var fail_on_rejected). -#}
{% macro ragmart_rejected_rows_severity() -%}
    {%- set fail = var('fail_on_rejected', false) -%}
    {{ return('error' if fail in [true, 'true', 'True', 1, '1'] else 'warn') }}
{%- endmacro %}

{#- The severity of the test that warns of annotator ids the annotators input does not list (var fail_on_unknown_annotators). -#}
{% macro ragmart_unknown_annotators_severity() -%}
    {%- set fail = var('fail_on_unknown_annotators', false) -%}
    {{ return('error' if fail in [true, 'true', 'True', 1, '1'] else 'warn') }}
{%- endmacro %}

{#- A one-column relation (column k) with one row per cut-off of retrieval_k_values. -#}
{% macro ragmart_k_values_relation() -%}
    {%- for k in ragmart_k_values() %}
    select {{ k }} as k
    {%- if not loop.last %} union all{% endif %}
    {%- endfor %}
{%- endmacro %}

{#- A numeric var, checked, as a SQL literal. -#}
{% macro ragmart_number_var(name, default) -%}
    {%- set value = var(name, default) -%}
    {%- if value is not number -%}
        {%- set parsed = value | float(none) if value is string else none -%}
        {%- if parsed is none -%}
            {{ exceptions.raise_compiler_error("ragmart: var '" ~ name ~ "' must be a number, got " ~ value) }}
        {%- endif -%}
        {%- set value = parsed -%}
    {%- endif -%}
    {{ return(value) }}
{%- endmacro %}

{#- The var gold_task_types (ADR-001 routing), checked. -#}
{% macro ragmart_gold_task_types() -%}
    {%- set task_types = var('gold_task_types', ['factual_qa', 'rag_synthesis']) -%}
    {%- if task_types is string or task_types is not iterable -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'gold_task_types' must be a list of task types, got " ~ task_types) }}
    {%- endif -%}
    {{ return(task_types | list) }}
{%- endmacro %}

{#- The var max_rejected_share (a number from 0 to 1), checked. -#}
{% macro ragmart_max_rejected_share() -%}
    {%- set value = var('max_rejected_share', 0.10) -%}
    {%- set parsed = none -%}
    {%- if value is number and value is not boolean -%}
        {%- set parsed = value -%}
    {%- elif value is string -%}
        {%- set parsed = value | float(none) -%}
    {%- endif -%}
    {%- if parsed is none or parsed != parsed or parsed < 0 or parsed > 1 -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'max_rejected_share' must be a number from 0 to 1 (a share of an export's rows), got "
            ~ value) }}
    {%- endif -%}
    {{ return(parsed) }}
{%- endmacro %}

{#- The var require_annotators (true or false), checked. -#}
{% macro ragmart_require_annotators() -%}
    {%- set value = var('require_annotators', true) -%}
    {%- if value is boolean -%}
        {{ return(value) }}
    {%- elif value | string | lower in ['true', '1'] -%}
        {{ return(true) }}
    {%- elif value | string | lower in ['false', '0'] -%}
        {{ return(false) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error(
        "ragmart: var 'require_annotators' must be true or false, got " ~ value) }}
{%- endmacro %}

{#-
    The var default_run_id (the run of a record without a run_id), checked: a non-empty text
    (trimmed; a number is read as its text). Returns it as a SQL string literal.
-#}
{% macro ragmart_default_run_id() -%}
    {{ return(ragmart_text_literal(ragmart_run_id_var('default_run_id', 'default',
                                                      'the run of records without a run_id'))) }}
{%- endmacro %}

{#-
    A var naming a run, checked: a non-empty text (trimmed; a number is read as its text), with a
    compile error that names the var and says what it is for. Returns the text.
-#}
{% macro ragmart_run_id_var(name, default, meaning) -%}
    {%- set value = var(name, default) -%}
    {%- set text = '' if value is none or value is boolean or value is mapping
        or (value is iterable and value is not string) else (value | string | trim) -%}
    {%- if text == '' -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var '" ~ name ~ "' must be a non-empty text (" ~ meaning ~ "), got '" ~ value ~ "'") }}
    {%- endif -%}
    {{ return(text) }}
{%- endmacro %}

{#- A text var as a SQL string literal (quotes doubled). -#}
{% macro ragmart_text_literal(text) -%}
    {{ return("'" ~ (text | string | replace("'", "''")) ~ "'") }}
{%- endmacro %}

{#-
    The var baseline_run_id, checked: null (the smallest run id in byte order), or a non-empty text
    (trimmed; a number is read as its text). Returns a SQL string literal, or `null`.
-#}
{% macro ragmart_baseline_run_id() -%}
    {%- if var('baseline_run_id', none) is none -%}
        {{ return('null') }}
    {%- endif -%}
    {{ return(ragmart_text_literal(ragmart_run_id_var('baseline_run_id', none,
                                                      'the run every other run is compared with, or null'))) }}
{%- endmacro %}

{#-
    The var comparison_pairs, checked: a list of [baseline, candidate] pairs of run ids (each a
    non-empty text, trimmed). Returns a list of two-item lists of texts.
-#}
{% macro ragmart_comparison_pairs() -%}
    {%- set pairs = var('comparison_pairs', []) -%}
    {%- if pairs is none -%}
        {{ return([]) }}
    {%- endif -%}
    {%- if pairs is string or pairs is mapping or pairs is not iterable -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'comparison_pairs' must be a list of [baseline, candidate] pairs of run ids, got " ~ pairs) }}
    {%- endif -%}
    {%- set checked = [] -%}
    {%- for pair in pairs -%}
        {%- set texts = [] -%}
        {%- if pair is not string and pair is not mapping and pair is iterable and (pair | length) == 2 -%}
            {%- for run_id in pair -%}
                {%- if run_id is not none and run_id is not boolean
                    and (run_id is string or run_id is number) and (run_id | string | trim) != '' -%}
                    {%- do texts.append(run_id | string | trim) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
        {%- if (texts | length) != 2 -%}
            {{ exceptions.raise_compiler_error(
                "ragmart: var 'comparison_pairs' must be a list of [baseline, candidate] pairs of run ids (non-empty texts), got the item "
                ~ pair) }}
        {%- endif -%}
        {%- do checked.append(texts) -%}
    {%- endfor -%}
    {{ return(checked) }}
{%- endmacro %}

{#- The var comparison_permutations (B, a whole number >= 1), checked. -#}
{% macro ragmart_comparison_permutations() -%}
    {%- set value = var('comparison_permutations', 10000) -%}
    {%- set parsed = (value | int(-1)) if (value is number or value is string) and value is not boolean else -1 -%}
    {%- if parsed < 1 or (value is number and value != parsed) -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'comparison_permutations' must be a whole number >= 1 (the permutations of the run comparison), got "
            ~ value) }}
    {%- endif -%}
    {{ return(parsed) }}
{%- endmacro %}

{#- The var max_permutation_rows (a number >= 0), checked. -#}
{% macro ragmart_max_permutation_rows() -%}
    {%- set value = ragmart_number_var('max_permutation_rows', 100000000) -%}
    {%- if value is boolean or value < 0 -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'max_permutation_rows' must be a number >= 0, got " ~ value) }}
    {%- endif -%}
    {{ return(value) }}
{%- endmacro %}

{#- The var comparison_alpha (a number from 0 to 1), checked. -#}
{% macro ragmart_comparison_alpha() -%}
    {%- set value = ragmart_number_var('comparison_alpha', 0.05) -%}
    {%- if value is boolean or value < 0 or value > 1 -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'comparison_alpha' must be a number from 0 to 1, got " ~ value) }}
    {%- endif -%}
    {{ return(value) }}
{%- endmacro %}

{#-
    The var label_values (default {}): extra spellings of a label value, each -> 1 or 0, compared
    after trimming and lower-casing, on top of the boolean spellings (every input format). A flat
    entry ({relevant: 1}) applies to every label; a mapping under a label's name
    ({unsupported_claim_present: {hallucinated: 1, factual: 0}}) to that label alone, and wins
    over a flat entry of the same spelling. Returns the dict of spellings -> 1 or 0 for `label`
    (none: the flat entries alone); a compile error names a value other than 0 or 1, a spelling
    that is already a boolean spelling, or a mapping under a name that is no label.
-#}
{% macro ragmart_label_values(label=none) -%}
    {%- set given = var('label_values', {}) or {} -%}
    {%- if given is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'label_values' must be a mapping of spellings to 1 or 0, e.g. {relevant: 1, irrelevant: 0},"
            ~ " or of labels to such mappings, e.g. {unsupported_claim_present: {hallucinated: 1, factual: 0}}; got "
            ~ given) }}
    {%- endif -%}
    {%- set flat, own = {}, {} -%}
    {%- for key, value in given.items() -%}
        {%- if value is mapping -%}
            {%- if key not in ragmart_labels() + ['can_answer'] -%}
                {{ exceptions.raise_compiler_error(
                    "ragmart: var 'label_values' gives a mapping under '" ~ key ~ "', which is not a label; the labels are "
                    ~ ((ragmart_labels() + ['can_answer']) | join(', '))) }}
            {%- endif -%}
            {%- if key == label -%}
                {%- for spelling, number in value.items() -%}
                    {%- do own.update({ragmart_label_spelling(spelling, number, key): ragmart_label_number(spelling, number, key)}) -%}
                {%- endfor -%}
            {%- endif -%}
        {%- else -%}
            {%- do flat.update({ragmart_label_spelling(key, value, none): ragmart_label_number(key, value, none)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do flat.update(own) -%}
    {{ return(flat) }}
{%- endmacro %}

{#- A spelling of the var label_values, trimmed and lower-cased; a compile error when it is a boolean spelling. -#}
{% macro ragmart_label_spelling(spelling, value, label) -%}
    {%- set key = (spelling | string | trim | lower) -%}
    {%- if key in ['false', 'f', '0', 'no', 'n', 'true', 't', '1', 'yes', 'y'] -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'label_values' gives '" ~ spelling ~ "'" ~ (" for " ~ label if label else "")
            ~ ", which is already a boolean spelling") }}
    {%- endif -%}
    {{ return(key) }}
{%- endmacro %}

{#- The value a spelling of the var label_values maps to, 1 or 0; a compile error for any other. -#}
{% macro ragmart_label_number(spelling, value, label) -%}
    {%- set number = 1 if value in [1, '1', true, 'true'] else (0 if value in [0, '0', false, 'false'] else none) -%}
    {%- if number is none -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'label_values' maps '" ~ spelling ~ "'" ~ (" of " ~ label if label else "") ~ " to " ~ value
            ~ "; each spelling must map to 1 or 0") }}
    {%- endif -%}
    {{ return(number) }}
{%- endmacro %}

{#-
    The var label_names (default {}): a tool's name of a label -> the ragmart label (a binary label
    of a task, can_answer, or notes: a tool's free text). Returns the mapping; a compile error names a target that is no label.
-#}
{% macro ragmart_label_names() -%}
    {%- set given = var('label_names', {}) or {} -%}
    {%- if given is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'label_names' must be a mapping of a tool's label names to ragmart labels,"
            ~ " e.g. {relevance: topically_relevant}; got " ~ given) }}
    {%- endif -%}
    {%- set known = ragmart_labels() + ['can_answer', 'notes'] -%}
    {%- for name, label in given.items() if label not in known -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'label_names' maps '" ~ name ~ "' to '" ~ label ~ "', which is not a label; the labels are "
            ~ (known | join(', '))) }}
    {%- endfor -%}
    {{ return(given) }}
{%- endmacro %}

{#- The var score_threshold (default null): none, or the number at or above which a tool's score is 1. -#}
{% macro ragmart_score_threshold() -%}
    {%- set value = var('score_threshold', none) -%}
    {%- if value is none or (value is string and value | trim | lower in ['', 'none', 'null']) -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return(ragmart_number_var('score_threshold', none)) }}
{%- endmacro %}

{#-
    The var allow_empty_exports (default []): the exports (retrieval, grounding, generation) that may
    hold no data row. Any other export that is empty stops the build (assert_exports_have_rows, and
    in files mode base_native__export_files for a header alone). Returns the list; a compile error names a
    value that is no export.
-#}
{% macro ragmart_allow_empty_exports() -%}
    {%- set given = var('allow_empty_exports', []) or [] -%}
    {%- if given is string or given is mapping -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'allow_empty_exports' must be a list of exports, e.g. [grounding]; got " ~ given) }}
    {%- endif -%}
    {%- for name in given if name not in ragmart_tasks() -%}
        {{ exceptions.raise_compiler_error(
            "ragmart: var 'allow_empty_exports' lists '" ~ name ~ "', which is no export; the exports are "
            ~ (ragmart_tasks() | join(', '))) }}
    {%- endfor -%}
    {{ return(given | list) }}
{%- endmacro %}
