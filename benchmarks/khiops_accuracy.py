"""Khiops on the benchmark's folds: accuracy, log loss and time, recorded as JSON.

    python -m venv /tmp/khiops-venv && /tmp/khiops-venv/bin/pip install khiops pandas
    PATH=/tmp/khiops-venv/bin:$PATH nice -n 10 python benchmarks/khiops_accuracy.py
    PATH=/tmp/khiops-venv/bin:$PATH nice -n 10 python benchmarks/khiops_accuracy.py --real

Khiops (Orange's MODL: supervised discretization and grouping, then a selective naive
Bayes averaged over the selected variables) is a comparison only: it is never a
dependency of the library or its tests.  This script runs khiops.sklearn's
KhiopsClassifier with its defaults on the very folds of benchmarks/accuracy.py (the
18 ARFF sets: reference/weka/cv.json, 2 x stratified 10-fold, seeds 1 and 2) and
writes reference/khiops/accuracy.json; with --real, on the real data sets of
benchmarks/real_data.py (the library's _stratified_folds, seeds 1 and 2) and writes
reference/khiops/real_data.json.  accuracy.py and real_data.py print Khiops' columns
from those files, so neither needs Khiops installed.

The data reach Khiops as a pandas DataFrame: numbers as floats, everything else as
strings, a missing value as NaN; labels as strings.  Per data set: the mean of the
fold accuracies (as Weka's), the log loss (the mean over every out-of-fold row of
-ln p(true class), p clipped to [1e-15, 1], as scikit-learn's log_loss), and the time
of fit and of predict_proba.  The predicted class is the first most probable class of
predict_proba.  Khiops' fit starts processes (MPI) and writes files, so its time is
mostly a fixed cost per call, whatever the data's size; both the wall clock and the
CPU seconds of this process and its children are recorded.
"""

import argparse
import json
import math
import os
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import accuracy  # noqa: E402
import real_data  # noqa: E402


def frame(names, numeric, rows):
    """A DataFrame of rows (lists in the order of names): numeric columns as floats,
    the others as strings, missing values as NaN."""
    import pandas as pd
    columns = {}
    for j, name in enumerate(names):
        if name in numeric:
            columns[name] = pd.Series([math.nan if r[j] is None else float(r[j]) for r in rows],
                                      dtype="float64")
        else:
            columns[name] = pd.Series([None if r[j] is None else str(r[j]) for r in rows],
                                      dtype="object")
    return pd.DataFrame(columns)


def evaluate(X, labels, folds, names, numeric):
    """Khiops over the folds: accuracy (mean of the fold accuracies), log loss (mean
    over the out-of-fold rows), seconds of fit and of predict_proba, and counts."""
    from khiops.sklearn import KhiopsClassifier
    labels = [str(label) for label in labels]
    fold_accuracy, losses = [], []
    fit_seconds = predict_seconds = fit_cpu = predict_cpu = 0.0
    fits = predicted = 0
    for assignment in folds:
        for fold in range(max(assignment) + 1):
            train = [i for i, f in enumerate(assignment) if f != fold]
            test = [i for i, f in enumerate(assignment) if f == fold]
            x_train = frame(names, numeric, [X[i] for i in train])
            x_test = frame(names, numeric, [X[i] for i in test])
            model = KhiopsClassifier()
            start, cpu = time.perf_counter(), cpu_seconds()
            model.fit(x_train, [labels[i] for i in train])
            fit_seconds += time.perf_counter() - start
            fit_cpu += cpu_seconds() - cpu
            start, cpu = time.perf_counter(), cpu_seconds()
            proba = model.predict_proba(x_test)
            predict_seconds += time.perf_counter() - start
            predict_cpu += cpu_seconds() - cpu
            fits += 1
            predicted += len(test)
            classes = [str(c) for c in model.classes_]
            correct = 0
            for i, p in zip(test, proba.tolist()):
                best = classes[p.index(max(p))]
                correct += best == labels[i]
                truth = p[classes.index(labels[i])] if labels[i] in classes else 0.0
                losses.append(-math.log(min(1.0, max(truth, 1e-15))))
            fold_accuracy.append(correct / len(test))
    return {"accuracy": sum(fold_accuracy) / len(fold_accuracy),
            "log_loss": sum(losses) / len(losses), "fold_accuracy": fold_accuracy,
            "fit_seconds": fit_seconds, "predict_seconds": predict_seconds,
            "fit_cpu_seconds": fit_cpu, "predict_cpu_seconds": predict_cpu,
            "fits": fits, "predicted_rows": predicted}


