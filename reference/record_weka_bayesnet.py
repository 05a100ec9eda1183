#!/usr/bin/env python3
"""Record Weka 3.6.14's Bayesian-network classifiers (TAN, HillClimber) as JSON test data.

    python reference/record_weka_bayesnet.py             # everything, about 20 min
    python reference/record_weka_bayesnet.py --no-cv     # without cross-validation, ~1 min
    python reference/record_weka_bayesnet.py --ties      # the tie cases only, ~1 min

Needs Weka 3.6.14 (``/usr/share/java/weka.jar`` or ``--weka-jar``), ``java`` and
``javac``, Python 3.8+ (standard library only), and the files that
``record_weka.py`` wrote: ``examples/data/*.arff``, ``reference/weka/distributions.json``
(rows and classes of each data set) and ``reference/weka/cv.json`` (the folds).  It
compiles ``reference/WekaBayesNet.java`` into a temporary directory and writes
``reference/weka/bayesnet.json`` (layout in ``reference/README.md``, section
"Bayesian networks").  Output is deterministic: a second run gives the same bytes.

``--ties`` writes ``reference/weka/bayesnet_ties.json`` instead (and leaves
``bayesnet.json`` alone): small data sets where candidate arcs tie in exact arithmetic,
so that Weka's floating-point sums and scan order decide (duplicated and relabelled
columns, identifiers, ten-row splits of a census-like table, copied numbers), generated
here from fixed seeds and written as ``reference/ties/*.arff``, with TAN and
HillClimber -P 1, 2, 3; and HillClimber -P 1 on every data set and special set above.

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
P1 = "HillClimber -- -P 1"
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
    "HillClimber -P 1": (P1, "0.5", False),
}
MAIN_KEYS = ["TAN", "HillClimber -P 2", "HillClimber -P 3"]
TIE_KEYS = ["TAN", "HillClimber -P 1", "HillClimber -P 2", "HillClimber -P 3"]
TIE_ONLY = ["HillClimber -P 1"]           # recorded in the tie file only
TIE_TEST_ROWS = 60        # the data sets' test rows that -P 1 is recorded on there
TIES_OUT = os.path.join(HERE, "weka", "bayesnet_ties.json")
TIES_DIR = os.path.join(HERE, "ties")
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



# -- the tie cases ----------------------------------------------------------------------
#
# Small data sets where candidate arcs score the same in exact arithmetic, so that the
# last bits of Weka's running sums (the order it adds every cell's lnGamma term, empty
# cells and configurations included) and its scan order pick the arc.  Generated from
# fixed seeds with random.Random's random() alone (the same numbers on every Python 3),
# written to reference/ties/ as ARFF (committed: the tests read them from there).

ADULT_VALUES = [
    ("workclass", ["Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov",
                   "State-gov", "Without-pay", "Never-worked"],
     [70, 8, 3, 3, 6, 4, 0.1, 0.1]),
    ("education", ["Bachelors", "Some-college", "11th", "HS-grad", "Prof-school", "Assoc-acdm",
                   "Assoc-voc", "9th", "7th-8th", "12th", "Masters", "1st-4th", "10th",
                   "Doctorate", "5th-6th", "Preschool"],
     [16, 22, 4, 32, 2, 3, 4, 2, 2, 1, 5, 0.5, 3, 1, 1, 0.2]),
    ("marital-status", ["Married-civ-spouse", "Divorced", "Never-married", "Separated",
                        "Widowed", "Married-spouse-absent", "Married-AF-spouse"],
     [46, 14, 33, 3, 3, 1, 0.1]),
    ("occupation", ["Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial",
                    "Prof-specialty", "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical",
                    "Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv",
                    "Armed-Forces"],
     [3, 13, 10, 11, 12, 13, 4, 6, 12, 3, 5, 0.5, 2, 0.1]),
    ("relationship", ["Wife", "Own-child", "Husband", "Not-in-family", "Other-relative",
                      "Unmarried"], [5, 16, 40, 26, 3, 10]),
    ("race", ["White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"],
     [85, 3, 1, 1, 10]),
    ("sex", ["Female", "Male"], [33, 67]),
    ("native-country", ["United-States", "Cambodia", "England", "Puerto-Rico", "Canada",
                        "Germany", "Outlying-US(Guam-USVI-etc)", "India", "Japan", "Greece",
                        "South", "China", "Cuba", "Iran", "Honduras", "Philippines", "Italy",
                        "Poland", "Jamaica", "Vietnam", "Mexico", "Portugal", "Ireland",
                        "France", "Dominican-Republic", "Laos", "Ecuador", "Taiwan", "Haiti",
                        "Columbia", "Hungary", "Guatemala", "Nicaragua", "Scotland",
                        "Thailand", "Yugoslavia", "El-Salvador", "Trinadad&Tobago", "Peru",
                        "Hong", "Holand-Netherlands"],
     [90] + [0.3] * 19 + [2] + [0.3] * 20),
]


def _pick(rng, values, weights):
    """One of values, with the given weights (rng.random() only)."""
    x = rng.random() * sum(weights)
    for value, weight in zip(values, weights):
        x -= weight
        if x < 0:
            return value
    return values[-1]


def census_rows(seed, n):
    """(attributes, rows): n rows of a table shaped like the adult census data (its
    columns, declared values and rough frequencies; missing values in workclass,
    occupation and native-country), the class ">50K" or "<=50K" leaning on education
    and marital status."""
    rng = __import__("random").Random(seed)
    nominal = {name: (values, weights) for name, values, weights in ADULT_VALUES}
    attributes = [("age", "numeric", None)]
    for name in ("workclass",):
        attributes.append((name, "nominal", nominal[name][0]))
    attributes += [("fnlwgt", "numeric", None), ("education", "nominal",
                                                 nominal["education"][0]),
                   ("education-num", "numeric", None)]
    for name in ("marital-status", "occupation", "relationship", "race", "sex"):
        attributes.append((name, "nominal", nominal[name][0]))
    attributes += [("capital-gain", "numeric", None), ("capital-loss", "numeric", None),
                   ("hours-per-week", "numeric", None),
                   ("native-country", "nominal", nominal["native-country"][0]),
                   ("class", "nominal", [">50K", "<=50K"])]
    education_years = [13, 10, 7, 9, 15, 12, 11, 5, 4, 8, 14, 2, 6, 16, 3, 1]
    rows = []
    for _ in range(n):
        row = {}
        for name in nominal:
            values, weights = nominal[name]
            missing = name in ("workclass", "occupation", "native-country") and \
                rng.random() < 0.05
            row[name] = None if missing else _pick(rng, values, weights)
        row["age"] = float(17 + int(rng.random() * 60))
        row["fnlwgt"] = float(20000 + int(rng.random() * 400000))
        row["education-num"] = float(education_years[nominal["education"][0].index(
            row["education"])])
        row["capital-gain"] = 0.0 if rng.random() < 0.9 else float(int(rng.random() * 20000))
        row["capital-loss"] = 0.0 if rng.random() < 0.95 else float(int(rng.random() * 2500))
        row["hours-per-week"] = 40.0 if rng.random() < 0.5 else float(
            10 + int(rng.random() * 60))
        rich = 0.08 + 0.3 * (row["education-num"] >= 13) + \
            0.25 * (row["marital-status"] == "Married-civ-spouse")
        row["class"] = ">50K" if rng.random() < rich else "<=50K"
        rows.append([row[name] for name, _, _ in attributes])
    return attributes, rows


def copies_rows(seed, n):
    """Columns and their copies: a, a copied (the same declaration), a relabelled (its
    values renamed, declared in another order), b and b mirrored (its values in
    reverse), c; a number and its copy; the class leaning on a."""
    rng = __import__("random").Random(seed)
    a_values, b_values = ["a1", "a2", "a3", "a4"], ["b1", "b2", "b3"]
    relabel = {"a1": "r3", "a2": "r1", "a3": "r4", "a4": "r2"}
    attributes = [("a", "nominal", a_values), ("b", "nominal", b_values),
                  ("a_copy", "nominal", a_values),
                  ("a_relabelled", "nominal", ["r4", "r2", "r1", "r3"]),
                  ("c", "nominal", ["c1", "c2"]), ("x", "numeric", None),
                  ("b_mirrored", "nominal", list(reversed(b_values))),
                  ("x_copy", "numeric", None), ("class", "nominal", ["yes", "no"])]
    rows = []
    for _ in range(n):
        a = a_values[int(rng.random() * 4)]
        b = b_values[int(rng.random() * 3)]
        x = float(int(rng.random() * 6))
        label = "yes" if (a in ("a1", "a2")) != (rng.random() < 0.2) else "no"
        rows.append([a, b, a, relabel[a], "c1" if rng.random() < 0.5 else "c2", x, b, x,
                     label])
    return attributes, rows


def identifier_rows(seed, n):
    """Three identifier columns of 300 declared values (a different one per row, so
    every pair of them ties; HillClimber -P 3's tables of two of them have more than
    2^20 cells), a small column and a numeric one."""
    rng = __import__("random").Random(seed)
    attributes = [("id%d" % k, "nominal", ["i%d_%03d" % (k, v) for v in range(300)])
                  for k in (1, 2, 3)]
    attributes += [("small", "nominal", ["s1", "s2", "s3"]), ("amount", "numeric", None),
                   ("class", "nominal", ["p", "q"])]
    orders = []
    for k in range(3):
        values = list(range(300))
        for i in range(len(values) - 1, 0, -1):        # a shuffle by rng.random()
            j = int(rng.random() * (i + 1))
            values[i], values[j] = values[j], values[i]
        orders.append(values)
    rows = []
    for i in range(n):
        rows.append([attributes[k][2][orders[k][i]] for k in range(3)] +
                    ["s%d" % (1 + int(rng.random() * 3)), float(int(rng.random() * 5)),
                     "p" if rng.random() < 0.5 else "q"])
    return attributes, rows


def numbers_rows(seed, n):
    """Numbers cut into MDL bins: x and its copy, y = x plus a little noise, z
    unrelated, a category; the class leans on x."""
    rng = __import__("random").Random(seed)
    attributes = [("x", "numeric", None), ("x_copy", "numeric", None), ("y", "numeric", None),
                  ("z", "numeric", None), ("colour", "nominal", ["red", "green", "blue"]),
                  ("class", "nominal", ["low", "high"])]
    rows = []
    for _ in range(n):
        x = round(rng.random() * 10, 1)
        label = "high" if (x > 5) != (rng.random() < 0.1) else "low"
        rows.append([x, x, round(x + rng.random() * 0.5, 2), round(rng.random() * 10, 1),
                     ["red", "green", "blue"][int(rng.random() * 3)], label])
    return attributes, rows


def few_rows(seed, n):
    """Few rows, few values, three classes declared in reverse order with one never
    seen in training: most arcs tie."""
    rng = __import__("random").Random(seed)
    attributes = [("f%d" % k, "nominal", ["v%d" % v for v in range(m)])
                  for k, m in enumerate([2, 3, 2, 5, 2])]
    attributes.append(("class", "nominal", ["c3", "c2", "c1"]))
    rows = []
    for i in range(n):
        rows.append(["v%d" % int(rng.random() * m) for m in (2, 3, 2, 5, 2)] +
                    ["c1" if rng.random() < 0.5 else "c3" if i < n - 2 else "c2"])
    return attributes, rows


# name -> (generator, seed, training rows, test rows after them, note)
TIE_CASES = {
    "census-10-a": (census_rows, 1, 10, 10, "10 rows of a census-like table"),
    "census-10-b": (census_rows, 2, 10, 10, "10 rows of a census-like table"),
    "census-10-c": (census_rows, 3, 10, 10, "10 rows of a census-like table"),
    "census-10-d": (census_rows, 4, 10, 10, "10 rows of a census-like table"),
    "census-10-e": (census_rows, 5, 10, 10, "10 rows of a census-like table"),
    "census-10-f": (census_rows, 6, 10, 10, "10 rows of a census-like table"),
    "census-40": (census_rows, 7, 40, 20, "40 rows of a census-like table"),
    "copies": (copies_rows, 8, 24, 12, "copied, relabelled and mirrored columns"),
    "identifiers": (identifier_rows, 9, 10, 5, "identifier columns of 300 values"),
    "numbers": (numbers_rows, 10, 30, 10, "copied numbers cut into MDL bins"),
    "few-rows": (few_rows, 11, 8, 6, "few rows, an unseen class declared"),
}


def _arff_value(value):
    if value is None:
        return "?"
    if isinstance(value, float):
        return repr(value)
    ok = all(ch.isalnum() or ch in "-_." for ch in value)
    return value if ok else "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path, relation, attributes, rows):
    """An ARFF file of the attributes (name, "numeric" or "nominal", values) and rows."""
    lines = ["@relation " + relation, ""]
    for name, kind, values in attributes:
        lines.append("@attribute %s %s" % (_arff_value(name), "numeric" if kind == "numeric"
                                           else "{" + ",".join(map(_arff_value, values)) + "}"))
    lines += ["", "@data"]
    lines += [",".join(map(_arff_value, row)) for row in rows]
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(lines) + "\n")


def record_ties(args, t0):
    """Record the tie cases (and HillClimber -P 1 on the data sets) into TIES_OUT."""
    with open(os.path.join(HERE, "weka", "distributions.json"), encoding="utf-8") as handle:
        dists = json.load(handle)
    os.makedirs(TIES_DIR, exist_ok=True)
    jobs, cases = [], {}
    for name, (generate, seed, n_train, n_test, note) in TIE_CASES.items():
        attributes, rows = generate(seed, n_train + n_test)
        path = os.path.join(TIES_DIR, name + ".arff")
        write_arff(path, name, attributes, rows)
        train, test = list(range(n_train)), list(range(n_train + n_test))
        cases[name] = {"file": os.path.relpath(path, ROOT).replace(os.sep, "/"),
                       "note": note, "train_rows": train, "test_rows": test}
        for key in TIE_KEYS:
            jobs.append(("tie:%s:%s" % (name, key), path, _rows(train), "-", _rows(test),
                         "dist", command(*CONFIGS[key])))
    paths = {name: os.path.join(ROOT, "examples", "data", name + ".arff") for name in DATASETS}
    for name in DATASETS:
        train, test = split_rows(dists["datasets"][name]["n_rows"])
        jobs.append(("dist:%s" % name, paths[name], _rows(train), "-",
                     _rows(test[:TIE_TEST_ROWS]), "dist",
                     config_command("HillClimber -P 1", name)))
    specials = [s for s in dists["special"] if s["dataset"] in ("vote", "soybean")]
    for case in specials:
        jobs.append(("special:%s" % case["id"], paths[case["dataset"]],
                     _rows(case["train_rows"]), "-", _rows(case["test_rows"][:TIE_TEST_ROWS]),
                     "dist",
                     config_command("HillClimber -P 1", case["dataset"])))
    workdir = tempfile.mkdtemp(prefix="weka_bayesnet_ties_")
    try:
        classes = compile_driver(workdir, args.weka_jar)
        answers = run_jobs(jobs, workdir, args.weka_jar, classes, args.workers, args.heap)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def result(job):
        ok, payload = answers[job]
        if not ok:
            return {"error": payload}
        fit = parse_fit(payload)
        entry = network(fit)
        entry["distributions"] = fit["distributions"]
        entry["predicted"] = fit["predicted"]
        return entry

    record = {"weka_version": WEKA_VERSION,
              "configs": {key: command(*CONFIGS[key]) for key in TIE_KEYS},
              "structure_rule": "as in bayesnet.json", "predicted_rule": "as in bayesnet.json",
              "cases_rule": "each case's ARFF file (reference/ties/, written by this script "
                            "from its seed): the first train_rows are the training rows, "
                            "test_rows every row (the training rows first)",
              "datasets_rule": "HillClimber -P 1 on the split of bayesnet.json, the first "
                               "%d test rows" % TIE_TEST_ROWS,
              "cases": {}, "datasets": {}, "special": {}}
    for name, case in cases.items():
        case["results"] = {key: result("tie:%s:%s" % (name, key)) for key in TIE_KEYS}
        record["cases"][name] = case
    for name in DATASETS:
        train, test = split_rows(dists["datasets"][name]["n_rows"])
        record["datasets"][name] = {"test_rows": test[:TIE_TEST_ROWS], "results": {
            "HillClimber -P 1": result("dist:%s" % name)}}
    for case in specials:
        record["special"][case["id"]] = {"dataset": case["dataset"],
                                         "train_rows": case["train_rows"],
                                         "test_rows": case["test_rows"][:TIE_TEST_ROWS],
                                         "results": {
                                             "HillClimber -P 1": result("special:%s"
                                                                        % case["id"])}}
    from record_weka_aode import _dumps       # one line per list of numbers
    with open(TIES_OUT, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(_dumps(record) + "\n")
    floats = _check_roundtrip(TIES_OUT, record)
    print("wrote %s (%d bytes, %d floats round-trip exactly) and %d ARFF files in %s, "
          "in %.1f s" % (os.path.relpath(TIES_OUT, ROOT), os.path.getsize(TIES_OUT), floats,
                         len(cases), os.path.relpath(TIES_DIR, ROOT), time.time() - t0))

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weka-jar", default="/usr/share/java/weka.jar")
    parser.add_argument("--workers", type=int, default=1, help="parallel JVMs (default 1)")
    parser.add_argument("--heap", default="2g", help="JVM heap per worker (default 2g)")
    parser.add_argument("--no-cv", action="store_true",
                        help="skip the cross-validation (keeps none in the file)")
    parser.add_argument("--ties", action="store_true",
                        help="record the tie cases only, into weka/bayesnet_ties.json")
    args = parser.parse_args(argv)
    t0 = time.time()
    if args.ties:
        record_ties(args, t0)
        return

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
        "configs": {key: command(*CONFIGS[key]) for key in CONFIGS if key not in TIE_ONLY},
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
