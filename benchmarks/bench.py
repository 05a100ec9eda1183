"""Benchmarks: naive_bayes.py against its peers, measured in one run.

    python benchmarks/bench.py                      # the full run, a few minutes
    python benchmarks/bench.py --rows 20000 --repeats 3 --memory-rows 100000

Every workload is seeded and reproducible.  Peers are timed when they are installed
(scikit-learn, nltk, river) and reported as "not installed" otherwise; the
straightforward pure-Python baseline is written here (for each row, class and
feature, one dict lookup and one addition).  Each timing is the median of --repeats
runs; "per row" divides it by the rows the case processed.  The table ends with the
goals of the project and whether this run met them.
"""

import argparse
import csv
import gc
import io
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import naive_bayes  # noqa: E402
from naive_bayes import CategoricalNB, GaussianNB, NaiveBayes  # noqa: E402

N_FEATURES = 20
N_CLASSES = 3
CARDINALITY = 10


# ----------------------------------------------------------------------------------
# Workloads
# ----------------------------------------------------------------------------------

def categorical_data(n_rows, seed=0):
    """Rows of string values, as a CSV reader gives them (a new str per cell), with
    a class signal in every third feature."""
    rng = random.Random(seed)
    labels = [rng.randrange(N_CLASSES) for _ in range(n_rows)]
    text = io.StringIO()
    writer = csv.writer(text)
    for label in labels:
        writer.writerow(["v%d" % ((rng.randrange(CARDINALITY) + label * (j % 3)) % CARDINALITY)
                         for j in range(N_FEATURES)])
    rows = list(csv.reader(io.StringIO(text.getvalue())))
    return rows, ["class%d" % label for label in labels]


def gaussian_data(n_rows, seed=1):
    rng = random.Random(seed)
    labels = [rng.randrange(N_CLASSES) for _ in range(n_rows)]
    rows = [[rng.gauss(label * 0.3 * (j % 4), 1.0 + 0.1 * (j % 3)) for j in range(N_FEATURES)]
            for label in labels]
    return rows, ["class%d" % label for label in labels]


def titanic_data(n_rows, seed=2):
    """Rows drawn from the Titanic data set (three categorical features)."""
    with open(ROOT / "examples" / "data" / "titanic.csv", newline="") as handle:
        table = list(csv.reader(handle))[1:]
    rng = random.Random(seed)
    picked = [rng.choice(table) for _ in range(n_rows)]
    return [row[:3] for row in picked], [row[3] for row in picked]


def watermelon_data(n_rows, seed=3):
    """Watermelon-like rows: six categorical features and two numeric ones, drawn
    from the watermelon 3.0 data with the numbers jittered."""
    with open(ROOT / "examples" / "data" / "watermelon3.csv", newline="",
              encoding="utf-8") as handle:
        table = list(csv.reader(handle))[1:]
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n_rows):
        row = rng.choice(table)
        rows.append(row[1:7] + [float(row[7]) + rng.gauss(0, 0.05),
                                float(row[8]) + rng.gauss(0, 0.03)])
        labels.append(row[9])
    return rows, labels


# ----------------------------------------------------------------------------------
# The straightforward baseline
# ----------------------------------------------------------------------------------

class StraightforwardNB:
    """Categorical naive Bayes as one would first write it in pure Python: Laplace
    smoothing, log space, and for each row, class and feature one dict lookup and
    one addition."""

    def fit(self, X, y):
        class_count = Counter(y)
        self.classes = sorted(class_count)
        width = len(X[0])
        counts = {c: [defaultdict(int) for _ in range(width)] for c in self.classes}
        values = [set() for _ in range(width)]
        for row, label in zip(X, y):
            for j, value in enumerate(row):
                counts[label][j][value] += 1
                values[j].add(value)
        n = len(y)
        self.log_prior = [math.log(class_count[c] / n) for c in self.classes]
        self.tables, self.unseen = [], []
        for c in self.classes:
            denominators = [class_count[c] + len(values[j]) for j in range(width)]
            self.tables.append([{v: math.log((counts[c][j][v] + 1) / denominators[j])
                                 for v in values[j]} for j in range(width)])
            self.unseen.append([math.log(1 / d) for d in denominators])
        return self

    def joint(self, row):
        scores = []
        for prior, tables, unseen in zip(self.log_prior, self.tables, self.unseen):
            score = prior
            for table, default, value in zip(tables, unseen, row):
                score += table.get(value, default)
            scores.append(score)
        return scores

    def predict_joint_log_proba(self, X):
        return [self.joint(row) for row in X]

    def predict_proba(self, X):
        out = []
        for row in X:
            joint = self.joint(row)
            top = max(joint)
            exps = [math.exp(v - top) for v in joint]
            total = sum(exps)
            out.append([e / total for e in exps])
        return out


