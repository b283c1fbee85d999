"""Inputs named for what they are (files mode, docs/rules.md "Real exports"): a file whose content is
not what its name says, a symbolic link out of the input folder, a folder without anything to read,
and a language the var accepted_languages does not list stop the build with a message that names
the file, the link, the folder or the var, and what to do.

Without dbt: each reader's content check (the native reader and the three tool readers), the native
reader's link check and scripts/build.py's pre-check before dbt starts (the links it follows and an
empty folder, exit 2). With dbt, on one copy of the project and a folder of a few rows, three calls
with the same vars (one parse): a workbook saved as generation_annotations.csv beside a link within
the folder (read under input_encoding windows-1252: never the encoding's advice), a link out of the
folder, and a generation export with rows in French and Spanish, whose guards name accepted_languages
with the languages seen (counted here from the rows written).
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import build  # scripts/build.py, on pytest's pythonpath
import duckdb
import pytest
from kit.adapters import reader_module
from kit.builds import PROJECT, prepare_project, run_dbt

NATIVE = "models/staging/native/base_native__export_files.py"
CSV_TEXT = b"record_uuid,annotator_id\nr1,a.b\n"


def _workbook() -> bytes:
    """The first bytes of an XLSX file as Excel writes it: a ZIP archive of the workbook's XML parts."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return data.getvalue()


def _zip() -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("retrieval.csv", CSV_TEXT)
    return data.getvalue()


def _parquet(tmp_path: Path) -> bytes:
    path = tmp_path / "written.parquet"
    duckdb.connect().execute(f"copy (select 'r1' as record_uuid) to '{path}' (format parquet)")
    return path.read_bytes()


