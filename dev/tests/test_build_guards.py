"""The build guards: too many rejected rows, a missing annotators input and unlisted annotator
ids fail or warn `dbt build` with a clear message.

Four `dbt build`s on the project's own sample:

1. the session's sample build (conftest.py), default vars: the share guard
   (``assert_rejected_share_within_limit``) and the annotators guard
   (``assert_annotators_input_present``) pass, the rejection test
   (``assert_no_annotation_rows_rejected``) warns, its failure count is the number of rejected rows
   and it prints one line per task with the rows per reason code; the unlisted-annotators test
   (``assert_export_annotators_are_listed``) warns, naming each id of the exports that
   ``annotators.csv`` does not list with its rows per task (counted here from the seed files);
2. on a copy of it, one LLM judge's id misspelled in the retrieval seed and
   ``{fail_on_unknown_annotators: true}``: the build fails naming the misspelled id, its rows and
   the listed id it is closest to;
3. on that copy of that build's project and database, ``annotators.csv`` emptied (header only), the
   annotators seed, its staging model and
   ``assert_annotators_input_present``: the build fails with the annotators message;
4. ``assert_annotators_input_present assert_rejected_share_within_limit`` on the tables of 2 and 3
   with ``{require_annotators: false, max_rejected_share: 0.001}``: the annotators guard passes and
   the share guard fails the build with the per-reason message, the exports over the limit marked.

The expected summary lines are computed here from ``int_annotations__row_status`` (split reason
sets, count, format) and, for an ``invalid_boolean`` or ``invalid_language`` code, its most frequent
values from the quarantine's original values, not read from the macro.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import duckdb
import pytest
from kit.builds import run_dbt

pytestmark = pytest.mark.slow                      # two dbt builds and three compiles of its own

EXPORTS = ["retrieval", "grounding", "generation"]
SHARE_TEST = "assert_rejected_share_within_limit"
WARN_TEST = "assert_no_annotation_rows_rejected"
ANNOTATORS_TEST = "assert_annotators_input_present"
UNLISTED_TEST = "assert_export_annotators_are_listed"
MISSPELLED = ("llm.judge-gpt4o", "llm.judge-gtp4o")   # (listed id, the typo written into the retrieval seed)


def _by_name(results: list[dict]) -> dict[str, dict]:
    return {r["unique_id"].split(".")[-1] if r["unique_id"].startswith("test.") else r["unique_id"]: r
            for r in results}


class Project:
    """A copy of the sample build's project and database; ``build`` runs one dbt subprocess on it."""

    def __init__(self, root: Path, sample):
        self.path = root / "project"
        shutil.copytree(sample.project, self.path)
        self.db = root / "ragmart.duckdb"
        shutil.copyfile(sample.db_path, self.db)

    def build(self, select: list[str], variables: dict | None = None) -> tuple[int, str, dict[str, dict]]:
        """Returns dbt's exit code, its output and the run results by node name."""
        args = ["build", "--select", *select] + (["--vars", json.dumps(variables)] if variables else [])
        proc = run_dbt(self.path, args, env={"RAGMART_DUCKDB_PATH": self.db.name})
        results = json.loads((self.path / "target" / "run_results.json").read_text())["results"]
        return proc.returncode, proc.stdout + proc.stderr, _by_name(results)

    def annotators_seed(self) -> Path:
        (path,) = list((self.path / "seeds").rglob("annotators.csv"))
        return path


