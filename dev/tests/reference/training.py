"""The training view (retrieval_training_pairs, grounding_training_pairs, generation_training_pairs).

Written from CONTRACT.md and docs/rules.md ("Training view") only, never from the SQL: from the
core reference's units (consensus), records (run, language), record runs (query_id) and rows
(texts of the accepted HUMAN rows), and the agreement reference's tiers.

* A unit takes part when it is resolved; each of its texts is its accepted HUMAN rows' text,
  trimmed (spaces, tabs, line breaks), the smallest by its bytes.
* One row per distinct (text, text_pair) of the family over every run; a label is the value that
  the pair's counted units share, and a pair whose counted units disagree on any label is no row
  (counted).
* gold authority: a pair with a unit in a gold-tier record takes its labels from its gold units
  only (they must agree; the triage units neither veto nor vote); a pair without from all units.
* language: the units' when they all agree, else ``unknown``; tier: ``tier_b`` when any unit's
  record is in the gold tier; n_units, n_annotators (distinct HUMAN annotators of the units'
  accepted rows), run_ids and record_uuids (distinct, sorted by bytes, ``;``-separated), over
  every resolved unit of the pair, gold or not.
* split: from the pair's query key, the key of its records' query group (a union-find): records
  are linked by a shared query_id or normalized query text (any family, any run) and by units
  of one training pair; the key is the group's smallest query_id, else its smallest text. The
  query text is the record's accepted HUMAN rows' input_query (retrieval) or query, trimmed, the
  smallest by bytes; normalized: trimmed, every run of spaces, tabs, CR and LF as one space. The
  first 8 hexadecimal digits of md5(key) as h: h / 2^32 against the shares.
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


class _UnionFind:
    """A plain union-find (disjoint sets) over hashable items."""

    def __init__(self):
        self.parent: dict = {}

    def find(self, item):
        self.parent.setdefault(item, item)
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def _query_texts(ref: R.Reference, task: str) -> dict[str, str]:
    """record_uuid -> normalized query text, for the family's records with accepted HUMAN rows."""
    texts: dict[str, list[str]] = defaultdict(list)
    for r in ref.rows[task]:
        if r.status == "accepted" and _is_human(ref, r.annotator_id):
            texts[r.record_uuid].append(r.raw.get(QUERY[task]))
    return {rec: normalized(_smallest(values)) for rec, values in texts.items()}


def query_keys(ref: R.Reference, pairs: dict[str, dict[tuple, list]] | None = None) -> dict[str, str]:
    """record_uuid -> the key of its query group, for the records with accepted HUMAN rows in any
    family. Records (one record whatever its families) are linked when they share a query_id or a
    normalized query text, in any family and run, or when units of theirs make one training pair
    (``pairs``: task -> (text, text_pair) -> [(record_uuid, ...)]); the key is the group's smallest
    query_id (bytes), else its smallest normalized text."""
    groups = _UnionFind()
    ids: dict[str, str | None] = {}
    texts: dict[str, set[str]] = defaultdict(set)
    for task in ref.rows:
        for rec, text in _query_texts(ref, task).items():
            query_id = ref.record_runs[task].get(rec, {}).get("query_id") or None
            ids[rec] = query_id
            texts[rec].add(text)
            groups.union(("record", rec), ("text", text))
            if query_id is not None:
                groups.union(("record", rec), ("id", query_id))
    for members in (pairs or {}).values():
        for records in members.values():
            for rec in records[1:]:
                groups.union(("record", records[0]), ("record", rec))
    group_ids: dict = defaultdict(list)
    group_texts: dict = defaultdict(list)
    for rec in ids:
        root = groups.find(("record", rec))
        if ids[rec] is not None:
            group_ids[root].append(ids[rec])
        group_texts[root] += texts[rec]
    keys = {}
    for rec in ids:
        root = groups.find(("record", rec))
        keys[rec] = min(group_ids[root], key=by_bytes) if group_ids[root] else min(group_texts[root], key=by_bytes)
    return keys


