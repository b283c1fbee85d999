# ragmart: `make build` (set-up, seeds, models, tests, metrics table) and `make test` (everything CI checks).
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
DBT := $(BIN)/dbt
# The project as an absolute path, as plain `dbt build` in the project sees it: dbt keeps the
# project's path in its saved parse, so every dbt run here shares one partial parse.
DBT_ARGS := --project-dir $(CURDIR) --profiles-dir $(CURDIR)/profiles
export RAGMART_DUCKDB_PATH ?= ragmart.duckdb
export DBT_SEND_ANONYMOUS_USAGE_STATS := false
# Extra vars for dbt, e.g. make build VARS='{constraint_policy: repair}'
VARS ?= {}
# build and build-files hand VARS, INPUT and the folder make was run from to scripts/build.py as
# environment variables ($(value ...): as typed, `$` included), so no recipe pastes them into shell code.
export RAGMART_VARS = $(value VARS)
export RAGMART_INPUT = $(value INPUT)
export RAGMART_CALLER_DIR = $(or $(value PWD),$(CURDIR))
# make export: the folder for the Parquet and CSV files (empty: target/export of the project; a
# relative path is relative to the folder make was run from, as INPUT).
export RAGMART_EXPORT_DIR = $(value EXPORT_DIR)
# make report: the HTML file (empty: target/report.html of the project; a relative path is relative to
# the folder make was run from, as EXPORT_DIR).
export RAGMART_REPORT_FILE = $(value REPORT_FILE)
# An older DuckDB (requirements-compat.txt) in its own venv: dev/tests/test_bi_outputs.py opens the
# database with it to prove that DuckDB releases older than the one that wrote it can read it.
COMPAT_VENV ?= .venv-compat
export RAGMART_COMPAT_VENV = $(abspath $(COMPAT_VENV))
# The semantic layer's `mf` (dbt-metricflow, requirements-metricflow.txt) in its own venv:
# dev/tests/test_semantic_layer.py runs `mf validate-configs` and `mf query` from it (docs/reading.md,
# "Semantic layer").
METRICFLOW_VENV ?= .venv-metricflow
export RAGMART_METRICFLOW_VENV = $(abspath $(METRICFLOW_VENV))
# The datasets library (requirements-hf.txt) in its own venv: dev/tests/test_training.py loads the
# folder of `make export-hf` with it, offline.
HF_VENV ?= .venv-hf
export RAGMART_HF_VENV = $(abspath $(HF_VENV))
# make export-hf: the dataset folder (empty: target/hf of the project; a relative path is relative to
# the folder make was run from, as EXPORT_DIR).
export RAGMART_HF_DIR = $(value HF_DIR)
# make export-gold: the folder of the gold set's JSON lines (empty: target/gold of the project; a
# relative path is relative to the folder make was run from, as EXPORT_DIR).
export RAGMART_GOLD_DIR = $(value GOLD_DIR)
comma := ,

.PHONY: build build-files gate export export-hf export-gold report report-screenshot metricflow bench test test-quick test-engines lint dbt-build docs pytest clean help phoenix-fixtures mlflow-fixtures label-studio-fixtures langfuse-fixtures
# Engines besides DuckDB whose marts `make test` proves equal to DuckDB's (scripts/postgres.sh
# installs and starts a throwaway PostgreSQL); `make test ENGINES=` runs DuckDB only.
ENGINES ?= postgres
# The data sets `make test` compares on those engines (make test-engines compares them all).
ENGINE_DATA_SETS ?= sample,edge

