"""Benchmarks: naive_bayes.py against its peers, measured in one run.

    python benchmarks/bench.py                      # the full run, a few minutes
    python benchmarks/bench.py --rows 20000 --repeats 3 --memory-rows 100000
    python benchmarks/bench.py --only scale         # the command line's fit of each family at 100k-1M rows

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
import json
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
from naive_bayes import AODE, CategoricalNB, GaussianNB, NaiveBayes  # noqa: E402
from naive_bayes import TAN, AutoBayes, BayesNet  # noqa: E402

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


def aode_data(n_rows, seed=5, width=N_FEATURES):
    """20 (``width``) categorical features of 8 values and 3 classes, each feature
    depending on the class and on its left neighbour (the dependence AODE models)."""
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(n_rows):
        k = rng.randrange(N_CLASSES)
        row, previous = [], 0
        for j in range(width):
            value = (previous + k + rng.randrange(3)) % 8 if rng.random() < 0.7 \
                else rng.randrange(8)
            row.append("v%d" % value)
            previous = value
        rows.append(row)
        labels.append("class%d" % k)
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


class Probabilities(dict):
    """value -> probability, with the smoothed probability of a value never seen."""

    def __init__(self, known, unseen):
        super().__init__(known)
        self.unseen = unseen

    def __missing__(self, value):
        return self.unseen


class StraightforwardAODE:
    """AODE as one would first write it in pure Python, after Webb et al. (2005) and
    Weka's AODE at its defaults (Laplace smoothing, frequency limit 1): probabilities
    precomputed into dicts, and for each row, class, parent and child one lookup and
    one multiplication, in raw probabilities as Weka does."""

    def fit(self, X, y):
        self.classes = sorted(set(y))
        width = len(X[0])
        n, k = len(y), len(self.classes)
        values = [sorted(set(column)) for column in zip(*X)]
        pairs = {c: [[defaultdict(Counter) for _ in range(width)] for _ in range(width)]
                 for c in self.classes}
        for row, label in zip(X, y):
            counts = pairs[label]
            for p, v in enumerate(row):
                by_child = counts[p]
                for j, u in enumerate(row):
                    by_child[j][v][u] += 1
        # parent[c][p][v] = P(c, x_p = v); child[c][p][v][j][u] = P(x_j = u | c, x_p = v)
        self.parent, self.child = [], []
        for c in self.classes:
            parent, child = [], []
            for p in range(width):
                own = pairs[c][p][p]
                parent.append({v: (own[v][v] + 1) / (n + k * len(values[p]))
                               for v in values[p]})
                child.append({v: [Probabilities(
                    {u: (pairs[c][p][j][v][u] + 1) / (own[v][v] + len(values[j]))
                     for u in values[j]}, 1 / (own[v][v] + len(values[j])))
                    for j in range(width)] for v in values[p]})
            self.parent.append(parent)
            self.child.append(child)
        return self

    def predict_proba(self, X):
        out = []
        for row in X:
            scores = []
            for parent, child in zip(self.parent, self.child):
                total = 0.0
                for p, v in enumerate(row):
                    tables = child[p].get(v)
                    if tables is None:    # a value never seen: not a parent
                        continue
                    product = parent[p][v]
                    for j, u in enumerate(row):
                        if j != p:
                            product *= tables[j][u]
                    total += product
                scores.append(total)
            total = sum(scores)
            out.append([score / total for score in scores])
        return out


class StraightforwardNetwork:
    """A Bayesian-network classifier (TAN, BayesNet) predicting as one would first
    write it in pure Python, from a fitted model's tables(): for each row and class,
    one conditional probability table lookup per node (the class node too) and one
    multiplication, then the products normalised.  Categorical features, every value
    seen in training."""

    def __init__(self, model):
        tables = model.tables()
        self.classes = list(model.classes_)
        self.nodes = [(name, table["parents"], table["probabilities"])
                      for name, table in tables.items() if table.get("kind") != "ignore"]
        self.names = list(model.feature_names_)

    def predict_proba(self, X):
        out = []
        for row in X:
            values = dict(zip(self.names, row))
            scores = []
            for label in self.classes:
                values[None] = label
                product = 1.0
                for name, parents, table in self.nodes:
                    product *= table[tuple([values[p] for p in parents])][values[name]]
                scores.append(product)
            total = sum(scores)
            out.append([score / total for score in scores])
        return out


# ----------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------

CLOCK = time.perf_counter    # what _timed reads: wall time (limits.py: CPU time)


def _timed(function):
    """Time of one call by CLOCK, with garbage collection paused (as timeit does)."""
    gc.collect()
    gc.disable()
    try:
        start = CLOCK()
        function()
        return CLOCK() - start
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


PEERS = {"wanted": True}                  # --no-peers: time this module alone


def peer(module):
    """The module, or None when it is not installed (or --no-peers)."""
    if not PEERS["wanted"]:
        return None
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
        table.notes.append("scikit-learn: not timed (not installed, or --no-peers)")
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
        table.notes.append("nltk: not timed (not installed, or --no-peers)")
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
        table.notes.append("river: not timed (not installed, or --no-peers)")
    dicts = [dict(enumerate(row)) for row in X]

    def river_fit(n=n_rows):
        learner = river.GaussianNB()
        for x, label in zip(dicts[:n], y):
            learner.learn_one(x, label)
        return learner
    # river learns one row at a time: its learn_one loop goes over the same rows
    table.compare(w, "fit (%s rows)" % format(n_rows, ","), [
        ("naive_bayes GaussianNB", lambda: GaussianNB().fit(X, y), n_rows),
        river and ("river GaussianNB.learn_one loop", river_fit, n_rows),
        sklearn and ("scikit-learn GaussianNB (NumPy)", lambda: SkGaussianNB().fit(array, y),
                     n_rows)], repeats)
    # partial_fit row by row: a slow way to use this module, on a sample
    table.compare(w, "fit (%s rows)" % format(sample, ","), [
        ("naive_bayes GaussianNB", lambda: GaussianNB().fit(X[:sample], y[:sample]), sample),
        ("naive_bayes GaussianNB.partial_fit row by row",
         lambda: _row_by_row(X[:sample], y), sample)], max(3, repeats // 2))
    model = GaussianNB().fit(X, y)
    sk_model = SkGaussianNB().fit(array, y) if sklearn else None
    learner = river_fit(sample) if river else None
    rows = X[:sample]
    table.compare(w, "predict_proba (batch)", [
        ("naive_bayes", lambda: model.predict_proba(X), n_rows),
        river and ("river predict_proba_one, row by row",
                   lambda: [learner.predict_proba_one(x) for x in dicts[:sample]], sample),
        sklearn and ("scikit-learn (NumPy)", lambda: sk_model.predict_proba(array), n_rows)],
        repeats)
    single = [np.array([r]) for r in rows[:sample // 10]] if sklearn else []
    table.compare(w, "one row: predict_proba_one", [
        ("naive_bayes predict_proba_one", lambda: [model.predict_proba_one(r) for r in rows],
         sample),
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


def bench_text(table, repeats, documents=None):
    """Tokenise, fit and predict the Reuters files end to end (their first
    ``documents`` documents each, when given)."""
    train, y_train = reuters("train")
    test, _ = reuters("test")
    if documents:
        train, y_train, test = train[:documents], y_train[:documents], test[:documents]
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


def bench_kde(table, n_rows, repeats):
    """Kernel densities against the Gaussian model: 5 numeric features, fitted on
    n_rows rows and predicting them all; the first prediction after a fit compiles
    the model (for kde: the per-class tables of Taylor cells), so it is timed too."""
    X, y = gaussian_data(n_rows)
    X = [row[:5] for row in X]
    w = "kde"
    models = {numeric: NaiveBayes(numeric=numeric).fit(X, y)
              for numeric in ("gaussian", "kde")}
    fit = "fit (%s rows x 5)" % format(n_rows, ",")
    table.compare(w, fit, [("naive_bayes numeric=%r" % numeric,
                            lambda numeric=numeric: NaiveBayes(numeric=numeric).fit(X, y),
                            n_rows) for numeric in ("gaussian", "kde")], repeats)

    def first(model):
        model.set_params()                # drops the compiled model: compiled again
        return model.predict_proba(X)
    table.compare(w, "compile + predict_proba (batch)", [
        ("naive_bayes numeric=%r" % numeric, lambda model=model: first(model), n_rows)
        for numeric, model in models.items()], repeats)
    table.compare(w, "predict_proba (batch)", [
        ("naive_bayes numeric=%r" % numeric, lambda model=model: model.predict_proba(X),
         n_rows) for numeric, model in models.items()], repeats)


def bench_aode(table, n_rows, repeats, sample):
    """AODE on 20 features of 8 values and 3 classes, against the straightforward
    pure-Python AODE above (which must agree with it: checked here)."""
    X, y = aode_data(n_rows)
    test, _ = aode_data(sample, seed=6)
    w = "aode"
    table.compare(w, "fit (%s rows)" % format(n_rows, ","), [
        ("naive_bayes AODE", lambda: AODE().fit(X, y), n_rows),
        ("straightforward baseline", lambda: StraightforwardAODE().fit(X, y), n_rows)],
        max(1, repeats // 2))
    model = AODE().fit(X, y)
    baseline = StraightforwardAODE().fit(X, y)
    ours, theirs = model.predict_proba(test), baseline.predict_proba(test)
    gap = max(abs(a - b) for p, q in zip(ours, theirs) for a, b in zip(p, q))
    table.notes.append("AODE: the straightforward baseline agrees with naive_bayes to %.1e "
                       "in predict_proba" % gap)
    table.add(w, "compile + predict_proba (batch)", "naive_bayes",
              median_time(lambda: model.set_params().predict_proba(test), 1), sample)
    table.compare(w, "predict_proba (batch)", [
        ("naive_bayes", lambda: model.predict_proba(test), sample),
        ("straightforward baseline", lambda: baseline.predict_proba(test), sample)], repeats)
    rows = test[:max(1, sample // 5)]
    table.compare(w, "one row: predict_proba_one", [
        ("naive_bayes predict_proba_one", lambda: [model.predict_proba_one(r) for r in rows],
         len(rows))], repeats)


def bench_networks(table, n_rows, repeats, sample, widths=(10, 20, 40)):
    """The semi-naive and network families on aode_data of 10, 20 and 40 features:
    fit per row (for TAN and BayesNet including the structure search and the tables,
    which the first prediction compiles), and predict_proba per row against the
    straightforward pure-Python versions above (checked to agree), on training rows."""
    for width in widths:
        X, y = aode_data(n_rows, width=width)
        test = X[:sample]                 # values seen in training (the baselines need it)
        w = "networks x%d" % width
        fit = "fit + compile (%s rows)" % format(n_rows, ",")
        first = test[:1]
        families = [("AODE", AODE), ("TAN", TAN), ("BayesNet", BayesNet)]
        table.compare(w, fit, [
            ("naive_bayes " + name, lambda family=family: family().fit(X, y).predict_proba(
                first), n_rows) for name, family in families], max(1, repeats // 2))
        models = {name: family().fit(X, y) for name, family in families}
        cases = []
        for name, model in models.items():
            model.predict_proba(first)
            cases.append(("naive_bayes " + name,
                          lambda model=model: model.predict_proba(test), len(test)))
        aode = StraightforwardAODE().fit(X, y)
        networks = {name: StraightforwardNetwork(models[name]) for name in ("TAN", "BayesNet")}
        for name, baseline in [("AODE", aode)] + list(networks.items()):
            ours, theirs = models[name].predict_proba(test), baseline.predict_proba(test)
            gap = max(abs(a - b) for p, q in zip(ours, theirs) for a, b in zip(p, q))
            assert gap < 1e-9, (name, gap)
            cases.append(("straightforward %s" % name,
                          lambda baseline=baseline: baseline.predict_proba(test), len(test)))
        table.compare(w, "predict_proba (batch)", cases, repeats)
    X, y = aode_data(max(1, n_rows // 10))
    table.compare("networks x20", "fit + compile (%s rows)" % format(len(X), ","), [
        ("naive_bayes AutoBayes", lambda: AutoBayes().fit(X, y).predict_proba(X[:1]),
         len(X))], 1)


def bench_wide(table, columns, repeats):
    """4 rows of many columns: fit in the library (plain, and naming every column in
    features=) and on the command line."""
    rng = random.Random(7)
    names = ["c%d" % j for j in range(columns)]
    X = [[rng.choice("abc") if j % 2 else rng.random() for j in range(columns)]
         for _ in range(4)]
    y = ["p", "q", "p", "q"]
    declared = {name: ("categorical" if j % 2 else "gaussian") for j, name in enumerate(names)}
    dicts = [dict(zip(names, row)) for row in X]
    w = "wide"
    what = "fit 4 rows x %s columns" % format(columns, ",")
    table.compare(w, what, [
        ("naive_bayes NaiveBayes", lambda: NaiveBayes().fit(X, y), 0),
        ("naive_bayes NaiveBayes, features= naming all", lambda: NaiveBayes(
            features=declared).fit(dicts, y), 0)], max(1, repeats // 2))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "wide.csv")
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(names + ["label"])
            for row, label in zip(X, y):
                writer.writerow(row + [label])
        table.add(w, what + " (CSV)", "naive_bayes.py fit", process_seconds(
            [sys.executable, "naive_bayes.py", "fit", path, "--target", "label", "-o",
             os.path.join(folder, "wide.json")], max(1, repeats // 2), cwd=ROOT), 0)


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
        # A script is compiled on every run; an imported module's bytecode is cached.
        table.add("startup", "cold command line: predict 2,201 rows",
                  "python naive_bayes.py predict",
                  process_seconds([python, "naive_bayes.py", "predict", model, data],
                                  repeats, cwd=ROOT), 0)
        table.add("startup", "cold command line: predict 2,201 rows",
                  "python -m naive_bayes predict",
                  process_seconds([python, "-m", "naive_bayes", "predict", model, data],
                                  repeats, cwd=ROOT), 0)


def peak_memory(code):
    """Run Python code in a fresh process; return what it prints, as numbers, and the
    process's peak resident memory in bytes."""
    # Linux's ru_maxrss would count the pages of the parent this process was forked
    # from; VmHWM in /proc/self/status is this program's own peak.
    code += ("\nimport resource\n"
             "try:\n"
             "    peak = [int(line.split()[1]) * 1024 for line in open('/proc/self/status')\n"
             "            if line.startswith('VmHWM')][0]\n"
             "except OSError:\n"
             "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024\n"
             "print(peak)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    numbers = [float(word) for word in done.stdout.split()]
    return numbers[:-1], numbers[-1]


def peak_memory_of_fit(csv_path, folder, options=()):
    """Peak resident memory (bytes) of the command line fitting a CSV file, measured
    inside a fresh process; the model is written to folder/memory.json."""
    argv = ["fit", str(csv_path), "--target", "label", "-o",
            os.path.join(folder, "memory.json")] + list(options)
    return peak_memory("import contextlib, sys, naive_bayes\n"
                       "with contextlib.redirect_stdout(sys.stderr):\n"
                       "    naive_bayes.main(%r)" % argv)[1]


def load_figures(path):
    """(seconds, bytes of memory added at the peak) of loading a model file, in a
    fresh process."""
    code = ("import time, naive_bayes\n"
            "def resident():\n"
            "    return [int(line.split()[1]) * 1024 for line in open('/proc/self/status')\n"
            "            if line.startswith('VmRSS')][0]\n"
            "before = resident()\n"
            "start = time.perf_counter()\n"
            "naive_bayes.NaiveBayes.load(%r)\n"
            "print(time.perf_counter() - start, before)\n" % str(path))
    (seconds, before), peak = peak_memory(code)
    return seconds, peak - before


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


def write_numeric_csv(path, n_rows, seed=8):
    """A CSV of 5 continuous columns written at full precision (every value distinct,
    the worst case for a record of values) and a label, written streaming."""
    rng = random.Random(seed)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["x%d" % j for j in range(5)] + ["label"])
        for _ in range(n_rows):
            k = rng.randrange(3)
            writer.writerow([repr(rng.gauss(k, 1)) for _ in range(5)] + ["class%d" % k])


