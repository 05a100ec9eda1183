"""The pure-Python limit: each workload against the fastest plain loop computing it.

    python benchmarks/limits.py                       # the full run, a few minutes
    python benchmarks/limits.py --quick               # tiny sizes: checks that it runs
    python benchmarks/limits.py --module /tmp/old_naive_bayes.py   # an earlier version
    pypy3 benchmarks/limits.py

For each workload a "limit" loop is written here: the fastest plain Python we could
write that computes the same numbers from the fitted model's own tables (so that the
ratio measures only how the library combines them, not how it estimates them).  Every
limit is checked equal to the library's output (to 1e-12, relative to the number's
size, or exactly) before it is timed; when several candidate loops are given, the
fastest of them in this run is the limit.  Timings are medians of interleaved repeats
(bench.median_times), and each ratio is library time / limit time within this run.
"""

import argparse
import bisect
import contextlib
import csv
import importlib.util
import io
import math
import os
import random
import re
import struct
import sys
import tempfile
import time
from array import array
from collections import Counter
from itertools import accumulate, repeat
from math import dist, exp, hypot
from operator import mul, sub, truediv
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench  # noqa: E402


def load(path):
    """The naive_bayes module at path."""
    spec = importlib.util.spec_from_file_location("naive_bayes_measured", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["naive_bayes_measured"] = module
    spec.loader.exec_module(module)
    return module


def close(a, b, tolerance=1e-12):
    """True when every number of a equals b's to tolerance, relative to its size
    (at least 1); nested lists compared element by element."""
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(close(x, y, tolerance) for x, y in zip(a, b))
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def compiled(model):
    """The fitted model's compiled tables (the library's internal _model)."""
    return model._model("limits")


class Results:
    """The ratios: (workload, library seconds, limit seconds, goal, note)."""

    def __init__(self):
        self.rows = []

    def add(self, workload, ours, limit, goal, note=""):
        self.rows.append((workload, ours, limit, goal, note))
        shown = (workload, bench._duration(ours), bench._duration(limit), ours / limit)
        print("  %-58s %8s %8s  %5.2fx" % shown, file=sys.stderr, flush=True)

    def render(self):
        lines = ["| workload | library | limit | ratio | goal | met |",
                 "| --- | ---: | ---: | ---: | ---: | --- |"]
        for workload, ours, limit, goal, note in self.rows:
            ratio = ours / limit
            if note == "memory":          # bytes added at the peak / bytes of the file
                lines.append("| %s | +%.1f MB | %.1f MB | %.2fx | <= %.2fx | %s |"
                             % (workload, ours / 1e6, limit / 1e6, ratio, goal,
                                "yes" if ratio <= goal else "NO"))
                continue
            lines.append("| %s | %s | %s | %.2fx | <= %.2fx | %s |"
                         % (workload + (" (%s)" % note if note else ""),
                            bench._duration(ours), bench._duration(limit), ratio, goal,
                            "yes" if ratio <= goal else "NO"))
        return "\n".join(lines)


def fastest(candidates, reference, repeats):
    """The fastest of the candidate limit loops (name, function) that computes the
    reference, timed with each other; AssertionError when one computes another thing."""
    for name, function in candidates:
        assert close(function(), reference), "limit %r differs from the library" % name
    if len(candidates) == 1:
        return candidates[0]
    medians = bench.median_times(dict(candidates), repeats)
    name = min(medians, key=medians.get)
    return name, dict(candidates)[name]


def versus(results, workload, ours, limit, repeats, goal, note=""):
    """Time the library against the limit, interleaved, and record the ratio."""
    medians = bench.median_times({"ours": ours, "limit": limit}, repeats)
    results.add(workload, medians["ours"], medians["limit"], goal, note)


# ----------------------------------------------------------------------------------
# 1. Fit with kinds inferred against the same fit with the kinds declared
# ----------------------------------------------------------------------------------

def mixed_data(n_rows, width=20, seed=11):
    """Rows of width/2 categorical strings and width/2 floats, 3 classes."""
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n_rows):
        k = rng.randrange(3)
        row = []
        for j in range(width):
            if j % 2:
                row.append("v%d" % ((rng.randrange(6) + k * (j % 3)) % 6))
            else:
                row.append(rng.gauss(k * 0.5, 1.0))
        rows.append(row)
        labels.append("c%d" % k)
    return rows, labels


