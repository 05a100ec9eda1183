#!/usr/bin/env python3
"""Record Weka 3.6.14's outputs on public data sets as JSON test data (the Weka oracle).

Run from anywhere (it finds the project from its own path)::

    python reference/record_weka.py            # everything
    python reference/record_weka.py --workers 1

Needs: Weka 3.6.14 (``/usr/share/java/weka.jar``, or ``--weka-jar``), ``java`` and
``javac`` (Java 17 tested), and Python 3.8+.  The recording itself uses the standard
library only; scikit-learn (imported lazily) is needed only to export ``wine.arff``,
``wdbc.arff`` and ``digits.arff`` when they are not yet in ``examples/data`` (or with
``--refresh-sklearn``), which is why the venv's Python is used above.

What it does:

1. Data sets.  Copies the ARFF files that Weka ships (``--weka-examples``, default
   ``/usr/share/doc/weka/examples``) byte for byte into ``examples/data/`` when they
   are missing there (an existing file that differs is an error, never overwritten),
   and exports the three scikit-learn data sets to ARFF.  The class is the last
   attribute everywhere.
2. Compiles ``reference/WekaRecord.java`` into a temporary directory and runs it on
   job files (one JVM per worker, ``--workers`` of them in parallel).  Every double
   comes back as its decimal text and its IEEE-754 bits; the bits are used and the text
   is checked against them.
3. Writes ``reference/weka/cuts.json``, ``distributions.json`` and ``cv.json``
   (layouts in ``reference/README.md``), re-reads them with :mod:`json` and checks that
   every float round-trips bit for bit, prints the cross-validation summary table and
   rewrites the part of ``reference/README.md`` between the ``summary:start`` and
   ``summary:end`` markers.

Deterministic rules (also written into the JSON files):

* split: 0-based row ``i`` is a training row when ``i % 3 != 0``, a test row when
  ``i % 3 == 0``;
* weights (``train_weighted`` cuts and the ``weighted`` distributions): the k-th
  training row (k = 0, 1, 2, ... in increasing row order) has weight ``1 + (k % 3) / 2``
  (1, 1.5, 2, 1, 1.5, 2, ...);
* cross-validation folds: see :func:`stratified_folds`.
"""

import argparse
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA_DIR = os.path.join(ROOT, "examples", "data")
OUT_DIR = os.path.join(HERE, "weka")
README = os.path.join(HERE, "README.md")
JAVA_SOURCE = os.path.join(HERE, "WekaRecord.java")

WEKA_VERSION = "3.6.14"

WEKA_DATASETS = [
    "breast-cancer", "contact-lenses", "credit-g", "diabetes", "glass", "ionosphere",
    "iris", "labor", "segment-challenge", "segment-test", "soybean", "vote",
    "weather.nominal", "weather.numeric", "unbalanced",
]
SKLEARN_DATASETS = ["wine", "wdbc", "digits"]
DATASETS = WEKA_DATASETS + SKLEARN_DATASETS

WEIGHTED_DATASETS = ["diabetes", "glass", "labor"]

NB = "weka.classifiers.bayes.NaiveBayes"
AODE = "weka.classifiers.bayes.AODE"
FC_AODE = ('weka.classifiers.meta.FilteredClassifier -F "weka.filters.supervised.attribute.'
           'Discretize" -W weka.classifiers.bayes.AODE -- -F %d')

# config key -> Weka command line (class name and options)
CONFIGS = {
    "NaiveBayes": NB,
    "NaiveBayes -K": NB + " -K",
    "NaiveBayes -D": NB + " -D",
    "AODE -F 1": AODE + " -F 1",
    "AODE -F 30": AODE + " -F 30",
    "Discretize+AODE -F 1": FC_AODE % 1,
    "Discretize+AODE -F 30": FC_AODE % 30,
}

SPLIT_RULE = "0-based row i: training row if i % 3 != 0, test row if i % 3 == 0"
WEIGHT_RULE = ("the k-th training row (k = 0, 1, 2, ... in increasing row order) has "
               "weight 1 + (k % 3) / 2, i.e. 1, 1.5, 2, 1, 1.5, 2, ...")
