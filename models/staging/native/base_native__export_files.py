"""The 0005 files of one folder as read (files mode): every row of every input, every value as text.

Each file of `input_path` whose name starts with an input's name (retrieval, grounding,
generation, annotators, records; any case) is read (of the three exports, only those of the
families the var input_format reads as `native`: a tool's own export is read by its models,
and a family mapped to a tool may have files of that tool named like it; with Phoenix's database
named by PHOENIX_SQL_DATABASE_URL and no input_path, none: base_phoenix__export reads it alone):
CSV files ending in .csv, .tsv or .txt (also
gzip-compressed, .gz) and Parquet files; a file so named in any other format stops the build, so
that no rows are left out unnoticed. All are appended by column name, with:

- `ragmart_input`: the input the file belongs to;
- `ragmart_file_index`: the file's place (1, 2, ...) among all files read, by input then name;
- `ragmart_source_file`: the file's name; `ragmart_source_row`: the 1-based data row in it
  (header not counted; a quoted record spanning lines counts once);
- `ragmart_file_columns`: the file's column names, `,`-separated, so staging can name a file
  that lacks a required column;
- `ragmart_malformed_record`: the raw text of a CSV record that does not parse (too few or too
  many fields, an unterminated quote), else null. Such a row has no other value and is
  quarantined as `malformed_row`.

CSV files, each decoded on its own: UTF-16 when the file starts with its byte-order mark (Excel's
"Unicode text"); UTF-8 when it is valid UTF-8 (a byte-order mark is dropped), whatever the var
`input_encoding`; else the var `input_encoding` (`windows-1252` or `latin-1`, read alike: the
bytes 0x80-0x9F as the characters Windows-1252 gives them, such as „ “ – € …, as browsers read
latin-1, since as latin-1 they would be control characters that no text holds; with the default
`utf-8` such a file stops the build, naming the line). So one latin-1 export beside a UTF-8
annotators file reads both right: latin-1 text with accented letters is practically never valid
UTF-8; `\\n`, `\\r\\n` or `\\r` line ends;
an Excel `sep=;` first line names the delimiter; else the delimiter is `,`, `;` or a tab,
whichever the header line holds most (or the var `csv_delimiter`); `"` quotes with `""` escapes; a
record may be up to 64 MB. Each CSV file is read once by DuckDB into a temporary table, with
DuckDB's record of rejected records: when it rejected none, the table's rows are the file's rows
in file order (DuckDB keeps the order of a parallel scan, `preserve_insertion_order`, its default;
with that setting off the rows are numbered by `with ordinality`, a scan on one core); a file with
any record DuckDB rejects is read again record by record here, so that every bad record is kept
with its row number and the good ones load. Parquet files: each column is
rendered as text by its meaning (booleans `true`/`false`, whole numbers without a fraction, times
as ISO 8601, `Z` for zoned times).

A file that cannot be read, is not what its name says (a workbook, Parquet or gzip named .csv,
other binary data: _check_content), is not valid in the declared encoding, or has two columns of
one name stops the build with a message that names the file (and the column, or its real format).
"""

import codecs
import csv
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import tempfile

INPUTS = ["retrieval", "grounding", "generation", "annotators", "records"]
CSV_ENDINGS = (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".txt.gz")
PARQUET_ENDINGS = (".parquet",)
DELIMITERS = (",", ";", "\t")
MAX_RECORD_BYTES = 64 * 1024 * 1024
ENCODINGS = {"utf-8": "utf-8", "utf8": "utf-8", "latin-1": "latin-1", "latin1": "latin-1", "iso-8859-1": "latin-1",
             "windows-1252": "latin-1", "cp1252": "latin-1"}
# A file read as latin-1 is taken as Windows-1252: its bytes 0x80-0x9F (latin-1's control characters)
# become Windows-1252's characters, and the five bytes Windows-1252 leaves undefined stay as they are.
# DuckDB's latin-1 reader refuses a file with any of those bytes, which then goes to the record-by-record
# reader here (_decode); a file it reads has none, and reads alike in both encodings.
_WINDOWS_BYTES = bytes(b for b in range(0x80, 0xA0) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D))
_WINDOWS = str.maketrans(_WINDOWS_BYTES.decode("latin-1"), _WINDOWS_BYTES.decode("cp1252"))


class ExportFileError(Exception):
    """A file of the export folder that the build cannot read as it is."""


def _sql_text(value):
    return "'" + str(value).replace("'", "''") + "'"


def _identifier(name):
    return '"' + name.replace('"', '""') + '"'


def _setting(value):
    if value is None or str(value).strip() in ("", "None", "none", "null"):
        return None
    return str(value)


def _switch(value, name):
    """A switch var as handed over (true, false, 1 or 0, any case; empty: false)."""
    text = (_setting(value) or "false").strip().lower()
    if text not in ("true", "false", "1", "0"):
        raise ExportFileError(f"var {name} must be true or false, got '{value}'")
    return text in ("true", "1")


