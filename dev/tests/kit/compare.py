"""One way to compare mart rows with expected rows, and one failure format.

Rows are matched on key columns (a float key with an integer value is that integer, a zoned
timestamp is compared in UTC); every value column must be equal: nulls only equal nulls,
booleans, texts and dates exactly and by type, numbers to ``tol`` (absolute and relative), NaN
never.  Differences are listed as missing rows, unexpected rows, duplicate rows and differing
values, at most ``limit`` of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, date, datetime

TOL = 1e-9


def _norm(v):
    if isinstance(v, datetime) and v.tzinfo is not None:
        return v.astimezone(UTC).replace(tzinfo=None)
    return v


def same_value(a, b, tol: float = TOL) -> bool:
    a, b = _norm(a), _norm(b)
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (str, date)) or isinstance(b, (str, date)):
        return type(a) is type(b) and a == b
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return False
    return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)


def key_value(v):
    v = _norm(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v.isoformat() if isinstance(v, date) else v


def differences(expected: list[dict], got: list[dict], key_cols: list[str], val_cols: list[str], *,
                tol: float = TOL, hint: Callable | None = None) -> list[str]:
    """Every difference between the expected rows and the rows got, matched on ``key_cols``."""
    problems = []
    exp = {tuple(key_value(r.get(c)) for c in key_cols): r for r in expected}
    if len(exp) != len(expected):
        problems.append("duplicate keys in the expected rows")
    act: dict[tuple, dict] = {}
    for r in got:
        k = tuple(key_value(r.get(c)) for c in key_cols)
        if k in act:
            problems.append(f"duplicate row {dict(zip(key_cols, k))}")
        act[k] = r
    for k in sorted(set(exp) - set(act), key=str):
        problems.append(f"missing row {dict(zip(key_cols, k))}: expected { {c: exp[k].get(c) for c in val_cols} }")
    for k in sorted(set(act) - set(exp), key=str):
        problems.append(f"unexpected row {dict(zip(key_cols, k))}: got { {c: act[k].get(c) for c in val_cols} }")
    for k in sorted(set(exp) & set(act), key=str):
        for c in val_cols:
            if c not in act[k]:
                problems.append(f"{dict(zip(key_cols, k))}: no column {c}")
            elif not same_value(exp[k].get(c), act[k][c], tol):
                extra = hint(k, c, act[k]) if hint else ""
                problems.append(f"{dict(zip(key_cols, k))} {c}: expected {exp[k].get(c)!r}, "
                                f"got {act[k][c]!r}{extra}")
    return problems


def value_differences(where, want: dict, got: dict | None, source: str, target: str = "got", *,
                      tol: float = TOL) -> list[str]:
    """The values of ``want`` that the row ``got`` does not hold (to ``tol``), each as
    "<where> <column>: <source> <value>, <target> <value>"; no row at all (None) is one difference."""
    if got is None:
        return [f"missing row {where}"]
    return [f"{where}: no column {c}" if c not in got else f"{where} {c}: {source} {v!r}, {target} {got[c]!r}"
            for c, v in want.items() if c not in got or not same_value(v, got[c], tol)]


def fail_on(problems: list[str], name: str, what: str, limit: int = 40) -> None:
    """Fails the calling test with the differences, if any."""
    import pytest

    if problems:
        more = f"\n  ... and {len(problems) - limit} more" if len(problems) > limit else ""
        pytest.fail(f"[{name}] {what}: {len(problems)} difference(s):\n  "
                    + "\n  ".join(problems[:limit]) + more)


def assert_same_rows(name: str, mart: str, key_cols: list[str], val_cols: list[str], expected: list[dict],
                     got: list[dict], *, tol: float = TOL, hint: Callable | None = None) -> None:
    """Fails the calling test with every difference between the expected rows and the rows got."""
    fail_on(differences(expected, got, key_cols, val_cols, tol=tol, hint=hint), name, mart)


def assert_has_columns(name: str, mart: str, table: tuple[list[str], list] | None, expected) -> None:
    """The build ``name`` wrote ``mart`` (``table``: its columns and rows, None when absent) with
    every column of ``expected``."""
    assert table is not None, f"[{name}] mart {mart} not found"
    missing = [c for c in expected if c not in table[0]]
    assert not missing, f"[{name}] {mart} lacks {missing} (has {list(table[0])})"
