"""AutoBayes' speed: two versions of naive_bayes.py timed side by side on Weka's data sets.

    git show d1312ba:naive_bayes.py > /tmp/nb_old.py
    python benchmarks/autobayes_speed.py /tmp/nb_old.py               # every data set
    python benchmarks/autobayes_speed.py /tmp/nb_old.py --only soybean,segment-challenge
    python benchmarks/autobayes_speed.py /tmp/nb_old.py --folds 3 --profile soybean

Both versions are loaded into one process under different names (as versus.py loads
them).  On each data set of reference/weka/cv.json, the first --folds folds of its
first cross-validation (seed 1) are fitted by each version in turn: AutoBayes with its
defaults, the declared kinds and categories, as benchmarks/accuracy.py fits it, fit
then the compilation that the first prediction does; then predict_proba of the
fold's held-out rows.  The times are CPU seconds (time.process_time), so that the
other work of a shared machine counts less; the old and the new fit of a fold run one
after the other, so that slow spells fall on both alike.

Each fold also checks that the versions agree: the same model file (save()'s JSON:
the statistics and the weights the internal cross-validation chose), the same
network structure for every network member, and probabilities equal to within 1e-12.
Prints a Markdown table per data set: fit seconds (mean per fit) and predict
microseconds per row, old, new and new / old; then the means, and any disagreement
(exit status 1 if there is one).  --profile NAME prints cProfile's top functions of
the new version's fit and prediction on that data set.  Standard library only.
"""

import argparse
import cProfile
import importlib.util
import io
import json
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def read_arff(nb, path):
    """(kinds, categories, rows with the class last) of an ARFF file, numbers discretized
    (as benchmarks/accuracy.py reads it for AutoBayes)."""
    lines = nb._Lines(str(path))
    try:
        reader = nb._ArffReader(lines, str(path))
        rows = [values for _, values, _ in reader.rows()]
    finally:
        lines.close()
    attributes = reader.attributes[:-1]
    kinds = {name: {"numeric": "discretized", "date": "discretized", "string": "text",
                    "nominal": "categorical"}[kind] for name, kind, _ in attributes}
    categories = {name: values for name, kind, values in attributes if kind == "nominal"}
    return kinds, categories, rows


def structures(model):
    """{member: parents of every node} of the compiled mixture's network members."""
    compiled = model._model("predict()")
    return {name: [list(p) for p in member.parents]
            for name, _, member in compiled.members if hasattr(member, "cpts")}


def fit_and_predict(nb, kinds, categories, X, y, tested):
    """(fit seconds, predict seconds, fitted model, probabilities)."""
    start = time.process_time()
    model = nb.AutoBayes(features=kinds, categories=categories).fit(X, y)
    model._model("predict()")                 # the compilation the first prediction does
    fit = time.process_time() - start
    start = time.process_time()
    probabilities = model.predict_proba(tested)
    return fit, time.process_time() - start, model, probabilities


def file_text(model):
    return json.dumps(model.to_dict(), sort_keys=True)