def expected_lines(db: Path, tasks: list[str], max_share: float | None = None) -> dict[str, str]:
    """The summary line of each task with rows, from int_annotations__row_status."""
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("select task, annotation_status, reasons from intermediate.int_annotations__row_status").fetchall()
        cursor = con.execute("select * from main.rejected_annotations")
        names = [d[0] for d in cursor.description]
        quarantined = [dict(zip(names, row)) for row in cursor.fetchall()]

    def values(task: str, code: str) -> str:
        """An invalid_boolean code's most frequent values as given, or an invalid_language code's languages
        (trimmed), at most three, from the quarantine."""
        if not code.startswith("invalid_boolean:") and code != "invalid_language":
            return ""
        column = "language" if code == "invalid_language" else code.split(":", 1)[1]
        found = Counter(r[column].strip() if code == "invalid_language" else r[column]
                        for r in quarantined if r["task"] == task and code in r["reasons"].split(";"))
        top = sorted(found.items(), key=lambda item: (-item[1], item[0]))[:3]
        return " (" + ", ".join(f"'{value}' {n:,}" for value, n in top) + ")"

    lines = {}
    for task in tasks:
        statuses = [(status, reasons) for t, status, reasons in rows if t == task]
        if not statuses:
            continue
        rejected = [reasons for status, reasons in statuses if status == "rejected"]
        codes = Counter(code.strip() for reasons in rejected for code in reasons.split(";") if code.strip())
        share = len(rejected) / len(statuses)
        line = f"{task}: {len(rejected):,} of {len(statuses):,} rows rejected ({100 * share:.1f} %"
        if max_share is not None and len(rejected) > max_share * len(statuses):
            line += f", over the limit of {100 * max_share:.1f} %"
        line += ")"
        if codes:
            line += ": " + ", ".join(f"{code} {n:,}{values(task, code)}"
                                     for code, n in sorted(codes.items(), key=lambda c: (-c[1], c[0])))
        lines[task] = line
    return lines


def unlisted_ids(seeds: Path) -> dict[str, dict[str, int]]:
    """Annotator ids of the three export seeds that annotators.csv does not list: rows per task."""
    def rows(name: str) -> list[dict]:
        with open(seeds / name, newline="", encoding="utf-8-sig") as fh:
            return list(csv.DictReader(fh))

    listed = {r["annotator_id"].strip() for r in rows("annotators.csv")}
    out: dict[str, dict[str, int]] = defaultdict(Counter)
    for task in EXPORTS:
        for r in rows(f"{task}_annotations.csv"):
            annotator = (r["annotator_id"] or "").strip()
            if annotator and annotator not in listed:
                out[annotator][task] += 1
    return out


def _stripped_lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines()}


SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def runs(builds, tmp_path_factory):
    """The three builds, in order, each with (exit code, output, results, expected lines): the
    session's sample build, then two on a copy of it."""
    sample = builds.get("sample").check()
    results = json.loads((sample.project / "target" / "run_results.json").read_text())["results"]
    out = {"sample": (sample.returncode, sample.output, _by_name(results),
                      expected_lines(sample.db_path, EXPORTS + ["records"]))}
    project = Project(tmp_path_factory.mktemp("build_guards"), sample)

    (retrieval,) = list((project.path / "seeds").rglob("retrieval_annotations.csv"))
    text = retrieval.read_text(encoding="utf-8")
    assert text.count(f",{MISSPELLED[0]},") > 0
    retrieval.write_text(text.replace(f",{MISSPELLED[0]},", f",{MISSPELLED[1]},"), encoding="utf-8")
    code, text, results = project.build(["retrieval_annotations", "+" + UNLISTED_TEST],
                                        {"fail_on_unknown_annotators": True})
    out["misspelled_judge"] = (code, text, results, unlisted_ids(retrieval.parent))

    seed = project.annotators_seed()
    seed.write_text(seed.read_text(encoding="utf-8-sig").splitlines()[0] + "\n", encoding="utf-8")
    code, text, results = project.build(["annotators", "stg_annotation_exports__annotators", ANNOTATORS_TEST])
    out["no_annotators"] = (code, text, results, None)

    code, text, results = project.build([ANNOTATORS_TEST, SHARE_TEST],
                                        {"require_annotators": False, "max_rejected_share": 0.001})
    out["over_share"] = (code, text, results, expected_lines(project.db, EXPORTS, max_share=0.001))
    return out


def test_sample_passes_the_guards_and_warns_with_rows_per_reason(runs):
    code, text, results, lines = runs["sample"]
    assert code == 0, text[-4000:]
    assert results[SHARE_TEST]["status"] == "pass"
    assert results[ANNOTATORS_TEST]["status"] == "pass"
    warn = results[WARN_TEST]
    assert warn["status"] == "warn", warn
    # the failure count is the number of rejected rows, not the number of reason groups
    n_rejected = sum(int(line.split(": ")[1].split(" of ")[0].replace(",", "")) for line in lines.values())
    assert n_rejected > 0, lines
    assert warn["failures"] == n_rejected
    assert f"Got {n_rejected} results, configured to warn if != 0" in text
    assert f"ragmart: {n_rejected:,} rows rejected (the rows and their reasons are in rejected_annotations):" in text
    printed = _stripped_lines(text)
    for line in lines.values():
        assert line in printed, f"missing summary line:\n{line}\n\nin:\n{text[-6000:]}"


