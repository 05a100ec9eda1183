"""Train any model family of naive_bayes.py on Apache Spark, then serve the model with no Spark.

    python examples/spark_train.py DATA.csv --target COL -o MODEL.json
        [--model naive|aode|tan|bayesnet|auto|kdb] [--master local[*]] [--partitions 8]
        [--categorical COLS] [--gaussian COLS] [--discretized COLS] [--text COLS]
        [--ignore COLS] [--numeric KIND] [the family's options] [--check]

Spark reads the CSV file; every partition counts its rows into a model of its own
(mapPartitions, streaming them through partial_fit in batches of 10,000), the models
are combined with treeReduce(merge), and the driver finishes the merged model as its
family requires:

    naive           nothing: the merged counts and sums are the model
    aode            nothing: the class, value and pairwise counts are the model (its
                    bins are cut from them when it is compiled)
    tan, bayesnet   nothing: the structure search runs on the merged statistics (every
                    distinct row, exact) when the model is compiled, to be written
    auto            the partitions only count (partial_fit chooses no weights); the
                    driver calls choose_weights() on the merged model, which chooses
                    the mixture's weights by the internal cross-validation from the rows
                    the statistics keep, as fit chooses them

The families are the library's own (its --model names, naive_bayes._cli_models()), so
one the library adds (kdb) is taken here as it is: the step after the merge is the one
the family declares (a family whose merge is not its fit, _merge_is_fit False, has its
choose_weights() called).  Every family keeps exact statistics, so the model written
equals one fitted on all the rows by one process, whatever the partitioning: --check
fits the same file locally (naive_bayes' fit, same kinds and options) and prints one
line, whether the two models' to_dict() are equal and the largest difference of their
predict_proba on the file's first 2,000 rows; the exit status is 1 when they differ.
The model file then serves predictions anywhere, with nothing but Python:

    python naive_bayes.py predict MODEL.json NEW.csv

Column kinds come from the first 10,000 rows: a column whose cells are all numbers is
numeric (--numeric, else the family's default: gaussian for naive, discretized, cut
into MDL bins, for the others), any other categorical; --categorical, --gaussian, ...
name them instead.  A kind the family reads as another is passed as that one
(AutoBayes bins a gaussian column), and one it cannot take is refused with the fix.

Needs pyspark (pip install pyspark) and Java; --master takes any Spark master URL
(the default, local[*], runs on this machine).
"""

import argparse
import csv
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIBRARY = HERE.parent / "naive_bayes.py"
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

import naive_bayes                                            # noqa: E402
from naive_bayes import NaiveBayesError                       # noqa: E402

MISSING = {"", "?"}
KINDS = ("categorical", "gaussian", "discretized", "kde", "poisson", "text", "ignore")
NUMBERS = ("gaussian", "discretized", "kde", "poisson")        # kinds read as floats
CHECKED_ROWS = 2000                   # the rows --check compares predict_proba on


def families():
    """{--model name: classifier}: the library's own registry."""
    return naive_bayes._cli_models()


def family(name):
    """The classifier of --model name; SystemExit naming the choices otherwise."""
    known = families()
    if name in known:
        return known[name]
    if name == "kdb":
        raise SystemExit("spark_train.py: error: --model kdb: this naive_bayes.py (%s) has "
                         "no KDB family; its families are %s (use a naive_bayes.py that "
                         "has KDB)" % (LIBRARY, ", ".join(known)))
    raise SystemExit("spark_train.py: error: --model %s: expected one of %s"
                     % (name, ", ".join(known)))


