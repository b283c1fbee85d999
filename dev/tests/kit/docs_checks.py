"""The documentation checks of `make test`, as functions over a build's manifest and tables, so
that test_docs.py runs them on the sample and test_extending.py on a copy of the project that
followed docs/extending.md. Each returns the problems it found, one line each."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb


def table_columns(database: Path) -> dict[str, list[str]]:
    """Every table's and view's columns in the build's database, in order."""
    with duckdb.connect(str(database), read_only=True) as con:
        rows = con.execute(
            "select table_name, column_name from information_schema.columns order by table_name, ordinal_position"
        ).fetchall()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return out


def project_nodes(manifest: dict, resource_type: str) -> list[dict]:
    return [n for n in manifest["nodes"].values()
            if n["resource_type"] == resource_type and n["package_name"] == "ragmart"]


def undocumented_model_columns(manifest: dict, columns: dict[str, list[str]]) -> list[str]:
    """Models without a description, and columns of a built model missing from its YAML (or in
    its YAML and not in the table)."""
    problems = []
    for node in project_nodes(manifest, "model"):
        name = node["name"]
        if not node["description"].strip():
            problems.append(f"model {name} has no description")
        documented = {c: v["description"].strip() for c, v in node["columns"].items()}
        actual = columns.get(name)
        if actual is None:
            problems.append(f"model {name} was not built")
            continue
        for column in actual:
            if column not in documented:
                problems.append(f"{name}.{column} is not documented")
            elif not documented[column]:
                problems.append(f"{name}.{column} has an empty description")
        for column in documented:
            if column not in actual:
                problems.append(f"{name}.{column} is documented but not in the table")
    return problems


def undocumented_seed_columns(manifest: dict, columns: dict[str, list[str]]) -> list[str]:
    problems = []
    for node in project_nodes(manifest, "seed"):
        if not node["description"].strip():
            problems.append(f"seed {node['name']} has no description")
        for column in columns[node["name"]]:
            if not node["columns"].get(column, {}).get("description", "").strip():
                problems.append(f"seed column {node['name']}.{column} is not documented")
    return problems


def undocumented_macros(manifest: dict) -> list[str]:
    """Macros without a description, and arguments of their signature without one."""
    problems = []
    for macro in (m for m in manifest["macros"].values() if m["package_name"] == "ragmart"):
        if not macro["description"].strip():
            problems.append(f"macro {macro['name']} has no description")
            continue
        match = re.search(r"\{%-?\s*(?:macro|test)\s+\w+\s*\(([^)]*)\)", macro["macro_sql"])
        signature = [a.split("=")[0].strip() for a in match.group(1).split(",") if a.strip()] if match else []
        documented = {a["name"]: a.get("description", "").strip() for a in macro.get("arguments", [])}
        for argument in signature:
            if argument in ("model", "column_name") and macro["name"].startswith("test_"):
                continue
            if not documented.get(argument):
                problems.append(f"macro {macro['name']}: argument {argument} is not documented")
    return problems
