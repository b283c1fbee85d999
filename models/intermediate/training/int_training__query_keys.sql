{#-
    The training view's query key of each record with accepted HUMAN rows, per family
    (docs/rules.md, Training view): the key of its query group. Records are linked when they
    share a query_id, a normalized query text (any family, any run; a record is one record in
    every family) or a training pair (int_training__units: one example is in one split); a
    group's key is its smallest query_id (byte order), else its smallest normalized text. The
    query text is the trimmed input_query (retrieval) or query (grounding, generation) of the
    record's accepted HUMAN rows in the family, the smallest in byte order when they differ;
    normalized: every run of spaces, tabs, carriage returns and line feeds inside as one space,
    case kept. So no query id and no query text has rows in two splits.

    The groups are the connected components of the graph of records and what links them (query
    ids, texts, pairs), found by label propagation: every record starts with its own smallest id
    and text, and each pass gives every link the smallest of its records' and every record the
    smallest of its links'. No engine's recursion is needed (Spark 3.5 has none): the passes are
    the setting training_query_group_passes, one pass more says whether any label would still
    change (is_group_settled, which a data test requires).
-#}
{%- set passes = ragmart_setting('training_query_group_passes') %}
with

accepted_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

training_units as (

    select * from {{ ref('int_training__units') }}

),

{# The query text is parsed in staging and not carried on: each row's is looked up by its id. #}
staged_rows as (

    select * from {{ ref('stg_annotation_exports__annotations') }}

),

human_query_texts as (

    select
        accepted_rows.task,
        accepted_rows.record_uuid,
        {{ ragmart_min_binary('staged_rows.query_text') }} as query_text

    from accepted_rows
    inner join staged_rows
        on
            accepted_rows.task = staged_rows.family
            and accepted_rows.annotation_row_id = staged_rows.annotation_row_id
    group by
        accepted_rows.task,
        accepted_rows.record_uuid

),

records_with_texts as (

    select
        family_records.task,
        family_records.record_uuid,
        family_records.query_id,
        {#- trimmed, every run of spaces, tabs, carriage returns and line feeds inside as one space, case kept #}
        {{ ragmart_trim(ragmart_regexp_replace('human_query_texts.query_text', '[ \\t\\r\\n]+', ' ')) }}
            as normalized_query_text

    from family_records
    inner join human_query_texts
        on
            family_records.task = human_query_texts.task
            and family_records.record_uuid = human_query_texts.record_uuid

),

{#
    The training pairs whose units' records ask more than one normalized text (a grounding answer
    and context set judged for two queries): their records are linked through the smallest of
    those texts, which joins their groups as a link of the pair itself would.
#}
multi_text_pairs as (

    select
        training_units.task,
        training_units.text,
        training_units.text_pair,
        {{ ragmart_min_binary('records_with_texts.normalized_query_text') }} as normalized_query_text

    from training_units
    inner join records_with_texts
        on
            training_units.task = records_with_texts.task
            and training_units.record_uuid = records_with_texts.record_uuid
    group by
        training_units.task,
        training_units.text,
        training_units.text_pair
    having count(distinct records_with_texts.normalized_query_text) > 1

),

{# The links of each record: its query_id, its normalized text in each family, its pairs' smallest texts. #}
links as (

    select
        record_uuid,
        'query_id' as node_kind,
        query_id as node_value

    from records_with_texts
    where query_id is not null

    union

    select
        record_uuid,
        'query_text' as node_kind,
        normalized_query_text as node_value

    from records_with_texts

    union

    select
        training_units.record_uuid,
        'query_text' as node_kind,
        multi_text_pairs.normalized_query_text as node_value

    from training_units
    inner join multi_text_pairs
        on
            training_units.task = multi_text_pairs.task
            and training_units.text = multi_text_pairs.text
            and training_units.text_pair = multi_text_pairs.text_pair

),

{# Pass 0: every record's own smallest query_id (null without one) and normalized text. #}
record_labels_0 as (

    select
        record_uuid,
        {{ ragmart_min_binary('query_id') }} as group_query_id,
        {{ ragmart_min_binary('normalized_query_text') }} as group_query_text

    from records_with_texts
    group by record_uuid

),
{%- for pass in range(1, passes + 2) %}

link_labels_{{ pass }} as (

    select
        links.node_kind,
        links.node_value,
        {{ ragmart_min_binary('record_labels_' ~ (pass - 1) ~ '.group_query_id') }} as group_query_id,
        {{ ragmart_min_binary('record_labels_' ~ (pass - 1) ~ '.group_query_text') }} as group_query_text

    from links
    inner join record_labels_{{ pass - 1 }}
        on links.record_uuid = record_labels_{{ pass - 1 }}.record_uuid
    group by
        links.node_kind,
        links.node_value

),

record_labels_{{ pass }} as (

    select
        links.record_uuid,
        {{ ragmart_min_binary('link_labels_' ~ pass ~ '.group_query_id') }} as group_query_id,
        {{ ragmart_min_binary('link_labels_' ~ pass ~ '.group_query_text') }} as group_query_text

    from links
    inner join link_labels_{{ pass }}
        on
            links.node_kind = link_labels_{{ pass }}.node_kind
            and links.node_value = link_labels_{{ pass }}.node_value
    group by links.record_uuid

),
{%- endfor %}

final as (

    select
        records_with_texts.task,
        records_with_texts.record_uuid,
        records_with_texts.query_id,
        records_with_texts.normalized_query_text,
        coalesce(settled.group_query_id, settled.group_query_text) as query_key,
        (
            coalesce(settled.group_query_id, '') = coalesce(further.group_query_id, '')
            and settled.group_query_text = further.group_query_text
        ) as is_group_settled

    from records_with_texts
    inner join record_labels_{{ passes }} as settled
        on records_with_texts.record_uuid = settled.record_uuid
    inner join record_labels_{{ passes + 1 }} as further
        on records_with_texts.record_uuid = further.record_uuid

)

select * from final