def bench_memory(table, memory_rows):
    table.memory = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "rows.csv")
        for n in (memory_rows // 10, memory_rows):
            write_csv(path, n)
            start = time.perf_counter()
            peak = peak_memory_of_fit(path, folder)
            seconds = time.perf_counter() - start
            table.add("memory", "streaming fit of a %s-row CSV" % format(n, ","),
                      "naive_bayes.py fit (peak %.1f MB)" % (peak / 1e6), seconds, n)
            table.notes.append("peak memory of fit, %s rows: %.1f MB" % (format(n, ","),
                                                                         peak / 1e6))
            table.memory.append((n, peak))
        # A record of values (kde, discretized) keeps every distinct value: as many
        # as rows for continuous data, unless values are rounded before counting.
        write_numeric_csv(path, memory_rows)
        table.record_memory, table.record_rows = {}, memory_rows
        for options in (["--significant-digits", "3"], []):
            start = time.perf_counter()
            peak = peak_memory_of_fit(path, folder, ["--numeric", "kde"] + options)
            seconds = time.perf_counter() - start
            what = " ".join(["--numeric kde"] + options)
            table.add("memory", "fit %s continuous rows x 5, %s" % (format(memory_rows, ","),
                                                                    what),
                      "naive_bayes.py fit (peak %.1f MB)" % (peak / 1e6), seconds, memory_rows)
            table.record_memory[what] = peak
        # the model without rounding is the large one: its file, loaded
        model = os.path.join(folder, "memory.json")
        size = os.path.getsize(model)
        seconds, added = load_figures(model)
        table.add("memory", "load a %.0f MB model file (kde, %s rows)"
                  % (size / 1e6, format(memory_rows, ",")),
                  "NaiveBayes.load (peak +%.0f MB, %.1fx the file)" % (added / 1e6, added / size),
                  seconds, 0)
        table.load = (size, seconds, added)


def scale_rows(n_rows, seed=21):
    """(row, label) of the scale workload, generated: 12 categorical features (3 to
    12 values, 2% missing, None) and 8 numbers with 3 decimals, 2 classes; several
    features depend on each other given the class, as the networks are built to find."""
    rng = random.Random(seed)
    for _ in range(n_rows):
        k = rng.random() < 0.4
        row = []
        previous = rng.randrange(4)
        for j in range(12):
            size = 3 + j % 10
            if j % 3 and rng.random() < 0.7:           # follows the feature before it
                value = (previous + k + rng.randrange(2)) % size
            else:
                value = (rng.randrange(size) + k * (j % 2)) % size
            previous = value
            row.append(None if rng.random() < 0.02 else "v%d" % value)
        base = rng.gauss(k, 1.5)
        for j in range(8):
            row.append(round(base * (j % 2) + rng.gauss(k * (j % 3) / 2, 1 + j), 3))
        yield row, "yes" if k else "no"


def write_scale_csv(path, n_rows, seed=21):
    """scale_rows as a CSV file, streamed (a missing value is an empty cell)."""
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["c%d" % j for j in range(12)] + ["x%d" % j for j in range(8)]
                        + ["label"])
        for row, label in scale_rows(n_rows, seed):
            writer.writerow(["" if v is None else v if type(v) is str else "%.3f" % v
                             for v in row] + [label])


