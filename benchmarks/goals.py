"""AutoBayes' accuracy goals, checked from recorded results: no fitting.

    python benchmarks/goals.py                                  # the recorded results
    python benchmarks/goals.py --weka benchmarks/results/accuracy.json,/tmp/new.json \\
        --real benchmarks/results/real_data.json --held-out /tmp/held_out.json \\
        --model AutoBayes

Reads the results that benchmarks/accuracy.py (Weka's 18 sets, on Weka's folds) and
benchmarks/real_data.py (the ten real sets; the held-out group) write with --json,
and Khiops' recorded in reference/khiops/, and prints, for one model (--model, default
AutoBayes):

  1. on Weka's 18 sets: its mean accuracy and log loss, over the 18 and over the 14
     of at least 100 rows; per set of at least 100 rows, the best accuracy of any
     other column (Weka's Bayes classifiers, Khiops, this library's models) and how
     far below it the model is;
  2. on the ten real sets and on the held-out group: its means beside Khiops' (the
     difference in accuracy, the ratio of log losses) and the set where it is
     furthest below Khiops;
  3. per set, its best member among this library's other columns.

Every figure is a mean over the same folds for every model (see accuracy.py and
real_data.py).  Standard library only.
"""

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def load(paths):
    """{data set: {"rows": n, "models": {title: result}, "weka": {...}}} of one or more
    JSON files of accuracy.py or real_data.py, later files taking precedence."""
    merged = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        for name in document.get("datasets", document["per_set"]):
            entry = document["per_set"].get(name)
            if entry is None:
                continue
            mine = merged.setdefault(name, {"models": {}, "weka": {}})
            mine["rows"] = entry.get("rows", mine.get("rows"))
            mine["models"].update({t: r for t, r in entry.get("models", {}).items()
                                   if "accuracy" in r})
            mine["weka"].update(entry.get("weka", {}))
    return merged


def khiops(name):
    path = ROOT / "reference" / "khiops" / name
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["datasets"]


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def weka_suite(results, model, out):
    peers = khiops("accuracy.json")
    names = [n for n in results if model in results[n]["models"]]
    big = [n for n in names if results[n]["rows"] >= 100]
    mine = {n: results[n]["models"][model] for n in names}
    out.write("## Weka's data sets (%d with %s)\n\n" % (len(names), model))
    for label, group in (("all %d" % len(names), names), ("%d of at least 100 rows" %
                                                          len(big), big)):
        out.write("- %s: accuracy %.4f, log loss %.4f\n" % (
            label, mean(mine[n]["accuracy"] for n in group),
            mean(mine[n]["log_loss"] for n in group)))
    out.write("\n| data set | rows | %s | best other | which | below it |\n"
              "| --- | ---: | ---: | ---: | --- | ---: |\n" % model)
    worst = 0.0
    for n in names:
        others = {("Weka " + t): a for t, a in results[n]["weka"].items() if a is not None}
        others.update({t: r["accuracy"] for t, r in results[n]["models"].items()
                       if t != model})
        if n in peers:
            others["Khiops"] = peers[n]["accuracy"]
        best = max(others, key=others.get)
        gap = others[best] - mine[n]["accuracy"]
        if results[n]["rows"] >= 100:
            worst = max(worst, gap)
        out.write("| %s | %d | %.4f | %.4f | %s | %s |\n" % (
            n, results[n]["rows"], mine[n]["accuracy"], others[best], best,
            "%.4f" % gap if gap > 0 else ""))
    out.write("\nLargest shortfall on a set of at least 100 rows: %.4f\n\n" % worst)


def against_khiops(results, model, title, out):
    peers = khiops("real_data.json")
    names = [n for n in results if model in results[n]["models"] and n in peers]
    if not names:
        return
    mine = {n: results[n]["models"][model] for n in names}
    accuracy = mean(mine[n]["accuracy"] for n in names)
    loss = mean(mine[n]["log_loss"] for n in names)
    k_accuracy = mean(peers[n]["accuracy"] for n in names)
    k_loss = mean(peers[n]["log_loss"] for n in names)
    out.write("## %s (%d sets)\n\n" % (title, len(names)))
    out.write("| data set | %s accuracy | Khiops | difference | %s log loss | Khiops |\n"
              "| --- | ---: | ---: | ---: | ---: | ---: |\n" % (model, model))
    for n in names:
        out.write("| %s | %.4f | %.4f | %+.4f | %.4f | %.4f |\n" % (
            n, mine[n]["accuracy"], peers[n]["accuracy"],
            mine[n]["accuracy"] - peers[n]["accuracy"], mine[n]["log_loss"],
            peers[n]["log_loss"]))
    furthest = min(names, key=lambda n: mine[n]["accuracy"] - peers[n]["accuracy"])
    out.write("\n- accuracy %.4f against Khiops' %.4f (%+.4f)\n" % (
        accuracy, k_accuracy, accuracy - k_accuracy))
    out.write("- log loss %.4f against Khiops' %.4f (%.1f%% %s)\n" % (
        loss, k_loss, 100 * abs(1 - loss / k_loss), "lower" if loss < k_loss else "higher"))
    out.write("- furthest below Khiops: %s, %+.4f\n\n" % (
        furthest, mine[furthest]["accuracy"] - peers[furthest]["accuracy"]))


def members(results, model, out):
    out.write("## %s beside the best of this library's other models, per set\n\n" % model)
    out.write("| data set | %s | best other model | accuracy | log loss, %s | best log loss |\n"
              "| --- | ---: | --- | ---: | ---: | ---: |\n" % (model, model))
    for n, entry in results.items():
        if model not in entry["models"]:
            continue
        others = {t: r for t, r in entry["models"].items() if t != model}
        if not others:
            continue
        best = max(others, key=lambda t: others[t]["accuracy"])
        lowest = min(r["log_loss"] for r in others.values())
        out.write("| %s | %.4f | %s | %.4f | %.4f | %.4f |\n" % (
            n, entry["models"][model]["accuracy"], best, others[best]["accuracy"],
            entry["models"][model]["log_loss"], lowest))
    out.write("\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weka", default=str(HERE / "results" / "accuracy.json"),
                        help="accuracy.py's JSON files, comma-separated")
    parser.add_argument("--real", default=str(HERE / "results" / "real_data.json"),
                        help="real_data.py's JSON files of the ten sets, comma-separated")
    parser.add_argument("--held-out", help="real_data.py's JSON files of the held-out group")
    parser.add_argument("--model", default="AutoBayes")
    args = parser.parse_args(argv)
    out = sys.stdout
    weka = load(args.weka.split(","))
    weka_suite(weka, args.model, out)
    real = load(args.real.split(","))
    against_khiops(real, args.model, "The ten real data sets", out)
    if args.held_out:
        held_out = load(args.held_out.split(","))
        against_khiops(held_out, args.model, "The held-out real data sets", out)
        members(held_out, args.model, out)
    members(weka, args.model, out)
    members(real, args.model, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