FOLD_RULE = (
    "per repetition with seed s: rng = random.Random(s); p = 0; for each class value c in "
    "declared order: rows = [i for i in range(n) if y[i] == c] (increasing); rng.shuffle(rows); "
    "for i in rows: fold[i] = p % 10; p += 1.  (Rows with a missing class would get "
    "fold -1 and be left out; no data set here has one.)  Fold f of a repetition: test rows "
    "= rows with fold f (increasing), training rows = all other rows (increasing order).")
CV_SEEDS = [1, 2]
N_FOLDS = 10


# --------------------------------------------------------------------------- data sets

def _arff_name(name):
    """An ARFF identifier: spaces become '_', quoted when it still needs quoting."""
    name = str(name).replace(" ", "_")
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _arff_number(value):
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def export_sklearn(name, path):
    from sklearn import datasets  # only needed here

    loaders = {
        "wine": (datasets.load_wine, "wine"),
        "wdbc": (datasets.load_breast_cancer, "wdbc"),
        "digits": (datasets.load_digits, "digits"),
    }
    loader, relation = loaders[name]
    bunch = loader()
    class_values = [str(v) for v in bunch.target_names]
    lines = ["% Exported from scikit-learn's " + loader.__name__
             + "() by reference/record_weka.py.",
             "% Numeric attributes as in scikit-learn; the class (last attribute) is the "
             "target name.",
             "@relation " + _arff_name(relation), ""]
    for feature in bunch.feature_names:
        lines.append("@attribute %s numeric" % _arff_name(feature))
    lines.append("@attribute class {%s}" % ",".join(_arff_name(v) for v in class_values))
    lines += ["", "@data"]
    for row, target in zip(bunch.data, bunch.target):
        lines.append(",".join([_arff_number(v) for v in row]
                              + [_arff_name(class_values[int(target)])]))
    with open(path, "w", encoding="ascii", newline="\n") as handle:
        handle.write("\n".join(lines) + "\n")


def prepare_data(weka_examples, refresh_sklearn):
    os.makedirs(DATA_DIR, exist_ok=True)
    for name in WEKA_DATASETS:
        source = os.path.join(weka_examples, name + ".arff")
        target = os.path.join(DATA_DIR, name + ".arff")
        with open(source, "rb") as handle:
            wanted = handle.read()
        if os.path.exists(target):
            with open(target, "rb") as handle:
                if handle.read() != wanted:
                    sys.exit("%s exists and differs from Weka's %s: not overwriting"
                             % (target, source))
            continue
        shutil.copyfile(source, target)
        print("copied", os.path.relpath(target, ROOT))
    for name in SKLEARN_DATASETS:
        target = os.path.join(DATA_DIR, name + ".arff")
        if refresh_sklearn or not os.path.exists(target):
            export_sklearn(name, target)
            print("exported", os.path.relpath(target, ROOT))


# --------------------------------------------------------------------------- Weka driver

def compile_driver(workdir, weka_jar):
    classes = os.path.join(workdir, "classes")
    os.makedirs(classes)
    subprocess.run(["javac", "-nowarn", "-cp", weka_jar, "-d", classes, JAVA_SOURCE],
                   check=True, stderr=subprocess.PIPE)
    return classes


def _parse_double(token):
    text, bits = token.split("|")
    value = struct.unpack(">d", struct.pack(">Q", int(bits, 16)))[0]
    if not (value == float(text) or (value != value and text == "NaN")):
        raise ValueError("decimal text %s does not match bits %s" % (text, bits))
    if value == 0.0 and text.startswith("-") != (struct.pack(">d", value)[0] >> 7 == 1):
        raise ValueError("sign of zero differs: %s %s" % (text, bits))
    return value


