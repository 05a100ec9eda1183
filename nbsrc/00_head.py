"""Naive Bayes classification in one file, with no dependencies.

Copy this file into a project, or run it where NumPy cannot be installed: it needs
nothing but the Python standard library (CPython 3.8 or newer, or PyPy).

The math
--------
Bayes' rule gives the probability of class c for a row x = (x_1, ..., x_n)::

    P(c | x) = P(c) * P(x | c) / P(x)

The *naive* assumption is that the features are independent given the class, so
P(x | c) = P(x_1 | c) * ... * P(x_n | c), and the prediction is the class that
maximises the joint likelihood P(c) * prod_j P(x_j | c).  Everything is computed in log
space (a product of many small probabilities underflows to 0.0), and the posterior is
normalised with a max-shifted log-sum-exp.  The estimates, all derived from counts:

- prior: P(c) = (N_c + prior_alpha) / (N + K * prior_alpha), or a given ``class_prior``;
- categorical feature j: P(v | c) = (N_cjv + alpha) / (N_cj + alpha * S_j), where N_cj
  counts the class-c rows where feature j is present and S_j is the number of known
  values; a value never seen in training gets alpha / (N_cj + alpha * S_j), which is
  the Laplace fallback 1 / (N_c + S_j) at alpha = 1;
- Gaussian feature j: the normal density with the class's mean and variance (divisor
  N_c - ddof) plus var_smoothing times the feature's own variance (GaussianNB: times
  the largest variance of any feature, as scikit-learn);
- text: words counted per class (multinomial bag-of-words, Bernoulli set-of-words, or
  complement naive Bayes), with n-grams and stop words, or weighted {word: count} bags;
- Poisson counts: lam_c = (sum of x in class c + alpha) / N_cj;
- numbers may also be discretized into bins (Fayyad and Irani's MDL cut points, as
  Weka) or modelled by a kernel density estimate (bandwidth as scipy's).

Missing values (None, float NaN, an absent key) are skipped when fitting and predicting.

The textbook example (Li Hang, *Statistical Learning Methods*, example 4.2): with
Laplace smoothing on likelihoods and prior, x = (2, "S") belongs to class -1.

>>> X = [(1, "S"), (1, "M"), (1, "M"), (1, "S"), (1, "S"),
...      (2, "S"), (2, "M"), (2, "M"), (2, "L"), (2, "L"),
...      (3, "L"), (3, "M"), (3, "M"), (3, "L"), (3, "L")]
>>> y = [-1, -1, 1, 1, -1, -1, -1, 1, 1, 1, 1, 1, 1, 1, -1]
>>> model = CategoricalNB(alpha=1, prior_alpha=1).fit(X, y)
>>> model.classes_
[-1, 1]
>>> model.predict_one((2, "S"))
-1
>>> [round(math.exp(j), 7) for j in model.predict_joint_log_proba([(2, "S")])[0]]
[0.0610022, 0.0326797]
>>> {c: round(p, 4) for c, p in model.predict_proba_one((2, "S")).items()}
{-1: 0.6512, 1: 0.3488}

Rows may be sequences or mappings, and one model may mix categorical and numeric
(Gaussian) features; numbers are Gaussian unless declared otherwise:

>>> weather = [{"outlook": "sunny", "temp": 30.0}, {"outlook": "rain", "temp": 18.5},
...            {"outlook": "sunny", "temp": 27.0}, {"outlook": "rain", "temp": 16.0}]
>>> NaiveBayes().fit(weather, ["beach", "home", "beach", "home"]).feature_kinds_
{'outlook': 'categorical', 'temp': 'gaussian'}

The file is also a command line for CSV and ARFF files::

    $ python naive_bayes.py cv examples/data/titanic.csv --target survived
    $ python naive_bayes.py fit titanic.csv --target survived -o titanic.json
    $ python naive_bayes.py predict titanic.json new.csv --proba
    $ python naive_bayes.py report titanic.json titanic.csv -o titanic.html

The file is built from small parts (nbsrc/ in the project's repository, joined by
tools/amalgamate.py); it reads top to bottom as they do, each opening with a banner:

    00_head.py          this map, the imports, NaiveBayesError
    01_numeric.py       numeric helpers: exact sums (dyadic rationals), logs, missing
                        values, canonical order, messages, progress (ProgressStep)
    02_posterior.py     priors, the one smoothing formula and its hierarchical form
                        ("hdp"), log-sum-exp, zeros and point masses
    03_file_values.py   the model file's building blocks: values and exact numbers as
                        JSON, checked field by field, streamed
    04_distributions.py what one feature tells about the class: _Distribution (exact,
                        mergeable statistics per class) and _Scorer (compiled)
    05_categorical.py   value counts               06_normal.py     normal sums
    07_words.py         word counts (text)         08_poisson.py    Poisson sums
    09_records.py       records of values (for bins and densities)
    10_mdl.py           MDL bins: Fayyad and Irani's cut points, as Weka's
    11_kde.py           kernel density estimates, fast and within 2e-7 of the exact
    12_pairs.py         pairwise counts (AODE)     13_rows.py       rows (the networks)
    14_kinds.py         feature kinds: adapters from columns of rows to distributions;
                        the registry _KINDS
    15_checks.py        input checks: parameters, rows, labels, weights; decision rules
    16_families.py      model families: the interface; naive Bayes' statistics
    17_fast_path.py     naive Bayes compiled: per-row sums by builtins
    18_aode.py          AODE and its variants      19_networks.py   TAN, BayesNet, KDB
    20_weighted.py      AutoBayes' own members: weighted naive Bayes (one weight per
                        feature, learned), the numbers taken together, one tree
    21_mixture.py       AutoBayes' mixture of the family's models
    22_classifier.py    _Classifier: fit, predict, merge, forget, explain, the file
    23_models.py        NaiveBayes, CategoricalNB, GaussianNB, AODE, TAN, BayesNet, KDB
    24_autobayes.py     AutoBayes; the registry of classifiers _MODELS
    25_model_file.py    the whole model file: written atomically, read item by item
    26_reports.py       evaluation, cross-validation and explanations as data
    27_pictures.py      SVG plots of features, structures and evaluations
    28_html.py          the HTML report and the notebook view
    29_csv.py           reading CSV files as people have them
    30_arff.py          ARFF, Weka's file format
    31_tables.py        what each column holds; Table, read_csv, read_arff
    32_cli.py           the command line: argparse -> library calls -> printing
"""