SCALE_LIBRARY = (
    "import sys, time\n"
    "sys.path.insert(0, %r)\n"
    "sys.path.insert(0, %r)\n"
    "import naive_bayes\n"
    "from bench import scale_rows\n"
    "model = getattr(naive_bayes, %r)(features=['categorical'] * 12 + ['discretized'] * 8)\n"
    "start = time.process_time()\n"
    "batch = []\n"
    "for row, label in scale_rows(%d):\n"
    "    batch.append((row, label))\n"
    "    if len(batch) == 10000:\n"
    "        model.partial_fit([r for r, _ in batch], [c for _, c in batch],\n"
    "                          classes=['no', 'yes'])\n"
    "        batch = []\n"
    "if batch:\n"
    "    model.partial_fit([r for r, _ in batch], [c for _, c in batch], classes=['no', 'yes'])\n"
    "if hasattr(model, 'choose_weights'):\n"
    "    model.choose_weights()\n"
    "model.predict_proba([r for r, _ in scale_rows(10)])\n"
    "print(time.process_time() - start)\n")


SCALE_FIT = (
    "import contextlib, sys, time\n"
    "sys.path.insert(0, %r)\n"
    "import naive_bayes\n"
    "start = time.process_time()\n"
    "with contextlib.redirect_stdout(sys.stderr):\n"
    "    naive_bayes.main(%r)\n"
    "print(time.process_time() - start)\n")