def test_sample_warns_of_the_annotator_ids_it_does_not_list(runs):
    """The sample's exports use t.grosse, whom annotators.csv does not list: a warning names the id
    with its rows per task (no listed id is close, so nothing is suggested); the build passes."""
    code, text, results, _ = runs["sample"]
    unlisted = unlisted_ids(Path(__file__).resolve().parents[2] / "seeds")
    assert set(unlisted) == {"t.grosse"}, unlisted
    assert code == 0 and results[UNLISTED_TEST]["status"] == "warn", results[UNLISTED_TEST]
    assert results[UNLISTED_TEST]["failures"] == sum(len(tasks) for tasks in unlisted.values())
    assert ("ragmart: 1 annotator id(s) of the exports are not in the annotators input; their rows count as"
            " HUMAN annotators") in text
    for annotator, tasks in unlisted.items():
        line = f"{annotator}: " + ", ".join(f"{task} {n:,} row(s)" for task, n in sorted(tasks.items()))
        assert line in _stripped_lines(text), f"missing line:\n{line}\n\nin:\n{text[-6000:]}"
    assert "fail_on_unknown_annotators: true" in text


def test_a_misspelled_judge_id_fails_the_build_under_the_var_naming_the_closest_id(runs):
    code, text, results, unlisted = runs["misspelled_judge"]
    assert code != 0, text[-4000:]
    assert results[UNLISTED_TEST]["status"] == "error", results[UNLISTED_TEST]
    message = results[UNLISTED_TEST]["message"]
    assert set(unlisted) == {"t.grosse", MISSPELLED[1]}, unlisted
    assert "ragmart: 2 annotator id(s) of the exports are not in the annotators input and the var" \
           " fail_on_unknown_annotators is true" in message
    typo = unlisted[MISSPELLED[1]]
    assert list(typo) == ["retrieval"] and typo["retrieval"] > 0
    assert f"{MISSPELLED[1]}: retrieval {typo['retrieval']:,} row(s); did you mean {MISSPELLED[0]}?" in message
    assert "t.grosse: " in message and "t.grosse: generation" in message and "did you mean" not in \
        next(line for line in message.splitlines() if "t.grosse" in line)


def test_empty_annotators_input_fails_the_build(runs):
    code, text, results, _ = runs["no_annotators"]
    assert code != 0, text[-4000:]
    assert results[ANNOTATORS_TEST]["status"] == "error", results[ANNOTATORS_TEST]
    message = results[ANNOTATORS_TEST]["message"]
    for part in ["ragmart: the annotators input is missing or empty (seeds mode: annotators.csv has no row), "
                 "but the exports have rows (retrieval ",
                 "every LLM and CODE judge would vote in the consensus as a human",
                 "the judge marts (judge_agreement, judge_weights, judge_metric_values) would be empty",
                 "require_annotators: false"]:
        assert part in message, message
        assert part in text


def test_require_annotators_false_allows_an_empty_annotators_input(runs):
    _, text, results, _ = runs["over_share"]
    assert results[ANNOTATORS_TEST]["status"] == "pass", text[-4000:]


def test_rejected_share_above_the_limit_fails_the_build_with_rows_per_reason(runs):
    code, text, results, lines = runs["over_share"]
    assert code != 0, text[-4000:]
    assert results[SHARE_TEST]["status"] == "error", results[SHARE_TEST]
    message = results[SHARE_TEST]["message"]
    over = [task for task, line in lines.items() if "over the limit" in line]
    assert over, lines
    assert (f"ragmart: too many rows rejected in {', '.join(over)}: more than max_rejected_share = 0.001 (0.1 %)"
            " of the export's rows.") in message
    for line in lines.values():
        assert line in _stripped_lines(message), f"missing summary line:\n{line}\n\nin:\n{message}"
    assert "raise the var max_rejected_share" in message
    assert "records:" not in message                    # the share is checked for the three exports only


