{#-
    Label Studio's annotations and predictions as 0005 rows: one row per non-cancelled annotation
    and per prediction with its result, every 0005 column of any family (the canonical input rows,
    base_annotation_exports__input_rows, keep each family's own), its task the file's family. A control (a JSON result by its from_name; in CSV and JSON_MIN a column) whose
    name, lower-cased, is a label, `can_answer` or `notes` (by itself or through the var
    label_names) fills that column; the task data fills the others (`record_uuid`, the texts,
    `chunk_id`, `chunk_rank`, `language`); a CSV or JSON_MIN column without the `_data_` prefix
    may be either, and counts unless the item has the field from its precise source (a `_data_`
    column or JSON data for task data, a JSON result for a control). `annotator_id` is the
    user's id (a prediction's model version); `created_at` the time of the result the row holds
    (`updated_at`). An unanswered control is null, so `missing:<label>` later.
    The build log counts the skipped annotations, warns when a JSON export lists its predictions
    by id only (the UI's export: the judges are not in it) and names the controls and the
    columns that map to no 0005 column.
-#}
{%- set label_names = ragmart_setting('label_names') %}
{%- set controls = ragmart_labels() + ['can_answer', 'notes'] %}
{%- set data_columns = ['record_uuid', 'language', 'chunk_id', 'chunk_rank', 'input_query', 'generated_search_query',
                        'doc_id', 'chunk', 'query', 'answer', 'context_set'] %}
{%- set export = ref('base_label_studio__export') %}
{%- if execute and load_relation(export) is not none %}
    {%- do ragmart_label_studio_log(export, controls, data_columns, label_names) %}
{%- endif %}

with

export as (

    select * from {{ export }}
    where item_kind in ('annotation', 'prediction')

),

named as (

    select
        *,
        case
            when field_source not in ('control', 'column') then null
            {%- for tool_name, label in label_names.items() %}
            when lower(trim(field_name)) = '{{ tool_name | lower | trim | replace("'", "''") }}' then '{{ label }}'
            {%- endfor %}
            else lower(trim(field_name))
        end as control_name,
        case when field_source in ('data', 'column') then lower(trim(field_name)) end as data_name

    from export

),

per_item as (

    select
        file_index,
        source_row,
        min(family) as family,
        min(source_file) as source_file,
        min(malformed_record) as malformed_record,
        min(annotator_id) as annotator_id,
        min(updated_at) as updated_at,
        {%- for column in data_columns %}
        {{ ragmart_label_studio_field('data', 'data_name', column) }} as {{ column }},
        {%- endfor %}
        {%- for column in controls %}
        {{ ragmart_label_studio_field('control', 'control_name', column) }} as {{ column }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from named
    group by
        file_index,
        source_row

),

final as (

    select
        {{ ragmart_row_id(['family', 'source_file', 'source_row']) }} as annotation_row_id,
        source_file,
        source_row,
        malformed_record,
        family,
        family as task,
        annotator_id,
        updated_at as created_at,
        {%- for column in data_columns + controls %}
        {{ column }}{% if not loop.last %},{% endif %}
        {%- endfor %}

    from per_item

)

select * from final
