{#- A rejected row always says why; an accepted row never carries a reason. -#}
select
    task,
    annotation_row_id,
    annotation_status,
    reasons

from {{ ref('int_annotations__row_status') }}
where
    (annotation_status = 'rejected' and (reasons is null or reasons = ''))
    or (annotation_status = 'accepted' and reasons is not null)