@pytest.mark.parametrize("given, message", [
    ("ref('grounding_annotations')", "the retrieval input is read from"),
    ("none", "no relation given for the retrieval input"),
    ("ref('retrieval_annotations')", None),
])
def test_an_input_read_from_another_relation_stops_the_run(builds, tmp_path, given, message):
    """A model hands the relation it names for an input to the macros that read it: another
    input's seed, or none, stops the run with a message; the input's own seed compiles."""
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path)
    inline = f"select count(*) from {{{{ ragmart_input_relation('retrieval', {given}) }}}}"
    out = run_dbt(project, ["compile", "--quiet", "--inline", inline], env={"RAGMART_DUCKDB_PATH": sample.db_path.name})
    text = out.stdout + out.stderr
    if message is None:
        assert out.returncode == 0 and "retrieval_annotations" in text, text[-3000:]
    else:
        assert out.returncode != 0 and message in text, text[-3000:]


# (setting, value given, value the models get, or None; a part of the problem's text, or None)
SETTINGS_CASES = [
    ("retrieval_k_values", [5, 1, 3, 5], [1, 3, 5], None),
    ("retrieval_k_values", [], None, "must be a non-empty list of whole numbers >= 1, got []"),
    ("retrieval_k_values", "5", None, "must be a non-empty list of whole numbers >= 1, got 5"),
    ("retrieval_k_values", [1, 2.5], None, "must hold whole numbers >= 1, got 2.5"),
    ("retrieval_k_values", [True], None, "must hold whole numbers >= 1, got True"),
    ("accepted_languages", ["de", "hi"], ["de", "hi"], None),
    ("accepted_languages", "de", None, "must be a list of language codes, got de"),
    ("constraint_policy", "repair", "repair", None),
    ("constraint_policy", "fix", None, "must be 'reject' or 'repair', got 'fix'"),
    ("langfuse_run_field", "null", None, None),
    ("langfuse_run_field", "version", "version", None),
    ("langfuse_run_field", "tag", None, "must be 'release', 'version', 'environment' or null, got 'tag'"),
    ("fail_on_rejected", "True", True, None),
    ("fail_on_rejected", 0, False, None),
    ("require_annotators", False, False, None),
    ("fail_on_unknown_annotators", "y", None, "must be true or false, got y"),
    ("max_rejected_share", "0.2", 0.2, None),
    ("max_rejected_share", 1.5, None, "must be a number from 0 to 1 (a share of an export's rows), got 1.5"),
    ("max_rejected_share", True, None, "must be a number from 0 to 1"),
    ("max_rejected_share", "nan", None, "must be a number from 0 to 1"),
    ("max_permutation_rows", -1, None, "must be a number >= 0, got -1"),
    ("judge_min_kappa", 0.5, 0.5, None),
    ("gold_uncertainty_threshold", "high", None, "must be a number, got high"),
    ("score_threshold", None, None, None),
    ("score_threshold", "0.5", 0.5, None),
    ("comparison_permutations", "300", 300, None),
    ("comparison_permutations", 2.5, None, "must be a whole number >= 1 (the permutations of the run comparison), got 2.5"),
    ("comparison_permutations", 0, None, "must be a whole number >= 1"),
    ("default_run_id", " v1 ", "v1", None),
    ("default_run_id", 7, "7", None),
    ("default_run_id", "", None, "must be a non-empty text (the run of records without a run_id), got ''"),
    ("baseline_run_id", None, None, None),
    ("baseline_run_id", 7, "7", None),
    ("baseline_run_id", 1.1, None, "was read as the number 1.1, not as the run id as written"),
    ("comparison_pairs", [[1.1, "1.2"]], None, "has the run id 1.1 read as a number, not as written"),
    ("baseline_run_id", [], None, "must be a non-empty text (the run every other run is compared with, or null)"),
    ("comparison_pairs", [["a", " b "]], [["a", "b"]], None),
    ("comparison_pairs", [["a"]], None, "pairs of run ids (non-empty texts), got the item ['a']"),
    ("comparison_pairs", "a,b", None, "must be a list of [baseline, candidate] pairs of run ids, got a,b"),
    ("allow_empty_exports", ["grounding"], ["grounding"], None),
    ("allow_empty_exports", ["chunks"], None,
     "lists 'chunks', which is no export; the exports are retrieval, grounding, generation"),
    ("label_names", {"relevance": "topically_relevant"}, {"relevance": "topically_relevant"}, None),
    ("label_names", {"relevance": "relevant"}, None, "maps 'relevance' to 'relevant', which is not a label"),
    ("label_values", {"yes": 1}, None, "gives 'yes', which is already a boolean spelling"),
    ("label_values", {"ok": 2}, None, "maps 'ok' to 2; each spelling must map to 1 or 0"),
    ("label_values", {"chunk": {"a": 1}}, None, "gives a mapping under 'chunk', which is not a label"),
    ("label_values", [1], None, "must be a mapping of spellings to 1 or 0"),
    ("training_split_shares", {"train": 0.5, "validation": 0.25, "test": 0.25},
     {"train": 0.5, "validation": 0.25, "test": 0.25}, None),
    ("training_split_shares", {"train": 0.9, "validation": 0.2, "test": 0.1}, None, "must add up to 1"),
    ("training_split_shares", {"train": 1}, None, "must give the shares of train, validation and test"),
    ("training_split_shares", {"train": 1.2, "validation": 0, "test": 0}, None,
     "gives train = 1.2; a share is a number from 0 to 1"),
]