def cpu_seconds():
    """CPU seconds of this process and of its finished children (Khiops' processes)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def arff_sets(only):
    """(name, X, labels, folds, names, numeric names) of the 18 sets of cv.json."""
    with open(ROOT / "reference" / "weka" / "cv.json", encoding="utf-8") as handle:
        weka = json.load(handle)
    for name, data in weka["datasets"].items():
        if only and name not in only:
            continue
        names, kinds, _, rows, _ = accuracy.read_arff(ROOT / data["file"])
        folds = accuracy.folds_of(weka, data)
        numeric = {n for n, kind in kinds.items() if kind == "gaussian"}
        yield name, [r[:-1] for r in rows], [r[-1] for r in rows], folds, names, numeric


def real_sets(only):
    """(name, X, labels, folds, names, numeric names) of real_data.py's sets."""
    for name in (only or real_data.DATASETS):
        if name not in real_data.ALL:
            continue
        table = real_data.load(name)
        folds = real_data.folds_of(table.y)
        numeric = {n for n, kind in table.kinds.items() if kind == "gaussian"}
        yield name, table.X, table.y, folds, table.names, numeric


def write(output, results, order, real, version):
    """The JSON file of the results so far."""
    document = {
        "khiops_version": version,
        "classifier": "khiops.sklearn.KhiopsClassifier() (defaults)",
        "command": "PATH=/tmp/khiops-venv/bin:$PATH nice -n 10 python "
                   "benchmarks/khiops_accuracy.py" + (" --real" if real else ""),
        "folds": "real_data.folds_of: naive_bayes._stratified_folds(y, 10, seed), seeds 1 and 2"
                 if real else "reference/weka/cv.json (2 x stratified 10-fold, seeds 1 "
                 "and 2)",
        "accuracy_rule": "mean of the fold accuracies; predicted = the first most probable "
                         "class of predict_proba",
        "log_loss_rule": "mean over every out-of-fold row of -ln max(1e-15, p(true class))",
        "time_rule": "seconds of KhiopsClassifier.fit and of predict_proba, summed over "
                     "the folds (a process started per call): wall clock (*_seconds) and "
                     "CPU of this process and its children (*_cpu_seconds)",
        "machine": "%d cores, %s" % (os.cpu_count(), sys.platform),
        "datasets": {name: results[name] for name in order if name in results}}
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(str(output) + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=1)
        handle.write("\n")
    Path(str(output) + ".tmp").replace(output)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", action="store_true",
                        help="the real data sets of real_data.py (default: the 18 ARFF sets)")
    parser.add_argument("--only", help="comma-separated data sets")
    parser.add_argument("--output", help="default: reference/khiops/accuracy.json, or "
                        "real_data.json with --real")
    args = parser.parse_args(argv)
    import khiops
    warnings.filterwarnings("ignore", message="Sample datasets location")
    only = args.only.split(",") if args.only else None
    output = Path(args.output) if args.output else ROOT / "reference" / "khiops" / (
        "real_data.json" if args.real else "accuracy.json")
    results = {}
    if output.exists():                   # --only updates some data sets of the file
        with open(output, encoding="utf-8") as handle:
            results = json.load(handle).get("datasets", {})
    start = time.perf_counter()
    order = list(real_data.ALL) if args.real else list(accuracy.weka_sets())
    for name, X, labels, folds, names, numeric in (real_sets if args.real else arff_sets)(only):
        result = evaluate(X, labels, folds, names, numeric)
        results[name] = result
        print("%-20s accuracy %.4f  log loss %.4f  fit %.1f s  predict %.1f s"
              % (name, result["accuracy"], result["log_loss"], result["fit_seconds"],
                 result["predict_seconds"]), flush=True)
        write(output, results, order, args.real, khiops.__version__)   # after every set
    write(output, results, order, args.real, khiops.__version__)
    print("wrote %s (%.0f s)" % (output, time.perf_counter() - start), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
