{{ config(severity=('error' if ragmart_setting('fail_on_unknown_annotators') else 'warn')) }}
{#-
    Warns (or, with the var fail_on_unknown_annotators true, fails) when annotator ids of the
    exports are not in a non-empty annotators input: such rows count as HUMAN annotators, so a
    misspelled or mis-decoded id of a judge or an adjudicator would change the consensus without a
    word. One result per unlisted id and task, with its rows; in dbt build and dbt test it prints
    each id with its rows per task and the closest listed id when one is close (a typo, a case
    slip, a character mis-decoded). With no annotators input at all, assert_annotators_input_present
    speaks instead.
-#}
{%- set row_status = ref('int_annotations__row_status') %}
{%- set annotators = ref('stg_annotation_exports__annotators') %}
{%- set unlisted_rows -%}
with

row_status as (

    select * from {{ row_status }}

),

annotators as (

    select * from {{ annotators }}

),

listed as (

    select distinct annotator_id
    from annotators
    where annotator_id is not null

),

listed_count as (

    select count(*) as n_listed from listed

),

final as (

    select
        row_status.annotator_id,
        row_status.task,
        count(*) as n_rows

    from row_status
    cross join listed_count
    left join listed
        on row_status.annotator_id = listed.annotator_id
    where
        row_status.annotator_id is not null
        and listed.annotator_id is null
        and listed_count.n_listed > 0
    group by
        row_status.annotator_id,
        row_status.task

)

select * from final
{%- endset -%}
{%- if ragmart_guards_active() and load_relation(row_status) is not none and load_relation(annotators) is not none %}
    {%- set found = run_query(unlisted_rows ~ ' order by annotator_id, task') %}
    {%- if found.rows | length > 0 %}
        {%- set listed = run_query(
            'select distinct annotator_id from ' ~ annotators ~ ' where annotator_id is not null order by annotator_id'
        ).columns[0].values() | list %}
        {%- set by_id = {} %}
        {%- set ids = [] %}
        {%- for row in found.rows %}
            {%- if row[0] not in by_id %}
                {%- do ids.append(row[0]) %}
                {%- do by_id.update({row[0]: []}) %}
            {%- endif %}
            {%- do by_id[row[0]].append(row[1] ~ " " ~ ragmart_format_count(row[2]) ~ " row(s)") %}
        {%- endfor %}
        {%- set lines = [] %}
        {%- for id in ids[:50] %}
            {#-
                The listed id closest to `id` (compared lower-cased) when it is close: at most 2
                edits, or a third of the longer id's length (a typo, a case slip, a character
                mis-decoded). The edits are the Levenshtein distance (insertions, deletions and
                substitutions of one character), computed row by row.
            #}
            {%- set closest = namespace(id=none, distance=none) %}
            {%- for candidate in listed %}
                {%- set a, b = id | lower, candidate | lower %}
                {%- set state = namespace(previous=range(b | length + 1) | list) %}
                {%- for i in range(1, a | length + 1) %}
                    {%- set current = [i] %}
                    {%- for j in range(1, b | length + 1) %}
                        {%- set cost = 0 if a[i - 1] == b[j - 1] else 1 %}
                        {%- do current.append([state.previous[j] + 1, current[j - 1] + 1, state.previous[j - 1] + cost] | min) %}
                    {%- endfor %}
                    {%- set state.previous = current %}
                {%- endfor %}
                {%- set distance = state.previous[-1] %}
                {%- set limit = [2, ([id | length, candidate | length] | max) // 3] | max %}
                {%- if distance <= limit and (closest.distance is none or distance < closest.distance) %}
                    {%- set closest.id = candidate %}
                    {%- set closest.distance = distance %}
                {%- endif %}
            {%- endfor %}
            {%- do lines.append("  " ~ id ~ ": " ~ (by_id[id] | join(', '))
                ~ ("; did you mean " ~ closest.id ~ "?" if closest.id else "")) %}
        {%- endfor %}
        {%- set failing = ragmart_setting('fail_on_unknown_annotators') %}
        {%- set message = "ragmart: " ~ (ids | length) ~ " annotator id(s) of the exports are not in the annotators"
            ~ " input" ~ (" and the var fail_on_unknown_annotators is true" if failing else "")
            ~ "; their rows count as HUMAN annotators (they vote in the consensus, as no judge or adjudicator):\n"
            ~ (lines | join('\n')) ~ ("\n  ... and " ~ (ids | length - 50) ~ " more" if ids | length > 50 else "")
            ~ "\n  List each in the annotators input with its kind and role, or correct the id in the exports"
            ~ (" (the var fail_on_unknown_annotators: true makes this fail the build)." if not failing else ".") %}
        {%- do ragmart_raise_or_warn(message, failing) %}
    {%- endif %}
{%- endif %}
{{ unlisted_rows }}
