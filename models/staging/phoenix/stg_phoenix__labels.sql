{#-
    Every Phoenix annotation whose name is a ragmart label (by itself or through the var
    label_names), one row each, with its family, its annotator and its value as 0005 text: a
    non-empty `label` decides (the boolean spellings and label_values parse it later, an unknown
    spelling stays as given and is invalid); else the `score`: exactly 1 or 0, or with the var
    score_threshold set, 1 at or above it and 0 below; any other score stays as given (invalid).
    The annotator is the annotation's `identifier`, else its metadata's annotator_id. Of several
    annotations of one annotator for one label of one unit (on several spans of a trace, or a span
    and the trace), the latest counts (`is_latest`; of two updated at once, the one of the later
    table in the order document, span, trace, then of the later file and row).
-#}
{%- set label_names = ragmart_setting('label_names') %}
{%- set threshold = ragmart_setting('score_threshold') %}
{#- The annotation names that map to no label are not read; the build log lists them. -#}
{%- set export = ref('base_phoenix__export') %}
{%- if execute and load_relation(export) is not none %}
    {%- do ragmart_phoenix_log(export, label_names) %}
{%- endif %}

with

annotations as (

    select
        source_file,
        source_row,
        table_index,
        annotation_target,
        trace_id,
        span_id,
        document_position,
        name,
        label,
        score,
        explanation,
        annotator_kind,
        identifier,
        metadata_annotator_id,
        created_at,
        updated_at

    from {{ ref('base_phoenix__export') }}
    where row_kind = 'annotation'

),

named as (

    select
        *,
        {{ ragmart_label_name('name') }} as label_name,
        {{ ragmart_clean_text('coalesce(identifier, metadata_annotator_id)') }} as annotator_id,
        {#- DuckDB's try_cast: Phoenix is read in files mode, on DuckDB only -#}
        try_cast(score as double) as score_number

    from annotations

),

labelled as (

    select
        *,
        case
            {%- for task in ragmart_tasks() %}
            when label_name in ('{{ ragmart_task_spec(task).labels | join("', '") }}') then '{{ task }}'
            {%- endfor %}
            when label_name = 'can_answer' then 'retrieval'
        end as family,
        case
            when {{ ragmart_clean_text('label') }} is not null then label
            when score_number is null then score
            {%- if threshold is not none %}
            when score_number >= {{ threshold }} then '1'
            else '0'
            {%- else %}
            when score_number = 1 then '1'
            when score_number = 0 then '0'
            else score
            {%- endif %}
        end as value_text

    from named

),

final as (

    select
        *,
        row_number() over (
            partition by
                trace_id,
                family,
                case when annotation_target = 'document' then span_id end,
                document_position,
                annotator_id,
                label_name
            order by updated_at desc, table_index desc, source_file desc, source_row desc
        ) = 1 as is_latest

    from labelled
    where family is not null

)

select * from final
