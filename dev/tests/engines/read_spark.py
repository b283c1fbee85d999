"""Read tables of a local Spark warehouse (as the `spark` target of profiles/profiles.yml left it)
and write them as JSON: ``{table: {"columns": [...], "rows": [[...], ...]}}``.

Runs in its own process (the embedded Derby metastore admits one JVM at a time), with the same
warehouse, metastore and time zone settings as the profile:

    python read_spark.py --spark-dir DIR --out FILE SCHEMA.TABLE [SCHEMA.TABLE ...]

Doubles are written with repr() (exact), timestamps as ISO text in UTC, dates as ISO text.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
from decimal import Decimal


def plain(value):
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, Decimal):
        return {"float": repr(float(value))}
    if isinstance(value, dt.datetime):
        # pyspark gives naive local times; the process runs with TZ=UTC, so they are UTC already.
        return {"timestamp": value.isoformat()}
    if isinstance(value, dt.date):
        return {"date": value.isoformat()}
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spark-dir", required=True, help="RAGMART_SPARK_DIR of the build")
    parser.add_argument("--out", required=True)
    parser.add_argument("tables", nargs="+", help="each as schema.table; written under its table name")
    args = parser.parse_args()
    os.environ["TZ"] = "UTC"

    from pyspark.sql import SparkSession

    spark_dir = os.path.abspath(args.spark_dir)
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("ragmart-read")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", f"{spark_dir}/warehouse")
        .config("spark.hadoop.javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=metastore_db;create=true")
        .config("spark.driver.extraJavaOptions",
                f"-Dderby.system.home={spark_dir} -Dderby.stream.error.file={spark_dir}/derby.log")
        .enableHiveSupport()
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    out = {}
    try:
        for qualified in args.tables:
            frame = spark.table(qualified)
            out[qualified.split(".", 1)[1]] = {"columns": frame.columns,
                          "rows": [[plain(v) for v in row] for row in frame.collect()]}
    finally:
        spark.stop()
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh)


if __name__ == "__main__":
    main()
