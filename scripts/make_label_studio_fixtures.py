#!/usr/bin/env python3
"""Write the Label Studio fixtures: every export of three small projects, made by a real Label Studio.

`make label-studio-fixtures` runs this script with .venv-label-studio (requirements-label-studio.txt:
label-studio and label-studio-sdk, pinned exactly); the project's normal test run does not need Label
Studio, it reads the files this script leaves in tests/python/fixtures/label_studio (the default of --out).

What it does:

1. Starts `label-studio start` (python -m label_studio.server) from this interpreter as a subprocess:
   LABEL_STUDIO_BASE_DATA_DIR and --data-dir a new temporary folder (so a new SQLite database,
   DJANGO_DB=sqlite), the web server bound to 127.0.0.1 (--internal-host; Label Studio binds 0.0.0.0
   unless told) on a free port, Sentry (SENTRY_DSN, FRONTEND_SENTRY_DSN empty), COLLECT_ANALYTICS and
   LATEST_VERSION_CHECK off, sign-up only through the organization's invite link
   (DISABLE_SIGNUP_WITHOUT_LINK). The first user, admin@ragmart.example, comes from LABEL_STUDIO_USERNAME
   and LABEL_STUDIO_PASSWORD (a random password) and owns the organization. The script checks that every
   socket the server listens on is a loopback one before it sends anything, and always stops the server
   (SIGINT, then SIGTERM/SIGKILL when it hangs).
2. Every user gets its API key as a user does in the UI (Account & Settings, Personal Access Token):
   log in (the admin: the /user/login/ form) or sign up (the annotators: the /user/signup/?token=<invite
   token> form, the token from GET /api/invite), then POST /api/token/ with that session makes a
   personal access token (a JWT refresh token) and POST /api/token/refresh/ trades it for an access token
   sent as `Authorization: Bearer ...` (legacy `Token` keys are off by default in this version).
   Annotators set their display name with PATCH /api/users/<id>.
3. Picks records of the project's sample (seeds/*.csv): queries answered in both runs (bot-v1 and bot-v2)
   whose two records have rows in all three export families and chunk ranks 1..n; from those, greedily,
   the query that brings the most not yet covered (LLM and CODE annotators, both languages, a grounding
   row of the adjudicator, an empty value, a value that is not a boolean, a resubmission of a unit by the
   same annotator), ties to the fewest seed rows, then query_id, until all is covered; then the queries
   with the fewest seed rows (ties in query_id order), until QUERIES queries (2 records each) are chosen,
   to keep the fixtures small; the records are listed by query_id, then run.
4. Creates the projects ragmart-retrieval, ragmart-grounding and ragmart-generation (POST /api/projects):
   a Text tag per text column ($-variables of the task data), one single Choices control (Yes/No) per
   label named like the label (retrieval also can_answer) and a TextArea `notes`. Imports their tasks
   (POST /api/projects/<id>/import): retrieval one per (record, chunk), grounding and generation one per
   record, with the seeds' columns as task data (record_uuid, chunk_id, chunk_rank, texts, language). The
   grounding tasks also carry a data key `notes` (the record's task_type), the name of a control: the
   CSV/TSV exports then call the data column `_data_notes` (only because some annotation of the export
   answered `notes`: the rename is decided over the whole export), and JSON_MIN writes the annotation's
   `notes` over the data's in the rows that answered it.
5. Signs up one account per HUMAN annotator of the chosen rows (<annotator_id>@ragmart.example) and sends
   their rows in created_at order (rows whose created_at does not parse first, then family and file
   order), each with the annotator's own token: POST /api/tasks/<id>/annotations (the first row of a unit)
   or PATCH /api/annotations/<id> (a later row of the same annotator and task: a resubmission in place,
   created_at stays, updated_at moves). Values: boolean-like (docs/rules.md) 1 -> "Yes", 0 -> "No"; empty
   -> the control unanswered (no result item); any other value is sent as its trimmed text as the choice
   (Label Studio stores a choice outside the config as it is); a non-blank `notes` -> the TextArea.
   lead_time is the seconds since the annotator's previous row when that is at most 10 minutes (else
   none). Besides the sample: one annotation sends two choices for one single-choice control
   (MULTI_CHOICE), the adjudicator's first grounding annotation is sent with ground_truth true, and the
   adjudicator skips one generation task (was_cancelled true, empty result). LLM and CODE rows become
   predictions (POST /api/predictions with the admin's token, model_version = annotator_id; a later row
   of the same judge and task updates it: PATCH /api/predictions/<id>).
6. Downloads each project's exports as the UI does (GET /api/projects/<id>/export?exportType=JSON,
   JSON_MIN, CSV, TSV: tasks with at least one annotation) and a snapshot export as the SDK makes it
   (label_studio_sdk projects.exports.create with every annotation, full predictions, drafts and
   completed_by users, then projects.exports.download, JSON), and writes into --out one folder per export
   type: json/<family>_export.json, json_min/<family>_export_min.json, csv/<family>_export.csv,
   tsv/<family>_export_tsv.csv (Label Studio names a TSV download .csv) and snapshot/<family>_snapshot.json,
   each file as Label Studio sent it; beside them in each folder annotators.csv (annotator_id = the
   Label Studio user id as the exports show it, or a prediction's model_version; kind and role from
   seeds/annotators.csv) and records.csv (record_uuid, run_id, query_id); and manifest.json (versions,
   chosen records, users, the cases above, counts per export, the date).

Label Studio stamps ids in creation order (a new database each run, so the same from one run to the
next) and times of its own (created_at, updated_at: now); those times, the export file names Label
Studio proposes and the manifest's date change from one run to the next, nothing else.

Usage (from the project root; `make label-studio-fixtures` does this):
    .venv-label-studio/bin/python scripts/make_label_studio_fixtures.py [--out tests/python/fixtures/label_studio]
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import platform
import secrets
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from export_data import read_boolean, read_rank, read_timestamp
from fixture_sample import (
    FAMILIES,
    FixtureError,
    LocalServer,
    SampleRecord,
    annotated_rows,
    chosen_sample,
    kind_of,
    publish,
    run,
    version,
    write_side_files,
)

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = "tests/python/fixtures/label_studio"

RUNS = ("bot-v1", "bot-v2")
QUERIES = 6  # two records each: 12 records
EMAIL_DOMAIN = "ragmart.example"
ADMIN_EMAIL = f"admin@{EMAIL_DOMAIN}"
ADJUDICATOR = "m.koenig"
# One annotation sends two choices for this single-choice control (the first grounding row of a
# HUMAN annotator, not the adjudicator, whose labels are all boolean-like and that is not resubmitted).
MULTI_CHOICE = ("grounding", "support_present", ("Yes", "No"))
LEAD_TIME_LIMIT = 600.0  # seconds

# Per family: the Text tags (name = the data key shown) and the one the controls point to.
TEXTS = {
    "retrieval": ("input_query", "generated_search_query", "doc_id", "chunk"),
    "grounding": ("query", "answer", "context_set"),
    "generation": ("query", "answer"),
}
TO_NAME = {"retrieval": "chunk", "grounding": "answer", "generation": "answer"}
# The data key named like a control (CSV/TSV exports rename it _data_<key>).
COLLIDING_DATA_KEY = ("grounding", "notes")
# export type -> (folder, file name pattern)
EXPORTS = {
    "JSON": ("json", "{family}_export.json"),
    "JSON_MIN": ("json_min", "{family}_export_min.json"),
    "CSV": ("csv", "{family}_export.csv"),
    "TSV": ("tsv", "{family}_export_tsv.csv"),
    "SNAPSHOT": ("snapshot", "{family}_snapshot.json"),
}
# Settings Label Studio reads from the environment (as LABEL_STUDIO_<name>, HEARTEX_<name> or <name>)
# that must not leak in from the caller's.
SERVER_SETTINGS = (
    "USERNAME", "PASSWORD", "USER_TOKEN", "HOST", "PORT", "DEBUG", "LOG_LEVEL", "BASE_DATA_DIR", "DJANGO_DB",
    "DATABASE_NAME", "SECRET_KEY", "ENABLE_LEGACY_API_TOKEN",
)


# --------------------------------------------------------------------------------------------- seeds


def unit_of(family: str, row: dict[str, str]) -> tuple[str, str, str]:
    """The task a row belongs to: (family, record_uuid, chunk_id or '')."""
    return (family, row["record_uuid"].strip(), row["chunk_id"].strip() if family == "retrieval" else "")


def features(record: SampleRecord, annotators: dict[str, dict[str, str]]) -> set[str]:
    found: set[str] = set()
    seen: set[tuple] = set()
    for family, labels, row, annotator_id, kind in annotated_rows(record, annotators):
        found.add("kind:" + kind)
        if annotator_id == ADJUDICATOR:
            found.add("adjudicator:" + family)
        if row["language"].strip():
            found.add("language:" + row["language"].strip())
        if kind == "HUMAN":
            if any(not row[label].strip() for label in labels):
                found.add("empty_value")
            if any(row[label].strip() and read_boolean(row[label]) is None for label in labels):
                found.add("invalid_value")
            if (annotator_id, unit_of(family, row)) in seen:
                found.add("resubmission")
        seen.add((annotator_id, unit_of(family, row)))
    return found


# The features the chosen queries must show between them.
WANTED = {
    "kind:LLM", "kind:CODE", "kind:HUMAN", "language:de", "language:en", "adjudicator:grounding", "empty_value",
    "invalid_value", "resubmission",
}


# -------------------------------------------------------------------------------------------- server


class LabelStudioServer(LocalServer):
    """`label-studio start` on a loopback port with its data (SQLite) in `data_dir`; a context manager."""

    name = "Label Studio"
    health_path = "/health"

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir.parent / "label-studio-server.log")
        self.data_dir = data_dir
        self.admin_password = secrets.token_urlsafe(18)

    def start(self) -> tuple[list[str], dict[str, str], Path]:
        prefixes = tuple(f"{prefix}{name}" for name in SERVER_SETTINGS for prefix in ("LABEL_STUDIO_", "HEARTEX_", ""))
        env = {key: value for key, value in os.environ.items() if key not in prefixes}
        env.update(
            LABEL_STUDIO_BASE_DATA_DIR=str(self.data_dir),
            DJANGO_DB="sqlite",
            LABEL_STUDIO_USERNAME=ADMIN_EMAIL,
            LABEL_STUDIO_PASSWORD=self.admin_password,
            SENTRY_DSN="",
            FRONTEND_SENTRY_DSN="",
            COLLECT_ANALYTICS="false",
            LATEST_VERSION_CHECK="false",
            LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK="true",
            LOG_LEVEL="WARNING",
        )
        command = [
            sys.executable, "-m", "label_studio.server", "start", "--no-browser", "--internal-host", "127.0.0.1",
            "--port", str(self.port), "--host", self.url, "--data-dir", str(self.data_dir),
        ]
        return command, env, self.data_dir


# ----------------------------------------------------------------------------------------------- API


class Api:
    """The REST API as one user: `Authorization: Bearer <access token>` from a personal access token."""

    def __init__(self, url: str, refresh_token: str) -> None:
        import requests

        self.url = url
        self.refresh_token = refresh_token
        response = requests.post(f"{url}/api/token/refresh/", json={"refresh": refresh_token}, timeout=60)
        check(response, "POST /api/token/refresh/")
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {response.json()['access']}"

    def call(self, method: str, path: str, **kwargs):
        response = self.session.request(method, f"{self.url}{path}", timeout=120, **kwargs)
        check(response, f"{method} {path}")
        return response

    def json(self, method: str, path: str, **kwargs):
        return self.call(method, path, **kwargs).json()


def check(response, what: str) -> None:
    if response.status_code >= 400:
        raise FixtureError(f"{what} answered {response.status_code}: {response.text[:1000]}")


def form_session(url: str, path: str, form: dict[str, str]):
    """GET a Django form page (CSRF cookie), POST the form; the logged-in session (302 expected)."""
    import requests

    session = requests.Session()
    check(session.get(f"{url}{path}", timeout=60), f"GET {path}")
    data = {**form, "csrfmiddlewaretoken": session.cookies.get("csrftoken", "")}
    response = session.post(f"{url}{path}", data=data, headers={"Referer": f"{url}{path}"}, allow_redirects=False, timeout=60)
    if response.status_code != 302 or "sessionid" not in session.cookies:
        raise FixtureError(f"POST {path} did not log in ({response.status_code}): {response.text[:500]}")
    return session


def personal_access_token(url: str, session) -> str:
    """The Account & Settings page's 'Create' of a personal access token: a JWT refresh token."""
    response = session.post(
        f"{url}/api/token/", headers={"X-CSRFToken": session.cookies.get("csrftoken", ""), "Referer": f"{url}/"}, timeout=60
    )
    check(response, "POST /api/token/")
    return response.json()["token"]


