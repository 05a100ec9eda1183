#!/usr/bin/env python3
"""Record Weka 3.6.14's AODE variants (m-estimate, frequency limit 0, missing values
replaced, WAODE, AODEsr, HNB) on the data sets of record_weka.py, as JSON test data.

Run from anywhere (it finds the project from its own path)::

    python reference/record_weka_aode.py            # about 2-4 minutes on 2 cores
    python reference/record_weka_aode.py --workers 1

Needs Weka 3.6.14 (``/usr/share/java/weka.jar``, or ``--weka-jar``), ``java`` and
``javac`` and Python 3.8+ (standard library only).  It reuses ``record_weka.py``'s
helpers and ``WekaRecord.java``'s DIST job, the train/test split and weight rule of
``weka/distributions.json`` and the folds of ``weka/cv.json`` (read from that file and
checked against the fold rule), and writes ``weka/aode_variants.json`` (layout in
``reference/README.md``, section "AODE variants").  It never touches the other
recorded files.

A distribution that Weka returns with NaN entries (WAODE when every attribute's
mutual information with the class is 0) is written with ``null`` in place of each
NaN; its ``predicted`` is -1 (Classifier.classifyInstance's rule: no entry > 0).
"""

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import record_weka as rw  # noqa: E402  (this directory's recorder: shared helpers)

OUT_NAME = "aode_variants.json"
README_START, README_END = "<!-- aode-summary:start -->", "<!-- aode-summary:end -->"

BAYES = "weka.classifiers.bayes."
RMV = "weka.filters.unsupervised.attribute.ReplaceMissingValues"
DISC = "weka.filters.supervised.attribute.Discretize"
RMV_DISC = 'weka.filters.MultiFilter -F \\"%s\\" -F \\"%s\\"' % (RMV, DISC)

# classifier key -> (class name, options); options "" means the defaults
CLASSIFIERS = {
    "AODE -F 1 -M": ("AODE", "-F 1 -M"),
    "AODE -F 0": ("AODE", "-F 0"),
    "AODE -F 0 -M": ("AODE", "-F 0 -M"),
    "WAODE": ("WAODE", ""),
    "AODEsr": ("AODEsr", ""),
    "HNB": ("HNB", ""),
    "AODE -F 1": ("AODE", "-F 1"),      # only behind ReplaceMissingValues (plain is recorded)
}
PLAIN = ["AODE -F 1 -M", "AODE -F 0", "AODE -F 0 -M", "WAODE", "AODEsr", "HNB"]
IMPUTED = ["AODE -F 1", "AODE -F 1 -M", "WAODE", "HNB"]


def _filtered(filter_spec, key):
    name, options = CLASSIFIERS[key]
    command = 'weka.classifiers.meta.FilteredClassifier -F "%s" -W %s%s' % (
        filter_spec, BAYES + name, " -- " + options if options else "")
    return command


def configs(kind):
    """{config key: Weka command line} for a data set of this kind."""
    out = {}
    for key in PLAIN:
        if kind == "nominal":
            name, options = CLASSIFIERS[key]
            out[key] = (BAYES + name + " " + options).strip()
        else:
            out["Discretize+" + key] = _filtered(DISC, key)
    for key in IMPUTED:
        if kind == "nominal":
            out["ReplaceMissingValues+" + key] = _filtered(RMV, key)
        else:
            out["ReplaceMissingValues+Discretize+" + key] = _filtered(RMV_DISC, key)
    return out


def short(key):
    """A config key without its filters: the column of the summary table."""
    for prefix in ("ReplaceMissingValues+Discretize+", "ReplaceMissingValues+", "Discretize+"):
        if key.startswith(prefix):
            return ("impute " if prefix.startswith("Replace") else "") + key[len(prefix):]
    return key