def _pairs(ref: R.Reference, task: str) -> dict[tuple, list]:
    """(text, text_pair) -> [(unit, info, the unit's accepted HUMAN rows)] of the family's resolved units."""
    human: dict[tuple, list] = defaultdict(list)
    for r in ref.rows[task]:
        if r.status == "accepted" and _is_human(ref, r.annotator_id):
            human[r.unit].append(r)
    pairs: dict[tuple, list] = defaultdict(list)
    for unit, info in ref.units[task].items():
        if not info["resolved"]:
            continue
        unit_rows = human[unit]
        text = _smallest(r.raw.get(TEXTS[task][0]) for r in unit_rows)
        text_pair = _smallest(r.raw.get(TEXTS[task][1]) for r in unit_rows)
        pairs[(text, text_pair)].append((unit, info, unit_rows))
    return pairs


def compute(ref: R.Reference, tiers: dict, shares: dict | None = None) -> dict[str, dict]:
    """family -> {"rows": the mart's rows, "n_conflicting": pairs left out, "n_conflicting_gold" and
    "n_conflicting_triage": of those, the pairs with gold units (which disagree) and without,
    "units": (text, text_pair) -> the row's units as export-gold lists them}; ``tiers``: task ->
    record_uuid -> tier.

    Gold authority: a pair with a unit in a gold-tier record takes each label from its gold units
    only (the value they share; triage units neither veto nor vote); a pair without gold units
    from all its units. Everything else (language, tier, the key, the provenance) is over every
    resolved unit of the pair."""
    all_pairs = {task: _pairs(ref, task) for task in ref.units}
    keys = query_keys(ref, {task: {pair: [info["record_uuid"] for _, info, _ in members]
                                   for pair, members in pairs.items()}
                            for task, pairs in all_pairs.items()})
    out = {}
    for task, pairs in all_pairs.items():
        rows, units_of, n_gold, n_triage = [], {}, 0, 0
        for (text, text_pair), members in pairs.items():
            gold = [m for m in members if tiers[task][m[1]["record_uuid"]] == "tier_b"]
            voting = gold or members
            labels = {}
            for label in R.TASKS[task]["labels"]:
                values = {info["labels"][label] for _, info, _ in voting}
                labels[label] = values.pop() if len(values) == 1 else None
            if None in labels.values():
                if gold:
                    n_gold += 1
                else:
                    n_triage += 1
                continue
            records = {info["record_uuid"] for _, info, _ in members}
            languages = {ref.records[task][rec]["language"] for rec in records}
            runs = {ref.records[task][rec]["run_id"] for rec in records}
            key = min((keys[rec] for rec in records), key=by_bytes)
            rows.append({
                "text": text, "text_pair": text_pair, **labels,
                "split": split_of(key, shares),
                "language": languages.pop() if len(languages) == 1 else "unknown",
                "tier": "tier_b" if gold else "tier_a",
                "n_units": len(members),
                "n_annotators": len({r.annotator_id for _, _, unit_rows in members for r in unit_rows}),
                "run_ids": ";".join(sorted(runs, key=by_bytes)),
                "record_uuids": ";".join(sorted(records, key=by_bytes)),
                "query_key": key,
            })
            units_of[(text, text_pair)] = sorted(
                ({"record_uuid": info["record_uuid"],
                  **({"chunk_id": unit[1]} if task == "retrieval" else {}),
                  "tier": tiers[task][info["record_uuid"]]} for unit, info, _ in members),
                key=lambda u: (by_bytes(u["record_uuid"]), by_bytes(u.get("chunk_id", ""))))
        out[task] = {"rows": rows, "n_conflicting": n_gold + n_triage, "n_conflicting_gold": n_gold,
                     "n_conflicting_triage": n_triage, "units": units_of}
    return out
