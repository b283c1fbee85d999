{#-
    The generation training view (docs/rules.md, Training view): one row per distinct (text,
    text_pair) of the family over every run, from the human consensus of the resolved units, in
    Hugging Face's text / text_pair convention (text is the query, text_pair the answer); every label the
    consensus value 0 or 1 that the pair's gold units share when it has any, else all its units
    (gold authority), its split by the query group, language, tier and provenance. The pairs whose
    counted units disagree on a label are left out (the build log and the dataset card count them).
-#}
with

pairs as (

    select * from {{ ref('int_training__pairs') }}
    where task = 'generation'

),

final as (

    select
        {{ ragmart_contract_columns() }}

    from pairs
    where not has_conflicting_labels

)

select * from final