# (file name, content, the message after the file's name)
CASES = {
    "workbook": ("generation_annotations.csv", _workbook,
                 "is an Excel workbook (XLSX), not CSV: save it as CSV (File > Save as > CSV UTF-8), or move it out"
                 " of the folder"),
    "zip": ("retrieval_week2.csv", _zip, "is a ZIP archive, not CSV: unpack it and put its CSV files in the folder"),
    "parquet": ("grounding_annotations.csv", None, "is a Parquet file, not CSV: rename it to grounding_annotations.parquet"),
    "gzip": ("retrieval_annotations.csv", lambda: gzip.compress(CSV_TEXT),
             "is gzip-compressed, but its name does not end in .gz: rename it to retrieval_annotations.csv.gz"),
    "not_gzip": ("retrieval_annotations.csv.gz", lambda: CSV_TEXT,
                 "is not gzip-compressed, though its name ends in .gz: rename it to retrieval_annotations.csv"),
    "binary": ("records.csv", lambda: b"record_uuid\n\x89\x00\x01\x02",
               "is binary data, not CSV text (a NUL byte at byte 14): export it again as CSV (CSV UTF-8)"),
    "utf16_without_mark": ("annotators.csv", lambda: "annotator_id\na.b\n".encode("utf-16-le"),
                           "is binary data, not CSV text (a NUL byte at byte 2)"),
    "gzip_of_a_workbook": ("generation_annotations.csv.gz", lambda: gzip.compress(_workbook()),
                           "is an Excel workbook (XLSX), not CSV"),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_a_csv_file_of_another_format_stops_naming_its_real_format(tmp_path, case, encoding):
    """The native reader names the file and its real format whatever input_encoding says (latin-1:
    windows-1252's reading), before any byte is decoded: never the encoding's advice."""
    reader = reader_module(NATIVE)
    name, content, message = CASES[case]
    path = tmp_path / name
    path.write_bytes(_parquet(tmp_path) if content is None else content())
    with pytest.raises(reader.ExportFileError) as stopped:
        reader._csv_scan(duckdb.connect(), str(path), "retrieval", 1, encoding, None, str(tmp_path))
    assert str(stopped.value).startswith(f"{name} {message}"), str(stopped.value)
    assert "input_encoding" not in str(stopped.value)


@pytest.mark.parametrize("content", [CSV_TEXT, codecs.BOM_UTF16_LE + CSV_TEXT.decode().encode("utf-16-le")])
def test_text_files_pass_the_content_check(tmp_path, content):
    """UTF-8 and UTF-16 with its byte-order mark (Excel's Unicode text; its NUL bytes are text) read as before."""
    reader = reader_module(NATIVE)
    path = tmp_path / "retrieval_annotations.csv"
    path.write_bytes(content)
    session = duckdb.connect()
    scan = reader._csv_scan(session, str(path), "retrieval", 1, "utf-8", None, str(tmp_path))
    assert session.execute(f"select record_uuid, annotator_id from ({scan})").fetchall() == [("r1", "a.b")]


def test_binary_data_past_the_first_block_gets_no_encoding_advice(tmp_path):
    reader = reader_module(NATIVE)
    data = CSV_TEXT + b"r2,x\n" * 20000 + b"r3,\xff\x00\n"
    with pytest.raises(reader.ExportFileError) as stopped:
        reader._decode(data, "utf-8", "retrieval_annotations.csv")
    assert str(stopped.value) == (f"retrieval_annotations.csv is binary data, not CSV text (a NUL byte at byte"
                                  f" {data.index(0) + 1}): export it again as CSV (CSV UTF-8)")


def test_the_tool_readers_name_the_real_format(tmp_path):
    """Label Studio's JSON or CSV export, a CSV or JSON file of Langfuse's export and a CSV frame of
    Phoenix's, each of another format, stop naming the file and what to do."""
    workbook, parquet = _workbook(), _parquet(tmp_path)
    label_studio = reader_module("models/staging/label_studio/base_label_studio__export.py")
    (tmp_path / "retrieval_snapshot.json").write_bytes(workbook)
    with pytest.raises(label_studio.LabelStudioExportError) as stopped:
        label_studio._read_file(str(tmp_path / "retrieval_snapshot.json"), "retrieval", 1)
    assert str(stopped.value).startswith("retrieval_snapshot.json is an Excel workbook (XLSX), not JSON or CSV: save"
                                         " it as CSV (File > Save as > CSV UTF-8), or export it from Label Studio again")

    langfuse = reader_module("models/staging/langfuse/base_langfuse__export.py")
    (tmp_path / "scores.jsonl").write_bytes(parquet)
    with pytest.raises(langfuse.LangfuseExportError) as stopped:
        langfuse._check_content(str(tmp_path / "scores.jsonl"), "scores/2026-11-20T10-00.jsonl")
    assert str(stopped.value) == ("scores/2026-11-20T10-00.jsonl is a Parquet file, not CSV or JSON: rename it to"
                                  " scores/2026-11-20T10-00.parquet")
    (tmp_path / "scores.csv").write_bytes(gzip.compress(CSV_TEXT))
    with pytest.raises(langfuse.LangfuseExportError, match="rename it to 2026-11-20T10-00.csv.gz"):
        langfuse._check_content(str(tmp_path / "scores.csv"), "scores/2026-11-20T10-00.csv")
    langfuse._check_content(str(tmp_path / "scores.csv"), "scores/2026-11-20T10-00.csv.gz")

    phoenix = reader_module("models/staging/phoenix/base_phoenix__export.py")
    (tmp_path / "spans.csv").write_bytes(parquet)
    with pytest.raises(phoenix.PhoenixExportError) as stopped:
        phoenix._frame_records(duckdb.connect(), str(tmp_path / "spans.csv"))
    assert str(stopped.value) == "spans.csv is a Parquet file, not CSV: rename it to spans.parquet"


# --------------------------------------------------------------------------- symbolic links


def _linked_folder(tmp_path: Path) -> tuple[Path, Path]:
    """An input folder with a link within it (retrieval_annotations.csv -> data/retrieval.csv) and a
    link out of it (annotators.csv -> ../elsewhere/annotators.csv); the folder and the outside target."""
    folder, elsewhere = tmp_path / "export", tmp_path / "elsewhere"
    (folder / "data").mkdir(parents=True)
    elsewhere.mkdir()
    (folder / "data" / "retrieval.csv").write_bytes(CSV_TEXT)
    (folder / "retrieval_annotations.csv").symlink_to(Path("data") / "retrieval.csv")
    (elsewhere / "annotators.csv").write_text("annotator_id\na.b\n", encoding="utf-8")
    (folder / "annotators.csv").symlink_to(elsewhere / "annotators.csv")
    return folder, elsewhere / "annotators.csv"


def test_a_link_out_of_the_folder_stops_the_reader_unless_allowed(tmp_path):
    reader = reader_module(NATIVE)
    folder, outside = _linked_folder(tmp_path)
    with pytest.raises(reader.ExportFileError) as stopped:
        reader._followed_links(str(folder), False)
    assert str(stopped.value) == (
        f"annotators.csv in input_path '{folder}' is a symbolic link to {outside.resolve()}, outside the folder: copy"
        " the file into the folder, or let the build follow links out of it with the var allow_outside_links,"
        " e.g. --vars '{allow_outside_links: true}'")
    inside = (folder / "data" / "retrieval.csv").resolve()
    assert reader._followed_links(str(folder), True) == [("annotators.csv", str(outside.resolve())),
                                                        ("retrieval_annotations.csv", str(inside))]
    (folder / "annotators.csv").unlink()
    assert reader._followed_links(str(folder), False) == [("retrieval_annotations.csv", str(inside))]
    for value, expected in [("True", True), ("false", False), ("1", True), ("", False)]:
        assert reader._switch(value, "allow_outside_links") is expected
    with pytest.raises(reader.ExportFileError, match="var allow_outside_links must be true or false, got 'yes'"):
        reader._switch("yes", "allow_outside_links")


def test_the_build_script_lists_the_links_and_stops_on_one_out_of_the_folder(tmp_path, capsys, monkeypatch):
    """scripts/build.py before dbt starts: exit 2 with the link and its target; with
    allow_outside_links each link it follows is listed (and dbt would start)."""
    folder, outside = _linked_folder(tmp_path)
    started = []
    monkeypatch.setattr(build, "publish", lambda dbs, command, **_: started.append(command) or 0)
    assert build.main(["--input", str(folder)]) == 2 and not started
    assert capsys.readouterr().err == (
        f"error: annotators.csv in the input folder {folder} is a symbolic link to {outside.resolve()}, outside the"
        " folder: copy the file into the folder, or let the build follow links out of it with"
        " VARS='{allow_outside_links: true}'\n")
    assert build.main(["--input", str(folder), "--vars", "{allow_outside_links: true}"]) == 0 and started
    inside = (folder / "data" / "retrieval.csv").resolve()
    assert capsys.readouterr().out.splitlines() == [
        f"input folder: following the symbolic link annotators.csv -> {outside.resolve()}",
        f"input folder: following the symbolic link retrieval_annotations.csv -> {inside}"]


# --------------------------------------------------------------------------- a folder without anything to read


@pytest.mark.parametrize("files, variables, expects", [
    ([], {}, "input_format native: it expects retrieval*, grounding* and generation* files (.csv, .tsv, .txt,"
             " also .gz, or .parquet)"),
    (["annotators.csv", "records.csv", "retrieval.xlsx", "notes.txt"], {}, "input_format native: it expects"),
    (["retrieval.parquet.txt.bak"], {"input_format": "label_studio"},
     "input_format label_studio: it expects Label Studio's exports named retrieval*, grounding* and generation*"),
    (["spans.json"], {"input_format": "phoenix"},
     "input_format phoenix: it expects Phoenix's SQLite database (*.db) or its frames"),
    (["scores/"], {"input_format": "langfuse"},
     "input_format langfuse: it expects Langfuse's export: a project folder (<project-id>/) with scores/"),
    ([], {"input_format": {"retrieval": "label_studio", "grounding": "langfuse"}},
     "input_format label_studio, langfuse, native: it expects Label Studio's exports"),
])
def test_a_folder_without_a_file_to_read_stops_before_dbt(tmp_path, capsys, monkeypatch, files, variables, expects):
    folder = tmp_path / "exports"
    folder.mkdir()
    for name in files:
        (folder / name).mkdir() if name.endswith("/") else (folder / name).write_text("x\n", encoding="utf-8")
    monkeypatch.setattr(build, "publish", lambda dbs, command, **_: pytest.fail("dbt started"))
    assert build.main(["--input", str(folder), "--vars", json.dumps(variables)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: the input folder {folder} holds no file the build reads for {expects}"), err
    assert err.rstrip().endswith("Give the folder that holds them (INPUT=folder)"), err


@pytest.mark.parametrize("files, variables", [
    (["Retrieval_week1.CSV"], {}),
    (["generation_2026-11-27.csv.gz"], {}),
    (["grounding.parquet"], {"input_format": {"retrieval": "langfuse"}}),
    (["retrieval_snapshot.json"], {"input_format": "label_studio"}),
    (["phoenix.db"], {"input_format": "phoenix"}),
    (["span_annotations.csv"], {"input_format": "phoenix"}),
    (["0a1b/observations_v2/"], {"input_format": "langfuse"}),
])
def test_a_folder_with_a_file_to_read_goes_on_to_dbt(tmp_path, monkeypatch, files, variables):
    folder = tmp_path / "exports"
    folder.mkdir()
    for name in files:
        (folder / name).mkdir(parents=True) if name.endswith("/") else (folder / name).write_text("x\n")
    started = []
    monkeypatch.setattr(build, "publish", lambda dbs, command, **_: started.append(command) or 0)
    assert build.main(["--input", str(folder), "--vars", json.dumps(variables)]) == 0 and started


def test_phoenix_database_read_in_place_needs_no_file(tmp_path, monkeypatch):
    folder = tmp_path / "exports"
    folder.mkdir()
    monkeypatch.setenv("PHOENIX_SQL_DATABASE_URL", "postgresql://user:secret@localhost:5432/phoenix")
    monkeypatch.setattr(build, "publish", lambda dbs, command, **_: 0)
    assert build.main(["--input", str(folder), "--vars", "{input_format: phoenix}"]) == 0


# --------------------------------------------------------------------------- dbt on a folder of a few rows

# the vars of every dbt call here (one parse): a relative input_path, the folder `export` beside the
# project; windows-1252, under which a workbook named .csv was once decoded as text
VARS = {"input_mode": "files", "input_path": "export", "input_encoding": "windows-1252",
        "allow_empty_exports": ["retrieval", "grounding"]}
# the languages of the generation rows: three French and a Spanish row beside the accepted de and en
LANGUAGES = ["de", "fr", "en", " fr ", "es", "de", "fr", "en"]


def _header(name: str) -> str:
    return (PROJECT / "seeds" / name).read_text(encoding="utf-8").splitlines()[0] + "\n"


def _export(folder: Path, generation: bytes | None = None) -> Path:
    """Header-only retrieval and grounding exports, an annotators file, and a generation export with
    a row per LANGUAGES entry (`generation` instead: that content)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for name in ("retrieval_annotations.csv", "grounding_annotations.csv"):
        (folder / name).write_text(_header(name), encoding="utf-8")
    (folder / "annotators.csv").write_text("annotator_id,annotator_kind,role,display_name\n"
                                           "a.schaefer,HUMAN,annotator,Anna\n", encoding="utf-8")
    if generation is None:
        rows = [f"00000000-0000-4000-8000-{n:012d},a.schaefer,generation,{language},2026-11-2{n % 7}T10:00:00Z,"
                f"Frage {n},Antwort {n},TRUE,TRUE,TRUE,FALSE,FALSE,\n" for n, language in enumerate(LANGUAGES, 1)]
        generation = (_header("generation_annotations.csv") + "".join(rows)).encode("utf-8")
    (folder / "generation_annotations.csv").write_bytes(generation)
    return folder


@pytest.fixture(scope="module")
def dbt_calls(tmp_path_factory):
    """What dbt printed in each call, all on one copy of the project."""
    root = tmp_path_factory.mktemp("input_files")
    project = prepare_project(root, None)
    variables = ["--vars", json.dumps(VARS)]

    def dbt(args):
        result = run_dbt(project, args + variables, env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
        return result.returncode, result.stdout + result.stderr

    out = {}
    folder = _export(root / "export", _workbook())
    (folder / "data").mkdir()
    (folder / "data" / "records.csv").write_text(_header("records.csv"), encoding="utf-8")
    (folder / "records.csv").symlink_to(Path("data") / "records.csv")
    out["workbook"] = dbt(["run", "--select", "base_native__export_files"])
    (root / "elsewhere.csv").write_text(_header("records.csv"), encoding="utf-8")
    (folder / "records_2.csv").symlink_to(root / "elsewhere.csv")
    out["outside"] = dbt(["run", "--select", "base_native__export_files"])
    _export(folder)
    out["languages_run"] = dbt(["run", "--select", "+rejected_annotations"])
    out["languages"] = dbt(["test", "--select", "assert_rejected_share_within_limit",
                            "assert_no_annotation_rows_rejected"])
    return root, out


@pytest.mark.slow
def test_a_workbook_named_csv_stops_dbt_and_links_within_the_folder_are_listed(dbt_calls):
    root, out = dbt_calls
    code, text = out["workbook"]
    assert code != 0, text[-3000:]
    assert ("generation_annotations.csv is an Excel workbook (XLSX), not CSV: save it as CSV (File > Save as > CSV"
            " UTF-8), or move it out of the folder") in text, text[-3000:]
    assert "set it to windows-1252" not in text and "is not valid" not in text
    target = (root / "export" / "data" / "records.csv").resolve()
    assert f"ragmart: input_path: followed the symbolic link records.csv -> {target}" in text


@pytest.mark.slow
def test_a_link_out_of_the_folder_stops_plain_dbt(dbt_calls):
    root, out = dbt_calls
    code, text = out["outside"]
    assert code != 0, text[-3000:]
    assert (f"records_2.csv in input_path '{root / 'export'}' is a symbolic link to {(root / 'elsewhere.csv').resolve()},"
            " outside the folder") in " ".join(text.split()), text[-3000:]
    assert "allow_outside_links" in text


@pytest.mark.slow
def test_invalid_languages_name_the_var_and_the_languages_seen(dbt_calls):
    """The share guard fails and the rejection guard warns, each naming accepted_languages with the
    languages of the rejected rows (counted here from LANGUAGES) and how to list them."""
    _, out = dbt_calls
    code, text = out["languages_run"]
    assert code == 0, text[-3000:]
    code, text = out["languages"]
    assert code != 0, text[-3000:]
    seen = Counter(language.strip() for language in LANGUAGES if language.strip() not in ("de", "en"))
    ordered = sorted(seen.items(), key=lambda item: (-item[1], item[0]))
    n = sum(seen.values())
    codes = f": invalid_language {n} (" + ", ".join(f"'{language}' {k}" for language, k in ordered) + ")"
    share = f"generation: {n} of {len(LANGUAGES)} rows rejected ({100 * n / len(LANGUAGES):.1f} %"
    hint = ("invalid_language: the row's language is not one of the var accepted_languages [de, en]; to accept the"
            " languages seen, list them there, e.g. --vars '{accepted_languages: [de, en, "
            + ", ".join(language for language, _ in ordered) + "]}'")
    lines = [line.strip() for line in text.splitlines()]
    assert lines.count(share + ", over the limit of 10.0 %)" + codes) == 1, text[-4000:]   # the failing share guard
    assert lines.count(share + ")" + codes) == 1, text[-4000:]                              # the warning
    assert lines.count(hint) == 2, text[-4000:]
    assert "ragmart: too many rows rejected in generation" in text