def column_kinds(path, target, declared, numeric="gaussian", sample_size=10000):
    """{column: kind}: the declared ones, then ``numeric`` for columns whose
    non-missing cells (in the first rows) are all numbers, categorical for the others."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        header = next(reader, [])
        if target not in header:
            raise SystemExit("spark_train.py: error: --target %s: %s has no such column; "
                             "its columns are %s" % (target, path, ", ".join(header)))
        sample = [row for _, row in zip(range(sample_size), reader)]
    kinds = {}
    for i, name in enumerate(header):
        if name == target:
            continue
        if name in declared:
            kinds[name] = declared[name]
            continue
        cells = [row[i] for row in sample if i < len(row) and row[i] not in MISSING]
        kinds[name] = numeric if cells and all(_is_number(c) for c in cells) \
            else "categorical"
    return kinds


def family_kinds(cls, kinds, declared=()):
    """The kinds as the family takes them: a kind it reads as another (its _kind_map)
    passed as that one; SystemExit naming the fix for a kind it cannot take."""
    mapped = {name: (cls._kind_map or {}).get(kind, kind) for name, kind in kinds.items()}
    allowed = cls._allowed_kinds
    for name, kind in mapped.items():
        if allowed is not None and kind not in allowed:
            how = "--%s" % kind if name in declared else "its values"
            raise SystemExit("spark_train.py: error: --model %s takes %s columns; column "
                             "%r is %s (by %s): use --%s %s or --ignore %s"
                             % (cls._command_name, ", ".join(allowed), name, kind, how,
                                "categorical" if kind == "text" else "discretized",
                                name, name))
    return mapped


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
            elif kinds[name] in NUMBERS:
                try:
                    row.append(float(cell))
                except ValueError:
                    raise NaiveBayesError("column %r: %r is not a number, but the column "
                                          "is %s; use --categorical %s"
                                          % (name, cell, kinds[name], name)) from None
            else:
                row.append(cell)
        return row
    return convert


def label_of(record, target):
    cell = record.get(target)
    return None if cell is None or cell in MISSING else cell


def fit_partition(records, target, model_name, kinds, params, batch=10000):
    """Count the records of one Spark partition into a model, in batches, keeping no
    more than a batch in memory (partial_fit: for AutoBayes, counts without choosing
    weights).  Runs on the executors."""
    from itertools import islice
    import naive_bayes
    convert = converter(kinds)
    model = naive_bayes._cli_models()[model_name](features=kinds, **params)
    records = iter(records)
    fitted = False
    while True:
        chunk = [record.asDict() for record in islice(records, batch)]
        if not chunk:
            break
        model.partial_fit([convert(r) for r in chunk], [label_of(r, target) for r in chunk])
        fitted = True
    return [model] if fitted else []


def check_finishing(cls):
    """SystemExit, before Spark starts, when the family's merged model cannot be
    finished (see finish)."""
    if not cls._merge_is_fit and not hasattr(cls, "choose_weights"):
        raise SystemExit("spark_train.py: error: --model %s: %s's merge is not its fit, "
                         "and this naive_bayes.py's %s has no choose_weights() to finish "
                         "the merged model with (use a naive_bayes.py that has it)"
                         % (cls._command_name, cls.__name__, cls.__name__))


def finish(model):
    """What the driver does on the merged model: nothing for a family whose merge is
    its fit; choose_weights() for one whose fit also chooses from the rows (AutoBayes'
    mixture weights, by its internal cross-validation)."""
    if not type(model)._merge_is_fit:
        check_finishing(type(model))
        model.choose_weights()
    return model


def describe(model, path, target):
    """Record in the model what the command line's fit records: the label column's
    name (for naive_bayes.py predict) and the fingerprint of the data file (for
    evaluate and report, which then say they are in-sample); returns the model."""
    import hashlib
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    model.target_ = target
    model.training_data_ = {"sha256": digest.hexdigest()}
    return model


def read_rows(path, kinds, target, limit=None):
    """(X, y) of the file as the partitions read it (``limit``: the first rows only)."""
    from itertools import islice
    convert = converter(kinds)
    with open(path, newline="", encoding="utf-8-sig") as handle:
        records = list(islice(csv.DictReader(handle), limit))
    return [convert(r) for r in records], [label_of(r, target) for r in records]


def fit_locally(path, target, cls, kinds, params):
    """The same model fitted by one process reading the file once (the library's fit,
    which for AutoBayes chooses the weights itself)."""
    X, y = read_rows(path, kinds, target)
    return describe(cls(features=kinds, **params).fit(X, y), path, target)


def check(path, target, model_name, cls, kinds, params, written):
    """Compare the model file with a local fit: (summary fields, the line printed)."""
    local = fit_locally(path, target, cls, kinds, params)
    served = cls.load(written)
    queries, _ = read_rows(path, kinds, target, CHECKED_ROWS)
    ours, theirs = served.predict_proba(queries), local.predict_proba(queries)
    difference = max(abs(a - b) for p, q in zip(ours, theirs) for a, b in zip(p, q))
    identical = served.to_dict() == local.to_dict()
    fields = {"identical": identical, "largest_difference": difference,
              "same_predictions": served.predict(queries) == local.predict(queries)}
    line = ("check (%s): Spark's model and a local fit: to_dict() %s; largest difference "
            "in predict_proba over %d rows: %g"
            % (model_name, "identical" if identical else "DIFFERENT", len(queries),
               difference))
    return fields, line


def _number(text):
    """A number option: an int when written as one, else a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


_number.__name__ = "number"           # argparse names the type in its messages


def family_options(parser):
    """The options of every family's parameters that the library's command line has
    (--alpha, --max-parents, ...), from its registry; {dest: parameter name}."""
    parameters = {}
    for cls in reversed(list(families().values())):     # naive Bayes' choices last
        parameters.update(cls._parameters)
    dests = {}
    for name, parameter in parameters.items():
        if parameter.option is None or name == "numeric":
            continue
        kind, text = parameter.option[:2]
        extra = dict(parameter.option[2]) if len(parameter.option) > 2 else {}
        option = "--" + name.replace("_", "-")
        dest = "param_" + name
        if isinstance(kind, tuple):
            parser.add_argument(option, dest=dest, choices=kind, help=text)
        elif kind is bool:
            parser.add_argument(option, dest=dest, action="store_const", const=True,
                                help=text)
        else:
            number = kind is naive_bayes._cli_number
            extra.setdefault("metavar", name.upper().split("_")[-1])
            parser.add_argument(option, dest=dest, help=text,
                                type=_number if number else kind, **extra)
        dests[dest] = name
    return dests