help:
	@echo "make build   set up .venv, load the seeds, build every model with its data tests on DuckDB (no unit tests), print the metrics"
	@echo "make build-files INPUT=/path/to/exports   the same on a folder of export files (CSV or Parquet); with VARS='{input_format: phoenix}' and PHOENIX_SQL_DATABASE_URL set, Phoenix's database read in place (INPUT optional; likewise VARS='{input_format: mlflow}' and MLFLOW_BACKEND_STORE_URI)"
	@echo "make build-files INPUT=... FULL_REFRESH=1   read every file again (a build reads only the files the published database has not read)"
	@echo "make gate VARS='{baseline_run_id: prod}'   after a build: fail when a candidate is significantly worse than the production run (the printed verdict)"
	@echo "make export [EXPORT_DIR=folder]   write every public mart of ragmart.duckdb as Parquet and CSV (default: target/export)"
	@echo "make export-hf [HF_DIR=folder]   the training view (consensus labels as text/text_pair) as a Hugging Face dataset folder (default: target/hf)"
	@echo "make export-gold [GOLD_DIR=folder]   the gold tier's training pairs (ADR-001) as <family>.jsonl (default: target/gold)"
	@echo "make report [REPORT_FILE=file.html]   one self-contained HTML report of ragmart.duckdb's marts, opens offline (default: target/report.html)"
	@echo "make report-screenshot   docs/report.png, the README's picture of the sample's report (run make build first)"
	@echo "make test    sqlfluff + ruff beside pytest (the sample's full dbt build with unit tests, every test data set, dbt docs generate), marts proven equal on PostgreSQL (what CI runs)"
	@echo "make test-quick   while changing a model (about a minute): the sample's full dbt build with its unit tests, and the spec, structure, docs and row-rules checks on DuckDB"
	@echo "make test-engines   build the sample, edge-case and generated data on PostgreSQL and Spark and compare every public mart with DuckDB"
	@echo "make metricflow   set up .venv-metricflow, whose mf queries the semantic layer's metrics (docs/reading.md, Semantic layer)"
	@echo "make bench   generate 200k, 2M and 10M-row exports and measure dbt build against the floor query, and the run comparison against the rest of a two-run build, and daily builds of whole-history exports (docs/benchmarks.md; BENCH_ONLY=comparison or daily: that alone)"
	@echo "make clean   remove target/, logs/ and the DuckDB files (published, building, failed)"
	@echo "make phoenix-fixtures   set up .venv-phoenix and rewrite dev/tests/fixtures/phoenix with a local Arize Phoenix, on SQLite and on a throwaway PostgreSQL (dev/fixtures/make_phoenix_fixtures.py)"
	@echo "make mlflow-fixtures   set up .venv-mlflow and rewrite dev/tests/fixtures/mlflow with a local MLflow tracking server, on SQLite and on a throwaway PostgreSQL (dev/fixtures/make_mlflow_fixtures.py)"
	@echo "make label-studio-fixtures   set up .venv-label-studio and rewrite dev/tests/fixtures/label_studio with a local Label Studio (dev/fixtures/make_label_studio_fixtures.py)"
	@echo "make langfuse-fixtures   rewrite dev/tests/fixtures/langfuse from Langfuse's documented export layout (dev/fixtures/make_langfuse_fixtures.py; no server)"

# The venvs are filled by uv (requirements-uv.txt, the one package pip installs), a few times
# faster than pip with the same pinned packages. It compiles the bytecode at install time on
# purpose: with PYTHONDONTWRITEBYTECODE set (as on the CI machine) Python would otherwise compile
# dbt again in every process (3 s more per dbt run). uv reads no pip configuration (pip.conf,
# PIP_*): it installs from PyPI; behind a mirror or a proxy set UV_INDEX_URL, UV_FIND_LINKS or
# SSL_CERT_FILE.
PIP_INSTALL := -m pip install --quiet --disable-pip-version-check
UV := $(abspath $(BIN))/uv
UV_INSTALL = $(UV) pip install --quiet --compile-bytecode --python

$(BIN)/.uv-installed: requirements-uv.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python $(PIP_INSTALL) -r requirements-uv.txt
	@touch $@

$(BIN)/.runtime-installed: requirements.txt $(BIN)/.uv-installed
	$(UV_INSTALL) $(BIN)/python -r requirements.txt
	@touch $@

$(BIN)/.dev-installed: requirements-dev.txt $(BIN)/.runtime-installed
	$(UV_INSTALL) $(BIN)/python -r requirements-dev.txt
	@touch $@

