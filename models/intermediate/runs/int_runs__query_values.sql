{#-
    One row per compared run (a baseline or candidate of int_runs__comparisons: with one run,
    none), metric (and K) and pairing key (docs/rules.md, Run comparison): the run's
    value for the key, the mean of the values of its resolved records with that key (for
    conditional fabrication over the cited ones), the records behind it, one of the key's query
    texts, and the key's language in the run (that of its records when they agree, else
    `unknown`). A key whose records all have no value (conditional fabrication: none cites) keeps
    its row with a null value, for its language.
-#}
with

record_values as (

    select * from {{ ref('int_metrics__record_values') }}

),

comparisons as (

    select * from {{ ref('int_runs__comparisons') }}

),

family_records as (

    select * from {{ ref('int_records__per_family') }}

),

compared_runs as (

    select baseline_run_id as run_id from comparisons

    union

    select candidate_run_id as run_id from comparisons

),

keyed_values as (

    select
        record_values.run_id,
        record_values.family,
        record_values.metric,
        record_values.k,
        record_values.pairing_key,
        record_values.record_uuid,
        record_values.value,
        family_records.query_text,
        coalesce(record_values.language, 'unknown') as language

    from record_values
    inner join compared_runs
        on record_values.run_id = compared_runs.run_id
    inner join family_records
        on
            record_values.family = family_records.task
            and record_values.record_uuid = family_records.record_uuid

),

final as (

    select
        run_id,
        family,
        metric,
        k,
        pairing_key,
        avg(value) as value,
        {{ ragmart_sorted_list('case when value is not null then record_uuid end', ';') }} as record_uuids,
        min(query_text) as query_text,
        case when count(distinct language) = 1 then min(language) else 'unknown' end as language

    from keyed_values
    group by
        run_id,
        family,
        metric,
        k,
        pairing_key

)

select * from final