def chosen_params(args, dests, cls):
    """The family's parameters given as options; SystemExit for an option the family
    does not have or a value it refuses."""
    params = {}
    for dest, name in dests.items():
        value = getattr(args, dest)
        if value is None:
            continue
        option = "--" + name.replace("_", "-")
        if name not in cls._parameters:
            raise SystemExit("spark_train.py: error: %s is not an option of --model %s"
                             % (option, args.model))
        if type(value) is list:                      # nargs: a tuple, as the CLI's
            value = tuple(value)
        problem = cls._parameters[name].check(value)
        if problem is not None:
            raise SystemExit("spark_train.py: error: %s %s: %s"
                             % (option, value, problem if problem.startswith(name)
                                else "expected " + problem))
        params[name] = value
    return params


def spark_session(master="local[*]"):
    """A SparkSession whose executors import ../naive_bayes.py (addPyFile)."""
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master(master).appName("naive_bayes")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.sparkContext.addPyFile(str(LIBRARY))          # naive_bayes.py on every executor
    return spark


def main(argv=None, spark=None):
    """Fit, merge, finish and write the model; with --check compare it with a local
    fit.  ``spark``: a session from spark_session() to use (and leave running; --master
    is then its own), else one is started on --master and stopped.  Returns a summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="CSV file with a header row")
    parser.add_argument("--target", required=True, help="the label column")
    parser.add_argument("-o", "--output", required=True, help="where to write the model")
    parser.add_argument("--model", default="naive", metavar="FAMILY",
                        help="the model family: %s (default naive)" % ", ".join(families()))
    parser.add_argument("--master", default="local[*]", help="Spark master (local[*])")
    parser.add_argument("--partitions", type=int, default=8, help="partitions (8)")
    for kind in KINDS:
        parser.add_argument("--" + kind, default="", metavar="COLS",
                            help="comma-separated columns to treat as %s" % kind)
    parser.add_argument("--numeric", choices=NUMBERS, help="the kind of the columns of "
                        "numbers not named (default: the family's, gaussian for naive, "
                        "discretized for the others)")
    dests = family_options(parser)
    parser.add_argument("--check", action="store_true",
                        help="fit locally as well and compare the two models")
    args = parser.parse_args(argv)

    cls = family(args.model)
    check_finishing(cls)
    params = chosen_params(args, dests, cls)
    declared = {name: kind for kind in KINDS for name in getattr(args, kind).split(",")
                if name}
    numeric = args.numeric or (cls._parameters["numeric"].default
                               if "numeric" in cls._parameters else "gaussian")
    kinds = family_kinds(cls, column_kinds(args.data, args.target, declared, numeric),
                         declared)

    own = spark is None
    if own:
        spark = spark_session(args.master)
    master = spark.sparkContext.master
    try:
        started = time.perf_counter()
        # Quoted fields may hold line breaks and doubled quotes (RFC 4180), as Python's
        # csv module and the command line read them.
        frame = (spark.read.option("multiLine", True).option("escape", '"')
                 .csv(args.data, header=True, inferSchema=False, encoding="UTF-8")
                 .repartition(args.partitions))
        target, name = args.target, args.model
        models = frame.rdd.mapPartitions(
            lambda records: fit_partition(records, target, name, kinds, params))
        try:
            model = models.treeReduce(lambda a, b: a.merge(b))
        except Exception as error:        # the first line the executors said about it
            said = [line for line in str(error).splitlines() if "Error: " in line]
            if "empty RDD" in str(error):
                said = ["%s has a header but no rows" % args.data]
            raise SystemExit("spark_train.py: error: "
                             + (said[-1] if said else str(error).splitlines()[0]))
        merged = time.perf_counter() - started
        partitions = frame.rdd.getNumPartitions()
    finally:
        if own:
            spark.stop()
    started = time.perf_counter()
    model = describe(finish(model), args.data, args.target)
    model.save(args.output)        # compiles the model: a network's structure search
    finished = time.perf_counter() - started
    rows = sum(model.class_count_)
    summary = {"model": args.model, "rows": rows, "partitions": partitions,
               "seconds": merged, "driver_seconds": finished,
               "classes": dict(zip(model.classes_, model.class_count_)),
               "kinds": dict(kinds)}
    print("Spark (%s), --model %s: %s rows in %d partitions, counted and merged in %.1f s; "
          "finished and written by the driver in %.1f s"
          % (master, args.model, format(rows, ","), partitions, merged, finished))
    print("classes:", summary["classes"])
    print("wrote", args.output)

    if args.check:
        fields, line = check(args.data, args.target, args.model, cls, kinds, params,
                             args.output)
        summary.update(fields, check_line=line)
        print(line)
    return summary


if __name__ == "__main__":
    summary = main()
    sys.exit(0 if summary.get("identical", True) else 1)