def bench_scale(table, sizes, models, module=None, part="both", record=None):
    """The command line's fit of each model family on the scale CSV at each size,
    in a fresh process each: CPU seconds and the process's peak resident memory.
    module: another version's naive_bayes.py (its folder goes first on the path).
    part: "cli", "library" or "both". record: a JSON file that gets (or updates) one
    entry per run (model, route, rows, cpu_s, peak_mb)."""
    import py_compile
    folder_of_module = str(ROOT if module is None else Path(module).resolve().parent)
    # the bytecode cached, as after any first import (a compile would add its peak)
    py_compile.compile(os.path.join(folder_of_module, "naive_bayes.py"), doraise=True)
    table.scale = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "scale.csv")
        for n in sizes if part in ("both", "cli") else ():
            write_scale_csv(path, n)
            for model in models:
                argv = ["fit", path, "--target", "label", "--model", model,
                        "-o", os.path.join(folder, "scale.json")]
                try:
                    (cpu,), peak = peak_memory(SCALE_FIT % (folder_of_module, argv))
                except subprocess.CalledProcessError as error:
                    table.notes.append("scale: fit --model %s of %s rows failed: %s"
                                       % (model, format(n, ","),
                                          (error.stderr or "").strip()[-300:]))
                    continue
                table.add("scale", "fit --model %s, %s rows x 20 mixed" % (
                    model, format(n, ",")), "naive_bayes.py fit (peak %.0f MB)"
                    % (peak / 1e6), cpu, n)
                table.scale.append((model, n, cpu, peak))
                record_scale(record, model, "command line", n, cpu, peak, argv)
                print("scale: %s %s rows: %.1f s CPU, peak %.0f MB"
                      % (model, format(n, ","), cpu, peak / 1e6), file=sys.stderr)
        # the library: generated rows given to partial_fit 10,000 at a time (no file,
        # no list of every row), then choose_weights where the family has one and
        # the compilation of the first prediction
        for n in sizes if part in ("both", "library") else ():
            for model in models:
                family = LIBRARY_FAMILIES[model]
                try:
                    (cpu,), peak = peak_memory(SCALE_LIBRARY % (
                        folder_of_module, str(ROOT / "benchmarks"), family, n))
                except subprocess.CalledProcessError as error:
                    table.notes.append("scale: %s.partial_fit of %s rows failed: %s"
                                       % (family, format(n, ","),
                                          (error.stderr or "").strip()[-300:]))
                    continue
                table.add("scale", "%s.partial_fit, %s rows x 20 mixed" % (
                    family, format(n, ",")), "library (peak %.0f MB)" % (peak / 1e6), cpu, n)
                table.scale.append((family, n, cpu, peak))
                record_scale(record, model, "library", n, cpu, peak,
                             "%s.partial_fit 10,000 rows at a time" % family)
                print("scale: library %s %s rows: %.1f s CPU, peak %.0f MB"
                      % (family, format(n, ","), cpu, peak / 1e6), file=sys.stderr)