def _followed_links(folder, allow_outside):
    """(link, target) of every symbolic link under the folder (hidden entries aside), the target
    resolved; a link whose target lies outside the folder stops the build unless the var
    allow_outside_links is true. Every files-mode build runs this model, so the check covers the
    tool readers too, which read the same folder."""
    root = os.path.realpath(folder)
    links = []
    for where, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(folders + [name for name in files if not name.startswith(".")]):
            link = os.path.join(where, name)
            if not os.path.islink(link):
                continue
            target, shown = os.path.realpath(link), os.path.relpath(link, folder)
            if os.path.commonpath([root, target]) != root and not allow_outside:
                raise ExportFileError(
                    f"{shown} in input_path '{folder}' is a symbolic link to {target}, outside the folder: copy"
                    " the file into the folder, or let the build follow links out of it with the var"
                    " allow_outside_links, e.g. --vars '" + chr(123) + "allow_outside_links: true" + chr(125) + "'")
            links.append((shown, target))
    return links


def _find_files(folder, inputs):
    """The files of each of `inputs`, by name; a file named for one of them in a format ragmart cannot
    read stops the build."""
    if not os.path.isdir(folder):
        raise ExportFileError(f"input_path '{folder}' is not a folder (var input_path, files mode)")
    found = {name: [] for name in inputs}
    ignored = []
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        lower = entry.lower()
        if entry.startswith(".") or not os.path.isfile(path):
            continue
        matches = [name for name in inputs if lower.startswith(name)]
        if not matches:
            if lower.endswith(CSV_ENDINGS + PARQUET_ENDINGS):
                ignored.append(entry)
            continue
        if not lower.endswith(CSV_ENDINGS + PARQUET_ENDINGS):
            raise ExportFileError(
                f"{entry}: its name makes it a {matches[0]} file, but ragmart reads only .csv, .tsv and .txt files"
                " (also gzip-compressed, .gz) and .parquet files; convert it, or move it out of the folder"
                " so that none of its rows is left out unnoticed")
        found[matches[0]].append(path)
    return found, ignored


def _open(path):
    return gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb")


def _clean_names(names, file_name):
    cleaned, seen = [], {}
    for position, name in enumerate(names, start=1):
        clean = (name or "").strip().lower() or f"column{position}"
        if clean in seen:
            raise ExportFileError(
                f"{file_name}: the column '{clean}' appears twice (columns {seen[clean]} and {position});"
                " rename or remove one of them, the build cannot tell which holds the values")
        seen[clean] = position
        cleaned.append(clean)
    return cleaned


def _count_outside_quotes(line, character):
    count, quoted = 0, False
    for char in line:
        if char == '"':
            quoted = not quoted
        elif char == character and not quoted:
            count += 1
    return count


def _check_content(path):
    """Stops on a CSV file whose content is not what its name says, naming its real format, before any
    byte is decoded (so a binary file never gets an encoding's advice): an Excel workbook or another
    ZIP archive, a Parquet file, gzip without .gz in its name (or .gz without gzip), or other binary
    data: a NUL byte in its first 64 KB, which text holds only as UTF-16, read by its byte-order mark."""
    name = os.path.basename(path)
    with open(path, "rb") as handle:
        head = handle.read(1 << 16)
    named_gzip, is_gzip = name.lower().endswith(".gz"), head.startswith(b"\x1f\x8b")
    if named_gzip and is_gzip:
        try:
            with gzip.open(path, "rb") as handle:
                head = handle.read(1 << 16)
        except (OSError, EOFError) as error:
            raise ExportFileError(f"{name}: the file cannot be read as gzip ({error})") from None
    stem = re.sub(r"\.(csv|tsv|txt)(\.gz)?$", "", name, flags=re.IGNORECASE)
    if head.startswith(b"PK\x03\x04") and (b"[Content_Types].xml" in head or b"xl/" in head):
        problem = ("an Excel workbook (XLSX), not CSV: save it as CSV (File > Save as > CSV UTF-8), or move it"
                   " out of the folder")
    elif head.startswith(b"PK\x03\x04"):
        problem = "a ZIP archive, not CSV: unpack it and put its CSV files in the folder instead"
    elif head.startswith(b"PAR1"):
        problem = f"a Parquet file, not CSV: rename it to {stem}.parquet"
    elif head.startswith(b"\x1f\x8b"):
        problem = f"gzip-compressed, but its name does not end in .gz: rename it to {name}.gz"
    elif b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        problem = (f"binary data, not CSV text (a NUL byte at byte {head.index(0) + 1}): export it again as CSV"
                   " (CSV UTF-8); a UTF-16 text file needs its byte-order mark, which Excel's Unicode text has")
    elif named_gzip and not is_gzip:
        problem = f"not gzip-compressed, though its name ends in .gz: rename it to {name[:-3]}"
    else:
        return
    raise ExportFileError(f"{name} is {problem}")