@dataclass
class Account:
    annotator_id: str
    user_id: int
    email: str
    api: Api


def admin_account(server: LabelStudioServer) -> Account:
    session = form_session(server.url, "/user/login/", {"email": ADMIN_EMAIL, "password": server.admin_password})
    api = Api(server.url, personal_access_token(server.url, session))
    me = api.json("GET", "/api/current-user/whoami")
    return Account("admin", me["id"], me["email"], api)


def sign_up(server: LabelStudioServer, admin: Account, annotator_id: str, display_name: str) -> Account:
    invite = admin.api.json("GET", "/api/invite")
    email = f"{annotator_id}@{EMAIL_DOMAIN}"
    session = form_session(
        server.url, f"/user/signup/?token={invite['token']}", {"email": email, "password": secrets.token_urlsafe(18)}
    )
    api = Api(server.url, personal_access_token(server.url, session))
    me = api.json("GET", "/api/current-user/whoami")
    first, _, last = display_name.rpartition(" ") if " " in display_name else ("", "", display_name)
    api.json("PATCH", f"/api/users/{me['id']}", json={"first_name": first, "last_name": last})
    return Account(annotator_id, me["id"], me["email"], api)


# ---------------------------------------------------------------------------------------------- projects


def label_config(family: str) -> str:
    labels = FAMILIES[family][1]
    lines = ["<View>"]
    for name in TEXTS[family]:
        lines.append(f'  <Header value="{name}"/>')
        lines.append(f'  <Text name="{name}" value="${name}"/>')
    for label in labels:
        lines.append(f'  <Header value="{label}"/>')
        lines.append(
            f'  <Choices name="{label}" toName="{TO_NAME[family]}" choice="single" showInline="true">'
            '<Choice value="Yes"/><Choice value="No"/></Choices>'
        )
    lines.append('  <Header value="notes"/>')
    lines.append(f'  <TextArea name="notes" toName="{TO_NAME[family]}" editable="true" maxSubmissions="1"/>')
    lines.append("</View>")
    return "\n".join(lines) + "\n"


