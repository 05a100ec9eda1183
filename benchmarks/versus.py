"""Before and after: two versions of naive_bayes.py timed side by side, interleaved.

    git show 02da020:naive_bayes.py > /tmp/old_naive_bayes.py
    python benchmarks/versus.py /tmp/old_naive_bayes.py          # against this checkout
    python benchmarks/versus.py OLD.py NEW.py --rows 20000 --repeats 3

Both versions are loaded into one process under different names, and every repeat
runs the old and the new version of a workload in turn, so that the slow spells of a
shared machine fall on both alike (timing two whole benchmark runs one after the
other does not: this project's VM drifts by up to a factor of two).  The workloads
are those of bench.py that both versions can run; the command line and the import
are timed as processes.  Prints a Markdown table of medians and new/old ratios.
"""

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench  # noqa: E402


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def workloads(nb, rows):
    """{name: (function, rows)} for one version of the module."""
    cases = {}
    X, y = bench.categorical_data(rows)
    model = nb.CategoricalNB().fit(X, y)
    cases["categorical fit"] = (lambda: nb.CategoricalNB().fit(X, y), rows)
    cases["categorical predict_joint_log_proba"] = (lambda: model.predict_joint_log_proba(X),
                                                    rows)
    cases["categorical predict_proba"] = (lambda: model.predict_proba(X), rows)
    one = X[:2000]
    cases["categorical predict_proba_one"] = (lambda: [model.predict_proba_one(r) for r in one],
                                              len(one))
    G, gy = bench.gaussian_data(rows)
    gaussian = nb.GaussianNB().fit(G, gy)
    cases["gaussian fit"] = (lambda: nb.GaussianNB().fit(G, gy), rows)
    cases["gaussian predict_proba"] = (lambda: gaussian.predict_proba(G), rows)
    cases["gaussian predict_proba_one"] = (
        lambda: [gaussian.predict_proba_one(r) for r in G[:2000]], 2000)
    for title, (M, my) in (("titanic", bench.titanic_data(rows)),
                           ("watermelon", bench.watermelon_data(rows))):
        mixed = nb.NaiveBayes().fit(M, my)
        cases[title + " fit"] = (lambda M=M, my=my: nb.NaiveBayes().fit(M, my), rows)
        cases[title + " predict_proba"] = (lambda mixed=mixed, M=M: mixed.predict_proba(M),
                                           rows)
    K = [row[:5] for row in G[:rows // 5]]
    ky = gy[:rows // 5]
    for numeric in ("discretized", "kde"):
        fitted = nb.NaiveBayes(numeric=numeric).fit(K, ky)
        cases[numeric + " fit"] = (lambda numeric=numeric: nb.NaiveBayes(
            numeric=numeric).fit(K, ky), len(K))
        cases[numeric + " compile + predict_proba"] = (
            lambda fitted=fitted: fitted.set_params().predict_proba(K), len(K))
    weights = [(0.5, 1.0, 2.25, 3.0)[i % 4] for i in range(len(G))]
    cases["gaussian fit, fractional weights"] = (
        lambda: nb.GaussianNB().fit(G, gy, sample_weight=weights), rows)
    A, ay = bench.aode_data(rows // 10)
    aode = nb.AODE().fit(A, ay)
    cases["aode fit"] = (lambda: nb.AODE().fit(A, ay), len(A))
    cases["aode compile + predict_proba"] = (lambda: aode.set_params().predict_proba(A),
                                             len(A))
    cases["aode predict_proba"] = (lambda: aode.predict_proba(A), len(A))
    train, y_train = bench.reuters("train")
    test, _ = bench.reuters("test")
    for text_model in ("multinomial", "bernoulli"):
        def text(text_model=text_model):
            fitted = nb.NaiveBayes(features=["text"], text_model=text_model).fit(
                [[d] for d in train], y_train)
            return fitted.predict_proba([[d] for d in test])
        cases["text %s: tokenise + fit + predict" % text_model] = (text, len(train) + len(test))
    return cases


def process_medians(commands, repeats):
    """{name: median seconds} of whole processes, run in turn."""
    times = {name: [] for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - start)
    return {name: sorted(values)[len(values) // 2] for name, values in times.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the earlier naive_bayes.py")
    parser.add_argument("new", nargs="?", default=str(HERE.parent / "naive_bayes.py"),
                        help="the later one (default: this checkout's)")
    parser.add_argument("--rows", type=int, default=100000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", help="comma-separated parts of workload names to run "
                        "(the command line and the import are then skipped)")
    args = parser.parse_args(argv)
    wanted = args.only.split(",") if args.only else None
    versions = {"old": load(args.old, "naive_bayes_old"),
                "new": load(args.new, "naive_bayes_new")}
    cases = {tag: workloads(module, args.rows) for tag, module in versions.items()}
    print("| workload | before | after | after / before |\n| --- | ---: | ---: | ---: |")
    for name in cases["old"]:
        if wanted and not any(part in name for part in wanted):
            continue
        (old, rows), (new, _) = cases["old"][name], cases["new"][name]
        medians = bench.median_times({"old": old, "new": new}, args.repeats)
        print("| %s | %s | %s | %.2fx |"
              % (name, bench._duration(medians["old"] / rows),
                 bench._duration(medians["new"] / rows), medians["new"] / medians["old"]),
              flush=True)
    if wanted:
        return 0
    with tempfile.TemporaryDirectory() as folder:
        data = os.path.join(folder, "rows.csv")
        bench.write_csv(data, args.rows)
        copies = {}
        for tag, path in (("old", args.old), ("new", args.new)):
            copies[tag] = os.path.join(folder, tag)
            os.mkdir(copies[tag])
            with open(path, "rb") as source, \
                    open(os.path.join(copies[tag], "naive_bayes.py"), "wb") as target:
                target.write(source.read())
            subprocess.run([sys.executable, "-c", "import py_compile; py_compile.compile("
                            "'naive_bayes.py', doraise=True, cfile=__import__("
                            "'importlib.util').util.cache_from_source('naive_bayes.py'))"],
                           cwd=copies[tag], check=True)
        fits = process_medians(
            {tag: [sys.executable, os.path.join(copies[tag], "naive_bayes.py"), "fit", data,
                   "--target", "label", "-o", os.path.join(folder, tag + ".json")]
             for tag in copies}, args.repeats)
        print("| command line: fit a %s-row CSV (per row) | %s | %s | %.2fx |"
              % (format(args.rows, ","), bench._duration(fits["old"] / args.rows),
                 bench._duration(fits["new"] / args.rows), fits["new"] / fits["old"]))
        commands = {"bare": [sys.executable, "-S", "-E", "-c", "pass"]}
        for tag in copies:
            commands[tag] = [sys.executable, "-S", "-E", "-c",
                             "import sys; sys.path.insert(0, %r); import naive_bayes"
                             % copies[tag]]
        starts = process_medians(commands, args.repeats * 8)
        print("| import, added to python -S -E | %s | %s | %.2fx |"
              % (bench._duration(starts["old"] - starts["bare"]),
                 bench._duration(starts["new"] - starts["bare"]),
                 (starts["new"] - starts["bare"]) / (starts["old"] - starts["bare"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