__all__ = ["NaiveBayes", "CategoricalNB", "GaussianNB", "AODE", "TAN", "BayesNet", "KDB",
           "AutoBayes", "NaiveBayesError", "NotFittedError", "read_csv", "read_arff", "Table",
           "cross_validate", "evaluate", "EvaluationReport", "ProgressStep", "report_html",
           "main"]
__version__ = "0.2.0"

import sys

# The version check comes before anything that Python 3.8 added (math.dist, isqrt,
# accumulate's initial=), so that an older Python says what is wrong in one line; the
# whole file must therefore stay valid syntax for Python 3.6 and 3.7 (no ":=", no "/"
# parameters), since a SyntaxError would stop the file before any line of it runs.
if sys.version_info < (3, 8):
    _TOO_OLD = ("naive_bayes.py needs Python 3.8 or newer; this is Python %d.%d.%d (%s)"
                % (sys.version_info[:3] + (sys.executable or "python",)))
    if __name__ == "__main__":            # python naive_bayes.py, python -m naive_bayes
        sys.stderr.write(_TOO_OLD + "\n")
        sys.exit(1)
    raise ImportError(_TOO_OLD)

import gc
import math
import threading
from collections import Counter, defaultdict, namedtuple
from collections.abc import Mapping
from bisect import bisect_left, bisect_right
from itertools import accumulate, chain, compress, islice, repeat
from math import (dist, exp, factorial, frexp, fsum, hypot, isfinite, isqrt, ldexp, lgamma,
                  log, sqrt)
from functools import partial, reduce
from operator import add, eq, getitem, itemgetter, lt, mul, neg, sub, truediv

# Importing the module should cost a bare interpreter little (a few milliseconds), so
# what only some calls need is imported in them: fractions (exact statistics), numbers
# (values that are neither int nor float), os, json, csv, argparse (files and the
# command line).


class NaiveBayesError(ValueError):
    """Bad input or a bad model file: the message names the call, argument and row.

    Besides the message, an error about one row carries it as data, for programs (the
    command line among them) that report it their own way: ``call`` ("fit()"),
    ``argument`` ("X", "y", "sample_weight" or None), ``row`` (its index in that
    argument, or None) and ``reason`` (what follows "X row 3" in the message).

    >>> try:
    ...     NaiveBayes().fit([["a", 1.0], ["b"]], [0, 1])
    ... except NaiveBayesError as error:
    ...     print(error)
    ...     print(error.argument, error.row, repr(error.reason))
    fit(): X row 1 has 1 values, expected 2
    X 1 ' has 1 values, expected 2'
    """

    def __init__(self, message, call=None, argument=None, row=None, reason=None):
        super().__init__(message)
        self.call = call
        self.argument = argument
        self.row = row
        self.reason = reason


def _row_error(call, argument, row, reason):
    """The NaiveBayesError for one bad row: "fit(): X row 3<reason>", the reason
    starting with ", " or a space ("has 4 values" is stored as " has 4 values")."""
    if not reason.startswith(","):
        reason = " " + reason
    return NaiveBayesError("%s: %s row %d%s" % (call, argument, row, reason),
                           call=call, argument=argument, row=row, reason=reason)