$(COMPAT_VENV)/.compat-installed: requirements-compat.txt | $(BIN)/.uv-installed
	@test -x $(COMPAT_VENV)/bin/python || $(PYTHON) -m venv $(COMPAT_VENV)
	$(UV_INSTALL) $(COMPAT_VENV)/bin/python -r requirements-compat.txt
	@touch $@

$(HF_VENV)/.hf-installed: requirements-hf.txt | $(BIN)/.uv-installed
	@test -x $(HF_VENV)/bin/python || $(PYTHON) -m venv $(HF_VENV)
	$(UV_INSTALL) $(HF_VENV)/bin/python -r requirements-hf.txt
	@touch $@

$(METRICFLOW_VENV)/.metricflow-installed: requirements-metricflow.txt | $(BIN)/.uv-installed
	@test -x $(METRICFLOW_VENV)/bin/python || $(PYTHON) -m venv $(METRICFLOW_VENV)
	$(UV_INSTALL) $(METRICFLOW_VENV)/bin/python -r requirements-metricflow.txt
	@touch $@

# `mf` for the semantic layer: $(METRICFLOW_VENV)/bin/mf query ... (docs/reading.md, "Semantic layer").
metricflow: $(METRICFLOW_VENV)/.metricflow-installed

# after the dev requirements (order only): two installs into one venv must not run at once (make -j2)
$(BIN)/.postgres-installed: requirements-postgres.txt $(BIN)/.runtime-installed | $(BIN)/.dev-installed
	$(UV_INSTALL) $(BIN)/python -r requirements-postgres.txt
	@touch $@

$(BIN)/.spark-installed: requirements-spark.txt $(BIN)/.runtime-installed | $(BIN)/.dev-installed
	$(UV_INSTALL) $(BIN)/python -r requirements-spark.txt
	@touch $@

# Chromium for the report's browser test (dev/tests/test_report.py): Debian's package with a font,
# installed as root when the machine has no `chromium` (a fresh CI machine has none; about 20 s).
$(BIN)/.chromium-installed: | $(BIN)/.runtime-installed
	@command -v chromium >/dev/null || { \
		test "$$(id -u)" -eq 0 || { echo "chromium is not installed and this is not root: run 'apt-get install -y chromium' first" >&2; exit 1; }; \
		echo "installing Debian's chromium"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends chromium fonts-liberation || \
			{ apt-get update -q && apt-get install -y -q --no-install-recommends chromium fonts-liberation; }; }
	@touch $@

# Both build into a new file beside $(RAGMART_DUCKDB_PATH) and replace it only when everything passed
# (scripts/build.py --help).
build: $(BIN)/.runtime-installed
	$(BIN)/python scripts/build.py --vars="$$RAGMART_VARS"

# INPUT may be left out when PHOENIX_SQL_DATABASE_URL names Phoenix's database (VARS='{input_format: phoenix}'),
# or MLFLOW_BACKEND_STORE_URI MLflow's tracking store (VARS='{input_format: mlflow}').
build-files: $(BIN)/.runtime-installed
	@test -n "$$RAGMART_INPUT$$PHOENIX_SQL_DATABASE_URL$$MLFLOW_BACKEND_STORE_URI" || { echo "usage: make build-files INPUT=/path/to/exports, or with VARS='{input_format: phoenix}' set PHOENIX_SQL_DATABASE_URL to Phoenix's database (VARS='{input_format: mlflow}': MLFLOW_BACKEND_STORE_URI to MLflow's store; INPUT then optional)" >&2; exit 2; }
	$(BIN)/python scripts/build.py --input="$$RAGMART_INPUT" --relative-to="$$RAGMART_CALLER_DIR" --vars="$$RAGMART_VARS" $(if $(filter-out 0,$(FULL_REFRESH)),--full-refresh)

# The release gate: after build or build-files, reads the published database read-only and fails when a
# candidate is significantly worse than the production run, VARS='{baseline_run_id: prod}' (scripts/gate.py --help).
# make exits 2 for any failure; CI that must tell a regression (1) from a usage error (2) runs the script.
gate: $(BIN)/.runtime-installed
	$(BIN)/python scripts/gate.py --vars="$$RAGMART_VARS"

