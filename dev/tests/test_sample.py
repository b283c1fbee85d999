"""The sample (dev/generate/make_sample_seeds.py) against the reference implementation of the rules.

The sample maker builds every row with the status it is meant to end with and every record with
the tier it is meant for; it does not apply the rules itself. Without dbt, this module checks:

* the maker writes exactly the committed seeds/ (the checks below read what it writes, in a
  temporary folder);
* by the reference implementation (the reference package: its core,
  reference.agreement, reference.protocol), every row of the four exports ends with the status and reasons it was
  built for, under both constraint policies;
* every record is routed, per family, to the tier it was built for, and the sample serves the
  ADR-001 cases it is made for (15-25 % of the tier_b units with two votes disagree, in every
  family; the tier_a spot-checks drift in W13 and W14 only), under both policies;
* the block between EXPECTED-ROWS-BEGIN and EXPECTED-ROWS-END of docs/sample_data.md is the
  reference's counts followed by the maker's list of deliberately bad rows and tier fixtures (when
  it is not, the test writes the block as it should read to target/sample_data_expected.txt).

test_marts.py checks the dbt build of these seeds against the same reference.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import make_sample_seeds as S
import pytest
import reference as R
from export_schema import FILES, LABELS
from reference import protocol as P

PROJECT = Path(__file__).resolve().parents[2]
SEEDS = PROJECT / "seeds"
POLICIES = ("reject", "repair")
DRIFT_THRESHOLD = float(P.DEFAULTS["drift_disagreement_threshold"])
DRIFT_WEEKS = ("2025-W13", "2025-W14")
# the rules of reference.agreement.route in the order of the page's table (which shortens
# uncertainty and adversarial); "voters" (no records.csv row) splits into fb_dual and fb_single
SOURCES = ["explicit", "task_type", "uncertainty", "adversarial", "default", "fb_dual", "fb_single"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The folder the sample maker wrote its files to."""
    out = tmp_path_factory.mktemp("sample")
    assert S.main(["--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def sample():
    return S.build_sample()


@pytest.fixture(scope="module")
def refs(written):
    """The protocol reference (with the row and agreement references) of what the maker wrote."""
    return {policy: P.compute(written, constraint_policy=policy) for policy in POLICIES}


def multi_vote_units(pr: P.ProtocolReference, fam: str) -> tuple[dict, dict]:
    """({tier: [units with two or more votes, disagreeing]}, {ISO week: tier_a spot-checks}); a
    spot-checked unit counts in the week of its later vote."""
    agr = pr.agr
    multi = {"tier_a": [0, 0], "tier_b": [0, 0]}
    weeks = defaultdict(lambda: {"records": set(), "dis_records": set(), "units": 0, "dis_units": 0})
    for unit, votes in pr.voter_rows[fam].items():
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


def summary_lines(refs: dict, written: Path) -> list[str]:
    """The three count tables of docs/sample_data.md, from the reference."""
    rej, rep = refs["reject"].agr, refs["repair"].agr
    lines = [f"{'file':<28}{'rows':>6}{'accepted':>10}{'rejected':>10}{'superseded':>12}"
             f"{'acc/rej (repair)':>18}{'records':>9}{'pending':>9}"]
    for fam in S.FAMILIES:
        st, st2, recs = rej.ref.counts(fam), rep.ref.counts(fam), rej.ref.records[fam]
        pending = sum(not rec["resolved"] for rec in recs.values())
        repair = f"{st2['accepted']}/{st2['rejected']}"
        lines.append(f"{FILES[fam]:<28}{sum(st.values()):>6}{st['accepted']:>10}{st['rejected']:>10}"
                     f"{st['superseded']:>12}{repair:>18}{len(recs):>9}{pending:>9}")
    n_rows = len(R.read_csv(written / FILES["records"]))
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
        multi, weeks = multi_vote_units(refs["reject"], fam)
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


def test_sample_maker_writes_the_committed_seeds(written):
    committed = sorted(p.name for p in SEEDS.glob("*.csv"))
    assert sorted(p.name for p in written.glob("*.csv")) == committed
    for name in committed:
        assert (written / name).read_bytes() == (SEEDS / name).read_bytes(), f"{name} differs"


def test_every_row_ends_with_the_status_it_was_built_for(sample, refs):
    _, rows = sample
    for policy, pr in refs.items():
        agr = pr.agr
        for fam in S.FAMILIES:
            assert len(agr.ref.rows[fam]) == len(rows[fam]), (policy, fam)
            for built, got in zip(rows[fam], agr.ref.rows[fam], strict=True):
                want = built.expect if policy == "reject" else built.expect_repair or built.expect
                where = (policy, fam, built.fid or "(regular row)", built.record_key, got.line)
                if got.was_repaired and got.status == "accepted":
                    assert want[0] == "accepted" and want[1].startswith("was_repaired"), where
                else:
                    assert (got.status, got.reasons_text if got.status == "rejected" else "") == want, where
        # a records.csv row is accepted or rejected here: a superseded one (an agreeing duplicate)
        # would count as accepted, which the total below catches
        rejected = {line: ";".join(sorted(reasons)) for line, _, reasons in agr.records_rejected}
        for line, built in enumerate(rows["records"], 1):
            got = ("rejected", rejected[line]) if line in rejected else ("accepted", "")
            assert got == built.expect, (policy, "records", built.fid, built.record_key, line)
        assert len(agr.records) == sum(built.expect[0] == "accepted" for built in rows["records"])


def test_every_record_is_routed_to_the_tier_it_was_built_for(sample, refs):
    records, _ = sample
    for policy, pr in refs.items():
        for fam in S.FAMILIES:
            for r in records:
                assert pr.agr.tiers[fam][r.uuid] == S.designed_tier(r, fam), (policy, fam, r.key)
            multi, weeks = multi_vote_units(pr, fam)
            drift = {row["iso_week"]: row for row in pr.marts["labeling_drift"] if row["task"] == fam}
            # the weeks with spot-checks; the others (run bot-v2's week) have triage votes only
            assert {week: (w["units"], w["dis_units"]) for week, w in weeks.items()} == \
                {week: (row["n_spot_checked_units"], row["n_disagreeing_units"]) for week, row in drift.items()
                 if row["n_spot_checked_units"] > 0}
            assert all(row["n_triage_units"] > 0 for row in drift.values()), (policy, fam)
            n, disagree = multi["tier_b"]
            assert 0.15 <= disagree / n <= 0.25, (policy, fam, multi)
            assert list(weeks) == [f"2025-W{w}" for w in S.WEEKS], (policy, fam)
            for week, w in weeks.items():
                assert drift[week]["is_above_threshold"] == (week in DRIFT_WEEKS), (policy, fam, week)
                assert (len(w["dis_records"]) / len(w["records"]) > DRIFT_THRESHOLD) == (week in DRIFT_WEEKS), \
                    (policy, fam, week)


def test_sample_data_page_holds_the_expected_tables(sample, refs, written):
    """docs/sample_data.md's block is what the reference counts and the maker built."""
    records, rows = sample
    page = (PROJECT / "docs" / "sample_data.md").read_text(encoding="utf-8")
    block = page.split("EXPECTED-ROWS-BEGIN\n", 1)[1].split("\nEXPECTED-ROWS-END", 1)[0]
    expected = "\n".join(summary_lines(refs, written) + [""] + S.expected_lines(records, rows)).rstrip("\n")
    if block != expected:
        out = PROJECT / "target" / "sample_data_expected.txt"
        out.parent.mkdir(exist_ok=True)
        out.write_text(expected + "\n", encoding="utf-8")
        pytest.fail(f"docs/sample_data.md: the block between EXPECTED-ROWS-BEGIN and EXPECTED-ROWS-END is out of "
                    f"date; {out} holds it as it should read")
