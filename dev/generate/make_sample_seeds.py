#!/usr/bin/env python3
"""Generate the sample seeds of ragmart (Publikationsbot annotation exports).

Writes retrieval_annotations.csv, grounding_annotations.csv, generation_annotations.csv,
annotators.csv and records.csv (UTF-8, ``\\n`` line endings, csv.QUOTE_MINIMAL) from the texts of
dev/generate/sample_texts.yaml, deterministically (every id and random choice derives from ``SEED``).
The design of the sample and the expected status of every deliberately bad row are in
docs/sample_data.md. The script builds every row with the status it is meant to end with
(``Row.expect``) and every record with the tier it is meant for; it does not apply the row rules
itself: dev/tests/test_sample.py checks those intentions and the tables of docs/sample_data.md
against the project's reference implementation of the rules (--print-expected prints the page's
list of deliberately bad rows and tier fixtures).

Usage::

    python dev/generate/make_sample_seeds.py              # writes seeds/
    python dev/generate/make_sample_seeds.py --out /tmp/s  # somewhere else
"""
from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

# the modules this script imports from the project's other folders
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / folder) for folder in ("scripts/lib",)]
from export_data import (  # dev/generate/, beside this file
    CHUNK_STATES,
    RECORDS_COLUMNS,
    RETRIEVAL_CONFUSIONS,
    TRIAGE_TASK_TYPES,
    boolean,
    export_row,
    is_valid,
    labels_with,
    named,
    relabelled,
    timestamp,
    write_folder,
)
from export_schema import FILES, GOLD_TASK_TYPES, GOLD_UNCERTAINTY_THRESHOLD, LABELS, TASKS

SEED = 20250301
PROJECT_ROOT = Path(__file__).resolve().parents[2]

FAMILIES = TASKS

# --------------------------------------------------------------------------
# Annotators
# --------------------------------------------------------------------------
H1, H2, H3, H4 = "a.schaefer", "j.mueller", "k.oezdemir", "l.weiss"
ADJ = "m.koenig"
LLM = "llm.judge-gpt4o"
LLM2 = "llm.judge-mini"  # a second, weaker LLM judge on the same records
CODE = "code.citation-check"  # a rule-based judge of the grounding export
EXT = "t.grosse"  # used in the exports, deliberately missing from annotators.csv
HUMANS = [H1, H2, H3, H4]
ANNOTATORS = [
    (H1, "HUMAN", "annotator", "Anna Schäfer"),
    (H2, "HUMAN", "annotator", "Jörg Müller"),
    (H3, "HUMAN", "annotator", "Kübra Özdemir"),
    (H4, "HUMAN", "annotator", "Lena Weiß"),
    (ADJ, "HUMAN", "adjudicator", "Dr. Matthias König"),
    (LLM, "LLM", "annotator", "GPT-4o Judge (Prompt v3, temperature 0)"),
    (LLM2, "LLM", "annotator", "GPT-4o mini Judge (Prompt v1)"),
    (CODE, "CODE", "annotator", "Citation checker (rules v2)"),
]

# timestamp styles and boolean spellings per annotator (chosen per session; names of export_data's
# STYLES and BOOLEANS)
TS_STYLES = {
    H1: ["naive", "z", "z"], H2: ["cet", "space", "cet"], H3: ["z", "frac_z", "space_frac"],
    H4: ["space", "naive", "cet"], EXT: ["est"], ADJ: ["cet", "z"], LLM: ["frac_z"],
    LLM2: ["z"], CODE: ["naive"],
}
SPELLING_CHOICES = {
    H1: ["tf"], H2: ["tf"] * 14 + ["padded_upper"], H3: ["tf"] * 14 + ["upper"], H4: ["tf"] * 5 + ["yn"],
    EXT: ["YN"], ADJ: ["short"], LLM: ["num"], LLM2: ["tf"], CODE: ["num"],
}


# --------------------------------------------------------------------------
# Content: topics (one per record) and filler chunks
# --------------------------------------------------------------------------
@dataclass
class Topic:
    key: str
    lang: str
    query: str
    search_query: str
    doc_id: str
    title: str
    chunks: list  # (kind, text) or (kind, text, doc_id, title); kind S/R/M
    answer: str
    grounding: str  # support, unsupported, contradicted, cited, fabricated
    generation: str  # proper_action, on_topic, helpful, incomplete, unsafe
    gnote: str = ""
    nnote: str = ""


TEXTS = Path(__file__).resolve().parent / "sample_texts.yaml"


def load_texts(path: Path = TEXTS) -> tuple[list[Topic], dict]:
    """The topics and filler chunks of ``sample_texts.yaml``; a topic's grounding and generation
    labels, given there by name, become digit strings in the order of LABELS."""
    import yaml  # PyYAML, installed with dbt

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    topics = []
    for t in data["topics"]:
        for fam in ("grounding", "generation"):
            if sorted(t[fam]) != sorted(LABELS[fam]):
                raise ValueError(f"{path.name}: topic {t['key']}: {fam} labels {sorted(t[fam])}, "
                                 f"expected {LABELS[fam]}")
        chunks = [(c["kind"], c["text"]) + ((c["doc_id"], c["title"]) if "doc_id" in c else ())
                  for c in t["chunks"]]
        topics.append(Topic(t["key"], t["language"], t["query"], t["search_query"], t["doc_id"],
                            t["title"], chunks, t["answer"],
                            "".join(str(t["grounding"][label]) for label in LABELS["grounding"]),
                            "".join(str(t["generation"][label]) for label in LABELS["generation"]),
                            t.get("grounding_note", ""), t.get("generation_note", "")))
    fillers = {lang: [(f["doc_id"], f["title"], f["text"]) for f in chunks]
               for lang, chunks in data["fillers"].items()}
    return topics, fillers


TOPICS, FILLERS = load_texts()

# --------------------------------------------------------------------------
# Fixed layouts (rank order; S/R/M = the topic's chunks, D = distractor)
# --------------------------------------------------------------------------
LAYOUTS = {
    "pendler": "SRDDDD",        # F1
    "bluecard": "SDRDMDD",      # F2
    "elterngeld": "RSDMDD",     # F3
    "minwage_en": "SRMDDD",     # F4
    "pflegegrade": "SRDMDDD",   # rank_conflict: one chunk with two ranks
    "dticket_en": "SDRDDD",     # rank_conflict: two chunks share rank 2
    "biosiegel": "SRDDD",       # conflicting_duplicate
    "bfsg": "DDDDDDSDD",        # only relevant chunk at rank 7
    "hundesteuer": "DDDD",      # no relevant chunk
    "weather": "DDD",           # no relevant chunk
    "clarify": "DDDDD",         # no relevant chunk
    "steuerhinterziehung": "DRDD",
    "benefit_fraud": "RDDDD",
}
RANK_OVERRIDE = {"dticket_en": [1, 2, 2, 3, 4, 5]}
# (humans, llm) of fixture records; the others are planned at random
FORCED = {
    "pendler": ([H1], False),
    "bluecard": ([H3], False),
    "elterngeld": ([H2], False),
    "minwage_en": ([H1, H3], False),
    "pflegegrade": ([H2, H3], False),
    "dticket_en": ([H4], False),
    "biosiegel": ([H4], False),
    "hydrogen": ([H1, H2], True),
}
NO_RETRIEVAL_NOISE = {"bfsg", "hundesteuer", "weather", "clarify"}
LANGUAGE_NEVER_SET = {"mindestlohn", "kurzarbeit", "loneliness", "clarify"}
# fixed session (start, timestamp style) for fixture sessions
SESSION_OVERRIDE = {
    ("pendler", H1): (datetime(2025, 3, 7, 11, 58, 56, tzinfo=UTC), "z"),
    ("bluecard", H3): (datetime(2025, 3, 4, 15, 13, 14, tzinfo=UTC), "space_frac"),
    ("elterngeld", H2): (datetime(2025, 3, 6, 13, 30, 10, tzinfo=UTC), "z"),
    ("minwage_en", H1): (datetime(2025, 3, 12, 9, 59, 40, tzinfo=UTC), "z"),
    ("minwage_en", H3): (datetime(2025, 3, 4, 13, 49, 41, tzinfo=UTC), "space_frac"),
    ("pflegegrade", H2): (datetime(2025, 3, 12, 14, 52, 14, tzinfo=UTC), "cet"),
    ("pflegegrade", H3): (datetime(2025, 3, 14, 14, 10, 36, tzinfo=UTC), "space_frac"),
    ("dticket_en", H4): (datetime(2025, 3, 13, 9, 29, 53, tzinfo=UTC), "cet"),
    ("biosiegel", H4): (datetime(2025, 3, 11, 11, 46, 14, tzinfo=UTC), "space"),
    ("hydrogen", H1): (datetime(2025, 3, 4, 7, 47, 8, tzinfo=UTC), "z"),
    ("hydrogen", H2): (datetime(2025, 3, 6, 9, 20, 0, tzinfo=UTC), "z"),
}

# --------------------------------------------------------------------------
# ADR-001 tiered labeling protocol: tiers, weeks, records.csv
# --------------------------------------------------------------------------
FIRST_MONDAY = datetime(2025, 3, 3, tzinfo=UTC)  # ISO week 2025-W10
WEEKS = [10, 11, 12, 13, 14, 15]  # Mon 2025-03-03 .. Sun 2025-04-13
DRIFT_WEEKS = (13, 14)  # tier_a spot-check disagreement > 12 % in these two weeks only
# free records per week besides the one spot-checked tier_a record of each week
WEEK_QUOTA = {10: 6, 11: 6, 12: 11, 13: 11, 14: 10, 15: 10}
# triple-annotated records of the earlier sample (kept, gold tier)
TRIPLE = {"integration": [H2, H3, H4], "minijob_en": [H2, H1, H3],
          "databreach": [H1, H4, H2], "bafoeg_en": [H4, H3, H2]}
