"""Runs a purevision subcommand over a list of image paths on Apache Spark, through RDD.pipe.

    python3 tools/spark_batch.py TASK PATHS_FILE OUTPUT_DIR [--partitions N] [--binary PATH] [--master URL]
                                 [-- EXTRA_CLI_ARGS...]

Each partition of PATHS_FILE's lines is streamed through one `purevision TASK - --json EXTRA_CLI_ARGS` process (the
model is loaded once per partition); every output line is one JSON object — a result, or an error line for an input
that could not be read — and OUTPUT_DIR is written as Spark's JSON-lines part files (`part-*`), one row per image
with the CLI's fields. The job fails if a partition's process exits for another reason than failed inputs.

Needs a Java runtime (Debian: openjdk-17-jre-headless) and `pyspark` (pip); runs on `local[2]` unless --master is
given. On a cluster, ship the binary with `--binary ./purevision` and spark-submit's `--files`, or install it on the
workers; the image paths must be readable there. Not part of `swift test`.
"""
import argparse
import json
import os
import shlex
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Arguments after -- are passed to purevision.")
    parser.add_argument("task", help="purevision subcommand: hands, faces, classify, face-analyze, …")
    parser.add_argument("paths_file", help="image paths, one per line")
    parser.add_argument("output_dir", help="where Spark writes the part-* JSON-lines files")
    parser.add_argument("--partitions", type=int, default=2)
    parser.add_argument("--binary", default=".build/release/purevision",
                        help="the purevision executable (default: the release build in this checkout)")
    parser.add_argument("--master", default="local[2]")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    extra = argv[split + 1:]

    from pyspark.sql import SparkSession  # imported late: --help works without pyspark

    binary = os.path.abspath(args.binary) if os.path.exists(args.binary) else args.binary
    command = [binary, args.task, "-", "--json", *extra]
    spark = (SparkSession.builder.master(args.master).appName(f"purevision {args.task}")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        started = time.monotonic()
        paths = spark.sparkContext.textFile(args.paths_file, minPartitions=args.partitions) \
            .map(str.strip).filter(bool).repartition(args.partitions)
        # purevision exits with 1 when some inputs failed (their error lines are rows like the others), so the exit
        # status is not checked; a partition whose process wrote nothing leaves the job without rows.
        # Cached: reading JSON infers the schema in one pass and writes in another, which would run the pipe twice.
        rows = paths.pipe(" ".join(shlex.quote(part) for part in command), checkCode=False).cache()
        spark.read.json(rows).write.mode("overwrite").json(args.output_dir)
        elapsed = time.monotonic() - started
        written = spark.read.json(args.output_dir)
        count = written.count()
        if count == 0:
            raise SystemExit(f"spark_batch: `{' '.join(command)}` wrote no rows (is the binary on the workers?)")
        failed = written.filter("error IS NOT NULL").count() if "error" in written.columns else 0
        print(json.dumps({"task": args.task, "rows": count, "failed": failed, "partitions": args.partitions,
                          "seconds": round(elapsed, 2), "imagesPerSecond": round(count / elapsed, 2)}))
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