def task_data(family: str, record: SampleRecord, unit_rows: list[tuple[int, dict[str, str]]]) -> dict:
    language = record.first(family, "language", unit_rows).strip() or next(
        (record.first(other, "language").strip() for other in FAMILIES if record.first(other, "language").strip()), ""
    )
    data: dict = {"record_uuid": record.uuid}
    if family == "retrieval":
        first = unit_rows[0][1]
        data.update(
            chunk_id=first["chunk_id"].strip(),
            chunk_rank=read_rank(first["chunk_rank"]),
            doc_id=first["doc_id"].strip(),
            input_query=record.first(family, "input_query", unit_rows) or record.query,
            generated_search_query=record.first(family, "generated_search_query", unit_rows),
            chunk=first["chunk"],
        )
    else:
        data.update(query=record.first(family, "query") or record.query, answer=record.first(family, "answer") or record.answer)
        if family == "grounding":
            data["context_set"] = record.first(family, "context_set")
    data["language"] = language
    if (family, COLLIDING_DATA_KEY[1]) == COLLIDING_DATA_KEY:
        data[COLLIDING_DATA_KEY[1]] = f"task_type: {record.task_type}" if record.task_type else "task_type: none"
    return data


def create_projects(admin: Account, records: list[SampleRecord]) -> tuple[dict[str, int], dict[tuple, int]]:
    """The three projects and their tasks; project ids by family and task ids by unit."""
    project_ids: dict[str, int] = {}
    task_ids: dict[tuple, int] = {}
    for family in FAMILIES:
        project = admin.api.json(
            "POST", "/api/projects",
            json={
                "title": f"ragmart-{family}",
                "description": f"ragmart {family} labels of the sample (scripts/make_label_studio_fixtures.py)",
                "label_config": label_config(family),
            },
        )
        project_ids[family] = project["id"]
        units, tasks = [], []
        for record in records:
            if family == "retrieval":
                for document in record.documents():
                    chunk_id = document["chunk_id"].strip()
                    rows = [(line, row) for line, row in record.rows[family] if row["chunk_id"].strip() == chunk_id]
                    units.append((family, record.uuid, chunk_id))
                    tasks.append({"data": task_data(family, record, rows)})
            else:
                units.append((family, record.uuid, ""))
                tasks.append({"data": task_data(family, record, record.rows[family])})
        admin.api.json("POST", f"/api/projects/{project['id']}/import", json=tasks)
        created = admin.api.json("GET", "/api/tasks", params={"project": project["id"], "page_size": 10_000, "fields": "all"})
        by_key = {
            (task["data"]["record_uuid"], task["data"].get("chunk_id", "")): task["id"] for task in created["tasks"]
        }
        if len(by_key) != len(units):
            raise FixtureError(f"{family}: imported {len(units)} tasks, Label Studio lists {len(by_key)}")
        for unit in units:
            task_ids[unit] = by_key[(unit[1], unit[2])]
    return project_ids, task_ids