GOLD_EXT = {"supplychain": [H1, EXT], "elterngeld_en": [H3, EXT]}  # gold, t.grosse second voter
SINGLE_EXT = ("clarify", "minijob", "hundesteuer")  # triage, t.grosse alone
ADVERSARIAL = {"benefit_fraud": "yes", "steuerhinterziehung": "1", "vaccination": "true"}
# fixture records: (tier by design, ISO week)
FIXTURE_PROTOCOL = {
    "pendler": ("tier_a", 10), "bluecard": ("tier_a", 10), "elterngeld": ("tier_a", 10),
    "hydrogen": ("tier_b", 10), "minwage_en": ("tier_b", 11), "pflegegrade": ("tier_b", 11),
    "dticket_en": ("tier_a", 11), "biosiegel": ("tier_a", 11),
}
# records left out of records.csv besides the ones drawn in plan()
FIXED_NOT_IN_RECORDS = ("minwage_en", "databreach", "supplychain", "hundesteuer")

# --------------------------------------------------------------------------
# Evaluation runs (docs/rules.md, Runs): every record above is run RUN_V1; run RUN_V2 answers the
# same questions again with a changed retriever and answer model (new records, same query_id and
# query text). Both names sort before the var default_run_id (`default`), the run of the records
# without an accepted records.csv row, so that RUN_V1 is the baseline of the run comparison.
# --------------------------------------------------------------------------
RUN_V1, RUN_V2 = "bot-v1", "bot-v2"
V2_WEEK = 16  # RUN_V2 is labelled in 2025-W16, one HUMAN annotator per record (triage)
V2_ANNOTATORS = (H1, H2, H4)
V2_NOT_ANSWERED = ("organspende", "weather")  # questions of RUN_V1 that RUN_V2 does not answer
# questions whose first record has no records.csv row (run `default`): RUN_V2 answers them, so in
# the comparison of RUN_V2 with RUN_V1 they are RUN_V2's only
V2_EXTRA = ("pension45", "buergergeld_en")
# the changed retriever: it drops every misleading (outdated) chunk, and it ranks the first
# sufficient chunk first (promote) or one place lower (demote: swapped with the chunk after it)
V2_PROMOTE = ("erbrecht", "security_strategy", "minijob_en", "taxid", "widerruf", "ukraine_jobs",
              "kindergeld_en", "escooter", "ffp", "briefwahl", "geg")
V2_DEMOTE = ("grundfreibetrag", "kurzarbeit", "mindestlohn", "rente63", "plastiktueten", "wohngeld",
             "mutterschutz")
# the changed answer model: it cites the source where RUN_V1's answer did not (better), and it
# stops after the first sentence of RUN_V1's answer (worse: incomplete, not helpful, no citation)
V2_CITE = ("briefwahl", "mindestlohn", "minijob_en")
V2_TERSE = ("chancenkarte", "taxid", "hitze")

RET_NOTES = {
    "de": {
        "S": ["Beantwortet die Frage direkt.", "Enthält die gesuchte Angabe, Stand aktuell."],
        "R": ["Thematisch passend, beantwortet die Frage aber nicht.", "Nur Hintergrund, keine konkrete Antwort.",
              "Chunk endet mitten im Satz (\"…gilt nicht für\"), Rest fehlt.\nTrotzdem thematisch relevant."],
        "M": ["Veraltete Angabe – könnte zu einer falschen Antwort führen.", "Stand nicht aktuell, irreführend!",
              "Alte Rechtslage, Zahl stimmt nicht mehr."],
        "D": ["Kein Bezug zur Frage.", "Impressum/Inhaltsverzeichnis, irrelevant.", "Anderes Thema, gleiche Broschüre."],
    },
    "en": {
        "S": ["Answers the question directly.", "States the figure explicitly."],
        "R": ["On topic, but does not answer the question.", "Background only, no concrete answer.",
              "Chunk is cut off (\"…does not apply to\"), rest missing.\nStill on topic."],
        "M": ["Outdated figure, could mislead.", "Old legal situation – misleading!", "Superseded by the 2024 edition."],
        "D": ["Unrelated.", "Imprint / table of contents, irrelevant.", "Different topic, same brochure."],
    },
}
ADJ_NOTES = {
    "de": ["Adjudiziert nach Rücksprache mit beiden Annotierenden.", "Entscheidung: Chunk nennt die Angabe ausdrücklich.",
           "Adjudiziert; Leitfaden Abschnitt 3.2, \"hinreichende Evidenz\"."],
    "en": ["Adjudicated after discussion.", "Decision: the chunk states the figure explicitly.",
           "Adjudicated per guideline 3.2, \"sufficient evidence\"."],
}


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------
def stable_uuid(*parts: str) -> str:
    """A version-4-shaped UUID derived from SEED and the given parts."""
    digest = hashlib.sha256("|".join((str(SEED),) + parts).encode("utf-8")).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def rng_for(*parts: str) -> random.Random:
    return random.Random("|".join((str(SEED),) + parts))


def bits(s: str) -> tuple:
    return tuple(int(c) for c in s)


# The kinds of chunk a record's layout is made of, and their retrieval labels.
CHUNK_KINDS = {
    "S": CHUNK_STATES["sufficient"],
    "R": CHUNK_STATES["relevant"],
    "M": CHUNK_STATES["relevant_misleading"],  # relevant but misleading
    "D": CHUNK_STATES["irrelevant"],  # distractor
}


def kind_of(truth) -> str:
    return next(kind for kind, labels in CHUNK_KINDS.items() if labels == tuple(truth))


def flip_retrieval(t, rng) -> tuple:
    """What an annotator who gets a chunk wrong calls it, among the sample's kinds of chunk."""
    return rng.choice([other for other in RETRIEVAL_CONFUSIONS[tuple(t)] if other in CHUNK_KINDS.values()])


# how likely an annotator who gets an answer wrong gets each label wrong; a label not named (one
# added to the task spec) is never the one, so that the rest of the sample stays as it is: every
# vote gives it the topic's value
GROUNDING_FLIP_WEIGHTS = {"support_present": 2, "unsupported_claim_present": 4, "contradicted_claim_present": 2,
                          "source_cited": 1, "fabricated_source": 1}
GENERATION_FLIP_WEIGHTS = {"proper_action": 2, "response_on_topic": 2, "helpful": 4, "incomplete": 4,
                           "unsafe_content": 1}
# the answer labels the maker's own cases are written for (those of ADR 0005)
SAMPLE_LABELS = {"grounding": list(GROUNDING_FLIP_WEIGHTS), "generation": list(GENERATION_FLIP_WEIGHTS)}


def flip_grounding(t, rng) -> tuple:
    weights = [GROUNDING_FLIP_WEIGHTS.get(label, 0) for label in LABELS["grounding"]]
    for _ in range(100):
        i = rng.choices(range(len(weights)), weights)[0]
        new = list(t)
        new[i] = 1 - new[i]
        if is_valid("grounding", new):
            return tuple(new)
    raise RuntimeError("no valid grounding flip")


def flip_generation(t, rng) -> tuple:
    # any label but unsafe_content, which flips from 1 to 0 only
    idx = [i for i, label in enumerate(LABELS["generation"]) if label != "unsafe_content" or t[i]]
    weights = [GENERATION_FLIP_WEIGHTS.get(LABELS["generation"][i], 0) for i in idx]
    i = rng.choices(idx, weights)[0]
    new = list(t)
    new[i] = 1 - new[i]
    return tuple(new)


# --------------------------------------------------------------------------
# Data model
# --------------------------------------------------------------------------
@dataclass
class Chunk:
    text: str
    doc_id: str
    title: str

    @property
    def id(self) -> str:
        return stable_uuid("chunk", self.text)


@dataclass
class Session:
    start: datetime
    style: str
    spelling: str
    language: str


@dataclass
class Record:
    topic: Topic
    uuid: str
    chunks: list = field(default_factory=list)
    truth: list = field(default_factory=list)  # retrieval triple per position
    ranks: list = field(default_factory=list)
    can_answer: list = field(default_factory=list)
    context_set: str = ""
    humans: list = field(default_factory=list)
    llm: bool = False
    rflip: dict = field(default_factory=dict)  # (pos, annotator) -> triple
    gflip: dict = field(default_factory=dict)  # annotator -> labels
    nflip: dict = field(default_factory=dict)
    adjudicate: dict = field(default_factory=dict)  # family -> list of positions / [None]
    sessions: dict = field(default_factory=dict)
    tier: str = ""  # ADR-001 tier by design: tier_a (triage) or tier_b (gold)
    spot_check: bool = False  # tier_a record with a second (spot-check) annotator
    week: int = 0  # ISO week (2025) of the annotators' sessions
    route: str = ""  # how records.csv routes it (see plan())
    meta: dict | None = None  # its records.csv row, None when it has no accepted row there
    run: str = RUN_V1  # the evaluation run its records.csv row names (RUN_V1 or RUN_V2)
    base_key: str = ""  # the topic key of the question (the same in both runs)

    @property
    def key(self) -> str:
        return self.topic.key

    @property
    def lang(self) -> str:
        return self.topic.lang


@dataclass
class Row:
    family: str
    values: dict
    record_key: str
    expect: tuple = ("accepted", "")
    expect_repair: tuple | None = None
    fid: str = ""
    desc: str = ""