# Every public mart of the published database, read-only, as <mart>.parquet and <mart>.csv
# (scripts/export_marts.py --help).
export: $(BIN)/.runtime-installed
	$(BIN)/python scripts/export_marts.py --out="$$RAGMART_EXPORT_DIR" --relative-to="$$RAGMART_CALLER_DIR"

# The training view as a Hugging Face dataset folder (<family>/<split>-<digest>.parquet and a dataset
# card), from the published database, read-only (scripts/export_hf.py --help).
export-hf: $(BIN)/.runtime-installed
	$(BIN)/python scripts/export_hf.py --out="$$RAGMART_HF_DIR" --relative-to="$$RAGMART_CALLER_DIR"

# ADR-001's gold set: the training pairs of the gold tier as <family>.jsonl, from the published
# database, read-only (scripts/export_gold.py --help).
export-gold: $(BIN)/.runtime-installed
	$(BIN)/python scripts/export_gold.py --out="$$RAGMART_GOLD_DIR" --relative-to="$$RAGMART_CALLER_DIR"

# One self-contained HTML file (inline SVG charts, no script, no network) of the published database's
# marts, read-only (scripts/report.py --help).
report: $(BIN)/.runtime-installed
	$(BIN)/python scripts/report.py --out="$$RAGMART_REPORT_FILE" --relative-to="$$RAGMART_CALLER_DIR"

# docs/report.png, the README's picture of the report: the sample's report (make build first) as a
# headless Chromium shows it, the top 1280 x 2200 pixels.
report-screenshot: $(BIN)/.runtime-installed $(BIN)/.chromium-installed
	$(BIN)/python scripts/report.py --out=target/report-screenshot.html
	rm -rf target/chromium-profile
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir=target/chromium-profile --hide-scrollbars \
		--window-size=1280,2200 --screenshot=docs/report.png "file://$(abspath target/report-screenshot.html)"

# Sizes in retrieval rows, e.g. make bench BENCH_SIZES="200000 2000000"; BENCH_WORK is where the
# exports and databases go (about 8 GB at 10M rows); each dbt build also runs under DuckDB's
# memory_limit BENCH_MEMORY_LIMIT (empty: only the default limit). Then one build of a two-run export
# (10,000 queries in each run) measures the run comparison against the rest of that build;
# BENCH_ONLY=comparison measures only that, BENCH_ONLY=sizes everything but that.
BENCH_SIZES ?= 200000 2000000 10000000
BENCH_WORK ?= target/bench
BENCH_MEMORY_LIMIT ?= 3GB
BENCH_ONLY ?=
# the days of the daily scenario (dev/bench/daily.py: whole-history exports, BENCH_ONLY=daily: that alone)
BENCH_DAYS ?= 1 2 4 8 16 30
bench: $(BIN)/.dev-installed
	@if [ "$(BENCH_ONLY)" != daily ]; then $(BIN)/python dev/bench/benchmark.py --sizes $(BENCH_SIZES) \
		--work $(abspath $(BENCH_WORK)) $(if $(BENCH_MEMORY_LIMIT),--memory-limit $(BENCH_MEMORY_LIMIT)) \
		$(if $(BENCH_ONLY),--only $(BENCH_ONLY)); fi
	@if [ -z "$(BENCH_ONLY)" ] || [ "$(BENCH_ONLY)" = daily ]; then \
		$(BIN)/python dev/bench/daily.py --days $(BENCH_DAYS) --work $(abspath $(BENCH_WORK)); fi

