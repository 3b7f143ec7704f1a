#!/usr/bin/env python3
"""Read every table of `arbiter batch` output folders with pyarrow, pandas,
polars and DuckDB, as a data person would, and check the contract of
docs/tables.md: each Parquet file opens in all four, carries
`arbiter.schema_version`, holds only portable types (UTF-8 strings, signed
64-bit integers, doubles, booleans), and its CSV twin holds the same rows
when read with the documented text columns as text.

Usage: scripts/read_tables.py SCHEMA_VERSION DIR...  (exit 1 on any
departure, with what departed)."""

import glob
import os
import sys

import duckdb
import pandas
import polars
import pyarrow
import pyarrow.parquet as pq

PORTABLE = {"large_string", "string", "int64", "double", "bool"}


def main():
    version = sys.argv[1].encode()
    failed = []
    seen = 0
    for folder in sys.argv[2:]:
        for path in sorted(glob.glob(os.path.join(folder, "*.parquet"))):
            seen += 1
            name = os.path.basename(path)
            meta = pq.read_metadata(path).metadata or {}
            if meta.get(b"arbiter.schema_version") != version:
                failed.append(f"{name}: schema_version {meta.get(b'arbiter.schema_version')!r}")
            table = pq.read_table(path)
            types = {str(t) for t in table.schema.types}
            if not types <= PORTABLE:
                failed.append(f"{name}: types {sorted(types - PORTABLE)}")
            frame = pandas.read_parquet(path)
            pl = polars.read_parquet(path)
            (rows,) = duckdb.sql(f"select count(*) from read_parquet('{path}')").fetchall()[0]
            if not (table.num_rows == len(frame) == pl.height == rows):
                failed.append(f"{name}: rows {table.num_rows} {len(frame)} {pl.height} {rows}")
            # the CSV twin, with every text column read as text (DuckDB
            # would read round "1.1" as a number)
            text = {f.name: "VARCHAR" for f in table.schema if str(f.type) in ("large_string", "string")}
            csv = path[: -len(".parquet")] + ".csv"
            (csv_rows,) = duckdb.sql(
                f"select count(*) from read_csv('{csv}', header = true, types = {text!r})"
            ).fetchall()[0]
            if csv_rows != table.num_rows:
                failed.append(f"{name}: the CSV holds {csv_rows} rows, the Parquet file {table.num_rows}")
            if "round" in table.column_names:
                got = duckdb.sql(
                    f"select typeof(round) from read_csv('{csv}', header = true, types = {text!r}) limit 1"
                ).fetchall()
                if got and got[0][0] != "VARCHAR":
                    failed.append(f"{name}: round read as {got[0][0]}")
    print(
        f"read {seen} tables with pyarrow {pyarrow.__version__}, pandas {pandas.__version__}, "
        f"polars {polars.__version__}, duckdb {duckdb.__version__}"
    )
    if seen == 0:
        failed.append("no table read")
    for f in failed:
        print(f"departs: {f}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