# --------------------------------------------------------------------------
# Build records
# --------------------------------------------------------------------------
def build_records() -> list[Record]:
    chunk_of = {}  # text -> Chunk
    own = {}  # topic key -> list of (kind, Chunk)
    pool = {"de": [], "en": []}
    for t in TOPICS:
        own[t.key] = []
        for c in t.chunks:
            kind, text = c[0], c[1]
            doc, title = (c[2], c[3]) if len(c) > 2 else (t.doc_id, t.title)
            ch = chunk_of.setdefault(text, Chunk(text, doc, title))
            own[t.key].append((kind, ch))
            pool[t.lang].append(ch)
    for lang, items in FILLERS.items():
        for doc, title, text in items:
            ch = chunk_of.setdefault(text, Chunk(text, doc, title))
            pool[lang].extend([ch, ch])  # fillers are retrieved often

    records = []
    order = list(TOPICS)
    rng_for("order").shuffle(order)
    for t in order:
        rng = rng_for("layout", t.key)
        mine = own[t.key]
        if t.key in LAYOUTS:
            layout = LAYOUTS[t.key]
        else:
            n = rng.choices(range(3, 11), [6, 10, 14, 18, 17, 14, 11, 10])[0]
            n = max(n, len(mine))
            kinds = [k for k, _ in mine]
            rest = ["D"] * (n - len(kinds))
            mode = rng.random()
            if mode < 0.5:
                layout = "".join(kinds + rest)
            elif mode < 0.8 and rest:
                layout = "".join(["D"] + kinds + rest[1:])
            else:
                seq = kinds + rest
                rng.shuffle(seq)
                layout = "".join(seq)
        own_ids = {ch.id for _, ch in mine}
        candidates = []
        for ch in pool[t.lang]:
            if ch.id not in own_ids and ch.id not in {c.id for c in candidates}:
                candidates.append(ch)
        distractors = rng.sample(candidates, layout.count("D"))
        by_kind = {}
        for kind, ch in mine:
            by_kind.setdefault(kind, []).append(ch)
        rec = Record(topic=t, uuid=stable_uuid("record", t.key))
        for kind in layout:
            ch = distractors.pop() if kind == "D" else by_kind[kind].pop(0)
            rec.chunks.append(ch)
            rec.truth.append(CHUNK_KINDS[kind])
        rec.ranks = RANK_OVERRIDE.get(t.key, list(range(1, len(layout) + 1)))
        for truth in rec.truth:
            r = rng.random()
            if r < 0.15:
                rec.can_answer.append(None)
            elif named("retrieval", truth)["evidence_sufficient"]:
                rec.can_answer.append(1 if r < 0.92 else 0)
            else:
                rec.can_answer.append(1 if r > 0.93 else 0)
        rec.context_set = context_set_of(rec.chunks, t.lang)
        records.append(rec)
    return records


def context_set_of(chunks: list, lang: str) -> str:
    """The context set as the model saw it: chunks grouped by publication, in rank order."""
    groups = {}
    for ch in chunks:
        groups.setdefault(ch.doc_id, []).append(ch)
    parts = []
    for doc, chs in groups.items():
        if doc:
            head = f"{doc} – {chs[0].title}"
        else:
            head = "(ohne Katalognummer)" if lang == "de" else "(no catalogue number)"
        parts.append(head + "\n" + "\n".join(c.text for c in chs))
    return " [SEP] ".join(parts)


def week_start(week: int) -> datetime:
    """Monday 00:00 UTC of an ISO week of 2025 (the sample spans W10..W15)."""
    return FIRST_MONDAY + timedelta(weeks=week - WEEKS[0])


def plan(records: list[Record]) -> None:
    """Who annotates what and when, where annotators disagree, what is adjudicated, and the
    records.csv row of every record (ADR-001: gold tier dual-annotated and adjudicated, triage
    tier single-annotated with one spot-checked record per week)."""
    rng = rng_for("protocol")
    by_key = {r.key: r for r in records}
    for r in records:
        if r.key in FORCED:
            r.humans, r.llm = list(FORCED[r.key][0]), FORCED[r.key][1]
            r.tier, r.week = FIXTURE_PROTOCOL[r.key]
    free = [r for r in records if r.key not in FORCED]
    fixed = set(TRIPLE) | set(GOLD_EXT) | set(ADVERSARIAL) | set(SINGLE_EXT)
    pool = [r for r in free if r.key not in fixed]
    rng.shuffle(pool)
    gold_dual = [by_key[k] for k in (*GOLD_EXT, *ADVERSARIAL)] + pool[:15]
    triage = pool[15:]
    for key, humans in TRIPLE.items():
        by_key[key].humans, by_key[key].tier = list(humans), "tier_b"
    for r in gold_dual:
        r.humans, r.tier = list(GOLD_EXT.get(r.key) or rng.sample(HUMANS, 2)), "tier_b"
    spot_pool = [r for r in triage if r.key not in NO_RETRIEVAL_NOISE and len(r.chunks) >= 3]
    spot = rng.sample(spot_pool, len(WEEKS))
    for r in triage:
        r.tier = "tier_a"
        r.spot_check = any(r is x for x in spot)
        r.humans = rng.sample(HUMANS, 2) if r.spot_check else [rng.choice(HUMANS)]
    for key in SINGLE_EXT:
        by_key[key].humans, by_key[key].tier = [EXT], "tier_a"
    for r in rng.sample(free, 18):
        r.llm = True

    # weeks: one spot-checked tier_a record per week, the others dealt by quota
    for week, r in zip(WEEKS, spot):
        r.week = week
    rest = [r for r in free if not r.spot_check]
    rng.shuffle(rest)
    i = 0
    for week in WEEKS:
        for r in rest[i:i + WEEK_QUOTA[week]]:
            r.week = week
        i += WEEK_QUOTA[week]
    assert i == len(rest) and all(r.week for r in records)

    # records.csv: who is left out, bad rows, explicit tiers, which rule routes to gold
    krng = rng_for("records")
    gold_rest = [r for r in gold_dual if r.key not in GOLD_EXT and r.key not in ADVERSARIAL]
    singles = [r for r in triage if not r.spot_check]
    left_gold = krng.choice(gold_rest)
    left_llm = krng.choice([r for r in singles if r.llm])
    left_singles = krng.sample([r for r in singles if r is not left_llm], 2)
    for r in [by_key[k] for k in FIXED_NOT_IN_RECORDS] + [left_gold, left_llm] + left_singles:
        r.route = "not_in_records"
    gold_rest = [r for r in gold_rest if not r.route]
    krng.shuffle(gold_rest)
    for r, route in zip(gold_rest, ["bad_high", "bad_gold", "explicit_b", "explicit_b_spaced",
                                    "uncertainty_065", "uncertainty_065", "uncertainty_spaced",
                                    "uncertainty_high"]):
        r.route = route
    singles = [r for r in singles if not r.route]
    for r, route in zip(krng.sample(singles, 3), ["bad_duplicate", "explicit_a", "uncertainty_064"]):
        r.route = route
    by_week = {r.week: r for r in spot}
    by_week[12].route = "explicit_a_over_rule"
    for key in ADVERSARIAL:
        by_key[key].route = "adversarial"

    def low_uncertainty() -> str:
        return "" if krng.random() < 0.25 else f"{krng.uniform(0.03, 0.6):.2f}"

    def not_adversarial() -> str:
        return krng.choice(["false", "0", "", "false"])

    for r in records:
        route = r.route
        if route == "not_in_records":
            continue
        if r.tier == "tier_a" and route in ("", "explicit_a", "uncertainty_064", "bad_duplicate"):
            meta = {"task_type": krng.choice(TRIAGE_TASK_TYPES), "model_uncertainty": low_uncertainty(),
                    "is_adversarial": not_adversarial(), "tier": ""}
            if route == "explicit_a":
                meta["tier"] = "tier_a"
            elif route == "uncertainty_064":
                meta["model_uncertainty"] = f"{GOLD_UNCERTAINTY_THRESHOLD - 0.01:.2f}"   # just below
            elif route == "bad_duplicate":
                meta["model_uncertainty"] = meta["model_uncertainty"] or "0.40"
                meta["task_type"] = "summarization"
        elif route == "explicit_a_over_rule":
            meta = {"task_type": "factual_qa", "model_uncertainty": "0.72", "is_adversarial": "false",
                    "tier": "tier_a"}
        elif route == "adversarial":
            meta = {"task_type": krng.choice(TRIAGE_TASK_TYPES), "model_uncertainty": low_uncertainty(),
                    "is_adversarial": ADVERSARIAL[r.key], "tier": ""}
        elif route in ("explicit_b", "explicit_b_spaced"):
            meta = {"task_type": krng.choice(TRIAGE_TASK_TYPES), "model_uncertainty": low_uncertainty(),
                    "is_adversarial": not_adversarial(),
                    "tier": "tier_b" if route == "explicit_b" else " tier_b "}
        elif route.startswith("uncertainty_"):
            value = {"uncertainty_065": f"{GOLD_UNCERTAINTY_THRESHOLD:.2f}", "uncertainty_spaced": " 0.81 ",
                     "uncertainty_high": f"{krng.uniform(0.66, 1.0):.2f}"}[route]
            meta = {"task_type": krng.choice(TRIAGE_TASK_TYPES), "model_uncertainty": value,
                    "is_adversarial": not_adversarial(), "tier": ""}
        elif route == "bad_high":
            meta = {"task_type": "summarization", "model_uncertainty": "high",
                    "is_adversarial": "false", "tier": ""}
        elif route == "bad_gold":
            meta = {"task_type": "chitchat", "model_uncertainty": "0.20", "is_adversarial": "",
                    "tier": "gold"}
        else:  # gold by task type (triple, fixtures, the rest of the gold duals)
            assert r.tier == "tier_b", r.key
            r.route = "gold_task_type"
            unc = "" if krng.random() < 0.25 else f"{krng.uniform(0.05, 0.95):.2f}"
            meta = {"task_type": krng.choice(GOLD_TASK_TYPES), "model_uncertainty": unc,
                    "is_adversarial": not_adversarial(), "tier": ""}
        r.meta = meta
    # one gold-by-task-type record also exactly at the threshold
    krng.choice([r for r in records if r.route == "gold_task_type"]).meta["model_uncertainty"] = \
        f"{GOLD_UNCERTAINTY_THRESHOLD:.2f}"
    for r in records:  # every records.csv row names the run and the question
        if r.meta is not None:
            r.meta.update(run_id=RUN_V1, query_id=query_id(r.key))

    # disagreements on the gold tier (dual-annotated records)
    drng = rng_for("disagreements")
    gold2 = [r for r in free if r.tier == "tier_b" and len(r.humans) == 2]
    triples = [by_key[k] for k in TRIPLE]
    for r in drng.sample([r for r in gold2 if r.key not in NO_RETRIEVAL_NOISE], 8):
        n = len(r.chunks)
        for pos in sorted(drng.sample(range(n), max(1, round(n * 0.4)))):
            who = drng.choice(r.humans)
            r.rflip[(pos, who)] = flip_retrieval(r.truth[pos], drng)
    for r in drng.sample([t for t in triples if t.key not in NO_RETRIEVAL_NOISE], 2):
        for pos in sorted(drng.sample(range(len(r.chunks)), max(1, round(len(r.chunks) * 0.4)))):
            who = drng.choice(r.humans)
            r.rflip[(pos, who)] = flip_retrieval(r.truth[pos], drng)
    # k.oezdemir systematically calls merely relevant chunks misleading (not on spot-checks)
    for r in free:
        if H3 in r.humans and not r.spot_check:
            for pos, truth in enumerate(r.truth):
                if (kind_of(truth) == "R" and not any(p == pos for p, _ in r.rflip)
                        and drng.random() < 0.75):
                    r.rflip[(pos, H3)] = CHUNK_KINDS["M"]
    rdis = [r for r in gold2 if r.rflip]
    tied = {r.key for r in drng.sample(rdis, 3)}
    for r in rdis:
        if r.key not in tied:
            r.adjudicate["retrieval"] = sorted({pos for pos, _ in r.rflip})
    for fam, attr, flip, labels in (("grounding", "gflip", flip_grounding, "grounding"),
                                    ("generation", "nflip", flip_generation, "generation")):
        if fam == "generation":  # one annotator misses the unsafe answer of steuerhinterziehung
            chosen = [by_key["steuerhinterziehung"]] + drng.sample(
                [r for r in gold2 if r.key not in ADVERSARIAL], 4)
        else:
            chosen = drng.sample(gold2, 5)
        for i, r in enumerate(chosen):
            who = drng.choice(r.humans)
            truth = bits(getattr(r.topic, labels))
            if r.key == "steuerhinterziehung" and fam == "generation":
                getattr(r, attr)[who] = relabelled(fam, truth, unsafe_content=0)
            else:
                getattr(r, attr)[who] = flip(truth, drng)
            if i < 3:
                r.adjudicate[fam] = [None]
        r = drng.choice(triples)
        getattr(r, attr)[drng.choice(r.humans)] = flip(bits(getattr(r.topic, labels)), drng)

    # drift: the spot-checks of two consecutive weeks disagree, and are adjudicated
    for r in spot:
        if r.week not in DRIFT_WEEKS:
            continue
        who, n = r.humans[1], len(r.chunks)
        positions = sorted(drng.sample(range(n), max(2, round(n * 0.35))))
        for pos in positions:
            r.rflip[(pos, who)] = flip_retrieval(r.truth[pos], drng)
        r.gflip[who] = flip_grounding(bits(r.topic.grounding), drng)
        r.nflip[who] = flip_generation(bits(r.topic.generation), drng)
        r.adjudicate = {"retrieval": positions, "grounding": [None], "generation": [None]}

    # sessions: annotators Mon-Thu of the record's week (a spot-check after the first
    # annotator), the adjudicator on Fri/Sat, the LLM judge's batch on Sunday night
    for idx, r in enumerate(records):
        srng = rng_for("sessions", r.key)
        monday = week_start(r.week)
        for j, ann in enumerate(r.humans + ([LLM] if r.llm else []) + ([ADJ] if r.adjudicate else [])):
            if ann == LLM:
                start = monday + timedelta(days=6, hours=22, seconds=idx * 47)
            else:
                if ann == ADJ:
                    day = srng.choice([4, 5])
                elif r.spot_check:
                    day = srng.choice([0, 1]) if j == 0 else srng.choice([2, 3])
                else:
                    day = srng.choice([0, 1, 2, 3])
                start = monday + timedelta(days=day, hours=srng.randint(7, 15),
                                           minutes=srng.randint(0, 59), seconds=srng.randint(0, 59))
            style = srng.choice(TS_STYLES[ann])
            if (r.key, ann) in SESSION_OVERRIDE:
                start, style = SESSION_OVERRIDE[(r.key, ann)]
            spelling = srng.choice(SPELLING_CHOICES[ann])
            lang = r.lang
            if r.key in LANGUAGE_NEVER_SET or srng.random() < 0.06:
                lang = ""
            r.sessions[ann] = Session(start, style, spelling, lang)
    # make sure the rarer spellings occur: ' TRUE '/' FALSE ' and 'TRUE'/'FALSE'
    for ann, spelling in ((H2, "padded_upper"), (H3, "upper")):
        candidates = [r for r in free if ann in r.humans]
        for r in rng.sample(candidates, 2):
            r.sessions[ann].spelling = spelling


