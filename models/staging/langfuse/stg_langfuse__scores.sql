{#-
    Every Langfuse score of a trace, one version of each (Langfuse re-exports a score when it is
    updated, and adjacent export windows share their boundary: of the rows of one `id`, the one
    with the latest `updated_at` counts, then the one of the file that sorts last), whose name is
    a label of a family read from Langfuse, or `notes` (by its own name or through the var
    label_names), with:
    - the annotator by `source`: ANNOTATION (a person) `author_user_id`, else the metadata's
      annotator_id, else none; EVAL (an LLM-as-a-judge evaluator) `evaluator_id`, else
      `langfuse-eval`; API `metadata.annotator_id`, else `langfuse-api`; and the kind Langfuse
      implies: ANNOTATION HUMAN, EVAL LLM, API CODE;
    - the value as 0005 text by `data_type`: BOOLEAN `value` 1 or 0; CATEGORICAL `string_value`
      (the boolean spellings or label_values parse it later); NUMERIC `value` exactly 1 or 0, or
      with the var score_threshold set, 1 at or above it and 0 below; anything else stays as
      given and is rejected as `invalid_boolean:<label>`.
    Session scores (no trace) are no rows. The build log names the files no manifest lists, the
    score names that map to no label, and counts the session scores (ragmart_langfuse_log).
-#}
{%- set label_names = ragmart_setting('label_names') %}
{%- set threshold = ragmart_setting('score_threshold') %}
{#- Langfuse holds no retrieval labels (ragmart_input_formats stops a build that reads retrieval from it). -#}
{%- set families = ragmart_families_in_format('langfuse') | reject('equalto', 'retrieval') | list %}
{%- set export = ref('base_langfuse__export') %}
{%- if execute and load_relation(export) is not none %}
    {%- do ragmart_langfuse_log(export, label_names, families) %}
{%- endif %}

with

scores as (

    select
        file_index,
        source_file,
        source_row,
        id,
        trace_id,
        observation_id,
        updated_at,
        name,
        data_type,
        value,
        string_value,
        source,
        comment,
        author_user_id,
        evaluator_id,
        metadata_annotator_id

    from {{ export }}
    where row_kind = 'score'

),

versions as (

    select
        *,
        try_cast(updated_at as timestamp) as updated_at_utc,
        row_number() over (
            partition by id
            order by try_cast(updated_at as timestamp) desc, file_index desc, source_row desc
        ) as version_number

    from scores

),

named as (

    select
        *,
        {{ ragmart_label_name('name') }} as label_name,
        upper({{ ragmart_clean_text('source') }}) as score_source,
        upper({{ ragmart_clean_text('data_type') }}) as score_data_type,
        {#- DuckDB's try_cast: Langfuse is read in files mode, on DuckDB only -#}
        try_cast(value as double) as value_number

    from versions
    where
        version_number = 1
        and {{ ragmart_clean_text('trace_id') }} is not null

),

attributed as (

    select
        *,
        case score_source
            when 'ANNOTATION' then coalesce({{ ragmart_clean_text('author_user_id') }}, {{ ragmart_clean_text('metadata_annotator_id') }})
            when 'EVAL' then coalesce({{ ragmart_clean_text('evaluator_id') }}, 'langfuse-eval')
            when 'API' then coalesce({{ ragmart_clean_text('metadata_annotator_id') }}, 'langfuse-api')
        end as annotator_id,
        case score_source
            when 'ANNOTATION' then 'HUMAN'
            when 'EVAL' then 'LLM'
            when 'API' then 'CODE'
        end as annotator_kind,
        case
            {%- for family in families %}
            when label_name in ('{{ ragmart_task_spec(family).labels | join("', '") }}') then '{{ family }}'
            {%- endfor %}
            when label_name = 'notes' then 'notes'
        end as family,
        case
            when label_name = 'notes' then coalesce(string_value, value)
            when score_data_type = 'BOOLEAN' and value_number = 1 then '1'
            when score_data_type = 'BOOLEAN' and value_number = 0 then '0'
            when score_data_type = 'CATEGORICAL' then string_value
            {%- if threshold is not none %}
            when score_data_type = 'NUMERIC' and value_number >= {{ threshold }} then '1'
            when score_data_type = 'NUMERIC' and value_number < {{ threshold }} then '0'
            {%- else %}
            when score_data_type = 'NUMERIC' and value_number = 1 then '1'
            when score_data_type = 'NUMERIC' and value_number = 0 then '0'
            {%- endif %}
            else coalesce(string_value, value)
        end as value_text

    from named

),

final as (

    select * from attributed
    where family is not null

)

select * from final