def record_scale(record, model, route, n, cpu, peak, how):
    """Add (or replace) one scale run's figures in the JSON file record (a list)."""
    if record is None:
        return
    import datetime
    import platform
    runs = []
    if os.path.exists(record):
        with open(record) as handle:
            runs = json.load(handle)
    runs = [r for r in runs if (r["model"], r["route"], r["rows"]) != (model, route, n)]
    runs.append({"model": model, "route": route, "rows": n, "cpu_s": round(cpu, 1),
                 "peak_mb": round(peak / 1e6), "how": how if isinstance(how, str)
                 else "naive_bayes.py " + " ".join(how[:1] + ["scale.csv"] + how[2:-2]),
                 "python": "%s %s" % (sys.implementation.name, sys.version.split()[0]),
                 "machine": "%s, %d cores, load average %.1f at the end"
                            % (platform.machine(), os.cpu_count(), os.getloadavg()[0]),
                 "date": datetime.datetime.now(datetime.timezone.utc)
                                  .strftime("%Y-%m-%dT%H:%MZ")})
    runs.sort(key=lambda r: (r["route"], r["model"], r["rows"]))
    with open(record, "w") as handle:
        json.dump(runs, handle, indent=1)
        handle.write("\n")


LIBRARY_FAMILIES = {"auto": "AutoBayes", "aode": "AODE", "tan": "TAN", "bayesnet": "BayesNet",
                    "naive": "NaiveBayes"}


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
    r = ratio("gaussian", fit_op, "river GaussianNB.learn_one loop",
              ours="naive_bayes GaussianNB")
    results.append(("gaussian fit (%s rows) no slower than river's learn_one loop over them"
                    % format(n_rows, ","), None if r is None else 1 / r,
                    r is not None and r <= 1, "%.2fx river's speed"))
    r = ratio("gaussian", "predict_proba (batch)", "river predict_proba_one, row by row")
    results.append(("gaussian predict_proba >= 10x faster than river's predict_proba_one loop",
                    None if r is None else 1 / r, r is not None and 1 / r >= 10,
                    "%.1fx faster"))
    for workload, times in (("gaussian", 25), ("categorical", 20)):
        r = ratio(workload, "one row: predict_proba_one", "scikit-learn predict_proba on one row",
                  ours="naive_bayes predict_proba_one")
        results.append(("%s one row: >= %dx faster than scikit-learn predict_proba"
                        % (workload, times), None if r is None else 1 / r,
                        r is not None and 1 / r >= times, "%.1fx faster"))
    for operation in ("compile + predict_proba (batch)", "predict_proba (batch)"):
        r = ratio("kde", operation, "naive_bayes numeric='gaussian'",
                  ours="naive_bayes numeric='kde'")
        results.append(("kde %s <= 5x the Gaussian model's" % operation, r,
                        r is not None and r <= 5, "%.2fx"))
    r = ratio("aode", "predict_proba (batch)", "straightforward baseline")
    results.append(("AODE predict_proba <= 0.5x the straightforward AODE", r,
                    r is not None and r <= 0.5, "%.2fx"))
    for workload in dict.fromkeys(w for w, _, _, _, _ in table.rows if
                                  w.startswith("networks x")):
        for family in ("AODE", "TAN", "BayesNet"):
            r = ratio(workload, "predict_proba (batch)", "straightforward " + family,
                      ours="naive_bayes " + family)
            if r is not None:
                results.append(("%s: %s predict_proba <= 0.5x the straightforward one"
                                % (workload, family), r, r <= 0.5, "%.2fx"))
    for workload, operation, name, seconds, _ in table.rows:
        if workload == "wide":
            results.append(("wide: %s, %s, in seconds (< 10 s)" % (operation, name), seconds,
                            seconds < 10, "%.2f s"))
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
    rounded = getattr(table, "record_memory", {}).get("--numeric kde --significant-digits 3")
    if rounded is not None:
        results.append(("record of %s continuous rows with --significant-digits 3: "
                        "peak < 100 MB" % format(table.record_rows, ","), rounded / 1e6,
                        rounded < 100e6, "%.1f MB"))
    if getattr(table, "load", None):
        size, seconds, added = table.load
        results.append(("loading a model file: peak memory <= 5x its size", added / size,
                        added <= 5 * size, "%%.1fx (%.0f MB file, %.1f s)"
                        % (size / 1e6, seconds)))
    memory = getattr(table, "memory", None)
    if memory:
        peak = max(p for _, p in memory)
        flat = max(p for _, p in memory) / min(p for _, p in memory)
        results.append(("streaming fit: peak < 60 MB, independent of rows",
                        peak / 1e6, peak < 60e6 and flat < 1.1,
                        "%%.1f MB (x%.2f from %s to %s rows)"
                        % (flat, format(memory[0][0], ","), format(memory[-1][0], ","))))
    return results


