"""The training view (retrieval_training_pairs, grounding_training_pairs, generation_training_pairs).

Written from CONTRACT.md and docs/rules.md ("Training view") only, never from the SQL: from the
core reference's units (consensus), records (run, language), record runs (query_id) and rows
(texts of the accepted HUMAN rows), and the agreement reference's tiers.

* A unit takes part when it is resolved; each of its texts is its accepted HUMAN rows' text,
  trimmed (spaces, tabs, line breaks), the smallest by its bytes.
* One row per distinct (text, text_pair) of the family over every run; a label is the value that
  every unit of the pair shares, and a pair whose units disagree on any label is no row (counted).
* language: the units' when they all agree, else ``unknown``; tier: ``tier_b`` when any unit's
  record is in the gold tier; n_units, n_annotators (distinct HUMAN annotators of the units'
  accepted rows), run_ids and record_uuids (distinct, sorted by bytes, ``;``-separated).
* split: from the pair's query key, the smallest (bytes) of its units' records' query keys: a
  record's query_id; else the smallest query_id of the family's records (any run) whose
  normalized query text equals its own; else that normalized text. The query text is the
  record's accepted HUMAN rows' input_query (retrieval) or query, trimmed, the smallest by bytes;
  normalized: trimmed, every run of spaces, tabs, CR and LF as one space. The first 8 hexadecimal
  digits of md5(key) as h: h / 2^32 against the shares.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict

import reference as R

TEXTS = {"retrieval": ("input_query", "chunk"), "grounding": ("answer", "context_set"),
         "generation": ("query", "answer")}
QUERY = {"retrieval": "input_query", "grounding": "query", "generation": "query"}
DEFAULT_SHARES = {"train": 0.8, "validation": 0.1, "test": 0.1}
BLANKS = " \t\n\r"


def split_of(key: str, shares: dict | None = None) -> str:
    shares = shares or DEFAULT_SHARES
    h = int(hashlib.md5(key.encode("utf-8")).hexdigest()[:8], 16) / 2**32
    if h < shares["train"]:
        return "train"
    if h < shares["train"] + shares["validation"]:
        return "validation"
    return "test"


def by_bytes(text: str) -> bytes:
    return text.encode("utf-8")


def _smallest(values):
    texts = [v.strip(BLANKS) for v in values if v is not None and v.strip(BLANKS)]
    return min(texts, key=by_bytes) if texts else None


def normalized(text: str | None) -> str | None:
    return None if text is None else re.sub(f"[{BLANKS}]+", " ", text.strip(BLANKS))


def _is_human(ref: R.Reference, annotator_id: str) -> bool:
    return ref.annotators.get(annotator_id, {}).get("annotator_kind", "HUMAN") == "HUMAN"


def query_keys(ref: R.Reference, task: str) -> dict[str, str]:
    """record_uuid -> query key, for the family's records with accepted HUMAN rows."""
    texts: dict[str, list[str]] = defaultdict(list)
    for r in ref.rows[task]:
        if r.status == "accepted" and _is_human(ref, r.annotator_id):
            texts[r.record_uuid].append(r.raw.get(QUERY[task]))
    query_text = {rec: normalized(_smallest(values)) for rec, values in texts.items()}
    query_id = {rec: ref.record_runs[task].get(rec, {}).get("query_id") or None for rec in query_text}
    ids_of_text: dict[str, list[str]] = defaultdict(list)
    for rec, text in query_text.items():
        if text is not None and query_id[rec] is not None:
            ids_of_text[text].append(query_id[rec])
    keys = {}
    for rec, text in query_text.items():
        given = query_id[rec]
        by_text = min(ids_of_text[text], key=by_bytes) if ids_of_text.get(text) else None
        keys[rec] = given or by_text or text
    return keys


def compute(ref: R.Reference, tiers: dict, shares: dict | None = None) -> dict[str, dict]:
    """family -> {"rows": the mart's rows, "n_conflicting": pairs left out}; ``tiers``: task ->
    record_uuid -> tier."""
    out = {}
    for task, units in ref.units.items():
        keys = query_keys(ref, task)
        human: dict[tuple, list] = defaultdict(list)
        for r in ref.rows[task]:
            if r.status == "accepted" and _is_human(ref, r.annotator_id):
                human[r.unit].append(r)
        pairs: dict[tuple, list] = defaultdict(list)
        for unit, info in units.items():
            if not info["resolved"]:
                continue
            unit_rows = human[unit]
            text = _smallest(r.raw.get(TEXTS[task][0]) for r in unit_rows)
            text_pair = _smallest(r.raw.get(TEXTS[task][1]) for r in unit_rows)
            pairs[(text, text_pair)].append((info, unit_rows))
        rows, n_conflicting = [], 0
        for (text, text_pair), members in pairs.items():
            labels = {}
            for label in R.TASKS[task]["labels"]:
                values = {info["labels"][label] for info, _ in members}
                labels[label] = values.pop() if len(values) == 1 else None
            if None in labels.values():
                n_conflicting += 1
                continue
            records = {info["record_uuid"] for info, _ in members}
            languages = {ref.records[task][rec]["language"] for rec in records}
            runs = {ref.records[task][rec]["run_id"] for rec in records}
            key = min((keys[rec] for rec in records), key=by_bytes)
            rows.append({
                "text": text, "text_pair": text_pair, **labels,
                "split": split_of(key, shares),
                "language": languages.pop() if len(languages) == 1 else "unknown",
                "tier": "tier_b" if any(tiers[task][rec] == "tier_b" for rec in records) else "tier_a",
                "n_units": len(members),
                "n_annotators": len({r.annotator_id for _, unit_rows in members for r in unit_rows}),
                "run_ids": ";".join(sorted(runs, key=by_bytes)),
                "record_uuids": ";".join(sorted(records, key=by_bytes)),
                "query_key": key,
            })
        out[task] = {"rows": rows, "n_conflicting": n_conflicting}
    return out
