{#- Cast that yields null instead of an error when the value does not convert. -#}
{% macro ragmart_try_cast(expression, data_type) -%}
    {{ return(adapter.dispatch('ragmart_try_cast', 'ragmart')(expression, data_type)) }}
{%- endmacro %}

{% macro default__ragmart_try_cast(expression, data_type) -%}
    try_cast({{ expression }} as {{ data_type }})
{%- endmacro %}

{#-
    Postgres has no try_cast and a failed cast aborts the query, so the text is checked before
    it is cast, and only a text that converts reaches the cast (a `case` evaluates its branches
    in order). Supported: the integer types (digits with an optional sign, in the type's range,
    checked through `numeric`, which reads any digit string) and `timestamp` (`yyyy-mm-dd` then
    `hh:mm[:ss[.fraction]]`, separated by a space or `T`, with a date that exists).
-#}
{% macro postgres__ragmart_try_cast(expression, data_type) -%}
    {%- set type_name = data_type | trim | lower -%}
    {%- set integer_ranges = {
        'smallint': ['-32768', '32767'],
        'integer': ['-2147483648', '2147483647'],
        'int': ['-2147483648', '2147483647'],
        'bigint': ['-9223372036854775808', '9223372036854775807'],
    } -%}
    {%- if type_name in integer_ranges -%}
        (case
            when ({{ expression }}) ~ '^[+-]?[0-9]+$'
                then case
                    when cast({{ expression }} as numeric)
                        between {{ integer_ranges[type_name][0] }} and {{ integer_ranges[type_name][1] }}
                        then cast(cast({{ expression }} as numeric) as {{ data_type }})
                end
        end)
    {%- elif type_name in ['timestamp', 'timestamp without time zone'] -%}
        {%- set text = '(' ~ expression ~ ')' -%}
        {%- set year = 'cast(substr(' ~ text ~ ', 1, 4) as integer)' -%}
        {%- set month = 'cast(substr(' ~ text ~ ', 6, 2) as integer)' -%}
        {%- set day = 'cast(substr(' ~ text ~ ', 9, 2) as integer)' -%}
        (case
            when {{ text }} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]+)?)?$'
                then case
                    when {{ year }} >= 1 and {{ month }} between 1 and 12
                        then case
                            when {{ day }} between 1
                                and extract(day from make_date({{ year }}, {{ month }}, 1) + interval '1 month' - interval '1 day')
                                then cast({{ text }} as {{ data_type }})
                        end
                end
        end)
    {%- else -%}
        {{ exceptions.raise_compiler_error(
            "ragmart_try_cast: no safe cast to '" ~ data_type ~ "' on postgres (supported: "
            ~ (integer_ranges.keys() | list | join(', ')) ~ ", timestamp)") }}
    {%- endif -%}
{%- endmacro %}
