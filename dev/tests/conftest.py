"""The session's builds: the data sets, the scenarios built from them, and the ``builds`` fixture.

Scenarios (kit/builds.py builds each once per session, two at a time per process, starting as
soon as the tests are collected with those that the collected modules name in ``SCENARIOS_USED``):

* ``sample``       the project's own seeds, every model with every data and unit test (the
                   build that ``make test`` checks; skipped when the seeds are incomplete); the
                   only build that runs the unit tests, which do not read the data;
* ``edge``         fixtures/edge_cases (fixtures/make_edge_cases.py), with data tests;
* ``edge_repair``  the same with ``constraint_policy: repair``, with data tests;
* ``random``       generate.py output (fixed seed), non-default ``retrieval_k_values`` and
                   ``accepted_languages``, with data tests;
* ``edge_tokyo``   the edge cases with ``TZ=Asia/Tokyo``, models only: the marts must not depend
                   on the machine's time zone;
* ``agreement``    generate.agreement_scenario(): 1-4 voters per unit, rare and
                   perfect labels, every routing rule (models only);
* ``agreement_slices`` generate.agreement_slices_scenario(): agreement above target overall,
                   below it in one task type and one language (models only);
* ``judges``       generate.judges_scenario() with its vars (models only);
* ``query_groups`` generate.query_groups_scenario(): chained query ids and texts over three runs,
                   pairs of gold and triage units, with data tests (the training view);
* ``judge_powered`` generate.judge_powered_scenario(): runs with n human-labelled and N
                   judge-only records, a biased, a noisy, a useless and a constant judge (models only);
* ``sample_nojudges`` the sample without any row of an LLM / CODE annotator (models only);
* ``spot_checks``  generate.spot_check_scenario(): hundreds of triage records a week over eight
                   ISO weeks, planned weekly spot-checks, ties and adjudications, with data tests;
* ``spot_checks_quarter`` the same with a spot-check share of 0.25 and a minimum of 5 spot-checks
                   a week for an alert (models only).

A module may add its own with ``kit.builds.scenario`` and ``kit.builds.data_set`` (engines/
test_engines.py: the DuckDB builds, seeds loaded through agate, that the engines are compared with;
test_real_exports.py: a generated export in seeds mode and, in files mode, in the shapes real
tools write).
"""

from __future__ import annotations

import os
from pathlib import Path

# ranx and ppi_py, the independent references of test_ranx.py and test_judge_powered.py, compile
# their numba kernels at first use: about 30 s of CPU per process, where the same code run as
# plain Python takes a second on the suite's small inputs. Set before anything imports numba.
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")

import generate as G
import pytest
from kit.builds import PROJECT, SEED_FILES, BuildPool, data_set, project_seed_csvs, scenario

EDGE = PROJECT / "dev" / "tests" / "fixtures" / "edge_cases"
RANDOM_K = [1, 2, 5, 20]
RANDOM_LANGUAGES = ["de", "en", "it"]
RANDOM_MAX_PERMUTATION_ROWS = 300000


# --------------------------------------------------------------------------- data sets

@data_set("sample")
def _sample(_out: Path) -> None:
    missing = [f for f in SEED_FILES if f not in {p.name for p in project_seed_csvs()}]
    if missing:
        pytest.skip(f"the project's sample seeds are not there yet (missing {missing} in {PROJECT / 'seeds'})")


@data_set("edge")
def _edge(_out: Path) -> Path:
    return EDGE


@data_set("random")
def _random(out: Path) -> Path:
    return G.generate(out)


@data_set("query_groups")
def _query_groups(out: Path) -> Path:
    return G.query_groups_scenario(out)


@data_set("agreement")
def _agreement(out: Path) -> Path:
    return G.agreement_scenario(out)


@data_set("agreement_slices")
def _agreement_slices(out: Path) -> Path:
    return G.agreement_slices_scenario(out)


@data_set("judges")
def _judges(out: Path) -> Path:
    return G.judges_scenario(out)


@data_set("judge_powered")
def _judge_powered(out: Path) -> Path:
    return G.judge_powered_scenario(out)


@data_set("spot_checks")
def _spot_checks(out: Path) -> Path:
    return G.spot_check_scenario(out)


@data_set("sample_nojudges")
def _sample_without_judges(out: Path) -> Path:
    """The sample without the rows of LLM / CODE annotators in the three exports."""
    _sample(out)
    if not G.judge_ids(PROJECT / "seeds"):
        pytest.skip("the sample has no judge rows")
    return G.without_judges(PROJECT / "seeds", out)


# --------------------------------------------------------------------------- scenarios

# the hand-made edge cases reject far more than max_rejected_share of their rows, on purpose
scenario("sample", "sample", tests=True, unit_tests=True)
scenario("edge", "edge", {"max_rejected_share": 1}, tests=True)
scenario("edge_repair", "edge", {"constraint_policy": "repair", "max_rejected_share": 1}, tests=True,
         ref_kwargs={"constraint_policy": "repair"})
# max_permutation_rows: the overall slices of the run comparison take the normal approximation, the
# smaller language slices the permutation test (test_run_comparison.py)
scenario("random", "random", {"retrieval_k_values": RANDOM_K, "accepted_languages": RANDOM_LANGUAGES,
                              "max_permutation_rows": RANDOM_MAX_PERMUTATION_ROWS},
         tests=True, ref_kwargs={"k_values": RANDOM_K, "accepted_languages": RANDOM_LANGUAGES})
scenario("edge_tokyo", "edge", {"max_rejected_share": 1}, tz="Asia/Tokyo")
scenario("agreement", "agreement")
scenario("agreement_slices", "agreement_slices")
scenario("query_groups", "query_groups", {"accepted_languages": RANDOM_LANGUAGES}, tests=True,
         ref_kwargs={"accepted_languages": RANDOM_LANGUAGES})
scenario("judges", "judges", G.JUDGES_VARS)
scenario("sample_nojudges", "sample_nojudges")
scenario("judge_powered", "judge_powered")


scenario("spot_checks", "spot_checks", tests=True)
scenario("spot_checks_quarter", "spot_checks", {"spot_check_rate_target": 0.25, "drift_min_spot_checks": 5})


# --------------------------------------------------------------------------- fixtures and hooks

_POOL: list[BuildPool] = []


def _pool(config) -> BuildPool:
    if not _POOL:
        _POOL.append(BuildPool(config._tmp_path_factory))
    return _POOL[0]


def pytest_collection_finish(session):
    """Start the builds of the collected modules, in the order the tests first need them."""
    wanted: list[str] = []
    for item in session.items:
        for name in getattr(item.module, "SCENARIOS_USED", ()):
            if name not in wanted:
                wanted.append(name)
    if wanted and not session.config.option.collectonly:
        _pool(session.config).start(wanted)


@pytest.fixture(scope="session")
def builds(request):
    """The session's BuildPool: ``builds.get(name).check()`` is a built scenario."""
    return _pool(request.config)


@pytest.fixture(scope="session")
def random_seed_dir(builds):
    return builds.data_dir("random")


def pytest_sessionfinish(session):
    for pool in _POOL:
        pool.close()


def pytest_terminal_summary(terminalreporter):
    for pool in _POOL:
        for b in pool.finished():
            terminalreporter.write_line(
                f"ragmart build {b.name}: {b.seconds:.0f}s, error={b.error is not None}, "
                f"seed loader nulls={b.null_mode}, db={b.db_path}")