# sqlfluff's processes: two finish `make lint` sooner (60 s against 88 s wall); beside pytest, which
# keeps both cores busy, `make test` runs one, which spends less CPU (88 s against 110 s: each
# process compiles the dbt project once).
# The staging folders of the tools (models/staging/phoenix, label_studio, langfuse, mlflow) are disabled
# under the default vars, which sqlfluff's dbt templater skips: each is linted again with the vars of
# its .sqlfluff-<tool> file, which enable it.
LINT_PROCESSES ?= 2
lint: $(BIN)/.dev-installed
	$(BIN)/ruff check scripts dev tests models
	$(BIN)/sqlfluff lint models macros tests --processes $(LINT_PROCESSES)
	$(BIN)/sqlfluff lint models/staging/phoenix --config .sqlfluff-phoenix
	$(BIN)/sqlfluff lint models/staging/label_studio --config .sqlfluff-label-studio
	$(BIN)/sqlfluff lint models/staging/langfuse --config .sqlfluff-langfuse
	$(BIN)/sqlfluff lint models/staging/mlflow --config .sqlfluff-mlflow

dbt-build: $(BIN)/.dev-installed
	$(DBT) build $(DBT_ARGS) --vars '$(VARS)'

docs: $(BIN)/.dev-installed
	$(DBT) docs generate $(DBT_ARGS)

# The test modules in two processes (pytest-xdist, a module's tests together); the kit builds each
# data set once for both (dev/tests/kit/builds.py). PYTEST_ARGS= runs them in one process; TESTS
# names the modules to run (all of dev/tests by default), e.g. TESTS=dev/tests/test_docs.py.
PYTEST_ARGS ?= -n 2 --dist loadfile
TESTS ?= dev/tests
pytest: $(BIN)/.dev-installed $(COMPAT_VENV)/.compat-installed $(METRICFLOW_VENV)/.metricflow-installed $(HF_VENV)/.hf-installed $(BIN)/.chromium-installed $(if $(filter postgres,$(subst $(comma), ,$(ENGINES))),$(BIN)/.postgres-installed)
ifneq ($(filter postgres,$(subst $(comma), ,$(ENGINES))),)
	RAGMART_ENGINES='$(ENGINES)' RAGMART_ENGINE_DATA_SETS='$(ENGINE_DATA_SETS)' \
		scripts/postgres.sh run $(BIN)/python -m pytest $(TESTS) -q $(PYTEST_ARGS)
else
	RAGMART_ENGINES='$(ENGINES)' RAGMART_ENGINE_DATA_SETS='$(ENGINE_DATA_SETS)' $(BIN)/python -m pytest $(TESTS) -q $(PYTEST_ARGS)
endif

# Every engine: the sample, the edge cases and a generated export built on PostgreSQL and Spark
# (session mode, Java 17) and every public mart compared with DuckDB's (dev/tests/engines).
test-engines: $(BIN)/.dev-installed $(BIN)/.postgres-installed $(BIN)/.spark-installed
	RAGMART_ENGINES=postgres,spark RAGMART_ENGINE_DATA_SETS= SPARK_LOCAL_IP=127.0.0.1 scripts/postgres.sh run \
		$(BIN)/python -m pytest dev/tests/engines -q -rs

# The sample's full `dbt build` (every data and unit test) and `dbt docs generate` run inside pytest
# (dev/tests/conftest.py builds every data set once, two at a time per pytest process); lint runs beside pytest.
test:
	$(MAKE) --no-print-directory -j2 --output-sync=target lint pytest LINT_PROCESSES=1

# The checks a change to a model breaks most often, on the sample alone: its full dbt build with
# every data and unit test, the task spec, the project's structure (with every tool's models
# enabled), the docs, the row rules, the generic tests, the intervals and the printed metrics;
# DuckDB only, no browser (docs/testing.md).
QUICK_TESTS := dev/tests/test_spec.py dev/tests/test_sample.py dev/tests/test_project_structure.py \
	dev/tests/test_docs.py dev/tests/test_row_rules.py dev/tests/test_generic_tests.py dev/tests/test_intervals.py \
	dev/tests/test_show_metrics.py dev/tests/test_protocol_page.py
test-quick: $(BIN)/.dev-installed
	RAGMART_ENGINES= $(BIN)/python -m pytest $(QUICK_TESTS) -q -n 2 --dist loadfile -m "not browser"