def run_jobs(jobs, workdir, weka_jar, classes, workers):
    """jobs: list of (kind, id, fields...); returns {id: (ok, payload_lines or error)}."""
    # the driver sees short ids without spaces; answers are keyed by the caller's ids
    names = {"j%d" % k: job[1] for k, job in enumerate(jobs)}
    jobs = [(job[0], "j%d" % k) + tuple(job[2:]) for k, job in enumerate(jobs)]
    chunks = [jobs[w::workers] for w in range(workers)]
    procs = []
    for w, chunk in enumerate(chunks):
        if not chunk:
            continue
        jobfile = os.path.join(workdir, "jobs%d.tsv" % w)
        with open(jobfile, "w", encoding="utf-8") as handle:
            for job in chunk:
                fields = [str(x) for x in job]
                assert all("\t" not in f and "\n" not in f for f in fields)
                handle.write("\t".join(fields) + "\n")
        outfile = open(os.path.join(workdir, "out%d.txt" % w), "w+", encoding="utf-8")
        cmd = ["java", "-Xmx1g", "-cp", weka_jar + os.pathsep + classes, "WekaRecord", jobfile]
        procs.append((subprocess.Popen(cmd, stdout=outfile, stderr=subprocess.PIPE), outfile))
    results = {}
    for proc, outfile in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:
            sys.exit("WekaRecord failed:\n" + err.decode("utf-8", "replace"))
        outfile.seek(0)
        current, lines = None, []
        for line in outfile:
            line = line.rstrip("\n")
            if line.startswith("BEGIN "):
                current, lines = line[6:], []
            elif line.startswith("END "):
                parts = line.split(" ", 3)
                assert parts[1] == current, line
                if parts[2] == "OK":
                    results[names[current]] = (True, lines)
                else:
                    results[names[current]] = (False, parts[3])
                current = None
            else:
                lines.append(line)
        outfile.close()
    missing = [names[job[1]] for job in jobs if names[job[1]] not in results]
    if missing:
        sys.exit("no answer for jobs: %s" % missing[:5])
    return results


def parse_info(lines):
    info = {"attributes": [], "class_values": []}
    for line in lines:
        key, _, rest = line.partition(" ")
        if key == "RELATION":
            info["relation"] = rest
        elif key == "NUMINSTANCES":
            info["n_rows"] = int(rest)
        elif key == "ATTRIBUTE":
            index, kind, _, name = rest.split("\t", 3)
            info["attributes"].append({"index": int(index), "type": kind, "name": name})
        elif key == "CLASSVALUE":
            info["class_values"].append(rest.split("\t", 1)[1])
        elif key == "CLASSES":
            info["y"] = [int(v) for v in rest.split()]
        elif key == "MISSING":
            info["missing_per_attribute"] = [int(v) for v in rest.split()]
    return info


def parse_cuts(lines):
    cuts = {}
    for line in lines:
        parts = line.split(" ")
        assert parts[0] == "CUT"
        n = int(parts[2])
        values = [_parse_double(t) for t in parts[3:]]
        assert len(values) == n
        cuts[int(parts[1])] = values
    return cuts


def parse_dist(lines, full):
    rows, predicted, dists = [], [], []
    for line in lines:
        parts = line.split(" ")
        assert parts[0] == ("D" if full else "P"), line
        rows.append(int(parts[1]))
        predicted.append(int(parts[2]))
        if full:
            dists.append([_parse_double(t) for t in parts[3:]])
    return rows, predicted, dists


def _rows(rows):
    return ",".join(str(i) for i in rows) if rows else "none"


def _weights(weights):
    return "-" if weights is None else ",".join(repr(float(w)) for w in weights)


# --------------------------------------------------------------------------- rules

def split_rows(n):
    train = [i for i in range(n) if i % 3 != 0]
    test = [i for i in range(n) if i % 3 == 0]
    return train, test


def rule_weights(k_count):
    return [1 + (k % 3) / 2 for k in range(k_count)]


def stratified_folds(y, n_classes, seed, n_folds=N_FOLDS):
    """Fold number (0..n_folds-1) of every row; -1 for a missing class (y == -1)."""
    rng = random.Random(seed)
    fold = [-1] * len(y)
    p = 0
    for c in range(n_classes):
        rows = [i for i, v in enumerate(y) if v == c]
        rng.shuffle(rows)
        for i in rows:
            fold[i] = p % n_folds
            p += 1
    return fold


# --------------------------------------------------------------------------- main

