"""Inputs named for what they are (files mode, docs/rules.md "Real exports"): a file whose content is
not what its name says stops the build with a message that names the file, its real format and
what to do. Without dbt: each reader's content check (the native reader and the three tool readers).
"""

from __future__ import annotations

import codecs
import gzip
import io
import zipfile
from pathlib import Path

import duckdb
import pytest
from kit.adapters import reader_module

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