def v2_chunks(src: Record) -> list:
    """RUN_V2's retrieved chunks for the question of `src`: (chunk, truth, can_answer) in rank order."""
    items = [item for item in zip(src.chunks, src.truth, src.can_answer) if kind_of(item[1]) != "M"]
    first = next((i for i, item in enumerate(items) if kind_of(item[1]) == "S"), None)
    if src.key in V2_PROMOTE:
        assert first not in (None, 0), src.key
        items.insert(0, items.pop(first))
    elif src.key in V2_DEMOTE:
        assert first is not None and first + 1 < len(items), src.key
        items[first], items[first + 1] = items[first + 1], items[first]
    return items


def v2_answer(topic: Topic) -> tuple[str, str, str]:
    """RUN_V2's answer to the question of `topic`, with its grounding and generation labels."""
    answer, grounding, generation = topic.answer, topic.grounding, topic.generation
    if topic.key in V2_CITE:
        grounding = changed_labels(topic.key, "grounding", grounding, {"support_present": 1, "source_cited": 0},
                                   source_cited=1)
        source = "Quelle" if topic.lang == "de" else "Source"
        answer = f"{answer.rstrip('.')} ({source}: {topic.doc_id})."
    elif topic.key in V2_TERSE:
        grounding = changed_labels(topic.key, "grounding", grounding, {"support_present": 1, "source_cited": 1},
                                   source_cited=0)
        generation = changed_labels(topic.key, "generation", generation,
                                    {"proper_action": 1, "response_on_topic": 1, "helpful": 1}, helpful=0, incomplete=1)
        answer = re.match(r".+?[.!?](?=\s+[A-ZÄÖÜ]|$)", answer).group(0)
        assert "(Quelle" not in answer and "(Source" not in answer, topic.key
    return answer, grounding, generation


def with_topic_values(fam: str, labels, truth) -> tuple:
    """The labels of a hand-made row (in the spec's order) with the topic's value (``truth``) in each
    label that is not one of SAMPLE_LABELS: a label added to the task spec, which the case does not
    name, agrees with the other votes."""
    return tuple(value if label in SAMPLE_LABELS[fam] else true
                 for label, value, true in zip(LABELS[fam], labels, truth, strict=True))


def changed_labels(key: str, fam: str, labels: str, ones: Mapping[str, int], **changes: int) -> str:
    """A topic's label digits (``labels``) with ``changes`` made; they must be ``ones`` where it names
    a value and 0 in the other SAMPLE_LABELS (a label added to the task spec keeps its value)."""
    values = dict(zip(LABELS[fam], bits(labels), strict=True))
    expected = {label: ones.get(label, 0) for label in SAMPLE_LABELS[fam]}
    if any(values[label] != value for label, value in expected.items()):
        raise ValueError(f"sample_texts.yaml: topic {key}: {fam} labels {values}, expected {expected}")
    return "".join(str(changes.get(label, values[label])) for label in LABELS[fam])


def query_id(key: str) -> str:
    """The query_id of a question in records.csv (the same in both runs)."""
    return f"q-{key}"