def _is_utf8(path):
    """Whether the whole file is valid UTF-8 (read in blocks; a character split between two blocks is
    decoded whole)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    with _open(path) as handle:
        try:
            for block in iter(lambda: handle.read(1 << 24), b""):
                decoder.decode(block)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
    return True


def _file_encoding(path, head, encoding):
    """The encoding of one file: a UTF-16 or UTF-8 byte-order mark decides; else a file that is valid
    UTF-8 is UTF-8 whatever the var; else the var's encoding (the default, UTF-8, then stops the
    build with the line that is not UTF-8)."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if head.startswith(codecs.BOM_UTF8) or encoding == "utf-8" or _is_utf8(path):
        return "utf-8"
    return encoding


def _decode(data, encoding, file_name, final=True):
    """The text of a file's bytes (without a byte-order mark); a clear error on bytes the encoding cannot read."""
    if encoding == "utf-8" and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        text = codecs.getincrementaldecoder(encoding)().decode(data, final=final)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        if b"\x00" in data:  # binary data past the first block (_check_content): no encoding reads it
            raise ExportFileError(f"{file_name} is binary data, not CSV text (a NUL byte at byte"
                                  f" {data.index(0) + 1}): export it again as CSV (CSV UTF-8)") from None
        raise ExportFileError(
            f"{file_name}: line {line} is not valid {encoding} (byte {error.start + 1} of the file);"
            " a file that is not UTF-8 is read in the encoding of the var input_encoding: set it to windows-1252"
            " for a file saved by Excel or another Windows program (latin-1 reads the same)") from None
    return text.translate(_WINDOWS) if encoding == "latin-1" else text


def _read_header(path, encoding, forced_delimiter):
    """The file's encoding, delimiter, lines to skip before the header, and cleaned column names.

    An Excel-style first line `sep=;` names the delimiter and is skipped.
    """
    file_name = os.path.basename(path)
    with _open(path) as handle:
        head = handle.read(1 << 20)
    encoding = _file_encoding(path, head, encoding)
    lines = re.split(r"\r\n|\n|\r", _decode(head, encoding, file_name, final=False), maxsplit=2)
    skip = 0
    sep_line = re.fullmatch(r"sep=(.)", lines[0].strip("\ufeff "))
    if sep_line and len(lines) > 1:
        skip, forced_delimiter = 1, forced_delimiter or sep_line.group(1)
    line = lines[skip]
    if not line.strip():
        raise ExportFileError(f"{file_name}: the first line is empty; a CSV export needs a header line")
    if forced_delimiter is not None:
        delimiter = forced_delimiter
    else:
        counts = {char: _count_outside_quotes(line, char) for char in DELIMITERS}
        delimiter = max(DELIMITERS, key=lambda char: counts[char]) if max(counts.values()) > 0 else ","
    names = next(csv.reader([line], delimiter=delimiter, quotechar='"', doublequote=True))
    return encoding, delimiter, skip, _clean_names(names, file_name)


def _csv_options(columns, delimiter, encoding, skip=0):
    column_types = ", ".join(f"{_sql_text(name)}: 'VARCHAR'" for name in columns)
    return (
        "header = true, auto_detect = false, columns = " + "{" + column_types + "}"
        + f", delim = {_sql_text(delimiter)}, skip = {skip},"
        f" quote = '\"', escape = '\"', encoding = {_sql_text(encoding)}, max_line_size = {MAX_RECORD_BYTES},"
        " strict_mode = true")


def _read_csv_once(session, path, options, table):
    """Read a CSV file into the temporary table `table`; how many records DuckDB rejected (None when
    it cannot read the file at all: the record-by-record reader then says why)."""
    try:
        session.execute(
            f"create or replace temp table {table} as select * from read_csv({_sql_text(path)}, {options},"
            f" store_rejects = true, rejects_table = {_sql_text(table + '_rejects')},"
            f" rejects_scan = {_sql_text(table + '_rejects_scan')})").fetchall()
        return session.execute(f"select count(*) from {table}_rejects").fetchall()[0][0]
    except Exception:  # noqa: BLE001 - any reader error sends the file to the record-by-record reader
        return None


def _keeps_file_order(session):
    """Whether tables keep the order of the scans that fill them (DuckDB's preserve_insertion_order)."""
    return bool(session.execute("select current_setting('preserve_insertion_order')").fetchall()[0][0])


def _fields(record, delimiter):
    try:
        return next(csv.reader(io.StringIO(record, newline=""), delimiter=delimiter, quotechar='"',
                               doublequote=True, strict=True))
    except (csv.Error, StopIteration):
        return None


