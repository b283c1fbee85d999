-- One row per row of the grounding export with its status and reasons; see macros/validation/ragmart_validated_annotations.sql.
{{ ragmart_validated_annotations('grounding') }}