# ----------------------------------------------------------------------------------------- annotations


def choice_value(text: str) -> str | None:
    """Yes/No for a boolean-like value, None for an empty one, else the trimmed text itself."""
    if not text.strip():
        return None
    parsed = read_boolean(text)
    return text.strip() if parsed is None else "Yes" if parsed else "No"


def result_id(*parts: str) -> str:
    """A region id like the ones the editor makes (10 characters), derived from what it labels."""
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:10]


def result_items(family: str, row: dict[str, str], origin: str | None, overrides: dict[str, list[str]]) -> list[dict]:
    annotator_id = row["annotator_id"].strip()
    unit = "/".join(unit_of(family, row))
    items = []
    for label in FAMILIES[family][1]:
        if label in overrides:
            choices = overrides[label]
        elif (value := choice_value(row[label])) is not None:
            choices = [value]
        else:
            continue
        items.append(
            {
                "id": result_id(unit, annotator_id, label),
                "from_name": label,
                "to_name": TO_NAME[family],
                "type": "choices",
                "value": {"choices": choices},
                **({"origin": origin} if origin else {}),
            }
        )
    if note := row.get("notes", "").strip():
        items.append(
            {
                "id": result_id(unit, annotator_id, "notes"),
                "from_name": "notes",
                "to_name": TO_NAME[family],
                "type": "textarea",
                "value": {"text": [note]},
                **({"origin": origin} if origin else {}),
            }
        )
    return items