def _data_records(text, delimiter, n_columns):
    """(fields, raw text) of each data row after the header; fields is None for a record that does not parse.

    A record ends at a line end with its quotes closed. When a record that runs over several lines
    does not give the header's number of fields (a quote opened and never closed swallows the
    lines after it), only its first line is the malformed row, and reading goes on at the next
    line. Empty lines are skipped, as DuckDB's reader does; a line of empty cells shorter than the
    header (`,,`, spaces) is a blank row of the header's width, as a full-width one (`,,,,`) is.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    position, is_header = 0, True
    while position < len(lines):
        if lines[position].strip("\r") == "":
            position += 1
            continue
        end, quotes = position, lines[position].count('"')
        while quotes % 2 == 1 and end + 1 < len(lines):
            end += 1
            quotes += lines[end].count('"')
        record = "\n".join(lines[position:end + 1]).rstrip("\r")
        fields = _fields(record, delimiter) if quotes % 2 == 0 else None
        if is_header:
            is_header = False
        elif fields is not None and len(fields) == n_columns:
            yield fields, record
        elif fields is not None and all(not field.strip() for field in fields):
            # a blank row shorter than the header (`,,` or spaces): every cell empty, as a row of the
            # header's width, so that staging counts it as blank instead of quarantining it
            yield [""] * n_columns, record
        elif end > position:
            yield None, lines[position].rstrip("\r")
            end = position
        else:
            yield None, record
        position = end + 1


def _reread_csv(path, columns, delimiter, encoding, skip, work_dir, file_index):
    """Read a CSV file record by record; write its good records and bad ones to a clean CSV file."""
    file_name = os.path.basename(path)
    with _open(path) as handle:
        text = _decode(handle.read(), encoding, file_name)
    if "\n" not in text:
        text = text.replace("\r", "\n")  # old Mac line ends
    if skip:
        text = text.split("\n", skip)[-1]
    clean_path = os.path.join(work_dir, f"file_{file_index}.csv")
    n_rows = n_malformed = 0
    first_malformed = None
    with open(clean_path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["ragmart_source_row", "ragmart_malformed_record", *columns])
        for source_row, (fields, record) in enumerate(_data_records(text, delimiter, len(columns)), start=1):
            n_rows += 1
            if fields is None:
                n_malformed += 1
                first_malformed = first_malformed or record
                writer.writerow([source_row, record, *([""] * len(columns))])
            else:
                writer.writerow([source_row, "", *fields])
    if n_rows > 1 and n_malformed == n_rows:
        # not a few bad records but a file that does not match its own header: say so, naming the file
        raise ExportFileError(
            f"{file_name}: not one of its records matches its header ({len(columns)} columns split by"
            f" {delimiter!r}: {', '.join(columns)}); the first record reads {first_malformed[:200]!r}. Check the"
            " delimiter (var csv_delimiter) and the header line")
    return clean_path


def _csv_scan(session, path, input_name, file_index, encoding, forced_delimiter, work_dir):
    file_name = os.path.basename(path)
    _check_content(path)
    encoding, delimiter, skip, columns = _read_header(path, encoding, forced_delimiter)
    options = _csv_options(columns, delimiter, encoding, skip)
    table = f"ragmart_file_{file_index}"
    rejected = _read_csv_once(session, path, options, table)
    constants = (f"{_sql_text(input_name)} as ragmart_input, {file_index} as ragmart_file_index,"
                 f" {_sql_text(file_name)} as ragmart_source_file, {_sql_text(','.join(columns))} as ragmart_file_columns")
    if rejected == 0 and "rowid" not in columns and _keeps_file_order(session):
        # the table's rowid (a column of that name would hide it) is the record's place in the file, from 0
        return (f"select {constants}, rowid + 1 as ragmart_source_row,"
                f" cast(null as varchar) as ragmart_malformed_record, * from {table}")
    if rejected is not None:
        session.execute(f"drop table {table}")
    if rejected == 0:
        return (f"select {constants}, ordinality as ragmart_source_row,"
                " cast(null as varchar) as ragmart_malformed_record, * exclude (ordinality)"
                f" from read_csv({_sql_text(path)}, {options}) with ordinality")
    clean_path = _reread_csv(path, columns, delimiter, encoding, skip, work_dir, file_index)
    clean_columns = ["ragmart_source_row", "ragmart_malformed_record", *columns]
    clean_options = _csv_options(clean_columns, ",", "utf-8")
    selected = ", ".join(f"nullif({_identifier(name)}, '') as {_identifier(name)}" for name in columns)
    table = f"ragmart_reread_{file_index}"
    try:
        session.execute(
            f"create or replace temp table {table} as select {constants},"
            " cast(ragmart_source_row as bigint) as ragmart_source_row,"
            f" nullif(ragmart_malformed_record, '') as ragmart_malformed_record, {selected}"
            f" from read_csv({_sql_text(clean_path)}, {clean_options})").fetchall()
    except Exception as error:  # noqa: BLE001
        raise ExportFileError(f"{file_name}: the file cannot be read as CSV ({str(error).splitlines()[0]})") from None
    finally:
        os.remove(clean_path)
    return f"select * from {table}"


def _parquet_text(column, data_type):
    """A Parquet column rendered as text by its meaning."""
    value = _identifier(column)
    kind = data_type.upper()
    if kind == "BOOLEAN":
        return f"case when {value} then 'true' when not {value} then 'false' end"
    if kind in ("FLOAT", "DOUBLE", "REAL") or kind.startswith("DECIMAL"):
        number = f"cast({value} as double)"
        return (f"case when isfinite({number}) and {number} = trunc({number}) and abs({number}) < 1e15"
                f" then cast(cast({number} as bigint) as varchar) else cast({value} as varchar) end")
    if kind.startswith("TIMESTAMP") and ("TIME ZONE" in kind or "TZ" in kind):
        # the instant in UTC, whatever the session's time zone
        return f"strftime(timezone('UTC', cast({value} as timestamptz)), '%Y-%m-%dT%H:%M:%S.%fZ')"
    if kind.startswith("TIMESTAMP"):
        return f"strftime(cast({value} as timestamp), '%Y-%m-%dT%H:%M:%S.%f')"
    if kind == "DATE":
        return f"strftime({value}, '%Y-%m-%d')"
    return f"cast({value} as varchar)"


def _parquet_scan(session, path, input_name, file_index):
    file_name = os.path.basename(path)
    reader = f"read_parquet({_sql_text(path)}, file_row_number = true)"
    try:
        described = session.execute(f"describe select * from read_parquet({_sql_text(path)})").fetchall()
        raw_names = [row[0] for row in session.execute(
            f"select name from parquet_schema({_sql_text(path)}) where num_children is null or num_children = 0"
        ).fetchall()]
    except Exception as error:  # noqa: BLE001
        raise ExportFileError(f"{file_name}: the file cannot be read as Parquet ({str(error).splitlines()[0]})") from None
    _clean_names(raw_names, file_name)
    names = [row[0] for row in described]
    columns = _clean_names(names, file_name)
    selected = ", ".join(
        f"{_parquet_text(name, row[1])} as {_identifier(clean)}" for name, clean, row in zip(names, columns, described))
    constants = (f"{_sql_text(input_name)} as ragmart_input, {file_index} as ragmart_file_index,"
                 f" {_sql_text(file_name)} as ragmart_source_file, {_sql_text(','.join(columns))} as ragmart_file_columns")
    return (f"select {constants}, file_row_number + 1 as ragmart_source_row,"
            f" cast(null as varchar) as ragmart_malformed_record{', ' + selected if selected else ''} from {reader}")


def native_families(setting):
    """The families the var input_format (handed over as JSON) reads as `native`, in the order of
    INPUTS: every family for `native`, none for one tool's format, and for a mapping per family the
    families it maps to `native` or leaves out."""
    families = INPUTS[:3]
    try:
        value = json.loads(setting) if setting else "native"
    except ValueError:
        value = setting
    if isinstance(value, dict):
        return [name for name in families if (value.get(name) or "native") == "native"]
    return families if (value or "native") == "native" else []


def _listed(setting):
    """The families of the var allow_empty_exports, handed over as comma-separated text."""
    return {name.strip().lower() for name in (_setting(setting) or "").split(",") if name.strip()}


def _stop_on_empty_exports(found, empty_files, allowed):
    """Stop the build when every file of an export holds no data row (a header alone), unless the var
    allow_empty_exports lists it: a build without it would publish no metric of its family with exit 0.
    Files whose rows are all blank are caught by staging's guard (assert_exports_have_rows)."""
    empty = [name for name in ["retrieval", "grounding", "generation"]
             if found.get(name) and len(empty_files[name]) == len(found[name]) and name not in allowed]
    if empty:
        details = "; ".join(f"{name}: {', '.join(empty_files[name])}" for name in empty)
        raise ExportFileError(
            f"the {' and '.join(empty)} export{'s' if len(empty) > 1 else ''} hold{'' if len(empty) > 1 else 's'}"
            f" no data row, only a header ({details}). A build without them would publish no metric of that"
            " family and replace the published database; export again, or list the family in the var"
            " allow_empty_exports to publish without it, e.g. --vars '" + chr(123) + f"allow_empty_exports: [{empty[0]}]"
            + chr(125) + "'")