def special_cases(infos):
    """Small cases: few rows (unseen parent values, -F 0), one class only (every mutual
    information 0: WAODE's NaN), no rows at all, and the plain classifiers on numbers."""
    cases = []

    def add(sid, name, train, test, keys, note):
        cases.append({"id": sid, "dataset": name, "note": note, "train_rows": train,
                      "test_rows": test, "configs": keys})

    nominal = configs("nominal")
    train, test = rw.split_rows(infos["soybean"]["n_rows"])
    add("soybean-train12", "soybean", train[:12], test, nominal,
        "training set = the first 12 rows of the training split: most values and classes "
        "unseen")
    weather = infos["weather.nominal"]
    train, test = rw.split_rows(weather["n_rows"])
    yes = weather["class_values"].index("yes")
    add("weather.nominal-yes-only", "weather.nominal",
        [i for i in train if weather["y"][i] == yes], test, nominal,
        "training split without its 'no' rows: every attribute's mutual information with "
        "the class is 0")
    train, test = rw.split_rows(infos["contact-lenses"]["n_rows"])
    add("contact-lenses-train6", "contact-lenses", train[:6], test, nominal,
        "training set = the first 6 rows of the training split")
    train, test = rw.split_rows(infos["vote"]["n_rows"])
    add("vote-train0", "vote", [], test[:5], nominal, "empty training set (header only)")
    train, test = rw.split_rows(infos["iris"]["n_rows"])
    plain = {key: command for key, command in nominal.items() if "+" not in key}
    add("iris-plain", "iris", train, test[:3], plain,
        "the classifiers without Discretize on numeric attributes")
    return cases