def ordered_rows(records: list[SampleRecord]) -> list[tuple[str, int, dict[str, str]]]:
    """Every row of the chosen records: unparseable created_at first, then by time, family and line."""
    family_order = list(FAMILIES)
    rows = [(family, line, row) for record in records for family in FAMILIES for line, row in record.rows[family]]

    def order(item):
        family, line, row = item
        moment = read_timestamp(row["created_at"])
        return (moment is not None, moment or dt.datetime.min.replace(tzinfo=dt.UTC), family_order.index(family), line)

    return sorted(rows, key=order)


def first_of(items, what: str):
    for item in items:
        return item
    raise FixtureError(f"the chosen records lack {what}")


def send_labels(server, admin: Account, records, annotators, task_ids) -> tuple[dict[str, Account], dict]:
    rows = ordered_rows(records)
    humans = sorted({row["annotator_id"].strip() for _, _, row in rows if kind_of(row["annotator_id"], annotators) == "HUMAN"})
    accounts: dict[str, Account] = {}
    for annotator_id in humans:
        display = annotators.get(annotator_id, {}).get("display_name", "").strip() or annotator_id
        accounts[annotator_id] = sign_up(server, admin, annotator_id, display)
    # The special cases, fixed before sending: which row is sent with two choices, which with ground_truth.
    repeated = defaultdict(int)
    for family, _, row in rows:
        repeated[(row["annotator_id"].strip(), unit_of(family, row))] += 1
    multi_family, multi_label, multi_choices = MULTI_CHOICE
    multi_line = first_of(
        (
            line
            for family, line, row in rows
            if family == multi_family
            and kind_of(row["annotator_id"], annotators) == "HUMAN"
            and row["annotator_id"].strip() != ADJUDICATOR
            and repeated[(row["annotator_id"].strip(), unit_of(family, row))] == 1
            and all(read_boolean(row[label]) is not None for label in FAMILIES[family][1])
        ),
        "a grounding row of a HUMAN annotator for the multi-choice",
    )
    ground_truth_line = first_of(
        (
            line
            for family, line, row in rows
            if family == "grounding" and row["annotator_id"].strip() == ADJUDICATOR
            and repeated[(ADJUDICATOR, unit_of(family, row))] == 1
        ),
        "a grounding row of the adjudicator for ground_truth",
    )
    annotation_ids: dict[tuple, int] = {}
    prediction_ids: dict[tuple, int] = {}
    last_moment: dict[str, dt.datetime] = {}
    stats = defaultdict(int)
    cases: dict = {"non_boolean_choices": [], "resubmissions": [], "unanswered_controls": 0, "empty_rows_not_sent": []}
    for family, line, row in rows:
        annotator_id = row["annotator_id"].strip()
        unit = unit_of(family, row)
        task_id = task_ids[unit]
        kind = kind_of(annotator_id, annotators)
        labels = FAMILIES[family][1]
        if kind != "HUMAN":
            items = result_items(family, row, None, {})
            if not items:
                cases["empty_rows_not_sent"].append({"family": family, "line": line, "annotator_id": annotator_id})
                continue
            key = (annotator_id, unit)
            if key in prediction_ids:
                admin.api.json("PATCH", f"/api/predictions/{prediction_ids[key]}", json={"result": items})
                stats["predictions_updated"] += 1
            else:
                created = admin.api.json(
                    "POST", "/api/predictions", json={"task": task_id, "model_version": annotator_id, "result": items}
                )
                prediction_ids[key] = created["id"]
                stats["predictions_created"] += 1
            continue
        overrides = {multi_label: list(multi_choices)} if (family == multi_family and line == multi_line) else {}
        items = result_items(family, row, "manual", overrides)
        moment = read_timestamp(row["created_at"])
        previous = last_moment.get(annotator_id)
        lead_time = None
        if moment is not None:
            if previous is not None and 0 < (moment - previous).total_seconds() <= LEAD_TIME_LIMIT:
                lead_time = round((moment - previous).total_seconds(), 3)
            last_moment[annotator_id] = moment
        if not items:
            cases["empty_rows_not_sent"].append({"family": family, "line": line, "annotator_id": annotator_id})
            continue
        for label in labels:
            if not row[label].strip():
                cases["unanswered_controls"] += 1
            elif read_boolean(row[label]) is None:
                cases["non_boolean_choices"].append(
                    {"family": family, "line": line, "annotator_id": annotator_id, "label": label, "choice": row[label].strip(),
                     "task_id": task_id}
                )
        api = accounts[annotator_id].api
        key = (annotator_id, unit)
        body: dict = {"result": items, "lead_time": lead_time}
        if key in annotation_ids:
            api.json("PATCH", f"/api/annotations/{annotation_ids[key]}", json=body)
            cases["resubmissions"].append(
                {"family": family, "line": line, "annotator_id": annotator_id, "annotation_id": annotation_ids[key],
                 "task_id": task_id}
            )
            stats["annotations_updated"] += 1
            continue
        if family == "grounding" and line == ground_truth_line:
            body["ground_truth"] = True
        created = api.json("POST", f"/api/tasks/{task_id}/annotations", json=body)
        annotation_ids[key] = created["id"]
        stats["annotations_created"] += 1
        if overrides:
            cases["multi_choice"] = {
                "family": family, "line": line, "annotator_id": annotator_id, "label": multi_label,
                "choices": list(multi_choices), "annotation_id": created["id"], "task_id": task_id,
            }
        if body.get("ground_truth"):
            cases["ground_truth"] = {"family": family, "line": line, "annotator_id": annotator_id,
                                     "annotation_id": created["id"], "task_id": task_id}
    # The adjudicator skips the first generation task it has no row for.
    skipped_unit = first_of(
        (unit for unit in task_ids if unit[0] == "generation" and (ADJUDICATOR, unit) not in annotation_ids),
        "a generation task the adjudicator has no row for",
    )
    cancelled = accounts[ADJUDICATOR].api.json(
        "POST", f"/api/tasks/{task_ids[skipped_unit]}/annotations", json={"result": [], "was_cancelled": True}
    )
    stats["annotations_created"] += 1
    cases["cancelled"] = {"family": "generation", "annotator_id": ADJUDICATOR, "annotation_id": cancelled["id"],
                          "task_id": task_ids[skipped_unit], "record_uuid": skipped_unit[1]}
    return accounts, {"sent": dict(stats), "cases": cases}