def profile(nb, kinds, categories, X, y, tested, top):
    for title, work in (("fit + compile", lambda: nb.AutoBayes(
            features=kinds, categories=categories).fit(X, y)._model("predict()")),):
        profiler = cProfile.Profile()
        profiler.enable()
        work()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
        print("### %s\n\n```\n%s```\n" % (title, out.getvalue()))
    model = nb.AutoBayes(features=kinds, categories=categories).fit(X, y)
    model._model("predict()")
    profiler = cProfile.Profile()
    profiler.enable()
    model.predict_proba(tested)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    print("### predict_proba (%d rows)\n\n```\n%s```\n" % (len(tested), out.getvalue()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the earlier naive_bayes.py")
    parser.add_argument("new", nargs="?", default=str(ROOT / "naive_bayes.py"),
                        help="the later one (default: this checkout's)")
    parser.add_argument("--only", help="comma-separated data set names")
    parser.add_argument("--folds", type=int, default=1,
                        help="folds timed per data set (of the 10 of seed 1; default 1)")
    parser.add_argument("--profile", help="profile the new version on this data set")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    old, new = load(args.old, "naive_bayes_old"), load(args.new, "naive_bayes_new")
    with open(ROOT / "reference" / "weka" / "cv.json", encoding="utf-8") as handle:
        weka = json.load(handle)
    names = args.only.split(",") if args.only else list(weka["datasets"])
    if args.profile:
        data = weka["datasets"][args.profile]
        kinds, categories, rows = read_arff(new, ROOT / data["file"])
        folds = data["folds"]["1"] if isinstance(data["folds"], dict) else data["folds"][0]
        X = [r[:-1] for r, f in zip(rows, folds) if f != 0 and r[-1] is not None]
        y = [r[-1] for r, f in zip(rows, folds) if f != 0 and r[-1] is not None]
        tested = [r[:-1] for r, f in zip(rows, folds) if f == 0]
        profile(new, kinds, categories, X, y, tested, args.top)
        return 0
    print("| data set | fits | fit s, old | fit s, new | new / old | predict us/row, old | "
          "predict us/row, new | new / old |")
    print("| --- |" + " ---: |" * 7)
    totals = {"old": [0.0, 0.0], "new": [0.0, 0.0]}
    fit_ratios, predict_ratios, means = [], [], {"old": [], "new": []}
    problems = []
    largest = 0.0                     # the largest difference of two probabilities
    for name in names:
        data = weka["datasets"][name]
        kinds, categories, rows = read_arff(new, ROOT / data["file"])
        folds = data["folds"]["1"] if isinstance(data["folds"], dict) else data["folds"][0]
        seconds = {"old": [0.0, 0.0], "new": [0.0, 0.0]}
        predicted = fits = 0
        for fold in range(min(args.folds, max(folds) + 1)):
            X = [r[:-1] for r, f in zip(rows, folds) if f != fold and r[-1] is not None]
            y = [r[-1] for r, f in zip(rows, folds) if f != fold and r[-1] is not None]
            tested = [r[:-1] for r, f in zip(rows, folds) if f == fold]
            results = {}
            for tag, nb in (("old", old), ("new", new)):
                fit, predict, model, probabilities = fit_and_predict(
                    nb, kinds, categories, X, y, tested)
                seconds[tag][0] += fit
                seconds[tag][1] += predict
                results[tag] = (model, probabilities)
            fits += 1
            predicted += len(tested)
            (old_model, old_p), (new_model, new_p) = results["old"], results["new"]
            if file_text(old_model) != file_text(new_model):
                problems.append("%s fold %d: the model files differ" % (name, fold))
            if structures(old_model) != structures(new_model):
                problems.append("%s fold %d: the network structures differ" % (name, fold))
            worst = max((abs(a - b) for p, q in zip(old_p, new_p) for a, b in zip(p, q)),
                        default=0.0)
            largest = max(largest, worst)
            if worst > 1e-12 or len(old_p) != len(new_p):
                problems.append("%s fold %d: probabilities differ by %.3g" % (name, fold, worst))
        for tag in ("old", "new"):
            fit, predict = seconds[tag]
            totals[tag][0] += fit
            totals[tag][1] += predict
            means[tag].append(fit / fits)
        fit_ratio = seconds["new"][0] / seconds["old"][0]
        predict_ratio = seconds["new"][1] / seconds["old"][1] if seconds["old"][1] else 1.0
        fit_ratios.append(fit_ratio)
        predict_ratios.append(predict_ratio)
        cells = ["%.3f" % (seconds["old"][0] / fits), "%.3f" % (seconds["new"][0] / fits),
                 "%.2f" % fit_ratio, "%.0f" % (1e6 * seconds["old"][1] / predicted),
                 "%.0f" % (1e6 * seconds["new"][1] / predicted), "%.2f" % predict_ratio]
        print("| %s | %d | %s |" % (name, fits, " | ".join(cells)), flush=True)
    print("| **mean per fit** | | %.3f | %.3f | %.2f | | | |" % (
        sum(means["old"]) / len(means["old"]), sum(means["new"]) / len(means["new"]),
        sum(means["new"]) / sum(means["old"])))
    print("| **total** | | %.2f | %.2f | %.2f | %.2f s | %.2f s | %.2f |" % (
        totals["old"][0], totals["new"][0], totals["new"][0] / totals["old"][0],
        totals["old"][1], totals["new"][1], totals["new"][1] / totals["old"][1]))
    if problems:
        print("\nDisagreements:\n" + "\n".join("- " + p for p in problems))
        return 1
    print("\nEvery fold: the same model file, the same network structures, probabilities "
          "within 1e-12 (the largest difference: %.3g)." % largest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