def limit_kinds(nb, results, n_rows, repeats):
    X, y = mixed_data(n_rows)
    kinds = ["gaussian" if j % 2 == 0 else "categorical" for j in range(len(X[0]))]
    inferred = nb.NaiveBayes().fit(X, y)
    declared = nb.NaiveBayes(features=kinds).fit(X, y)
    assert inferred.tables() == declared.tables()
    versus(results, "fit %s x %d mixed, kinds inferred vs declared"
           % (format(n_rows, ","), len(X[0])),
           lambda: nb.NaiveBayes().fit(X, y),
           lambda: nb.NaiveBayes(features=kinds).fit(X, y), repeats, 1.2,
           "limit: the declared fit")


# ----------------------------------------------------------------------------------
# 2. Gaussian joint log-likelihoods
# ----------------------------------------------------------------------------------

def limit_gaussian(nb, results, n_rows, repeats):
    X, y = bench.gaussian_data(n_rows)
    model = nb.GaussianNB().fit(X, y)
    fitted = compiled(model)
    # per class: log P(c) + sum_j constant_kj, the means and the scales 1 / sqrt(2 var)
    params = []
    for k, prior in enumerate(fitted.log_prior):
        params.append((prior + math.fsum(s.constants[k] for s in fitted.scorers),
                       [s.means[k] for s in fitted.scorers],
                       [s.scales[k] for s in fitted.scorers]))
    scaled = [(c, list(map(mul, m, s)), s) for c, m, s in params]

    def by_sums(rows=X):
        out = []
        for row in rows:
            joint = []
            for constant, means, scales in params:
                z = list(map(mul, map(sub, row, means), scales))
                joint.append(constant - sum(map(mul, z, z)))
            out.append(joint)
        return out

    def by_hypot(rows=X):
        out = []
        for row in rows:
            joint = []
            for constant, means, scales in params:
                length = hypot(*map(mul, map(sub, row, means), scales))
                joint.append(constant - length * length)
            out.append(joint)
        return out

    def by_dist(rows=X):
        out = []
        for row in rows:
            joint = []
            for constant, scaled_means, scales in scaled:
                length = dist(list(map(mul, row, scales)), scaled_means)
                joint.append(constant - length * length)
            out.append(joint)
        return out

    def by_columns(rows=X):
        # one pass per (class, feature) over a column: builtins over whole columns
        columns = list(zip(*rows))
        out = []
        for constant, means, scales in params:
            total = [constant] * len(rows)
            for column, mean, scale in zip(columns, means, scales):
                z = list(map(mul, map(sub, column, repeat(mean)), repeat(scale)))
                total = list(map(sub, total, map(mul, z, z)))
            out.append(total)
        return list(map(list, zip(*out)))

    reference = model.predict_joint_log_proba(X)
    name, limit = fastest([("sums", by_sums), ("hypot", by_hypot), ("dist", by_dist),
                           ("columns", by_columns)], reference, max(1, repeats // 2))
    versus(results, "Gaussian predict_joint_log_proba, %s x %d, 3 classes"
           % (format(n_rows, ","), len(X[0])),
           lambda: model.predict_joint_log_proba(X), limit, repeats, 1.15,
           "limit: %s" % name)


# ----------------------------------------------------------------------------------
# 3. Text (multinomial) with 10 and 100 classes
# ----------------------------------------------------------------------------------

def text_data(n_documents, n_classes=100, vocabulary=20000, length=60, seed=12):
    """Documents of about `length` words drawn from a Zipf-like vocabulary, each class
    favouring a slice of it; (documents, labels)."""
    rng = random.Random(seed)
    weights = [1.0 / (rank + 10) for rank in range(vocabulary)]
    cumulative = list(accumulate(weights))
    documents, labels = [], []
    for i in range(n_documents):
        k = i % n_classes
        words = []
        for _ in range(rng.randrange(length // 2, length * 3 // 2)):
            if rng.random() < 0.3:
                words.append("w%d" % ((k * 37 + rng.randrange(50)) % vocabulary))
            else:
                words.append("w%d" % bisect.bisect(cumulative,
                                                   rng.random() * cumulative[-1]))
        documents.append(" ".join(words))
        labels.append("class%03d" % k)
    return documents, labels


def packed_words(log_p, prior, headroom=16):
    """The text limit's tables: each word's per-class -log P(word | c) as fixed-point
    64-bit fields of one int (the categorical fast path's packing), with `bits`
    fractional bits so that 2^headroom words of the largest -log P still fit a field;
    (packed {word: int}, packed prior, bits)."""
    largest = max([-v for vector in log_p.values() for v in vector] + [-v for v in prior]
                  + [1.0])
    bits = 64 - headroom - math.frexp(largest)[1]
    scale = float(2 ** bits)

    def pack(vector):
        total = 0
        for k, v in enumerate(vector):
            total |= int(round(-v * scale)) << (64 * k)
        return total
    return {w: pack(vector) for w, vector in log_p.items()}, pack(prior), bits


def limit_text(nb, results, n_documents, repeats, class_counts=(10, 100)):
    for n_classes in class_counts:
        limit_text_classes(nb, results, n_documents, repeats, n_classes)


def limit_text_classes(nb, results, n_documents, repeats, n_classes):
    train, y = text_data(n_documents, n_classes)
    test, _ = text_data(max(100, n_documents // 2), n_classes, seed=13)
    rows, test_rows = [[d] for d in train], [[d] for d in test]
    model = nb.NaiveBayes(features=["text"]).fit(rows, y)
    fitted = compiled(model)
    log_p = dict(fitted.scorers[0].log_p)           # {word: per-class log P(word | c)}
    prior = list(fitted.log_prior)
    findall = re.compile(r"(?u)\b\w\w+\b").findall    # CountVectorizer's pattern
    packed, packed_prior, bits = packed_words(log_p, prior)
    width = 8 * len(prior)
    unpack = struct.Struct("<%dQ" % len(prior)).unpack
    negative_scales = [-1.0 / 2 ** bits] * len(prior)

    def summed(rows=test_rows):
        # one dict lookup and one int addition per word, one unpack per document
        get = packed.get
        return [list(map(mul, unpack(sum(filter(None, map(get, findall(row[0].lower()))),
                                         packed_prior).to_bytes(width, "little")),
                         negative_scales)) for row in rows]

    def looped(rows=test_rows):
        get = packed.get
        out = []
        for row in rows:
            total = packed_prior
            for word in findall(row[0].lower()):
                term = get(word)
                if term is not None:
                    total += term
            out.append(list(map(mul, unpack(total.to_bytes(width, "little")),
                                negative_scales)))
        return out

    def at_once(rows=test_rows):
        # every document's sum, then all of them unpacked by one array and one map
        get = packed.get
        totals = [sum(filter(None, map(get, findall(row[0].lower()))), packed_prior)
                  for row in rows]
        fields = array("Q", b"".join([t.to_bytes(width, "little") for t in totals]))
        if sys.byteorder != "little":
            fields.byteswap()
        flat = list(map(mul, fields, repeat(negative_scales[0])))
        return list(map(list, zip(*[iter(flat)] * len(prior))))

    reference = model.predict_joint_log_proba(test_rows)
    name, limit = fastest([("packed sum", summed), ("packed loop", looped),
                           ("packed, unpacked at once", at_once)], reference,
                          max(1, repeats // 2))
    versus(results, "text (multinomial) predict_joint_log_proba, %d classes, %s documents"
           % (n_classes, format(len(test), ",")),
           lambda: model.predict_joint_log_proba(test_rows), limit, repeats, 1.5,
           "limit: %s" % name)


# ----------------------------------------------------------------------------------
# 4. predict_proba with 100 classes: the softmax
# ----------------------------------------------------------------------------------

def limit_softmax(nb, results, n_rows, repeats):
    rng = random.Random(14)
    X = [["v%d" % rng.randrange(30) for _ in range(5)] for _ in range(n_rows)]
    y = ["class%03d" % (i % 100) for i in range(n_rows)]
    model = nb.CategoricalNB().fit(X, y)

    def rows_softmax(joints):
        out = []
        for joint in joints:
            top = max(joint)
            exps = [exp(v - top) for v in joint]
            total = sum(exps)
            out.append([e / total for e in exps])
        return out

    def rows_mapped(joints):
        out = []
        for joint in joints:
            exps = list(map(exp, map(sub, joint, repeat(max(joint)))))
            out.append(list(map(truediv, exps, repeat(sum(exps)))))
        return out

    reference = model.predict_proba(X)
    candidates = [(name, lambda softmax=softmax: softmax(model.predict_joint_log_proba(X)))
                  for name, softmax in (("comprehensions", rows_softmax),
                                        ("maps", rows_mapped))]
    name, limit = fastest(candidates, reference, max(1, repeats // 2))
    versus(results, "predict_proba, 100 classes, %s rows x 5" % format(n_rows, ","),
           lambda: model.predict_proba(X), limit, repeats, 1.3,
           "limit: the library's joints + row-wise softmax by %s" % name)


# ----------------------------------------------------------------------------------
# 5. The command line's fit against reading the CSV
# ----------------------------------------------------------------------------------

def limit_command_line(nb, results, n_rows, repeats):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "rows.csv")
        model_path = os.path.join(folder, "model.json")
        bench.write_csv(path, n_rows)       # 10 categorical, 5 numeric columns, a label

        def ours():
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                nb.main(["fit", path, "--target", "label", "-o", model_path])

        def read():
            with open(path, newline="") as handle:
                reader = csv.reader(handle)
                next(reader)
                labels = Counter()
                for row in reader:
                    [float(cell) for cell in row[10:15]]
                    labels[row[15]] += 1
            return labels

        ours()
        loaded = nb.NaiveBayes.load(model_path)
        # the same rows counted: the limit's labels are the model's class counts
        assert dict(read()) == dict(zip(loaded.classes_, loaded.class_count_))
        versus(results, "command line: fit a %s-row CSV (10 categorical, 5 numeric)"
               % format(n_rows, ","), ours, read, repeats, 3.0,
               "limit: csv.reader + float()")


# ----------------------------------------------------------------------------------
# 6. Loading a text model: peak memory against the file's size
# ----------------------------------------------------------------------------------

def limit_load_memory(nb, results, vocabulary, module_path):
    rng = random.Random(15)
    words = ["w%d%s" % (i, "abcdefgh"[i % 8]) for i in range(vocabulary)]
    documents = [[words[i] for i in range(start, vocabulary, 7)] +
                 [rng.choice(words) for _ in range(50)] for start in range(7)]
    model = nb.NaiveBayes(features=["text"]).fit([[d] for d in documents],
                                                 ["a", "b", "c", "a", "b", "c", "a"])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "text.json")
        model.save(path)
        size = os.path.getsize(path)
        code = ("import sys, time, importlib.util\n"
                "spec = importlib.util.spec_from_file_location('nb', %r)\n"
                "nb = importlib.util.module_from_spec(spec); spec.loader.exec_module(nb)\n"
                "def resident():\n"
                "    return [int(line.split()[1]) * 1024 for line in open('/proc/self/status')\n"
                "            if line.startswith('VmRSS')][0]\n"
                "before = resident()\n"
                "start = time.perf_counter()\n"
                "model = nb.NaiveBayes.load(%r)\n"
                "print(time.perf_counter() - start, before)\n" % (str(module_path), path))
        (seconds, before), peak = bench.peak_memory(code)
    added = peak - before
    results.rows.append(("load a text model (%s words, %.1f MB file): peak memory / file "
                         "size, %.2f s" % (format(vocabulary, ","), size / 1e6, seconds),
                         added, size, 5.0, "memory"))
    print("  load memory: +%.1f MB for a %.1f MB file (%.1fx)"
          % (added / 1e6, size / 1e6, added / size), file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------
# 7. AODE and the networks against straightforward pure Python
# ----------------------------------------------------------------------------------

def limit_families(nb, results, n_rows, repeats):
    X, y = bench.aode_data(n_rows)
    test, _ = bench.aode_data(max(50, n_rows // 4), seed=6)
    aode = nb.AODE().fit(X, y)
    baseline = bench.StraightforwardAODE().fit(X, y)
    assert close(aode.predict_proba(test), baseline.predict_proba(test), 1e-9)
    versus(results, "AODE predict_proba, %s rows x 20" % format(len(test), ","),
           lambda: aode.predict_proba(test), lambda: baseline.predict_proba(test), repeats,
           0.5, "limit: the straightforward AODE")
    for name in ("TAN", "BayesNet"):
        family = getattr(nb, name, None)
        if family is None:
            continue
        model = family().fit(X, y)
        network = bench.StraightforwardNetwork(model)
        assert close(model.predict_proba(test), network.predict_proba(test), 1e-9)
        versus(results, "%s predict_proba, %s rows x 20" % (name, format(len(test), ",")),
               lambda model=model: model.predict_proba(test),
               lambda network=network: network.predict_proba(test), repeats, 0.5,
               "limit: straightforward CPT lookups")


WORKLOADS = ("kinds", "gaussian", "text", "softmax", "command", "memory", "families")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", default=str(HERE.parent / "naive_bayes.py"),
                        help="the naive_bayes.py to measure (default: this checkout's)")
    parser.add_argument("--repeats", type=int, default=7, help="runs per timing (7)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one repeat")
    parser.add_argument("--wall", action="store_true",
                        help="time by the wall clock, not the process's CPU time "
                             "(which a machine's other work does not lengthen)")
    parser.add_argument("--only", help="comma-separated: %s" % ", ".join(WORKLOADS))
    args = parser.parse_args(argv)
    nb = load(args.module)
    bench.CLOCK = time.perf_counter if args.wall else time.process_time
    wanted = set(args.only.split(",")) if args.only else set(WORKLOADS)
    scale = 100 if args.quick else 1
    repeats = 1 if args.quick else args.repeats
    results = Results()
    print("%s, Python %s (%s)" % (args.module, sys.version.split()[0],
                                  sys.implementation.name), file=sys.stderr)
    if "kinds" in wanted:
        limit_kinds(nb, results, 100000 // scale, repeats)
    if "gaussian" in wanted:
        limit_gaussian(nb, results, 100000 // scale, repeats)
    if "text" in wanted:
        limit_text(nb, results, 4000 // (scale // 10 or 1), repeats)
    if "softmax" in wanted:
        limit_softmax(nb, results, 20000 // scale, repeats)
    if "command" in wanted:
        limit_command_line(nb, results, 100000 // scale, repeats)
    if "memory" in wanted and sys.platform.startswith("linux"):
        limit_load_memory(nb, results, 200000 // scale, args.module)
    if "families" in wanted:
        limit_families(nb, results, 10000 // scale, repeats)
    print("## The pure-Python limit\n")
    print("`python benchmarks/limits.py %s` on Python %s (%s); medians of %d interleaved "
          "runs (%s); ratio = library / limit.\n"
          % (" ".join(argv if argv is not None else sys.argv[1:]), sys.version.split()[0],
             sys.implementation.name, repeats,
             "wall time" if args.wall else "CPU time of this process"))
    print(results.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