STATE_COLUMNS = ["ragmart_file_input", "ragmart_file_bytes", "ragmart_file_modified", "ragmart_file_digest",
                 "ragmart_file_rows", "ragmart_rows_left_out", "ragmart_file_state", "ragmart_read_with"]


def _no_rows_sql():
    """The model's own columns and no row."""
    return ("select cast(null as varchar) as ragmart_input, cast(null as varchar) as ragmart_source_file,"
            " cast(null as bigint) as ragmart_source_row, cast(null as varchar) as ragmart_file_columns,"
            " cast(null as varchar) as ragmart_malformed_record, cast(null as hugeint) as ragmart_row_digest,"
            " cast(null as boolean) as ragmart_copy_candidate where false")


def _no_rows(session):
    """No input file: the model's columns and no row."""
    return session.sql("select *, cast(null as varchar) as ragmart_file_input, cast(null as bigint) as ragmart_file_bytes,"
                       " cast(null as bigint) as ragmart_file_modified, cast(null as varchar) as ragmart_file_digest,"
                       " cast(null as bigint) as ragmart_file_rows, cast(null as bigint) as ragmart_rows_left_out,"
                       " cast(null as varchar) as ragmart_file_state, cast(null as varchar) as ragmart_read_with"
                       f" from ({_no_rows_sql()})")