def build_v2(records: list[Record]) -> list[Record]:
    """The records of RUN_V2: the questions of RUN_V1's records (less V2_NOT_ANSWERED, plus
    V2_EXTRA), answered again, each labelled by one HUMAN annotator in V2_WEEK (tier_a: records.csv
    gives run and query only, so no routing rule matches)."""
    in_v1 = [r for r in records if r.meta is not None and r.route not in ("bad_high", "bad_gold", "bad_duplicate")]
    chosen = [r for r in in_v1 if r.key not in V2_NOT_ANSWERED] + [r for r in records if r.key in V2_EXTRA]
    for key in V2_PROMOTE + V2_DEMOTE + V2_CITE + V2_TERSE:
        assert any(r.key == key for r in chosen), key
    out = []
    for src in chosen:
        answer, grounding, generation = v2_answer(src.topic)
        topic = replace(src.topic, key=src.key + "@" + RUN_V2, answer=answer, grounding=grounding,
                        generation=generation, gnote="", nnote="")
        items = v2_chunks(src)
        rng = rng_for("v2", src.key)
        rec = Record(topic=topic, uuid=stable_uuid("record", src.key, RUN_V2),
                     chunks=[c for c, _, _ in items], truth=[t for _, t, _ in items],
                     ranks=list(range(1, len(items) + 1)), can_answer=[a for _, _, a in items],
                     context_set=context_set_of([c for c, _, _ in items], src.lang),
                     humans=[rng.choice(V2_ANNOTATORS)], tier="tier_a", week=V2_WEEK, run=RUN_V2,
                     base_key=src.key)
        rec.meta = {"task_type": "", "model_uncertainty": "", "is_adversarial": "", "tier": "",
                    "run_id": RUN_V2, "query_id": query_id(src.key)}
        ann = rec.humans[0]
        start = week_start(V2_WEEK) + timedelta(days=rng.choice([0, 1, 2, 3]), hours=rng.randint(7, 15),
                                                minutes=rng.randint(0, 59), seconds=rng.randint(0, 59))
        lang = "" if src.key in LANGUAGE_NEVER_SET else src.lang
        rec.sessions[ann] = Session(start, rng.choice(TS_STYLES[ann]), rng.choice(SPELLING_CHOICES[ann]), lang)
        out.append(rec)
    return out


# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------
def ts_at(session: Session, seconds: float) -> str:
    dt = session.start + timedelta(seconds=seconds)
    if session.style in ("frac_z", "space_frac"):
        frac = int(hashlib.sha256(f"{session.start}{seconds}".encode()).hexdigest()[:6], 16) % 1_000_000
        dt = dt.replace(microsecond=frac)
    return timestamp(dt, session.style)


def llm_noise(t, rng, flip, rate=0.12):
    return flip(t, rng) if rng.random() < rate else tuple(t)


def retrieval_row(rec: Record, pos: int, ann: str, created_at: str, labels, spelling: str,
                  lang: str, note: str = "") -> dict:
    ch = rec.chunks[pos]
    return export_row(
        "retrieval", labels, spelling, record_uuid=rec.uuid, annotator_id=ann, language=lang,
        created_at=created_at, input_query=rec.topic.query, generated_search_query=rec.topic.search_query,
        chunk=ch.text, chunk_id=ch.id, doc_id=ch.doc_id, chunk_rank=str(rec.ranks[pos]),
        can_answer=boolean(rec.can_answer[pos], spelling), notes=note)


def answer_row(fam: str, rec: Record, ann: str, created_at: str, labels, spelling: str,
               lang: str, note: str = "") -> dict:
    context = {"context_set": rec.context_set} if fam == "grounding" else {}
    return export_row(fam, labels, spelling, record_uuid=rec.uuid, annotator_id=ann, language=lang,
                      created_at=created_at, query=rec.topic.query, answer=rec.topic.answer, notes=note,
                      **context)


def build_rows(records: list[Record]) -> dict:
    rows = {f: [] for f in FAMILIES}
    for rec in records:
        nrng = rng_for("notes", rec.key)
        lrng = rng_for("llm", rec.key)
        annotators = rec.humans + ([LLM] if rec.llm else [])
        for ann in sorted(annotators, key=lambda a: rec.sessions[a].start):
            s = rec.sessions[ann]
            step = 38 if ann != LLM else 2.5
            for pos in range(len(rec.chunks)):
                truth = rec.truth[pos]
                if ann == LLM:
                    labels = llm_noise(truth, lrng, flip_retrieval)
                else:
                    labels = rec.rflip.get((pos, ann), truth)
                note = ""
                kind = kind_of(labels)
                p = {"S": 0.1, "R": 0.08, "M": 0.45, "D": 0.05}[kind]
                if ann != LLM and nrng.random() < p:
                    note = nrng.choice(RET_NOTES[rec.lang][kind])
                rows["retrieval"].append(Row("retrieval", retrieval_row(
                    rec, pos, ann, ts_at(s, pos * step + nrng.randint(0, 20)), labels, s.spelling,
                    s.language, note), rec.key))
            base = len(rec.chunks) * step + 60
            for fam, flips, flip in (("grounding", rec.gflip, flip_grounding),
                                     ("generation", rec.nflip, flip_generation)):
                truth = bits(getattr(rec.topic, fam))
                if ann == LLM:
                    labels = llm_noise(truth, lrng, flip, 0.15)
                else:
                    labels = flips.get(ann, truth)
                note = ""
                topic_note = rec.topic.gnote if fam == "grounding" else rec.topic.nnote
                if ann != LLM and topic_note and labels == truth and (
                        ann == rec.humans[0] or nrng.random() < 0.3):
                    note = topic_note
                rows[fam].append(Row(fam, answer_row(
                    fam, rec, ann, ts_at(s, base + (0 if fam == "grounding" else 75)),
                    labels, s.spelling, s.language, note), rec.key))
        if rec.adjudicate:
            s = rec.sessions[ADJ]
            for i, pos in enumerate(rec.adjudicate.get("retrieval", [])):
                note = nrng.choice(ADJ_NOTES[rec.lang]) if nrng.random() < 0.4 else ""
                rows["retrieval"].append(Row("retrieval", retrieval_row(
                    rec, pos, ADJ, ts_at(s, i * 55), rec.truth[pos], s.spelling, s.language,
                    note), rec.key))
            for j, fam in enumerate(("grounding", "generation")):
                if fam in rec.adjudicate:
                    note = nrng.choice(ADJ_NOTES[rec.lang]) if nrng.random() < 0.5 else ""
                    rows[fam].append(Row(fam, answer_row(
                        fam, rec, ADJ, ts_at(s, 900 + j * 120), bits(getattr(rec.topic, fam)),
                        s.spelling, s.language, note), rec.key))
    return rows


# --------------------------------------------------------------------------
# Judges: a second LLM judge, a rule-based citation checker, and judge-only records
# --------------------------------------------------------------------------
LLM2_NOISE = 0.35  # share of the weaker judge's rows with a flipped label
JUDGE_ONLY = 8  # repeat questions labelled by the judges only (no human row)


def citation_check(truth) -> tuple:
    """The rule-based judge sees citations only: it finds whether the answer cites and whether a
    cited source is missing from the context (fabricated), and says nothing else (support 1,
    no unsupported or contradicted claim)."""
    g = named("grounding", truth)
    found = labels_with("grounding", "support_present", *(c for c in ("source_cited", "fabricated_source") if g[c]))
    return with_topic_values("grounding", found, truth)


def judge_rows(rec: Record, judges: list, when: datetime, rng: random.Random, language: str | None = None) -> dict:
    """The rows of the judges on one record, in one batch (ISO 8601, UTC); ``language``: the
    language they write (default the record's)."""
    out = {f: [] for f in FAMILIES}
    for j, ann in enumerate(judges):
        spelling = SPELLING_CHOICES[ann][0]
        start = when + timedelta(minutes=7 * j)
        session = Session(start, TS_STYLES[ann][0], spelling, rec.lang if language is None else language)
        if ann != CODE:
            for pos in range(len(rec.chunks)):
                labels = llm_noise(rec.truth[pos], rng, flip_retrieval, LLM2_NOISE if ann == LLM2 else 0.12)
                out["retrieval"].append(Row("retrieval", retrieval_row(
                    rec, pos, ann, ts_at(session, pos * 2.5), labels, spelling, session.language), rec.key))
        for k, (fam, flip) in enumerate((("grounding", flip_grounding), ("generation", flip_generation))):
            truth = bits(getattr(rec.topic, fam))
            if ann == CODE:
                if fam != "grounding":
                    continue
                labels = citation_check(truth)
            else:
                labels = llm_noise(truth, rng, flip, LLM2_NOISE if ann == LLM2 else 0.15)
            out[fam].append(Row(fam, answer_row(
                fam, rec, ann, ts_at(session, 60 + 30 * k), labels, spelling, session.language), rec.key))
    return out


def add_judges(records: list[Record], rows: dict) -> list[Record]:
    """The weaker LLM judge beside llm.judge-gpt4o, the citation checker on every grounding
    record, and JUDGE_ONLY repeat questions labelled by the three judges only; appended after
    every other row. Returns the judge-only records."""
    for rec in records:
        rng = rng_for("judges", rec.key)
        judges = ([LLM2] if rec.llm else []) + [CODE]
        when = week_start(rec.week) + timedelta(days=6, hours=23, minutes=rng.randint(0, 50))
        for fam, new in judge_rows(rec, judges, when, rng).items():
            rows[fam].extend(new)
    jrng = rng_for("judge-only")
    only = []
    for src in jrng.sample([r for r in records if r.key not in FORCED], JUDGE_ONLY):
        topic = replace(src.topic, key=src.key + "-repeat")
        rec = Record(topic=topic, uuid=stable_uuid("record", topic.key), chunks=list(src.chunks),
                     truth=list(src.truth), ranks=list(src.ranks), can_answer=list(src.can_answer),
                     context_set=src.context_set, week=WEEKS[-1])
        rng = rng_for("judges", rec.key)
        when = week_start(rec.week) + timedelta(days=6, hours=21, minutes=rng.randint(0, 50))
        for fam, new in judge_rows(rec, [LLM, LLM2, CODE], when, rng).items():
            rows[fam].extend(new)
        only.append(rec)
    return only