def dataset_kind(info):
    inputs = [a for a in info["attributes"][:-1]]
    if any(a["type"] not in ("nominal", "numeric") for a in inputs):
        return "unsupported"
    return "numeric" if any(a["type"] == "numeric" for a in inputs) else "nominal"


def dist_configs(kind):
    if kind == "nominal":
        return ["NaiveBayes", "NaiveBayes -D", "AODE -F 1", "AODE -F 30"]
    if kind == "numeric":
        return ["NaiveBayes", "NaiveBayes -K", "NaiveBayes -D", "Discretize+AODE -F 1",
                "Discretize+AODE -F 30"]
    return []


def cv_configs(kind):
    if kind == "nominal":
        return ["NaiveBayes", "NaiveBayes -K", "NaiveBayes -D", "AODE -F 1"]
    if kind == "numeric":
        return ["NaiveBayes", "NaiveBayes -K", "NaiveBayes -D", "Discretize+AODE -F 1"]
    return []


def _check_roundtrip(path, expected):
    """Every float in the file must read back bit for bit as in `expected`."""
    with open(path, encoding="utf-8") as handle:
        loaded = json.load(handle)
    count = [0]

    def walk(a, b, where):
        if isinstance(a, float) or isinstance(b, float):
            if not (isinstance(a, float) and isinstance(b, float)
                    and struct.pack(">d", a) == struct.pack(">d", b)):
                raise AssertionError("float mismatch at %s: %r vs %r" % (where, a, b))
            count[0] += 1
        elif isinstance(a, dict):
            assert isinstance(b, dict) and list(a) == list(b), where
            for key in a:
                walk(a[key], b[key], where + "/" + key)
        elif isinstance(a, (list, tuple)):
            assert isinstance(b, list) and len(a) == len(b), where
            for i, (x, z) in enumerate(zip(a, b)):
                walk(x, z, "%s[%d]" % (where, i))
        else:
            assert a == b and type(a) is type(b), where

    walk(expected, loaded, os.path.basename(path))
    return count[0]


def write_json(name, payload):
    path = os.path.join(OUT_DIR, name)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        json.dump(payload, handle, indent=1, ensure_ascii=False, allow_nan=False)
        handle.write("\n")
    floats = _check_roundtrip(path, payload)
    print("wrote %s (%d bytes, %d floats round-trip exactly)"
          % (os.path.relpath(path, ROOT), os.path.getsize(path), floats))


def summary_table(cv):
    columns = ["NaiveBayes", "NaiveBayes -K", "NaiveBayes -D", "AODE"]
    header = ("| data set | rows | NaiveBayes | NaiveBayes -K | NaiveBayes -D | "
              "AODE -F 1 (Discretize first if numeric) |")
    lines = [header, "| --- | ---: | ---: | ---: | ---: | ---: |"]
    sums = {c: 0.0 for c in columns}
    for name, entry in cv["datasets"].items():
        res = entry["results"]
        aode_key = "AODE -F 1" if "AODE -F 1" in res else "Discretize+AODE -F 1"
        values = {
            "NaiveBayes": res["NaiveBayes"]["mean_accuracy"],
            "NaiveBayes -K": res["NaiveBayes -K"]["mean_accuracy"],
            "NaiveBayes -D": res["NaiveBayes -D"]["mean_accuracy"],
            "AODE": res[aode_key]["mean_accuracy"],
        }
        for c in columns:
            sums[c] += values[c]
        lines.append("| %s | %d | %s |" % (name, len(entry["y"]), " | ".join(
            "%.2f" % (100 * values[c]) for c in columns)))
    n = len(cv["datasets"])
    lines.append("| **mean over %d data sets** | | %s |" % (n, " | ".join(
        "**%.2f**" % (100 * sums[c] / n) for c in columns)))
    return "\n".join(lines)


