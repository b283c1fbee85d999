{#-
    One row per day from 1970-01-01 up to (not including) 2100-01-01: the time spine that dbt's
    semantic layer requires of every project with semantic models (MetricFlow joins it for
    cumulative metrics and time-filled queries). Built with dbt's cross-database date_spine, so it
    builds alike on DuckDB, PostgreSQL and Spark.
-#}
with

days as (

    {{ dbt.date_spine(
        datepart="day",
        start_date="cast('1970-01-01' as date)",
        end_date="cast('2100-01-01' as date)"
    ) }}

),

final as (

    select cast(date_day as date) as date_day

    from days

)

select * from final