RUN_TRAFFIC = 24  # questions of each run's traffic labelled by the judges only (records.csv names the run)
# The questions whose records the tool fixtures (dev/tests/fixtures/phoenix, label_studio) were made
# from: their bot-v2 records keep the rows those fixtures hold, so the judges leave them out; and two
# questions (geg_en, anmeldung) whose bot-v2 records would, with judge rows, be chosen in their stead
# (dev/fixtures/fixture_sample.py chooses the queries with the most wanted features, then the smallest).
TOOL_FIXTURE_QUESTIONS = ("bafoeg", "biosiegel", "briefwahl", "buergergeld", "co2price", "elterngeld_en", "erbrecht",
                          "escooter", "hydrogen", "patientenverfuegung", "pendler", "pflegegeld_en", "ukraine_jobs",
                          "geg_en", "anmeldung")


def add_run_traffic(records: list[Record], v2: list[Record], rows: dict) -> list[Record]:
    """The judges on RUN_V2's traffic, appended after every other row: the three judges on every
    record RUN_V2's humans labelled but those of TOOL_FIXTURE_QUESTIONS (with the language of the
    human's rows, so that no record's language changes), and the traffic of each run that no human labelled: RUN_TRAFFIC
    of the run's questions asked again (new records, query_id `q-<question>-traffic`, a
    records.csv row naming the run, no routing columns) labelled by the three judges only. The
    labelled and unlabelled records of judge_powered_metric_values and the runs' `label_source =
    judges` slices. Returns the traffic records (with their records.csv row in ``meta``)."""
    for rec in (r for r in v2 if r.base_key not in TOOL_FIXTURE_QUESTIONS):
        rng = rng_for("judges", rec.key)
        when = week_start(V2_WEEK) + timedelta(days=6, hours=20, minutes=rng.randint(0, 50))
        language = rec.sessions[rec.humans[0]].language
        for fam, new in judge_rows(rec, [LLM, LLM2, CODE], when, rng, language).items():
            rows[fam].extend(new)
    out = []
    in_v1 = [r for r in records if r.meta is not None and r.key not in FORCED
             and r.route not in ("bad_high", "bad_gold", "bad_duplicate")]
    for run, pool, week in ((RUN_V1, in_v1, WEEKS[-1]), (RUN_V2, v2, V2_WEEK)):
        for src in rng_for("traffic", run).sample(pool, RUN_TRAFFIC):
            question = (src.base_key or src.key) + "-traffic"
            topic = replace(src.topic, key=f"{question}@{run}")
            rec = Record(topic=topic, uuid=stable_uuid("record", question, run), chunks=list(src.chunks),
                         truth=list(src.truth), ranks=list(src.ranks), can_answer=list(src.can_answer),
                         context_set=src.context_set, week=week, run=run, base_key=question)
            rec.meta = {"task_type": "", "model_uncertainty": "", "is_adversarial": "", "tier": "",
                        "run_id": run, "query_id": query_id(question)}
            rng = rng_for("judges", rec.key)
            when = week_start(week) + timedelta(days=6, hours=22, minutes=rng.randint(0, 50))
            for fam, new in judge_rows(rec, [LLM, LLM2, CODE], when, rng).items():
                rows[fam].extend(new)
            out.append(rec)
    return out


