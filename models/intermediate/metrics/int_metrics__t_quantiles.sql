{#-
    t_0.975(df), the 0.975 quantile of Student's t distribution, for df = 1 … 100: scipy's values
    (the generated list of ragmart_student_t_975_table), one row a df. Every 95 % t interval joins
    it on its degrees of freedom (ragmart_student_t_975, which takes the Cornish-Fisher expansion
    above 100), so that the table is written once, not in every model that needs it.
-#}
with

quantiles as (

    select
        table_values.degrees_of_freedom,
        table_values.t_975

    from (
        values
        {%- for t in ragmart_student_t_975_table() %}
        ({{ loop.index }}, {{ ragmart_double_literal(t) }}){{ ',' if not loop.last }}
        {%- endfor %}
    ) as table_values (degrees_of_freedom, t_975)

)

select * from quantiles
