"""Random but reproducible annotation exports for the mart tests.

``generate(out_dir, seed=...)`` writes retrieval/grounding/generation annotation CSVs and
annotators.csv: a few hundred records per family, 2-3 human annotators each, disagreements,
adjudications, LLM/CODE judge rows, an annotator missing from annotators.csv, timestamps in
mixed formats and offsets, older submissions (superseded), same-instant duplicates (agreeing
and conflicting), rank conflicts, and a few percent of bad cells (missing, invalid booleans
including the literal ``null``, invalid ranks, timestamps, languages, wrong task, constraint
violations).  records.csv puts the records in evaluation runs: ``v1``, ``v2`` (also padded
with spaces), an empty run_id (the default run) or no records row at all (default run), some
with a query_id; plus records rows that are rejected (no record_uuid; two rows of one record
with different runs) or name a record of no export (its run must not appear).

The generator avoids the situations the contract leaves open (see reference.ambiguities):
duplicated rows never carry unparseable labels, and agreeing duplicates copy rank and
language.

Usage: ``PYTHONPATH=scripts python tests/python/generate.py OUT_DIR [SEED]``.
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from export_schema import COLUMNS, LABELS, REQUIRED  # scripts/, on pytest's pythonpath

RET_COLS, GRD_COLS, GEN_COLS = COLUMNS["retrieval"], COLUMNS["grounding"], COLUMNS["generation"]
ANNOTATORS = [
    ("a1", "HUMAN", "annotator", "Anna"), ("a2", "HUMAN", "annotator", "Ben"),
    ("a3", "HUMAN", "annotator", "Cem"), ("a4", "HUMAN", "annotator", "Dana"),
    ("a5", "HUMAN", "annotator", "Eli"),
    ("adj1", "HUMAN", "adjudicator", "Frida"), ("adj2", "HUMAN", "adjudicator", "Gus"),
    ("llm_judge", "LLM", "annotator", "LLM judge"),
    ("rule_judge", "CODE", "annotator", "rule judge"),
]
VOTERS = ["a1", "a2", "a3", "a4", "a5", "ext_guest"]   # ext_guest: not in annotators.csv
TRUE_SP = ["true", "True", "1", "yes", "y", "T", " TRUE "]
FALSE_SP = ["false", "False", "0", "no", "n", "F", " false"]
BASE = datetime(2025, 3, 1, tzinfo=UTC)
# Records ask one of this many queries per family, so that the runs share queries (pairs of the
# run comparison) and a run may hold several records of one query.
N_QUERIES = 70


class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    # ------------------------------------------------------------------ cells
    def boolean(self, v: int) -> str:
        if self.r.random() < 0.8:
            return "true" if v else "false"
        return self.r.choice(TRUE_SP if v else FALSE_SP)

    def stamp(self, instant: datetime) -> str:
        """One of several ISO 8601 spellings of ``instant`` (the fraction is part of it)."""
        style = self.r.choice(["Z", "Z", "naive", "+02:00", "-05:00", "+00:00", "+05:30",
                               "space"])
        if style in ("Z", "naive", "space"):
            local, zone = instant, {"Z": "Z", "naive": "", "space": "Z"}[style]
        else:
            sign = 1 if style[0] == "+" else -1
            off = timedelta(hours=int(style[1:3]), minutes=int(style[4:6])) * sign
            local, zone = instant + off, style
        sep = " " if style == "space" else "T"
        frac = f".{local.microsecond:06d}".rstrip("0") if local.microsecond else ""
        return local.strftime(f"%Y-%m-%d{sep}%H:%M:%S") + frac + zone

    def instant(self, base: datetime, max_seconds: int) -> datetime:
        micro = self.r.choice([0, 0, 0, 500000, 123456])
        return base + timedelta(seconds=self.r.randint(0, max_seconds), microseconds=micro)

    # ------------------------------------------------------------------ corruption
    def corrupt(self, row: dict, task: str) -> None:
        kind = self.r.choice(["missing", "bool", "bool", "timestamp", "language", "task",
                              "constraint", "rank", "can_answer", "nullword"])
        labels = LABELS[task]
        if kind == "missing":
            col = self.r.choice(REQUIRED[task])
            row[col] = self.r.choice(["", "", "   "])
        elif kind == "bool":
            row[self.r.choice(labels)] = self.r.choice(["maybe", "2", "ja", "-", "truee"])
        elif kind == "nullword":
            col = self.r.choice(labels + ["language"] + REQUIRED[task][4:5])
            row[col] = self.r.choice(["null", "NULL", " Null "])
        elif kind == "timestamp":
            row["created_at"] = self.r.choice(["2025-03-01", "garbage", "2025-03-32T10:00:00",
                                               "2025-13-01T10:00:00Z", "01.03.2025 10:00"])
        elif kind == "language":
            row["language"] = self.r.choice(["fr", "EN", "deu"])
        elif kind == "task":
            row["task"] = self.r.choice([t for t in LABELS if t != task] + ["Retrieval"])
        elif kind == "rank" and task == "retrieval":
            row["chunk_rank"] = self.r.choice(["0", "-1", "x", "2.0", "1e3"])
        elif kind == "can_answer" and task == "retrieval":
            row["can_answer"] = self.r.choice(["maybe", "unknown", "2"])
        elif kind == "constraint":
            if task == "retrieval":
                opt = self.r.choice([("true", "false", "false"), ("true", "true", "true"),
                                     ("false", "true", "true"), ("false", "true", "false")])
                row.update(dict(zip(["topically_relevant", "evidence_sufficient", "misleading"],
                                    opt)))
            elif task == "grounding":
                if self.r.random() < 0.5:
                    row["contradicted_claim_present"], row["unsupported_claim_present"] = \
                        "true", "false"
                else:
                    row["fabricated_source"], row["source_cited"] = "true", "false"
                if self.r.random() < 0.3:
                    row["contradicted_claim_present"], row["unsupported_claim_present"] = \
                        "true", "false"
                    row["fabricated_source"], row["source_cited"] = "true", "false"
            else:
                row[self.r.choice(labels)] = "perhaps"
        else:
            row["language"] = "it"

    # ------------------------------------------------------------------ labels
    def latent(self, task: str) -> list[int]:
        r = self.r.random
        if task == "retrieval":
            t = int(r() < 0.5)
            s = int(t and r() < 0.45)
            m = int((not s) and r() < 0.2)
            return [t, s, m]
        if task == "grounding":
            g = int(r() < 0.7)
            v = int(r() < 0.4)
            x = int(v and r() < 0.4)
            z = int(r() < 0.6)
            f = int(z and r() < 0.3)
            return [g, v, x, z, f]
        return [int(r() < 0.8), int(r() < 0.85), int(r() < 0.7), int(r() < 0.3),
                int(r() < 0.1)]

    def consistent(self, task: str, lab: list[int]) -> list[int]:
        lab = list(lab)
        if task == "retrieval":
            if lab[1]:
                lab[0], lab[2] = 1, 0
        elif task == "grounding":
            if lab[2]:
                lab[1] = 1
            if lab[4]:
                lab[3] = 1
        return lab

    def noisy(self, task: str, lab: list[int], p: float = 0.15) -> list[int]:
        lab = list(lab)
        if self.r.random() < p:
            i = self.r.randrange(len(lab))
            lab[i] = 1 - lab[i]
        return self.consistent(task, lab)

    # ------------------------------------------------------------------ rows
    def make_row(self, task, rec, ann, instant, lab, lang, extra) -> dict:
        row = {"record_uuid": rec, "annotator_id": ann, "task": task, "language": lang,
               "notes": self.r.choice(["", "", "ok", "checked, twice", 'said "fine"'])}
        row["created_at"] = self.stamp(instant)
        row.update(extra)
        for c, v in zip(LABELS[task], lab):
            row[c] = self.boolean(v)
        return row

    def emit(self, rows, task, rec, ann, instant, lab, lang, extra, allow_bad=True):
        """Append one submission plus, at random, its history / duplicates / corruption."""
        row = self.make_row(task, rec, ann, instant, lab, lang, extra)
        fate = self.r.random()
        if fate < 0.06:      # an older submission, maybe bad itself, superseded
            old = self.make_row(task, rec, ann, instant - timedelta(minutes=self.r.randint(1, 900)),
                                self.noisy(task, lab, 0.8), lang, extra)
            if self.r.random() < 0.3:
                self.corrupt(old, task)
            rows.append(old)
            rows.append(row)
        elif fate < 0.08:    # agreeing duplicate at the same instant, maybe with a bad cell
            dup = dict(row)
            dup["notes"] = "resubmitted"
            if self.r.random() < 0.5:
                dup["language"] = "fr"
            rows.extend(self.r.sample([row, dup], 2))
        elif fate < 0.10:    # conflicting duplicate: same instant, other text, other labels
            lab2 = list(lab)
            i = self.r.randrange(len(lab2))
            lab2[i] = 1 - lab2[i]
            lab2 = self.consistent(task, lab2)
            if lab2 == list(lab):
                lab2 = list(lab)
                lab2[-1] = 1 - lab2[-1]
                lab2 = self.consistent(task, lab2)
            dup = self.make_row(task, rec, ann, instant, lab2, lang, extra)
            rows.extend([row, dup])
        elif allow_bad and fate < 0.15:
            self.corrupt(row, task)
            rows.append(row)
        else:
            rows.append(row)

    def lang(self) -> str:
        return self.r.choices(["de", "en", ""], weights=[45, 45, 10])[0]

    def other_lang(self, lang: str) -> str:
        return "en" if lang == "de" else "de"

    # ------------------------------------------------------------------ families
    def retrieval(self, n: int) -> list[dict]:
        rows: list[dict] = []
        for i in range(n):
            rec = f"ret-{i:04d}"
            lang = self.lang()
            n_chunks = self.r.randint(1, 8)
            ranks = sorted(self.r.sample(range(1, n_chunks + 4), n_chunks)) \
                if self.r.random() < 0.3 else list(range(1, n_chunks + 1))
            chunks = [(f"{rec}-c{j}", rk) for j, rk in enumerate(ranks)]
            voters = self.r.sample(VOTERS, self.r.choice([1, 2, 2, 3, 3]))
            base = BASE + timedelta(minutes=self.r.randint(0, 60 * 24 * 20))
            conflict_ann = self.r.choice(voters) if self.r.random() < 0.04 else None
            for cid, rk in chunks:
                truth = self.latent("retrieval")
                votes = {}
                for a in voters:
                    lab = self.noisy("retrieval", truth)
                    votes[a] = lab
                    rank = rk
                    if a == conflict_ann and cid == chunks[0][0]:
                        rank = rk + 1
                    extra = {"input_query": f"query {i % N_QUERIES}, please", "generated_search_query": "q",
                             "chunk": f"chunk text {cid}", "chunk_id": cid, "doc_id": f"D{i % 17}",
                             "chunk_rank": str(rank) if self.r.random() < 0.9 else f" {rank} ",
                             "can_answer": self.r.choice(["true", "false", "", "yes"])}
                    inst = self.instant(base, 86400)
                    self.emit(rows, "retrieval", rec, a, inst, lab,
                              lang if self.r.random() < 0.97 else self.other_lang(lang), extra)
                disagree = len({tuple(v) for v in votes.values()}) > 1
                if disagree and self.r.random() < 0.5 or self.r.random() < 0.03:
                    adj = self.r.choice(["adj1", "adj2"])
                    extra = {"input_query": f"query {i % N_QUERIES}, please", "chunk": f"chunk text {cid}",
                             "chunk_id": cid, "chunk_rank": str(rk), "can_answer": ""}
                    inst = self.instant(base + timedelta(days=2), 86400)
                    self.emit(rows, "retrieval", rec, adj, inst, self.noisy("retrieval", truth),
                              lang, extra, allow_bad=False)
                if self.r.random() < 0.4:
                    judge = self.r.choice(["llm_judge", "rule_judge"])
                    extra = {"input_query": f"query {i % N_QUERIES}, please", "chunk": f"chunk text {cid}",
                             "chunk_id": cid, "chunk_rank": str(rk), "can_answer": ""}
                    inst = self.instant(base + timedelta(days=1), 86400)
                    self.emit(rows, "retrieval", rec, judge, inst,
                              self.noisy("retrieval", truth, 0.3),
                              lang if self.r.random() < 0.95 else self.other_lang(lang), extra)
        return rows

    def answer_family(self, task: str, n: int, prefix: str) -> list[dict]:
        rows: list[dict] = []
        for i in range(n):
            rec = f"{prefix}-{i:04d}"
            lang = self.lang()
            truth = self.latent(task)
            voters = self.r.sample(VOTERS, self.r.choice([1, 2, 2, 3, 3]))
            base = BASE + timedelta(minutes=self.r.randint(0, 60 * 24 * 20))
            extra = {"query": f"question {i % N_QUERIES}?", "answer": f"answer {i} [1]"}
            if task == "grounding":
                extra["context_set"] = f"ctx {i} [SEP] ctx {i + 1}"
            votes = {}
            for a in voters:
                lab = self.noisy(task, truth, 0.3)
                votes[a] = lab
                inst = self.instant(base, 86400)
                self.emit(rows, task, rec, a, inst, lab,
                          lang if self.r.random() < 0.97 else self.other_lang(lang), extra)
            if len({tuple(v) for v in votes.values()}) > 1 and self.r.random() < 0.5:
                for _ in range(self.r.choice([1, 1, 2])):
                    adj = self.r.choice(["adj1", "adj2"])
                    inst = self.instant(base + timedelta(days=2), 86400)
                    self.emit(rows, task, rec, adj, inst, self.noisy(task, truth), lang, extra,
                              allow_bad=False)
            if self.r.random() < 0.4:
                judge = self.r.choice(["llm_judge", "rule_judge"])
                inst = self.instant(base + timedelta(days=1), 86400)
                self.emit(rows, task, rec, judge, inst, self.noisy(task, truth, 0.3), lang, extra)
        return rows


def _write(path: Path, cols: list[str], rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=cols, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in cols})


def generation_row(rec: str, ann: str, when: str, helpful: str = "true", **labels) -> dict:
    """A generation export row of a hand-made case: every label true, unless given."""
    return {"record_uuid": rec, "annotator_id": ann, "task": "generation", "language": "en",
            "created_at": when, "query": "q", "answer": "a", "proper_action": "true",
            "response_on_topic": "true", "helpful": helpful, "incomplete": "false",
            "unsafe_content": "false", **labels}


def write_generation_case(out: Path, generation_rows: list[dict], records_rows: list) -> None:
    """A hand-made seed folder: the generation rows, empty retrieval and grounding exports, the
    annotators h1, h2 (HUMAN annotators), adj (HUMAN adjudicator) and llm (LLM), and records.csv
    rows (record_uuid, task_type, model_uncertainty, is_adversarial, tier)."""
    _write(out / "retrieval_annotations.csv", RET_COLS, [])
    _write(out / "grounding_annotations.csv", GRD_COLS, [])
    _write(out / "generation_annotations.csv", GEN_COLS, generation_rows)
    with open(out / "annotators.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["annotator_id", "annotator_kind", "role", "display_name"])
        w.writerows([("h1", "HUMAN", "annotator", ""), ("h2", "HUMAN", "annotator", ""),
                     ("adj", "HUMAN", "adjudicator", ""), ("llm", "LLM", "annotator", "")])
    with open(out / "records.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(RECORDS_COLS[:5])
        w.writerows(records_rows)


RECORDS_COLS = ["record_uuid", "task_type", "model_uncertainty", "is_adversarial", "tier", "run_id",
                "query_id"]


def records_rows(record_ids: list[str], seed: int) -> list[dict]:
    """The records.csv rows: runs and query ids for part of the records, and a few bad rows."""
    r = random.Random(seed)
    rows = []
    for rec in record_ids:
        if r.random() < 0.25:
            continue                                    # no records row: default run
        row = {"record_uuid": rec, "run_id": r.choice(["v1", "v1", "v2", "v2", " v2 ", ""])}
        if r.random() < 0.2:
            row["query_id"] = f"q-{r.randint(0, 40)}"
        rows.append(row)
    rows.append({"record_uuid": record_ids[3], "run_id": "v1"})          # a second row, other run:
    rows.append({"record_uuid": record_ids[3], "run_id": "v2"})          # both conflicting_duplicate
    rows.append({"record_uuid": "", "run_id": "v3", "query_id": "q-0"})  # missing:record_uuid
    rows.append({"record_uuid": "not-exported", "run_id": "v9"})          # no record: no run v9
    rows.append(dict(rows[0]))                                            # agreeing duplicate: kept once
    return rows


def generate(out_dir, seed: int = 20250301, n_retrieval: int = 200, n_grounding: int = 250,
             n_generation: int = 250) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    g = Gen(seed)
    _write(out / "retrieval_annotations.csv", RET_COLS, g.retrieval(n_retrieval))
    _write(out / "grounding_annotations.csv", GRD_COLS,
           g.answer_family("grounding", n_grounding, "grd"))
    _write(out / "generation_annotations.csv", GEN_COLS,
           g.answer_family("generation", n_generation, "gen"))
    with open(out / "annotators.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["annotator_id", "annotator_kind", "role", "display_name"])
        w.writerows(ANNOTATORS)
    record_ids = ([f"ret-{i:04d}" for i in range(n_retrieval)] + [f"grd-{i:04d}" for i in range(n_grounding)]
                  + [f"gen-{i:04d}" for i in range(n_generation)])
    _write(out / "records.csv", RECORDS_COLS, records_rows(record_ids, seed + 1))
    return out


if __name__ == "__main__":
    target = generate(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20250301)
    print(target)
