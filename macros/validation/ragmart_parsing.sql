{#- Parsing rules of docs/rules.md (Inputs). Each rule lives here and nowhere else. -#}

{#- Null when the text is empty or blank, else the trimmed text. -#}
{% macro ragmart_clean_text(expression) -%}
    {{ return(adapter.dispatch('ragmart_clean_text', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_clean_text(expression) -%}
    nullif({{ ragmart_trim(expression) }}, '')
{%- endmacro %}

{#-
    DuckDB: the same result without trimming a text that has nothing to trim. DuckDB's trim reads
    the whole text; a text whose first byte is '!' or above (the four blanks, space, tab, line
    feed and carriage return, are all below '!') and whose last byte is not a blank is taken as
    it is, and only the others are trimmed. Byte comparisons: DuckDB compares text by its bytes,
    and suffix() compares the last bytes.
-#}
{% macro duckdb__ragmart_clean_text(expression) -%}
    case
        when {{ expression }} >= '!'
            and not (
                suffix({{ expression }}, ' ') or suffix({{ expression }}, chr(9))
                or suffix({{ expression }}, chr(10)) or suffix({{ expression }}, chr(13))
            )
            then {{ expression }}
        else nullif({{ ragmart_trim(expression) }}, '')
    end
{%- endmacro %}

{#- True when a value is missing: null, empty or blank. -#}
{% macro ragmart_is_blank(expression) -%}
    {{ return(adapter.dispatch('ragmart_is_blank', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_is_blank(expression) -%}
    ({{ ragmart_clean_text(expression) }} is null)
{%- endmacro %}

{#-
    DuckDB: the same test without trimming a copy of the text (costly on long texts such as
    chunks): blank when no character other than space, tab, line feed or carriage return occurs.
-#}
{% macro duckdb__ragmart_is_blank(expression) -%}
    ({{ expression }} is null or not regexp_matches({{ expression }}, '[^ \t\n\r]'))
{%- endmacro %}

{#-
    1 for true t 1 yes y, 0 for false f 0 no n (after trimming and lower-casing), else null, and
    the extra spellings of the setting label_values for `label` (the flat ones,
    e.g. {relevant: 1}, and the label's own, which win, also over a boolean spelling: {yes: 0}
    inverts a tool's yes for that label alone). One `when` per spelling rather than
    `in (...)`: DuckDB runs an `in` list as a join that it keeps even when a reader of the staging
    view does not select the label.
-#}
{% macro ragmart_parse_boolean(expression, label=none) -%}
    {%- set spellings = {'true': 1, 't': 1, '1': 1, 'yes': 1, 'y': 1, 'false': 0, 'f': 0, '0': 0, 'no': 0, 'n': 0} -%}
    {%- do spellings.update(ragmart_setting('label_values')[label or '']) -%}
    case lower({{ ragmart_trim(expression) }})
        {%- for spelling, value in spellings.items() %}
        when '{{ spelling | replace("'", "''") }}' then {{ value }}
        {%- endfor %}
    end
{%- endmacro %}

{#-
    The ISO 8601 timestamp pattern (docs/rules.md, Inputs): date, `T` or a space, hh:mm with
    optional seconds and fraction, then an optional `Z` or a +hh:mm, +hhmm or +hh offset (or
    with -). Groups: 1 date, 2 time, 3 offset sign, 4 offset hours, 5 offset minutes (absent
    for +hh).
-#}
{% macro ragmart_timestamp_pattern() -%}
    {{ return('^' ~ ragmart_local_timestamp_pattern() ~ '(?:Z|([+-])([01][0-9]|2[0-3])(?::?([0-5][0-9]))?)?$') }}
{%- endmacro %}

{#- The date, `T` or a space, and the time of the timestamp pattern (its groups 1 and 2), unanchored. -#}
{% macro ragmart_local_timestamp_pattern() -%}
    {{ return('([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]((?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:[.][0-9]+)?)?)') }}
{%- endmacro %}

{#-
    The pieces of a created_at text that ragmart_timestamp_from_parts reads, matched once: a
    staging model computes them in one CTE and parses them in the next, so that the pattern runs
    once per row where the engine can return every group of one match (DuckDB: a struct of the
    five groups; PostgreSQL: the array of regexp_match). Elsewhere, the trimmed text itself.
-#}
{% macro ragmart_timestamp_parts(expression) -%}
    {{ return(adapter.dispatch('ragmart_timestamp_parts', 'ragmart')(expression)) }}
{%- endmacro %}

{% macro default__ragmart_timestamp_parts(expression) -%}
    {{ ragmart_trim(expression) }}
{%- endmacro %}

{#-
    DuckDB: the usual forms (no blanks around, `Z` or no zone) give their groups by position: a
    text that matches the pattern in full without an offset starts with the 10 characters of the
    date, then the separator and the time up to an optional `Z`. Only the other texts go through
    the match with groups, which costs several times more.
-#}
{% macro duckdb__ragmart_timestamp_parts(expression) -%}
    case
        when regexp_full_match({{ expression }}, '{{ ragmart_local_timestamp_pattern() }}Z?')
            then struct_pack(
                local_date := left({{ expression }}, 10),
                local_time := substr(
                    {{ expression }}, 12, length({{ expression }}) - 11 - case when suffix({{ expression }}, 'Z') then 1 else 0 end
                ),
                offset_sign := '',
                offset_hours := '',
                offset_minutes := ''
            )
        else regexp_extract(
            {{ ragmart_trim(expression) }},
            '{{ ragmart_timestamp_pattern() }}',
            ['local_date', 'local_time', 'offset_sign', 'offset_hours', 'offset_minutes']
        )
    end
{%- endmacro %}

{% macro postgres__ragmart_timestamp_parts(expression) -%}
    regexp_match({{ ragmart_trim(expression) }}, '{{ ragmart_timestamp_pattern() }}')
{%- endmacro %}

{#- The UTC instant of the pieces of ragmart_timestamp_parts, or null when the text did not match. -#}
{% macro ragmart_timestamp_from_parts(parts) -%}
    {{ return(adapter.dispatch('ragmart_timestamp_from_parts', 'ragmart')(parts)) }}
{%- endmacro %}

{#- The parts are the trimmed text: each group is extracted by its own match. -#}
{% macro default__ragmart_timestamp_from_parts(parts) -%}
    {%- set pattern = ragmart_timestamp_pattern() -%}
    {{ ragmart_timestamp_from_groups(
        ragmart_regex_full_match(parts, pattern[1:-1]),
        ragmart_regexp_extract(parts, pattern, 1),
        ragmart_regexp_extract(parts, pattern, 2),
        ragmart_regexp_extract(parts, pattern, 3),
        ragmart_regexp_extract(parts, pattern, 4),
        ragmart_regexp_extract(parts, pattern, 5)) }}
{%- endmacro %}

{#- The parts are a struct of the five groups, each '' when it did not take part or nothing matched. -#}
{% macro duckdb__ragmart_timestamp_from_parts(parts) -%}
    {%- set groups = [] -%}
    {%- for name in ['local_date', 'local_time', 'offset_sign', 'offset_hours', 'offset_minutes'] -%}
        {%- do groups.append("nullif(struct_extract(" ~ parts ~ ", '" ~ name ~ "'), '')") -%}
    {%- endfor -%}
    {{ ragmart_timestamp_from_groups(groups[0] ~ ' is not null', *groups) }}
{%- endmacro %}

{#- The parts are the array of the five groups, null when nothing matched. -#}
{% macro postgres__ragmart_timestamp_from_parts(parts) -%}
    {%- set groups = [] -%}
    {%- for position in range(1, 6) -%}
        {%- do groups.append("nullif((" ~ parts ~ ")[" ~ position ~ "], '')") -%}
    {%- endfor -%}
    {{ ragmart_timestamp_from_groups('(' ~ parts ~ ') is not null', *groups) }}
{%- endmacro %}

{#-
    The UTC instant from the groups of the timestamp pattern (each null when it did not take
    part), when `matched`: the local date and time, minus the offset.
-#}
{% macro ragmart_timestamp_from_groups(matched, local_date, local_time, offset_sign, offset_hours, offset_minutes) -%}
    {%- set local_timestamp = ragmart_try_cast(local_date ~ " || ' ' || " ~ local_time, dbt.type_timestamp()) -%}
    {%- set offset_in_minutes -%}
        coalesce(
            case {{ offset_sign }} when '-' then -1 else 1 end
            * (cast({{ offset_hours }} as {{ dbt.type_int() }}) * 60
                + coalesce(cast({{ offset_minutes }} as {{ dbt.type_int() }}), 0)),
            0
        )
    {%- endset -%}
    case
        when {{ matched }} and {{ local_date }} not like '0000-%'
            then {{ ragmart_add_minutes(local_timestamp, '-1 * ' ~ offset_in_minutes) }}
    end
{%- endmacro %}