# ----------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------

def _timed(function):
    """Wall time of one call, with garbage collection paused (as timeit does)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        function()
        return time.perf_counter() - start
    finally:
        gc.enable()


def median_times(functions, repeats):
    """{name: median seconds} of interleaved runs: each repeat runs every function
    once, in turn, so that a slow spell of a shared machine falls on all alike."""
    times = {name: [] for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            times[name].append(_timed(function))
    return {name: statistics.median(values) for name, values in times.items()}


def median_time(function, repeats):
    return median_times({"": function}, repeats)[""]


class Table:
    """The results: one line per (workload, operation, implementation)."""

    def __init__(self):
        self.rows = []
        self.notes = []

    def compare(self, workload, operation, cases, repeats):
        """Time cases [(implementation, function, rows)] together (see median_times)."""
        cases = [case for case in cases if case is not None]
        medians = median_times({name: function for name, function, _ in cases}, repeats)
        for name, _, rows in cases:
            self.add(workload, operation, name, medians[name], rows)

    def add(self, workload, operation, name, seconds, n_rows):
        self.rows.append((workload, operation, name, seconds, n_rows))
        print("  %-12s %-34s %-42s %s" % (workload, operation, name, _duration(seconds)),
              file=sys.stderr, flush=True)

    def get(self, workload, operation, name):
        for w, o, n, seconds, rows in self.rows:
            if (w, o, n) == (workload, operation, name):
                return seconds / rows if rows else seconds
        return None

    def render(self):
        lines = ["| workload | operation | implementation | median | per row | relative |",
                 "| --- | --- | --- | ---: | ---: | ---: |"]
        for workload, operation, name, seconds, n_rows in self.rows:
            ours = self.ours(workload, operation)
            per_row = seconds / n_rows if n_rows else None
            relative = "" if ours is None or per_row is None else "%.2fx" % (per_row / ours)
            lines.append("| %s | %s | %s | %s | %s | %s |"
                         % (workload, operation, name, _duration(seconds),
                            _duration(per_row) if per_row is not None else "",
                            relative))
        return "\n".join(lines)

    def ours(self, workload, operation):
        for w, o, n, seconds, rows in self.rows:
            if (w, o) == (workload, operation) and n.startswith("naive_bayes") and rows:
                return seconds / rows
        return None


def _duration(seconds):
    if seconds is None:
        return ""
    if seconds >= 1:
        return "%.2f s" % seconds
    if seconds >= 1e-3:
        return "%.1f ms" % (seconds * 1e3)
    return "%.2f µs" % (seconds * 1e6)


def peer(module):
    """The module, or None when it is not installed."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


# ----------------------------------------------------------------------------------
# The benchmarks
# ----------------------------------------------------------------------------------