def _code_digest():
    """A digest of this reader's code as dbt runs it (its file up to what dbt appends, with this build's
    values): rows kept from an earlier build were read by the same code only when it is equal, so a new
    version of ragmart reads every file again on its first build."""
    with open(__file__, "rb") as handle:
        return hashlib.sha256(handle.read().partition(b"\n# This part is user provided model code\n")[0]).hexdigest()


def _file_digest(path):
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _stored_files(session, this):
    """The files an earlier build read into this table (name: its state row), or None when the table
    has no state to go on (its rows predate it)."""
    columns = {row[0] for row in session.execute(f"describe {this}").fetchall()}
    if not set(STATE_COLUMNS + ["ragmart_row_digest", "ragmart_copy_candidate"]) <= columns:
        return None
    rows = session.execute(
        "select ragmart_source_file, ragmart_file_input, ragmart_file_bytes, ragmart_file_modified,"
        f" ragmart_file_digest, ragmart_file_rows, ragmart_rows_left_out, ragmart_read_with from {this}"
        " where ragmart_input = 'file' and ragmart_file_state = 'read'").fetchall()
    names = ["input", "bytes", "modified", "digest", "rows", "left_out", "read_with"]
    return {row[0]: dict(zip(names, row[1:])) for row in rows}


def _plan(files, stored, read_with):
    """Which files to read: (mode, files to read, files kept as read before, reason). `files` are
    (input, path, bytes, modified) in reading order. A file is kept when an earlier build read it with
    the same settings and code and its size and modification time (or, the time aside, its content
    digest) are unchanged; new files are read alone when each sorts after every kept file of its
    input. Anything else (a changed, removed or earlier-sorting file, other settings) reads every file."""
    if stored is None:
        return "all", files, [], "no file was read before into this database"
    if any(entry["read_with"] != read_with for entry in stored.values()):
        return "all", files, [], "the settings that read the files, or ragmart's reader, changed since the last build"
    names = {os.path.basename(path) for _, path, _, _ in files}
    removed = sorted(set(stored) - names)
    if removed:
        return "all", files, [], f"{removed[0]} was read at an earlier build and is no longer in the folder"
    kept, new = [], []
    for entry in files:
        input_name, path, size, modified = entry
        name = os.path.basename(path)
        before = stored.get(name)
        if before is None:
            new.append(entry)
        elif before["input"] != input_name or before["bytes"] != size:
            return "all", files, [], f"{name} changed since it was read (its size differs)"
        elif before["modified"] != modified and before["digest"] != _file_digest(path):
            return "all", files, [], f"{name} changed since it was read (its content differs)"
        else:
            kept.append(entry)
    for input_name, path, _, _ in new:
        name = os.path.basename(path)
        later = [other for other, entry in stored.items() if entry["input"] == input_name and other.encode() > name.encode()]
        if later:
            return "all", files, [], f"{name} is new and sorts before {max(later)}, read at an earlier build"
    return "new", new, kept, None


def _quoted_list(names):
    return ", ".join(_sql_text(name) for name in names)


def _row_digest_sql(columns):
    """A row's digest: MD5 of every non-null value with its column name and length, columns by name (so
    a column a file lacks and a null value give the same digest: rows equal as appended by name)."""
    parts = [f"case when {_identifier(name)} is not null then {_sql_text(name + '=')} || length({_identifier(name)})"
             f" || ':' || {_identifier(name)} end" for name in sorted(columns)]
    return f"md5_number(concat_ws('|', {', '.join(parts)}))"


def _copy_candidate_sql(columns):
    """True for a row that is surely not blank (staging's copy key holds a value: a record_uuid, chunk_id,
    annotator_id or created_at with a character other than a space, tab or line end, or a record that
    does not parse): only such a row may be left out as a copy, a blank row is counted as blank."""
    keys = [name for name in ("record_uuid", "chunk_id", "annotator_id", "created_at") if name in columns]
    tests = ["ragmart_malformed_record is not null"] + [
        f"regexp_matches(coalesce({_identifier(name)}, ''), '[^ \\t\\n\\r]')" for name in keys]
    return "(" + " or ".join(tests) + ")"


