"""Accuracy: naive_bayes.py's models next to Weka's and Khiops', on identical folds.

    python benchmarks/accuracy.py                     # every data set and model, ~15 minutes
    python benchmarks/accuracy.py --only iris,vote    # some of them
    python benchmarks/accuracy.py --models "AODE,AODE m,WAODE"   # some columns
    python benchmarks/accuracy.py --json benchmarks/results/accuracy.json   # keep the results
    python benchmarks/accuracy.py --from benchmarks/results/accuracy.json --models ...
                                                      # the tables again, without fitting

The data sets are the ARFF files in examples/data (Weka's examples and three of
scikit-learn's).  The folds, and Weka 3.6.14's predictions on them, come from
reference/weka/cv.json (recorded by reference/record_weka.py), for the AODE variants
(the m-estimate, frequency limit 0, WAODE, AODEsr, HNB, ReplaceMissingValues first)
from reference/weka/aode_variants.json (reference/record_weka_aode.py), and for TAN
and hill climbing from reference/weka/bayesnet.json (reference/record_weka_bayesnet.py):
10-fold stratified cross-validation done twice (seeds 1 and 2), the same folds for
every model.  Khiops' columns come from reference/khiops/accuracy.json
(benchmarks/khiops_accuracy.py), so Khiops need not be installed.

Each model of this library is fitted as the command line fits an ARFF file: rows as
lists, the declared kinds and nominal values (categories), partial_fit with the
declared classes; the naive Bayes and AODE columns with alpha = 1 and prior_alpha = 1
(Weka's Laplace counts), TAN and BayesNet with their defaults (alpha = 0.5, Weka's
SimpleEstimator -A 0.5, which bayesnet.json recorded).  AutoBayes is fitted with fit
(its defaults, the declared kinds and categories): fit is where it chooses its weights
by internal cross-validation, which partial_fit, a batch at a time, cannot do.

Printed, as Markdown tables:
  1. accuracy: the mean over the 20 folds per data set (as Weka's), Weka's beside ours;
     means over the 18 sets, the first 15 (Weka's example files, the suite of the
     issues) and those 14 without contact-lenses; AutoBayes' goal figures;
  2. log loss: per row -ln p(true class), p clipped to [1e-15, 1], the mean over every
     out-of-fold row (scikit-learn's log_loss).  Weka recorded predicted classes only,
     not probabilities, so Weka has no log loss here;
  3. time: CPU seconds (time.process_time, so that the other work of a shared machine
     counts less) per fit (fit or partial_fit, then the compilation that the first
     prediction would do: the bins, a network's structure search) and per predicted
     row (predict_proba), each summed over the folds of every data set;
  4. agreement with Weka: rows whose predicted class is the one Weka predicted.
Standard library only (the library itself).
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import naive_bayes  # noqa: E402
from naive_bayes import AODE, KDB, TAN, AutoBayes, BayesNet, NaiveBayes  # noqa: E402


def switch(kinds, numeric):
    return {name: numeric if kind == "gaussian" else kind for name, kind in kinds.items()}


def _aode(**params):
    return lambda kinds, categories: AODE(
        features=switch(kinds, "discretized"), categories=categories, **params)


def _network(cls, **params):
    return lambda kinds, categories: cls(
        features=switch(kinds, "discretized"), categories=categories, **params)


# (column title, model factory given the declared kinds and categories)
MODELS = [
    ("gaussian", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=kinds, categories=categories)),
    ("discretized", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "discretized"), categories=categories)),
    ("kde", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "kde"), categories=categories)),
    ("AODE", _aode(alpha=1)),
    ("AODE m", _aode(estimate="m")),
    ("AODE F0", _aode(frequency_limit=0)),
    ("AODE MI", _aode(weighting="mutual-information")),
    ("WAODE", _aode(weighting="mutual-information", estimate="m", frequency_limit=0)),
    ("AODE impute", _aode(impute=True)),
    ("AODE impute m", _aode(impute=True, estimate="m")),
    ("WAODE impute", _aode(impute=True, weighting="mutual-information", estimate="m",
                           frequency_limit=0)),
    ("discretized, 3 digits", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "discretized"), categories=categories,
        significant_digits=3)),
    ("kde, 3 digits", lambda kinds, categories: NaiveBayes(
        alpha=1, prior_alpha=1, features=switch(kinds, "kde"), categories=categories,
        significant_digits=3)),
    ("TAN", lambda kinds, categories: TAN(
        features=switch(kinds, "discretized"), categories=categories)),
    ("BayesNet P2", lambda kinds, categories: BayesNet(
        max_parents=2, features=switch(kinds, "discretized"), categories=categories)),
    ("BayesNet P3", lambda kinds, categories: BayesNet(
        max_parents=3, features=switch(kinds, "discretized"), categories=categories)),
    ("AutoBayes", lambda kinds, categories: AutoBayes(
        features=switch(kinds, "discretized"), categories=categories)),
    ("AODE hdp", _aode(estimate="hdp")),
    ("AODE impute hdp", _aode(impute=True, estimate="hdp")),
    ("TAN m", _network(TAN, estimate="m")),
    ("TAN hdp", _network(TAN, estimate="hdp")),
    ("BayesNet P2 m", _network(BayesNet, max_parents=2, estimate="m")),
    ("BayesNet P2 hdp", _network(BayesNet, max_parents=2, estimate="hdp")),
    ("KDB k=1", _network(KDB, k=1)),
    ("KDB k=1 m", _network(KDB, k=1, estimate="m")),
    ("KDB k=1 hdp", _network(KDB, k=1, estimate="hdp")),
    ("KDB k=2", _network(KDB, k=2)),
    ("KDB k=2 m", _network(KDB, k=2, estimate="m")),
    ("KDB k=2 hdp", _network(KDB, k=2, estimate="hdp")),
    ("KDB select", _network(KDB, k="select")),
    ("KDB select m", _network(KDB, k="select", estimate="m")),
    ("KDB select hdp", _network(KDB, k="select", estimate="hdp")),
    ("KDB select max_k=2", _network(KDB, k="select", max_k=2)),
    ("KDB select max_k=5", _network(KDB, k="select", max_k=5)),
    ("KDB select alpha=0.5", _network(KDB, k="select", alpha=0.5)),
]
FITTED_WHOLE = {"AutoBayes"}          # fit(X, y), not partial_fit(..., classes=declared)

# our column -> Weka's config (cv.json, aode_variants.json or bayesnet.json; Weka's
# AODE family takes numbers discretized first, the key then has "Discretize+")
WEKA = {"gaussian": "NaiveBayes", "discretized": "NaiveBayes -D", "kde": "NaiveBayes -K",
        "AODE": "AODE -F 1", "AODE m": "AODE -F 1 -M", "AODE F0": "AODE -F 0",
        "WAODE": "WAODE", "AODE impute": "ReplaceMissingValues+AODE -F 1",
        "AODE impute m": "ReplaceMissingValues+AODE -F 1 -M",
        "WAODE impute": "ReplaceMissingValues+WAODE",
        "TAN": "TAN", "BayesNet P2": "HillClimber -P 2", "BayesNet P3": "HillClimber -P 3"}
# Weka's members without a counterpart here: their own columns
WEKA_ONLY = ["AODEsr", "HNB", "ReplaceMissingValues+HNB"]
FIRST = 15                            # Weka's example files: the issues' suite
WITHOUT = "contact-lenses"            # the third mean leaves it out
GOAL_MODEL, GOAL_WEKA = "AutoBayes", "AODE"


def load_weka():
    """(cv.json, aode_variants.json, bayesnet.json) of reference/weka."""
    documents = []
    for name in ("cv", "aode_variants", "bayesnet"):
        with open(ROOT / "reference" / "weka" / (name + ".json"), encoding="utf-8") as handle:
            documents.append(json.load(handle))
    return documents


def weka_sets():
    """The data sets of cv.json, in its order."""
    with open(ROOT / "reference" / "weka" / "cv.json", encoding="utf-8") as handle:
        return list(json.load(handle)["datasets"])


def folds_of(weka, data):
    """The fold of every row, per repetition (seeds 1 and 2), of a cv.json data set."""
    return [data["folds"][str(seed)] if isinstance(data["folds"], dict) else
            data["folds"][k] for k, seed in enumerate(weka["seeds"])]


def weka_result(documents, name, key):
    """Weka's recorded result of a config on a data set: cv.json, then
    aode_variants.json ("cv") and bayesnet.json ("cv"), looked up as key,
    "Discretize+" key (Weka's AODE family takes numbers discretized first), and for
    "ReplaceMissingValues+" keys with the Discretize between; None if not recorded."""
    weka, variants, networks = documents
    impute = key.startswith("ReplaceMissingValues+")
    base = key.split("+")[-1]
    for results in (weka["datasets"][name]["results"], variants["cv"][name]["results"],
                    networks["cv"][name]["results"]):
        for candidate in (key, "Discretize+" + key,
                          "ReplaceMissingValues+Discretize+" + base if impute else None):
            if candidate in results:
                return results[candidate]
    return None


def weka_accuracy(documents, name, key):
    """Weka's mean accuracy of a config on a data set; None where Weka refused the
    data (WAODE and HNB: missing values) or nothing was recorded.  WAODE's NaN answers
    (every weight 0) count as wrong, as classifyInstance answers no class there."""
    result = weka_result(documents, name, key)
    if result is None or result.get("errors"):
        return None
    return result["mean_accuracy"]


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


def _compile(model):
    """Do the work that the first prediction would do (bins, a network's search)."""
    compiled = getattr(model, "_model", None)
    if compiled is not None:
        compiled("predict()")


def cross_validate(make, rows, classes, folds, whole=False):
    """A model over the folds of every repetition (as Weka's folds): the mean fold
    accuracy, the log loss over the out-of-fold rows, the predicted class of every row
    per repetition, and seconds of fitting and predicting."""
    accuracies, losses, predicted = [], [], []
    fit_seconds = predict_seconds = 0.0
    fits = rows_predicted = 0
    for assignment in folds:
        guesses = [None] * len(rows)
        for fold in range(max(assignment) + 1):
            train = [r for r, f in zip(rows, assignment) if f != fold and r[-1] is not None]
            tested = [i for i, f in enumerate(assignment) if f == fold]
            X = [r[:-1] for r in train]
            y = [r[-1] for r in train]
            start = time.process_time()
            model = make()
            if whole:
                model.fit(X, y)
            else:
                model.partial_fit(X, y, classes=classes)
            _compile(model)
            fit_seconds += time.process_time() - start
            start = time.process_time()
            probabilities = model.predict_proba([rows[i][:-1] for i in tested])
            predict_seconds += time.process_time() - start
            fits += 1
            rows_predicted += len(tested)
            order = list(model.classes_)
            correct = 0
            for i, p in zip(tested, probabilities):
                guess = order[p.index(max(p))]
                guesses[i] = guess
                truth = rows[i][-1]
                correct += guess == truth
                chance = p[order.index(truth)] if truth in order else 0.0
                losses.append(-math.log(min(1.0, max(chance, 1e-15))))
            accuracies.append(correct / len(tested))
        predicted.append(guesses)
    return {"accuracy": sum(accuracies) / len(accuracies),
            "log_loss": sum(losses) / len(losses), "predicted": predicted,
            "fit_seconds": fit_seconds, "predict_seconds": predict_seconds,
            "fits": fits, "predicted_rows": rows_predicted}


def agreement(documents, name, key, predicted, class_values):
    """(rows whose predicted class is Weka's, rows compared) over the repetitions;
    None if Weka recorded nothing or refused.  Rows Weka left unclassified (-1: NaN)
    are not compared."""
    result = weka_result(documents, name, key)
    if result is None or result.get("errors") or "predicted" not in result:
        return None
    same = compared = 0
    for ours, theirs in zip(predicted, result["predicted"]):
        for guess, index in zip(ours, theirs):
            if index is None or index < 0 or guess is None:
                continue
            compared += 1
            same += guess == class_values[index]
    return same, compared


def run(args, models, save=None):
    """Fit every model on every data set: the results as JSON-ready data (given to
    save after each model of each data set, so that a long run keeps what it did)."""
    documents = load_weka()
    weka = documents[0]
    wanted = args.only.split(",") if args.only else list(weka["datasets"])
    results = {"datasets": wanted, "models": [title for title, _ in models], "per_set": {}}
    done = {}
    if args.json and Path(args.json).exists():      # a run stopped midway goes on
        with open(args.json, encoding="utf-8") as handle:
            done = json.load(handle)["per_set"]
    for name in wanted:
        data = weka["datasets"][name]
        names, kinds, categories, rows, classes = read_arff(ROOT / data["file"])
        folds = folds_of(weka, data)
        per_model = dict(done.get(name, {}).get("models", {}))
        weka_columns = {key: weka_accuracy(documents, name, key)
                        for key in list(WEKA.values()) + WEKA_ONLY}
        results["per_set"][name] = {"rows": len(rows), "models": per_model,
                                    "weka": weka_columns}
        for title, factory in models:
            if title in per_model:
                continue
            result = cross_validate(lambda: factory(kinds, categories), rows, classes, folds,
                                    whole=title in FITTED_WHOLE)
            if title in WEKA:
                result["agreement"] = agreement(documents, name, WEKA[title],
                                                result["predicted"], data["class_values"])
            del result["predicted"]
            per_model[title] = result
            if save:
                save(results)
        print("%-18s %s" % (name, "  ".join("%s %.4f" % (t, r["accuracy"])
                                            for t, r in per_model.items())),
              file=sys.stderr, flush=True)
    return results


def load_khiops():
    """Khiops' recorded results per data set ({} if not recorded)."""
    path = ROOT / "reference" / "khiops" / "accuracy.json"
    if not path.exists():
        return {}, None
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    return document["datasets"], document.get("khiops_version")


def cpu_times(result):
    """Khiops' record with its CPU seconds (its own and its processes') as the times."""
    return dict(result, fit_seconds=result["fit_cpu_seconds"],
                predict_seconds=result["predict_cpu_seconds"])


def _get(per_set, name, title, field):
    """A model's figure on a data set; None where it was not run."""
    return per_set[name]["models"].get(title, {}).get(field)


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def _groups(names):
    """(label, data sets) of the three means."""
    first = [n for n in weka_sets()[:FIRST] if n in names]
    groups = [("mean (%d)" % len(names), names)]
    if first and len(first) < len(names):
        groups.append(("mean, first %d" % len(first), first))
    if WITHOUT in first:
        groups.append(("mean, %d without %s" % (len(first) - 1, WITHOUT),
                       [n for n in first if n != WITHOUT]))
    return groups


def _cell(value, digits=4):
    return "" if value is None else "%.*f" % (digits, value)


def _mean_cell(values, names, digits=4):
    """A mean's cell, marked with the count when some data sets have no value."""
    present = [v for v in values if v is not None]
    if not present:
        return ""
    text = "**%.*f**" % (digits, sum(present) / len(present))
    return text if len(present) == len(values) else text + " (%d)" % len(present)


def print_tables(results, titles, out=sys.stdout):
    """The four tables (accuracy, log loss, time, agreement) and the goal figures."""
    names = results["datasets"]
    per_set = results["per_set"]
    khiops, version = load_khiops()
    khiops = {n: khiops[n] for n in names if n in khiops}

    def table(header, lines):
        out.write("| %s |\n" % " | ".join(header))
        out.write("| --- |" + " ---: |" * (len(header) - 1) + "\n")
        for line in lines:
            out.write("| %s |\n" % " | ".join(line))
        out.write("\n")

    # 0. the means first: one line per model (ours, then Weka's, then Khiops)
    groups = _groups(names)
    summary = []                          # (title, accuracy of a set, log loss of a set)
    for title in titles:
        summary.append((title, lambda n, t=title: _get(per_set, n, t, "accuracy"),
                        lambda n, t=title: _get(per_set, n, t, "log_loss")))
    weka_keys = [WEKA[t] for t in titles if t in WEKA] + WEKA_ONLY
    for key in weka_keys:
        summary.append(("Weka " + key, lambda n, k=key: per_set[n]["weka"][k], None))
    if khiops:
        summary.append(("Khiops", lambda n: khiops[n]["accuracy"] if n in khiops else None,
                        lambda n: khiops[n]["log_loss"] if n in khiops else None))
    out.write("Means (accuracy, then log loss; a count in brackets: the sets with a figure "
              "(Weka refused some; a run may be partial)):\n\n")
    lines = []
    for title, accuracy, loss in summary:
        line = [title]
        for getter in (accuracy, loss):
            for _, group in groups:
                line.append("" if getter is None else
                            _mean_cell([getter(n) for n in group], group).strip("*")
                            .replace("** ", " "))
        lines.append(line)
    table(["model"] + ["accuracy, %s" % label for label, _ in groups] +
          ["log loss, %s" % label for label, _ in groups], lines)

    # 1. accuracy
    columns = []                          # (title, value of a data set)
    for title in titles:
        columns.append((title, lambda n, t=title: _get(per_set, n, t, "accuracy")))
        if title in WEKA:
            columns.append(("Weka " + WEKA[title],
                            lambda n, t=title: per_set[n]["weka"][WEKA[t]]))
    for key in WEKA_ONLY:
        columns.append(("Weka " + key, lambda n, k=key: per_set[n]["weka"][k]))
    if khiops:
        columns.append(("Khiops", lambda n: khiops[n]["accuracy"] if n in khiops else None))
    out.write("Accuracy (mean over the 20 folds; Weka's columns beside ours; Khiops %s):\n\n"
              % (version or "not recorded"))
    lines = [[n] + [_cell(get(n)) for _, get in columns] for n in names]
    for label, group in _groups(names):
        lines.append(["**%s**" % label] + [_mean_cell([get(n) for n in group], group)
                                           for _, get in columns])
    table(["data set"] + [title for title, _ in columns], lines)

    # 2. log loss
    columns = [(title, lambda n, t=title: _get(per_set, n, t, "log_loss"))
               for title in titles]
    if khiops:
        columns.append(("Khiops", lambda n: khiops[n]["log_loss"] if n in khiops else None))
    out.write("Log loss (mean over every out-of-fold row of -ln p(true class), p clipped "
              "at 1e-15; Weka recorded classes only):\n\n")
    lines = [[n] + [_cell(get(n)) for _, get in columns] for n in names]
    for label, group in _groups(names):
        lines.append(["**%s**" % label] + [_mean_cell([get(n) for n in group], group)
                                           for _, get in columns])
    table(["data set"] + [title for title, _ in columns], lines)

    # 3. time
    out.write("Time (CPU seconds, summed over the folds of the data sets above; a fit "
              "includes the compilation the first prediction would do; Khiops: its "
              "processes' CPU time):\n\n")
    lines = []
    for title in titles + (["Khiops"] if khiops else []):
        runs = [(n, cpu_times(khiops[n]) if title == "Khiops" else per_set[n]["models"][title])
                for n in names if (n in khiops if title == "Khiops" else
                                   title in per_set[n]["models"])]
        if not runs:
            continue
        fit = sum(r["fit_seconds"] for _, r in runs)
        fits = sum(r["fits"] for _, r in runs)
        predict = sum(r["predict_seconds"] for _, r in runs)
        predicted = sum(r["predicted_rows"] for _, r in runs)
        slowest, worst = max(runs, key=lambda item: item[1]["fit_seconds"] / item[1]["fits"])
        lines.append([title, "%.1f" % (fit + predict), "%.3f" % (fit / fits),
                      "%.2f (%s)" % (worst["fit_seconds"] / worst["fits"], slowest),
                      "%.0f" % (1e6 * predict / predicted)])
    table(["model", "total s", "s per fit", "slowest: s per fit", "µs per predicted row"],
          lines)

    # 4. agreement with Weka
    lines = []
    for title in titles:
        if title not in WEKA:
            continue
        same = compared = 0
        differ = []
        for n in names:
            pair = per_set[n]["models"].get(title, {}).get("agreement")
            if pair:
                same += pair[0]
                compared += pair[1]
                if pair[0] != pair[1]:
                    differ.append("%s %d" % (n, pair[1] - pair[0]))
        if compared:
            lines.append([title, "Weka " + WEKA[title], "%d / %d" % (same, compared),
                          ", ".join(differ) or "none"])
    if lines:
        out.write("Agreement: out-of-fold rows (both repetitions) whose predicted class is "
                  "the one Weka predicted:\n\n")
        table(["model", "Weka", "same class", "rows that differ"], lines)

    # goal figures
    if GOAL_MODEL in titles:
        first = [n for n in weka_sets()[:FIRST] if n in names]
        ours = {n: _get(per_set, n, GOAL_MODEL, "accuracy") for n in names}
        theirs = {n: per_set[n]["weka"][WEKA[GOAL_WEKA]] for n in names}
        below = [n for n in names if None not in (ours[n], theirs[n]) and
                 ours[n] < theirs[n] - 0.010]
        out.write("Goals (the issue's, on its suite; here on ours):\n")
        for label, group in _groups(names):
            out.write("  %s accuracy, %s: %s (Weka AODE %s), log loss %s\n"
                      % (GOAL_MODEL, label, _mean_cell([ours[n] for n in group], group),
                         _mean_cell([theirs[n] for n in group], group),
                         _mean_cell([_get(per_set, n, GOAL_MODEL, "log_loss")
                                     for n in group], group)))
        out.write("  sets where %s is more than 0.010 below Weka's AODE: %d of %d (first %d: "
                  "%d)%s\n" % (GOAL_MODEL, len(below), len(names), len(first),
                               len([n for n in below if n in first]),
                               "".join("; %s %.4f vs %.4f" % (n, ours[n], theirs[n])
                                       for n in below)))


def save(path, results, command, start):
    """Write results as JSON (atomically: a run may be stopped while it writes)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    results = dict(results, command=command, python=sys.version.split()[0],
                   seconds=round(time.perf_counter() - start, 1))
    with open(str(path) + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)
        handle.write("\n")
    Path(str(path) + ".tmp").replace(path)


def merged(paths, set_order, model_order):
    """The results of several --json files as one (runs split by data set or model):
    every data set's models together, in the scripts' orders."""
    results = {"datasets": [], "models": [], "per_set": {}, "commands": []}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            part = json.load(handle)
        results["commands"].append(part.get("command"))
        for name, entry in part["per_set"].items():
            if name in results["per_set"]:
                results["per_set"][name]["models"].update(entry["models"])
            else:
                results["per_set"][name] = entry
            for title in entry["models"]:
                if title not in results["models"]:
                    results["models"].append(title)
    results["datasets"] = [n for n in set_order if n in results["per_set"]]
    results["models"] = [t for t in model_order if t in results["models"]]
    return results                      # a model missing from a set: blank cells


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated data sets")
    parser.add_argument("--models", help="comma-separated column titles (default: all)")
    parser.add_argument("--json", help="write the results to this file (after every model; "
                        "a run with the file there already skips what it holds)")
    parser.add_argument("--from", dest="source",
                        help="print the tables of --json files (comma-separated: runs "
                        "split by data set or model) instead of fitting")
    args = parser.parse_args(argv)
    chosen = args.models.split(",") if args.models else None
    known = [title for title, _ in MODELS]
    for title in chosen or ():
        if title not in known:
            parser.error("no model %r; the models: %s" % (title, ", ".join(known)))
    start = time.perf_counter()
    if args.source:
        results = merged(args.source.split(","), weka_sets(), [t for t, _ in MODELS])
        if args.json:                   # the merged runs as one file
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump(results, handle, indent=1)
                handle.write("\n")
        if args.only:
            results["datasets"] = [n for n in args.only.split(",") if n in results["per_set"]]
        titles = [t for t in (chosen or results["models"]) if t in results["models"]]
    else:
        models = [(title, factory) for title, factory in MODELS
                  if chosen is None or title in chosen]
        command = "python benchmarks/accuracy.py" + "".join(
            " %s %s" % (flag, json.dumps(value)) for flag, value in (
                ("--only", args.only), ("--models", args.models)) if value)
        results = run(args, models, args.json and (
            lambda done: save(args.json, done, command, start)))
        titles = results["models"]
    print_tables(results, titles)
    print("%.0f s" % (time.perf_counter() - start), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
