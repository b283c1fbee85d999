{#- Parsing rules of CONTRACT.md (Inputs). Each rule lives here and nowhere else. -#}

{#- Null when the text is empty or blank, else the trimmed text. -#}
{% macro ragmart_clean_text(expression) -%}
    nullif({{ ragmart_trim(expression) }}, '')
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

{#- 1 for true t 1 yes y, 0 for false f 0 no n (after trimming and lower-casing), else null. -#}
{% macro ragmart_parse_boolean(expression) -%}
    case
        when lower({{ ragmart_trim(expression) }}) in ('true', 't', '1', 'yes', 'y') then 1
        when lower({{ ragmart_trim(expression) }}) in ('false', 'f', '0', 'no', 'n') then 0
    end
{%- endmacro %}

{#- A chunk rank: digits only after trimming and at least 1, else null. -#}
{% macro ragmart_parse_rank(expression) -%}
    case
        when {{ ragmart_regex_full_match(ragmart_trim(expression), '[0-9]+') }}
            then nullif({{ ragmart_try_cast(ragmart_trim(expression), dbt.type_bigint()) }}, 0)
    end
{%- endmacro %}

{#-
    The ISO 8601 timestamp pattern of CONTRACT.md: date, `T` or a space, hh:mm with optional
    seconds and fraction, then an optional `Z` or +hh:mm / -hh:mm offset. Groups: 1 date,
    2 time, 3 offset sign, 4 offset hours, 5 offset minutes.
-#}
{% macro ragmart_timestamp_pattern() -%}
    {{ return('^([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]((?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:[.][0-9]+)?)?)(?:Z|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))?$') }}
{%- endmacro %}

{#-
    The instant a created_at text stands for, as a timestamp in UTC, or null when it does not
    parse. A zone-less time is UTC; an offset is subtracted. The result does not depend on the
    session's time zone.
-#}
{% macro ragmart_parse_timestamp(expression) -%}
    {%- set pattern = ragmart_timestamp_pattern() -%}
    {%- set text = ragmart_trim(expression) -%}
    {%- set local_time = ragmart_try_cast(
        ragmart_regexp_extract(text, pattern, 1) ~ " || ' ' || " ~ ragmart_regexp_extract(text, pattern, 2),
        dbt.type_timestamp()) -%}
    {%- set offset_minutes -%}
        coalesce(
            case {{ ragmart_regexp_extract(text, pattern, 3) }} when '-' then -1 else 1 end
            * (cast({{ ragmart_regexp_extract(text, pattern, 4) }} as {{ dbt.type_int() }}) * 60
                + cast({{ ragmart_regexp_extract(text, pattern, 5) }} as {{ dbt.type_int() }})),
            0
        )
    {%- endset -%}
    case
        when {{ ragmart_regex_full_match(text, pattern[1:-1]) }}
            then {{ ragmart_add_minutes(local_time, '-1 * ' ~ offset_minutes) }}
    end
{%- endmacro %}

{#- A decimal number (optional sign, digits with an optional fraction) after trimming, else null. -#}
{% macro ragmart_parse_decimal(expression) -%}
    case
        when {{ ragmart_regex_full_match(ragmart_trim(expression), '[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)') }}
            then cast({{ ragmart_trim(expression) }} as {{ ragmart_type_double() }})
    end
{%- endmacro %}