# --------------------------------------------------------------------------------------------- exports


def download_exports(server: LabelStudioServer, admin: Account, project_ids: dict[str, int]) -> dict:
    """{family: {export type: (bytes, Label Studio's file name)}}."""
    from label_studio_sdk import LabelStudio

    sdk = LabelStudio(base_url=server.url, api_key=admin.api.refresh_token)
    exported: dict[str, dict[str, tuple[bytes, str]]] = {}
    for family, project_id in project_ids.items():
        exported[family] = {}
        for export_type in ("JSON", "JSON_MIN", "CSV", "TSV"):
            response = admin.api.call("GET", f"/api/projects/{project_id}/export", params={"exportType": export_type})
            exported[family][export_type] = (response.content, response.headers.get("filename", ""))
        snapshot = sdk.projects.exports.create(
            project_id,
            title=f"ragmart-{family} snapshot",
            task_filter_options={"only_with_annotations": False},
            annotation_filter_options={"usual": True, "ground_truth": True, "skipped": True},
            serialization_options={
                "drafts": {"only_id": False},
                "predictions": {"only_id": False},
                "annotations__completed_by": {"only_id": False},
                "include_annotation_history": False,
            },
        )
        deadline = time.monotonic() + 120
        while (status := sdk.projects.exports.get(project_id, snapshot.id).status) != "completed":
            if status == "failed" or time.monotonic() > deadline:
                raise FixtureError(f"snapshot export of {family} is {status}")
            time.sleep(1)
        content = b"".join(sdk.projects.exports.download(project_id, snapshot.id, export_type="JSON"))
        exported[family]["SNAPSHOT"] = (content, f"export {snapshot.id} of project {project_id}")
    return exported