def test_every_setting_is_checked_by_its_rule(builds, tmp_path):
    """ragmart_checked_setting, the check behind every read of a setting, on good and bad values of
    each kind in one dbt call: the value the models get, or the message after the var's name."""
    project = builds.get("sample").check().copy(tmp_path)
    cases = json.dumps([[name, given] for name, given, _, _ in SETTINGS_CASES])
    inline = ("{%- for case in fromjson('" + cases.replace("'", "\\'") + "') %}"
              "{%- set checked = ragmart_checked_setting(case[0], case[1]) %}"
              "CASE {{ tojson([checked.value, checked.problem]) }}\n{% endfor %}")
    out = run_dbt(project, ["compile", "--quiet", "--inline", inline], env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
    answers = [json.loads(line[len("CASE "):]) for line in out.stdout.splitlines() if line.startswith("CASE ")]
    assert out.returncode == 0 and len(answers) == len(SETTINGS_CASES), (out.stdout + out.stderr)[-3000:]
    for (name, given, value, problem), (got_value, got_problem) in zip(SETTINGS_CASES, answers):
        if problem is None:
            assert got_problem is None and got_value == value, (name, given, got_value, got_problem)
        else:
            assert got_value is None and got_problem and problem in got_problem, (name, given, got_problem)


def test_label_values_are_read_per_label(builds, tmp_path):
    """label_values: the flat spellings apply to every label, a label's own win over them."""
    project = builds.get("sample").check().copy(tmp_path)
    given = {"Relevant": 1, "hallucinated": 0, "unsupported_claim_present": {"hallucinated": 1}}
    inline = ("{%- set checked = ragmart_checked_setting('label_values', fromjson('" + json.dumps(given) + "')) %}"
              "CASE {{ tojson(checked.value) }}")
    out = run_dbt(project, ["compile", "--quiet", "--inline", inline], env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
    line = next((x for x in out.stdout.splitlines() if x.startswith("CASE ")), None)
    assert line, (out.stdout + out.stderr)[-3000:]
    per_label = json.loads(line[len("CASE "):])
    assert per_label[""] == {"relevant": 1, "hallucinated": 0}
    assert per_label["unsupported_claim_present"] == {"relevant": 1, "hallucinated": 1}
    assert per_label["topically_relevant"] == {"relevant": 1, "hallucinated": 0}


def test_an_unknown_baseline_stops_the_build(builds, tmp_path):
    """A baseline_run_id or comparison_pairs run that the data does not have stops dbt (so make build
    publishes nothing) with a message naming the var, the run and the runs there are."""
    project = builds.get("sample").check().copy(tmp_path)
    out = run_dbt(project, ["test", "--select", "assert_compared_runs_exist", "--vars",
                            "{baseline_run_id: production, comparison_pairs: [[bot-v1, v3]]}"],
                  env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
    text = out.stdout + out.stderr
    assert out.returncode != 0, text[-3000:]
    assert ("var 'baseline_run_id' names the run 'production'; var 'comparison_pairs' names the run 'v3',"
            " which is not a run of the data; the runs are bot-v1, bot-v2") in text, text[-3000:]