def _columns_of(session, relation):
    return [row[0] for row in session.execute(f"describe {relation}").fetchall()]


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="delete+insert", unique_key="ragmart_source_file",
               on_schema_change="append_new_columns")
    folder = _setting(dbt.config.get("input_path"))
    # each dbt.config.get on a line of its own: dbt finds the settings a Python model reads in its code
    encoding_setting = _setting(dbt.config.get("input_encoding"))
    forced_delimiter = _setting(dbt.config.get("csv_delimiter"))
    families = native_families(dbt.config.get("input_format"))
    allowed_empty = _listed(dbt.config.get("allow_empty_exports"))
    allow_outside = _switch(dbt.config.get("allow_outside_links"), "allow_outside_links")
    if folder is None and not families:  # no native family and no folder: Phoenix's database alone (base_phoenix__export)
        return _no_rows(session)
    if folder is None:
        raise ExportFileError("input_mode 'files' needs the var input_path, the folder of the exports,"
                              " e.g. --vars '{input_mode: files, input_path: /data/exports}'")
    folder = os.path.abspath(folder)
    encoding_name = (encoding_setting or "utf-8").lower()
    if encoding_name not in ENCODINGS:
        raise ExportFileError(f"var input_encoding must be utf-8, windows-1252 or latin-1, got '{encoding_name}'")
    encoding = ENCODINGS[encoding_name]
    if forced_delimiter is not None:
        forced_delimiter = {"\\t": "\t", "tab": "\t"}.get(forced_delimiter, forced_delimiter)
        if forced_delimiter not in DELIMITERS:
            raise ExportFileError(f"var csv_delimiter must be ',', ';' or a tab, got {forced_delimiter!r}")

    # a tool's own export (another input_format) is read by its own models; here the exports of
    # the native families, and the annotators and records files beside every format
    inputs = families + ["annotators", "records"]
    for link, target in _followed_links(folder, allow_outside):
        print(f"ragmart: input_path: followed the symbolic link {link} -> {target}", flush=True)
    found, ignored = _find_files(folder, inputs)
    missing = [f"{name}*" for name in families if not found[name]]
    if missing:
        others = ", ".join(ignored) if ignored else "none"
        raise ExportFileError(
            f"no {' or '.join(missing)} file (.csv, .tsv, .txt, .gz or .parquet) in input_path '{folder}'"
            f" (files whose names match no input: {others}); each export of the native format is required")

    files = []
    for input_name in inputs:
        for path in found[input_name]:
            stat = os.stat(path)
            files.append((input_name, path, stat.st_size, stat.st_mtime_ns))
    read_with = json.dumps({"input_encoding": encoding, "csv_delimiter": forced_delimiter, "families": families,
                            "reader": _code_digest()}, sort_keys=True)
    this = str(dbt.this) if dbt.is_incremental else None
    stored = _stored_files(session, this) if this else None
    mode, to_read, kept, reason = _plan(files, stored, read_with)
    if this and mode == "all":
        print(f"ragmart: every file of input_path is read again: {reason}", flush=True)
    if kept:
        names = [os.path.basename(path) for _, path, _, _ in kept]
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        print(f"ragmart: {len(kept)} file(s) read at an earlier build and unchanged, not read again: {shown}", flush=True)

    work_dir = tempfile.mkdtemp(prefix="ragmart_files_")  # clean copies of files re-read record by record
    scans = []
    try:
        for file_index, (input_name, path, _, _) in enumerate(to_read, start=1):
            try:
                if path.lower().endswith(".parquet"):
                    scans.append(_parquet_scan(session, path, input_name, file_index))
                else:
                    scans.append(_csv_scan(session, path, input_name, file_index, encoding, forced_delimiter, work_dir))
            except OSError as error:
                raise ExportFileError(f"{os.path.basename(path)}: the file cannot be read ({error})") from None
        if scans:
            session.execute("create or replace temp table ragmart_read as " + " union all by name ".join(scans))
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    for file_index in range(1, len(to_read) + 1):
        session.execute(f"drop table if exists ragmart_file_{file_index}")
        session.execute(f"drop table if exists ragmart_reread_{file_index}")
    counts = dict(session.execute("select ragmart_source_file, count(*) from ragmart_read group by all").fetchall()) \
        if scans else {}
    empty_files = {name: [] for name in inputs}
    for input_name, path, _, _ in files:
        name = os.path.basename(path)
        rows = stored[name]["rows"] if any(path == other for _, other, _, _ in kept) else counts.get(name, 0)
        if rows == 0:
            empty_files[input_name].append(name)
    _stop_on_empty_exports(found, empty_files, allowed_empty)
    return _batch(session, this, stored, mode, to_read, kept, families, read_with, bool(scans))


