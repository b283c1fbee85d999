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
        {#- a label as it counts: a gold unit's always, a triage unit's only in a pair without gold units #}
        case when training_units.tier = 'tier_b' then 1 else 0 end as is_gold_unit

    from training_units
    inner join query_keys
        on
            training_units.task = query_keys.task
            and training_units.record_uuid = query_keys.record_uuid

),

{# Per pair, whether it has gold units: then only theirs count. #}
pair_gold_units as (

    select
        task,
        text,
        text_pair,
        sum(is_gold_unit) as n_gold_units

    from unit_rows
    group by
        task,
        text,
        text_pair

),

{# Each unit's labels as they count: null for a triage unit of a pair with gold units. #}
counted_units as (

    select
        unit_rows.task,
        unit_rows.text,
        unit_rows.text_pair,
        unit_rows.record_uuid,
        unit_rows.run_id,
        unit_rows.language,
        unit_rows.tier,
        unit_rows.query_key,
        pair_gold_units.n_gold_units,
        {%- for label in labels %}
        case
            when pair_gold_units.n_gold_units = 0 or unit_rows.is_gold_unit = 1 then unit_rows.{{ label }}
        end as {{ label }}
        {%- if not loop.last %},{% endif %}
        {%- endfor %}

    from unit_rows
    inner join pair_gold_units
        on
            unit_rows.task = pair_gold_units.task
            and unit_rows.text = pair_gold_units.text
            and unit_rows.text_pair = pair_gold_units.text_pair

),

{#
    The pairs, over their units (a label, language or tier is the unit's, whatever its
    annotators); another family's label, and a triage unit's beside gold units, is null in the
    unit: it neither conflicts nor has a value. Language, tier, query key and provenance are over
    every unit.
#}
pairs as (

    select
        task,
        text,
        text_pair,
        {%- for label in labels %}
        case when min({{ label }}) = max({{ label }}) then min({{ label }}) end as {{ label }},
        {%- endfor %}
        (
            {%- for label in labels %}
            coalesce(min({{ label }}) <> max({{ label }}), false){% if not loop.last %} or{% endif %}
            {%- endfor %}
        ) as has_conflicting_labels,
        case when min(language) = max(language) then min(language) else 'unknown' end as language,
        case when max(n_gold_units) > 0 then 'tier_b' else 'tier_a' end as tier,
        {{ ragmart_min_binary('query_key') }} as query_key,
        count(*) as n_units,
        max(n_gold_units) as n_gold_units,
        {{ ragmart_sorted_set('run_id', ';') }} as run_ids,
        {{ ragmart_sorted_set('record_uuid', ';') }} as record_uuids

    from counted_units
    group by
        task,
        text,
        text_pair

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
