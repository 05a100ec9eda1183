#!/usr/bin/env python3
"""Record Weka 3.6.14's Bayesian-network classifiers (TAN, HillClimber) as JSON test data.

    python reference/record_weka_bayesnet.py             # everything, about 20 min
    python reference/record_weka_bayesnet.py --no-cv     # without cross-validation, ~1 min

Needs Weka 3.6.14 (``/usr/share/java/weka.jar`` or ``--weka-jar``), ``java`` and
``javac``, Python 3.8+ (standard library only), and the files that
``record_weka.py`` wrote: ``examples/data/*.arff``, ``reference/weka/distributions.json``
(rows and classes of each data set) and ``reference/weka/cv.json`` (the folds).  It
compiles ``reference/WekaBayesNet.java`` into a temporary directory and writes
``reference/weka/bayesnet.json`` (layout in ``reference/README.md``, section
"Bayesian networks").  Output is deterministic: a second run gives the same bytes.

Every fit prints its learned structure (the parents of every node, in Weka's order),
the cut points of the attributes BayesNet discretized, the values it fills in for
missing ones, and the network's BAYES score; test rows get the full-precision
distribution (bits checked against the decimal text) and the predicted class.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from record_weka import (  # noqa: E402  (the rules and number checks of the other record)
    DATASETS, SPLIT_RULE, WEIGHT_RULE, WEIGHTED_DATASETS, WEKA_VERSION, _check_roundtrip,
    _parse_double, _rows, _weights, rule_weights, split_rows, stratified_folds)

OUT = os.path.join(HERE, "weka", "bayesnet.json")
JAVA_SOURCE = os.path.join(HERE, "WekaBayesNet.java")

BAYES_NET = "weka.classifiers.bayes.BayesNet"
SEARCH = "weka.classifiers.bayes.net.search.local."
ESTIMATOR = "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A %s"


def command(search, alpha, no_adtree=False):
    """A BayesNet command line: search options, then SimpleEstimator with alpha."""
    no_adtree = " -D" if no_adtree else ""
    return "%s%s -Q %s%s -S BAYES %s" % (BAYES_NET, no_adtree, SEARCH, search, ESTIMATOR % alpha)


TAN = "TAN --"
P2 = "HillClimber -- -P 2"
P3 = "HillClimber -- -P 3"

# config key -> (search, alpha, -D); -D switches Weka's AD-tree off (see NO_ADTREE)
CONFIGS = {
    "TAN": (TAN, "0.5", False),
    "HillClimber -P 2": (P2, "0.5", False),
    "HillClimber -P 3": (P3, "0.5", False),
    "TAN -A 1": (TAN, "1.0", False),
    "HillClimber -P 2 -A 1": (P2, "1.0", False),
    "TAN -D": (TAN, "0.5", True),
    "HillClimber -P 3 -D": (P3, "0.5", True),
}
MAIN_KEYS = ["TAN", "HillClimber -P 2", "HillClimber -P 3"]
ALPHA1_KEYS = ["TAN -A 1", "HillClimber -P 2 -A 1"]
ALPHA1_DATASETS = ["breast-cancer", "glass", "labor", "vote", "iris"]
NO_ADTREE_KEYS = ["TAN -D", "HillClimber -P 3 -D"]
NO_ADTREE_CHECK_DATASETS = ["glass", "labor", "soybean", "vote"]
# Weka builds a full AD-tree of the training data (BayesNet without -D); on digits (64
# attributes) it runs out of memory (OutOfMemoryError with -Xmx4g after 9 minutes for
# two fits), so its configs are recorded with -D, which counts the same integers by a
# plain pass over the data (calcNodeScorePlain instead of calcNodeScoreADTree).
NO_ADTREE = {"digits": "BayesNet's AD-tree (used without -D) exhausts a 4 GB heap on "
                       "digits: every config is recorded with -D (no AD-tree); the "
                       "counts, hence the results, are the same (see the -D checks)"}


def config_command(key, name):
    search, alpha, no_adtree = CONFIGS[key]
    return command(search, alpha, no_adtree or name in NO_ADTREE)


def compile_driver(workdir, weka_jar):
    classes = os.path.join(workdir, "classes")
    os.makedirs(classes)
    subprocess.run(["javac", "-nowarn", "-cp", weka_jar, "-d", classes, JAVA_SOURCE],
                   check=True, stderr=subprocess.PIPE)
    return classes


def run_jobs(jobs, workdir, weka_jar, classes, workers, heap):
    """jobs: [(id, fields...)]; returns {id: (True, lines) or (False, error)}."""
    names = {"j%d" % k: job[0] for k, job in enumerate(jobs)}
    short = [("j%d" % k,) + tuple(job[1:]) for k, job in enumerate(jobs)]
    procs = []
    for w in range(workers):
        chunk = short[w::workers]
        if not chunk:
            continue
        jobfile = os.path.join(workdir, "bnjobs%d.tsv" % w)
        with open(jobfile, "w", encoding="utf-8") as handle:
            for job in chunk:
                fields = ["BN"] + [str(x) for x in job]
                assert all("\t" not in f and "\n" not in f for f in fields)
                handle.write("\t".join(fields) + "\n")
        outfile = open(os.path.join(workdir, "bnout%d.txt" % w), "w+", encoding="utf-8")
        cmd = ["java", "-Xmx" + heap, "-cp", weka_jar + os.pathsep + classes, "WekaBayesNet",
               jobfile]
        procs.append((subprocess.Popen(cmd, stdout=outfile, stderr=subprocess.DEVNULL),
                      outfile))
    results = {}
    for proc, outfile in procs:
        proc.wait()
        if proc.returncode != 0:
            sys.exit("WekaBayesNet failed with exit code %d" % proc.returncode)
        outfile.seek(0)
        current, lines = None, []
        for line in outfile:
            line = line.rstrip("\n")
            if line.startswith("BEGIN "):
                current, lines = line[6:], []
            elif line.startswith("END "):
                parts = line.split(" ", 3)
                assert parts[1] == current, line
                results[names[current]] = (True, lines) if parts[2] == "OK" else (False,
                                                                                  parts[3])
                current = None
            else:
                lines.append(line)
        outfile.close()
    missing = [job[0] for job in jobs if job[0] not in results]
    if missing:
        sys.exit("no answer for jobs: %s" % missing[:5])
    return results


def parse_fit(lines):
    """The fitted network, the test rows' answers and the build time of one job."""
    fit = {"parents": [], "cardinalities": [], "cuts": {}, "rows": [], "predicted": [],
           "distributions": []}
    for line in lines:
        parts = line.split(" ")
        key = parts[0]
        if key == "NODE":
            assert int(parts[1]) == len(fit["parents"]), line
            fit["cardinalities"].append(int(parts[2]))
            parents = [int(p) for p in parts[4:]]
            assert len(parents) == int(parts[3]), line
            fit["parents"].append(parents)
        elif key == "CUT":
            cuts = [_parse_double(t) for t in parts[3:]]
            assert len(cuts) == int(parts[2]), line
            fit["cuts"][parts[1]] = cuts
        elif key == "SCORE":
            fit["bayes_score"] = _parse_double(parts[1])
        elif key in ("D", "P"):
            fit["rows"].append(int(parts[1]))
            fit["predicted"].append(int(parts[2]))
            if key == "D":
                fit["distributions"].append([_parse_double(t) for t in parts[3:]])
        elif key == "FILL":
            pairs = parts[1:]
            fit["fill"] = {pairs[i]: int(_parse_double(pairs[i + 1]))
                           for i in range(0, len(pairs), 2)}
        elif key == "BUILDMS":
            fit["build_ms"] = int(parts[1])
        else:
            raise ValueError("unexpected line: " + line[:80])
    return fit


