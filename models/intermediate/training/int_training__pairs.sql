{#-
    Every distinct (task, text, text_pair) of the training view over every run, from the resolved
    units of the three families (int_training__units), conflicting or not (docs/rules.md,
    Training view). Gold authority: a pair with any unit in a gold-tier record (tier_b) takes each
    label from its gold units only, the value they all share (the triage units neither veto nor
    vote); a pair without gold units takes the value that every unit shares. A label is null when
    the units that count disagree (has_conflicting_labels) and for the labels of another family;
    each family's mart keeps its pairs whose units agree, the build log and the dataset card count
    the others (tier_b: its gold units disagree; tier_a: its triage units do). Provenance (n_units,
    n_annotators, run_ids, record_uuids), language and the query key are over every resolved unit.
-#}
{%- set labels = ragmart_labels() %}
{#- The shares of train, validation and test (setting training_split_shares). -#}
{%- set shares = ragmart_setting('training_split_shares') %}
{#-
    The split of a query key: h = the first 8 hexadecimal digits of md5(key) read as an integer,
    h / 2^32 below the train share is `train`, below train + validation `validation`, else `test`.
    The digits are read one by one (their place in '0123456789abcdef', as bigint: 15 · 16^7 passes
    a 32-bit integer), which every engine does alike.
-#}
{%- set key_hash_digits -%}
(
{%- for i in range(8) %}
cast(position(substr({{ dbt.hash('pairs.query_key') }}, {{ i + 1 }}, 1) in '0123456789abcdef') - 1 as bigint)
* {{ 16 ** (7 - i) }}{% if not loop.last %} +{% endif %}
{%- endfor %}
)
{%- endset %}
with

training_units as (

    select * from {{ ref('int_training__units') }}

),

query_keys as (

    select * from {{ ref('int_training__query_keys') }}

),

{# The accepted HUMAN rows: a unit's annotators. #}
human_rows as (

    select * from {{ ref('int_annotations__accepted_rows') }}
    where annotator_kind = 'HUMAN'

),

{# One row per resolved unit: its pair, labels, record, tier and query key. #}
unit_rows as (

    select
        training_units.task,
        training_units.text,
        training_units.text_pair,
        training_units.record_uuid,
        training_units.unit_chunk_key,
        training_units.run_id,
        training_units.language,
        training_units.tier,
        query_keys.query_key,
        {%- for label in labels %}
        training_units.{{ label }},
        {%- endfor %}
        {#- whether the unit is in a record of the gold tier: in a pair with such units, only theirs count #}
        case when training_units.tier = 'tier_b' then 1 else 0 end as is_gold_unit

    from training_units
    inner join query_keys
        on
            training_units.task = query_keys.task
            and training_units.record_uuid = query_keys.record_uuid

),

{#
    The pairs, over their units (a label, language or tier is the unit's, whatever its
    annotators); another family's label is null in every unit: it neither conflicts nor has a
    value. Per label the range of the gold units' values and of all units' values: a pair with
    gold units takes the first (gold authority), a pair without the second. Language, tier, query
    key and provenance are over every unit.
#}
pair_ranges as (

    select
        task,
        text,
        text_pair,
        {%- for label in labels %}
        min(case when is_gold_unit = 1 then {{ label }} end) as {{ label }}__gold_min,
        max(case when is_gold_unit = 1 then {{ label }} end) as {{ label }}__gold_max,
        min({{ label }}) as {{ label }}__min,
        max({{ label }}) as {{ label }}__max,
        {%- endfor %}
        case when min(language) = max(language) then min(language) else 'unknown' end as language,
        {{ ragmart_min_binary('query_key') }} as query_key,
        count(*) as n_units,
        sum(is_gold_unit) as n_gold_units,
        {{ ragmart_sorted_set('run_id', ';') }} as run_ids,
        {{ ragmart_sorted_set('record_uuid', ';') }} as record_uuids

    from unit_rows
    group by
        task,
        text,
        text_pair

),

{# Each label's range as it counts: the gold units' when the pair has any, else all units'. #}
counted_ranges as (

    select
        task,
        text,
        text_pair,
        {%- for label in labels %}
        case when n_gold_units > 0 then {{ label }}__gold_min else {{ label }}__min end as {{ label }}__min,
        case when n_gold_units > 0 then {{ label }}__gold_max else {{ label }}__max end as {{ label }}__max,
        {%- endfor %}
        language,
        query_key,
        n_units,
        n_gold_units,
        run_ids,
        record_uuids

    from pair_ranges

),

pairs as (

    select
        task,
        text,
        text_pair,
        {%- for label in labels %}
        case when {{ label }}__min = {{ label }}__max then {{ label }}__min end as {{ label }},
        {%- endfor %}
        (
            {%- for label in labels %}
            coalesce({{ label }}__min <> {{ label }}__max, false){% if not loop.last %} or{% endif %}
            {%- endfor %}
        ) as has_conflicting_labels,
        language,
        case when n_gold_units > 0 then 'tier_b' else 'tier_a' end as tier,
        query_key,
        n_units,
        n_gold_units,
        run_ids,
        record_uuids

    from counted_ranges

),

{# The HUMAN annotators, of any role, with an accepted row for any unit of the pair (one each per unit). #}
pair_annotators as (

    select
        unit_rows.task,
        unit_rows.text,
        unit_rows.text_pair,
        count(distinct human_rows.annotator_id) as n_annotators

    from unit_rows
    inner join human_rows
        on
            unit_rows.task = human_rows.task
            and unit_rows.record_uuid = human_rows.record_uuid
            and unit_rows.unit_chunk_key = human_rows.unit_chunk_key
    group by
        unit_rows.task,
        unit_rows.text,
        unit_rows.text_pair

),

final as (

    select
        pairs.task,
        pairs.text,
        pairs.text_pair,
        {%- for label in labels %}
        pairs.{{ label }},
        {%- endfor %}
        pairs.has_conflicting_labels,
        case
            when {{ key_hash_digits }} / 4294967296.0 < {{ shares.train }} then 'train'
            when {{ key_hash_digits }} / 4294967296.0 < {{ shares.train + shares.validation }} then 'validation'
            else 'test'
        end as split,
        pairs.language,
        pairs.tier,
        pairs.query_key,
        pairs.n_units,
        pairs.n_gold_units,
        pair_annotators.n_annotators,
        pairs.run_ids,
        pairs.record_uuids

    from pairs
    inner join pair_annotators
        on
            pairs.task = pair_annotators.task
            and pairs.text = pair_annotators.text
            and pairs.text_pair = pair_annotators.text_pair

)

select * from final