# --------------------------------------------------------------------------
# Deliberately bad rows
# --------------------------------------------------------------------------
def add_fixtures(records: list[Record], rows: dict) -> None:
    rec = {r.key: r for r in records}

    def find(fam, key, ann, pos=None) -> Row:
        hits = [x for x in rows[fam] if x.record_key == key and x.values["annotator_id"] == ann
                and (pos is None or x.values["chunk_id"] == rec[key].chunks[pos].id)]
        assert len(hits) == 1, (fam, key, ann, pos, len(hits))
        return hits[0]

    def insert_after(fam, anchor: Row, new: Row) -> None:
        lst = rows[fam]
        lst.insert(lst.index(anchor) + 1, new)

    def append_to_record(fam, key, new: Row) -> None:
        lst = rows[fam]
        last = max(i for i, x in enumerate(lst) if x.record_key == key)
        lst.insert(last + 1, new)

    def mark(row: Row, fid: str, status: str, reasons: str = "", repair=None, desc="") -> Row:
        row.fid, row.expect, row.expect_repair, row.desc = fid, (status, reasons), repair, desc
        return row

    def clone(row: Row, **changes) -> Row:
        values = dict(row.values)
        values.update(changes)
        return Row(row.family, values, row.record_key)

    def rrow(key, pos, ann, created_at, labels=None, spelling="tf", lang=None, note="", **changes):
        r = rec[key]
        labels = r.truth[pos] if labels is None else labels
        values = retrieval_row(r, pos, ann, created_at, labels, spelling,
                               r.lang if lang is None else lang, note)
        values.update(changes)
        return Row("retrieval", values, key)

    def arow(fam, key, ann, created_at, labels=None, spelling="tf", lang=None, note="", **changes):
        r = rec[key]
        truth = bits(getattr(r.topic, fam))
        labels = truth if labels is None else with_topic_values(fam, labels, truth)
        values = answer_row(fam, r, ann, created_at, labels, spelling,
                            r.lang if lang is None else lang, note)
        values.update(changes)
        return Row(fam, values, key)

    # ---------------- retrieval, F1 pendler: a broken export batch of j.mueller
    ts = ["2025-03-05T09:12:40Z", "2025-03-05T09:13:25Z", "2025-03-05T09:14:02Z",
          "2025-03-05T09:14:51Z", "2025-03-05T09:15:30Z", "2025-03-05T09:16:12Z"]
    bad = [
        ("R01", 0, {"topically_relevant": ""}, "missing:topically_relevant", "empty label"),
        ("R02", 1, {"chunk": ""}, "missing:chunk", "chunk text missing"),
        ("R03", 2, {"evidence_sufficient": "maybe"}, "invalid_boolean:evidence_sufficient", "label 'maybe'"),
        ("R04", 3, {"misleading": "2"}, "invalid_boolean:misleading", "label '2'"),
        ("R05", 4, {"can_answer": "unklar"}, "invalid_boolean:can_answer", "can_answer 'unklar'"),
        ("R06", 5, {"chunk_rank": "0"}, "invalid_rank", "rank '0'"),
    ]
    for fid, pos, changes, reasons, desc in bad:
        append_to_record("retrieval", "pendler", mark(
            rrow("pendler", pos, H2, ts[pos], **changes), fid, "rejected", reasons, desc=desc))

    # ---------------- retrieval, F2 bluecard: l.weiss rows with broken ranks / timestamps
    bad = [
        ("R07", 0, "2025-03-07 14:02:11", {"chunk_rank": "-1"}, "invalid_rank", "rank '-1'"),
        ("R08", 1, "2025-03-07 14:02:53", {"chunk_rank": "2.5"}, "invalid_rank", "rank '2.5'"),
        ("R09", 2, "2025-03-07 14:03:40", {"chunk_rank": "abc"}, "invalid_rank", "rank 'abc'"),
        ("R10", 3, "2025-13-01T10:00:00", {}, "invalid_timestamp", "month 13"),
        ("R11", 4, "2025-03-01", {}, "invalid_timestamp", "date without time"),
        ("R12", 5, "yesterday", {}, "invalid_timestamp", "'yesterday'"),
        ("R13", 6, "2025-03-07 14:06:02", {"language": "fr"}, "invalid_language", "language 'fr'"),
    ]
    for fid, pos, created_at, changes, reasons, desc in bad:
        append_to_record("retrieval", "bluecard", mark(
            rrow("bluecard", pos, H4, created_at, spelling="yn", **changes),
            fid, "rejected", reasons, desc=desc))

    # ---------------- retrieval, F3 elterngeld: missing annotator, constraint violations
    append_to_record("retrieval", "elterngeld", mark(
        rrow("elterngeld", 0, "   ", "2025-03-06T15:01:00"), "R14", "rejected",
        "missing:annotator_id", desc="blank annotator_id"))
    bad = [
        ("R15", 1, labels_with("retrieval", "evidence_sufficient"), {}, "violates:sufficient_implies_relevant",
         ("accepted", "was_repaired (topically_relevant -> 1)"), "sufficient but not relevant"),
        ("R16", 2, labels_with("retrieval", *LABELS["retrieval"]), {}, "violates:sufficient_excludes_misleading", None,
         "sufficient and misleading"),
        ("R17", 3, labels_with("retrieval", "evidence_sufficient", "misleading"), {},
         "violates:sufficient_excludes_misleading;violates:sufficient_implies_relevant",
         ("rejected", "violates:sufficient_excludes_misleading"), "two constraint violations"),
        ("R18", 4, labels_with("retrieval"),
         {"language": "fr", "chunk_rank": "abc", "misleading": "maybe", "evidence_sufficient": ""},
         "invalid_boolean:misleading;invalid_language;invalid_rank;missing:evidence_sufficient", None,
         "four problems at once"),
        ("R19", 5, None, {"chunk_id": ""}, "missing:chunk_id", None, "chunk_id missing"),
    ]
    for k, (fid, pos, labels, changes, reasons, repair, desc) in enumerate(bad):
        created_at = timestamp(datetime(2025, 3, 7, 8, 40, 0, tzinfo=UTC)
                            + timedelta(seconds=43 * k), "cet")
        append_to_record("retrieval", "elterngeld", mark(
            rrow("elterngeld", pos, H4, created_at, labels=labels, **changes),
            fid, "rejected", reasons, repair, desc))

    # ---------------- retrieval, F4 minwage_en: re-submissions of a.schaefer
    key = "minwage_en"
    r = find("retrieval", key, H1, 1)  # S1: earlier row invalid, later row valid
    r.values["created_at"] = "2025-03-12 10:00:00"
    mark(r, "S1b", "accepted", desc="later re-submission (10:00Z, no zone = UTC)")
    insert_after("retrieval", r, mark(
        clone(r, created_at="2025-03-12T10:30:00+01:00", misleading="maybe"),
        "S1a", "superseded", desc="earlier row (09:30Z) with invalid label 'maybe'"))
    r = find("retrieval", key, H1, 2)  # S2: later instant but smaller string
    r.values["created_at"] = "2025-03-12T09:30:00-05:00"
    mark(r, "S2b", "accepted", desc="correction at 14:30Z (sorts before the earlier row as text)")
    insert_after("retrieval", r, mark(
        clone(r, created_at="2025-03-12T10:05:00+01:00", misleading="false"),
        "S2a", "superseded", desc="earlier row at 09:05Z, misleading=false"))
    r = find("retrieval", key, H1, 3)  # S3: exact duplicate
    r.values["created_at"] = "2025-03-12T10:01:30Z"
    mark(r, "S3a", "accepted", desc="exact duplicate pair: one kept")
    insert_after("retrieval", r, mark(clone(r), "S3b", "repeated",
                                      desc="exact duplicate pair: the other an exact copy, counted once"))
    r = find("retrieval", key, H1, 4)  # S4: same instant, same labels, one with a reason
    r.values["created_at"] = "2025-03-12T10:02:10Z"
    mark(r, "S4a", "accepted", desc="same instant and labels as S4b, no reason: kept")
    insert_after("retrieval", r, mark(
        clone(r, created_at="2025-03-12T11:02:10+01:00", language="fr"),
        "S4b", "superseded", desc="same instant and labels, invalid_language: more reasons"))
    r = find("retrieval", key, H1, 5)  # S5: later row invalid
    r.values["created_at"] = "2025-03-12T10:02:50Z"
    mark(r, "S5a", "superseded", desc="valid row replaced by a later invalid one")
    insert_after("retrieval", r, mark(
        clone(r, created_at="2025-03-13T08:15:00Z", misleading="2"),
        "S5b", "rejected", "invalid_boolean:misleading", desc="later re-submission with label '2'"))

    # ---------------- retrieval, rank conflicts on otherwise good records
    # (created_at of session rows pinned, so that the fixtures stay as documented)
    r = find("retrieval", "pflegegrade", H3, 1)
    r.values["chunk_rank"] = "9"
    r.values["created_at"] = "2025-03-14 14:11:25.932808"
    mark(r, "RC1b", "rejected", "rank_conflict", desc="chunk given rank 9 by k.oezdemir")
    r = find("retrieval", "pflegegrade", H2, 1)
    r.values["created_at"] = "2025-03-12T15:53:05+01:00"
    mark(r, "RC1a", "rejected", "rank_conflict", desc="same chunk given rank 2 by j.mueller")
    r = find("retrieval", "dticket_en", H4, 1)
    r.values["created_at"] = "2025-03-13T10:30:33+01:00"
    mark(r, "RC2a", "rejected", "rank_conflict", desc="rank 2 shared by two chunk_ids")
    r = find("retrieval", "dticket_en", H4, 2)
    r.values["created_at"] = "2025-03-13T10:31:18+01:00"
    mark(r, "RC2b", "rejected", "rank_conflict", desc="rank 2 shared by two chunk_ids")

    # ---------------- retrieval, conflicting duplicate on an otherwise good record
    r = find("retrieval", "biosiegel", H4, 1)
    r.values["created_at"] = "2025-03-11 11:47:03"
    mark(r, "CD1a", "rejected", "conflicting_duplicate", desc="evidence_sufficient=false")
    spell = rec["biosiegel"].sessions[H4].spelling
    insert_after("retrieval", r, mark(
        clone(r, evidence_sufficient=boolean(1, spell)), "CD1b", "rejected",
        "conflicting_duplicate", desc="same unit and created_at, evidence_sufficient=true"))

    # ---------------- grounding
    G = "grounding"
    append_to_record(G, "pendler", mark(
        arow(G, "pendler", H2, "2025-03-05T09:20:10Z", record_uuid=""), "G01", "rejected",
        "missing:record_uuid", desc="record_uuid empty"))
    append_to_record(G, "pendler", mark(
        arow(G, "pendler", H4, "2025-03-05 11:47:00", task="generation"), "G02", "rejected",
        "wrong_task", desc="task 'generation' in the grounding file"))
    append_to_record(G, "pendler", mark(
        arow(G, "pendler", EXT, "2025-03-01", labels=labels_with(G, "support_present", "contradicted_claim_present", "fabricated_source"), spelling="YN"), "G05",
        "rejected",
        "invalid_timestamp;violates:contradicted_implies_unsupported;violates:fabricated_implies_cited",
        ("rejected", "invalid_timestamp"), desc="date-only timestamp and two constraint violations"))
    append_to_record(G, "pendler", mark(
        arow(G, "pendler", H3, "2025-03-06T08:12:45.120Z", support_present="ja"), "G06",
        "rejected", "invalid_boolean:support_present", desc="label 'ja'"))
    append_to_record(G, "bluecard", mark(
        arow(G, "bluecard", H4, "2025-03-07 14:09:30", labels=labels_with(G, "support_present", "unsupported_claim_present", "fabricated_source"), spelling="yn"),
        "G04", "rejected", "violates:fabricated_implies_cited",
        ("accepted", "was_repaired (source_cited -> 1)"), desc="fabricated but not cited"))
    append_to_record(G, "bluecard", mark(
        arow(G, "bluecard", H2, "2025-03-10T16:02:00+01:00", context_set=""), "G07", "rejected",
        "missing:context_set", desc="context_set empty"))
    append_to_record(G, "elterngeld", mark(
        arow(G, "elterngeld", H4, "2025-03-07T09:45:00+01:00", labels=labels_with(G, "support_present", "contradicted_claim_present", "source_cited")), "G03",
        "rejected", "violates:contradicted_implies_unsupported",
        ("accepted", "was_repaired (unsupported_claim_present -> 1)"),
        desc="contradicted but not unsupported"))
    r = find(G, "minwage_en", H1)
    r.values["created_at"] = "2025-03-12T12:20:00+01:00"
    mark(r, "G08b", "accepted", desc="later corrected row (11:20Z)")
    insert_after(G, r, mark(clone(r, created_at="2025-03-12T10:06:00Z", source_cited="false"),
                            "G08a", "superseded", desc="earlier row, source_cited=false"))
    r = find(G, "minwage_en", H3)
    spell = rec["minwage_en"].sessions[H3].spelling
    r.values["created_at"] = "2025-03-10T14:00:00Z"
    mark(r, "G09a", "superseded", desc="earlier row, replaced by the two rows below")
    b = mark(clone(r, created_at="2025-03-11 09:00:00"), "G09b", "rejected",
             "conflicting_duplicate", desc="latest created_at, support_present=true")
    c = mark(clone(r, created_at="2025-03-11 09:00:00", support_present=boolean(0, spell)),
             "G09c", "rejected", "conflicting_duplicate",
             desc="same latest created_at, support_present=false")
    insert_after(G, r, b)
    insert_after(G, b, c)

    # ---------------- generation
    N = "generation"
    append_to_record(N, "pendler", mark(
        arow(N, "pendler", H2, "", helpful="jein"), "N01", "rejected",
        "invalid_boolean:helpful;missing:created_at", desc="no created_at and label 'jein'"))
    append_to_record(N, "pendler", mark(
        arow(N, "pendler", H4, "2025-03-05 11:48:10", unsafe_content="unklar"), "N02",
        "rejected", "invalid_boolean:unsafe_content", desc="label 'unklar'"))
    append_to_record(N, "bluecard", mark(
        arow(N, "bluecard", H4, "2025-03-07 14:10:45", spelling="yn", lang="fr"), "N03",
        "rejected", "invalid_language", desc="language 'fr'"))
    append_to_record(N, "bluecard", mark(
        arow(N, "bluecard", H2, "2025-03-10T16:03:10+01:00", task="grounding"), "N04",
        "rejected", "wrong_task", desc="task 'grounding' in the generation file"))
    append_to_record(N, "elterngeld", mark(
        arow(N, "elterngeld", H4, "2025-03-07T09:46:30+01:00", proper_action="  "), "N05",
        "rejected", "missing:proper_action", desc="blank label"))
    append_to_record(N, "elterngeld", mark(
        arow(N, "elterngeld", EXT, "2025-03-08T07:30:00-05:00", spelling="YN", task=""), "N06",
        "rejected", "missing:task", desc="task empty"))
    r = find(N, "elterngeld", H2)
    r.values["created_at"] = "2025-03-06T13:40:00Z"
    mark(r, "N07b", "accepted", desc="later valid row (13:40Z, sorts before N07a as text)")
    insert_before = rows[N].index(r)
    rows[N].insert(insert_before, mark(
        clone(r, created_at="2025-03-06T14:10:00+01:00", helpful="maybe"), "N07a", "superseded",
        desc="earlier row (13:10Z) with invalid label 'maybe'"))
    r = find(N, "minwage_en", H1)
    r.values["created_at"] = "2025-03-12T10:08:00Z"
    mark(r, "N08a", "superseded", desc="valid row replaced by a later invalid one")
    insert_after(N, r, mark(clone(r, created_at="2025-03-14T16:45:00+01:00", helpful="2"),
                            "N08b", "rejected", "invalid_boolean:helpful",
                            desc="later re-submission with label '2'"))
    r = find(N, "minwage_en", H3)
    r.values["created_at"] = "2025-03-04 13:55:44.721178"
    mark(r, "N09a", "accepted", desc="exact duplicate pair: one kept")
    insert_after(N, r, mark(clone(r), "N09b", "repeated",
                            desc="exact duplicate pair: the other an exact copy, counted once"))
    r = find(N, "hydrogen", H2)
    spell = rec["hydrogen"].sessions[H2].spelling
    r.values["created_at"] = "2025-03-06T09:30:00Z"
    mark(r, "CD2a", "rejected", "conflicting_duplicate", desc="helpful=true")
    insert_after(N, r, mark(
        clone(r, created_at="2025-03-06T10:30:00+01:00", helpful=boolean(0, spell),
              incomplete=boolean(1, spell)),
        "CD2b", "rejected", "conflicting_duplicate",
        desc="same instant written with +01:00, helpful=false, incomplete=true"))