def parse(payload):
    """(rows, predicted, distributions with NaN as None) of a DIST answer."""
    rows, predicted, dists = rw.parse_dist(payload, True)
    dists = [[None if math.isnan(p) else p for p in dist] for dist in dists]
    return rows, predicted, dists


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weka-jar", default="/usr/share/java/weka.jar")
    parser.add_argument("--workers", type=int, default=2, help="parallel JVMs (default 2)")
    args = parser.parse_args(argv)
    t0 = time.time()
    with open(os.path.join(rw.OUT_DIR, "cv.json"), encoding="utf-8") as handle:
        cv_folds = json.load(handle)
    paths = {name: os.path.join(rw.DATA_DIR, name + ".arff") for name in rw.DATASETS}
    workdir = tempfile.mkdtemp(prefix="weka_aode_")
    try:
        classes = rw.compile_driver(workdir, args.weka_jar)
        answers = rw.run_jobs([("INFO", "info:" + name, paths[name]) for name in rw.DATASETS],
                              workdir, args.weka_jar, classes, args.workers)
        infos = {}
        for name in rw.DATASETS:
            ok, payload = answers["info:" + name]
            if not ok:
                sys.exit("Weka cannot read %s: %s" % (name, payload))
            info = infos[name] = rw.parse_info(payload)
            info["kind"] = rw.dataset_kind(info)
            if info["kind"] == "unsupported":
                sys.exit("%s has an attribute that is neither nominal nor numeric" % name)
        jobs = []
        for name in rw.DATASETS:
            info, path = infos[name], paths[name]
            n = info["n_rows"]
            train, test = rw.split_rows(n)
            entry = cv_folds["datasets"][name]
            assert entry["y"] == info["y"], name
            for r, seed in enumerate(rw.CV_SEEDS):
                assert entry["folds"][r] == rw.stratified_folds(
                    info["y"], len(info["class_values"]), seed), name
            for key, command in configs(info["kind"]).items():
                jobs.append(("DIST", "dist:%s:%s" % (name, key), path, rw._rows(train), "-",
                             rw._rows(test), "dist", command))
                if name in rw.WEIGHTED_DATASETS:
                    jobs.append(("DIST", "wdist:%s:%s" % (name, key), path, rw._rows(train),
                                 rw._weights(rw.rule_weights(len(train))), rw._rows(test),
                                 "dist", command))
                mode = "dist" if "WAODE" in key else "pred"   # to see NaN answers
                for r, folds in enumerate(entry["folds"]):
                    for f in range(rw.N_FOLDS):
                        tr = [i for i in range(n) if folds[i] not in (f, -1)]
                        te = [i for i in range(n) if folds[i] == f]
                        jobs.append(("DIST", "cv:%s:%d:%d:%s" % (name, r, f, key), path,
                                     rw._rows(tr), "-", rw._rows(te), mode, command))
        special = special_cases(infos)
        for case in special:
            for key, command in case["configs"].items():
                jobs.append(("DIST", "special:%s:%s" % (case["id"], key), paths[case["dataset"]],
                             rw._rows(case["train_rows"]), "-", rw._rows(case["test_rows"]),
                             "dist", command))
        t1 = time.time()
        answers = rw.run_jobs(jobs, workdir, args.weka_jar, classes, args.workers)
        print("%d Weka jobs in %.1f s (%d JVMs)" % (len(jobs), time.time() - t1, args.workers))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    every_config = {}
    for kind in ("nominal", "numeric"):
        every_config.update(configs(kind))
    out = {"weka_version": rw.WEKA_VERSION, "split_rule": rw.SPLIT_RULE,
           "weight_rule": rw.WEIGHT_RULE, "weighted_datasets": rw.WEIGHTED_DATASETS,
           "folds": "the folds of cv.json (datasets[name].folds), also given by its folds_rule",
           "configs": every_config,
           "config_keys": {kind: list(configs(kind)) for kind in ("nominal", "numeric")},
           "predicted_rule": "index of the first maximum of the distribution "
                             "(Classifier.classifyInstance); -1 if no entry is > 0 (so for "
                             "a NaN distribution)",
           "nan_rule": "a NaN entry of a distribution is written as null; Weka's "
                       "Evaluation would count such a row as predicting class 0 "
                       "(Utils.maxIndex), classifyInstance as unclassified (-1)",
           "accuracy_rule": "fold accuracy = correct / test rows of the fold, predicted by "
                            "predicted_rule (a -1 is wrong); mean_accuracy = plain mean of "
                            "the 20 fold accuracies; mean_accuracy_evaluation (only where "
                            "a distribution was NaN) counts NaN rows as class 0",
           "datasets": {}, "weighted": {}, "cv": {}}

    def collect(prefix, name, keys):
        results, errors = {}, {}
        for key in keys:
            ok, payload = answers["%s:%s:%s" % (prefix, name, key)]
            if ok:
                _, predicted, dists = parse(payload)
                results[key] = {"distributions": dists, "predicted": predicted}
            else:
                errors[key] = payload
        return results, errors

    for name in rw.DATASETS:
        info = infos[name]
        keys = list(configs(info["kind"]))
        train, test = rw.split_rows(info["n_rows"])
        entry = {"file": "examples/data/%s.arff" % name, "kind": info["kind"],
                 "n_rows": info["n_rows"], "class_values": info["class_values"],
                 "missing_cells": sum(info["missing_per_attribute"]),
                 "test_rows": test, "test_y": [info["y"][i] for i in test]}
        entry["results"], errors = collect("dist", name, keys)
        if errors:
            entry["errors"] = errors
        out["datasets"][name] = entry
        if name in rw.WEIGHTED_DATASETS:
            results, errors = collect("wdist", name, keys)
            out["weighted"][name] = {"train_rows": train,
                                     "train_weights": rw.rule_weights(len(train)),
                                     "test_rows": test, "results": results}
            if errors:
                out["weighted"][name]["errors"] = errors

        y = info["y"]
        folds_by_rep = cv_folds["datasets"][name]["folds"]
        cv_entry = {"results": {}}
        for key in keys:
            predicted_by_rep, acc_by_rep, correct_by_rep, size_by_rep = [], [], [], []
            errors, nan_rows, evaluation_acc = [], 0, []
            for r, folds in enumerate(folds_by_rep):
                predicted = [None] * len(y)
                accs, corrects, sizes = [], [], []
                for f in range(rw.N_FOLDS):
                    ok, payload = answers["cv:%s:%d:%d:%s" % (name, r, f, key)]
                    if not ok:
                        errors.append("rep %d fold %d: %s" % (r, f, payload))
                        for column in (accs, corrects, sizes, evaluation_acc):
                            column.append(None)
                        continue
                    if "WAODE" in key:
                        rows, preds, dists = parse(payload)
                    else:
                        rows, preds, dists = rw.parse_dist(payload, False)
                    correct = evaluation_correct = 0
                    for k, (i, p) in enumerate(zip(rows, preds)):
                        predicted[i] = p
                        correct += p == y[i]
                        nan = bool(dists) and None in dists[k]
                        nan_rows += nan
                        evaluation_correct += (0 if nan else p) == y[i]
                    accs.append(correct / len(rows))
                    evaluation_acc.append(evaluation_correct / len(rows))
                    corrects.append(correct)
                    sizes.append(len(rows))
                predicted_by_rep.append(predicted)
                acc_by_rep.append(accs)
                correct_by_rep.append(corrects)
                size_by_rep.append(sizes)
            flat = [a for accs in acc_by_rep for a in accs if a is not None]
            result = {"command": every_config[key], "fold_accuracy": acc_by_rep,
                      "fold_correct": correct_by_rep, "fold_size": size_by_rep,
                      "predicted": predicted_by_rep,
                      "mean_accuracy": sum(flat) / len(flat) if flat else None}
            if nan_rows:
                result["nan_predictions"] = nan_rows
                flat = [a for a in evaluation_acc if a is not None]
                result["mean_accuracy_evaluation"] = sum(flat) / len(flat)
            if errors:
                result["errors"] = errors
            cv_entry["results"][key] = result
        out["cv"][name] = cv_entry

    out["special"] = []
    for case in special:
        entry = {key: case[key] for key in ("id", "dataset", "note", "train_rows", "test_rows")}
        info = infos[case["dataset"]]
        entry["class_values"] = info["class_values"]
        entry["test_y"] = [info["y"][i] for i in case["test_rows"]]
        entry["configs"] = case["configs"]
        entry["results"], entry["errors"] = {}, {}
        for key in case["configs"]:
            ok, payload = answers["special:%s:%s" % (case["id"], key)]
            if ok:
                _, predicted, dists = parse(payload)
                entry["results"][key] = {"distributions": dists, "predicted": predicted}
            else:
                entry["errors"][key] = payload
        out["special"].append(entry)

    table = summary_table(out)
    out["summary_table_markdown"] = table
    write_json(OUT_NAME, out)
    seconds = time.time() - t0
    print()
    print(table)
    print("\ntotal recording time %.1f s" % seconds)
    update_readme(table, seconds)


