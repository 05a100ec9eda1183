"""Accuracy: naive_bayes.py's models next to Weka's, on identical folds.

    python benchmarks/accuracy.py                     # every data set, a few minutes
    python benchmarks/accuracy.py --only iris,vote    # some of them
    python benchmarks/accuracy.py --models "AODE,AODE m,WAODE"   # some columns

The data sets are the ARFF files in examples/data (Weka's examples and three of
scikit-learn's).  The folds, and Weka 3.6.14's predictions on them, come from
reference/weka/cv.json (recorded by reference/record_weka.py) and, for the AODE
variants (the m-estimate, frequency limit 0, WAODE, ReplaceMissingValues first), from
reference/weka/aode_variants.json (reference/record_weka_aode.py): 10-fold stratified
cross-validation done twice (seeds 1 and 2), the same folds for every model.  Each
model of this library is fitted as the command line fits an ARFF file: the declared
nominal values as categories, the declared classes, alpha = 1 and prior_alpha = 1
(Weka's Laplace counts).  Printed: the mean accuracy over the 20 folds, per data set
and on average (Weka's mean over the sets it answered: its WAODE refuses missing
values).  Standard library only (the library itself).
"""

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import naive_bayes  # noqa: E402
from naive_bayes import AODE, NaiveBayes  # noqa: E402

# (column title, model factory given the declared kinds and categories)
MODELS = [
    ("gaussian", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=kinds, categories=categories)),
    ("discretized", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "discretized"), categories=categories)),
    ("kde", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "kde"), categories=categories)),
    ("AODE", lambda kinds, categories: AODE(
        alpha=1, features=switch(kinds, "discretized"), categories=categories)),
] + [(title, lambda kinds, categories, params=params: AODE(
    features=switch(kinds, "discretized"), categories=categories, **params))
     for title, params in [
         ("AODE m", {"estimate": "m"}),
         ("AODE F0", {"frequency_limit": 0}),
         ("AODE MI", {"weighting": "mutual-information"}),
         ("WAODE", {"weighting": "mutual-information", "estimate": "m", "frequency_limit": 0}),
         ("AODE impute", {"impute": True}),
         ("AODE impute m", {"impute": True, "estimate": "m"}),
         ("WAODE impute", {"impute": True, "weighting": "mutual-information",
                           "estimate": "m", "frequency_limit": 0})]] + [
    ("discretized, 3 digits", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "discretized"), categories=categories,
        significant_digits=3)),
    ("kde, 3 digits", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "kde"), categories=categories,
        significant_digits=3)),
]
WEKA = {"gaussian": "NaiveBayes", "discretized": "NaiveBayes -D", "kde": "NaiveBayes -K",
        "AODE": "AODE -F 1", "AODE m": "AODE -F 1 -M", "AODE F0": "AODE -F 0",
        "WAODE": "WAODE", "AODE impute": "ReplaceMissingValues+AODE -F 1",
        "AODE impute m": "ReplaceMissingValues+AODE -F 1 -M",
        "WAODE impute": "ReplaceMissingValues+WAODE"}


def weka_accuracy(weka, variants, name, key):
    """Weka's mean accuracy of a config on a data set (cv.json, or aode_variants.json
    for the AODE variants), after supervised Discretize on data with numbers; None
    where Weka refused the data (WAODE: missing values).  WAODE's NaN answers (every
    weight 0) count as wrong, as classifyInstance answers no class there."""
    impute = key.startswith("ReplaceMissingValues+")
    base = key.split("+")[-1]
    for results in (weka["datasets"][name]["results"], variants["cv"][name]["results"]):
        for candidate in (key, "Discretize+" + key,
                          "ReplaceMissingValues+Discretize+" + base if impute else None):
            result = results.get(candidate)
            if result is not None:
                return None if result.get("errors") else result["mean_accuracy"]
    return None


def switch(kinds, numeric):
    return {name: numeric if kind == "gaussian" else kind for name, kind in kinds.items()}


def read_arff(path):
    """(attribute names, kinds, categories, rows of values, class values) of an ARFF file."""
    lines = naive_bayes._Lines(str(path))
    try:
        reader = naive_bayes._ArffReader(lines, str(path))
        rows = [values for _, values, _ in reader.rows()]
    finally:
        lines.close()
    attributes = reader.attributes
    names = [name for name, _, _ in attributes[:-1]]
    kinds = {name: {"numeric": "gaussian", "date": "gaussian", "string": "text",
                    "nominal": "categorical"}[kind] for name, kind, _ in attributes[:-1]}
    categories = {name: values for name, kind, values in attributes[:-1] if kind == "nominal"}
    return names, kinds, categories, rows, attributes[-1][2]


def cross_validate(make, names, rows, classes, folds):
    """Mean accuracy over the folds of every repetition (as Weka's folds)."""
    accuracies = []
    for assignment in folds:
        for fold in range(max(assignment) + 1):
            train = [r for r, f in zip(rows, assignment) if f != fold and r[-1] is not None]
            test = [r for r, f in zip(rows, assignment) if f == fold]
            model = make()
            model.partial_fit([dict(zip(names, r[:-1])) for r in train], [r[-1] for r in train],
                              classes=classes)
            predicted = model.predict([dict(zip(names, r[:-1])) for r in test])
            accuracies.append(sum(p == r[-1] for p, r in zip(predicted, test)) / len(test))
    return sum(accuracies) / len(accuracies)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated data sets")
    parser.add_argument("--models", help="comma-separated column titles (default: all)")
    args = parser.parse_args(argv)
    models = [(title, factory) for title, factory in MODELS
              if not args.models or title in args.models.split(",")]
    with open(ROOT / "reference" / "weka" / "cv.json", encoding="utf-8") as handle:
        weka = json.load(handle)
    with open(ROOT / "reference" / "weka" / "aode_variants.json", encoding="utf-8") as handle:
        variants = json.load(handle)
    wanted = args.only.split(",") if args.only else list(weka["datasets"])
    titles = [title for title, _ in models]
    header = ["data set"]
    for title in titles:
        header.append(title)
        if title in WEKA:
            header.append("Weka %s" % WEKA[title])
    print("| %s |" % " | ".join(header))
    print("|" + " --- |" * len(header))
    totals = {}
    start = time.perf_counter()
    for name in wanted:
        data = weka["datasets"][name]
        names, kinds, categories, rows, classes = read_arff(ROOT / data["file"])
        folds = [data["folds"][str(seed)] if isinstance(data["folds"], dict) else
                 data["folds"][k] for k, seed in enumerate(weka["seeds"])]
        cells = [name]
        for title, factory in models:
            accuracy = cross_validate(lambda: factory(kinds, categories), names, rows,
                                      classes, folds)
            totals.setdefault(title, []).append(accuracy)
            cells.append("%.4f" % accuracy)
            if title in WEKA:               # Weka's AODE takes numbers discretized first
                value = weka_accuracy(weka, variants, name, WEKA[title])
                totals.setdefault("Weka " + title, []).append(value)
                cells.append("" if value is None else "%.4f" % value)
        print("| %s |" % " | ".join(cells), flush=True)
    means = ["**mean (%d)**" % len(wanted)]
    for title in titles:
        means.append("**%.4f**" % (sum(totals[title]) / len(totals[title])))
        if title in WEKA:
            values = [v for v in totals["Weka " + title] if v is not None]
            means.append("**%.4f**" % (sum(values) / len(values)) if values else "")
    print("| %s |" % " | ".join(means))
    print("\n%.0f s" % (time.perf_counter() - start), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