def update_readme(table, seconds):
    if not os.path.exists(README):
        return
    with open(README, encoding="utf-8") as handle:
        text = handle.read()
    start, end = "<!-- summary:start -->", "<!-- summary:end -->"
    if start not in text or end not in text:
        return
    block = (start + "\n" + table + "\n\nMean accuracy in percent over the 20 folds "
             "(2 x stratified 10-fold, seeds 1 and 2): the plain mean of the per-fold "
             "accuracies. The last recording took %.0f s.\n" % seconds + end)
    text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    with open(README, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    print("updated the summary in", os.path.relpath(README, ROOT))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weka-jar", default="/usr/share/java/weka.jar")
    parser.add_argument("--weka-examples", default="/usr/share/doc/weka/examples")
    parser.add_argument("--workers", type=int, default=2, help="parallel JVMs (default 2)")
    parser.add_argument("--refresh-sklearn", action="store_true",
                        help="re-export wine/wdbc/digits.arff even if present")
    args = parser.parse_args(argv)

    t0 = time.time()
    prepare_data(args.weka_examples, args.refresh_sklearn)
    os.makedirs(OUT_DIR, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="weka_record_")
    try:
        classes = compile_driver(workdir, args.weka_jar)
        paths = {name: os.path.join(DATA_DIR, name + ".arff") for name in DATASETS}

        # phase 1: what each data set looks like, as Weka reads it
        info_jobs = [("INFO", "info:" + name, paths[name]) for name in DATASETS]
        answers = run_jobs(info_jobs, workdir, args.weka_jar, classes, args.workers)
        infos = {}
        for name in DATASETS:
            ok, payload = answers["info:" + name]
            if not ok:
                sys.exit("Weka cannot read %s: %s" % (name, payload))
            infos[name] = parse_info(payload)
            infos[name]["kind"] = dataset_kind(infos[name])
            assert len(infos[name]["y"]) == infos[name]["n_rows"]
            if infos[name]["kind"] == "unsupported":
                print("skipping %s: it has an attribute that is neither nominal nor numeric" % name)

        # phase 2: every other job, in one batch
        jobs, meta = [], {}
        for name in DATASETS:
            info, path = infos[name], paths[name]
            n = info["n_rows"]
            train, test = split_rows(n)
            if info["kind"] == "numeric":
                jobs.append(("CUTS", "cuts:%s:whole" % name, path, "all", "-"))
                jobs.append(("CUTS", "cuts:%s:train" % name, path, _rows(train), "-"))
                if name in WEIGHTED_DATASETS:
                    jobs.append(("CUTS", "cuts:%s:train_weighted" % name, path, _rows(train),
                                 _weights(rule_weights(len(train)))))
            if info["kind"] == "numeric":
                jobs.append(("ORDER", "order:%s" % name, path, _rows(train)))
            for key in dist_configs(info["kind"]):
                jobs.append(("DIST", "dist:%s:%s" % (name, key), path, _rows(train), "-",
                             _rows(test), "dist", CONFIGS[key]))
                if name in WEIGHTED_DATASETS:
                    jobs.append(("DIST", "wdist:%s:%s" % (name, key), path, _rows(train),
                                 _weights(rule_weights(len(train))), _rows(test), "dist",
                                 CONFIGS[key]))
            if info["kind"] != "unsupported":
                folds_by_rep = [stratified_folds(info["y"], len(info["class_values"]), seed)
                                for seed in CV_SEEDS]
                meta["folds:" + name] = folds_by_rep
                for r, folds in enumerate(folds_by_rep):
                    for f in range(N_FOLDS):
                        tr = [i for i in range(n) if folds[i] != f and folds[i] != -1]
                        te = [i for i in range(n) if folds[i] == f]
                        for key in cv_configs(info["kind"]):
                            jobs.append(("DIST", "cv:%s:%d:%d:%s" % (name, r, f, key), path,
                                         _rows(tr), "-", _rows(te), "pred", CONFIGS[key]))

        # special cases: tiny training sets and an absent class (AODE on vote and soybean),
        # and AODE refusing numeric attributes
        special = []

        def add_special(sid, name, train_rows, test_rows, keys, note):
            special.append({"id": sid, "dataset": name, "note": note,
                            "train_rows": train_rows, "test_rows": test_rows, "configs": keys})
            for key in keys:
                jobs.append(("DIST", "special:%s:%s" % (sid, key), paths[name], _rows(train_rows),
                             "-", _rows(test_rows), "dist", CONFIGS[key]))

        tiny_keys = ["AODE -F 1", "AODE -F 30", "NaiveBayes"]
        for name in ["vote", "soybean"]:
            train, test = split_rows(infos[name]["n_rows"])
            add_special(name + "-train12", name, train[:12], test, tiny_keys,
                        "training set = the first 12 rows of the training split")
        vote = infos["vote"]
        train, test = split_rows(vote["n_rows"])
        absent = vote["class_values"].index("republican")
        add_special("vote-no-republican", "vote", [i for i in train if vote["y"][i] != absent],
                    test, tiny_keys, "training split without its 'republican' rows: one class "
                    "has no training rows")
        add_special("vote-train0", "vote", [], test[:5], tiny_keys,
                    "empty training set (header only)")
        train, test = split_rows(infos["iris"]["n_rows"])
        add_special("iris-plain-aode", "iris", train, test[:3], ["AODE -F 1"],
                    "plain AODE on numeric attributes (Weka 3.6 refuses them)")

        t1 = time.time()
        answers = run_jobs(jobs, workdir, args.weka_jar, classes, args.workers)
        t2 = time.time()
        print("%d Weka jobs in %.1f s (%d JVMs)" % (len(jobs), t2 - t1, args.workers))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def rel(name):
        return "examples/data/%s.arff" % name

    # ---- cuts.json
    cuts = {"weka_version": WEKA_VERSION,
            "filter": "weka.filters.supervised.attribute.Discretize with default options "
                      "(Fayyad & Irani MDL, -R first-last); cut points from getCutPoints(i)",
            "split_rule": SPLIT_RULE, "weight_rule": WEIGHT_RULE,
            "weighted_datasets": WEIGHTED_DATASETS, "datasets": {}}
    for name in DATASETS:
        info = infos[name]
        if info["kind"] != "numeric":
            continue
        numeric = [a for a in info["attributes"][:-1] if a["type"] == "numeric"]
        entry = {"file": rel(name),
                 "numeric_attributes": [[a["index"], a["name"]] for a in numeric]}
        for part in ["whole", "train", "train_weighted"]:
            key = "cuts:%s:%s" % (name, part)
            if key not in answers:
                continue
            ok, payload = answers[key]
            if not ok:
                sys.exit("Discretize failed on %s/%s: %s" % (name, part, payload))
            by_index = parse_cuts(payload)
            entry[part] = {a["name"]: by_index[a["index"]] for a in numeric}
        cuts["datasets"][name] = entry
    write_json("cuts.json", cuts)

    # ---- distributions.json
    dists = {"weka_version": WEKA_VERSION, "split_rule": SPLIT_RULE, "weight_rule": WEIGHT_RULE,
             "configs": {k: CONFIGS[k] for k in [
                 "NaiveBayes", "NaiveBayes -K", "NaiveBayes -D", "AODE -F 1", "AODE -F 30",
                 "Discretize+AODE -F 1", "Discretize+AODE -F 30"]},
             "predicted_rule": "index of the first maximum of the distribution "
                               "(Classifier.classifyInstance); -1 if no entry is > 0",
             "datasets": {}, "weighted": {}, "special": []}

    def collect(prefix, name, keys):
        result, errors = {}, {}
        for key in keys:
            ok, payload = answers["%s:%s:%s" % (prefix, name, key)]
            if ok:
                rows, predicted, dist = parse_dist(payload, True)
                result[key] = {"distributions": dist, "predicted": predicted}
            else:
                errors[key] = payload
        return result, errors

    for name in DATASETS:
        info = infos[name]
        n = info["n_rows"]
        train, test = split_rows(n)
        entry = {"file": rel(name), "relation": info["relation"], "n_rows": n,
                 "kind": info["kind"], "class_values": info["class_values"],
                 "test_rows": test, "test_y": [info["y"][i] for i in test]}
        if info["kind"] == "unsupported":
            entry["skipped"] = "has an attribute that is neither nominal nor numeric"
        if info["kind"] == "numeric":
            ok, payload = answers["order:" + name]
            assert ok and len(payload) == 1 and payload[0].startswith("ORDER"), payload
            order = [int(v) for v in payload[0].split()[1:]]
            assert sorted(order) == train
            entry["naive_bayes_training_order"] = order
        result, errors = collect("dist", name, dist_configs(info["kind"]))
        entry["results"] = result
        if errors:
            entry["errors"] = errors
        dists["datasets"][name] = entry
        if name in WEIGHTED_DATASETS:
            result, errors = collect("wdist", name, dist_configs(info["kind"]))
            dists["weighted"][name] = {"train_rows": train,
                                       "train_weights": rule_weights(len(train)),
                                       "test_rows": test, "results": result}
            if errors:
                dists["weighted"][name]["errors"] = errors
    for case in special:
        entry = dict(case)
        entry["class_values"] = infos[case["dataset"]]["class_values"]
        entry["test_y"] = [infos[case["dataset"]]["y"][i] for i in case["test_rows"]]
        entry["results"], entry["errors"] = {}, {}
        for key in case["configs"]:
            ok, payload = answers["special:%s:%s" % (case["id"], key)]
            if ok:
                _, predicted, dist = parse_dist(payload, True)
                entry["results"][key] = {"distributions": dist, "predicted": predicted}
            else:
                entry["errors"][key] = payload
        del entry["configs"]
        dists["special"].append(entry)
    write_json("distributions.json", dists)

    # ---- cv.json
    cv = {"weka_version": WEKA_VERSION, "folds_rule": FOLD_RULE, "seeds": CV_SEEDS,
          "n_folds": N_FOLDS,
          "configs": {k: CONFIGS[k] for k in ["NaiveBayes", "NaiveBayes -K", "NaiveBayes -D",
                                              "AODE -F 1", "Discretize+AODE -F 1"]},
          "accuracy_rule": "fold accuracy = correct / test rows of the fold (predicted = "
                           "Classifier.classifyInstance); mean_accuracy = plain mean of the "
                           "20 fold accuracies",
          "datasets": {}}
    for name in DATASETS:
        info = infos[name]
        if info["kind"] == "unsupported":
            continue
        y = info["y"]
        folds_by_rep = meta["folds:" + name]
        entry = {"file": rel(name), "class_values": info["class_values"], "y": y,
                 "folds": folds_by_rep, "results": {}}
        for key in cv_configs(info["kind"]):
            predicted_by_rep, acc_by_rep, correct_by_rep, size_by_rep = [], [], [], []
            errors = []
            for r, folds in enumerate(folds_by_rep):
                predicted = [None] * len(y)
                accs, corrects, sizes = [], [], []
                for f in range(N_FOLDS):
                    ok, payload = answers["cv:%s:%d:%d:%s" % (name, r, f, key)]
                    if not ok:
                        errors.append("rep %d fold %d: %s" % (r, f, payload))
                        accs.append(None)
                        corrects.append(None)
                        sizes.append(None)
                        continue
                    rows, preds, _ = parse_dist(payload, False)
                    correct = 0
                    for i, p in zip(rows, preds):
                        predicted[i] = p
                        correct += p == y[i]
                    accs.append(correct / len(rows))
                    corrects.append(correct)
                    sizes.append(len(rows))
                predicted_by_rep.append(predicted)
                acc_by_rep.append(accs)
                correct_by_rep.append(corrects)
                size_by_rep.append(sizes)
            flat = [a for accs in acc_by_rep for a in accs if a is not None]
            result = {"command": CONFIGS[key], "fold_accuracy": acc_by_rep,
                      "fold_correct": correct_by_rep, "fold_size": size_by_rep,
                      "predicted": predicted_by_rep,
                      "mean_accuracy": sum(flat) / len(flat) if flat else None}
            if errors:
                result["errors"] = errors
            entry["results"][key] = result
        cv["datasets"][name] = entry
    table = summary_table(cv)
    cv["summary_table_markdown"] = table
    write_json("cv.json", cv)

    seconds = time.time() - t0
    print()
    print(table)
    print()
    print("total recording time %.1f s" % seconds)
    update_readme(table, seconds)


if __name__ == "__main__":
    main()