def count_export(export_type: str, content: bytes) -> dict:
    if export_type in ("CSV", "TSV"):
        rows = list(csv.reader(io.StringIO(content.decode("utf-8")), delimiter="\t" if export_type == "TSV" else ","))
        return {"rows": len(rows) - 1, "columns": len(rows[0]) if rows else 0}
    data = json.loads(content)
    if export_type == "JSON_MIN":
        return {"objects": len(data)}
    annotations = [annotation for task in data for annotation in task["annotations"]]
    return {
        "tasks": len(data),
        "annotations": len(annotations),
        "cancelled_annotations": sum(annotation["was_cancelled"] for annotation in annotations),
        "predictions": sum(len(task["predictions"]) for task in data),
    }


def main(argv: list[str] | None = None) -> int:
    out, annotators, chosen = chosen_sample(argv, __doc__, DEFAULT_OUT, RUNS, QUERIES, features, WANTED)

    with tempfile.TemporaryDirectory(prefix="ragmart-label-studio-") as temp:
        data_dir = Path(temp) / "label-studio"
        data_dir.mkdir()
        server = LabelStudioServer(data_dir)
        with server:
            print(f"Label Studio {version('label-studio')} up at {server.url}", flush=True)
            admin = admin_account(server)
            project_ids, task_ids = create_projects(admin, chosen)
            accounts, sent = send_labels(server, admin, chosen, annotators, task_ids)
            print(f"sent {json.dumps(sent['sent'])}", flush=True)
            exported = download_exports(server, admin, project_ids)

    model_versions = sorted(
        {row["annotator_id"].strip() for record in chosen for family in FAMILIES for _, row in record.rows[family]
         if kind_of(row["annotator_id"], annotators) != "HUMAN"}
    )
    annotator_rows = []
    for account in sorted(accounts.values(), key=lambda account: account.user_id):
        seed = annotators.get(account.annotator_id, {})
        role = "adjudicator" if account.annotator_id == ADJUDICATOR else (seed.get("role", "").strip() or "annotator")
        annotator_rows.append([str(account.user_id), "HUMAN", role, seed.get("display_name", "").strip() or account.annotator_id])
    for model_version in model_versions:
        seed = annotators.get(model_version, {})
        annotator_rows.append(
            [model_version, kind_of(model_version, annotators), seed.get("role", "").strip() or "annotator",
             seed.get("display_name", "").strip() or model_version]
        )

    staging = out.with_name(out.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    counts: dict = {}
    native_names: dict = {}
    for export_type, (folder, pattern) in EXPORTS.items():
        target = staging / folder
        target.mkdir(parents=True, exist_ok=True)
        for family in FAMILIES:
            content, native = exported[family][export_type]
            (target / pattern.format(family=family)).write_bytes(content)
            counts.setdefault(folder, {})[family] = count_export("JSON" if export_type == "SNAPSHOT" else export_type, content)
            native_names.setdefault(folder, {})[family] = native
        write_side_files(target, [(record.uuid, record.run_id, record.query_id) for record in chosen],
                         annotator_rows)
    manifest = {
        "generated_on": dt.datetime.now(dt.UTC).date().isoformat(),
        "generator": "scripts/make_label_studio_fixtures.py",
        "versions": {
            **{package: version(package) for package in ("label-studio", "label-studio-sdk", "Django", "requests")},
            "python": platform.python_version(),
        },
        "projects": {family: {"id": project_ids[family], "title": f"ragmart-{family}",
                              "tasks": sum(1 for unit in task_ids if unit[0] == family)} for family in FAMILIES},
        "records": [{"record_uuid": record.uuid, "run_id": record.run_id, "query_id": record.query_id} for record in chosen],
        "users": {
            str(account.user_id): {"annotator_id": account.annotator_id, "email": account.email}
            for account in sorted([admin, *accounts.values()], key=lambda account: account.user_id)
        },
        "model_versions": model_versions,
        "colliding_data_key": {"family": COLLIDING_DATA_KEY[0], "key": COLLIDING_DATA_KEY[1]},
        **sent,
        "exports": counts,
        "native_file_names": native_names,
    }
    publish(staging, out, manifest, counts)
    return 0


if __name__ == "__main__":
    run(main)