def _batch(session, this, stored, mode, to_read, kept, families, read_with, any_read):
    """What this build adds to the table (dbt's delete+insert replaces every file named in it): the rows of
    the files read, without the exact copies of rows of a file that sorts later (of the native exports;
    counted per file), the rows kept from earlier files that lose rows to the new files, and one state row
    (ragmart_input `file`) per file read, per earlier file that lost rows, and per file gone (`removed`)."""
    families_sql = _quoted_list(families) if families else "''"
    if any_read:
        columns = [name for name in _columns_of(session, "ragmart_read") if name != "ragmart_file_index"]
        digest_columns = [name for name in columns if name not in ("ragmart_source_file", "ragmart_source_row")]
        session.execute(
            "create or replace temp table ragmart_rows as select * exclude (ragmart_file_index),"
            f" {_row_digest_sql(digest_columns)} as ragmart_row_digest,"
            f" ragmart_input in ({families_sql}) and {_copy_candidate_sql(columns)} as ragmart_copy_candidate"
            " from ragmart_read")
        session.execute("drop table ragmart_read")
        session.execute(
            "create or replace temp table ragmart_rows as select *, coalesce(ragmart_copy_candidate"
            " and ragmart_source_file < max(ragmart_source_file) over (partition by ragmart_input, ragmart_row_digest),"
            " false) as ragmart_left_out from ragmart_rows")
    else:
        session.execute(f"create or replace temp table ragmart_rows as select *, false as ragmart_left_out"
                        f" from ({_no_rows_sql()}) as no_rows")
    kept_names = [os.path.basename(path) for _, path, _, _ in kept]
    dropped_before = {}
    if mode == "new" and kept_names and any_read:
        session.execute(
            "create or replace temp table ragmart_dropped_before as"
            f" select stored.ragmart_source_file, stored.ragmart_source_row from {this} as stored"
            " semi join (select distinct ragmart_input, ragmart_row_digest from ragmart_rows) as new_rows"
            " using (ragmart_input, ragmart_row_digest)"
            f" where stored.ragmart_copy_candidate and stored.ragmart_source_file in ({_quoted_list(kept_names)})")
        dropped_before = dict(session.execute(
            "select ragmart_source_file, count(*) from ragmart_dropped_before group by all").fetchall())
    read_counts = {row[0]: row[1:] for row in session.execute(
        "select ragmart_source_file, count(*), count(*) filter (where ragmart_left_out) from ragmart_rows"
        " group by all").fetchall()}
    states = []
    for input_name, path, size, modified in to_read:
        name = os.path.basename(path)
        n_rows, n_left_out = read_counts.get(name, (0, 0))
        states.append((name, input_name, size, modified, _file_digest(path), n_rows, n_left_out, "read"))
        copies = f", {n_left_out} of them exact copies of rows of a later file, left out" if n_left_out else ""
        print(f"ragmart: read {name} ({n_rows} rows{copies})", flush=True)
    for name, n_dropped in sorted(dropped_before.items()):
        entry = stored[name]
        states.append((name, entry["input"], entry["bytes"], entry["modified"], entry["digest"], entry["rows"],
                       entry["left_out"] + n_dropped, "read"))
        print(f"ragmart: {name}: {n_dropped} rows kept from an earlier build are exact copies of rows of a new file,"
              " left out", flush=True)
    if this and mode == "all":
        present = {os.path.basename(path) for _, path, _, _ in to_read}
        # a table of an earlier version of ragmart has no state rows: each of its files is gone or read again
        read_before = " and (ragmart_input <> 'file' or ragmart_file_state = 'read')" if stored is not None else ""
        earlier = session.execute(
            f"select distinct ragmart_source_file from {this} where ragmart_source_file is not null{read_before}"
        ).fetchall()
        gone = [row[0] for row in earlier if row[0] not in present]
        for name in sorted(gone):
            states.append((name, None, None, None, None, None, None, "removed"))
            print(f"ragmart: {name}: read at an earlier build, no longer in the folder: its rows are removed", flush=True)
    session.execute("create or replace temp table ragmart_states (ragmart_source_file varchar, ragmart_file_input varchar,"
                    " ragmart_file_bytes bigint, ragmart_file_modified bigint, ragmart_file_digest varchar,"
                    " ragmart_file_rows bigint, ragmart_rows_left_out bigint, ragmart_file_state varchar)")
    if states:
        session.executemany("insert into ragmart_states values (?, ?, ?, ?, ?, ?, ?, ?)", states)
    parts = ["select * exclude (ragmart_left_out) from ragmart_rows where not ragmart_left_out",
             "select 'file' as ragmart_input, cast(null as bigint) as ragmart_source_row,"
             f" {_sql_text(read_with)} as ragmart_read_with, * from ragmart_states"]
    if dropped_before:
        parts.append(
            f"select stored.* from {this} as stored anti join ragmart_dropped_before"
            " using (ragmart_source_file, ragmart_source_row) where stored.ragmart_input <> 'file'"
            f" and stored.ragmart_source_file in ({_quoted_list(sorted(dropped_before))})")
    session.execute("create or replace temp table ragmart_batch as " + " union all by name ".join(parts))
    batch_columns = set(_columns_of(session, "ragmart_batch"))
    missing = [(name, kind) for name, kind, *_ in session.execute(f"describe {this}").fetchall()
               if name not in batch_columns] if this else []
    extra = "".join(f", cast(null as {kind}) as {_identifier(name)}" for name, kind in missing)
    return session.sql(f"select *{extra} from ragmart_batch")