WORKLOADS = ("categorical", "gaussian", "mixed", "kde", "aode", "networks", "wide", "text",
             "startup", "memory", "scale")


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
    parser.add_argument("--wide-columns", type=int, default=100000,
                        help="columns of the wide workload (100,000)")
    parser.add_argument("--text-documents", type=int,
                        help="Reuters documents per file for the text workload (all)")
    parser.add_argument("--no-peers", action="store_true",
                        help="skip the other libraries (a quick check that this runs)")
    parser.add_argument("--scale-rows", default="100000,300000,1000000",
                        help="comma-separated sizes of the scale workload "
                             "(100000,300000,1000000)")
    parser.add_argument("--scale-models", default="naive,auto,aode,tan,bayesnet",
                        help="comma-separated --model names of the scale workload "
                             "(naive,auto,aode,tan,bayesnet)")
    parser.add_argument("--scale-part", choices=("both", "cli", "library"), default="both",
                        help="the scale workload's command line, library or both (both)")
    parser.add_argument("--scale-json", help="the scale workload adds (or replaces) each "
                                             "run's figures in this JSON file")
    parser.add_argument("--module", help="the scale workload runs this naive_bayes.py "
                                         "(another version) instead")
    parser.add_argument("--only", help="comma-separated: %s (scale only when named: "
                                       "it takes tens of minutes)" % ", ".join(WORKLOADS))
    args = parser.parse_args(argv)
    PEERS["wanted"] = not args.no_peers
    wanted = set(args.only.split(",")) if args.only else set(WORKLOADS) - {"scale"}
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
    if "kde" in wanted:
        bench_kde(table, args.rows, args.repeats)
    if "aode" in wanted:
        bench_aode(table, max(1, args.rows // 10), args.repeats, sample)
    if "networks" in wanted:
        bench_networks(table, max(1, args.rows // 20), args.repeats, min(sample, 1000))
    if "wide" in wanted:
        bench_wide(table, args.wide_columns, args.repeats)
    if "text" in wanted:
        bench_text(table, args.repeats, args.text_documents)
    if "startup" in wanted:
        bench_startup(table, args.repeats)
    if "memory" in wanted and args.memory_rows and sys.platform != "win32":
        bench_memory(table, args.memory_rows)
    if "scale" in wanted and sys.platform != "win32":
        bench_scale(table, [int(n) for n in args.scale_rows.split(",")],
                    args.scale_models.split(","), args.module, args.scale_part,
                    args.scale_json)
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