def _dumps(value, depth=0):
    """JSON text, one line per list of numbers (indent 1 elsewhere), floats by repr."""
    pad = "\n" + " " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{" + ",".join(pad + json.dumps(key) + ": " + _dumps(item, depth + 1)
                              for key, item in value.items()) + "\n" + " " * depth + "}"
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        return "[" + ",".join(pad + _dumps(item, depth + 1) for item in value) + \
            "\n" + " " * depth + "]"
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def write_json(name, payload):
    path = os.path.join(rw.OUT_DIR, name)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(_dumps(payload) + "\n")
    floats = rw._check_roundtrip(path, payload)
    print("wrote %s (%d bytes, %d floats round-trip exactly)"
          % (os.path.relpath(path, rw.ROOT), os.path.getsize(path), floats))


COLUMNS = ["AODE -F 1 -M", "AODE -F 0", "AODE -F 0 -M", "WAODE", "AODEsr", "HNB",
           "impute AODE -F 1", "impute AODE -F 1 -M", "impute WAODE", "impute HNB"]


def summary_table(out):
    """Markdown: mean CV accuracy (percent) per data set and config; means over the 15
    Weka sets, over the 14 without contact-lenses, and over all 18 (a refused data set
    is '-' and left out of the mean, which then says over how many sets it is)."""
    lines = ["| data set | " + " | ".join(COLUMNS) + " |",
             "| --- |" + " ---: |" * len(COLUMNS)]
    values = {}
    for name, entry in out["cv"].items():
        row = {short(key): result["mean_accuracy"] if not result.get("errors") else None
               for key, result in entry["results"].items()}
        values[name] = row
        lines.append("| %s | %s |" % (name, " | ".join(
            "-" if row.get(c) is None else "%.2f" % (100 * row[c]) for c in COLUMNS)))
    groups = [("the 15 Weka sets", rw.WEKA_DATASETS),
              ("the 14 without contact-lenses",
               [n for n in rw.WEKA_DATASETS if n != "contact-lenses"]),
              ("all 18", rw.DATASETS)]
    for title, names in groups:
        cells = []
        for c in COLUMNS:
            column = [values[n].get(c) for n in names]
            present = [v for v in column if v is not None]
            mean = "**%.2f**" % (100 * sum(present) / len(present)) if present else "-"
            cells.append(mean if len(present) == len(column) else
                         "%s (%d sets)" % (mean, len(present)))
        lines.append("| **mean over %s** | %s |" % (title, " | ".join(cells)))
    return "\n".join(lines)


def update_readme(table, seconds):
    with open(rw.README, encoding="utf-8") as handle:
        text = handle.read()
    if README_START not in text or README_END not in text:
        return
    block = (README_START + "\n" + table + "\n\nMean accuracy in percent over the 20 folds "
             "of `cv.json`; '-' where Weka refused the data (WAODE and HNB take no missing "
             "values). The last recording took %.0f s.\n" % seconds + README_END)
    text = text[:text.index(README_START)] + block + \
        text[text.index(README_END) + len(README_END):]
    with open(rw.README, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    print("updated the AODE summary in", os.path.relpath(rw.README, rw.ROOT))


if __name__ == "__main__":
    main()
