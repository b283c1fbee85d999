{#- Cast that yields null instead of an error when the value does not convert. -#}
{% macro ragmart_try_cast(expression, data_type) -%}
    {{ return(adapter.dispatch('ragmart_try_cast', 'ragmart')(expression, data_type)) }}
{%- endmacro %}

{% macro default__ragmart_try_cast(expression, data_type) -%}
    try_cast({{ expression }} as {{ data_type }})
{%- endmacro %}
