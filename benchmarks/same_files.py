"""Byte-identical model files: two versions of naive_bayes.py on a corpus of models.

    git show HEAD~1:naive_bayes.py > /tmp/old_naive_bayes.py
    python benchmarks/same_files.py /tmp/old_naive_bayes.py          # against this checkout
    python benchmarks/same_files.py OLD.py NEW.py --list             # name every model

A refactoring that promises no change in behaviour must write the same files.  The
corpus holds models of every feature kind and model family, fitted on fixed,
seeded data with and without weights (whole and fractional), on sequence and mapping
rows, with declared categories, missing values and features whose kind is still
undecided, built by fit, by partial_fit in batches and by merge, and an unfitted
model; and the files the command line's fit writes from CSV files as people have them
(missing cells, spaces around cells, CRLF line ends, quoted line breaks, decimal
commas, more rows than the sample that decides the kinds and than one batch) with
each --model.  Both versions fit each model and write it as save() writes it; the
script prints how many files are identical and names the ones that differ (exit
status 1).  Standard library only.
"""

import argparse
import contextlib
import importlib.util
import io
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def data(seed, rows=60):
    """Mixed rows: a category, a number, a count, a text, a number with gaps."""
    rng = random.Random(seed)
    X, y = [], []
    for i in range(rows):
        label = rng.choice(["a", "b", "c"])
        shift = {"a": 0.0, "b": 1.5, "c": 3.0}[label]
        X.append([rng.choice(["red", "green", "blue", None]),
                  round(rng.gauss(shift, 1.0), rng.choice([1, 3, 17])),
                  rng.randrange(0, 6) + (label == "c"),
                  " ".join(rng.choice(["spam", "ham", "eggs", "toast", label])
                           for _ in range(rng.randrange(0, 6))) if i % 7 else None,
                  rng.choice([None, rng.uniform(-5, 5), 2.5])])
        y.append(label)
    return X, y


def corpus(nb):
    """{name: model file text} of one version of the module."""
    X, y = data(1)
    weights = [random.Random(i).choice([1, 2, 0.5, 0.25, 3.75]) for i in range(len(X))]
    whole = [1 + i % 3 for i in range(len(X))]
    mixed = {0: "categorical", 1: "gaussian", 2: "poisson", 3: "text", 4: "kde"}
    record = {0: "categorical", 1: "discretized", 2: "categorical", 3: "ignore",
              4: "discretized"}
    cases = {
        "inferred kinds": lambda: nb.NaiveBayes().fit([r[:3] for r in X], y),
        "every kind": lambda: nb.NaiveBayes(features=mixed).fit(X, y),
        "every kind, weighted": lambda: nb.NaiveBayes(features=mixed).fit(
            X, y, sample_weight=weights),
        "every kind, whole weights": lambda: nb.NaiveBayes(features=mixed).fit(
            X, y, sample_weight=whole),
        "discretized and ignore": lambda: nb.NaiveBayes(features=record).fit(X, y),
        "discretized, 2 digits": lambda: nb.NaiveBayes(features=record,
                                                       significant_digits=2).fit(X, y),
        "kde silverman, weighted": lambda: nb.NaiveBayes(
            features=mixed, bandwidth="silverman").fit(X, y, sample_weight=weights),
        "categorical, declared": lambda: nb.CategoricalNB(categories={0: [
            "red", "green", "blue", "white"]}).fit([r[:1] + r[2:3] for r in X], y),
        "gaussian nb": lambda: nb.GaussianNB().fit([[r[1], r[2]] for r in X], y),
        "bernoulli text, top words": lambda: nb.NaiveBayes(
            features={0: "text"}, text_model="bernoulli", max_words=3).fit(
            [[r[3]] for r in X], y, sample_weight=weights),
        "mapping rows": lambda: nb.NaiveBayes().fit(
            [{k: v for k, v in zip("cnkts", r) if v is not None and k != "t"} for r in X], y),
        "undecided feature": lambda: nb.NaiveBayes().fit([[r[0], None] for r in X], y),
        "partial fit in batches": lambda: _batches(nb.NaiveBayes(features=mixed), X, y),
        "merge": lambda: nb.NaiveBayes(features=mixed).fit(X[:25], y[:25]).merge(
            nb.NaiveBayes(features=mixed).fit(X[25:], y[25:])),
        "aode": lambda: nb.AODE(features=record).fit(X, y),
        "aode, weighted, merged": lambda: nb.AODE(features=record).fit(
            X[:30], y[:30], sample_weight=weights[:30]).merge(nb.AODE(features=record).fit(
                X[30:], y[30:], sample_weight=weights[30:])),
        "aode, categorical only": lambda: nb.AODE().fit([r[:1] + r[2:3] for r in X], y),
        "unfitted": lambda: nb.NaiveBayes(alpha=0.5, features=mixed),
        "parameters changed": lambda: nb.NaiveBayes(features=mixed).fit(X, y).set_params(
            alpha=0.25, var_smoothing=0.01, ddof=1, class_prior="uniform"),
    }
    for name in ("breast-cancer", "vote", "iris", "glass"):
        path = ROOT / "examples" / "data" / (name + ".arff")
        if path.exists():
            cases["arff " + name] = lambda path=path: _arff_model(nb, path)
    files = {name: nb._json_text(make().to_dict()) for name, make in cases.items()}
    files.update(command_line_files(nb))
    return files