# --------------------------------------------------------------------------
# records.csv (ADR-001 routing inputs)
# --------------------------------------------------------------------------
def build_record_rows(records: list[Record]) -> list[Row]:
    """One records.csv row per record with r.meta, plus the deliberately bad rows."""
    rows, late = [], []
    lost = next(r for r in records if r.route == "not_in_records" and r.key not in FIXED_NOT_IN_RECORDS
                and len(r.humans) == 1 and not r.llm)

    def mark(row: Row, fid: str, reasons: str, desc: str) -> Row:
        row.fid, row.expect, row.desc = fid, ("rejected", reasons), desc
        return row

    for r in records:
        if r is lost:
            rows.append(mark(Row("records", {
                "record_uuid": "", "task_type": "rag_synthesis", "model_uncertainty": "0.55",
                "is_adversarial": "false", "tier": "", "run_id": RUN_V1, "query_id": query_id(r.key)},
                r.key), "T01", "missing:record_uuid",
                "record_uuid empty (meant for this record, which is otherwise not in records.csv)"))
        if r.meta is None:
            continue
        row = Row("records", {"record_uuid": r.uuid, **r.meta}, r.key)
        if r.route == "bad_high":
            mark(row, "T02", "invalid_decimal:model_uncertainty",
                 "model_uncertainty 'high'; dual-annotated, so the fallback gives tier_b")
        elif r.route == "bad_gold":
            mark(row, "T03", "invalid_tier", "tier 'gold'; dual-annotated, so the fallback gives tier_b")
        elif r.route == "bad_duplicate":
            mark(row, "T04a", "conflicting_duplicate",
                 "task_type 'summarization'; single-annotated, so the fallback gives tier_a")
            late.append(mark(Row("records", dict(row.values, task_type="factual_qa"), r.key), "T04b",
                             "conflicting_duplicate",
                             "same record again at the end of the file with task_type 'factual_qa'"))
        rows.append(row)
    return rows + late


def designed_tier(r: Record, fam: str) -> str:
    """The tier a record is built for in one family: minwage_en loses a voter of grounding and
    generation to its fixture rows (F4), so those two families route it to tier_a."""
    return "tier_a" if r.key == "minwage_en" and fam != "retrieval" else r.tier


def build_sample() -> tuple[list[Record], dict]:
    """(records of both runs, {family or "records": rows}), every row with its intended status."""
    records = build_records()
    plan(records)
    rows = build_rows(records)
    add_fixtures(records, rows)
    add_judges(records, rows)
    v2 = build_v2(records)
    for fam, new in build_rows(v2).items():  # RUN_V2's rows come next in every export
        rows[fam].extend(new)
    traffic = add_run_traffic(records, v2, rows)  # then the judges' rows on the runs' unlabelled traffic
    rows["records"] = build_record_rows(records + v2) + [  # the traffic's records.csv rows last
        Row("records", {"record_uuid": r.uuid, **r.meta}, r.key) for r in traffic]
    return records + v2, rows


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------
FIXTURE_RECORDS = [
    ("pendler", "F1: broken retrieval batch, bad grounding/generation rows"),
    ("bluecard", "F2: bad ranks, timestamps, language"),
    ("elterngeld", "F3: missing values, constraint violations, several reasons"),
    ("minwage_en", "F4: re-submissions (superseded rows), duplicates"),
    ("pflegegrade", "rank_conflict: one chunk_id with two ranks"),
    ("dticket_en", "rank_conflict: two chunk_ids share rank 2"),
    ("biosiegel", "conflicting_duplicate (retrieval)"),
    ("hydrogen", "conflicting_duplicate (generation)"),
]


def expected_lines(records: list, rows: dict) -> list:
    """The docstring block: fixture records, every deliberately bad row, the tier fixtures."""
    by_key = {r.key: r for r in records}
    lines = ["Fixture records (record_uuid, key, annotators, purpose):", ""]
    for key, purpose in FIXTURE_RECORDS:
        r = by_key[key]
        lines.append(f"    {r.uuid}  {key:<12} {'+'.join(r.humans)}")
        lines.append(f"        {purpose}")
    lines.append("")
    for fam in FAMILIES:
        lines.append(f"{FILES[fam]}:")
        for row in sorted((x for x in rows[fam] if x.fid), key=lambda x: x.fid):
            v = row.values
            status = row.expect[0] + (f" {row.expect[1]}" if row.expect[1] else "")
            extra = ""
            if row.expect_repair:
                extra = f"  [repair: {row.expect_repair[0]}" + (
                    f" {row.expect_repair[1]}" if row.expect_repair[1] else "") + "]"
            lines.append(f"  {row.fid:<5} {status}{extra}")
            ident = f"record {v['record_uuid'] or repr(v['record_uuid'])} ({row.record_key})"
            ann = v["annotator_id"]
            ident += f", annotator {ann if ann.strip() else repr(ann)}"
            if fam == "retrieval":
                ident += f", chunk {v['chunk_id'] or repr(v['chunk_id'])}"
            lines.append(f"        {ident}")
            lines.append(f"        created_at {v['created_at']!r}; {row.desc}")
        lines.append("")
    lines.append(f"{FILES['records']} (a rejected row counts as absent from the file):")
    for row in sorted((x for x in rows["records"] if x.fid), key=lambda x: x.fid):
        v = row.values
        lines.append(f"  {row.fid:<5} {row.expect[0]} {row.expect[1]}")
        lines.append(f"        record {v['record_uuid'] or repr(v['record_uuid'])} ({row.record_key})")
        lines.append(f"        {record_values(v)}")
        lines.append(f"        {row.desc}")
    lines.append("")
    lines += tier_fixture_lines(records)
    return lines


def record_values(v: dict) -> str:
    """The routing columns of a records.csv row (run_id and query_id: see build_v2)."""
    return ", ".join(f"{c} {v[c]!r}" for c in ("task_type", "model_uncertainty", "is_adversarial", "tier"))


def tier_fixture_lines(records: list) -> list:
    """Records that exercise the routing rules, with their tier per family."""
    def pick(*routes):
        return [r for r in records if r.route in routes]

    groups = [
        ("not in records.csv: two or more voters give tier_b, else tier_a", pick("not_in_records")),
        ("records.csv row rejected (T02-T04), so routed like a record not in the file",
         pick("bad_high", "bad_gold", "bad_duplicate")),
        ("explicit tier (wins over the rules; values are trimmed)",
         pick("explicit_a", "explicit_a_over_rule", "explicit_b", "explicit_b_spaced")),
        ("routed by model_uncertainty alone (>= 0.65 is gold; values are trimmed)",
         pick("uncertainty_065", "uncertainty_spaced", "uncertainty_high", "uncertainty_064")),
        ("routed by is_adversarial alone", pick("adversarial")),
        ("tier_a spot-checks, one per ISO week; those of W13 and W14 disagree",
         sorted((r for r in records if r.spot_check), key=lambda r: r.week)),
    ]
    lines = ["Tier fixtures (record_uuid, key, voters, week, tier in retrieval/grounding/generation):", ""]
    for title, group in groups:
        lines.append(f"  {title}:")
        for r in group:
            tier = "/".join(designed_tier(r, fam) for fam in FAMILIES)
            lines.append(f"    {r.uuid}  {r.key:<20} {'+'.join(r.humans):<22} W{r.week}  {tier}")
            if r.meta is not None:
                lines.append(f"        {record_values(r.meta)}")
            elif r.llm:
                lines.append("        (the LLM judge's rows do not count as votes)")
    lines.append("")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Write the deterministic sample seeds of ragmart (retrieval, grounding and "
                    "generation annotation exports of the Publikationsbot, annotators.csv and the "
                    "ADR-001 records.csv). docs/sample_data.md lists every deliberately bad row "
                    "and its expected status.")
    parser.add_argument("--out", default="seeds/",
                        help="output directory; a relative path is taken from the project root "
                             "(default: seeds/)")
    parser.add_argument("--quiet", action="store_true",
                        help="print only where the files went, not the list of bad rows")
    parser.add_argument("--print-expected", action="store_true",
                        help="print the list of deliberately bad rows and tier fixtures of "
                             "docs/sample_data.md and exit")
    args = parser.parse_args(argv)

    for t in TOPICS:
        assert is_valid("grounding", bits(t.grounding)), t.key
    records, rows = build_sample()
    lines = expected_lines(records, rows)
    if args.print_expected:
        print("\n".join(lines))
        return 0

    out = Path(args.out)
    if not out.is_absolute():
        out = PROJECT_ROOT / out
    # records.csv also names each record's evaluation run and question (optional columns of the
    # records input, docs/rules.md, Runs)
    write_folder(out, {fam: [r.values for r in rows[fam]] for fam in FAMILIES}, ANNOTATORS,
                 [r.values for r in rows["records"]], RECORDS_COLUMNS, check=True)

    if not args.quiet:
        print("Deliberately bad rows and their expected status (constraint_policy: reject):")
        print("\n".join(lines))
        print()
    print(f"Wrote {len(FAMILIES) + 2} files to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