def network(fit):
    """The JSON entry of one fitted network (no test rows)."""
    entry = {"parents": fit["parents"], "cardinalities": fit["cardinalities"]}
    if fit["cuts"]:
        entry["cuts"] = fit["cuts"]
    entry["fill"] = fit.get("fill", {})
    entry["bayes_score"] = fit["bayes_score"]
    return entry


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weka-jar", default="/usr/share/java/weka.jar")
    parser.add_argument("--workers", type=int, default=1, help="parallel JVMs (default 1)")
    parser.add_argument("--heap", default="2g", help="JVM heap per worker (default 2g)")
    parser.add_argument("--no-cv", action="store_true",
                        help="skip the cross-validation (keeps none in the file)")
    args = parser.parse_args(argv)
    t0 = time.time()

    with open(os.path.join(HERE, "weka", "distributions.json"), encoding="utf-8") as handle:
        dists = json.load(handle)
    with open(os.path.join(HERE, "weka", "cv.json"), encoding="utf-8") as handle:
        cvs = json.load(handle)

    jobs, cases = [], []
    paths = {name: os.path.join(ROOT, "examples", "data", name + ".arff") for name in DATASETS}

    def add(job_id, name, train, weights, test, mode, key):
        jobs.append((job_id, paths[name], _rows(train), _weights(weights), _rows(test), mode,
                     config_command(key, name)))

    for name in DATASETS:
        info = dists["datasets"][name]
        train, test = split_rows(info["n_rows"])
        assert test == info["test_rows"]
        keys = list(MAIN_KEYS)
        if name in ALPHA1_DATASETS:
            keys += ALPHA1_KEYS
        if name in NO_ADTREE_CHECK_DATASETS:
            keys += NO_ADTREE_KEYS
        for key in keys:
            add("dist:%s:%s" % (name, key), name, train, None, test, "dist", key)
        if name in WEIGHTED_DATASETS:
            for key in MAIN_KEYS:
                add("wdist:%s:%s" % (name, key), name, train, rule_weights(len(train)), test,
                    "dist", key)

    # the special training sets of distributions.json (tiny, a class absent, empty)
    specials = [s for s in dists["special"] if s["dataset"] in ("vote", "soybean")]
    for case in specials:
        for key in MAIN_KEYS:
            add("special:%s:%s" % (case["id"], key), case["dataset"], case["train_rows"], None,
                case["test_rows"], "dist", key)
        cases.append(case)

    if not args.no_cv:
        for name in DATASETS:
            entry = cvs["datasets"][name]
            y = entry["y"]
            folds_by_rep = entry["folds"]
            for seed, folds in zip(cvs["seeds"], folds_by_rep):
                assert folds == stratified_folds(y, len(entry["class_values"]), seed)
            for r, folds in enumerate(folds_by_rep):
                for f in range(cvs["n_folds"]):
                    tr = [i for i in range(len(y)) if folds[i] != f and folds[i] != -1]
                    te = [i for i in range(len(y)) if folds[i] == f]
                    for key in MAIN_KEYS:
                        add("cv:%s:%d:%d:%s" % (name, r, f, key), name, tr, None, te, "pred",
                            key)

    workdir = tempfile.mkdtemp(prefix="weka_bayesnet_")
    try:
        classes = compile_driver(workdir, args.weka_jar)
        t1 = time.time()
        answers = run_jobs(jobs, workdir, args.weka_jar, classes, args.workers, args.heap)
        print("%d Weka jobs in %.1f s (%d JVMs)" % (len(jobs), time.time() - t1, args.workers))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    build_ms = {}

    def collect(prefix, name, keys):
        results, errors = {}, {}
        for key in keys:
            ok, payload = answers["%s:%s:%s" % (prefix, name, key)]
            if not ok:
                errors[key] = payload
                continue
            fit = parse_fit(payload)
            build_ms.setdefault((prefix, name, key), fit["build_ms"])
            result = network(fit)
            result["distributions"] = fit["distributions"]
            result["predicted"] = fit["predicted"]
            results[key] = result
        return results, errors

    record = {
        "weka_version": WEKA_VERSION, "split_rule": SPLIT_RULE, "weight_rule": WEIGHT_RULE,
        "predicted_rule": "index of the first maximum of the distribution "
                          "(Classifier.classifyInstance); -1 if no entry is > 0",
        "configs": {key: command(*CONFIGS[key]) for key in CONFIGS},
        "no_adtree": NO_ADTREE,
        "structure_rule": "parents[i] lists the parents of node i (attribute i of the ARFF, "
                          "the class last) in Weka's order (ParentSet.getParent); "
                          "cardinalities[i] is its number of values after BayesNet's own "
                          "discretization; cuts[attribute index] the cut points of "
                          "each attribute it discretized ([] = one bin); fill[attribute "
                          "index] the value index it puts in for a missing value at "
                          "prediction time; bayes_score = BayesNet.measureBayesScore()",
        "datasets": {}, "weighted": {}, "special": [], "cv": {}}
    for name in DATASETS:
        info = dists["datasets"][name]
        keys = [k for k in CONFIGS if ("dist:%s:%s" % (name, k)) in answers]
        entry = {"file": info["file"], "n_rows": info["n_rows"],
                 "class_values": info["class_values"], "test_rows": info["test_rows"],
                 "test_y": info["test_y"]}
        if name in NO_ADTREE:
            entry["no_adtree"] = True
        entry["results"], errors = collect("dist", name, keys)
        if errors:
            entry["errors"] = errors
        record["datasets"][name] = entry
        if name in WEIGHTED_DATASETS:
            train, test = split_rows(info["n_rows"])
            results, errors = collect("wdist", name, MAIN_KEYS)
            record["weighted"][name] = {"train_rows": train,
                                        "train_weights": rule_weights(len(train)),
                                        "test_rows": test, "results": results}
            if errors:
                record["weighted"][name]["errors"] = errors
    for case in cases:
        results, errors = collect("special", case["id"], MAIN_KEYS)
        entry = {"id": case["id"], "dataset": case["dataset"], "note": case["note"],
                 "train_rows": case["train_rows"], "test_rows": case["test_rows"],
                 "class_values": case["class_values"], "test_y": case["test_y"],
                 "results": results}
        if errors:
            entry["errors"] = errors
        record["special"].append(entry)

    summary = []
    if not args.no_cv:
        record["cv_rule"] = ("folds of cv.json (2 x stratified 10-fold, seeds 1 and 2); per "
                             "config: predicted class per row per repetition, per-fold "
                             "accuracy, the learned parents per repetition and fold, "
                             "mean_accuracy = plain mean of the 20 fold accuracies")
        for name in DATASETS:
            entry = cvs["datasets"][name]
            y = entry["y"]
            out = {}
            for key in MAIN_KEYS:
                predicted_by_rep, acc_by_rep, correct_by_rep, parents_by_rep = [], [], [], []
                errors = []
                for r in range(len(entry["folds"])):
                    predicted = [None] * len(y)
                    accs, corrects, parents = [], [], []
                    for f in range(cvs["n_folds"]):
                        ok, payload = answers["cv:%s:%d:%d:%s" % (name, r, f, key)]
                        if not ok:
                            errors.append("rep %d fold %d: %s" % (r, f, payload))
                            accs.append(None)
                            corrects.append(None)
                            parents.append(None)
                            continue
                        fit = parse_fit(payload)
                        correct = 0
                        for i, p in zip(fit["rows"], fit["predicted"]):
                            predicted[i] = p
                            correct += p == y[i]
                        accs.append(correct / len(fit["rows"]))
                        corrects.append(correct)
                        parents.append(fit["parents"])
                    predicted_by_rep.append(predicted)
                    acc_by_rep.append(accs)
                    correct_by_rep.append(corrects)
                    parents_by_rep.append(parents)
                flat = [a for accs in acc_by_rep for a in accs if a is not None]
                out[key] = {"command": config_command(key, name), "fold_accuracy": acc_by_rep,
                            "fold_correct": correct_by_rep, "predicted": predicted_by_rep,
                            "parents": parents_by_rep,
                            "mean_accuracy": sum(flat) / len(flat) if flat else None}
                if errors:
                    out[key]["errors"] = errors
            record["cv"][name] = {"results": out}
            summary.append("| %s | %d | %s |" % (name, len(y), " | ".join(
                "%.2f" % (100 * out[k]["mean_accuracy"]) for k in MAIN_KEYS)))
    else:
        del record["cv"]

    with open(OUT, "w", encoding="utf-8", newline="\n") as handle:
        json.dump(record, handle, indent=1, ensure_ascii=False, allow_nan=False)
        handle.write("\n")
    floats = _check_roundtrip(OUT, record)
    print("wrote %s (%d bytes, %d floats round-trip exactly)"
          % (os.path.relpath(OUT, ROOT), os.path.getsize(OUT), floats))

    print("\nbuild time of buildClassifier on the training split (ms, one warm JVM):")
    for (prefix, name, key), ms in sorted(build_ms.items()):
        if prefix == "dist" and key in MAIN_KEYS:
            print("  %-18s %-18s %6d" % (name, key, ms))
    if summary:
        print("\n| data set | rows | " + " | ".join(MAIN_KEYS) + " |")
        print("| --- | ---: |" + " ---: |" * len(MAIN_KEYS))
        print("\n".join(summary))
        means = [sum(record["cv"][n]["results"][k]["mean_accuracy"] for n in record["cv"])
                 / len(record["cv"]) for k in MAIN_KEYS]
        print("| **mean over %d data sets** | | %s |" % (len(record["cv"]), " | ".join(
            "**%.2f**" % (100 * m) for m in means)))
    print("\ntotal recording time %.1f s" % (time.time() - t0))


if __name__ == "__main__":
    main()
