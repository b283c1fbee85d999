"""The fixture scripts of the tools (dev/fixtures/make_phoenix_fixtures.py,
dev/fixtures/make_label_studio_fixtures.py) stay runnable without their tools: they import in the
project's venv (a tool's packages are imported only where the tool runs), send the labels of the
task spec, and choose from today's sample exactly the records their committed fixtures hold, so
that regenerating the fixtures reproduces the rows the adapter tests expect."""

from __future__ import annotations

import json
from pathlib import Path

import make_label_studio_fixtures
import make_phoenix_fixtures
import pytest
from export_schema import FILES, LABELS, SPEC, TASKS
from fixture_sample import FAMILIES, chosen_sample

FIXTURES = Path(__file__).parent / "fixtures"
SCRIPTS = {"phoenix": (make_phoenix_fixtures, "trace_id"), "label_studio": (make_label_studio_fixtures, "uuid")}


def test_the_families_are_the_task_spec():
    assert list(FAMILIES) == list(TASKS)
    for task in TASKS:
        file_name, labels = FAMILIES[task]
        assert file_name == FILES[task]
        assert list(labels) == LABELS[task] + list(SPEC[task]["optional_booleans"])


@pytest.mark.parametrize("tool", SCRIPTS)
def test_the_script_chooses_the_records_of_its_fixtures(tool, tmp_path):
    script, record_id = SCRIPTS[tool]
    out, _, chosen = chosen_sample(["--out", str(tmp_path)], script.__doc__, script.DEFAULT_OUT, script.RUNS,
                                   script.QUERIES, script.features, script.WANTED)
    assert out == tmp_path
    committed = json.loads((FIXTURES / tool / "manifest.json").read_text(encoding="utf-8"))["records"]
    assert [{"record_uuid": getattr(record, record_id), "run_id": record.run_id, "query_id": record.query_id}
            for record in chosen] == committed
    for folder in {path.parent for path in (FIXTURES / tool).rglob("records.csv")}:
        lines = (folder / "records.csv").read_text(encoding="utf-8").splitlines()
        assert lines == ["record_uuid,run_id,query_id"] + [",".join(row.values()) for row in committed]
