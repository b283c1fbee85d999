# ragmart: `make build` (set-up, seeds, models, tests, metrics table) and `make test` (everything CI checks).
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
DBT := $(BIN)/dbt
DBT_ARGS := --project-dir . --profiles-dir profiles
export RAGMART_DUCKDB_PATH ?= ragmart.duckdb
export DBT_SEND_ANONYMOUS_USAGE_STATS := false
# Extra vars for dbt, e.g. make build VARS='{constraint_policy: repair}'
VARS ?= {}

.PHONY: build build-files bench test lint dbt-build docs pytest clean help

help:
	@echo "make build   set up .venv, load the seeds, build and test every model on DuckDB, print the metrics"
	@echo "make build-files INPUT=/path/to/exports   the same on a folder of export files (CSV or Parquet)"
	@echo "make test    sqlfluff + ruff, dbt build, dbt docs generate and pytest (what CI runs)"
	@echo "make bench   generate 200k, 2M and 10M-row exports and measure dbt build against the floor query (docs/benchmarks.md)"
	@echo "make clean   remove target/, logs/ and the DuckDB file"

$(BIN)/.runtime-installed: requirements.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

$(BIN)/.dev-installed: requirements-dev.txt $(BIN)/.runtime-installed
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

build: $(BIN)/.runtime-installed
	$(DBT) build $(DBT_ARGS) --vars '$(VARS)'
	$(BIN)/python scripts/show_metrics.py --database $(RAGMART_DUCKDB_PATH)

build-files: $(BIN)/.runtime-installed
	@test -n "$(INPUT)" || { echo "usage: make build-files INPUT=/path/to/exports" >&2; exit 2; }
	$(DBT) build $(DBT_ARGS) --exclude resource_type:seed --vars '{input_mode: files, input_path: "$(abspath $(INPUT))"}'
	$(BIN)/python scripts/show_metrics.py --database $(RAGMART_DUCKDB_PATH)

# Sizes in retrieval rows, e.g. make bench BENCH_SIZES="200000 2000000"
BENCH_SIZES ?= 200000 2000000 10000000
bench: $(BIN)/.dev-installed
	$(BIN)/python scripts/benchmark.py --sizes $(BENCH_SIZES)

lint: $(BIN)/.dev-installed
	$(BIN)/ruff check scripts tests
	$(BIN)/sqlfluff lint models macros tests --processes 2

dbt-build: $(BIN)/.dev-installed
	$(DBT) build $(DBT_ARGS) --vars '$(VARS)'

docs: $(BIN)/.dev-installed
	$(DBT) docs generate $(DBT_ARGS)

pytest: $(BIN)/.dev-installed
	$(BIN)/python -m pytest tests/python -q

test: lint dbt-build docs pytest

clean:
	rm -rf target logs $(RAGMART_DUCKDB_PATH)
