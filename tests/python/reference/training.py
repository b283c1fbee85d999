"""The training view (retrieval_training_pairs, grounding_training_pairs, generation_training_pairs).

Written from docs/rules.md ("Training view") only, never from the SQL: from the core reference's
units (consensus), records (run, pairing key, language) and rows (texts of the accepted HUMAN
rows), and the agreement reference's tiers. A unit takes part when it is resolved; each text is the
unit's accepted HUMAN rows' text, trimmed (spaces, tabs, line breaks), the smallest by its bytes;
n_annotators counts the distinct HUMAN annotators of those rows; the split comes from the first 8
hexadecimal digits of md5(pairing key).
"""

from __future__ import annotations

import hashlib

import reference as R

TEXTS = {"retrieval": ("input_query", "chunk"), "grounding": ("answer", "context_set"),
         "generation": ("query", "answer")}
DEFAULT_SHARES = {"train": 0.8, "validation": 0.1, "test": 0.1}


def split_of(key: str, shares: dict | None = None) -> str:
    shares = shares or DEFAULT_SHARES
    h = int(hashlib.md5(key.encode("utf-8")).hexdigest()[:8], 16) / 2**32
    if h < shares["train"]:
        return "train"
    if h < shares["train"] + shares["validation"]:
        return "validation"
    return "test"


def _smallest(values):
    texts = [v.strip(" \t\n\r") for v in values if v is not None and v.strip(" \t\n\r")]
    return min(texts, key=lambda t: t.encode("utf-8")) if texts else None


def compute(ref: R.Reference, tiers: dict, shares: dict | None = None) -> dict[str, list[dict]]:
    """The rows of the three marts by family; ``tiers``: task -> record_uuid -> tier."""
    out = {}
    for task, units in ref.units.items():
        human = [r for r in ref.rows[task] if r.status == "accepted"
                 and ref.annotators.get(r.annotator_id, {}).get("annotator_kind", "HUMAN") == "HUMAN"]
        by_unit: dict[tuple, list] = {}
        for r in human:
            by_unit.setdefault(r.unit, []).append(r)
        rows = []
        for unit, info in units.items():
            if not info["resolved"]:
                continue
            record = ref.records[task][info["record_uuid"]]
            unit_rows = by_unit[unit]
            row = {"run_id": record["run_id"], "record_uuid": info["record_uuid"],
                   "language": record["language"], "tier": tiers[task][info["record_uuid"]],
                   "split": split_of(record["pairing_key"], shares),
                   "text": _smallest(r.raw.get(TEXTS[task][0]) for r in unit_rows),
                   "text_pair": _smallest(r.raw.get(TEXTS[task][1]) for r in unit_rows),
                   "n_annotators": len({r.annotator_id for r in unit_rows}),
                   **{label: value for label, value in info["labels"].items()}}
            if task == "retrieval":
                row |= {"chunk_id": info["chunk_id"], "chunk_rank": info["rank"]}
            rows.append(row)
        out[task] = rows
    return out
