"""The sample (scripts/make_sample_seeds.py) against the reference implementation of the rules.

The sample maker builds every row with the status it is meant to end with and every record with
the tier it is meant for; it does not apply the rules itself. Without dbt, this module checks:

* the maker writes exactly the committed seeds/;
* by the reference implementation (reference.py, agreement_reference.py,
  protocol_reference.py), every row of the four exports ends with the status and reasons it was
  built for, under both constraint policies;
* every record is routed, per family, to the tier it was built for, and the sample serves the
  ADR-001 cases it is made for (15-25 % of the tier_b units with two votes disagree, in every
  family; the tier_a spot-checks drift in W13 and W14 only), under both policies;
* the block between EXPECTED-ROWS-BEGIN and EXPECTED-ROWS-END of docs/sample_data.md is the
  reference's counts followed by the maker's list of deliberately bad rows and tier fixtures.

test_reference.py checks the dbt build of these seeds against the same reference.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import agreement_reference as A
import make_sample_seeds as S
import protocol_reference as P
import pytest
from export_schema import FILES, LABELS

PROJECT = Path(__file__).resolve().parents[2]
SEEDS = PROJECT / "seeds"
POLICIES = ("reject", "repair")
DRIFT_THRESHOLD = 0.12   # var drift_disagreement_threshold
DRIFT_WEEKS = ("2025-W13", "2025-W14")
# the tier rules of agreement_reference.route, as the page's table names them
SOURCES = ["explicit", "task_type", "uncertainty", "adversarial", "default", "fb_dual", "fb_single"]


@pytest.fixture(scope="module")
def sample():
    return S.build_sample()


@pytest.fixture(scope="module")
def refs():
    return {policy: A.compute(SEEDS, constraint_policy=policy) for policy in POLICIES}


def multi_vote_units(agr: A.AgreementReference, fam: str) -> tuple[dict, dict]:
    """({tier: [units with two or more votes, disagreeing]}, {ISO week: tier_a spot-checks}); a
    spot-checked unit counts in the week of its later vote."""
    multi = {"tier_a": [0, 0], "tier_b": [0, 0]}
    weeks = defaultdict(lambda: {"records": set(), "dis_records": set(), "units": 0, "dis_units": 0})
    for unit, votes in P.voter_rows(agr.ref, agr, fam).items():
        if len(votes) < 2:
            continue
        tier = agr.tiers[fam][unit[0]]
        disagree = len({tuple(r.labels[c] for c in LABELS[fam]) for r in votes.values()}) > 1
        multi[tier][0] += 1
        multi[tier][1] += disagree
        if tier == "tier_a":
            w = weeks[P.iso_week(max(r.instant for r in votes.values()))[0]]
            w["records"].add(unit[0])
            w["units"] += 1
            if disagree:
                w["dis_records"].add(unit[0])
                w["dis_units"] += 1
    return multi, dict(sorted(weeks.items()))


def summary_lines(refs: dict) -> list[str]:
    """The three count tables of docs/sample_data.md, from the reference."""
    rej, rep = refs["reject"], refs["repair"]
    lines = [f"{'file':<28}{'rows':>6}{'accepted':>10}{'rejected':>10}{'superseded':>12}"
             f"{'acc/rej (repair)':>18}{'records':>9}{'pending':>9}"]
    for fam in S.FAMILIES:
        st, st2, recs = rej.ref.counts(fam), rep.ref.counts(fam), rej.ref.records[fam]
        pending = sum(not rec["resolved"] for rec in recs.values())
        repair = f"{st2['accepted']}/{st2['rejected']}"
        lines.append(f"{FILES[fam]:<28}{sum(st.values()):>6}{st['accepted']:>10}{st['rejected']:>10}"
                     f"{st['superseded']:>12}{repair:>18}{len(recs):>9}{pending:>9}")
    n_rows = len(A.R.read_csv(SEEDS / FILES["records"]))
    acc, nrej = len(rej.records), len(rej.records_rejected)
    lines.append(f"{FILES['records']:<28}{n_rows:>6}{acc:>10}{nrej:>10}{n_rows - acc - nrej:>12}"
                 f"{f'{acc}/{nrej}':>18}{acc:>9}")
    lines += [f"{FILES['annotators']:<28}{len(rej.ref.annotators):>6}", "",
              "Tiers (records with an accepted HUMAN row per family; rule that decided; units with "
              "two or more votes / disagreeing):",
              f"{'family':<12}{'tier_a':>7}{'tier_b':>7}"
              + "".join(f"{s:>10}" for s in ["explicit", "task_type", "uncert", "advers", "default",
                                               "fb_dual", "fb_single"])
              + f"{'b_units':>9}{'b_disagree':>11}{'a_units':>9}{'a_disagree':>11}"]
    spot = []
    for fam in S.FAMILIES:
        tiers = {rid: rej.tiers[fam][rid] for rid in rej.ref.records[fam]}
        rules = Counter(rej.tier_reason[fam][rid] if rej.tier_reason[fam][rid] != "voters"
                        else "fb_dual" if tier == "tier_b" else "fb_single" for rid, tier in tiers.items())
        assert set(rules) <= set(SOURCES), rules
        tier_count = Counter(tiers.values())
        multi, weeks = multi_vote_units(rej, fam)
        lines.append(f"{fam:<12}{tier_count['tier_a']:>7}{tier_count['tier_b']:>7}"
                     + "".join(f"{rules[s]:>10}" for s in SOURCES)
                     + f"{multi['tier_b'][0]:>9}{multi['tier_b'][1]:>11}"
                     f"{multi['tier_a'][0]:>9}{multi['tier_a'][1]:>11}")
        for week, w in weeks.items():
            share = w["dis_units"] / w["units"]
            spot.append(f"{fam:<12}{week:<10}{len(w['records']):>8}{len(w['dis_records']):>10}"
                        f"{w['units']:>7}{w['dis_units']:>10}{share:>8.3f}"
                        + ("  yes" if share > DRIFT_THRESHOLD else ""))
    return lines + ["", "Tier_a spot-checks per ISO week (week of the later vote; drift when the share "
                    f"of disagreeing units > {DRIFT_THRESHOLD}):",
                    f"{'family':<12}{'week':<10}{'records':>8}{'disagree':>10}{'units':>7}"
                    f"{'disagree':>10}{'share':>8}  drift", *spot]


def test_sample_maker_writes_the_committed_seeds(tmp_path):
    assert S.main(["--out", str(tmp_path), "--quiet"]) == 0
    committed = sorted(p.name for p in SEEDS.glob("*.csv"))
    assert sorted(p.name for p in tmp_path.glob("*.csv")) == committed
    for name in committed:
        assert (tmp_path / name).read_bytes() == (SEEDS / name).read_bytes(), f"{name} differs"


def test_every_row_ends_with_the_status_it_was_built_for(sample, refs):
    _, rows = sample
    for policy, agr in refs.items():
        for fam in S.FAMILIES:
            assert len(agr.ref.rows[fam]) == len(rows[fam]), (policy, fam)
            for built, got in zip(rows[fam], agr.ref.rows[fam], strict=True):
                want = built.expect if policy == "reject" else built.expect_repair or built.expect
                where = (policy, fam, built.fid or "(regular row)", built.record_key, got.line)
                if got.was_repaired and got.status == "accepted":
                    assert want[0] == "accepted" and want[1].startswith("was_repaired"), where
                else:
                    assert (got.status, got.reasons_text if got.status == "rejected" else "") == want, where
        rejected = {line: ";".join(sorted(reasons)) for line, _, reasons in agr.records_rejected}
        for line, built in enumerate(rows["records"], 1):
            got = ("rejected", rejected[line]) if line in rejected else ("accepted", "")
            assert got == built.expect, (policy, "records", built.fid, built.record_key, line)
        assert len(agr.records) == sum(built.expect[0] == "accepted" for built in rows["records"])


def test_every_record_is_routed_to_the_tier_it_was_built_for(sample, refs):
    records, _ = sample
    for policy, agr in refs.items():
        for fam in S.FAMILIES:
            for r in records:
                assert agr.tiers[fam][r.uuid] == S.designed_tier(r, fam), (policy, fam, r.key)
            multi, weeks = multi_vote_units(agr, fam)
            n, disagree = multi["tier_b"]
            assert 0.15 <= disagree / n <= 0.25, (policy, fam, multi)
            assert list(weeks) == [f"2025-W{w}" for w in S.WEEKS], (policy, fam)
            for week, w in weeks.items():
                drift = week in DRIFT_WEEKS
                assert (w["dis_units"] / w["units"] > DRIFT_THRESHOLD) == drift, (policy, fam, week)
                assert (len(w["dis_records"]) / len(w["records"]) > DRIFT_THRESHOLD) == drift, \
                    (policy, fam, week)


def test_sample_data_page_holds_the_expected_tables(sample, refs):
    """docs/sample_data.md's block is what the reference counts and the maker built (on failure,
    the assertion's diff is the text to paste between the markers)."""
    records, rows = sample
    page = (PROJECT / "docs" / "sample_data.md").read_text(encoding="utf-8")
    block = page.split("EXPECTED-ROWS-BEGIN\n", 1)[1].split("\nEXPECTED-ROWS-END", 1)[0]
    assert block == "\n".join(summary_lines(refs) + [""] + S.expected_lines(records, rows)).rstrip("\n")
