"""Train naive Bayes on Apache Spark, then serve the model with no Spark at all.

    python examples/spark_train.py DATA.csv --target COL -o MODEL.json
        [--master local[*]] [--partitions 8] [--categorical COLS] [--gaussian COLS]
        [--text COLS] [--check]

Spark reads the CSV file; every partition fits its own model (mapPartitions, streaming
its rows through partial_fit), and the models are combined with treeReduce(merge).
Naive Bayes is a sum of counts and naive_bayes.py keeps exact sums, so the merged
model equals one fitted on all the rows, bit for bit, whatever the partitioning:
--check fits locally too and compares.  The model file then serves predictions
anywhere, with nothing but Python:

    python naive_bayes.py predict MODEL.json NEW.csv

Needs pyspark (pip install pyspark) and Java; --master takes any Spark master URL
(the default, local[*], runs on this machine).
"""

import argparse
import csv
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIBRARY = HERE.parent / "naive_bayes.py"
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

from naive_bayes import NaiveBayes, NaiveBayesError          # noqa: E402

MISSING = {"", "?"}


def column_kinds(path, target, declared, sample_size=10000):
    """{column: kind}: the declared ones, then Gaussian for columns whose non-missing
    cells (in the first rows) are all numbers, categorical for the others."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        sample = [row for _, row in zip(range(sample_size), reader)]
    kinds = {}
    for i, name in enumerate(header):
        if name == target:
            continue
        if name in declared:
            kinds[name] = declared[name]
            continue
        cells = [row[i] for row in sample if row[i] not in MISSING]
        kinds[name] = "gaussian" if cells and all(_is_number(c) for c in cells) \
            else "categorical"
    return kinds


def _is_number(cell):
    """As on the command line: anything float() reads (nan is then a missing value)."""
    try:
        float(cell)
    except ValueError:
        return False
    return True


def converter(kinds):
    """A function from a {column: cell} dict to the row of feature values."""
    names = list(kinds)

    def convert(record):
        row = []
        for name in names:
            cell = record.get(name)
            if cell is None or cell in MISSING or kinds[name] == "ignore":
                row.append(None)
            elif kinds[name] == "gaussian":
                try:
                    row.append(float(cell))
                except ValueError:
                    raise NaiveBayesError("column %r: %r is not a number, but the column "
                                          "is Gaussian; use --categorical %s"
                                          % (name, cell, name)) from None
            else:
                row.append(cell)
        return row
    return convert


def label_of(record, target):
    cell = record.get(target)
    return None if cell is None or cell in MISSING else cell


def fit_partition(records, target, kinds, params, batch=10000):
    """Fit one model on the records of one Spark partition, in batches, keeping no
    more than a batch in memory.  Runs on the executors."""
    from itertools import islice
    import naive_bayes
    convert = converter(kinds)
    model = naive_bayes.NaiveBayes(features=kinds, **params)
    records = iter(records)
    fitted = False
    while True:
        chunk = [record.asDict() for record in islice(records, batch)]
        if not chunk:
            break
        model.partial_fit([convert(r) for r in chunk], [label_of(r, target) for r in chunk])
        fitted = True
    return [model] if fitted else []


def fit_locally(path, target, kinds, params):
    """The same model, fitted by one process reading the file once."""
    convert = converter(kinds)
    with open(path, newline="", encoding="utf-8-sig") as handle:
        records = list(csv.DictReader(handle))
    return NaiveBayes(features=kinds, **params).fit([convert(r) for r in records],
                                                    [label_of(r, target) for r in records])


def statistics(model):
    """The model's counts and sums in a form that does not depend on the order in
    which values were first seen, so that two models can be compared exactly."""
    data = model.to_dict()
    features = {}
    for feature in data["features"]:
        if feature["kind"] == "categorical":
            features[feature["name"]] = {
                json.dumps(value): [row[i] for row in feature["counts"]]
                for i, value in enumerate(feature["values"])}
        else:
            features[feature["name"]] = {k: v for k, v in feature.items() if k != "name"}
    return data["classes"], data["class_count"], features


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="CSV file with a header row")
    parser.add_argument("--target", required=True, help="the label column")
    parser.add_argument("-o", "--output", required=True, help="where to write the model")
    parser.add_argument("--master", default="local[*]", help="Spark master (local[*])")
    parser.add_argument("--partitions", type=int, default=8, help="partitions (8)")
    for kind in ("categorical", "gaussian", "text"):
        parser.add_argument("--" + kind, default="", metavar="COLS",
                            help="comma-separated columns to treat as %s" % kind)
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--check", action="store_true",
                        help="fit locally as well and compare the two models")
    args = parser.parse_args(argv)

    declared = {name: kind for kind in ("categorical", "gaussian", "text")
                for name in getattr(args, kind).split(",") if name}
    kinds = column_kinds(args.data, args.target, declared)
    params = {"alpha": args.alpha}

    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(args.master).appName("naive_bayes")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.sparkContext.addPyFile(str(LIBRARY))          # naive_bayes.py on every executor
    try:
        started = time.perf_counter()
        # Quoted fields may hold line breaks and doubled quotes (RFC 4180), as Python's
        # csv module and the command line read them.
        frame = (spark.read.option("multiLine", True).option("escape", '"')
                 .csv(args.data, header=True, inferSchema=False, encoding="UTF-8")
                 .repartition(args.partitions))
        target = args.target
        models = frame.rdd.mapPartitions(
            lambda records: fit_partition(records, target, kinds, params))
        try:
            model = models.treeReduce(lambda a, b: a.merge(b))
        except Exception as error:        # the first line the executors said about it
            said = [line for line in str(error).splitlines() if "Error: " in line]
            if "empty RDD" in str(error):
                said = ["%s has a header but no rows" % args.data]
            raise SystemExit("spark_train.py: error: "
                             + (said[-1] if said else str(error).splitlines()[0]))
        seconds = time.perf_counter() - started
        partitions = frame.rdd.getNumPartitions()
    finally:
        spark.stop()
    # the target column's name goes in the model file, for naive_bayes.py predict
    model = NaiveBayes.from_dict(dict(model.to_dict(), target=args.target))
    model.save(args.output)
    rows = sum(model.class_count_)
    summary = {"rows": rows, "partitions": partitions, "seconds": seconds,
               "classes": dict(zip(model.classes_, model.class_count_))}
    print("Spark (%s): %s rows in %d partitions, fitted and merged in %.1f s"
          % (args.master, format(rows, ","), partitions, seconds))
    print("classes:", summary["classes"])
    print("wrote", args.output)

    if args.check:
        local = fit_locally(args.data, args.target, kinds, params)
        loaded = NaiveBayes.load(args.output)
        with open(args.data, newline="", encoding="utf-8-sig") as handle:
            records = [r for _, r in zip(range(2000), csv.DictReader(handle))]
        queries = [converter(kinds)(r) for r in records]
        ours, theirs = loaded.predict_proba(queries), local.predict_proba(queries)
        difference = max(abs(a - b) for p, q in zip(ours, theirs) for a, b in zip(p, q))
        identical = statistics(loaded) == statistics(local)
        summary.update(identical=identical, largest_difference=difference,
                       same_predictions=loaded.predict(queries) == local.predict(queries))
        print("local fit: statistics identical: %s; largest difference in predict_proba "
              "over %d rows: %g" % (identical, len(queries), difference))
    return summary


if __name__ == "__main__":
    summary = main()
    sys.exit(0 if summary.get("identical", True) else 1)