def csv_text(rows, seed, spaced=False, newline="\n", quoted=False, decimal="."):
    """A CSV file of ``rows`` rows: two categories (one with empty cells), two numbers
    with 1 and 4 decimals and a label; ``spaced``: a space after each comma;
    ``quoted``: one category quoted, with a line break in some cells; ``decimal``
    "," writes ;-separated cells with decimal commas."""
    rng = random.Random(seed)
    comma = ";" if decimal == "," else ","
    lines = [comma.join(["colour", "shape", "x", "z", "label"])]
    for i in range(rows):
        label = rng.choice(["yes", "no", "maybe"])
        shift = {"yes": 0.0, "no": 1.0, "maybe": 2.5}[label]
        shape = rng.choice(["round", "square", "flat"] + (["long"] if label == "no" else []))
        if quoted:
            shape = '"%s"' % (shape + "\nshape" if i % 9 == 0 else shape)
        cells = [rng.choice(["red", "green", "blue", ""]), shape,
                 "%.1f" % rng.gauss(shift, 1), "%.4f" % rng.gauss(-shift, 2), label]
        if decimal == ",":
            cells = [cell.replace(".", ",") for cell in cells]
        lines.append((comma + " " if spaced else comma).join(cells))
    return newline.join(lines) + newline


def command_line_files(nb):
    """{name: model file text} of fits by the command line (fit FILE --target label)."""
    files = {}
    cases = [("plain", csv_text(300, 2), ()),
             ("spaces around cells", csv_text(300, 3, spaced=True), ()),
             ("CRLF line ends", csv_text(300, 4, newline="\r\n"), ()),
             ("quoted line breaks", csv_text(300, 5, quoted=True), ()),
             ("decimal commas", csv_text(300, 6, decimal=","), ()),
             ("beyond the sample and a batch", csv_text(12500, 7), ()),
             ("beyond the sample, spaced", csv_text(12500, 8, spaced=True), ())]
    cases += [(model, csv_text(400, 9), ("--model", model))
              for model in ("naive", "aode", "tan", "bayesnet", "auto")]
    cases += [("--numeric discretized", csv_text(400, 9), ("--numeric", "discretized"))]
    with tempfile.TemporaryDirectory() as folder:
        for name, text, options in cases:
            data, model = os.path.join(folder, "data.csv"), os.path.join(folder, "m.json")
            with open(data, "w", newline="") as handle:
                handle.write(text)
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                nb.main(["fit", data, "--target", "label", "-o", model] + list(options))
            with open(model) as handle:
                files["command line: " + name] = handle.read()
    return files


def _batches(model, X, y):
    for start in range(0, len(X), 7):
        model.partial_fit(X[start:start + 7], y[start:start + 7])
    return model


def _arff_model(nb, path):
    """AODE fitted on an ARFF file as the command line fits one."""
    lines = nb._Lines(str(path))
    try:
        reader = nb._ArffReader(lines, str(path))
        rows = [values for _, values, _ in reader.rows()]
    finally:
        lines.close()
    names = [name for name, _, _ in reader.attributes[:-1]]
    categories = {name: values for name, kind, values in reader.attributes[:-1]
                  if kind == "nominal"}
    features = {name: "categorical" if kind == "nominal" else "discretized"
                for name, kind, _ in reader.attributes[:-1]}
    return nb.AODE(features=features, categories=categories).fit(
        [dict(zip(names, row[:-1])) for row in rows], [row[-1] for row in rows])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the other version of naive_bayes.py")
    parser.add_argument("new", nargs="?", default=str(ROOT / "naive_bayes.py"))
    parser.add_argument("--list", action="store_true", help="name every model")
    args = parser.parse_args(argv)
    old = corpus(load(args.old, "old_naive_bayes"))
    new = corpus(load(args.new, "new_naive_bayes"))
    different = [name for name in old if old[name] != new.get(name)]
    for name in old:
        if args.list or name in different:
            print("%-30s %s" % (name, "differs" if name in different else
                                "identical (%d bytes)" % len(old[name])))
    print("%d of %d model files byte-identical" % (len(old) - len(different), len(old)))
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