def bench_categorical(table, n_rows, repeats, sample):
    X, y = categorical_data(n_rows)
    w = "categorical"
    fit = "fit (%s rows)" % format(n_rows, ",")
    sklearn = peer("sklearn")
    nltk = peer("nltk.classify")
    if sklearn:
        from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
        from sklearn.preprocessing import OrdinalEncoder
        import numpy as np
        array = np.array(X, dtype=object)

        def encode_and_fit():
            encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
            return encoder, SkCategoricalNB().fit(encoder.fit_transform(array), y)
    else:
        table.notes.append("scikit-learn: not installed")
    sk_fit = encode_and_fit if sklearn else None
    table.compare(w, fit, [
        ("naive_bayes CategoricalNB", lambda: CategoricalNB().fit(X, y), n_rows),
        ("straightforward baseline", lambda: StraightforwardNB().fit(X, y), n_rows),
        sk_fit and ("scikit-learn OrdinalEncoder + CategoricalNB", sk_fit, n_rows)], repeats)
    featuresets = [{"f%d" % j: v for j, v in enumerate(row)} for row in X[:sample]]
    if nltk:
        from nltk.classify import NaiveBayesClassifier
        labeled = list(zip(featuresets, y[:sample]))
        table.add(w, "fit (%s rows)" % format(sample, ","), "nltk NaiveBayesClassifier.train",
                  median_time(lambda: NaiveBayesClassifier.train(labeled), 1), sample)
        classifier = NaiveBayesClassifier.train(labeled)
    else:
        table.notes.append("nltk: not installed")
    model = CategoricalNB().fit(X, y)
    baseline = StraightforwardNB().fit(X, y)
    table.compare(w, "predict_joint_log_proba (batch)", [
        ("naive_bayes", lambda: model.predict_joint_log_proba(X), n_rows),
        ("straightforward baseline", lambda: baseline.predict_joint_log_proba(X), n_rows)],
        repeats)
    encoder, sk_model = sk_fit() if sk_fit else (None, None)
    table.compare(w, "predict_proba (batch)", [
        ("naive_bayes", lambda: model.predict_proba(X), n_rows),
        ("straightforward baseline", lambda: baseline.predict_proba(X), n_rows),
        sk_fit and ("scikit-learn (OrdinalEncoder.transform + predict_proba)",
                    lambda: sk_model.predict_proba(encoder.transform(array)), n_rows)],
        repeats)
    if nltk:
        table.add(w, "predict_proba (batch)", "nltk prob_classify, row by row",
                  median_time(lambda: [classifier.prob_classify(f) for f in featuresets], 1),
                  sample)
    rows = X[:sample]
    single = [encoder.transform(np.array([r], dtype=object)) for r in rows[:sample // 10]] \
        if sk_fit else []
    table.compare(w, "one row: predict_proba_one", [
        ("naive_bayes predict_proba_one", lambda: [model.predict_proba_one(r) for r in rows],
         sample),
        sk_fit and ("scikit-learn predict_proba on one row",
                    lambda: [sk_model.predict_proba(r) for r in single], len(single))],
        repeats)


def bench_gaussian(table, n_rows, repeats, sample):
    X, y = gaussian_data(n_rows)
    w = "gaussian"
    sklearn = peer("sklearn")
    river = peer("river.naive_bayes")
    if sklearn:
        from sklearn.naive_bayes import GaussianNB as SkGaussianNB
        import numpy as np
        array = np.array(X)
    if not river:
        table.notes.append("river: not installed")
    table.compare(w, "fit (%s rows)" % format(n_rows, ","), [
        ("naive_bayes GaussianNB", lambda: GaussianNB().fit(X, y), n_rows),
        sklearn and ("scikit-learn GaussianNB (NumPy)", lambda: SkGaussianNB().fit(array, y),
                     n_rows)], repeats)
    dicts = [dict(enumerate(row)) for row in X[:sample]]

    def river_fit():
        learner = river.GaussianNB()
        for x, label in zip(dicts, y):
            learner.learn_one(x, label)
        return learner
    # river learns one row at a time: timed on a sample, with this module's fit of the
    # same rows, and its partial_fit row by row, beside it
    table.compare(w, "fit (%s rows)" % format(sample, ","), [
        river and ("river GaussianNB.learn_one loop", river_fit, sample),
        ("naive_bayes GaussianNB", lambda: GaussianNB().fit(X[:sample], y[:sample]), sample),
        ("naive_bayes GaussianNB.partial_fit row by row",
         lambda: _row_by_row(X[:sample], y), sample)], max(3, repeats // 2))
    model = GaussianNB().fit(X, y)
    sk_model = SkGaussianNB().fit(array, y) if sklearn else None
    table.compare(w, "predict_proba (batch)", [
        ("naive_bayes", lambda: model.predict_proba(X), n_rows),
        sklearn and ("scikit-learn (NumPy)", lambda: sk_model.predict_proba(array), n_rows)],
        repeats)
    rows = X[:sample]
    learner = river_fit() if river else None
    single = [np.array([r]) for r in rows[:sample // 10]] if sklearn else []
    table.compare(w, "one row: predict_proba_one", [
        ("naive_bayes predict_proba_one", lambda: [model.predict_proba_one(r) for r in rows],
         sample),
        river and ("river predict_proba_one",
                   lambda: [learner.predict_proba_one(x) for x in dicts], sample),
        sklearn and ("scikit-learn predict_proba on one row",
                     lambda: [sk_model.predict_proba(r) for r in single], len(single))],
        max(3, repeats // 2))


def _row_by_row(X, y):
    model = GaussianNB()
    for row, label in zip(X, y):
        model.partial_fit([row], [label])
    return model


def bench_mixed(table, n_rows, repeats, sample):
    for w, (X, y) in (("titanic", titanic_data(n_rows)), ("watermelon", watermelon_data(n_rows))):
        table.add(w, "fit (%s rows)" % format(n_rows, ","), "naive_bayes",
                  median_time(lambda: NaiveBayes().fit(X, y), repeats), n_rows)
        model = NaiveBayes().fit(X, y)
        table.add(w, "predict_proba (batch)", "naive_bayes",
                  median_time(lambda: model.predict_proba(X), repeats), n_rows)
        rows = X[:sample]
        table.add(w, "one row: predict_proba_one", "naive_bayes predict_proba_one",
                  median_time(lambda: [model.predict_proba_one(r) for r in rows], repeats),
                  sample)


def reuters(split):
    with open(ROOT / "examples" / "data" / ("reuters_grain_%s.csv" % split), newline="",
              encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [row["text"] for row in rows], [row["label"] for row in rows]


def bench_text(table, repeats):
    """Tokenise, fit and predict the Reuters files end to end."""
    train, y_train = reuters("train")
    test, _ = reuters("test")
    rows_train = [[d] for d in train]
    rows_test = [[d] for d in test]
    n = len(train) + len(test)
    w = "reuters text"
    sklearn = peer("sklearn")
    if sklearn:
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.naive_bayes import BernoulliNB, MultinomialNB
    for text_model in ("multinomial", "bernoulli"):
        binary = text_model == "bernoulli"

        def ours():
            model = NaiveBayes(features=["text"], text_model=text_model).fit(rows_train, y_train)
            return model.predict_proba(rows_test)

        def theirs():
            vectorizer = CountVectorizer(binary=binary)
            model = (BernoulliNB() if binary else MultinomialNB()).fit(
                vectorizer.fit_transform(train), y_train)
            return model.predict_proba(vectorizer.transform(test))
        table.compare(w, "%s: tokenise + fit + predict_proba" % text_model, [
            ("naive_bayes", ours, n),
            sklearn and ("scikit-learn CountVectorizer + %s"
                         % ("BernoulliNB" if binary else "MultinomialNB"), theirs, n)],
            repeats * 4 + 1)


def process_seconds(argv, repeats, cwd=None):
    """Median wall time of a whole process."""
    def run():
        subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    run()                                 # warm the file cache
    return median_time(run, repeats)


def bench_startup(table, repeats):
    import py_compile
    python = sys.executable
    # As after any first import: the bytecode cached (even under PYTHONDONTWRITEBYTECODE).
    py_compile.compile(str(ROOT / "naive_bayes.py"), doraise=True)
    for flags, what in ((["-S", "-E"], "python -S -E"), ([], "python")):
        bare = process_seconds([python] + flags + ["-c", "pass"], repeats * 4, cwd=ROOT)
        ours = process_seconds([python] + flags + ["-c", "import naive_bayes"], repeats * 4,
                               cwd=ROOT)
        table.add("startup", "%s -c pass" % what, "bare interpreter", bare, 0)
        table.add("startup", "%s -c 'import naive_bayes'" % what, "naive_bayes", ours, 0)
        # differences below the run-to-run noise of a process start read as 0
        table.add("startup", "import, added to %s" % what, "naive_bayes",
                  max(0.0, ours - bare), 0)
    if peer("sklearn"):
        sk = process_seconds([python, "-c", "import sklearn.naive_bayes"], repeats, cwd=ROOT)
        table.add("startup", "import, added to python", "scikit-learn (sklearn.naive_bayes)",
                  sk - bare, 0)
    with tempfile.TemporaryDirectory() as folder:
        model = os.path.join(folder, "titanic.json")
        data = str(ROOT / "examples" / "data" / "titanic.csv")
        subprocess.run([python, "naive_bayes.py", "fit", data, "--target", "survived",
                        "-o", model], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        table.add("startup", "cold command line: predict 2,201 rows", "naive_bayes.py predict",
                  process_seconds([python, "naive_bayes.py", "predict", model, data],
                                  repeats, cwd=ROOT), 0)


def peak_memory_of_fit(csv_path, folder):
    """Peak resident memory (bytes) of the command line fitting a CSV file, measured
    inside a fresh process."""
    # Linux's ru_maxrss would count the pages of the parent this process was forked
    # from; VmHWM in /proc/self/status is this program's own peak.
    code = ("import resource, naive_bayes\n"
            "status = naive_bayes.main(['fit', %r, '--target', 'label', '-o', %r])\n"
            "try:\n"
            "    peak = [int(line.split()[1]) * 1024 for line in open('/proc/self/status')\n"
            "            if line.startswith('VmHWM')][0]\n"
            "except OSError:\n"
            "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print(peak)\n" % (str(csv_path), os.path.join(folder, "memory.json")))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    return int(done.stdout.split()[-1])


def write_csv(path, n_rows, seed=4):
    """A CSV of 10 categorical and 5 numeric columns and a label, written streaming."""
    rng = random.Random(seed)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["c%d" % j for j in range(10)] + ["x%d" % j for j in range(5)]
                        + ["label"])
        for _ in range(n_rows):
            k = rng.randrange(3)
            writer.writerow(["v%d" % ((rng.randrange(10) + k * j) % 10) for j in range(10)]
                            + ["%.4f" % rng.gauss(k, 1) for _ in range(5)] + ["class%d" % k])


def bench_memory(table, memory_rows):
    with tempfile.TemporaryDirectory() as folder:
        for n in (memory_rows // 10, memory_rows):
            path = os.path.join(folder, "rows.csv")
            write_csv(path, n)
            start = time.perf_counter()
            peak = peak_memory_of_fit(path, folder)
            seconds = time.perf_counter() - start
            table.add("memory", "streaming fit of a %s-row CSV" % format(n, ","),
                      "naive_bayes.py fit (peak %.1f MB)" % (peak / 1e6), seconds, n)
            table.notes.append("peak memory of fit, %s rows: %.1f MB" % (format(n, ","),
                                                                         peak / 1e6))
            table.memory = getattr(table, "memory", []) + [(n, peak)]


# ----------------------------------------------------------------------------------
# Goals
# ----------------------------------------------------------------------------------

def goals(table, n_rows, sample):
    """(goal, figure, met) for each goal this run could measure."""
    results = []

    def ratio(workload, operation, theirs, ours="naive_bayes"):
        a = table.get(workload, operation, ours)
        b = table.get(workload, operation, theirs)
        return None if a is None or b is None else a / b

    fit_op = "fit (%s rows)" % format(n_rows, ",")
    r = ratio("categorical", "predict_joint_log_proba (batch)", "straightforward baseline")
    results.append(("categorical predict_joint_log_proba <= 0.5x the baseline", r,
                    r is not None and r <= 0.5, "%.2fx"))
    r = ratio("categorical", "predict_proba (batch)", "straightforward baseline")
    results.append(("categorical predict_proba <= 0.75x the baseline", r,
                    r is not None and r <= 0.75, "%.2fx"))
    r = ratio("categorical", "predict_proba (batch)", "nltk prob_classify, row by row")
    results.append(("categorical: >= 5x faster than nltk prob_classify",
                    None if r is None else 1 / r, r is not None and 1 / r >= 5, "%.1fx faster"))
    r = ratio("categorical", fit_op, "scikit-learn OrdinalEncoder + CategoricalNB",
              ours="naive_bayes CategoricalNB")
    results.append(("categorical fit on strings faster than OrdinalEncoder + fit",
                    None if r is None else 1 / r, r is not None and r < 1, "%.2fx their speed"))
    r = ratio("gaussian", "one row: predict_proba_one", "river predict_proba_one",
              ours="naive_bayes predict_proba_one")
    results.append(("gaussian prediction >= 10x faster than river predict_proba_one",
                    None if r is None else 1 / r, r is not None and 1 / r >= 10, "%.1fx faster"))
    sample_fit = "fit (%s rows)" % format(sample, ",")
    ours = table.get("gaussian", sample_fit, "naive_bayes GaussianNB")
    river_fit = table.get("gaussian", sample_fit, "river GaussianNB.learn_one loop")
    r = None if ours is None or river_fit is None else ours / river_fit
    results.append(("gaussian fit no slower than river's learn_one loop",
                    None if r is None else 1 / r, r is not None and r <= 1,
                    "%.2fx river's speed"))
    best = None
    for workload in ("categorical", "gaussian"):
        r = ratio(workload, "one row: predict_proba_one", "scikit-learn predict_proba on one row",
                  ours="naive_bayes predict_proba_one")
        if r is not None:
            best = 1 / r if best is None else min(best, 1 / r)
    results.append(("one row: >= 20x faster than scikit-learn predict_proba",
                    best, best is not None and best >= 20, "%.0fx faster (the lesser of two)"))
    added = table.get("startup", "import, added to python -S -E", "naive_bayes")
    results.append(("import adds < 10 ms to a bare interpreter start (python -S -E)",
                    None if added is None else added * 1e3,
                    added is not None and added < 0.010, "%.1f ms"))
    for text_model, peer_name in (("multinomial", "MultinomialNB"), ("bernoulli", "BernoulliNB")):
        op = "%s: tokenise + fit + predict_proba" % text_model
        r = ratio("reuters text", op, "scikit-learn CountVectorizer + %s" % peer_name)
        results.append(("text (%s): not slower than CountVectorizer + %s end to end"
                        % (text_model, peer_name), None if r is None else 1 / r,
                        r is not None and r <= 1, "%.2fx their speed"))
    memory = getattr(table, "memory", None)
    if memory:
        peak = max(p for _, p in memory)
        flat = max(p for _, p in memory) / min(p for _, p in memory)
        results.append(("streaming fit: peak < 60 MB, independent of rows",
                        peak / 1e6, peak < 60e6 and flat < 1.1,
                        "%%.1f MB (x%.2f from %s to %s rows)"
                        % (flat, format(memory[0][0], ","), format(memory[-1][0], ","))))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100000,
                        help="rows of the categorical and Gaussian workloads (100,000)")
    parser.add_argument("--sample", type=int, default=5000,
                        help="rows for the slow peers and for one-row latency (5,000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per timing (5)")
    parser.add_argument("--memory-rows", type=int, default=1000000,
                        help="rows of the streaming-fit CSV (1,000,000; 0 skips it)")
    parser.add_argument("--only", help="comma-separated: categorical, gaussian, mixed, "
                        "text, startup, memory")
    args = parser.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else {
        "categorical", "gaussian", "mixed", "text", "startup", "memory"}
    sample = min(args.sample, args.rows)
    table = Table()
    print("naive_bayes %s, Python %s (%s), %s"
          % (naive_bayes.__version__, sys.version.split()[0],
             sys.implementation.name, sys.platform), file=sys.stderr)
    if "categorical" in wanted:
        bench_categorical(table, args.rows, args.repeats, sample)
    if "gaussian" in wanted:
        bench_gaussian(table, args.rows, args.repeats, sample)
    if "mixed" in wanted:
        bench_mixed(table, args.rows, args.repeats, sample)
    if "text" in wanted:
        bench_text(table, args.repeats)
    if "startup" in wanted:
        bench_startup(table, args.repeats)
    if "memory" in wanted and args.memory_rows and sys.platform != "win32":
        bench_memory(table, args.memory_rows)
    print("## naive_bayes.py benchmarks\n")
    print("`python benchmarks/bench.py %s` on Python %s (%s); medians of %d runs; "
          "\"relative\" is time per row over naive_bayes's time per row for the same "
          "operation.\n" % (" ".join(argv if argv is not None else sys.argv[1:]),
                           sys.version.split()[0], sys.implementation.name, args.repeats))
    print(table.render())
    print("\n### Goals\n")
    print("| goal | this run | met |\n| --- | --- | --- |")
    for goal, figure, met, form in goals(table, args.rows, sample):
        shown = "not measured" if figure is None else form % figure
        print("| %s | %s | %s |" % (goal, shown, "yes" if met else
                                    ("n/a" if figure is None else "NO")))
    for note in table.notes:
        print("\n- " + note, end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