clean:
	rm -rf target logs $(RAGMART_DUCKDB_PATH) $(basename $(RAGMART_DUCKDB_PATH)).building-* $(basename $(RAGMART_DUCKDB_PATH)).lock \
		$(basename $(RAGMART_DUCKDB_PATH)).failed.duckdb $(basename $(RAGMART_DUCKDB_PATH)).unpublished.duckdb \
		$(basename $(RAGMART_DUCKDB_PATH)).build.json

# Arize Phoenix (requirements-phoenix.txt) in its own venv: dev/fixtures/make_phoenix_fixtures.py starts a
# local Phoenix (loopback only, a temporary database), sends traces and annotations of the sample and
# rewrites dev/tests/fixtures/phoenix from what Phoenix wrote; then the same to a Phoenix whose database
# is the throwaway PostgreSQL of scripts/postgres.sh, dumped with pg_dump. The tests read those committed files.
PHOENIX_VENV ?= .venv-phoenix

$(PHOENIX_VENV)/.phoenix-installed: requirements-phoenix.txt | $(BIN)/.uv-installed
	@test -x $(PHOENIX_VENV)/bin/python || $(PYTHON) -m venv $(PHOENIX_VENV)
	$(UV_INSTALL) $(PHOENIX_VENV)/bin/python -r requirements-phoenix.txt
	@touch $@

phoenix-fixtures: $(PHOENIX_VENV)/.phoenix-installed
	scripts/postgres.sh run $(PHOENIX_VENV)/bin/python dev/fixtures/make_phoenix_fixtures.py

# MLflow (requirements-mlflow.txt) in its own venv: dev/fixtures/make_mlflow_fixtures.py starts a local
# MLflow tracking server (loopback only, a temporary SQLite store), logs traces and feedback of the sample
# and rewrites dev/tests/fixtures/mlflow from what MLflow wrote; then the same to a server whose store is
# a database of the throwaway PostgreSQL of scripts/postgres.sh, dumped with pg_dump. The tests read those
# committed files.
MLFLOW_VENV ?= .venv-mlflow

$(MLFLOW_VENV)/.mlflow-installed: requirements-mlflow.txt | $(BIN)/.uv-installed
	@test -x $(MLFLOW_VENV)/bin/python || $(PYTHON) -m venv $(MLFLOW_VENV)
	$(UV_INSTALL) $(MLFLOW_VENV)/bin/python -r requirements-mlflow.txt
	@touch $@

mlflow-fixtures: $(MLFLOW_VENV)/.mlflow-installed
	scripts/postgres.sh run $(MLFLOW_VENV)/bin/python dev/fixtures/make_mlflow_fixtures.py

# Label Studio (requirements-label-studio.txt) in its own venv: dev/fixtures/make_label_studio_fixtures.py starts
# a local Label Studio (loopback only, a temporary SQLite database), has annotator accounts submit labels
# of the sample and rewrites dev/tests/fixtures/label_studio from Label Studio's exports (committed;
# test_label_studio.py reads them).
LABEL_STUDIO_VENV ?= .venv-label-studio

$(LABEL_STUDIO_VENV)/.label-studio-installed: requirements-label-studio.txt | $(BIN)/.uv-installed
	@test -x $(LABEL_STUDIO_VENV)/bin/python || $(PYTHON) -m venv $(LABEL_STUDIO_VENV)
	$(UV_INSTALL) $(LABEL_STUDIO_VENV)/bin/python -r requirements-label-studio.txt
	@touch $@

label-studio-fixtures: $(LABEL_STUDIO_VENV)/.label-studio-installed
	$(LABEL_STUDIO_VENV)/bin/python dev/fixtures/make_label_studio_fixtures.py

# Langfuse's blob-storage export cannot be written by a local Langfuse here (it needs ClickHouse, Redis
# and object storage): dev/fixtures/make_langfuse_fixtures.py writes the files from Langfuse's documented
# layout and field reference into dev/tests/fixtures/langfuse (committed; test_langfuse.py reads them).
langfuse-fixtures: $(BIN)/.dev-installed
	$(BIN)/python dev/fixtures/make_langfuse_fixtures.py
