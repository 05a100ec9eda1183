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
  N_c - ddof) plus var_smoothing times the largest variance of any Gaussian feature;
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

The sections of the file, top to bottom (each opens with a banner comment):

    Numeric helpers       exact sums (dyadic rationals), logs, missing values, messages
    The posterior         priors, the one smoothing formula, log-sum-exp, zeros and
                          point masses, decision rules (thresholds, costs, reject)
    The model file's      values and exact numbers as JSON, checked field by field
      building blocks
    Distributions         per feature and class label: exact, mergeable statistics and
                          their compiled scorers (categorical, normal, words, Poisson,
                          MDL bins, kernel densities, pairwise counts)
    Feature kinds         adapters from columns of rows to distributions; _KINDS
    Input checks          parameters, rows, labels, weights
    Model families        statistics -> compiled model -> joint log-likelihoods: naive
                          Bayes (with its fast path) and AODE
    The classifiers       NaiveBayes, CategoricalNB, GaussianNB, AODE; _MODELS
    The model file        the whole file: written atomically, read item by item
    Reports               evaluation, cross-validation and explanations as data
    Pictures              SVG plots of features and structures, the HTML report and
                          the notebook view
    Reading files         CSV and ARFF as people have them
    The command line      argparse -> library calls -> printing
"""

__all__ = ["NaiveBayes", "CategoricalNB", "GaussianNB", "AODE", "TAN", "BayesNet",
           "AutoBayes", "NaiveBayesError", "read_csv", "read_arff", "Table", "cross_validate",
           "evaluate", "EvaluationReport", "report_html", "main"]
__version__ = "0.2.0"

import gc
import math
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from bisect import bisect_left, bisect_right
from itertools import accumulate, chain, compress, islice, repeat
from math import (dist, exp, factorial, frexp, fsum, hypot, isfinite, isqrt, ldexp, lgamma,
                  log, sqrt)
from functools import reduce
from operator import add, getitem, itemgetter, lt, mul, neg, sub, truediv

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


# ----------------------------------------------------------------------------------
# Numeric helpers
# ----------------------------------------------------------------------------------

INF = float("inf")
_FLOAT_MAX = sys.float_info.max
_FLOAT_MAX_EXACT = int(_FLOAT_MAX)       # for comparisons with exact counts
_FLOAT_INT = frozenset((float, int))
_FLOAT = frozenset((float,))
_FLOAT_NONE = frozenset((float, type(None)))
_PLAIN_REALS = frozenset((float, int, type(None)))
_INT = frozenset((int,))
_STR = frozenset((str,))
_LOG_2 = log(2.0)
_LOG_2PI = log(2.0 * math.pi)


def _log(x):
    """Natural log that maps 0 to -inf instead of raising."""
    return log(x) if x > 0 else -INF


def _ratio(numerator, denominator):
    """numerator / denominator exactly: an int when it divides, else a Fraction."""
    if numerator % denominator == 0:
        return numerator // denominator
    from fractions import Fraction
    return Fraction(numerator, denominator)


def _common_denominator(numbers):
    """The least common denominator of exact weights (ints, Fractions or floats; 1
    for ints alone)."""
    from fractions import Fraction
    unit = 1
    for number in numbers:
        if type(number) is not int:
            d = Fraction(number).denominator
            unit = unit * d // math.gcd(unit, d)
    return unit


def _scaled_integers(xs):
    """Return (ints, shift) with xs[i] == ints[i] / 2**shift exactly; xs are floats.

    Every float is an integer times a power of two, and the smallest nonzero magnitude
    has the finest power, so one shift turns the whole column into integers.  None when
    the column spans too many binades for one float shift (an exact slow path follows).
    A NaN or an infinity makes int() raise, so callers need not look for them first.
    """
    smallest = min(map(abs, xs))
    if not smallest:
        smallest = min(filter(None, map(abs, xs)), default=0.0)
        if not smallest:
            return [0] * len(xs), 0
    shift = max(0, 53 - frexp(smallest)[1])
    try:
        return list(map(int, map(ldexp, xs, repeat(shift)))), shift
    except OverflowError:                 # too many binades apart, or an infinity
        if all(map(isfinite, xs)):
            return None
        raise


# Exact sums of floats are dyadic rationals: m / 2**k for integers m and k >= 0.  As
# (m, k) pairs they add with a shift and an integer addition (no gcd, unlike Fraction).

def _dyadic(number, k=0):
    """An exact int or dyadic Fraction, divided by 2**k, as a pair (m, k)."""
    if type(number) is int:
        return number, k
    return number.numerator, k + number.denominator.bit_length() - 1


def _dyadic_sum(a, b):
    """a + b for (m, k) pairs."""
    (m, k), (n, j) = a, b
    if k == j:
        return m + n, k
    if k < j:
        return (m << (j - k)) + n, j
    return m + (n << (k - j)), k


def _fraction(pair):
    """An (m, k) pair as an exact number (an int when k is 0, else a Fraction)."""
    if not pair[1]:
        return pair[0]
    from fractions import Fraction
    return Fraction(pair[0], 1 << pair[1])


class _Weights(list):
    """Row weights as the caller gave them (ints or floats, finite and > 0): the true
    weights every feature kind sees.  ``scaled`` holds the same weights as (integers,
    shift), integers[i] / 2**shift exactly, so that the library's distributions sum
    them exactly by integer arithmetic without converting them again."""

    __slots__ = ("scaled",)

    def subset(self, keep):
        """The weights where keep (a list of bools) is true, scaled form included."""
        integers, shift = self.scaled
        subset = _Weights(compress(self, keep))
        subset.scaled = list(compress(integers, keep)), shift
        return subset

    def part(self, start, stop):
        """The weights of rows start..stop - 1."""
        integers, shift = self.scaled
        part = _Weights(self[start:stop])
        part.scaled = integers[start:stop], shift
        return part


def _weight_integers(weights):
    """(integers, shift) with weights[i] == integers[i] / 2**shift exactly, for
    weights that are ints, floats or Fractions with power-of-2 denominators (every
    float is one); None for a Fraction with any other denominator."""
    scaled = getattr(weights, "scaled", None)
    if scaled is not None:
        return scaled
    types = set(map(type, weights))
    if types <= _INT:
        return list(weights), 0
    if types <= _FLOAT_INT:
        floats = list(map(float, weights))
        if all(map(float.is_integer, floats)):
            return list(map(int, floats)), 0
        scaled = _scaled_integers(floats)
        if scaled is not None:
            return scaled
        from fractions import Fraction
        weights = list(map(Fraction, floats))          # spanning > 900 binades
    fractions = [w for w in weights if type(w) is not int and type(w) is not float]
    if any(w.denominator & (w.denominator - 1) for w in fractions):
        return None                       # a denominator that is not a power of 2
    shift = max([w.denominator.bit_length() - 1 for w in fractions], default=0)
    integers = []
    for w in weights:
        if type(w) is float:
            w = _ratio(*w.as_integer_ratio())
        integers.append(w << shift if type(w) is int else
                        w.numerator << (shift - w.denominator.bit_length() + 1))
    return integers, shift


def _exact_sums(xs, weights=None):
    """Return (sum w, sum w*x, sum w*x*x) over finite floats xs, exactly: the count
    an int or Fraction, the sums (m, k) pairs meaning m / 2**k.

    Exact sums make the statistics independent of the order of the rows, of how they
    were split into batches, and of merging: fit, partial_fit and merge agree bit for
    bit.  They are also the stable way to a variance (no cancellation in sum x^2 -
    (sum x)^2 / n), for any count and any spread of means.  ``weights``: None for
    weight 1, or exact weights (see _weight_integers).
    A NaN or an infinity among xs raises ValueError or OverflowError.
    """
    if weights is None and len(xs) <= 4:  # a few values (partial_fit row by row)
        s1 = s2 = (0, 0)
        for x in xs:
            m, d = x.as_integer_ratio()   # ValueError or OverflowError for NaN or inf
            k = d.bit_length() - 1
            s1 = _dyadic_sum(s1, (m, k))
            s2 = _dyadic_sum(s2, (m * m, 2 * k))
        return len(xs), s1, s2
    scaled = _scaled_integers(xs)
    if scaled is None:                    # values more than 1024 binades apart
        from fractions import Fraction
        ints, shift = list(map(Fraction, xs)), 0
    else:
        ints, shift = scaled
    if weights is None:
        n = len(ints)
        s1 = _dyadic(sum(ints), shift)
        s2 = _dyadic(sum(map(mul, ints, ints)), 2 * shift)
    else:
        scaled_weights = _weight_integers(weights)
        if scaled_weights is None:        # weights of any denominator: as Fractions
            from fractions import Fraction
            weights = list(map(Fraction, weights))
            n = sum(weights)
            weighted = list(map(mul, weights, ints))
            scale = Fraction(1, 1 << shift)
            return n, sum(weighted) * scale, sum(map(mul, weighted, ints)) * scale * scale
        weights, weight_shift = scaled_weights
        n = _ratio(sum(weights), 1 << weight_shift)
        weighted = list(map(mul, weights, ints))
        s1 = _dyadic(sum(weighted), shift + weight_shift)
        s2 = _dyadic(sum(map(mul, weighted, ints)), 2 * shift + weight_shift)
    return n, s1, s2


def _exact_moments(xs, weights=None):
    """(sum w, sum w x, sum w x^2) over finite floats xs as exact numbers: the count an
    int or Fraction, the sums Fractions (see _exact_sums; weights of any denominator)."""
    from fractions import Fraction
    if not xs:
        return sum(weights or ()), Fraction(0), Fraction(0)
    n, s1, s2 = _exact_sums(xs, weights)
    return n, Fraction(_fraction(s1) if type(s1) is tuple else s1), \
        Fraction(_fraction(s2) if type(s2) is tuple else s2)


def _dyadic_text(pair):
    """An (m, k) pair as the model file writes an exact number: an int, or "p/q" in
    lowest terms (q a power of 2)."""
    m, k = pair
    if k and m:
        k -= min(k, (m & -m).bit_length() - 1)      # drop common factors of 2
        m = pair[0] >> (pair[1] - k)
    if not k or not m:
        return m
    return "%d/%d" % (m, 1 << k)


def _quotient(a, b):
    """a / b for ints, b > 0, correctly rounded; +-inf beyond the float range."""
    try:
        return a / b
    except OverflowError:
        return INF if a > 0 else -INF


def _float(x):
    """An exact number as a float: +-inf when it is too large for one."""
    try:
        return float(x)
    except OverflowError:
        return INF if x > 0 else -INF


def _plain(count):
    """A count as an int when integral, else a float (inf beyond the float range)."""
    if type(count) is int:
        return count
    return int(count) if count == int(count) else _float(count)


def _number(x):
    """x as a float if it is a real number other than bool, else None; an int too
    large for a float becomes +-inf (and is then rejected as not finite)."""
    if type(x) is float:
        return x
    from numbers import Real
    if isinstance(x, Real) and not isinstance(x, bool):
        try:
            return float(x)
        except (OverflowError, ValueError, TypeError):
            try:
                return INF if x > 0 else -INF
            except Exception:             # an odd Real whose comparisons fail
                return None
    return None


def _finite_or_missing(x):
    """A value of a numeric feature as a finite float, or None when it is missing
    (None, NaN of any type, pandas.NA); _BadValue for anything else."""
    if type(x) is not float:
        if _is_missing(x):
            return None
        number = _number(x)
        if number is None:
            raise _BadValue(x, "a real number")
        x = number
    if x != x:
        return None
    if not isfinite(x):
        raise _BadValue(x, "a finite number")
    return x


def _log_exact(x):
    """Natural log of an exact non-negative number (int, Fraction, float), -inf at 0.
    Correctly rounded through float when x fits one; from numerator and denominator
    when it does not, so no count or variance is ever too large or too small."""
    if x <= 0:
        return -INF
    f = _float(x)
    if 1e-300 < f < INF:
        return log(f)
    if type(x) is int:
        return log(x)                     # math.log takes ints of any size
    return log(x.numerator) - log(x.denominator)


def _log_plus(count, alpha):
    """log(count + alpha) for an exact count and a float (or exact) alpha, without
    overflow."""
    try:
        total = float(count) + alpha
    except OverflowError:
        total = INF
    if total < INF:
        return log(total) if total > 0 else -INF
    from fractions import Fraction
    return _log_exact(Fraction(count) + Fraction(alpha))


def _is_missing(value):
    """True for the spellings of a missing value: None, any NaN (float, NumPy,
    Decimal: the one value not equal to itself) and pandas.NA."""
    if value is None:
        return True
    kind = type(value)
    if kind is str or kind is int:
        return False
    if kind.__name__ == "NAType":         # pandas.NA, whose comparisons are NA
        return True
    try:
        return bool(value != value)
    except Exception:                     # an odd __ne__: not a missing value
        return False


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _sorted_if_orderable(items):
    """items sorted when they are mutually orderable, else in the order given."""
    items = list(items)
    try:
        return sorted(items)
    except Exception:                     # TypeError, or an odd __lt__ (Decimal NaN)
        return items


def _round_to_digits(digits):
    """A function rounding floats to ``digits`` significant decimal digits (None:
    none), deterministic, so that counts of rounded values still merge exactly."""
    if digits is None:
        return None
    form = "%%.%dg" % digits
    return lambda x: float(form % x)


_CANONICAL_RANKS = {bool: 0, int: 1, float: 1, str: 2, bytes: 3, tuple: 4}


def _canonical(value):
    """A sort key that orders values of any mix of types the same way every time:
    by kind (booleans, numbers, strings, bytes, tuples, then anything else by its
    type's name), then by value.  The model file writes values in this order, so
    that the same statistics give the same bytes however the rows arrived."""
    kind = type(value)
    rank = _CANONICAL_RANKS.get(kind)
    if rank == 4:
        return 4, tuple(map(_canonical, value))
    if rank is not None:
        return rank, value
    from numbers import Number
    if isinstance(value, Number) and not isinstance(value, complex):
        return 1, value                   # Fraction, Decimal: among the numbers
    return 5, kind.__module__ + "." + kind.__qualname__, _shown(value, 200)


def _canonical_value(value):
    """_canonical, with every missing value (None, NaN) first and equal to each other."""
    return (-1,) if _is_missing(value) else _canonical(value)


def _canonical_row(row):
    """A sort key of a row (a sequence, or a mapping by its items' keys)."""
    if isinstance(row, Mapping):
        return (1,) + tuple(sorted((_canonical_value(key), _canonical_value(value))
                                   for key, value in row.items()))
    return (0,) + tuple(map(_canonical_value, row))


def _stratified_sample(labels, size, seed):
    """The positions, in increasing order, of ``size`` of the labels: each class's
    share of them in proportion to its rows (the largest remainders rounded up, the
    earlier class first among equal ones), its rows picked by a seeded shuffle."""
    import random
    rng = random.Random(seed)
    by_class = defaultdict(list)
    for i, label in enumerate(labels):
        by_class[label].append(i)
    classes = _sorted_if_orderable(by_class)
    quotas = {label: len(by_class[label]) * size // len(labels) for label in classes}
    remainders = sorted(classes, key=lambda label: -(len(by_class[label]) * size
                                                     % len(labels)))
    for label in remainders[:size - sum(quotas.values())]:
        quotas[label] += 1
    kept = []
    for label in classes:
        members = by_class[label]
        rng.shuffle(members)
        kept.extend(members[:quotas[label]])
    return sorted(kept)


def _stratified_folds(labels, folds, seed):
    """Fold number of each row: every class dealt round-robin over the folds after a
    seeded shuffle, so each fold holds about 1/folds of every class."""
    import random
    rng = random.Random(seed)
    by_class = defaultdict(list)
    for i, label in enumerate(labels):
        by_class[label].append(i)
    assignment = [0] * len(labels)
    position = 0
    for label in _sorted_if_orderable(by_class):
        members = by_class[label]
        rng.shuffle(members)
        for i in members:
            assignment[i] = position % folds
            position += 1
    return assignment


def _shown(value, limit=60):
    """repr(value) for a message, cut to limit characters (never raises)."""
    try:
        text = repr(value)
    except Exception:                     # an odd __repr__, or an int of 5,000 digits
        return "<unprintable>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _article(word):
    """'an' before a word that starts with a vowel letter (AODE), else 'a'."""
    return "an" if word[:1].upper() in "AEIOU" else "a"


def _describe(value):
    """A value for an error message: its type and its (cut) repr, on one line."""
    return "%s %s" % (type(value).__name__, _shown(value))


def _one_line(error):
    """An error message on one line (a column name may hold a newline)."""
    return " ".join(str(error).splitlines()) or type(error).__name__


def _quote(text):
    """A value as it would be typed on a shell command line."""
    import shlex
    return shlex.quote(str(text))


def _width(text):
    """Terminal columns a string takes: East Asian wide characters take two."""
    import unicodedata
    text = str(text)
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _left(text, width):
    """str(text) padded on the right to width terminal columns."""
    return str(text) + " " * (width - _width(text))


def _right(text, width):
    return " " * (width - _width(text)) + str(text)


def _clip(value, width=30):
    """A value for a one-line label: newlines folded, text cut to ``width`` terminal
    columns."""
    text = " ".join(str(value).split())
    if _width(text) <= width:
        return text
    kept, used = [], 0
    for character in text:
        used += _width(character)
        if used > width - 3:
            break
        kept.append(character)
    return "".join(kept) + "..."


def _counted(n, thing):
    """'1 cell', '2 cells'."""
    return "%s %s%s" % (format(n, ","), thing, "" if n == 1 else "s")


class _BadValue(Exception):
    """Raised inside counting and scoring; the caller adds the call, row and feature."""

    def __init__(self, value, expected):
        super().__init__(value, expected)
        self.value = value
        self.expected = expected


class _RowError(Exception):
    """A problem with one row; the caller adds the call and the row number (and, for
    a row of the wrong width, ``width``: its number of values)."""

    def __init__(self, reason, width=None):
        super().__init__(reason)
        self.width = width


# Long work (cross-validation's folds, a structure search's steps, a model file's
# items) says how far it is through _progress; the command line listens while a
# command runs (see _Progress) and shows it on stderr.  Nobody listens otherwise, and
# then a report costs a global lookup: the library itself never prints.
_progress_listener = None


def _progress(stage, done=None, total=None):
    """Report that long work is at step ``done`` (of ``total``) of ``stage``, a
    phrase such as "fold" (stages reported after it are parts of its previous step);
    without ``done``, that the stage is over."""
    listener = _progress_listener
    if listener is not None:
        listener(stage, done, total)


# ----------------------------------------------------------------------------------
# The posterior: priors, the one smoothing formula, log-sum-exp, and the rule for
# zero probabilities and point masses
# ----------------------------------------------------------------------------------

def _log_smoothed(counts, total, alpha, size):
    """[log((n + alpha) / (total + alpha * size)) for n in counts]: Lidstone smoothing
    (Laplace at alpha = 1, maximum likelihood at 0), the one formula behind every
    categorical, word, bin and prior probability.  ``size`` is the number of outcomes.

    With alpha = 0 and nothing counted (total = 0) the estimate is the limit alpha ->
    0+, the uniform 1 / size.  Counts are exact (ints or Fractions) and may exceed the
    float range; alpha may be any finite float >= 0.

    >>> [round(math.exp(p), 4) for p in _log_smoothed([3, 0], 3, 1.0, 2)]   # 4/5, 1/5
    [0.8, 0.2]
    """
    if not total and not alpha:
        return [-log(size)] * len(counts)
    product = alpha * size
    if product == INF:                    # alpha * size beyond the float range
        from fractions import Fraction
        product = Fraction(alpha) * size
    denominator = _log_plus(total, product)
    if alpha > 0 and _INT.issuperset(map(type, counts)) and \
            max(counts, default=0) < 2 ** 52 and total < 2 ** 52 and product < 2 ** 52:
        return list(map(sub, map(log, map(add, counts, repeat(alpha))),
                        repeat(denominator)))
    return [_log_plus(n, alpha) - denominator for n in counts]


def _log_prior(classes, class_count, params):
    """log P(c) for each class: smoothed counts, "uniform", or the given class_prior."""
    prior = params.get("class_prior")
    if prior is None:
        return _log_smoothed([class_count[c] for c in classes],
                             sum(class_count.values()), params.get("prior_alpha", 0.0),
                             len(classes))
    if isinstance(prior, str):            # "uniform"
        return [-log(len(classes))] * len(classes)
    return [_log(float(prior[c])) for c in classes]


class _InfiniteJoint(list):
    """Joint log-likelihoods that hold an infinity (see _joint_with_infinities), with
    the finite scores that decide the posterior in ``effective``."""

    __slots__ = ("effective",)


def _joint_with_infinities(vectors):
    """Per-class joint log-likelihoods from per-feature vectors, when some are infinite.

    A zero probability (-inf) or a point-mass density (+inf) is counted, not added:
    each class gets (number of +inf terms - number of -inf terms, sum of the finite
    terms).  This is the limit of replacing every zero by a common tiny epsilon and
    every infinite density by 1/epsilon: the classes with the largest count share the
    posterior in proportion to exp(finite sum); the others get probability 0.  The
    reported joint is the finite sum, or +inf / -inf for a positive / negative count.
    """
    orders = []
    finite = []
    for terms in zip(*vectors):
        order = terms.count(INF) - terms.count(-INF)
        total = sum([t for t in terms if t != INF and t != -INF])
        if total == -INF:                 # the finite terms themselves overflowed
            order -= 1
            total = 0.0
        elif total == INF:
            order += 1
            total = 0.0
        orders.append(order)
        finite.append(total)
    top = max(orders)
    joint = _InfiniteJoint([f if o == 0 else (INF if o > 0 else -INF)
                            for o, f in zip(orders, finite)])
    joint.effective = [f if o == top else -INF for o, f in zip(orders, finite)]
    return joint


def _all_finite(joints):
    """True when no joint log-likelihood of any row is infinite (or NaN)."""
    total = sum(map(sum, joints))
    return total - total == 0


def _deciding_scores(joint):
    """The joint log-likelihoods that decide the posterior (see _joint_with_infinities)."""
    return joint.effective if type(joint) is _InfiniteJoint else joint


def _log_sum_exp(scores):
    """log(sum(exp(s))), max-shifted so that nothing overflows; -inf for no mass."""
    top = max(scores)
    if top == -INF:
        return -INF
    return top + log(math.fsum([exp(s - top) for s in scores]))


_SOFTMAX_COLUMNS = 4       # classes up to which _posteriors goes column by column


def _posteriors(joints, logs=False):
    """P(c | x) (or log P(c | x)) for each row of joint log-likelihoods: the one
    softmax of the library.  Max-shifted exponentials are normalised column by column
    with builtins, without a Python loop over the rows (with more than
    _SOFTMAX_COLUMNS classes, row by row: a few long maps per row beat many short
    columns); the shift comes first, (s -
    top) - log(total), so that large joints lose no digits.  Rows holding an infinity
    are normalised over their deciding scores (see _joint_with_infinities)."""
    if len(joints) == 1:                  # one row: the same arithmetic, less set-up
        return [_posterior(joints[0], logs)]
    if not joints:
        return []
    if not _all_finite(joints):
        joints = list(map(_deciding_scores, joints))
    if len(joints[0]) > _SOFTMAX_COLUMNS:
        # many classes: row by row, a few builtin maps over a long row each (the
        # same operations in the same order as by columns, so the same numbers)
        out = []
        append = out.append
        if logs:
            for joint in joints:
                shifted = list(map(sub, joint, repeat(max(joint))))
                log_total = log(sum(map(exp, shifted)))
                append(list(map(sub, shifted, repeat(log_total))))
            return out
        for joint in joints:
            exps = list(map(exp, map(sub, joint, repeat(max(joint)))))
            append(list(map(truediv, exps, repeat(sum(exps)))))
        return out
    columns = list(zip(*joints))
    tops = list(map(max, joints))
    shifted = [list(map(sub, column, tops)) for column in columns]
    exps = [list(map(exp, column)) for column in shifted]
    totals = list(map(sum, zip(*exps)))
    if logs:
        log_totals = list(map(log, totals))
        return list(map(list, zip(*[map(sub, column, log_totals) for column in shifted])))
    return list(map(list, zip(*[map(truediv, column, totals) for column in exps])))


def _posterior(scores, logs=False):
    """_posteriors of one row."""
    total = sum(scores)
    if total - total != 0:
        scores = _deciding_scores(scores)
    top = max(scores)
    if logs:
        shifted = [s - top for s in scores]
        log_total = log(sum([exp(s) for s in shifted]))
        return [s - log_total for s in shifted]
    exps = [exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _best(joints):
    """The index of the most probable class of each row (ties: the earlier class)."""
    if not _all_finite(joints):
        joints = list(map(_deciding_scores, joints))
    return list(map(list.index, joints, map(max, joints)))


# ----------------------------------------------------------------------------------
# The model file's building blocks: values and exact numbers as JSON
#
# Labels, values and names are written as JSON scalars, never as object keys (which
# JSON turns into strings), so 1, "1", 1.0 and True come back as what they were; a
# tuple is {"tuple": [...]}, an infinite float {"float": "inf"}, a Fraction
# {"fraction": "1/3"} and a Decimal {"decimal": "1.10"}.  Counts and sums are exact:
# an int, or a fraction "p/q" whose q is a power of 2 (every count is a sum of float
# weights, and every float is such a fraction).  Reading takes time linear in the
# text: numbers are bounded in length and no arbitrary denominators are accepted.
# Each distribution writes and validates its own statistics with these helpers; the
# whole file is put together in "The model file" below.
# ----------------------------------------------------------------------------------


FORMAT = "naive_bayes"
FORMAT_VERSION = 1
_MAX_DIGITS = 4000        # longest exact number in a file (legitimate ones: ~1,700)


def _encode(value, what, call="to_dict()"):
    """A label, value or name as JSON data."""
    if value is None or value is True or value is False:
        return value
    kind = type(value)
    if kind is int and value.bit_length() > 13000:      # JSON text would refuse it
        raise NaiveBayesError("%s: %s is an int of more than 3,900 digits, too long for "
                              "the model file" % (call, what), call=call)
    if kind is int:
        return value
    if kind is str:
        return value if value.isascii() or not _has_surrogates(value) else \
            {"codepoints": list(map(ord, value))}
    if kind.__module__ == "numpy" and hasattr(value, "item"):
        return _encode(value.item(), what, call)        # NumPy scalars: Python's
    if kind is float:
        return value if isfinite(value) else {"float": repr(value)}
    if kind is tuple:
        return {"tuple": [_encode(v, what, call) for v in value]}
    if kind.__name__ == "Fraction" and kind.__module__ == "fractions":
        return {"fraction": "%d/%d" % (value.numerator, value.denominator)}
    if kind.__name__ == "Decimal" and kind.__module__ in ("decimal", "_decimal", "_pydecimal"):
        return {"decimal": str(value)}
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    from numbers import Real
    if isinstance(value, int) or (isinstance(value, Real) and
                                  getattr(value, "is_integer", None) is None and
                                  hasattr(value, "__index__")):
        return int(value)
    if isinstance(value, Real) and kind.__module__ == "numpy":
        return _encode(float(value), what, call)
    raise NaiveBayesError("%s: %s is %s; the model file holds str, int, float, bool, None, "
                          "Fraction, Decimal and tuples of them" % (call, what,
                                                                    _describe(value)),
                          call=call)


def _has_surrogates(text):
    """True for text that UTF-8 cannot encode: it holds surrogate code points (as
    os.fsdecode makes of undecodable bytes).  JSON would merge a pair of them into
    one character, so the model file lists such text's code points."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _exact_text(number):
    """An exact count or sum as JSON: an int, or "p/q"."""
    if type(number) is int:
        return number
    if number.denominator == 1:
        return number.numerator
    return "%d/%d" % (number.numerator, number.denominator)


_SPECIAL_FLOATS = {"inf": INF, "-inf": -INF}
_NAN = math.nan                  # the one NaN a file gives back (inside tuples only)


def _decode(obj, where, inside=False):
    """A label, value or name from JSON data (see _encode)."""
    if obj is None or obj is True or obj is False:
        return obj
    kind = type(obj)
    if kind is str or kind is int:
        return obj
    if kind is float and isfinite(obj):
        return obj
    if kind is dict and len(obj) == 1:
        (key, value), = obj.items()
        if key == "tuple" and type(value) is list:
            return tuple([_decode(v, where, True) for v in value])
        if key == "codepoints" and type(value) is list and \
                all(type(c) is int and 0 <= c < 0x110000 for c in value):
            return "".join(map(chr, value))
        if key == "float" and value in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[value]
        if key == "float" and value == "nan" and inside:
            return _NAN
        if key == "fraction" and type(value) is str and _is_fraction_text(value) and \
                len(value) <= _MAX_DIGITS:
            from fractions import Fraction
            numerator, denominator = map(int, value.split("/"))
            if denominator:
                return Fraction(numerator, denominator)
        if key == "decimal" and type(value) is str and len(value) <= _MAX_DIGITS:
            from decimal import Decimal, InvalidOperation
            try:
                number = Decimal(value)
            except InvalidOperation:
                number = None
            if number is not None and (inside or not number.is_nan()):
                return number
    raise _Invalid("%s is %s; expected a string, number, true, false, null or "
                   "{\"tuple\": [...]}" % (where, _describe(obj)))


class _Invalid(Exception):
    """A model-file field that does not validate: (where, what is wrong)."""


def _field(data, key, where="the model"):
    if key not in data:
        raise _Invalid("%s has no %r field" % (where, key))
    return data[key]


def _expect(condition, where, value, expected):
    if not condition:
        raise _Invalid("%s is %s; expected %s" % (where, _describe(value), expected))


def _class_rows(feature, field, where, classes, width, shape):
    """(label, where, row) for each class's row of a feature's field in the model
    file: a list with one row per class, each a list of ``width`` items."""
    rows = _field(feature, field, where)
    _expect(type(rows) is list and len(rows) == len(classes), where + "." + field, rows,
            "a list with one %s per class (%d)" % (shape, len(classes)))
    for k, (label, row) in enumerate(zip(classes, rows)):
        here = "%s.%s[%d]" % (where, field, k)
        _expect(type(row) is list and (width is None or len(row) == width), here, row,
                shape if shape.startswith("[") else "a " + shape)
        yield label, here, row


def _decode_list(obj, where):
    _expect(type(obj) is list, where, obj, "a list")
    return [_decode(item, "%s[%d]" % (where, i)) for i, item in enumerate(obj)]


def _decode_exact(obj, where, signed=False):
    """An exact count or sum: an int, or "p/q" with q a power of 2, each at most
    _MAX_DIGITS digits long (so that reading a file takes time linear in its size)."""
    kind = type(obj)
    if kind is int:
        if obj.bit_length() > 3.33 * _MAX_DIGITS:
            raise _Invalid("%s is an int of more than %d digits; expected a count that "
                           "floats can approach" % (where, _MAX_DIGITS))
        number = obj
    elif kind is str and len(obj) <= 2 * _MAX_DIGITS + 2 and _is_fraction_text(obj):
        numerator, denominator = obj.split("/")
        numerator, denominator = int(numerator), int(denominator)
        if denominator <= 0 or denominator & (denominator - 1):
            raise _Invalid("%s is %s; expected an int or a fraction \"p/q\" whose q is a "
                           "power of 2 (counts are sums of float weights)"
                           % (where, _shown(obj)))
        number = _ratio(numerator, denominator)
        if type(number) is not int:
            from fractions import Fraction
            number = Fraction(number)
    elif kind is float and isfinite(obj):
        number = _ratio(*obj.as_integer_ratio())
    else:
        raise _Invalid("%s is %s; expected an exact count (an int or \"p/q\")"
                       % (where, _describe(obj)))
    if not signed and number < 0:
        raise _Invalid("%s is %s; expected a count >= 0" % (where, _shown(obj)))
    return number


def _is_fraction_text(text):
    numerator, slash, denominator = text.partition("/")
    return (slash == "/" and 0 < len(denominator) <= _MAX_DIGITS and denominator.isdigit()
            and denominator.isascii() and 0 < len(numerator) <= _MAX_DIGITS + 1 and
            (numerator[1:] if numerator[:1] == "-" else numerator).isdigit() and
            numerator.lstrip("-").isascii())


def _parse_json(text, call):
    """One JSON value from bytes or str; NaiveBayesError when it is not valid JSON.
    Numbers longer than _MAX_DIGITS digits are refused as they are read, so parsing
    takes time linear in the text's length."""
    import json
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise NaiveBayesError("%s: not UTF-8 text (%s)" % (call, error.reason),
                                  call=call) from None
    if not text.strip():
        raise NaiveBayesError("%s: the file is empty; expected a model file" % call,
                              call=call)

    def no_constants(name):
        raise ValueError("%s is not allowed" % name)
    try:
        return json.loads(text, parse_constant=no_constants, parse_int=_bounded_int)
    except RecursionError:
        raise NaiveBayesError("%s: not a model file: nested too deeply" % call,
                              call=call) from None
    except ValueError as error:
        raise NaiveBayesError("%s: not a model file: invalid JSON (%s)"
                              % (call, _one_line(error)), call=call) from None


def _bounded_int(text):
    """An int of JSON text, at most _MAX_DIGITS digits (Python before 3.11 would parse
    any length, in quadratic time)."""
    if len(text) > _MAX_DIGITS + 1:
        raise ValueError("an integer of %d digits; at most %d are allowed"
                         % (len(text), _MAX_DIGITS))
    return int(text)


_LIST_ENDS = (b"]", b"],")


class _LazyItems:
    """The items of a list field of a model file: parsed from their lines (one item
    per line) as they are iterated."""

    def __init__(self, stream, start, call):
        self.stream = stream
        self.start = start
        self.call = call

    def __iter__(self):
        """Each item, parsed from its line (a long one with _parse_streamed)."""
        self.stream.seek(self.start)
        for n, line in enumerate(iter(self.stream.readline, b"")):
            text = line.strip()
            del line
            if text in _LIST_ENDS:
                break
            if not n & 255:
                _progress("reading the model file, item", n)
            if text.endswith(b","):
                text = text[:-1]
            item = _parse_streamed(text, self.call) if len(text) > _STREAMED_LINE else None
            if item is None:
                item = _parse_json(text, self.call)
            del text                      # (the item's streams keep the text they need)
            yield item
        _progress("reading the model file, item")


# A text feature's counts take an object per number once parsed (a list for each
# [word index, count] pair: about ten times the bytes of the file), so on a long line
# these fields stay text until from_file reads them, one class and one pair at a
# time: loading a model then takes about the memory of the model, not of its JSON.
_STREAMED_LINE = 1 << 16
_STREAMED_FIELDS = frozenset(("word_documents", "word_counts"))
_STREAMED_CHUNK = 1 << 16
_JSON_DECODER = None
_JSON_BLANK = None


def _json_decoder():
    """A json.JSONDecoder reading numbers and constants as _parse_json does (and
    _JSON_BLANK, the pattern of JSON's white space, set)."""
    global _JSON_DECODER, _JSON_BLANK
    if _JSON_DECODER is None:
        import json
        import re
        _JSON_BLANK = re.compile(r"[ \t\n\r]*")

        def no_constants(name):
            raise ValueError("%s is not allowed" % name)
        _JSON_DECODER = json.JSONDecoder(parse_constant=no_constants,
                                         parse_int=_bounded_int)
    return _JSON_DECODER


def _parse_streamed(text, call):
    """The JSON object of one long line, its _STREAMED_FIELDS that are lists of
    lists as _StreamedLists; None when the line is anything else, or not valid JSON
    (the caller then parses it whole, and names what is wrong)."""
    try:
        text = text.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    if not text.startswith("{"):
        return None
    decode = _json_decoder().raw_decode
    blank = _JSON_BLANK.match
    out = {}
    try:
        position = blank(text, 1).end()
        if text[position] == "}":
            return None
        while True:
            key, position = decode(text, position)
            position = blank(text, position).end()
            if type(key) is not str or text[position] != ":":
                return None
            position = blank(text, position + 1).end()
            if key in _STREAMED_FIELDS and text[position] == "[":
                spans = []
                position = blank(text, position + 1).end()
                if text[position] == "]":
                    position += 1
                else:
                    while True:
                        start = position
                        _, position = decode(text, position)
                        spans.append((start, position))
                        position = blank(text, position).end()
                        if text[position] == "]":
                            position += 1
                            break
                        if text[position] != ",":
                            return None
                        position = blank(text, position + 1).end()
                out[key] = _StreamedLists(text, spans)
            else:
                out[key], position = decode(text, position)
            position = blank(text, position).end()
            if text[position] == "}":
                return out if not text[position + 1:].strip() else None
            if text[position] != ",":
                return None
            position = blank(text, position + 1).end()
    except (ValueError, IndexError, RecursionError):
        return None


class _StreamedLists:
    """A list field of a model-file line kept as its text: item k is a _PairStream of
    its elements when it is a list, else its value (see _parse_streamed)."""

    __slots__ = ("text", "spans")

    def __init__(self, text, spans):
        self.text = text
        self.spans = spans

    def __len__(self):
        return len(self.spans)

    def __repr__(self):
        """The field's text, as an error message shows a value."""
        return _clip(self.text[self.spans[0][0]:self.spans[-1][1]] if self.spans else "",
                     200)

    def __getitem__(self, k):
        """Item k: a list's elements one at a time, or the value itself."""
        start, end = self.spans[k]
        if self.text[start] == "[":
            return _PairStream(self.text, start, end)
        return _json_decoder().raw_decode(self.text, start)[0]


class _PairStream:
    """The elements of one JSON list in a text, each parsed as it is iterated."""

    __slots__ = ("text", "start", "end")

    def __init__(self, text, start, end):
        self.text = text
        self.start = start
        self.end = end

    def __iter__(self):
        """Each element (the list was parsed once already: it is valid JSON), parsed
        some 64 KB of text at a time: cut after an element that ends "], [" (the
        separator save() writes) and parsed as a list of its own.  A cut that is not
        between two elements (inside a string, or a deeper list) leaves a piece that
        is not one whole JSON list: from there, element by element."""
        decode = _json_decoder().raw_decode
        text, position, end = self.text, self.start + 1, self.end
        while True:
            cut = text.find("], [", position + _STREAMED_CHUNK, end)
            piece = "[" + (text[position:end] if cut < 0 else text[position:cut + 1] + "]")
            try:
                items, used = decode(piece)
            except ValueError:
                used = -1
            if used != len(piece):
                yield from self.one_by_one(position)
                return
            yield from items
            if cut < 0:
                return
            position = cut + 3            # at the "[" of the next element

    def one_by_one(self, position):
        """The elements from position (one, or blanks before one) on, one at a time."""
        decode = _json_decoder().raw_decode
        blank = _JSON_BLANK.match
        text = self.text
        position = blank(text, position).end()
        if text[position] == "]":
            return
        while True:
            item, position = decode(text, position)
            yield item
            position = blank(text, position).end()
            if text[position] == "]":
                return
            position = blank(text, position + 1).end()      # past the ","

    def __repr__(self):
        """The list's text, as an error message shows a value."""
        return _clip(self.text[self.start:self.end], 200)


# ----------------------------------------------------------------------------------
# Distributions
#
# What one feature tells about the class, as small value classes (river keeps these
# in proba/, apart from its classifiers; statistics.NormalDist is the model).  Each
# distribution is a pair: its statistics (a _Distribution: exact, mergeable counts or
# sums per class label, read from and written to the model file) and its compiled
# form (a _Scorer: per-class log-likelihoods of a value, built once per fitted state,
# with any fast form the fast path uses defined in the same class).  Feature kinds,
# in the next section, read cells and rows into these.
# ----------------------------------------------------------------------------------

_SCALARS = frozenset((int, float, str, bool, tuple, type(None)))


def _copied(value):
    """A copy of statistics: dicts and lists copied all the way down, anything else
    (numbers, strings, tuples) shared, since statistics never change it in place."""
    kind = type(value)
    if kind is dict:
        if _SCALARS.issuperset(map(type, value.values())):
            return dict(value)
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        if _SCALARS.issuperset(map(type, value)):
            return list(value)
        return [_copied(item) for item in value]
    copy = getattr(kind, "__copy__", None)        # e.g. _ValueIds
    return value if copy is None else copy(value)


def _slot_names(cls):
    """Every __slots__ name of cls and its bases, in definition order."""
    names = []
    for base in reversed(cls.__mro__):
        slots = base.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return names


def _top_counts(counts, top=3):
    """{"count": the total, "top": [[key, count]] of the ``top`` largest counts (the
    first of equal ones first)} of a {key: count} dict."""
    largest = sorted(counts.items(), key=lambda item: -item[1])[:top]
    return {"count": _plain(sum(counts.values())),
            "top": [[key, _plain(count)] for key, count in largest]}


class _Distribution:
    """The statistics of one feature, per class label: exact and mergeable.

    The protocol (subclasses fill it in; every method has a docstring there):
      add(label, values, weights)    count one class's values of the feature, as the
                                     feature kind read them (finite floats, counts,
                                     hashable values, lists of words); weights are
                                     exact (ints or Fractions), or None for weight 1
      absorb(other)                  add another's statistics, in place and exactly,
                                     so that merge and partial_fit equal fit
      deficit(other, emptied)        None when other's statistics (rows counted into
                                     an empty twin) can be removed from these; else
                                     what other holds more of, as a phrase naming the
                                     class and the value, word, pair or row; also when
                                     a class in ``emptied`` (whose rows are all being
                                     removed) would keep any statistics
      subtract(other)                remove other's statistics, in place and exactly:
                                     the inverse of absorb, so that forget equals a
                                     fit without those rows; whatever reaches zero (a
                                     class, value, word, pair or row) is removed; it
                                     raises _Unlearned, with nothing changed, where
                                     deficit finds something
      compile(classes, params, shared)   the _Scorer predictions use
      describe(params)               one line for the command line
      class_statistics(classes, params)   {label: {"count": ..., ...}}: what info
                                     shows of each class (None: nothing)
      to_file(classes, what), from_file(feature, where, classes, class_count)
                                     its fields of the model file (``file_fields``)
    Defined here once for all of them, so that no subclass can get them wrong:
    copy() (the same class, statistics copied), empty() (the same class and
    ``settings``, such as declared categories, without counts), holds_nothing() and
    a + b.  A distribution written before forget existed refuses to forget (the
    deficit here), rather than forgetting wrongly.
    """

    __slots__ = ()
    settings = ()                        # slots an empty twin keeps
    file_fields = ()

    def deficit(self, other, emptied):
        """What cannot be removed: here everything, for a distribution that does not
        define how its statistics are removed."""
        return "its statistics (%s) cannot remove rows" % type(self).__name__

    def subtract(self, other):
        """Refuses (see deficit)."""
        raise _Unlearned(self.deficit(other, ()))

    def class_statistics(self, classes, params):
        """What each class's statistics say, for info: here nothing."""
        return None

    def holds_nothing(self):
        """True when there are no statistics to remove (none counted, or all removed):
        an empty twin could have other's statistics removed from it only then."""
        return self.empty().deficit(self, ()) is None

    def empty(self):
        """The same distribution with no counts (declared settings kept)."""
        twin = type(self)()
        for name in self.settings:
            setattr(twin, name, _copied(getattr(self, name)))
        return twin

    def copy(self):
        """An equal, independent distribution of the same class."""
        twin = type(self)()
        for name in _slot_names(type(self)):
            setattr(twin, name, _copied(getattr(self, name)))
        return twin

    def __add__(self, other):
        """The statistics of both training sets (a new distribution)."""
        total = self.copy()
        total.absorb(other)
        return total


class _Unlearned(Exception):
    """Statistics asked to remove more than they hold (see _Distribution.deficit): the
    phrase saying what; the classifier adds the call."""


def _counts_deficit(mine, theirs, label, what, emptied):
    """The deficit of one class's {key: count} (exact counts): None, or a phrase for
    the first key whose count in theirs is more than in mine (``what(key)`` names
    it: "value 'red'"), or, when the class is in ``emptied``, a key that would keep a
    count."""
    get = mine.get
    for key, count in theirs.items():
        have = get(key, 0)
        if count > have:
            if not have:
                return "class %s: %s was never learned" % (_shown(label), what(key))
            return "class %s: %s has a count of %s, less than the %s to forget" % (
                _shown(label), what(key), _plain(have), _plain(count))
    if label in emptied:
        get = theirs.get
        for key, have in mine.items():
            if have != get(key, 0):
                return "class %s: %s would keep a count of %s after all its rows are " \
                    "forgotten" % (_shown(label), what(key), _plain(have - get(key, 0)))
    return None


def _subtract_counts(mine, theirs):
    """mine -= theirs key by key, exactly (theirs has no key beyond mine's); a key
    whose count reaches 0 is removed, as if it had never been counted."""
    for key, count in theirs.items():
        left = mine[key] - count
        if left:
            mine[key] = left
        else:
            del mine[key]


def _labels_to_check(theirs, emptied):
    """The labels whose statistics a deficit looks at: those of the rows to remove,
    then the emptied ones."""
    return list(theirs) + [label for label in emptied if label not in theirs]


def _log_ratio_range(vector):
    """log(max / min) of a vector of log-probabilities (inf when some are 0)."""
    top, bottom = max(vector), min(vector)
    return top - bottom if bottom != -INF else (0.0 if top == -INF else INF)


def _defined_in(cls, name):
    """The class in cls's method resolution order that defines attribute name."""
    return next((base for base in cls.__mro__ if name in base.__dict__), None)


class _Scorer:
    """A compiled distribution: per-class log-likelihoods of a value.

    One method is required, the reference every prediction and explanation rests on:
      scorer[value]  -> tuple of per-class log-likelihoods in classes_ order (zeros
                        for a missing value); raise _BadValue for a value of the
                        wrong type.
    The rest have defaults here:
      terms(value)         the same split into terms, each zero probability a term of
                           its own (for counting them, see _joint_with_infinities)
      explain(value)       (status, vector, details or None) for explain()
      informative(name, classes)   [(feature, value, score, favoured label)]
      table(classes)       the public view of the distribution, for tables()
    and two optional fast forms, which the class defining them must keep equal to
    its scorer[value] (the tests check it for every registered kind):
      lookup()             a _ValueTable (value -> vector) to pack, or None
      quadratic()          per class (constant, mean, scale) with log-likelihood
                           constant - ((x - mean) * scale)^2, or None
    fast_form(name) returns a fast form only when no subclass has overridden the
    reference below the class that defined it: a subclass that changes scorer[value]
    and not its fast form is scored value by value, never by a stale fast form.
    """

    __slots__ = ()

    def terms(self, value):
        """The log-likelihoods of a value as a list of per-class vectors (one here)."""
        return [self[value]]

    def explain(self, value):
        """(status, per-class log-likelihoods, details) of a value, for explain()."""
        if _is_missing(value):
            return "missing", self.zeros, None
        return "used", self[value], None

    def informative(self, name, classes):
        """[(feature, value, score, favoured label)]: none, unless a scorer ranks."""
        return []

    def lookup(self):
        """A _ValueTable to pack into the fast path, or None (see fast_form)."""
        return None

    def quadratic(self):
        """Per class (constant, mean, scale) of a quadratic log density, or None."""
        return None

    def fast_form(self, name):
        """lookup() or quadratic() when it is as current as scorer[value], else None."""
        cls = type(self)
        owner = _defined_in(cls, name)
        for reference in ("__getitem__", "__missing__"):
            defined = _defined_in(cls, reference)
            if defined is not None and not issubclass(owner, defined):
                return None
        return getattr(self, name)()


class _NoEvidence(_Scorer):
    """Scorer of a feature that says nothing (ignored, or no values yet): every value
    contributes log 1 = 0 to every class."""

    __slots__ = ("zeros", "kind")

    def __init__(self, zeros, kind):
        self.zeros = zeros
        self.kind = kind

    def __getitem__(self, value):
        """Zeros, whatever the value."""
        return self.zeros

    def explain(self, value):
        """Always "ignored": the feature contributes nothing."""
        return "ignored", self.zeros, None

    def table(self, classes):
        """An empty table of the kind."""
        if self.kind == "gaussian":
            return {"kind": "gaussian", "mean": {}, "variance": {}}
        return {"kind": self.kind}


class _DensityScorer(_Scorer):
    """x -> per class log_density(x, *parameters of the class): the scorer of a
    distribution whose log density is a function of the value and a few numbers per
    class (a new distribution needs no scorer class of its own)."""

    __slots__ = ("zeros", "log_density", "parameters")

    def __init__(self, log_density, parameters):
        self.log_density = log_density
        self.parameters = [tuple(p) for p in parameters]
        self.zeros = (0.0,) * len(self.parameters)

    def __getitem__(self, value):
        """Per class log_density(value, *parameters); zeros for a missing value."""
        if value is None or _is_missing(value):
            return self.zeros
        return tuple([self.log_density(value, *p) for p in self.parameters])

    def table(self, classes):
        """{"parameters": {label: [its parameters]}}."""
        return {"parameters": dict(zip(classes, map(list, self.parameters)))}


class _Converted(_Scorer):
    """A scorer that reads each value first (a kind's read_value, such as log x)."""

    __slots__ = ("zeros", "scorer", "read_value")

    def __init__(self, scorer, read_value):
        self.scorer = scorer
        self.read_value = read_value
        self.zeros = scorer.zeros

    def __getitem__(self, value):
        """The inner scorer's log-likelihoods of the value as read."""
        if value is None or _is_missing(value):
            return self.zeros
        return self.scorer[self.read_value(value)]

    def terms(self, value):
        """The inner scorer's terms of the value as read."""
        if value is None or _is_missing(value):
            return [self.zeros]
        return self.scorer.terms(self.read_value(value))

    def explain(self, value):
        """The inner scorer's explanation of the value as read."""
        if value is None or _is_missing(value):
            return "missing", self.zeros, None
        return self.scorer.explain(self.read_value(value))

    def informative(self, name, classes):
        """The inner scorer's ranking."""
        return self.scorer.informative(name, classes)

    def table(self, classes):
        """The inner scorer's table."""
        return self.scorer.table(classes)


class _Nothing(_Distribution):
    """No statistics at all: the distribution of an ignored feature."""

    __slots__ = ()

    def add(self, label, values, weights):
        """Nothing is counted."""

    def absorb(self, other):
        """Nothing to add."""

    def deficit(self, other, emptied):
        """Nothing is missing."""
        return None

    def subtract(self, other):
        """Nothing to remove."""

    def compile(self, classes, params, shared):
        """A scorer that says nothing."""
        return _NoEvidence((0.0,) * len(classes), "ignore")

    def describe(self, params):
        """Not used."""
        return "not used"

    def to_file(self, classes, what):
        """No fields."""
        return {}

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """Nothing to read."""
        return cls()


# -- categorical ------------------------------------------------------------------

class _ValueCounts(_Distribution):
    """Counts N_cjv of one categorical feature per class label and value, and its
    known values S_j (declared ones first, then those seen, in first-seen order):
    P(v | c) = (N_cjv + alpha) / (N_cj + alpha * S_j)."""

    __slots__ = ("counts", "declared", "seen")
    settings = ("declared",)
    file_fields = ("declared", "values", "counts")

    def __init__(self, declared=None):
        self.counts = {}                      # label -> {value: weighted count}
        self.declared = dict.fromkeys(declared or ())   # ordered sets: declared values,
        self.seen = {}                                  # and those seen in training

    def add(self, label, values, weights):
        """Count one class's values (hashable); missing ones are dropped here, after
        counting, which costs one check per distinct value rather than per row."""
        try:
            if weights is None:
                counted = Counter(values)
            else:
                integers, shift = _weight_integers(weights)
                counted = {}
                get = counted.get
                for value, weight in zip(values, integers):
                    counted[value] = get(value, 0) + weight
                counted = {v: _ratio(c, 1 << shift) for v, c in counted.items()}
        except TypeError:
            bad = next(v for v in values if not _hashable(v))
            raise _BadValue(bad, "a hashable value") from None
        for value in [v for v in counted if _is_missing(v)]:
            del counted[value]
        if self.declared:
            for value in counted:
                if value not in self.declared:
                    raise _BadValue(value, "one of the declared categories %s"
                                    % _shown(list(self.declared)))
        self.seen.update(dict.fromkeys(counted))
        mine = self.counts.get(label)
        if mine is None:
            self.counts[label] = dict(counted)
        else:
            for value, count in counted.items():
                mine[value] = mine.get(value, 0) + count

    def with_absences_as(self, value, class_count):
        """A copy in which every row of a class that lacks this feature counts as
        ``value`` (N_c minus the class's counted rows); these counts when none lacks it."""
        lacking = {label: n - sum(self.counts.get(label, {}).values())
                   for label, n in class_count.items()}
        if not any(lacking.values()):
            return self
        twin = self.copy()
        for label, n in lacking.items():
            if n:
                mine = twin.counts.setdefault(label, {})
                mine[value] = mine.get(value, 0) + n
        twin.seen[value] = None
        return twin

    def absorb(self, other):
        """Add other's counts and known values."""
        self.declared.update(other.declared)
        self.seen.update(other.seen)
        for label, counts in other.counts.items():
            mine = self.counts.get(label)
            if mine is None:
                self.counts[label] = dict(counts)
                continue
            for value, count in counts.items():
                mine[value] = mine.get(value, 0) + count

    def deficit(self, other, emptied):
        """The first value other counted more often in a class than these counts."""
        for label in _labels_to_check(other.counts, emptied):
            problem = _counts_deficit(self.counts.get(label, {}), other.counts.get(label, {}),
                                      label, lambda v: "value %s" % _shown(v), emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's counts; a value no class counts any more is no longer seen
        (declared values stay: they are settings)."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, counts in other.counts.items():
            mine = self.counts.get(label)
            if mine is not None:
                _subtract_counts(mine, counts)
                if not mine:
                    del self.counts[label]
        counted = set().union(*self.counts.values())
        self.seen = {value: None for value in self.seen if value in counted}

    def values(self):
        """Known values S_j: the declared ones in their order, then those seen, in the
        canonical order (see _canonical): the same however the rows arrived."""
        seen = [v for v in self.seen if v not in self.declared] if self.declared \
            else list(self.seen)
        types = set(map(type, seen))
        if types <= _STR or types <= _FLOAT_INT:
            seen.sort()                   # the canonical order of strings or numbers
        else:
            seen.sort(key=_canonical)
        return list(self.declared) + seen

    def compile(self, classes, params, shared):
        """The _ValueTable of per-class log-likelihoods for every known value."""
        alpha = params["alpha"]
        values = self.values()
        zeros = (0.0,) * len(classes)
        if not values:                    # never saw a value: no information
            return _NoEvidence(zeros, "categorical")
        columns = []                      # per class: log P(v|c) for v in values, fallback
        for label in classes:
            counts = self.counts.get(label, {})
            columns.append(_log_smoothed(list(map(counts.get, values, repeat(0))) + [0],
                                         sum(counts.values()), alpha, len(values)))
        table = _ValueTable(zip(values, zip(*columns)))
        # an unseen value: alpha / (N_cj + alpha * S_j), the smoothing of a count of 0
        table.fallback = tuple([column[-1] for column in columns])
        table[None] = table.zeros = zeros
        return table

    def describe(self, params):
        """'3 values: a, b, c'."""
        values = self.values()
        if not values:
            return "no values"
        shown = ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")
        return "%d values: %s" % (len(values), shown)

    def class_statistics(self, classes, params):
        """Per class: {"count": N_cj, "top": [[value, N_cjv]] of its 3 most frequent
        values, the first seen first among equal counts}."""
        return {label: _top_counts(self.counts.get(label, {})) for label in classes}

    def to_file(self, classes, what):
        """{"declared": [...], "values": [...], "counts": [per class, per value]}."""
        values = self.values()
        section = {}
        if self.declared:
            section["declared"] = [_encode(v, what) for v in self.declared]
        section["values"] = [_encode(v, what) for v in values]
        section["counts"] = [[_exact_text(self.counts.get(c, {}).get(v, 0)) for v in values]
                             for c in classes]
        return section

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The counts of a feature of the model file, validated."""
        declared = _decode_list(feature.get("declared", []), where + ".declared")
        values = _decode_list(_field(feature, "values", where), where + ".values")
        stats = cls(declared)
        for value in chain(declared, values):
            _expect(_hashable(value) and not _is_missing(value), where + ".values", value,
                    "hashable, non-missing values")
        stats.seen.update(dict.fromkeys(values))
        if len(stats.values()) != len(set(declared) | set(values)) or \
                len(dict.fromkeys(values)) != len(values) or \
                len(dict.fromkeys(declared)) != len(declared):
            raise _Invalid("%s repeats a value; expected distinct values" % where)
        for label, here, row in _class_rows(feature, "counts", where, classes, len(values),
                                            "list of %d counts, one per value"
                                            % len(values)):
            counted = {}
            for value, text in zip(values, row):
                count = _decode_exact(text, here)
                if count:
                    counted[value] = count
            if sum(counted.values()) > class_count[label]:
                raise _Invalid("%s adds up to more than class_count for %r; expected at "
                               "most %s" % (here, label, _exact_text(class_count[label])))
            if counted:
                stats.counts[label] = counted
        if declared:
            for value in values:
                if value not in stats.declared:
                    raise _Invalid("%s.values holds %s, not among the declared categories"
                                   % (where, _shown(value)))
        return stats


class _ValueTable(dict, _Scorer):
    """Categorical scorer: value -> per-class log P(value | class), one dict lookup.

    A miss returns the Laplace fallback; NaN (which never equals itself, so never hits)
    is a missing value and contributes nothing.
    """

    __slots__ = ("fallback", "zeros")

    def __missing__(self, value):
        """An unseen value's fallback; zeros for a missing one (NaN never hits)."""
        if _is_missing(value):
            return self.zeros
        return self.fallback

    def explain(self, value):
        """'used', 'unseen' (the fallback) or 'missing', with the vector."""
        if _is_missing(value):
            return "missing", self.zeros, None
        vector = self[value]
        return ("used" if value in self else "unseen"), vector, None

    def informative(self, name, classes):
        """Every known value, ranked as nltk ranks it: the log of its largest
        likelihood ratio between two classes, max_c P(v|c) / min_c P(v|c)."""
        return [(name, value, _log_ratio_range(vector), classes[vector.index(max(vector))])
                for value, vector in self.items() if value is not None]

    def table(self, classes):
        """{"kind": "categorical", "probabilities": {label: {value: P}}}."""
        return {"kind": "categorical", "probabilities": {
            label: {value: exp(vector[k]) for value, vector in self.items()
                    if value is not None}
            for k, label in enumerate(classes)}}

    def lookup(self):
        """The table itself: the fast path packs it."""
        return self


# -- normal -------------------------------------------------------------------------

class _NormalSums(_Distribution):
    """Exact weighted sums (n, sum x, sum x^2) of one numeric feature per class label:
    the normal distribution N(mean, variance) of each class, with mean = sum x / n and
    variance = (sum x^2 - n mean^2) / (n - ddof) + epsilon."""

    __slots__ = ("sums",)
    file_fields = ("sums",)

    def __init__(self):
        self.sums = {}                        # label -> [n, (m, k), (m, k)], see _dyadic

    def add(self, label, values, weights):
        """Add one class's values (finite floats); ValueError or OverflowError for a
        NaN or an infinity, with nothing added."""
        self.add_sums(label, _exact_sums(values, weights))

    def add_sums(self, label, sums):
        """Add (n, s1, s2) to a class's sums."""
        mine = self.sums.get(label)
        if mine is None:
            self.sums[label] = list(sums)
        else:
            mine[0] += sums[0]
            mine[1] = _dyadic_sum(mine[1], sums[1])
            mine[2] = _dyadic_sum(mine[2], sums[2])

    def absorb(self, other):
        """Add other's sums."""
        for label, sums in other.sums.items():
            self.add_sums(label, sums)

    def remainders(self, other):
        """{label: (n, s1, s2)} left when other's sums are taken from these, exact."""
        left = {}
        for label, (n, s1, s2) in other.sums.items():
            mine = self.sums.get(label) or (0, (0, 0), (0, 0))
            left[label] = (mine[0] - n, _fraction(_dyadic_sum(mine[1], (-s1[0], s1[1]))),
                           _fraction(_dyadic_sum(mine[2], (-s2[0], s2[1]))))
        return left

    def deficit(self, other, emptied):
        """A class with fewer values than to forget, or whose sums would be no sums of
        values (a negative variance, or sums without values); sums cannot tell more
        (which values they hold), so forgetting values never learned is refused only
        when the sums show it."""
        left = self.remainders(other)
        for label, (n, s1, s2) in left.items():
            if n < 0:
                return "class %s has %s values, less than the %s to forget" % (
                    _shown(label), _plain(self.sums.get(label, [0])[0]),
                    _plain(other.sums[label][0]))
            if (not n and (s1 or s2)) or s2 < 0 or s2 * n < s1 * s1:
                return "class %s: the sums of the values to forget are not among those " \
                    "learned (what would be left has a negative variance)" % _shown(label)
        for label in emptied:
            mine = self.sums.get(label)
            if mine and mine[0] and (label not in left or left[label][0]):
                return "class %s would keep %s values after all its rows are forgotten" \
                    % (_shown(label), _plain(left[label][0] if label in left else mine[0]))
        return None

    def subtract(self, other):
        """Remove other's sums; a class left with no values has no sums."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, (n, s1, s2) in self.remainders(other).items():
            if n:
                self.sums[label] = [n, _dyadic(s1), _dyadic(s2)]
            else:
                self.sums.pop(label, None)

    def exact(self, label):
        """(n, sum x, sum x^2) of a class as exact numbers, or None."""
        sums = self.sums.get(label)
        if not sums or not sums[0]:
            return None
        return sums[0], _fraction(sums[1]), _fraction(sums[2])

    def pooled(self):
        """(n, s1, s2) over all classes: n exact, the sums (m, k) pairs."""
        n, s1, s2 = 0, (0, 0), (0, 0)
        for count, a, b in self.sums.values():
            n += count
            s1 = _dyadic_sum(s1, a)
            s2 = _dyadic_sum(s2, b)
        return n, s1, s2

    def pooled_moments(self):
        """(mean, population variance) of the feature over all classes, exactly, as
        (numerator, denominator) pairs of ints; None without values."""
        n, (m1, k1), (m2, k2) = self.pooled()
        if not n:
            return None
        # mean = m1 / (n 2^k1); variance = (n s2 - s1^2) / n^2 over 2^K, K = max(k2, 2 k1)
        shift = max(k2, 2 * k1)
        d = 1
        if type(n) is not int:            # a Fraction: weights that are not integers
            n, d = n.numerator, n.denominator
        spread = (n * m2 << (shift - k2)) - (d * m1 * m1 << (shift - 2 * k1))
        return (d * m1, n << k1), (d * spread, (n * n) << shift)

    def pooled_variance(self):
        """Population variance (ddof 0) of the feature over all classes, exactly
        (0 without values)."""
        moments = self.pooled_moments()
        if moments is None:
            return 0
        return _ratio(*moments[1])

    @staticmethod
    def smoothing(distributions, params):
        """The var_smoothing epsilon: var_smoothing times the largest variance (ddof 0,
        classes pooled) of any of these distributions, as scikit-learn adds it; exact."""
        largest = max([d.pooled_variance() for d in distributions], default=0)
        if not params["var_smoothing"] or not largest:
            return 0
        from fractions import Fraction
        return Fraction(params["var_smoothing"]) * largest

    def moments(self, classes, ddof, epsilon):
        """Per-class (mean, variance), exact, with ddof and the var_smoothing epsilon
        (both exact too) applied.

        A class that never had this feature present borrows the pooled mean and
        variance of all classes (the feature then says nothing about that class).
        None when no class has a value.
        """
        from fractions import Fraction
        n, s1, s2 = self.pooled()
        if not n:
            return None
        pooled = n, _fraction(s1), _fraction(s2)
        ddof = Fraction(ddof)
        result = []
        for label in classes:
            n, s1, s2 = self.exact(label) or pooled
            mean = Fraction(s1) / n               # Fraction: int / int is a float
            m2 = s2 - s1 * mean                   # exact: sum of squared deviations
            variance = m2 / (n - ddof) if n > ddof else 0
            result.append((mean, variance + epsilon))
        return result

    def compile(self, classes, params, shared):
        """The _NormalScorer of the classes' moments (shared: the epsilon)."""
        moments = self.moments(classes, params["ddof"], shared)
        zeros = (0.0,) * len(classes)
        if moments is None:
            return _NoEvidence(zeros, "gaussian")
        return _NormalScorer(moments, zeros)

    def describe(self, params):
        """'mean 2, standard deviation 1' over all classes."""
        moments = self.pooled_moments()
        if moments is None:
            return "no values"
        (a, b), (c, d) = moments
        return "mean %.6g, standard deviation %.6g" % (_quotient(a, b),
                                                       _quotient(c, d) ** 0.5)

    def class_statistics(self, classes, params):
        """Per class: {"count": n, "mean": m, "sd": s}, s^2 the sum of squared
        deviations over n - ddof (the model's ddof, without var_smoothing); None
        where there is no value, or too few for ddof."""
        from fractions import Fraction
        ddof = params.get("ddof", 0)
        result = {}
        for label in classes:
            n, s1, s2 = self.exact(label) or (0, 0, 0)
            mean = Fraction(s1) / n if n else None
            sd = _float((s2 - s1 * mean) / (n - ddof)) ** 0.5 if n and n > ddof else None
            result[label] = {"count": _plain(n), "mean": None if mean is None else
                             _float(mean), "sd": sd}
        return result

    def to_file(self, classes, what):
        """{"sums": [[n, sum, sum of squares] per class]}."""
        rows = []
        for label in classes:
            sums = self.sums.get(label)
            rows.append([_exact_text(sums[0]), _dyadic_text(sums[1]), _dyadic_text(sums[2])]
                        if sums and sums[0] else [0, 0, 0])
        return {"sums": rows}

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The sums of a feature of the model file, validated."""
        stats = cls()
        for label, here, triple in _class_rows(feature, "sums", where, classes, 3,
                                               "[n, sum, sum of squares]"):
            n = _decode_exact(triple[0], here + "[0]")
            s1 = _decode_exact(triple[1], here + "[1]", signed=True)
            s2 = _decode_exact(triple[2], here + "[2]")
            if n > class_count[label]:
                raise _Invalid("%s: n is more than class_count for %r" % (here, label))
            if not n:
                if s1 or s2:
                    raise _Invalid("%s has sums but n = 0; expected [0, 0, 0]" % here)
                continue
            if s2 * n < s1 * s1:
                raise _Invalid("%s: the sum of squares is too small for the sum (a "
                               "negative variance)" % here)
            if abs(s1) > n * _FLOAT_MAX_EXACT:
                raise _Invalid("%s: the mean is beyond the float range" % here)
            stats.sums[label] = [n, _dyadic(s1), _dyadic(s2)]
        return stats


def _normal_log_density(x, mean, log_variance):
    """log N(x; mean, variance) from log(variance), total over the float range: the
    difference x - mean may overflow and the scale 1 / sqrt(2 variance) underflow,
    so both are taken through logs when the direct form fails.  -inf when the true
    value is below -1.8e308 (the density is 0 to float precision)."""
    constant = -0.5 * (_LOG_2PI + log_variance)
    log_scale = -0.5 * (_LOG_2 + log_variance)
    difference = x - mean
    if difference == 0:
        return constant
    if isfinite(difference):
        if -708 < log_scale < 708:
            z = difference * exp(log_scale)
            return constant - z * z
        log_z = log(abs(difference)) + log_scale      # log(|x - mean| / sqrt(2 var))
    else:                                             # x - mean beyond the float range
        log_z = log(abs(x / 2 - mean / 2)) + _LOG_2 + log_scale
    return constant - exp(2 * log_z) if log_z < 354 else -INF


class _NormalScorer(_Scorer):
    """x -> per-class log N(x; mean, variance), computed directly (never log(pdf)).

    log N = constant - (d * scale)^2 with d = x - mean, constant = -log(2 pi var) / 2
    and scale = 1 / sqrt(2 var), both from log(var) of the exact variance: finite for
    every positive variance, from a subnormal one to one beyond the float range.
    """

    __slots__ = ("zeros", "means", "scales", "constants", "variances", "log_variances",
                 "point_mass", "regular")

    def __init__(self, moments, zeros):
        self.means = tuple([_float(mean) for mean, _ in moments])
        self.variances = tuple([_float(v) for _, v in moments])
        # A variance under exp(-1419), about 1e-616, is below what floats can express
        # as a width (1 / sqrt(2 var) would overflow): it counts as 0, a point mass.
        self.log_variances = tuple([lv if lv > -1419.0 else -INF
                                    for lv in [_log_exact(v) for _, v in moments]])
        self.scales = tuple([exp(-0.5 * (_LOG_2 + lv)) if -INF < lv < 1417 else 0.0
                             for lv in self.log_variances])
        # variances within exp(+-1400): the scales are normal floats, and the direct
        # form below is exact enough; beyond, _normal_log_density works through logs
        self.regular = all(-1400 < lv < 1400 for lv in self.log_variances)
        self.constants = tuple([-0.5 * (_LOG_2PI + lv) if lv > -INF else 0.0
                                for lv in self.log_variances])
        self.zeros = zeros
        # a zero variance is a point mass: +inf at the mean, -inf elsewhere
        self.point_mass = any(lv == -INF for lv in self.log_variances)

    def __getitem__(self, x):
        """Per class log N(x; mean, variance); zeros for a missing x."""
        if type(x) is not float or not isfinite(x):
            x = _finite_or_missing(x)
            if x is None:
                return self.zeros
        if not self.regular:
            return tuple([(INF if x == m else -INF) if lv == -INF
                          else _normal_log_density(x, m, lv)
                          for m, lv in zip(self.means, self.log_variances)])
        # z * z, not z ** 2: float ** overflows with an exception, * gives inf
        z = list(map(mul, map(sub, repeat(x), self.means), self.scales))
        logs = tuple(map(sub, self.constants, map(mul, z, z)))
        total = sum(logs)
        if total - total == 0:
            return logs
        return tuple(map(_normal_log_density, repeat(x), self.means, self.log_variances))

    def informative(self, name, classes):
        """The feature's class separation, in the units of the categorical score: the
        largest Kullback-Leibler divergence KL(N_a || N_b) over pairs of classes, the
        average log-likelihood ratio that a value drawn from class a gives in favour
        of a over b; favoured label a."""
        best, favoured = 0.0, classes[0]
        for a, (mean_a, var_a) in enumerate(zip(self.means, self.log_variances)):
            for mean_b, var_b in zip(self.means, self.log_variances):
                divergence = _normal_divergence(mean_a, var_a, mean_b, var_b)
                if divergence > best:
                    best, favoured = divergence, classes[a]
        return [(name, None, best, favoured)]

    def table(self, classes):
        """{"kind": "gaussian", "mean": {...}, "variance": {...}}."""
        return {"kind": "gaussian", "mean": dict(zip(classes, self.means)),
                "variance": dict(zip(classes, self.variances))}

    def quadratic(self):
        """Per class (constant, mean, scale), when the variances allow the direct form."""
        if not self.regular:
            return None
        return list(zip(self.constants, self.means, self.scales))


def _normal_divergence(mean_a, log_var_a, mean_b, log_var_b):
    """KL(N(mean_a, var_a) || N(mean_b, var_b)) in nats, from log variances; inf for
    a point mass that differs from the other distribution."""
    if log_var_a == -INF or log_var_b == -INF:
        return 0.0 if (mean_a, log_var_a) == (mean_b, log_var_b) else INF
    try:
        d = (mean_a - mean_b) * exp(-0.5 * log_var_b)
        ratio = exp(log_var_a - log_var_b)
        divergence = 0.5 * (log_var_b - log_var_a + ratio + d * d - 1.0)
    except OverflowError:                 # variances too far apart for a float
        return INF
    return divergence if divergence == divergence else INF


# -- words ----------------------------------------------------------------------------


_TOKEN_PATTERN = None


def _default_tokenizer(text):
    """Lowercase, then the words of scikit-learn's CountVectorizer default pattern
    (two or more word characters).  CJK text has no spaces between words: split it
    with a segmenter (jieba, for instance) and pass the words as a list, or give the
    model a tokenizer."""
    global _TOKEN_PATTERN
    if _TOKEN_PATTERN is None:
        import re
        _TOKEN_PATTERN = re.compile(r"(?u)\b\w\w+\b")
    return _TOKEN_PATTERN.findall(text.lower())


def _words(value, tokenizer):
    """A text value as a list of words: a string goes through the tokenizer, a list or
    tuple of strings is taken as it is; None (or NaN) for a missing value."""
    if type(value) is str:
        if tokenizer is None:
            return _default_tokenizer(value)        # strings, by construction
        words = tokenizer(value)
        if type(words) is not list:
            words = list(words)
    elif isinstance(value, (list, tuple)):
        words = value
    elif _is_missing(value):
        return None
    else:
        raise _BadValue(value, "a string or a list of words")
    if words and not set(map(type, words)) <= _STR:
        raise _BadValue(value, "words that are strings (the tokenizer gave %s)"
                        % _describe(next(w for w in words if type(w) is not str)))
    return words


class _UnsavedTokenizer:
    """The tokenizer of a model loaded from a file: the model was trained with a custom
    tokenizer, which a file cannot hold.  Words (lists of strings) still work."""

    def __call__(self, text):
        """Refuses text: the tokenizer was not saved."""
        raise _BadValue(text, "a list of words: the model's own tokenizer could not be "
                        "saved in its file; give it again with set_params(tokenizer=...)")

    def __repr__(self):
        """How it shows in get_params()."""
        return "<custom tokenizer, not saved>"


_UNSAVED_TOKENIZER = _UnsavedTokenizer()

# scikit-learn's ENGLISH_STOP_WORDS (sklearn.feature_extraction.text), which
# CountVectorizer(stop_words="english") drops: 318 words, sorted.  ("a" and "i" are
# among them, though the default pattern never yields a one-letter word.)
_ENGLISH_STOP_WORDS = (
    "a", "about", "above", "across", "after", "afterwards", "again", "against", "all",
    "almost", "alone", "along", "already", "also", "although", "always", "am", "among",
    "amongst", "amoungst", "amount", "an", "and", "another", "any", "anyhow", "anyone",
    "anything", "anyway", "anywhere", "are", "around", "as", "at", "back", "be",
    "became", "because", "become", "becomes", "becoming", "been", "before",
    "beforehand", "behind", "being", "below", "beside", "besides", "between", "beyond",
    "bill", "both", "bottom", "but", "by", "call", "can", "cannot", "cant", "co",
    "con", "could", "couldnt", "cry", "de", "describe", "detail", "do", "done", "down",
    "due", "during", "each", "eg", "eight", "either", "eleven", "else", "elsewhere",
    "empty", "enough", "etc", "even", "ever", "every", "everyone", "everything",
    "everywhere", "except", "few", "fifteen", "fifty", "fill", "find", "fire", "first",
    "five", "for", "former", "formerly", "forty", "found", "four", "from", "front",
    "full", "further", "get", "give", "go", "had", "has", "hasnt", "have", "he",
    "hence", "her", "here", "hereafter", "hereby", "herein", "hereupon", "hers",
    "herself", "him", "himself", "his", "how", "however", "hundred", "i", "ie", "if",
    "in", "inc", "indeed", "interest", "into", "is", "it", "its", "itself", "keep",
    "last", "latter", "latterly", "least", "less", "ltd", "made", "many", "may", "me",
    "meanwhile", "might", "mill", "mine", "more", "moreover", "most", "mostly", "move",
    "much", "must", "my", "myself", "name", "namely", "neither", "never",
    "nevertheless", "next", "nine", "no", "nobody", "none", "noone", "nor", "not",
    "nothing", "now", "nowhere", "of", "off", "often", "on", "once", "one", "only",
    "onto", "or", "other", "others", "otherwise", "our", "ours", "ourselves", "out",
    "over", "own", "part", "per", "perhaps", "please", "put", "rather", "re", "same",
    "see", "seem", "seemed", "seeming", "seems", "serious", "several", "she", "should",
    "show", "side", "since", "sincere", "six", "sixty", "so", "some", "somehow",
    "someone", "something", "sometime", "sometimes", "somewhere", "still", "such",
    "system", "take", "ten", "than", "that", "the", "their", "them", "themselves",
    "then", "thence", "there", "thereafter", "thereby", "therefore", "therein",
    "thereupon", "these", "they", "thick", "thin", "third", "this", "those", "though",
    "three", "through", "throughout", "thru", "thus", "to", "together", "too", "top",
    "toward", "towards", "twelve", "twenty", "two", "un", "under", "until", "up",
    "upon", "us", "very", "via", "was", "we", "well", "were", "what", "whatever",
    "when", "whence", "whenever", "where", "whereafter", "whereas", "whereby",
    "wherein", "whereupon", "wherever", "whether", "which", "while", "whither", "who",
    "whoever", "whole", "whom", "whose", "why", "will", "with", "within", "without",
    "would", "yet", "you", "your", "yours", "yourself", "yourselves")


def _stop_word_set(stop_words):
    """stop_words= as a set of words (None: none): "english" is scikit-learn's list;
    a list is taken as it is, not lowercased (as CountVectorizer takes it)."""
    if stop_words is None:
        return None
    if isinstance(stop_words, str):       # "english": the parameter's check saw to it
        return frozenset(_ENGLISH_STOP_WORDS)
    return frozenset(stop_words)


def _analyzed(words, stop, low, high):
    """CountVectorizer's steps after tokenizing: stop words dropped, then every n-gram
    of the words that remain for n from low to high, each joined by one space (so a
    bigram may span a dropped stop word), the shorter n-grams first and each n in
    the order of the text.

    >>> _analyzed(["the", "bank", "of", "england"], {"the", "of"}, 1, 2)
    ['bank', 'england', 'bank england']
    """
    if stop:
        words = [w for w in words if w not in stop]
    if high == 1:
        return words
    grams = list(words) if low == 1 else []
    for n in range(max(low, 2), min(high, len(words)) + 1):
        grams.extend(map(" ".join, zip(*[words[i:] for i in range(n)])))
    return grams


def _word_count(value, word, count):
    """A count of a {word: count} text value: an int, or a float (exact, as every
    float is); _BadValue naming the value unless a word with a finite count >= 0."""
    if type(count) is not int and type(count) is not float:
        index = getattr(type(count), "__index__", None)
        number = index(count) if index is not None and not isinstance(count, bool) \
            else _number(count)           # NumPy integers stay integers
        count = count if number is None else number
    if type(word) is str:
        if type(count) is int:
            if 0 <= count <= _FLOAT_MAX_EXACT:
                return count
        elif type(count) is float and count >= 0 and count != INF:
            return count
    raise _BadValue(value, "a {word: count} mapping of strings to finite counts >= 0 "
                    "(not %s: %s)" % (_shown(word, 30), _shown(count, 30)))


class _TextReading:
    """How a text feature reads a value, at fit, predict and explain alike: a string
    is tokenized (the tokenizer, or lowercase and CountVectorizer's pattern), a list
    or tuple of strings is taken as words; then stop words are dropped and n-grams
    formed (see _analyzed).  A mapping {word: count} is a bag already made (counts
    real and >= 0, say TF-IDF weights): taken as it is, zero counts dropped, no stop
    words or n-grams (it has no order to form them from).  None for a missing value.
    """

    __slots__ = ("tokenizer", "stop", "low", "high")

    def __init__(self, params):
        self.tokenizer = params["tokenizer"]
        self.stop = _stop_word_set(params.get("stop_words"))
        self.low, self.high = params.get("ngram_range", (1, 1))

    def __call__(self, value):
        """The value as a list of words, or a dict {word: count}, or None."""
        if isinstance(value, Mapping):
            counts = {}
            for word, count in value.items():
                count = _word_count(value, word, count)
                if count:
                    counts[word] = count
            return counts
        words = _words(value, self.tokenizer)
        if words is None or (self.stop is None and self.high == 1):
            return words
        return _analyzed(words, self.stop, self.low, self.high)


class _WordCounts(_Distribution):
    """Word counts of one text feature per class label: in how many documents each
    word occurs (the Bernoulli model's counts), how often it occurs (multinomial's),
    and how many documents there are.  Both kinds of count are kept, so text_model,
    max_words and min_word_count can change after fitting."""

    __slots__ = ("documents", "terms", "present")
    file_fields = ("words", "documents", "word_documents", "word_counts")

    def __init__(self):
        self.documents = {}           # label -> {word: weighted number of documents}
        self.terms = {}               # label -> {word: weighted number of occurrences}
        self.present = {}             # label -> weighted number of documents

    def add(self, label, values, weights):
        """Count one class's documents, each a list of words or a {word: count} dict
        (counts > 0, ints or floats): exactly, a float being the dyadic fraction it
        is, so that any order, batching, merge or forget gives the same sums.  A
        word is in a document when its count is > 0 (as BernoulliNB binarizes)."""
        if weights is None and dict not in set(map(type, values)):
            present = len(values)
            terms = Counter(chain.from_iterable(values))
            documents = Counter(chain.from_iterable(map(set, values)))
        else:
            integers, shift = ([1] * len(values), 0) if weights is None else \
                _weight_integers(weights)
            finest = 0                    # the finest power of 2 of any count's fraction
            bags = []
            for words in values:
                if type(words) is not dict:
                    bags.append([(word, count, 0) for word, count in Counter(words).items()])
                    continue
                bag = []
                for word, count in words.items():
                    if type(count) is int:
                        bag.append((word, count, 0))
                        continue
                    m, d = count.as_integer_ratio()
                    k = d.bit_length() - 1            # count = m / 2**k
                    bag.append((word, m, k))
                    finest = max(finest, k)
                bags.append(bag)
            present, terms, documents = 0, {}, {}
            for bag, weight in zip(bags, integers):
                present += weight
                for word, m, k in bag:
                    terms[word] = terms.get(word, 0) + (weight * m << (finest - k))
                    documents[word] = documents.get(word, 0) + weight
            scale = 1 << shift
            present = _ratio(present, scale)
            terms = {w: _ratio(c, scale << finest) for w, c in terms.items()}
            documents = {w: _ratio(c, scale) for w, c in documents.items()}
        self.add_counts(label, present, terms, documents)

    def add_counts(self, label, present, terms, documents):
        """Add a class's document count and word counts."""
        self.present[label] = self.present.get(label, 0) + present
        for mine, theirs in ((self.terms, terms), (self.documents, documents)):
            counts = mine.get(label)
            if counts is None:
                mine[label] = dict(theirs)
                continue
            get = counts.get
            for word, count in theirs.items():
                counts[word] = get(word, 0) + count

    def absorb(self, other):
        """Add other's counts."""
        for label, present in other.present.items():
            self.add_counts(label, present, other.terms.get(label, {}),
                            other.documents.get(label, {}))

    def deficit(self, other, emptied):
        """A class with fewer documents, or a word with fewer occurrences or documents,
        than to forget; or what would be left no counts of documents (a word left in
        documents but without occurrences, or the reverse; words without documents)."""
        for label in _labels_to_check(other.present, emptied):
            have, remove = self.present.get(label, 0), other.present.get(label, 0)
            if remove > have:
                return "class %s has %s documents, less than the %s to forget" % (
                    _shown(label), _plain(have), _plain(remove))
            gone = emptied if remove != have else set(emptied) | {label}
            mine, theirs = self.terms.get(label, {}), other.terms.get(label, {})
            mine_documents = self.documents.get(label, {})
            theirs_documents = other.documents.get(label, {})
            problem = _counts_deficit(mine, theirs, label, lambda w: "word %s" % _shown(w),
                                      gone) or \
                _counts_deficit(mine_documents, theirs_documents, label,
                                lambda w: "the documents of word %s" % _shown(w), gone)
            if problem is not None:
                return problem
            if label in emptied and remove != have:
                return "class %s would keep %s documents after all its rows are forgotten" \
                    % (_shown(label), _plain(have - remove))
            for word, count in theirs.items():
                if (mine[word] == count) != (mine_documents.get(word, 0) ==
                                             theirs_documents.get(word, 0)):
                    return "class %s: word %s would be left in documents without " \
                        "occurring, or occurring in no document (the documents to forget " \
                        "are not those learned)" % (_shown(label), _shown(word))
        return None

    def subtract(self, other):
        """Remove other's counts: words no longer counted, and classes left without
        documents, disappear."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, present in other.present.items():
            if label not in self.present:
                continue                  # nothing of it here, nor in other (deficit)
            _subtract_counts(self.terms[label], other.terms.get(label, {}))
            _subtract_counts(self.documents[label], other.documents.get(label, {}))
            left = self.present[label] - present
            if left:
                self.present[label] = left
            else:
                del self.present[label], self.terms[label], self.documents[label]

    def vocabulary(self, params):
        """The words the model uses: every word seen, or the max_words most frequent
        with at least min_word_count, frequency being the number of documents (for
        Bernoulli) or of occurrences (multinomial), as scikit-learn's CountVectorizer
        counts for max_features; ties go to the alphabetically earlier word."""
        counts = self.documents if params["text_model"] == "bernoulli" else self.terms
        if params["min_word_count"] == 1 and params["max_words"] is None:
            return sorted(set().union(*counts.values()))    # every word seen
        frequency = {}
        for per_class in counts.values():
            for word, count in per_class.items():
                frequency[word] = frequency.get(word, 0) + count
        least = params["min_word_count"]
        # frequencies are weighted; the default 1 keeps every word seen, even when
        # fractional weights put a word's frequency below 1
        words = [w for w, f in frequency.items() if f >= least or (least == 1 and f > 0)]
        if params["max_words"] is not None and len(words) > params["max_words"]:
            words.sort(key=lambda w: (-frequency[w], w))
            words = words[:params["max_words"]]
        return sorted(words)

    def compile(self, classes, params, shared):
        """The _WordScorer of the vocabulary's per-class word probabilities."""
        return _WordScorer(self, classes, params)

    def describe(self, params):
        """'120 documents, 3,400 words in the vocabulary (multinomial)'."""
        return "%s documents, %s words in the vocabulary (%s)" % (
            format(_plain(sum(self.present.values())), ","),
            format(len(self.vocabulary(params)), ","), params["text_model"])

    def class_statistics(self, classes, params):
        """Per class: {"count": its documents, "top": [[word, occurrences]] of its 3
        most frequent words}."""
        result = {}
        for label in classes:
            counted = _top_counts(self.terms.get(label, {}))
            counted["count"] = _plain(self.present.get(label, 0))
            result[label] = counted
        return result

    def to_file(self, classes, what):
        """{"words": [...], "documents": [per class], "word_documents", "word_counts":
        per class [[word index, count], ...]}."""
        words = sorted(set().union(*self.terms.values()) if self.terms else ())
        index = {word: i for i, word in enumerate(words)}
        section = {"words": [_encode(word, what) for word in words],
                   "documents": [_exact_text(self.present.get(c, 0)) for c in classes]}
        for field, counts in (("word_documents", self.documents),
                              ("word_counts", self.terms)):
            section[field] = [[[index[w], _exact_text(n)]
                               for w, n in sorted(counts.get(c, {}).items())]
                              for c in classes]
        return section

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The counts of a text feature of the model file, validated."""
        words = _field(feature, "words", where)
        _expect(type(words) is list, where + ".words", words, "a list of strings")
        if not _STR.issuperset(map(type, words)):
            words = [_decode(word, where + ".words") for word in words]
            _expect(_STR.issuperset(map(type, words)), where + ".words", words,
                    "a list of strings")
        if len(set(words)) != len(words):
            raise _Invalid("%s.words repeats a word; expected distinct words" % where)
        documents = _field(feature, "documents", where)
        _expect(type(documents) is list and len(documents) == len(classes),
                where + ".documents", documents, "one count per class (%d)" % len(classes))
        tables = []
        for field in ("word_documents", "word_counts"):
            table = _field(feature, field, where)
            _expect(type(table) in (list, _StreamedLists) and len(table) == len(classes),
                    where + "." + field, table, "one list per class (%d)" % len(classes))
            tables.append(table)
        stats = cls()
        for k, label in enumerate(classes):
            present = _decode_exact(documents[k], "%s.documents[%d]" % (where, k))
            if present > class_count[label]:
                raise _Invalid("%s.documents[%d] is more than class_count for %r"
                               % (where, k, label))
            per_field = []
            for field, table in zip(("word_documents", "word_counts"), tables):
                here = "%s.%s[%d]" % (where, field, k)
                pairs = table[k]          # (a _PairStream: parsed as it is read)
                _expect(type(pairs) in (list, _PairStream), here, pairs,
                        "a list of [word index, count]")
                counts = {}
                for pair in pairs:
                    _expect(type(pair) is list and len(pair) == 2 and type(pair[0]) is int
                            and 0 <= pair[0] < len(words), here, pair,
                            "[word index, count] pairs with indexes into words")
                    word = words[pair[0]]
                    if word in counts:
                        raise _Invalid("%s names %r twice" % (here, word))
                    count = _decode_exact(pair[1], here)
                    if count:
                        counts[word] = count
                per_field.append(counts)
            word_documents, word_counts = per_field
            for word, n in word_documents.items():
                if n > present or not word_counts.get(word):
                    # (a weighted count {word: 0.3} occurs less often than its documents)
                    raise _Invalid("%s: word %r is in more documents than there are, or "
                                   "in documents without occurring" % (where, word))
            if present or word_counts:
                stats.present[label] = present
                stats.documents[label] = word_documents
                stats.terms[label] = word_counts
        return stats


def _complement_weights(stats, classes, vocabulary, alpha, norm):
    """Complement naive Bayes (Rennie, Shih, Teevan and Karger 2003) as scikit-learn's
    ComplementNB computes it: per class, the weight w_cw of each vocabulary word, a
    document scoring sum_w f_w w_cw (f_w its count of w).

    M_cw = sum over the other classes of N_c'w, exact (a class with no documents has
    no counts of its own: its complement is all the counts, as in scikit-learn, not
    borrowed ones); logged_cw = log((M_cw + alpha) / (M_c + alpha * V)) with M_c =
    sum_w M_cw; then w_cw = -logged_cw, or with norm logged_cw / sum_v logged_cv
    (Rennie's normalised weight, whose sign scikit-learn flips so that the largest
    score wins; each class's weights sum to 1).

    alpha = 0 is the limit alpha -> 0+ (scikit-learn gives NaN there).  Without norm,
    a word the other classes never had (M_cw = 0) weighs -log(alpha) + log(M_c) +
    o(1): its weight is +inf, and companions[c] = log M_c is the finite part each
    such word adds (see _WordScorer); with norm, the weights tend to 1/k on the k
    such words and to 0 on the others.  M_c = 0 (nothing outside the class) gives
    the uniform 1/V, and so does V = 1 with norm (where scikit-learn divides 0 by 0).
    Returns (per-class weight columns over the vocabulary, companions or None).
    """
    size = len(vocabulary)
    own = [list(map(stats.terms.get(label, {}).get, vocabulary, repeat(0)))
           for label in classes]
    total = list(map(sum, zip(*own))) if size else []
    columns, companions = [], []
    for counts in own:
        complement = list(map(sub, total, counts))
        logged = _log_smoothed(complement, sum(complement), alpha, size) if size else []
        zeros = logged.count(-INF)
        if not norm:
            columns.append(list(map(neg, logged)))
            companions.append(_log_exact(sum(complement)) if zeros else None)
        elif zeros:
            columns.append([1.0 / zeros if x == -INF else 0.0 for x in logged])
        else:
            summed = fsum(logged)
            columns.append([x / summed for x in logged] if summed else [1.0 / size] * size)
    return columns, (companions if any(c is not None for c in companions) else None)


class _WordScorer(_Scorer):
    """A document -> per-class log-likelihood, in time that grows with its words.

    Bernoulli: log P(d|c) = sum over the vocabulary of log(1 - p_cw), the base, plus
    log p_cw - log(1 - p_cw) for each distinct vocabulary word of d.  Multinomial:
    the sum of f_w log p_cw over the vocabulary words w of d, f_w its count (repeats
    of a word in a list, or the count a {word: count} mapping gives).  Complement:
    the same sum of f_w w_cw with complement weights (see _complement_weights), a
    score rather than a log-likelihood.  Words outside the vocabulary are ignored."""

    __slots__ = ("zeros", "words", "_log_p", "_columns", "base", "bernoulli", "read",
                 "dense", "infinite", "complement")

    def __init__(self, stats, classes, params):
        alpha = params["alpha"]
        self.bernoulli = params["text_model"] == "bernoulli"
        self.complement = params["text_model"] == "complement"
        self.read = _TextReading(params)
        self.zeros = zeros = (0.0,) * len(classes)
        self.infinite = None
        vocabulary = stats.vocabulary(params)
        size = len(vocabulary)
        self.dense = False
        if self.complement:
            columns, companions = _complement_weights(stats, classes, vocabulary, alpha,
                                                      params.get("complement_norm", False))
            self._log_p, self._columns = None, (vocabulary, columns)
            self.words, self.base = self.log_p, zeros
            if companions is not None:
                self._split_infinite_weights(companions)
            return
        # A class that never had this feature present borrows the counts of all classes
        # (the feature then says nothing about it), as a Gaussian feature does.
        pooled = _WordCounts()
        if any(not stats.present.get(label) for label in classes):
            for label in list(stats.present):
                pooled.add_counts(None, stats.present[label], stats.terms.get(label, {}),
                                  stats.documents.get(label, {}))
        # One column per class, aligned with the vocabulary, built by builtin maps.
        present_columns, absent_columns = [], []
        for label in classes:
            if not stats.present.get(label):
                label, source = None, pooled
            else:
                source = stats
            if self.bernoulli:
                n = source.present.get(label, 0)
                counts = list(map(source.documents.get(label, {}).get, vocabulary,
                                  repeat(0)))
                present_columns.append(_log_smoothed(counts, n, alpha, 2))
                absent_columns.append(_log_smoothed(list(map(sub, repeat(n), counts)), n,
                                                    alpha, 2))
            else:
                counts = list(map(source.terms.get(label, {}).get, vocabulary, repeat(0)))
                present_columns.append(_log_smoothed(counts, sum(counts), alpha, size)
                                       if size else [])
        self._log_p, self._columns = None, (vocabulary, present_columns)
        if not self.bernoulli:
            self.words, self.base = self.log_p, zeros
            return
        # p of 0 or 1 (only with alpha = 0) would make the sparse form inf - inf: such
        # models score every vocabulary word, densely
        self.dense = any(-INF in column for column in present_columns + absent_columns)
        if self.dense:
            self.words = dict(zip(vocabulary, zip(*absent_columns))) if size else {}
            self.base = None
            return
        deltas = [list(map(sub, p, q)) for p, q in zip(present_columns, absent_columns)]
        self.words = dict(zip(vocabulary, zip(*deltas))) if size else {}
        self.base = tuple([sum(column) for column in absent_columns])

    def _split_infinite_weights(self, companions):
        """Complement weights at alpha = 0 without norm: a word of class c alone weighs
        +inf for c.  Scores count infinities and add finite terms (see
        _joint_with_infinities), and only their differences between classes matter,
        so the word scores -inf for every other class instead (one infinity each, in
        ``order``) and its finite part, log M_c for c and w_c'w for the others, is a
        term of its own (``finite``): the limit alpha -> 0+ exactly, for word counts."""
        self.words = dict(self.words)
        self.infinite = {}
        for word, vector in self.words.items():
            if INF not in vector:
                continue
            c = vector.index(INF)
            order = tuple([0.0 if k == c else -INF for k in range(len(vector))])
            finite = tuple([companions[c] if k == c else x for k, x in enumerate(vector)])
            self.infinite[word] = (order, finite)
            self.words[word] = tuple(map(add, order, finite))

    @property
    def log_p(self):
        """{word: per-class log P(word | c)} (complement: {word: per-class weight}),
        built on first use (the Bernoulli scorer itself needs only the differences
        log p - log(1 - p))."""
        if self._log_p is None:
            vocabulary, columns = self._columns
            self._log_p = dict(zip(vocabulary, zip(*columns))) if vocabulary else {}
            self._columns = None
        return self._log_p

    def __getitem__(self, value):
        """Per class log P(document | c) (complement: the document's score)."""
        words = self.read(value)
        if words is None:
            return self.zeros
        if type(words) is dict:
            if not self.bernoulli:
                return tuple(map(sum, zip(self.base, *[
                    [count * x for x in vector] for vector, count in
                    zip(map(self.words.get, words), words.values()) if vector])))
            words = list(words)           # present: a count > 0
        if not self.bernoulli:
            return tuple(map(sum, zip(self.base, *filter(None, map(self.words.get, words)))))
        if self.dense:
            present = set(words)
            return tuple(map(sum, zip(self.zeros, *[self.log_p[w] if w in present
                                                    else self.words[w]
                                                    for w in self.log_p])))
        return tuple(map(sum, zip(self.base, *filter(None, map(self.words.get, set(words))))))

    def terms(self, value):
        """The document's log-likelihood as separate per-class terms, one per word
        (per vocabulary word for a dense Bernoulli model): with alpha = 0 each zero
        probability then counts, once per occurrence (a mapping's count, rounded up
        to a whole number: the limit alpha -> 0+ for whole counts)."""
        words = self.read(value)
        if words is None:
            return [self.zeros]
        if self.bernoulli:
            words = list(words)
            if self.dense:
                present = set(words)
                return [self.log_p[w] if w in present else self.words[w]
                        for w in self.log_p] or [self.zeros]
            return [self.base] + [self.words[w] for w in set(words) if w in self.words]
        out = []
        counted = Counter(words) if type(words) is not dict else words
        infinite = self.infinite or {}
        for word, count in counted.items():
            vector = self.words.get(word)
            if vector is None:
                continue
            if word in infinite:
                order, finite = infinite[word]
                out.extend([order] * math.ceil(count))
                out.append(tuple([count * x for x in finite]))
            elif -INF in vector:
                out.append(tuple([count * x for x in vector]))
                order = tuple([-INF if x == -INF else 0.0 for x in vector])
                out.extend([order] * (math.ceil(count) - 1))
            else:
                out.append(vector if count == 1 else tuple([count * x for x in vector]))
        return out or [self.zeros]

    def explain(self, value):
        """(status, log-likelihoods, {"words": {word: per-class part}, "baseline": ...})."""
        words = self.read(value)
        if words is None:
            return "missing", self.zeros, None
        vector = self[value]
        if self.bernoulli:
            words = list(words)
        if self.bernoulli and not self.dense:
            parts = {w: self.words[w] for w in dict.fromkeys(words) if w in self.words}
            baseline = self.base
        elif self.bernoulli:
            parts = {w: self.log_p[w] for w in dict.fromkeys(words) if w in self.log_p}
            baseline = tuple(map(sub, vector, map(sum, zip(self.zeros, *parts.values()))))
        else:
            counted = Counter(words) if type(words) is not dict else words
            parts = {w: tuple([c * v for v in self.words[w]]) for w, c in counted.items()
                     if w in self.words}
            baseline = self.zeros
        return "used", vector, {"words": parts, "baseline": baseline}

    def informative(self, name, classes):
        """Each vocabulary word, scored like a categorical value: the log of the
        largest ratio of its probability between two classes (complement: the
        largest difference of its weights)."""
        return [(name, word, _log_ratio_range(vector), classes[vector.index(max(vector))])
                for word, vector in self.log_p.items()]

    def table(self, classes):
        """{"kind": "text", "probabilities": {label: {word: P}}}; complement:
        {"kind": "text", "weights": {label: {word: w}}} (scikit-learn's
        feature_log_prob_)."""
        if self.complement:
            return {"kind": "text", "weights": {
                label: {word: vector[k] for word, vector in self.log_p.items()}
                for k, label in enumerate(classes)}}
        return {"kind": "text", "probabilities": {
            label: {word: exp(vector[k]) for word, vector in self.log_p.items()}
            for k, label in enumerate(classes)}}


# -- Poisson ----------------------------------------------------------------------


_STIRLING_ERRORS = None          # log(n!) - log(sqrt(2 pi n) (n/e)^n) for n = 0..15


def _stirling_error(n):
    """log(n!) - log(sqrt(2 pi n) (n/e)^n): the error of Stirling's formula, by its
    asymptotic series for n > 15 (as Loader's algorithm for the Poisson, which R's
    dpois uses), directly below."""
    global _STIRLING_ERRORS
    if n <= 15:
        if _STIRLING_ERRORS is None:
            _STIRLING_ERRORS = [0.0] + [math.lgamma(k + 1.0) - (k + 0.5) * log(k) + k
                                        - 0.5 * _LOG_2PI for k in range(1, 16)]
        if n == int(n):
            return _STIRLING_ERRORS[int(n)]
        return math.lgamma(n + 1.0) - (n + 0.5) * log(n) + n - 0.5 * _LOG_2PI
    square = n * n
    return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / (1188 * square)) / square)
                      / square) / square) / n


def _deviance_term(x, lam):
    """x log(x / lam) + lam - x >= 0 for x, lam > 0 (Loader's bd0): by a series in
    (x - lam) / (x + lam) when x is close to lam, where the direct form cancels; and
    through log x - log lam, so that no ratio overflows or underflows."""
    half = x / 2 + lam / 2
    if abs(x - lam) < 0.2 * half:
        v = (x / 2 - lam / 2) / half
        s = (x - lam) * v
        ej = x * (2 * v)
        v = v * v
        for j in range(1, 1000):
            ej *= v
            term = s + ej / (2 * j + 1)
            if term == s:
                return term
            s = term
        return s
    return x * (log(x) - log(lam)) + (lam - x)


def _poisson_log_pmf(x, lam):
    """log(lam^x e^-lam / x!) for an integer x >= 0 and a rate lam >= 0, accurate and
    finite (or -inf) over the whole float range: Loader's saddle-point form, as R's
    dpois, -log(2 pi x) / 2 - stirling_error(x) - (x log(x / lam) + lam - x)."""
    if lam == 0:
        return 0.0 if x == 0 else -INF
    if lam == INF:
        return -INF
    if x == 0:
        return -lam
    return -0.5 * (_LOG_2PI + log(x)) - _stirling_error(x) - _deviance_term(x, lam)


def _count_value(value):
    """A Poisson value as an int; _BadValue unless a non-negative integer (an int, or
    an integral float) within the float range.  None for a missing value."""
    if type(value) is int:
        if 0 <= value <= _FLOAT_MAX:
            return value
    elif type(value) is float:
        if value >= 0 and value.is_integer() and value != INF:
            return int(value)
        if value != value:
            return None
    elif not isinstance(value, bool):
        if _is_missing(value):
            return None
        number = _number(value)
        if number is not None and number >= 0 and number != INF and number.is_integer():
            return int(number)
    raise _BadValue(value, "a non-negative integer count")


class _PoissonSums(_Distribution):
    """Weighted (N_cj, sum of x) of one count feature per class label: the Poisson
    rate lam_c = (sum of x + alpha) / N_cj, as R naivebayes' poisson_naive_bayes with
    laplace = alpha."""

    __slots__ = ("sums",)
    file_fields = ("sums",)

    def __init__(self):
        self.sums = {}                        # label -> [n, sum of x], exact

    def add(self, label, values, weights):
        """Add one class's counts (non-negative ints)."""
        if weights is None:
            self.add_sums(label, [len(values), sum(values)])
        else:
            integers, shift = _weight_integers(weights)
            self.add_sums(label, [_ratio(sum(integers), 1 << shift),
                                  _ratio(sum(map(mul, integers, values)), 1 << shift)])

    def add_sums(self, label, sums):
        """Add [n, sum of x] to a class's sums."""
        mine = self.sums.get(label)
        if mine is None:
            self.sums[label] = list(sums)
        else:
            mine[0] += sums[0]
            mine[1] += sums[1]

    def absorb(self, other):
        """Add other's sums."""
        for label, sums in other.sums.items():
            self.add_sums(label, sums)

    def deficit(self, other, emptied):
        """A class with fewer counts, or a smaller sum of them, than to forget (sums
        cannot tell which counts they hold); or a sum left without counts."""
        for label in _labels_to_check(other.sums, emptied):
            have = self.sums.get(label, (0, 0))
            remove = other.sums.get(label, (0, 0))
            if remove[0] > have[0] or remove[1] > have[1]:
                return "class %s has %s counts summing to %s, less than the %s summing " \
                    "to %s to forget" % (_shown(label), _plain(have[0]), _plain(have[1]),
                                         _plain(remove[0]), _plain(remove[1]))
            if remove[0] == have[0] and remove[1] != have[1]:
                return "class %s: the sum of the counts to forget is not the one learned" \
                    % _shown(label)
            if label in emptied and remove[0] != have[0]:
                return "class %s would keep %s counts after all its rows are forgotten" \
                    % (_shown(label), _plain(have[0] - remove[0]))
        return None

    def subtract(self, other):
        """Remove other's sums; a class left with no counts has no sums."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, (n, total) in other.sums.items():
            mine = self.sums.get(label)
            if mine is not None and n == mine[0]:
                del self.sums[label]
            elif mine is not None:
                self.sums[label] = [mine[0] - n, mine[1] - total]

    def rates(self, classes, alpha):
        """lam_c per class, exact; a class without values borrows the pooled rate of
        all classes.  None when no class has a value."""
        from fractions import Fraction
        n = sum(s[0] for s in self.sums.values())
        if not n:
            return None
        pooled = (n, sum(s[1] for s in self.sums.values()))
        result = []
        for label in classes:
            count, total = self.sums.get(label) or pooled
            if not count:
                count, total = pooled
            result.append((Fraction(total) + Fraction(alpha)) / count)
        return result

    def compile(self, classes, params, shared):
        """The _PoissonScorer of the classes' rates."""
        rates = self.rates(classes, params["alpha"])
        zeros = (0.0,) * len(classes)
        if rates is None:
            return _NoEvidence(zeros, "poisson")
        return _PoissonScorer(rates, zeros)

    def describe(self, params):
        """'mean 3.2' over all classes."""
        n = sum(s[0] for s in self.sums.values())
        if not n:
            return "no values"
        return "mean %.6g" % _float(sum(s[1] for s in self.sums.values()) / n)

    def class_statistics(self, classes, params):
        """Per class: {"count": n, "mean": the mean count (None without values)}."""
        result = {}
        for label in classes:
            n, total = self.sums.get(label, (0, 0))
            result[label] = {"count": _plain(n), "mean": _float(total / n) if n else None}
        return result

    def to_file(self, classes, what):
        """{"sums": [[n, sum] per class]}."""
        return {"sums": [[_exact_text(x) for x in self.sums.get(c, (0, 0))]
                         for c in classes]}

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The sums of a count feature of the model file, validated."""
        stats = cls()
        for label, here, pair in _class_rows(feature, "sums", where, classes, 2, "[n, sum]"):
            n = _decode_exact(pair[0], here + "[0]")
            total = _decode_exact(pair[1], here + "[1]")
            if n > class_count[label]:
                raise _Invalid("%s: n is more than class_count for %r" % (here, label))
            if not n and total:
                raise _Invalid("%s has a sum but n = 0; expected [0, 0]" % here)
            if total > n * _FLOAT_MAX_EXACT:
                raise _Invalid("%s: the mean count is beyond the float range" % here)
            if n:
                stats.sums[label] = [n, total]
        return stats


class _PoissonScorer(_Scorer):
    """x -> per-class log P(x | lam_c) for an integer count x."""

    __slots__ = ("zeros", "rates")

    def __init__(self, rates, zeros):
        self.rates = tuple(map(_float, rates))
        self.zeros = zeros

    def __getitem__(self, value):
        """Per class log P(x | lam_c); zeros for a missing x."""
        x = _count_value(value)
        if x is None:
            return self.zeros
        x = float(x)
        return tuple([_poisson_log_pmf(x, lam) for lam in self.rates])

    def informative(self, name, classes):
        """The largest Kullback-Leibler divergence KL(Pois(a) || Pois(b)) = a log(a/b)
        - a + b over pairs of class rates, as for a Gaussian feature."""
        best, favoured = 0.0, classes[0]
        for k, a in enumerate(self.rates):
            for b in self.rates:
                if a == b:
                    continue
                divergence = INF if not b or a == INF or b == INF else \
                    (_deviance_term(a, b) if a else b)
                if divergence > best:
                    best, favoured = divergence, classes[k]
        return [(name, None, best, favoured)]

    def table(self, classes):
        """{"kind": "poisson", "rate": {label: lam}}."""
        return {"kind": "poisson", "rate": dict(zip(classes, self.rates))}


# -- records of values: the statistics of MDL bins and kernel densities -------------

class _ValueRecord(_Distribution):
    """Exact value -> weight counts of one numeric feature per class label: the one
    record from which MDL bins and kernel densities are computed, so that parameters
    (the bins' alpha, the bandwidth) can change after fitting and fit, partial_fit and
    merge agree exactly."""

    __slots__ = ("counts",)
    file_fields = ("records",)

    def __init__(self):
        self.counts = {}                  # label -> {value: weighted count}

    def add(self, label, values, weights):
        """Count one class's values (finite floats)."""
        if weights is None:
            counted = Counter(values)
        else:
            integers, shift = _weight_integers(weights)
            counted = {}
            for x, weight in zip(values, integers):
                counted[x] = counted.get(x, 0) + weight
            counted = {x: _ratio(c, 1 << shift) for x, c in counted.items() if c}
        if -0.0 in counted:              # -0.0 == 0.0: one value, written as 0.0
            counted = {(0.0 if x == 0 else x): c for x, c in counted.items()}
        self.add_counts(label, counted)

    def add_counts(self, label, counted):
        """Add {value: count} to a class's record."""
        mine = self.counts.get(label)
        if mine is None:
            if counted:
                self.counts[label] = dict(counted)
            return
        get = mine.get
        for value, count in counted.items():
            mine[value] = get(value, 0) + count

    def absorb(self, other):
        """Add other's records."""
        for label, counted in other.counts.items():
            self.add_counts(label, counted)

    def deficit(self, other, emptied):
        """The first value other recorded more often in a class than these records."""
        for label in _labels_to_check(other.counts, emptied):
            problem = _counts_deficit(self.counts.get(label, {}), other.counts.get(label, {}),
                                      label, lambda x: "value %r" % x, emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's records; values whose count reaches 0 disappear."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, counted in other.counts.items():
            mine = self.counts.get(label)
            if mine is not None:
                _subtract_counts(mine, counted)
                if not mine:
                    del self.counts[label]

    def weight_columns(self, classes):
        """(values, per-class weight columns) over every value of any class, sorted."""
        values = sorted(set().union(*self.counts.values()))
        return values, [list(map(self.counts.get(label, {}).get, values, repeat(0)))
                        for label in classes]

    def describe(self, params):
        """'1,234 distinct values recorded'."""
        n = sum(map(len, self.counts.values()))
        return "%s distinct values recorded" % format(n, ",") if n else "no values"

    def class_statistics(self, classes, params):
        """Per class: {"count": n, "mean": m, "sd": s} of the recorded values, s^2 the
        sum of squared deviations over n - ddof (None where undefined)."""
        ddof = params.get("ddof", 0)
        result = {}
        for label in classes:
            counted = self.counts.get(label, {})
            n = sum(counted.values())
            mean = math.fsum(x * float(c) for x, c in counted.items()) / n if n else None
            sd = math.sqrt(math.fsum(float(c) * (x - mean) ** 2 for x, c in counted.items())
                           / float(n - ddof)) if n and n > ddof else None
            result[label] = {"count": _plain(n), "mean": mean, "sd": sd}
        return result

    def to_file(self, classes, what):
        """{"records": [[values in increasing order, their counts] per class]}."""
        # per class two parallel lists: a loader then holds two flat lists of a class,
        # not a small list per value
        records = []
        for label in classes:
            counted = self.counts.get(label, {})
            values = sorted(counted)
            records.append([values, [_exact_text(counted[x]) for x in values]])
        return {"records": records}

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The records of a feature of the model file, validated."""
        stats = cls()
        for label, here, (values, counts) in _class_rows(
                feature, "records", where, classes, 2,
                "[[values in increasing order], [their counts]]"):
            _expect(type(values) is list and type(counts) is list and
                    len(values) == len(counts), here, [values, counts],
                    "two lists of equal length: values and their counts")
            _expect(set(map(type, values)) <= _FLOAT and all(map(isfinite, values)) and
                    all(map(lt, values, values[1:])), here + "[0]", values,
                    "finite floats in increasing order")
            if not _INT.issuperset(map(type, counts)):
                counts = [_decode_exact(c, "%s[1][%d]" % (here, i))
                          for i, c in enumerate(counts)]
            elif any(c.bit_length() > 3.33 * _MAX_DIGITS for c in counts):
                counts = [_decode_exact(c, here + "[1]") for c in counts]      # refuses
            _expect(not counts or min(counts) > 0, here + "[1]", counts, "positive counts")
            if sum(counts) > class_count[label]:
                raise _Invalid("%s adds up to more than class_count for %s"
                               % (here, _shown(label)))
            if values:
                stats.counts[label] = dict(zip(values, counts))
        return stats


# -- MDL bins: Fayyad and Irani's cut points, as Weka's ----------------------------

_MDL_SMALL = 1e-6        # weka.core.Utils.SMALL: a total below it counts as zero
_MDL_MARGIN = 2.0 ** -36  # decisions closer than this (relative) are taken again
# with a correctly rounded log, as Java's Math.log


_EXACT_LOGS = {}          # x -> correctly rounded log x (a Decimal log costs ~50 us)


def _mdl_log(x, exact):
    """log(x), correctly rounded when ``exact`` (as Java's Math.log, which the C
    library's log behind math.log misses by one unit in about 1 of 30,000)."""
    if x <= 0:
        return -INF if x == 0 else math.nan
    if not exact:
        return log(x)
    found = _EXACT_LOGS.get(x)
    if found is None:
        from decimal import Decimal, localcontext
        with localcontext() as context:
            context.prec = 50
            found = float(Decimal(x).ln())
        if len(_EXACT_LOGS) > 100000:
            _EXACT_LOGS.clear()
        _EXACT_LOGS[x] = found
    return found


def _mdl_xlogx(x, exact):
    return x * _mdl_log(x, exact) if x > 0 else 0.0


def _mdl_entropy(counts, exact):
    """ContingencyTables.entropy: bits of one class distribution, Weka's order."""
    minus_sum, total = 0.0, 0.0
    for c in counts:
        minus_sum -= _mdl_xlogx(c, exact)
        total += c
    if -_MDL_SMALL < total < _MDL_SMALL:
        return 0.0
    return (minus_sum + _mdl_xlogx(total, exact)) / (total * _LOG_2)


def _mdl_split_entropy(left, right, exact):
    """ContingencyTables.entropyConditionedOnRows of the 2 x K table (left, right)."""
    acc, total = 0.0, 0.0
    for row in (left, right):
        row_total = 0.0
        for c in row:
            acc += _mdl_xlogx(c, exact)
            row_total += c
        acc -= _mdl_xlogx(row_total, exact)
        total += row_total
    if -_MDL_SMALL < total < _MDL_SMALL:
        return 0.0
    return -acc / (total * _LOG_2)


def _mdl_accepts(prior, left, right, weight, n_cuts, exact):
    """Discretize.FayyadAndIranisMDL: (accepted, gain - threshold, their size)."""
    prior_entropy = _mdl_entropy(prior, exact)
    gain = prior_entropy - _mdl_split_entropy(left, right, exact)
    k = sum(1 for c in prior if c > 0)
    k_left = sum(1 for c in left if c > 0)
    k_right = sum(1 for c in right if c > 0)
    delta = (_mdl_log(float(3 ** k) - 2.0, exact) / _LOG_2
             - (k * prior_entropy - k_right * _mdl_entropy(right, exact)
                - k_left * _mdl_entropy(left, exact)))
    threshold = (_mdl_log(float(n_cuts), exact) / _LOG_2 + delta) / weight
    size = abs(gain) + abs(threshold) + 3 * k * (1 + prior_entropy)
    return gain > threshold, gain - threshold, size


def _mdl_split_entropies(left, right, xlogx):
    """_mdl_split_entropy at many boundaries at once, by builtins, in the same order
    of operations: left[c][i], right[c][i] are class c's weights either side of
    boundary i."""
    acc = xlogx(left[0])
    left_total = left[0]
    for column in left[1:]:
        acc = map(add, acc, xlogx(column))
        left_total = list(map(add, left_total, column))
    acc = map(sub, acc, xlogx(left_total))
    right_total = right[0]
    for column in right:
        acc = map(add, acc, xlogx(column))
    for column in right[1:]:
        right_total = list(map(add, right_total, column))
    acc = map(sub, acc, xlogx(right_total))
    total = list(map(add, left_total, right_total))
    if min(total) >= _MDL_SMALL:
        return list(map(truediv, map(_neg, acc), map(mul, total, repeat(_LOG_2))))
    return [0.0 if -_MDL_SMALL < t < _MDL_SMALL else -a / (t * _LOG_2)
            for a, t in zip(acc, total)]


def _neg(x):
    return -x


def _mdl_cut_points(values, columns, rows=None):
    """Weka's MDL cut points of a numeric feature: values sorted and distinct, and
    columns[c][i] the weight of class c at values[i] (a weight w counting as w rows;
    or, with ``rows``, the number of rows at each value, counted as Weka counts them
    in the MDL test's number of possible cuts, its weights elsewhere).

    Exact for whole weights (sums in any order are exact) and for other weights
    whose sums are exact in doubles; otherwise Weka's per-instance sums may differ
    from these in the last bits.
    """
    n = len(values)
    if n < 2:
        return []
    whole = all(map(float.is_integer, map(float, chain.from_iterable(columns))))
    columns = [list(map(int if whole else float, column)) for column in columns]
    totals = [sum(weights) for weights in zip(*columns)]
    n_before = _accumulate(totals)          # the instances before each value
    rows_before = n_before if rows is None else _accumulate(rows)
    largest = n_before[-1]
    if whole and largest <= 1 << 18:        # x log x of whole weights: a table
        xs = list(map(float, range(1, int(largest) + 1)))
        table = [0.0] + list(map(mul, xs, map(log, xs)))

        def xlogx(column):
            return list(map(table.__getitem__, column))
    elif whole:                             # log(max(x, 1)) is log x, or 0 at x = 0
        def xlogx(column):
            return list(map(mul, column, map(log, map(max, column, repeat(1)))))
    else:
        def xlogx(column):
            return [x * log(x) if x > 0 else 0.0 for x in column]
    cuts = []
    todo = [(0, n)]                     # sets [lo, hi) to split; a float: a cut found
    while todo:
        task = todo.pop()
        if type(task) is float:
            cuts.append(task)
            continue
        lo, hi = task
        b = _mdl_best_split(columns, n_before, lo, hi, xlogx, rows_before)
        if b is not None:               # left part first, then the cut, then the right
            todo.append((b, hi))
            todo.append((values[b - 1] + values[b]) / 2.0)
            todo.append((lo, b))
    return cuts


def _accumulate(column, start=0, step=add):
    """[start, start + c0, start + c0 + c1, ...]: running sums (or differences, with
    step=sub), in order, as Weka adds weights, one instance at a time."""
    from itertools import accumulate
    return list(accumulate(column, step, initial=start))


def _mdl_best_split(columns, n_before, lo, hi, xlogx, rows_before):
    """The accepted cut of values[lo:hi] (a boundary b: values[lo:b] go left), or
    None: Discretize.cutPointsForSubset's search for the first least split entropy,
    with the weights of each side summed as Weka sums them (left ones up from zero,
    right ones down from the set's total), then the MDL test.  Decisions closer than
    _MDL_MARGIN are taken again with a correctly rounded log, as Java's, so that ties
    and near-ties go Weka's way."""
    n_instances = rows_before[hi] - rows_before[lo]
    if hi - lo < 2 or n_instances < 2:
        return None
    parts = [column[lo:hi] for column in columns]
    left = [_accumulate(part[:-1])[1:] for part in parts]
    prior = [_accumulate(part)[-1] for part in parts]
    right = [list(map(sub, repeat(total), column)) if type(total) is int
             else _accumulate(part[:-1], total, sub)[1:]
             for total, part, column in zip(prior, parts, left)]
    entropies = _mdl_split_entropies(left, right, xlogx)
    prior_entropy = _mdl_entropy(prior, False)
    lowest = min(entropies)
    tolerance = _MDL_MARGIN * (1 + prior_entropy) * 4 * len(prior)
    if lowest > prior_entropy + tolerance:
        return None
    near = [i for i, e in enumerate(entropies) if e <= lowest + tolerance]
    if len(near) == 1 and lowest < prior_entropy - tolerance:
        best = near[0]
    else:                               # a close call: Java's log; the first least wins
        best, best_entropy = None, _mdl_entropy(prior, True)
        for i in near:
            e = _mdl_split_entropy([c[i] for c in left], [c[i] for c in right], True)
            if e < best_entropy:
                best, best_entropy = i, e
        if best is None:
            return None
    sides = ([float(c[best]) for c in left], [float(c[best]) for c in right])
    prior = list(map(float, prior))
    weight = float(_accumulate(chain.from_iterable(zip(*parts)))[-1])   # value by value
    accepted, margin, size = _mdl_accepts(prior, sides[0], sides[1], weight,
                                          n_instances - 1, False)
    if not abs(margin) > _MDL_MARGIN * size:          # close, or NaN
        accepted = _mdl_accepts(prior, sides[0], sides[1], weight, n_instances - 1,
                                True)[0]
    return lo + 1 + best if accepted else None


class _MDLBins(_ValueRecord):
    """A numeric feature cut into bins by Fayyad and Irani's MDL criterion (the cut
    points of Weka's supervised Discretize, recomputed from the record of values
    whenever it changes), then categorical over the bins with alpha smoothing:
    P(bin b | c) = (N_cb + alpha) / (N_cj + alpha * number of bins)."""

    __slots__ = ()

    def cuts(self, classes):
        """The MDL cut points of the record (bin b holds cuts[b-1] < x <= cuts[b])."""
        values, columns = self.weight_columns(classes)
        return _mdl_cut_points(values, columns) if values else []

    def class_statistics(self, classes, params):
        """Per class: {"count": n, "bins": [its weight in each bin], "cuts": the cut
        points (the same for every class)}."""
        values, columns = self.weight_columns(classes)
        cuts = _mdl_cut_points(values, columns) if values else []
        bins = [[0] * (len(cuts) + 1) for _ in classes]
        for i, value in enumerate(values):
            b = bisect_left(cuts, value)      # bin b holds cuts[b-1] < x <= cuts[b]
            for k, column in enumerate(columns):
                bins[k][b] += column[i]
        return {label: {"count": _plain(sum(counts)), "bins": list(map(_plain, counts)),
                        "cuts": cuts} for label, counts in zip(classes, bins)}

    def compile(self, classes, params, shared):
        """The _BinScorer of the classes' bin probabilities."""
        values, columns = self.weight_columns(classes)
        zeros = (0.0,) * len(classes)
        if not values:
            return _NoEvidence(zeros, "discretized")
        cuts = _mdl_cut_points(values, columns)
        bins = [[0] * (len(cuts) + 1) for _ in classes]
        for i, value in enumerate(values):
            b = bisect_left(cuts, value)      # bin b holds cuts[b-1] < x <= cuts[b]
            for k, column in enumerate(columns):
                if column[i]:
                    bins[k][b] += column[i]
        logs = [_log_smoothed(counts, sum(counts), params["alpha"], len(counts))
                for counts in bins]
        return _BinScorer(cuts, list(zip(*logs)), zeros)


class _BinScorer(_Scorer):
    """x -> per-class log P(bin of x | c): bin i holds cuts[i-1] < x <= cuts[i]."""

    __slots__ = ("zeros", "cuts", "vectors", "find")

    def __init__(self, cuts, vectors, zeros):
        self.cuts = cuts
        self.vectors = vectors
        self.zeros = zeros
        self.find = bisect_left

    def __getitem__(self, x):
        """Per class log P(bin of x | c); zeros for a missing x."""
        if type(x) is not float or not isfinite(x):
            x = _finite_or_missing(x)
            if x is None:
                return self.zeros
        return self.vectors[self.find(self.cuts, x)]

    def interval(self, x):
        """The bin of x as text: (-inf, c1], (c1, c2], ..., (ck, inf)."""
        b = self.find(self.cuts, x)
        low = "-inf" if b == 0 else repr(self.cuts[b - 1])
        high = "inf)" if b == len(self.cuts) else repr(self.cuts[b]) + "]"
        return "(%s, %s" % (low, high)

    def explain(self, value):
        """'used' with the vector and the interval the value fell in."""
        if _is_missing(value):
            return "missing", self.zeros, None
        vector = self[value]
        return "used", vector, {"interval": self.interval(_number(value))}

    def informative(self, name, classes):
        """Each bin, ranked as a categorical value (the log of its largest likelihood
        ratio between two classes), named by its interval."""
        edges = [-INF] + self.cuts + [INF]
        return [(name, "(%r, %r]" % (edges[b], edges[b + 1]) if b < len(self.cuts)
                 else "(%r, inf)" % edges[b], _log_ratio_range(vector),
                 classes[vector.index(max(vector))])
                for b, vector in enumerate(self.vectors)]

    def table(self, classes):
        """{"kind": "discretized", "cuts": [...], "probabilities": {...}}."""
        return {"kind": "discretized", "cuts": list(self.cuts), "probabilities": {
            label: [exp(vector[k]) for vector in self.vectors]
            for k, label in enumerate(classes)}}


class _BinKeys:
    """A discretized feature's value -> bin index (bin b holds cuts[b-1] < x <= cuts[b])."""

    __slots__ = ("cuts", "find")

    def __init__(self, cuts, find):
        self.cuts = cuts
        self.find = find

    def __call__(self, value):
        """The bin index of a number; _BadValue for anything else."""
        number = _number(value)
        if number is None:
            raise _BadValue(value, "a real number")
        if not isfinite(number):
            raise _BadValue(value, "a finite number")
        return self.find(self.cuts, number)

    def interval(self, x):
        """The bin of x as text."""
        b = self.find(self.cuts, x)
        return self.name(b)

    def name(self, b):
        """Bin b as text: (-inf, c1], (c1, c2], ..., (ck, inf)."""
        low = "-inf" if b == 0 else repr(self.cuts[b - 1])
        return "(%s, %s" % (low, "inf)" if b == len(self.cuts) else repr(self.cuts[b]) + "]")


# -- kde: kernel density estimates, fast and within 2e-7 of the exact -------------
#
# The estimate, its bandwidth rules, how it is evaluated and why the error bound
# holds are in the docstring of _KernelDensities, at the end of this section.  Before
# it, from the basics up: the accuracy budget and geometry, float and exact helpers,
# records and bandwidths, the cells and their evaluation, one class's sources, and
# the builder that cuts the line into cells.

_KDE_LOG_SQRT_2PI = 0.5 * _LOG_2PI

# The accuracy budget: relative errors of the density, whose sum per cell (1.8e-7)
# bounds the error of log f by 2e-7 in exact arithmetic.
_KDE_CELL_ERROR = 1.5e-7         # Taylor remainder + source expansion + rounding, per cell
_KDE_TRUNCATION_ERROR = 1e-8     # far sources left out, per side
_KDE_DROPPED_SIDE_ERROR = 1e-8   # a whole side of a gap left out

# The geometry, in units of the bandwidth h.
_KDE_TERMS = 10                  # Taylor terms evaluated per cell (degree 9)
_KDE_MOMENTS = 10                # source moments per bin in the dense convolution
_KDE_GRID_STEP = 0.5             # width of a dense grid cell (and bin)
_KDE_SEGMENT_GAP = 5.0           # a wider gap between values splits them into segments
_KDE_NEAR_REACH = 2.0            # the near zone reaches this far beyond a segment
_KDE_DENSE_MIN_VALUES = 150      # from this many values a segment uses the dense grid
# A source lies at most a quarter bandwidth from the centre of its bin (bins are h/2
# wide); the margin covers the rounding of the bin centres.
_KDE_BIN_REACH = 0.2500001
# The half-width of a dense cell, a little more than h/4 so that |u| <= 1 holds in
# the cell despite the rounding of its edges.
_KDE_DENSE_HALF_WIDTH = _KDE_GRID_STEP / 2 * (1 + 1e-9)

_KDE_FACTORIALS = [float(factorial(k)) for k in range(40)]


# Floats and exact numbers ----------------------------------------------------------

if hasattr(math, "nextafter"):               # Python 3.9 and later
    def _kde_next_up(x):
        """The least float above x (+inf and NaN unchanged)."""
        return math.nextafter(x, INF)

    def _kde_next_down(x):
        """The greatest float below x (-inf and NaN unchanged)."""
        return math.nextafter(x, -INF)

    def _kde_ulp(x):
        """The spacing of the floats at |x|: next_up(|x|) - |x| (below it at the
        largest float), inf at inf."""
        return math.ulp(x)
else:                                        # Python 3.8: step the bits as an integer
    def _kde_next_up(x):
        """The least float above x (+inf and NaN unchanged)."""
        if x != x or x == INF:
            return x
        if x == 0.0:
            return 5e-324
        import struct
        bits = struct.unpack("<q", struct.pack("<d", x))[0]
        # a float's bits, read as a signed integer, order its magnitude: one step up
        # in magnitude for a positive x, one step down for a negative one
        return struct.unpack("<d", struct.pack("<q", bits + 1 if x > 0 else bits - 1))[0]

    def _kde_next_down(x):
        """The greatest float below x (-inf and NaN unchanged)."""
        return -_kde_next_up(-x)

    def _kde_ulp(x):
        """The spacing of the floats at |x|: next_up(|x|) - |x| (below it at the
        largest float), inf at inf."""
        x = abs(x)
        if x == INF:
            return INF
        return _kde_next_up(x) - x if x < _FLOAT_MAX else x - _kde_next_down(x)


def _kde_sqrt_fraction(q):
    """The correctly rounded float square root of an exact rational q >= 0 (0.0 for
    q <= 0, inf beyond the float range)."""
    from fractions import Fraction
    q = Fraction(q)
    if q <= 0:
        return 0.0
    numerator, denominator = q.numerator, q.denominator
    # scale by 4**shift so that the integer root has at least 65 bits: 12 more than a
    # float holds, so one sticky bit decides the rounding as the exact root would
    shift = max(0, (130 - (numerator.bit_length() - denominator.bit_length())) // 2 + 1)
    scaled = numerator << (2 * shift)
    root = isqrt(scaled // denominator)
    if root * root * denominator != scaled:  # inexact: a sticky bit far below the rounding
        root |= 1
    try:
        return root / (1 << shift)           # int / int is correctly rounded
    except OverflowError:
        return INF


def _kde_round_up(q):
    """The least float >= the exact rational q (inf above the largest float)."""
    from fractions import Fraction
    try:
        rounded = float(q)
    except OverflowError:
        return INF if q > 0 else -_FLOAT_MAX
    if Fraction(rounded) < q:
        rounded = _kde_next_up(rounded)
    return rounded


def _kde_round_down(q):
    """The greatest float <= the exact rational q (-inf below the lowest float)."""
    from fractions import Fraction
    try:
        rounded = float(q)
    except OverflowError:
        return -INF if q < 0 else _FLOAT_MAX
    if Fraction(rounded) > q:
        rounded = _kde_next_down(rounded)
    return rounded


def _kde_scaled_distance(x, y, bandwidth):
    """(x - y) / bandwidth, halving x and y first where x - y overflows."""
    difference = x - y
    if difference == INF or difference == -INF:
        return ((0.5 * x - 0.5 * y) / bandwidth) * 2.0
    return difference / bandwidth


# Records and bandwidths ------------------------------------------------------------

def _kde_error(argument, value, expected):
    """The NaiveBayesError "kde: argument=value; expected ..."."""
    return NaiveBayesError("kde: %s=%s; expected %s" % (argument, _shown(value), expected),
                           call="kde", argument=argument)


def _kde_record_error(index, what, value, expected):
    """The NaiveBayesError "kde: record of class i holds <what> <value>; expected ..."."""
    return NaiveBayesError("kde: record of class %d holds %s %s; expected %s"
                           % (index, what, _shown(value), expected),
                           call="kde", argument="records")


def _kde_exact_weight(weight, index):
    """A weight as an exact int or Fraction (a float weight taken exactly)."""
    from fractions import Fraction
    if type(weight) is int or isinstance(weight, Fraction):
        return weight
    if isinstance(weight, bool):
        return int(weight)
    try:
        if isinstance(weight, float) and not isfinite(weight):
            raise ValueError(weight)
        return Fraction(weight)
    except (ValueError, TypeError, OverflowError):
        raise _kde_record_error(index, "weight", weight, "finite weights >= 0") from None


def _kde_record(record, index):
    """A record as (values, weights): sorted distinct finite floats and their exact
    weights (ints or Fractions), zero weights dropped.

    ``record`` is a dict {value: weight}, an iterable of (value, weight) pairs (any
    order, repeated values added) or a pair (values, weights) of two lists with the
    values strictly increasing (the library's sorted record: no sort is needed).
    ``index`` is the record's class, for the messages of NaiveBayesError.
    """
    values = weights = None
    if isinstance(record, tuple) and len(record) == 2 and isinstance(record[0], list):
        values, weights = record
        values = list(map(mul, values, repeat(1.0)))
        weights = list(weights)
        if len(values) != len(weights) or not all(map(lt, values, values[1:])):
            values = weights = None          # not sorted distinct: the general path
            record = list(zip(*record))
    if values is None and isinstance(record, dict):
        try:
            values = sorted(record)
            counts = list(record.values())
            if counts.count(1) == len(counts):
                weights = [1] * len(values)
            else:
                weights = list(map(record.__getitem__, values))
            # fresh float objects in sorted order: later passes read memory in order
            values = list(map(mul, values, repeat(1.0)))
            if not all(map(lt, values, values[1:])):
                # distinct keys that are equal as floats (2**53 and 2**53 + 1), or a
                # NaN: the general path
                values = None
        except TypeError:
            values = None
        if values is None:
            record = record.items()
    if values is None:
        summed = {}
        for value, weight in record:
            try:
                value = float(value)
            except (TypeError, ValueError, OverflowError):
                raise _kde_record_error(index, "the value", value,
                                        "finite numbers") from None
            summed[value] = summed.get(value, 0) + weight
        values = sorted(summed)
        weights = list(map(summed.__getitem__, values))
        values = list(map(mul, values, repeat(1.0)))
    if not set(map(type, weights)) <= {int}:
        weights = list(map(_kde_exact_weight, weights, repeat(index)))
    if values and not all(map(isfinite, values)):
        bad = next(value for value in values if not isfinite(value))
        raise _kde_record_error(index, "the value", bad, "finite numbers")
    if weights and min(weights) <= 0:
        if min(weights) < 0:
            bad = next(weight for weight in weights if weight < 0)
            raise _kde_record_error(index, "weight", bad, "weights >= 0")
        kept = [i for i, weight in enumerate(weights) if weight != 0]
        values = [values[i] for i in kept]
        weights = [weights[i] for i in kept]
    return values, weights


def _kde_variance(values, weights, unbiased=True):
    """sum w (x - mean)^2 / (n - 1) (unbiased) or / n, exactly; None when undefined."""
    n, sum_x, sum_xx = _exact_moments(values, weights)
    if n <= 0:
        return None
    squares = sum_xx - sum_x * sum_x / n
    if unbiased:
        if n <= 1:
            return None
        return squares / (n - 1)
    return squares / n


def _kde_rule_factor(n, rule):
    """n**(-1/5) for Scott's rule, (3n/4)**(-1/5) for Silverman's, with a float n as
    scipy.stats.gaussian_kde computes them."""
    count = float(n)
    if rule == "scott":
        return count ** -0.2
    return (count * 3.0 / 4.0) ** -0.2


class _KdePool:
    """The record of every class added together, and the standard deviation the rules
    fall back on, each computed when first asked for."""

    __slots__ = ("records", "_record", "_deviation")

    def __init__(self, records):
        self.records = records
        self._record = None
        self._deviation = None

    def record(self):
        """(values, weights) of all classes together: sorted values, summed weights."""
        if self._record is None:
            summed = {}
            for values, weights in self.records:
                for value, weight in zip(values, weights):
                    summed[value] = summed.get(value, 0) + weight
            values = sorted(summed)
            self._record = values, [summed[value] for value in values]
        return self._record

    def deviation(self):
        """sqrt(sum w (x - mean)^2 / (n - 1)) of the pooled record, correctly rounded;
        / n instead when the pooled n <= 1, where the unbiased one is undefined."""
        if self._deviation is None:
            values, weights = self.record()
            variance = _kde_variance(values, weights, True)
            if variance is None:
                variance = _kde_variance(values, weights, False)
            self._deviation = _kde_sqrt_fraction(variance) if variance is not None else 0.0
        return self._deviation


def _kde_fixed_bandwidth(rule):
    """The bandwidth a numeric rule fixes, as a float; None for "scott" and
    "silverman"."""
    if isinstance(rule, str):
        if rule in ("scott", "silverman"):
            return None
        raise _kde_error("bandwidth", rule, '"scott", "silverman" or a finite number > 0')
    try:
        bandwidth = float(rule)
    except (TypeError, ValueError, OverflowError):
        raise _kde_error("bandwidth", rule, '"scott", "silverman" or a finite number '
                         '> 0') from None
    if not (bandwidth > 0 and isfinite(bandwidth)):
        raise _kde_error("bandwidth", rule, "a finite number > 0")
    return bandwidth


def _kde_plan(records, rule):
    """[(values, weights, bandwidth) per class]: the records checked, and the
    bandwidths of the rule with the policy for degenerate classes applied.

    ``rule`` is "scott", "silverman", a number > 0, or a list of one bandwidth >= 0
    per class (0 meaning point masses), taken as given.
    """
    if isinstance(rule, (list, tuple)):
        if len(rule) != len(records):
            raise _kde_error("bandwidth", rule, "one bandwidth per class (%d)"
                             % len(records))
        records = [_kde_record(record, index) for index, record in enumerate(records)]
        pool = _KdePool(records)
        plan = []
        for index, ((values, weights), bandwidth) in enumerate(zip(records, rule)):
            if not values:
                values, weights = pool.record()
            try:
                bandwidth = float(bandwidth)
            except (TypeError, ValueError, OverflowError):
                raise _kde_error("bandwidth[%d]" % index, bandwidth, "a number >= 0") \
                    from None
            if not (bandwidth >= 0 and bandwidth == bandwidth):
                raise _kde_error("bandwidth[%d]" % index, bandwidth, "a number >= 0")
            plan.append((values, weights, min(bandwidth, _FLOAT_MAX)))
        return plan
    records = [_kde_record(record, index) for index, record in enumerate(records)]
    fixed = _kde_fixed_bandwidth(rule)
    pool = _KdePool(records)
    plan = []
    for values, weights in records:
        if not values:
            values, weights = pool.record()
            if not values:
                plan.append((values, weights, 0.0))   # no value in any class
                continue
        if fixed is not None:
            plan.append((values, weights, fixed))
            continue
        n = sum(weights)
        variance = _kde_variance(values, weights, True) if len(values) > 1 else None
        if variance is not None and variance > 0:
            deviation = _kde_sqrt_fraction(variance)
        else:
            deviation = pool.deviation()
        bandwidth = deviation * _kde_rule_factor(n, rule)
        if bandwidth == INF:
            bandwidth = _FLOAT_MAX
        plan.append((values, weights, bandwidth))
    return plan


def _kde_bandwidths(records, rule="scott"):
    """The bandwidth h of each class (0.0 for a point mass), by the rules and the
    policy for degenerate classes stated in _KernelDensities.

    records: a list of K records, each a dict {value: weight} or an iterable of
    (value, weight) pairs; rule: "scott", "silverman" or a number > 0.
    """
    return [bandwidth for _, _, bandwidth in _kde_plan(records, rule)]


# Cells and their evaluation --------------------------------------------------------
#
# A Taylor cell is the tuple (centre, inverse_half_width, mean, inverse_bandwidth,
# constant, b0, ..., b9):
#     log f(x) = log(sum_k b_k t^k) - z*z/2 + constant,
#     t = (x - centre) * inverse_half_width,  z = (x - mean) * inverse_bandwidth;
# inverse_half_width is 0 in an unbounded cell (then the polynomial is the constant
# b0 = 1).  The other cells are tagged tuples:
#     ("exact", values, log_weights, bandwidth, constant): log f = constant +
#         log sum_i exp(log_weights[i] - ((x - values[i]) / bandwidth)^2 / 2);
#     ("point", frozenset(values)): a point mass, log f = +inf at a value, else -inf;
#     ("none",): no value in any class, log f = 0.

def _kde_taylor_cell(centre, inverse_half_width, mean, inverse_bandwidth, constant,
                     coefficients):
    """A Taylor cell from Psi's coefficients, divided by the first so that b0 = 1 and
    its log goes into the constant."""
    first = coefficients[0]
    return (centre, inverse_half_width, mean, inverse_bandwidth, constant + log(first)) \
        + tuple(c / first for c in coefficients[:_KDE_TERMS])


def _kde_source_cell(value, log_weight, inverse_bandwidth, log_scale):
    """The unbounded cell of one source: log f = log_weight + log_scale - z^2/2 (a
    far tail, or a class of one value)."""
    return (value, 0.0, value, inverse_bandwidth, log_scale + log_weight, 1.0) \
        + (0.0,) * (_KDE_TERMS - 1)


def _kde_mirrored_cell(cell):
    """The cell for -x: values, centre and mean negated, odd coefficients too."""
    if cell[0] == "exact":
        return ("exact", [-v for v in cell[1]], cell[2], cell[3], cell[4])
    if cell[0] in ("point", "none"):
        return cell
    centre, inverse_half_width, mean, inverse_bandwidth, constant = cell[:5]
    coefficients = cell[5:]
    return (-centre, inverse_half_width, -mean, inverse_bandwidth, constant) \
        + tuple(b if k % 2 == 0 else -b for k, b in enumerate(coefficients))


def _kde_exact_log_density(cell, x):
    """log f(x) of an exact cell: constant + log-sum-exp of the sources' terms."""
    _, values, log_weights, bandwidth, constant = cell
    terms = []
    for value, log_weight in zip(values, log_weights):
        z = _kde_scaled_distance(x, value, bandwidth)
        terms.append(log_weight - 0.5 * z * z)
    top = max(terms)
    if top == -INF:
        return -INF
    return constant + top + log(fsum([exp(term - top) for term in terms]))


def _kde_taylor_log_density(cell, x):
    """log f(x) of a Taylor cell for any finite x: the fast path's formula, with
    x - mean halved first where it overflows and t = 0 in an unbounded cell."""
    centre, inverse_half_width, mean, inverse_bandwidth, constant = cell[:5]
    coefficients = cell[5:]
    t = 0.0 if inverse_half_width == 0.0 else (x - centre) * inverse_half_width
    difference = x - mean
    if difference == INF or difference == -INF:
        z = ((0.5 * x - 0.5 * mean) * inverse_bandwidth) * 2.0
    else:
        z = difference * inverse_bandwidth
    polynomial = 0.0
    for b in reversed(coefficients):
        polynomial = polynomial * t + b
    return log(polynomial) - 0.5 * z * z + constant


def _kde_cell_log_density(cell, x):
    """log f(x) of a cell of any kind."""
    if cell[0] == "exact":
        return _kde_exact_log_density(cell, x)
    if cell[0] == "point":
        return INF if x in cell[1] else -INF
    if cell[0] == "none":
        return 0.0
    return _kde_taylor_log_density(cell, x)


# One class's sources ---------------------------------------------------------------

class _KdeCountingSums:
    """The prefix sums 1, 2, 3, ... (or the suffix sums n, n - 1, ...) of n equal
    relative weights, as floats, without a list."""

    __slots__ = ("n", "suffix")

    def __init__(self, n, suffix=False):
        self.n = n
        self.suffix = suffix

    def __getitem__(self, i):
        i %= self.n
        return float(self.n - i if self.suffix else i + 1)


class _KdeSources:
    """One class's record prepared for building cells (bandwidth > 0): its values,
    weights relative to the largest and their logs, their prefix and suffix sums."""

    __slots__ = ("values", "bandwidth", "count", "relative_weights", "log_weights",
                 "weight_below", "weight_above", "total_weight", "log_total_weight",
                 "log_scale", "inverse_bandwidth")

    def __init__(self, values, weights, bandwidth):
        from fractions import Fraction
        self.values = values
        self.bandwidth = bandwidth
        self.count = len(values)
        n = sum(weights)
        largest = max(weights)
        # log f = log_scale + log sum_i (w_i / w_max) exp(-z_i^2 / 2): the weights
        # relative to the largest are at most 1, so their sums stay within floats
        if weights.count(largest) == len(weights):     # equal weights: the common case
            self.relative_weights = [1.0] * len(weights)
            self.log_weights = [0.0] * len(weights)
            self.weight_below = _KdeCountingSums(len(weights))
            self.weight_above = _KdeCountingSums(len(weights), True)
            self.total_weight = float(len(weights))
            self.log_scale = _log_exact(Fraction(largest) / n) - log(bandwidth) \
                - _KDE_LOG_SQRT_2PI
            self.inverse_bandwidth = 1.0 / bandwidth
            self.log_total_weight = log(self.total_weight)
            return
        if set(map(type, weights)) <= {int}:
            relative = list(map(truediv, weights, repeat(largest)))
        else:
            relative = [float(Fraction(w) / largest) for w in weights]
        self.relative_weights = relative
        if min(relative) > 1e-280:
            self.log_weights = list(map(log, relative))
        else:                    # subnormal or 0.0 as floats: logs of the exact ratios
            self.log_weights = [_log_exact(Fraction(w) / largest) for w in weights]
        self.log_scale = _log_exact(Fraction(largest) / n) - log(bandwidth) \
            - _KDE_LOG_SQRT_2PI
        self.weight_below = list(accumulate(relative))         # prefix sums
        self.weight_above = list(accumulate(relative[::-1]))[::-1]   # suffix sums
        self.total_weight = max(self.weight_below[-1], self.weight_above[0])
        self.inverse_bandwidth = 1.0 / bandwidth
        self.log_total_weight = log(self.total_weight)

    def mirrored(self, first, end):
        """The sources first .. end - 1 negated and in reverse order, for building
        the cells left of sources[first] as those right of the mirrored edge; the
        prefix sums are shifted to end at this side's weight, weight_above[first]."""
        mirror = _KdeSources.__new__(_KdeSources)
        mirror.values = list(map(neg, reversed(self.values[first:end])))
        mirror.bandwidth, mirror.count = self.bandwidth, end - first
        mirror.inverse_bandwidth, mirror.log_scale = self.inverse_bandwidth, self.log_scale
        mirror.relative_weights = self.relative_weights[first:end][::-1]
        mirror.log_weights = self.log_weights[first:end][::-1]
        below = list(accumulate(mirror.relative_weights))
        shift = self.weight_above[first] - below[-1]
        mirror.weight_below = [p + shift for p in below]
        mirror.weight_above = None           # the right-side walk reads no suffix sums
        mirror.total_weight, mirror.log_total_weight = self.total_weight, \
            self.log_total_weight
        return mirror

    def exact_cell(self, first=0, end=None):
        """The exact cell of the sources first .. end - 1 (all by default)."""
        end = self.count if end is None else end
        return ("exact", self.values[first:end], self.log_weights[first:end],
                self.bandwidth, self.log_scale)

    def cells_are_accurate(self):
        """Whether floats can carry the cells: a bandwidth within [1e-300, 1e300]
        (1/h and h^2 stay normal), relative weights above 1e-280 (normal floats, and
        their logs taken from them), values within 1e307 (x - value cannot overflow)
        and a float spacing at the values no coarser than h / 2**30 (cells down to
        2**-20 h keep distinct edges); else the class is evaluated exactly."""
        if not (1e-300 <= self.bandwidth <= 1e300):
            return False
        if min(self.relative_weights) <= 1e-280:
            return False
        largest = max(abs(self.values[0]), abs(self.values[-1]))
        return _kde_ulp(largest) <= self.bandwidth * 2.0 ** -30 and largest <= 1e307


# The builder: cells over the whole line for one class --------------------------------

class _KdeCellBuilder:
    """Cuts the real line into cells for one class's sources, each within the error
    budget (the method and its bounds: the docstring of _KernelDensities)."""

    __slots__ = ("sources", "stats", "last_bound")

    def __init__(self, sources):
        self.sources = sources
        self.stats = {"taylor": 0, "attempts": 0, "exact": 0, "dense": 0,
                      "dense_fail": 0}
        self.last_bound = None

    # ---------------------------------------------------------------- Taylor cell
    def taylor_cell(self, start, end, kept):
        """The Taylor cell over [start, end] from the sources in the index ranges
        ``kept``, or None when its a-posteriori bound (a) exceeds _KDE_CELL_ERROR."""
        sources = self.sources
        self.stats["attempts"] += 1
        values, log_weights, inverse_bandwidth = (sources.values, sources.log_weights,
                                                  sources.inverse_bandwidth)
        centre = 0.5 * start + 0.5 * end
        if not (start <= centre <= end):
            centre = start
        # a little wider than half the cell, so that |u| <= 1 despite the rounding
        half_width = max(centre - start, end - centre) * (1 + 1e-12)
        if not 1e-300 < half_width < INF:    # 1/half_width must be a normal float
            return None
        if len(kept) == 1:
            first, last = kept[0]
            kept_values = values[first:last]
            kept_logs = log_weights[first:last]
        else:
            kept_values = []
            kept_logs = []
            for first, last in kept:
                kept_values += values[first:last]
                kept_logs += log_weights[first:last]
        if not kept_values:
            return None
        offsets = [(v - centre) * inverse_bandwidth for v in kept_values]
        exponents = [lw - 0.5 * u * u for lw, u in zip(kept_logs, offsets)]
        top = max(exponents)
        if not isfinite(top):
            return None
        terms = [exp(v - top) for v in exponents]
        total = sum(terms)
        # the mean = the term-weighted mean of the kept positions, as a convex
        # combination (not centre + mean(offsets) h, which cancels catastrophically
        # far from the data)
        peak = kept_values[exponents.index(top)]
        half_peak = 0.5 * peak
        offsets = map(sub, map(mul, kept_values, repeat(0.5)), repeat(half_peak))
        mean = peak + 2.0 * (sum(map(mul, terms, offsets)) / total)
        if not (kept_values[0] <= mean <= kept_values[-1]):
            mean = min(max(mean, kept_values[0]), kept_values[-1]) if mean == mean \
                else peak
        centre_offset = (centre - mean) * inverse_bandwidth
        positions = [(v - mean) * inverse_bandwidth for v in kept_values]
        exponents = [lw - 0.5 * r * r + centre_offset * r
                     for lw, r in zip(kept_logs, positions)]
        top = max(exponents)
        if not isfinite(top):
            return None
        terms = [exp(v - top) for v in exponents]         # the c_i of (1)
        # rates in units of the half-width: the polynomial variable is
        # u = (x - centre) / half_width
        rates = list(map(mul, positions, repeat(half_width * inverse_bandwidth)))
        largest_rate = max(map(abs, rates))
        if not largest_rate <= 600:          # exp(largest_rate) in the bound stays finite
            return None
        coefficients = [sum(terms)]          # sum c q^k / k!, k = 0 .. _KDE_TERMS
        powers = terms
        for k in range(1, _KDE_TERMS + 1):
            powers = list(map(mul, powers, rates))
            coefficients.append(sum(powers) / _KDE_FACTORIALS[k])
        psi_at_centre = coefficients[0]
        mean_rate = coefficients[1] / psi_at_centre
        remainder = sum(map(mul, powers, map(exp, map(abs, rates))))   # sum c q^P e^|q|
        # Jensen: Psi(u) >= Psi(0) exp(-|mean rate|) for |u| <= 1
        psi_floor = psi_at_centre * exp(-abs(mean_rate))
        bound = remainder / (_KDE_FACTORIALS[_KDE_TERMS] * psi_floor)
        # float rounding: each of the sums and Horner's steps errs by about 2.3e-16 of
        # terms no larger than psi_at_centre e^largest_rate
        bound += (len(kept_values) + 4 * _KDE_TERMS) * 2.3e-16 * exp(largest_rate) \
            * psi_at_centre / psi_floor
        if not bound <= _KDE_CELL_ERROR:
            return None
        self.stats["taylor"] += 1
        self.last_bound = bound
        return _kde_taylor_cell(centre, 1.0 / half_width, mean, inverse_bandwidth,
                                top + sources.log_scale, coefficients)

    def growth(self):
        """The next cell's width over this one's after a success: the bound scales as
        width**_KDE_TERMS, so (budget / bound)**(1/_KDE_TERMS), damped and capped."""
        factor = (_KDE_CELL_ERROR / max(self.last_bound, 1e-300)) ** (1.0 / _KDE_TERMS)
        return min(max(0.8 * factor, 1.25), 1e3)

    # ------------------------------------------------------------- near the data
    def log_density_floor(self, start, end):
        """log of a lower bound of sum_i w_i exp(-((x - x_i)/h)^2 / 2) over [start,
        end]: the best single source next to the cell, at the cell's far end."""
        sources = self.sources
        values, log_weights, inverse_bandwidth = (sources.values, sources.log_weights,
                                                  sources.inverse_bandwidth)
        best = -INF
        for j in {bisect_left(values, start) - 1, bisect_left(values, start),
                  bisect_right(values, end) - 1, bisect_right(values, end)}:
            if 0 <= j < sources.count:
                value = values[j]
                farthest = max(abs(start - value), abs(end - value)) * inverse_bandwidth
                best = max(best, log_weights[j] - 0.5 * farthest * farthest)
        return best

    def near_sources(self, start, end):
        """The index range of the sources that matter on [start, end], near the data:
        those within D h of it, D^2 = 2 ln(W / (_KDE_TRUNCATION_ERROR f_low))."""
        sources = self.sources
        floor = self.log_density_floor(start, end)
        # each source farther than D h adds at most w exp(-D^2/2), so all of them on
        # one side add at most W exp(-D^2/2) = _KDE_TRUNCATION_ERROR f_low (W: the
        # total relative weight, f_low the floor above)
        exponent = sources.log_total_weight - log(_KDE_TRUNCATION_ERROR) - floor
        reach = sqrt(2 * exponent) if exponent > 0 else 0.0
        first = bisect_left(sources.values, start - reach * sources.bandwidth)
        end_index = bisect_right(sources.values, end + reach * sources.bandwidth)
        return first, end_index

    def near_cells(self, start, end, cells):
        """Cells over [start, end] (within 2.5 h of the data) from the raw sources."""
        sources = self.sources
        bandwidth = sources.bandwidth
        at = start
        width = 0.5
        while at < end:
            cell_end = at + width * bandwidth
            if cell_end >= end:
                cell_end = end
            first, last = self.near_sources(at, cell_end)
            cell = self.taylor_cell(at, cell_end, [(first, last)])
            if cell is not None:
                cells.append((at, cell_end, cell))
                at = cell_end
                width = min(width * 1.5, 2.0)
                continue
            width *= 0.5
            if width < 2.0 ** -20 or at + width * bandwidth == at:
                # no Taylor cell this narrow holds: an exact one of 2**-17 h
                cell_end = min(at + 2.0 ** -20 * bandwidth * 8, end)
                if cell_end <= at:
                    cell_end = min(_kde_next_up(at), end)
                first, last = self.near_sources(at, cell_end)
                cells.append((at, cell_end, sources.exact_cell(first, last)))
                self.stats["exact"] += 1
                at = cell_end
                width = 0.5

    # ------------------------------------------------------------ one-sided walk
    def right_side_cells(self, edge, start, end, cells):
        """Cells over [start, end] (end may be inf) right of the edge source
        sources[edge], with no source between; sources right of end are negligible."""
        sources = self.sources
        values, relative_weights, bandwidth, inverse_bandwidth = (
            sources.values, sources.relative_weights, sources.bandwidth,
            sources.inverse_bandwidth)
        edge_value = values[edge]
        # a source d h behind the edge, for x at least t h right of it, adds at most
        # (w_i / w_e) exp(-t d - d^2/2) times the edge's term (less as x moves away):
        # dropping every d > reach, reach^2/2 + t reach = log_ratio, costs at most
        # _KDE_TRUNCATION_ERROR of this side's sum
        log_ratio = log(sources.weight_below[edge] / relative_weights[edge]) \
            - log(_KDE_TRUNCATION_ERROR)
        next_distance = (edge_value - values[edge - 1]) * inverse_bandwidth if edge > 0 \
            else INF
        at = start
        width = 0.5
        while at < end:
            distance = (at - edge_value) * inverse_bandwidth
            squared = distance * distance
            # the positive root of reach^2/2 + t reach = L, written without cancellation
            reach = 2 * log_ratio / (sqrt(squared + 2 * log_ratio) + distance) \
                if squared < INF else 0.0
            if reach < next_distance:
                # only the edge source is left, and it stays alone as x moves away
                cells.append((at, end, _kde_source_cell(
                    edge_value, sources.log_weights[edge], inverse_bandwidth,
                    sources.log_scale)))
                return
            first = bisect_left(values, edge_value - reach * bandwidth, 0, edge + 1)
            cell_end = at + width * bandwidth
            if cell_end >= end:
                cell_end = end
            if cell_end == INF:              # no Taylor cell is unbounded
                cells.append((at, end, sources.exact_cell(first, edge + 1)))
                self.stats["exact"] += 1
                return
            cell = self.taylor_cell(at, cell_end, [(first, edge + 1)])
            if cell is not None:
                cells.append((at, cell_end, cell))
                at = cell_end
                width *= self.growth()
                continue
            width *= 0.5
            if width < 2.0 ** -20 or at + width * bandwidth == at:
                cell_end = min(at + 0.5 * bandwidth, end)
                if cell_end <= at:
                    cell_end = end
                cells.append((at, cell_end, sources.exact_cell(first, edge + 1)))
                self.stats["exact"] += 1
                at = cell_end
                width = 0.5

    def left_side_cells(self, edge, start, end, cells):
        """Cells over [start, end] left of the edge source sources[edge]: the mirror
        image of right_side_cells on the mirrored sources edge, edge + 1, ... that can
        matter (those within sqrt(2 L) h of the edge: no reach is longer)."""
        sources = self.sources
        log_ratio = log(sources.weight_above[edge] / sources.relative_weights[edge]) \
            - log(_KDE_TRUNCATION_ERROR)
        reach = (sqrt(2 * log_ratio) * (1 + 1e-9) + 1.0) * sources.bandwidth
        last = bisect_right(sources.values, sources.values[edge] + reach, edge)
        mirror = _KdeCellBuilder(sources.mirrored(edge, last))
        mirror.stats = self.stats
        mirrored = []
        mirror.right_side_cells(last - edge - 1, -end, -start, mirrored)
        for cell_start, cell_end, cell in reversed(mirrored):
            cells.append((-cell_end, -cell_start, _kde_mirrored_cell(cell)))

    # ---------------------------------------------------------------------- gaps
    def gap_cells(self, left, start, end, cells):
        """Cells over [start, end] between sources left and left + 1 (none inside)."""
        from fractions import Fraction
        sources = self.sources
        values, relative_weights, bandwidth = (sources.values, sources.relative_weights,
                                               sources.bandwidth)
        right = left + 1
        left_value, right_value = values[left], values[right]
        left_weight = sources.weight_below[left]
        right_weight = sources.weight_above[right]
        # The switch points, exactly: the right side (weight W_R, every source at
        # least as far as its edge) is at most _KDE_DROPPED_SIDE_ERROR of the left
        # edge's term where W_R exp(-(x_R - x)^2/2h^2) <= eps w_L exp(-(x - x_L)^2/2h^2),
        # that is x <= mid - ln(W_R / (eps w_L)) h^2 / (x_R - x_L): left of
        # right_negligible; the left side likewise right of left_negligible.  The
        # ratio is monotone across the gap, so each holds on its whole side.  The
        # factor 1 + 1e-9 and the 1e-12 cover the rounding of the float log.
        right_log_ratio = log(right_weight / (_KDE_DROPPED_SIDE_ERROR
                                              * relative_weights[left])) \
            * (1 + 1e-9) + 1e-12
        left_log_ratio = log(left_weight / (_KDE_DROPPED_SIDE_ERROR
                                            * relative_weights[right])) \
            * (1 + 1e-9) + 1e-12
        exact_left, exact_right, exact_bandwidth = (Fraction(left_value),
                                                    Fraction(right_value),
                                                    Fraction(bandwidth))
        mid = (exact_left + exact_right) / 2
        gap = exact_right - exact_left
        scale = exact_bandwidth * exact_bandwidth / gap
        right_negligible = _kde_round_down(mid - Fraction(right_log_ratio) * scale)
        left_negligible = _kde_round_up(mid + Fraction(left_log_ratio) * scale)
        right_negligible = min(max(right_negligible, start), end)
        left_negligible = min(max(left_negligible, start), end)
        if left_negligible < right_negligible:
            left_negligible = right_negligible
        if right_negligible > start:
            self.right_side_cells(left, start, right_negligible, cells)
        if left_negligible > right_negligible:
            self.crossover_cells(left, right_negligible, left_negligible, cells)
        if end > left_negligible:
            self.left_side_cells(right, left_negligible, end, cells)

    def crossover_sources(self, left, start, end):
        """The two index ranges of sources that matter on [start, end] in the gap
        after sources[left]: on each side those within that side's reach (as in
        right_side_cells, from the edge to the nearest point of the cell)."""
        sources = self.sources
        values, relative_weights, bandwidth, inverse_bandwidth = (
            sources.values, sources.relative_weights, sources.bandwidth,
            sources.inverse_bandwidth)
        right = left + 1
        left_value, right_value = values[left], values[right]
        left_log_ratio = log(sources.weight_below[left] / relative_weights[left]) \
            - log(_KDE_TRUNCATION_ERROR)
        right_log_ratio = log(sources.weight_above[right] / relative_weights[right]) \
            - log(_KDE_TRUNCATION_ERROR)
        left_distance = (start - left_value) * inverse_bandwidth
        right_distance = (right_value - end) * inverse_bandwidth
        left_squared, right_squared = (left_distance * left_distance,
                                       right_distance * right_distance)
        left_reach = 2 * left_log_ratio / (sqrt(left_squared + 2 * left_log_ratio)
                                           + left_distance) if left_squared < INF else 0.0
        right_reach = 2 * right_log_ratio / (sqrt(right_squared + 2 * right_log_ratio)
                                             + right_distance) \
            if right_squared < INF else 0.0
        first = bisect_left(values, left_value - left_reach * bandwidth, 0, left + 1)
        last = bisect_right(values, right_value + right_reach * bandwidth, right)
        return [(first, left + 1), (right, last)]

    def crossover_cells(self, left, start, end, cells):
        """Cells over [start, end] where both sides of the gap count."""
        sources = self.sources
        bandwidth = sources.bandwidth
        at = start
        width = 0.5
        while at < end:
            cell_end = at + width * bandwidth
            if cell_end >= end:
                cell_end = end
            cell = self.taylor_cell(at, cell_end, self.crossover_sources(left, at,
                                                                         cell_end))
            if cell is not None:
                cells.append((at, cell_end, cell))
                at = cell_end
                width *= self.growth()
                continue
            width *= 0.5
            if at + width * bandwidth == at or width * bandwidth < 2.0 ** -40 * abs(at):
                # below the float resolution: one exact cell for the rest
                (first, left_end), (right_start, last) = self.crossover_sources(
                    left, at, end)
                cell = ("exact",
                        sources.values[first:left_end] + sources.values[right_start:last],
                        sources.log_weights[first:left_end]
                        + sources.log_weights[right_start:last],
                        sources.bandwidth, sources.log_scale)
                cells.append((at, end, cell))
                self.stats["exact"] += 1
                return

    # --------------------------------------------------------------------- dense
    def dense_cells(self, first, last, start, end, cells):
        """Cells of width h/2 over [start, ~end] for the segment of sources first ..
        last, from one convolution (c); returns where they end (None: not possible)."""
        sources = self.sources
        values, relative_weights, bandwidth, inverse_bandwidth = (
            sources.values, sources.relative_weights, sources.bandwidth,
            sources.inverse_bandwidth)
        step = _KDE_GRID_STEP * bandwidth
        cell_count = int((end - start) / step) + 1
        edges = [start + k * step for k in range(cell_count + 1)]
        # the bounds take the edges at their places: the floats must space them
        # finer than 2**-40 of a step
        if _kde_ulp(max(abs(edges[0]), abs(edges[-1]))) > step * 2.0 ** -40:
            return None
        half_width = _KDE_DENSE_HALF_WIDTH
        # The window of +-window bins around a node: within a segment every point is
        # within _KDE_SEGMENT_GAP/2 + 1/2 of a source, so f >= w_min exp(-R0^2/2) with
        # R0 = _KDE_SEGMENT_GAP/2 + 1/2, and sources beyond the window, at least
        # (window + 1) _KDE_GRID_STEP - _KDE_BIN_REACH - half_width away, add at most
        # W exp(-that^2/2): at most _KDE_TRUNCATION_ERROR f when that^2 >= reach_squared.
        # (The a-posteriori check below bounds the truncation again, from the mass
        # actually outside the window.)
        lightest = min(relative_weights[first:last + 1])
        reach_squared = 2 * (sources.log_total_weight
                             - log(_KDE_TRUNCATION_ERROR * lightest)) \
            + (_KDE_SEGMENT_GAP / 2 + 0.5) ** 2
        window = int((sqrt(reach_squared) + half_width + 0.25) / _KDE_GRID_STEP) + 1
        kernels = _kde_dense_kernels(window)
        # bins -window .. cell_count - 1 + window (bin k = [start + k step, start +
        # (k + 1) step)), and the offsets of the sources from their bins' centres in
        # units of h
        bin_edges = [start + k * step for k in range(-window, cell_count + window + 1)]
        bin_starts = [bisect_left(values, v) for v in bin_edges]
        lowest, highest = bin_starts[0], bin_starts[-1]
        offsets = []
        for k, (bin_first, bin_end) in enumerate(zip(bin_starts, bin_starts[1:])):
            if bin_end > bin_first:
                bin_centre = start + (k - window + 0.5) * step
                offsets += map(mul, map(sub, values[bin_first:bin_end],
                                        repeat(bin_centre)), repeat(inverse_bandwidth))
        bin_starts = [bin_first - lowest for bin_first in bin_starts]
        bins = list(zip(bin_starts, bin_starts[1:]))
        weights = relative_weights[lowest:highest]
        largest_offset = max(map(abs, offsets)) if offsets else 0.0
        if largest_offset > _KDE_BIN_REACH:  # the kernels' bounds assume |s| <= 1/4
            return None
        terms = list(map(exp, map(mul, map(mul, offsets, offsets), repeat(-0.5))))
        if weights.count(1.0) != len(weights):
            terms = list(map(mul, terms, weights))
        rows = []                    # per bin: M_{b,a} = sum c s^a, a < _KDE_MOMENTS
        for bin_first, bin_end in bins:
            bin_offsets = offsets[bin_first:bin_end]
            powers = terms[bin_first:bin_end]
            row = [sum(powers)]
            for _ in range(_KDE_MOMENTS - 1):
                powers = list(map(mul, powers, bin_offsets))
                row.append(sum(powers))
            rows.append(row)
        moments = list(chain.from_iterable(rows))
        bin_mass = [row[0] for row in rows]
        bin_weight = [sum(weights[bin_first:bin_end]) for bin_first, bin_end in bins]
        (taylor_kernels, expansion_kernel, majorant_kernel, rounding_moment_kernel,
         rounding_mass_kernel) = kernels
        window_length = (2 * window + 1) * _KDE_MOMENTS
        total_weight = sources.total_weight
        truncation_distance = ((window + 1) * _KDE_GRID_STEP - _KDE_BIN_REACH
                               - half_width)
        truncation_factor = exp(-0.5 * truncation_distance * truncation_distance)
        window_reach = window * _KDE_GRID_STEP + _KDE_BIN_REACH
        factorial_terms = _KDE_FACTORIALS[_KDE_TERMS]
        remainder_factor = half_width ** _KDE_TERMS / factorial_terms
        # |[t^P] F| <= F(R) / R^P at R = 2: the majorant of the P-th moment's error
        majorant_factor = _KDE_FACTORIALS[_KDE_TERMS] / 2.0 ** _KDE_TERMS
        first_failed = None
        built = 0
        for node in range(cell_count):
            window_moments = moments[node * _KDE_MOMENTS:node * _KDE_MOMENTS
                                     + window_length]
            node_coefficients = [sum(map(mul, kernel, window_moments))
                                 for kernel in taylor_kernels]
            window_mass = bin_mass[node:node + 2 * window + 1]
            expansion_error = sum(map(mul, expansion_kernel, window_mass))
            majorant_error = sum(map(mul, majorant_kernel, window_mass))
            rounding_moment = sum(map(mul, rounding_moment_kernel, window_mass))
            rounding_mass = sum(map(mul, rounding_mass_kernel, window_mass))
            psi_at_node = node_coefficients[0]
            accepted = psi_at_node > 2 * expansion_error and psi_at_node > 0
            if accepted:
                cell_start, cell_end = edges[node], edges[node + 1]
                centre = 0.5 * cell_start + 0.5 * cell_end
                shift = node_coefficients[1] / psi_at_node
                mean = centre + shift * bandwidth
                shift = (mean - centre) * inverse_bandwidth
                # re-centred at the mean: b_k = sum_l a_l (-shift)^(k-l) / (k-l)!
                negative_shift = -shift
                shift_powers = [1.0]
                for k in range(1, _KDE_TERMS + 1):
                    shift_powers.append(shift_powers[-1] * negative_shift / k)
                coefficients = [sum(map(mul, node_coefficients[:k + 1],
                                        shift_powers[k::-1]))
                                for k in range(_KDE_TERMS + 1)]
                abs_shift = abs(shift)
                # the P-th central moment of the posterior, and bounds of its errors
                # (source expansion through the majorant, float rounding)
                central_moment = abs(coefficients[_KDE_TERMS]) * factorial_terms
                moment_rounding = 1e-12 * 2.0 ** (_KDE_TERMS - 1) \
                    * (rounding_moment + abs_shift ** _KDE_TERMS * rounding_mass)
                moment_bound = central_moment + majorant_factor * exp(2.0 * abs_shift) \
                    * majorant_error + moment_rounding
                # Psi on the cell from below (Jensen, with the error of the mean)
                mean_error = (expansion_error / half_width + abs_shift * expansion_error) \
                    / (psi_at_node - expansion_error)
                psi_floor = (psi_at_node - expansion_error) * exp(-half_width * mean_error)
                recentred_error = exp(half_width * abs_shift) * expansion_error
                reach = window_reach + abs_shift
                taylor_error = remainder_factor * exp(half_width * reach) * moment_bound
                coefficient_size = sum(abs(v) * half_width ** k
                                       for k, v in enumerate(coefficients[:_KDE_TERMS]))
                horner_rounding = 1e-14 * coefficient_size
                outside = max(0.0, total_weight - sum(bin_weight[node:node + 2 * window
                                                                 + 1])) \
                    + total_weight * 1e-12
                density_floor = exp(-0.5 * half_width * half_width
                                    - half_width * abs_shift) * psi_floor
                relative_error = (recentred_error + taylor_error + horner_rounding) \
                    / psi_floor + outside * truncation_factor / density_floor + 1e-10
                accepted = relative_error <= _KDE_CELL_ERROR
            if accepted:
                if first_failed is not None:
                    self.near_cells(edges[first_failed], edges[node], cells)
                    first_failed = None
                constant = sources.log_scale + 0.5 * shift * shift
                cells.append((edges[node], edges[node + 1],
                              _kde_taylor_cell(centre, inverse_bandwidth / half_width,
                                               mean, inverse_bandwidth, constant,
                                               [v * half_width ** k
                                                for k, v in enumerate(coefficients)])))
                built += 1
            else:                            # rebuilt from the raw sources
                self.stats["dense_fail"] += 1
                if first_failed is None:
                    first_failed = node
        if first_failed is not None:
            self.near_cells(edges[first_failed], edges[cell_count], cells)
        self.stats["dense"] += built
        return edges[cell_count]

    # ---------------------------------------------------------------------- all
    def build(self):
        """[(start, end, cell)] covering the real line, in order."""
        sources = self.sources
        values, bandwidth = sources.values, sources.bandwidth
        count = sources.count
        # segments: runs of values closer than _KDE_SEGMENT_GAP h to the next
        widest = _KDE_SEGMENT_GAP * bandwidth
        cuts = list(compress(range(count - 1), map(widest.__lt__,
                                                   map(sub, values[1:], values))))
        segments = []
        segment_start = 0
        for i in cuts:
            segments.append((segment_start, i))
            segment_start = i + 1
        segments.append((segment_start, count - 1))
        cells = []
        first_start = values[segments[0][0]] - _KDE_NEAR_REACH * bandwidth
        self.left_side_cells(0, -INF, first_start, cells)
        previous_end = None
        for k, (first, last) in enumerate(segments):
            near_start = values[first] - _KDE_NEAR_REACH * bandwidth
            near_end = values[last] + _KDE_NEAR_REACH * bandwidth
            if previous_end is not None:
                self.gap_cells(segments[k - 1][1], previous_end, near_start, cells)
            built_end = None
            if last - first + 1 >= _KDE_DENSE_MIN_VALUES:
                built_end = self.dense_cells(first, last, near_start, near_end, cells)
            if built_end is None:
                self.near_cells(near_start, near_end, cells)
                built_end = near_end
            previous_end = built_end
        self.right_side_cells(count - 1, previous_end, INF, cells)
        return cells


_KDE_KERNELS_BY_WINDOW = {}


def _kde_dense_kernels(window):
    """The dense grid's convolution kernels over +-window bins: (Taylor kernels, source
    expansion error, moment majorant, rounding of the P-th moment, rounding of the
    mass), each weighting a bin's moments by its offset u = j _KDE_GRID_STEP."""
    got = _KDE_KERNELS_BY_WINDOW.get(window)
    if got is not None:
        return got
    half_width = _KDE_DENSE_HALF_WIDTH
    reach = _KDE_BIN_REACH
    # a source at u + s (bin offset u, offset s in its bin): exp(-(u+s)^2/2) (u+s)^k/k!
    # = exp(-u^2/2) exp(-s^2/2) exp(-u s) (u+s)^k/k!, and the coefficient of s^a of
    # exp(-u s) (u+s)^k/k! is sum_i C(a, i) (-u)^(a-i) u^(k-i) / ((k-i)! a!)
    taylor_kernels = []
    binomials = [[float(factorial(a) // (factorial(i) * factorial(a - i)))
                  for i in range(a + 1)] for a in range(_KDE_MOMENTS)]
    for k in range(_KDE_TERMS + 1):
        row = []
        for j in range(-window, window + 1):
            u = j * _KDE_GRID_STEP
            gauss = exp(-0.5 * u * u)
            for a in range(_KDE_MOMENTS):
                total = 0.0
                for i in range(min(k, a) + 1):
                    total += binomials[a][i] * (-u) ** (a - i) * u ** (k - i) \
                        / _KDE_FACTORIALS[k - i]
                row.append(gauss * total / _KDE_FACTORIALS[a])
        taylor_kernels.append(row)
    expansion, majorant, rounding_moment, rounding_mass = [], [], [], []
    radius = 2.0                             # of the majorant |[t^P] F| <= F(R) / R^P
    for j in range(-window, window + 1):
        u = abs(j) * _KDE_GRID_STEP
        gauss = exp(-0.5 * u * u)
        # exp((t - u) s) truncated after _KDE_MOMENTS terms: the Lagrange remainder
        # Y^Q/Q! e^Y at Y = (|t| + u) |s|, plus the rounding of the moments' sums
        y = (half_width + u) * reach
        source = gauss * exp(half_width * u) * y ** _KDE_MOMENTS \
            / _KDE_FACTORIALS[_KDE_MOMENTS] * exp(y)
        rounding = 450 * 1.2e-16 * gauss * exp(half_width * u) \
            * exp((half_width + u) * reach)
        expansion.append(source + rounding)
        y_majorant = (radius + u) * reach
        majorant.append(gauss * exp(radius * u) * y_majorant ** _KDE_MOMENTS
                        / _KDE_FACTORIALS[_KDE_MOMENTS] * exp(y_majorant))
        rounding_mass.append(gauss * exp(u * reach))
        rounding_moment.append(gauss * exp(u * reach) * (u + reach) ** _KDE_TERMS)
    got = (taylor_kernels, expansion, majorant, rounding_moment, rounding_mass)
    _KDE_KERNELS_BY_WINDOW[window] = got
    return got


# The per-feature object --------------------------------------------------------------

class _KernelDensities:
    r"""Per-class Gaussian kernel density estimates of one feature, built once into
    cells: log_densities(x) in a time that does not grow with the training values,
    within 2e-7 of the exact.

    _KernelDensities(records, bandwidth="scott"): ``records`` is a list of K records,
    one per class, each a dict {value: weight}, an iterable of (value, weight) pairs
    (any order; repeated values are added) or a pair (values, weights) of two lists
    with the values strictly increasing; the values are finite floats, the weights
    exact numbers >= 0 (int or Fraction; a float weight is taken exactly).
    ``bandwidth`` is "scott", "silverman", a number > 0, or a list of K bandwidths
    (as _kde_bandwidths returns them: a class without values then uses the pooled
    record, and h = 0 means point masses).

    >>> densities = _KernelDensities([{0.0: 1, 1.0: 1}, {}], 1.0)
    >>> densities.bandwidths
    [1.0, 1.0]
    >>> exact = densities.exact_log_densities(0.5)     # log N(0.5; 0, 1), both classes
    >>> exact
    (-1.0439385332046727, -1.0439385332046727)
    >>> max(abs(a - b) for a, b in zip(densities.log_densities(0.5), exact)) < 2e-7
    True

    The model.  Class c has values x_i with weights w_i > 0 and the density

        f_c(x) = (1/n) sum_i w_i N(x; x_i, h_c^2),        n = sum_i w_i;

    every result is log f_c(x), computed in log space (never the log of an
    underflowed sum): for a finite x it is finite unless the true value is beyond the
    float range (then -inf), e.g. (x - x_i)/h > 1e154 for every i.

    Bandwidths.
    - "scott": h = sd * n**(-1/5); "silverman": h = sd * (3n/4)**(-1/5), where
      sd^2 = sum w (x - mean)^2 / (n - 1): exactly scipy.stats.gaussian_kde(data,
      bw_method=rule) in one dimension when each value is repeated w times.  sd is
      the correctly rounded square root of the exact rational variance (exact sums),
      so it does not depend on the order of the data; h = sd * float(n)**-0.2 as
      scipy.
    - a number h > 0: that h for every class (the kernel standard deviation, as
      scikit-learn KernelDensity(bandwidth=h) and R density(bw=h)).
    Degenerate classes never raise and never give NaN:
    - a class whose own variance is 0 (one distinct value) or undefined (n <= 1)
      uses the variance of the pooled record (all classes' records added together)
      in the rule, with its own n;
    - a class with no values uses the pooled record (as its density) and the rule
      applied to the pooled record;
    - the pooled variance is the unbiased one when the pooled n > 1; when the pooled
      n <= 1 (fractional weights adding up to at most 1) it is sum w (x - mean)^2 / n
      instead (the unbiased one is undefined there);
    - when the pooled variance is 0 too (every training value identical), h = 0: the
      density is a point mass, log f = +inf at the value and -inf elsewhere;
    - when no class has any value, every log f is 0.0 (the feature says nothing).
      h = 0 also results when sd * factor underflows (values a few 1e-324 apart):
      point masses at the class's values.  An h that overflows is clamped to the
      largest float.

    Evaluation.  log_densities never passes over the training values.  Per class the
    real line is cut into cells; a query does one bisect over the merged cell edges
    of all classes and, per class, evaluates

        log f(x) = log P(u) - z^2/2 + C,   u = (x - y)/hw,  z = (x - m)/h,

    with P a polynomial of degree 9 (P = 10 coefficients) attached to the cell, y its
    centre, hw its half-width, m a "demodulation centre" and C a constant.  The
    identity behind it is exact: for any reals y, m, with r_i = (x_i - m)/h,
    Y = (y - m)/h and q_i = r_i hw/h,

        sum_i w_i exp(-((x - x_i)/h)^2/2) = exp(-z^2/2) * Psi(u),
        Psi(u) = sum_i c_i exp(u q_i),   c_i = w_i exp(-r_i^2/2 + Y r_i) > 0.     (1)

    P is the Taylor polynomial of Psi at u = 0 over the cell's *kept* sources, and
    |u| <= 1 in the cell.

    Why the error bound holds.  Every error term below is *relative* to Psi (or f),
    so the error of log f is at most -log(1 - e) ~ e whatever the magnitude of f.
    Per cell the budget is e <= _KDE_CELL_ERROR + 2 _KDE_TRUNCATION_ERROR +
    _KDE_DROPPED_SIDE_ERROR = 1.8e-7 (checked for every cell when it is built), hence
    |error of log f| <= 2e-7 in exact arithmetic.

    (a) Taylor remainder.  With m the c-weighted mean of the kept positions, the
        c-weighted mean of q is ~0 (q_bar, from the computed moments) and Jensen
        gives Psi(u) >= Psi(0) exp(-|q_bar|).  With |exp(v) - T_P(v)| <=
        |v|^P/P! exp(max(v, 0)) (Lagrange), for |u| <= 1:

            |T(u) - Psi(u)| / Psi(u)
                <= sum_i c_i q_i^P exp(|q_i|) / (P! Psi(0) exp(-|q_bar|)).

        It is computed from the kept sources for every cell ("a posteriori") and a
        cell is halved until it is <= _KDE_CELL_ERROR (then the next cell grows by
        about (_KDE_CELL_ERROR/bound)^(1/P)).  The bound is the P-th absolute moment
        of the posterior of the source position given x: small wherever the
        posterior is concentrated, in dense data, in gaps and in tails alike.
    (b) Truncation.  Left-out sources are bounded against a lower bound of f on the
        cell:
        - near the data: f(x) >= f_low = the best single-source term at the cell's
          far end (the data are cut into segments at gaps > _KDE_SEGMENT_GAP h; the
          near zone of a segment reaches _KDE_NEAR_REACH h beyond it, so x is within
          2.5h of a source); sources farther than D* h from the cell are left out
          with D*^2 = 2 ln(W / (_KDE_TRUNCATION_ERROR f_low)), W the total weight:
          per side, their sum is <= W exp(-D*^2/2) = _KDE_TRUNCATION_ERROR f_low;
        - in a gap or a tail, one side at a time: with e the edge source of that
          side, w_e its weight and t h the distance from e to the nearest point of
          the cell, a source d h behind e contributes at most
          (w_i/w_e) exp(-t d - d^2/2) times e's term, for every x of the cell (the
          ratio falls as x moves away), so dropping d > d*,
          d*^2/2 + t d* = ln(W_side/(w_e _KDE_TRUNCATION_ERROR)), costs at most
          _KDE_TRUNCATION_ERROR relative to that side's sum.  A whole side is
          dropped where W_side exp(-t_side^2/2) <= _KDE_DROPPED_SIDE_ERROR
          w_e' exp(-t_e'^2/2) (the other edge's term): that ratio is monotone across
          the gap, so the two switch points are computed once, exactly (Fractions).
          When only the edge source is left (far tail), P = 1 and the cell extends
          to infinity.
    (c) Dense segments (>= _KDE_DENSE_MIN_VALUES values) use a uniform grid of cells
        of width h/2 built in one pass: the sources are binned into the same cells
        with moments M_{b,a} = sum w exp(-s^2/2) s^a (s = offset from the bin
        centre in units of h, |s| <= 1/4, a < Q = _KDE_MOMENTS), and the Taylor
        coefficients of Psi (demodulated at the node, then re-centred at the
        posterior mean) at every node are a discrete convolution of M with fixed
        kernels over |j| <= J bins, evaluated with sum(map(mul, kernel, window)).
        Bounds, all convolutions of B_b = M_{b,0} with positive kernels: the source
        expansion exp((t - j/2) s) ~ T_Q is majorised term by term
        (|Q_computed - Q_exact| <= e^{rho|r_bar|} sum_b B_b E(j), E(j) =
        exp(-(j/2)^2/2 + rho|j|/2) Y^Q/Q! e^Y, Y = (rho + |j|/2)/4, rho the cell's
        half-width in units of h); the P-th central moment needed by (a) comes out
        of the convolution (the factor exp(rho|r|) is bounded by exp(rho V), V the
        window's reach), with its own error bounded through the majorant
        |[t^P] F| <= F^(R)/R^P at R = 2; float rounding of the sums has its own
        kernel.  Window truncation (b) uses the mass outside the J bins.  A node
        whose total exceeds _KDE_CELL_ERROR is rebuilt from the raw sources by
        (a)-(b).
    (d) Exact cells (log-sum-exp of the kept sources) are used where a Taylor cell
        would be narrower than the float spacing: the crossover of a gap wider than
        ~1e7 h, where two single sources usually remain.  A class with weights
        spanning more than 1e280, h outside [1e-300, 1e300], values beyond 1e307 or
        a float spacing of its values coarser than h/2^30 is evaluated exactly
        everywhere (correct, but a pass over its values: pathological).

    Float rounding: the sums, the per-source terms and Horner's rule add a few 1e-16
    (bounded in each cell's check).  The final log P - z^2/2 + C is a sum of floats
    whose magnitudes are comparable to |log f|; where |log f| is astronomically large
    (x more than ~1e4 bandwidths from every value, |log f| > 5e7) its rounding, a few
    ulps of |log f|, exceeds 1e-6 in any float computation, the oracle included: the
    guarantee is |error| <= 2e-7 + a few ulp(|log f|).

    Cost: building is O(n Q) for the moments plus O(cells * window) for the
    convolution and the sparse cells (about 120 cells per class for 33,000 values);
    a query is one bisect plus K Horner evaluations of degree 9.  Exact sums instead
    of cells for small records were measured: even for 2 values per class the cells
    are faster once more than ~400 values are predicted, so they are always built.
    """

    def __init__(self, records, bandwidth="scott"):
        plan = _kde_plan(list(records), bandwidth)
        self.bandwidths = [h for _, _, h in plan]
        self.n_classes = len(plan)
        self._sources = []                   # per class: _KdeSources, or None
        self.stats = []                      # per class built into cells: its counters
        per_class = []
        for values, weights, h in plan:
            if not values:                   # no value in any class: no information
                cells = [(-INF, INF, ("none",))]
                self._sources.append(None)
            elif h == 0.0:
                cells = [(-INF, INF, ("point", frozenset(values)))]
                self._sources.append(None)
            else:
                sources = _KdeSources(values, weights, h)
                self._sources.append(sources)
                if not sources.cells_are_accurate():
                    cells = [(-INF, INF, sources.exact_cell())]
                elif len(values) == 1:
                    cells = [(-INF, INF, _kde_source_cell(
                        values[0], sources.log_weights[0], sources.inverse_bandwidth,
                        sources.log_scale))]
                else:
                    builder = _KdeCellBuilder(sources)
                    cells = builder.build()
                    self.stats.append(builder.stats)
            per_class.append(cells)
        self._merge(per_class)

    def _merge(self, per_class):
        """Merge the classes' cells: one bisect over all edges finds every class's."""
        starts = [[start for start, _, _ in cells[1:]] for cells in per_class]
        edges = sorted(set().union(*starts))
        merged = []
        largest = 0.0
        for k in range(len(edges) + 1):
            left = -INF if k == 0 else edges[k - 1]
            row = []
            for class_starts, cells in zip(starts, per_class):
                i = 0 if k == 0 else bisect_right(class_starts, left)
                row.append(cells[i][2])
            fast = all(len(cell) == 5 + _KDE_TERMS for cell in row)
            for cell in row:
                if len(cell) == 5 + _KDE_TERMS:
                    largest = max(largest, abs(cell[0]), abs(cell[2]))
            merged.append((fast, tuple(row)))
        self._edges = edges
        self._cells = merged                 # per interval: (all Taylor?, cells)
        # below this |x|, x - centre and x - mean cannot overflow in the fast path
        self._fast_limit = (_FLOAT_MAX - largest) * (1 - 1e-15)
        self.cell_counts = [len(cells) for cells in per_class]

    def log_densities(self, x):
        """(log f_1(x), ..., log f_K(x)) for a finite x, within 2e-7 of the exact."""
        if -self._fast_limit < x < self._fast_limit:
            fast, cells = self._cells[bisect_right(self._edges, x)]
            if fast:
                # the hot path: every cell a Taylor cell, Horner's rule unrolled
                out = []
                for (centre, inverse_half_width, mean, inverse_bandwidth, constant,
                     b0, b1, b2, b3, b4, b5, b6, b7, b8, b9) in cells:
                    t = (x - centre) * inverse_half_width
                    z = (x - mean) * inverse_bandwidth
                    out.append(log(((((((((b9 * t + b8) * t + b7) * t + b6) * t + b5)
                                       * t + b4) * t + b3) * t + b2) * t + b1) * t
                                   + b0) - 0.5 * z * z + constant)
                return tuple(out)
            return tuple([_kde_cell_log_density(cell, x) for cell in cells])
        if not isfinite(x):
            raise _kde_error("x", x, "a finite number")
        x = float(x)
        fast, cells = self._cells[bisect_right(self._edges, x)]
        return tuple([_kde_cell_log_density(cell, x) for cell in cells])

    def exact_log_densities(self, x):
        """The direct sum over every training value, in log space (the oracle)."""
        if not isfinite(x):
            raise _kde_error("x", x, "a finite number")
        x = float(x)
        out = []
        for k, sources in enumerate(self._sources):
            if sources is None:              # a point mass, or no values at all
                out.append(_kde_cell_log_density(self._cells[0][1][k], x))
                continue
            out.append(_kde_exact_log_density(
                ("exact", sources.values, sources.log_weights, sources.bandwidth,
                 sources.log_scale), x))
        return tuple(out)


class _KernelDensity(_ValueRecord):
    """A Gaussian kernel density estimate per class from the record of values:
    f_c(x) = (1/n) sum_i w_i N(x; x_i, h_c^2), bandwidth h_c by the bandwidth
    parameter ("scott" or "silverman", as scipy.stats.gaussian_kde computes them in
    one dimension, a weight of w counting a row w times; or a number, the kernel's
    standard deviation).  A class whose own variance is 0 or undefined uses the
    pooled variance in the rule, a class without values the pooled density; when
    every training value is the same, the density is a point mass (as a Gaussian with
    zero variance)."""

    __slots__ = ()

    def compile(self, classes, params, shared):
        """The _KdeScorer of the classes' compiled densities."""
        zeros = (0.0,) * len(classes)
        records = [self.counts.get(label, {}) for label in classes]
        if not any(records):
            return _NoEvidence(zeros, "kde")
        bandwidth = params["bandwidth"]
        if not isinstance(bandwidth, str):
            bandwidth = float(bandwidth)
        return _KdeScorer(_KernelDensities(records, bandwidth), records, zeros)


class _KdeScorer(_Scorer):
    """x -> per-class log f_c(x) of the kernel density estimates."""

    __slots__ = ("zeros", "feature", "records")

    def __init__(self, feature, records, zeros):
        self.feature = feature
        self.records = records
        self.zeros = zeros

    def __getitem__(self, x):
        """Per class log f_c(x); zeros for a missing x."""
        if type(x) is not float or not isfinite(x):
            x = _finite_or_missing(x)
            if x is None:
                return self.zeros
        return self.feature.log_densities(x)

    def informative(self, name, classes):
        """The feature's class separation as for a Gaussian: the largest average
        log-likelihood ratio log f_a(x) - log f_b(x) over class a's training values
        (an estimate of KL(f_a || f_b)); favoured label a."""
        best, favoured = 0.0, classes[0]
        for a, record in enumerate(self.records):
            if not record:
                continue
            total = sum(record.values())
            logs = {x: self.feature.log_densities(x) for x in record}
            for b in range(len(classes)):
                if b == a:
                    continue
                divergence = float(sum(w * (logs[x][a] - logs[x][b]) for x, w in
                                       record.items() if logs[x][a] > -INF) / total)
                if divergence != divergence:
                    divergence = INF
                if divergence > best:
                    best, favoured = divergence, classes[a]
        return [(name, None, best, favoured)]

    def table(self, classes):
        """{"kind": "kde", "bandwidth": {label: h}}."""
        return {"kind": "kde", "bandwidth": dict(zip(classes, self.feature.bandwidths))}


# -- pairwise counts: the statistics of the semi-naive families ----------------------

_PAIR_SHIFT = 32                 # a pair's key: (id of the lower value) << 32 | id


class _ValueIds(dict):
    """(feature position, value) -> small int, assigned on first sight; .order is
    the reverse list (not .items, which pickle calls as dict's).  Pair counts are
    keyed by two of these ids in one int."""

    __slots__ = ("order",)

    def __init__(self):
        super().__init__()
        self.order = []

    def __missing__(self, item):
        """The next number, for an item seen for the first time."""
        new = self[item] = len(self.order)
        self.order.append(item)
        return new

    def __copy__(self):
        """An independent copy."""
        twin = _ValueIds()
        twin.update(self)
        twin.order = list(self.order)
        return twin


def _count_keys(counter, keys):
    """counter[key] += 1 for each key (collections' C helper where there is one)."""
    try:
        from collections import _count_elements
    except ImportError:                   # another Python: the same, in Python
        get = counter.get
        for key in keys:
            counter[key] = get(key, 0) + 1
        return
    _count_elements(counter, keys)


class _PairCounts(_Distribution):
    """Exact weighted counts N(c, x_p, x_j) of every two values that occur together
    in a row of class c, features p < j: the statistics a semi-naive family adds to
    naive Bayes' (AODE's one-dependence estimates; the tree and network families'
    conditional tables of a feature given one other).

    A value is the pair (feature position, value as counted: a category, or a number
    before it is cut into bins), numbered on first sight; a pair of numbers a < b is
    one int key a << 32 | b.  Memory: one count per class and pair of values that
    occur together, at most K * V^2 / 2 for V distinct values of all features.
    """

    __slots__ = ("ids", "pairs")
    file_fields = ("pairs",)

    def __init__(self):
        self.ids = _ValueIds()
        self.pairs = {}                  # label -> {pair key: weighted count}

    def add(self, label, values, weights):
        """Count the pairs of one class's rows, each row a list of its present values
        as (feature position, value) items; weights exact, or None for weight 1."""
        get_id = self.ids.__getitem__
        self.add_ids(label, [sorted(map(get_id, row)) for row in values], weights)

    def add_ids(self, label, rows, weights):
        """Count the pairs of one class's rows given as sorted lists of value ids."""
        mine = self.pairs.setdefault(label, {})
        integers, shift = (repeat(1), 0) if weights is None else _weight_integers(weights)
        # rows of weight 1 are counted directly; any other weight collects its rows'
        # pairs first, then adds them times the weight
        by_weight = {}
        for ids, weight in zip(rows, integers):
            target = mine if weight == 1 and not shift else by_weight.setdefault(weight, {})
            for n, a in enumerate(ids[:-1]):
                _count_keys(target, map((a << _PAIR_SHIFT).__add__, ids[n + 1:]))
        for weight, counted in by_weight.items():
            get = mine.get
            for key, n in counted.items():
                mine[key] = get(key, 0) + _ratio(n * weight, 1 << shift)

    def size(self, label=None):
        """The number of counts kept (of one class, or of all)."""
        if label is not None:
            return len(self.pairs.get(label, ()))
        return sum(map(len, self.pairs.values()))

    def absorb(self, other):
        """Add other's counts (its value numbers mapped onto these)."""
        remap = [self.ids[item] for item in other.ids.order]
        for label, theirs in other.pairs.items():
            mine = self.pairs.setdefault(label, {})
            get = mine.get
            for key, count in theirs.items():
                a, b = remap[key >> _PAIR_SHIFT], remap[key & 0xFFFFFFFF]
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                mine[key] = get(key, 0) + count

    def keyed_as_mine(self, other):
        """other's counts {label: {pair key: count}} keyed by these value numbers (None
        for a pair whose values these statistics never numbered)."""
        ids = [dict.get(self.ids, item) for item in other.ids.order]
        keyed = {}
        for label, theirs in other.pairs.items():
            mine = keyed[label] = {}
            for key, count in theirs.items():
                a, b = ids[key >> _PAIR_SHIFT], ids[key & 0xFFFFFFFF]
                if a is None or b is None:
                    mine[None] = count
                    continue
                mine[a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a] = count
        return keyed

    def pair_name(self, key):
        """A pair key as words: 'the pair (feature 0 = 'a', feature 2 = 'x')'."""
        if key is None:
            return "a pair of values never seen together"
        (p, v), (j, u) = self.ids.order[key >> _PAIR_SHIFT], self.ids.order[key & 0xFFFFFFFF]
        return "the pair (feature %d = %s, feature %d = %s)" % (p, _shown(v), j, _shown(u))

    def deficit(self, other, emptied):
        """The first pair of values other counted more often in a class than these."""
        keyed = self.keyed_as_mine(other)
        for label in _labels_to_check(keyed, emptied):
            problem = _counts_deficit(self.pairs.get(label, {}), keyed.get(label, {}),
                                      label, self.pair_name, emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's counts (its value numbers mapped onto these); pairs whose
        count reaches 0 disappear."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, theirs in self.keyed_as_mine(other).items():
            mine = self.pairs.get(label)
            if mine is not None:
                _subtract_counts(mine, theirs)
                if not mine:
                    del self.pairs[label]

    def renumbered(self, positions, convert=None):
        """The same counts with feature positions renumbered ({old: new}), values of
        the positions in ``convert`` ({old: function}) counted anew, and only the
        values that some pair still holds numbered."""
        twin = _PairCounts()
        get_id = twin.ids.__getitem__
        items = self.ids.order
        convert = convert or {}
        for label, counted in self.pairs.items():
            mine = twin.pairs[label] = {}
            for key, count in counted.items():
                (p, v), (j, u) = items[key >> _PAIR_SHIFT], items[key & 0xFFFFFFFF]
                v = convert[p](v) if p in convert else v
                u = convert[j](u) if j in convert else u
                a, b = get_id((positions[p], v)), get_id((positions[j], u))
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                mine[key] = mine.get(key, 0) + count
        return twin

    def to_file(self, classes, what="a value"):
        """{"pairs": [[p, j, [[value of p, value of j, [count per class]], ...]], ...]}."""
        by_pair = defaultdict(dict)             # (p, j) -> {(v, u): [count per class]}
        items = self.ids.order
        for k, label in enumerate(classes):
            for key, count in self.pairs.get(label, {}).items():
                (p, v), (j, u) = items[key >> _PAIR_SHIFT], items[key & 0xFFFFFFFF]
                if p > j:
                    (p, v), (j, u) = (j, u), (p, v)
                cell = by_pair[p, j].setdefault((v, u), [0] * len(classes))
                cell[k] = count

        def order(cell):
            return _canonical(cell[0][0]), _canonical(cell[0][1])
        return {"pairs": [[p, j, [[_encode(v, what), _encode(u, what),
                                   [_exact_text(c) for c in counts]]
                                  for (v, u), counts in sorted(cells.items(), key=order)]]
                          for (p, j), cells in sorted(by_pair.items())]}

    @classmethod
    def from_file(cls, data, where, classes, width):
        """The counts of the model file's "pairs" field, validated (``width``: the
        number of features)."""
        pairs = _field(data, "pairs")
        _expect(type(pairs) in (list, _LazyItems), "pairs", pairs, "a list")
        stats = cls()
        get_id = stats.ids.__getitem__
        for n, entry in enumerate(pairs):
            here = "%s[%d]" % (where, n)
            _expect(type(entry) is list and len(entry) == 3 and type(entry[0]) is int and
                    type(entry[1]) is int and 0 <= entry[0] < entry[1] < width and
                    type(entry[2]) is list, here, entry,
                    "[feature position p, feature position j > p, [[value, value, "
                    "[count per class]], ...]]")
            p, j, cells = entry
            for cell in cells:
                _expect(type(cell) is list and len(cell) == 3 and type(cell[2]) is list
                        and len(cell[2]) == len(classes), here, cell,
                        "[value, value, [one count per class (%d)]]" % len(classes))
                a = get_id((p, _decode(cell[0], here)))
                b = get_id((j, _decode(cell[1], here)))
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                for label, text in zip(classes, cell[2]):
                    count = _decode_exact(text, here)
                    if count:
                        mine = stats.pairs.setdefault(label, {})
                        mine[key] = mine.get(key, 0) + count
        return stats


class _Unseen:
    """The key of a categorical value never seen in training (the pair tables')."""

    def __repr__(self):
        """'<unseen>'."""
        return "<unseen>"


_UNSEEN = _Unseen()


class _PairTable:
    """Pairwise counts compiled for prediction: what a semi-naive family's compiled
    model builds on (AODE's is one; a tree or network family would read its
    conditional tables from the same numbers).

    A feature's value, or its bin, is a key; every (feature, key), and each
    categorical feature's "unseen value", has a number, consecutive within a feature.
    Built from a family's statistics (class_count, features, pair_counts) once per
    fitted state:
      key_of[j]     None (the value is the key), a _BinKeys (a number's bin), or False
                    (the feature is not used: neither categorical nor discretized)
      kid           (feature, key) -> key number;  key_list: number -> (feature, key)
      unseen[j]     the number of feature j's unseen value (None for bins, unused)
      sizes[j]      S_j, the feature's number of keys (at least 1)
      segments      feature -> (first, last + 1) of its key numbers
      single        key number -> [N(c, key) per class];  frequency: its total N(key)
      present[j]    N_j, the weighted number of rows with feature j present
      pairs         per class, {a << 32 | b: N(c, key a, key b)} with a < b key numbers
    """

    def __init__(self, statistics, classes):
        self.classes = classes
        self.names = names = statistics.names()
        self.width = len(names)
        k = self.k = len(classes)
        self.zeros = (0.0,) * k
        self.key_of = []
        self.kid = {}
        self.unseen = []
        self.key_list = []
        single = {}
        sizes = []
        for j, name in enumerate(names):
            _progress("feature", j + 1, len(names))
            feature = statistics.features[name]
            stats = feature.stats
            if feature.name == "categorical":
                self.key_of.append(None)
                keys = stats.values()
            elif feature.name == "discretized":
                values, columns = stats.weight_columns(classes)
                cuts = _mdl_cut_points(values, columns) if values else []
                self.key_of.append(_BinKeys(cuts, bisect_left))
                keys = list(range(len(cuts) + 1))
            else:
                self.key_of.append(False)
                keys = []
            for key in keys:
                self.kid[j, key] = len(self.key_list)
                self.key_list.append((j, key))
            self.unseen.append(None)
            if self.key_of[j] is None:
                self.unseen[j] = len(self.key_list)
                self.key_list.append((j, _UNSEEN))
            sizes.append(max(len(keys), 1))
            if feature.name == "categorical":
                for c, label in enumerate(classes):
                    for value, count in stats.counts.get(label, {}).items():
                        single.setdefault(self.kid[j, value], [0] * k)[c] += count
            elif feature.name == "discretized":
                for i, value in enumerate(values):
                    counts = single.setdefault(self.kid[j, bisect_left(cuts, value)],
                                               [0] * k)
                    for c, column in enumerate(columns):
                        counts[c] += column[i]
        _progress("feature")
        self.sizes = sizes
        self.feature_of = feature_of = [j for j, _ in self.key_list]
        ends = {}
        for n, j in enumerate(feature_of):
            ends[j] = (ends.get(j, (n, n))[0], n + 1)
        self.segments = ends
        self.single = single
        self.frequency = {kid: sum(counts) for kid, counts in single.items()}
        self.present = [0] * self.width
        for kid, frequency in self.frequency.items():
            self.present[feature_of[kid]] += frequency
        self.pairs = self._numbered_pairs(statistics.pair_counts, classes)
        self.neighbour_index = None

    def _numbered_pairs(self, pair_counts, classes):
        """The pair counts re-keyed by key numbers: one flat dict per class."""
        remap = [self.kid.get((j, self.key(j, value))) if self.key_of[j] is not False
                 else None for j, value in pair_counts.ids.order]
        pairs = []
        for c, label in enumerate(classes):
            _progress("pair counts, class", c + 1, len(classes))
            counted = pair_counts.pairs.get(label, {})
            keys = list(counted)
            a = list(map(remap.__getitem__, map(_PAIR_SHIFT.__rrshift__, keys)))
            b = list(map(remap.__getitem__, map(0xFFFFFFFF .__and__, keys)))
            counts = list(counted.values())
            if None in a or None in b:    # a feature the model does not use
                kept = [x is not None and y is not None for x, y in zip(a, b)]
                a, b = list(compress(a, kept)), list(compress(b, kept))
                counts = list(compress(counts, kept))
            # by builtins: (lower << 32) | higher; bins may map several values to one
            keys = list(map(add, map(int.__lshift__, map(min, a, b), repeat(_PAIR_SHIFT)),
                            map(max, a, b)))
            flat = dict(zip(keys, counts))
            if len(flat) < len(keys):     # several values in one bin: add them up
                if _INT.issuperset(map(type, counts)) and sum(counts) < 8 * len(counts):
                    flat = {}             # whole counts: counted by the C helper
                    _count_keys(flat, chain.from_iterable(map(repeat, keys, counts)))
                else:
                    flat = {}
                    get = flat.get
                    for key, count in zip(keys, counts):
                        flat[key] = get(key, 0) + count
            pairs.append(flat)
        _progress("pair counts, class")
        return pairs

    def key(self, j, value):
        """The key of feature j's value: the value itself, or its bin."""
        key_of = self.key_of[j]
        return value if key_of is None else key_of(value)

    def row_keys(self, row):
        """The key numbers of the row's present, used features (a categorical value
        never seen in training: its feature's "unseen" number); _RowError for a value
        of the wrong kind."""
        keys = []
        for j, value in enumerate(row):
            if self.key_of[j] is False or value is None or _is_missing(value):
                continue
            try:
                kid = self.kid.get((j, self.key(j, value)), self.unseen[j])
            except _BadValue as error:
                raise _RowError(", feature %r is %s; expected %s"
                                % (self.names[j], _shown(error.value), error.expected)) \
                    from None
            except TypeError:
                raise _RowError(", feature %r is %s; expected a hashable value"
                                % (self.names[j], _describe(value))) from None
            keys.append(kid)
        return keys

    def neighbours(self, kid):
        """{key number b: [N(c, kid, b) per class]} of the keys that occur with kid in
        some row: the sparse form of pair_column, in memory linear in the counts (an
        index of every key's neighbours, built on first use)."""
        index = self.neighbour_index
        if index is None:
            index = defaultdict(dict)
            no_counts = [0] * self.k
            for c, flat in enumerate(self.pairs):
                for key, count in flat.items():
                    a, b = key >> _PAIR_SHIFT, key & 0xFFFFFFFF
                    index[a].setdefault(b, list(no_counts))[c] = count
                    index[b].setdefault(a, list(no_counts))[c] = count
            self.neighbour_index = index
        return index.get(kid, {})

    def pair_column(self, kid):
        """Per class, N(c, kid, b) for every key number b (0 at b = kid)."""
        # the pair keys of kid and every key number b: (lower << 32) | higher
        pair_keys = list(map(add, map(int.__lshift__, range(kid), repeat(_PAIR_SHIFT)),
                             repeat(kid)))
        pair_keys.append(-1)
        pair_keys.extend(map(add, repeat(kid << _PAIR_SHIFT),
                             range(kid + 1, len(self.key_list))))
        return [list(map(flat.get, pair_keys, repeat(0))) for flat in self.pairs]


def _counted_number(params):
    """How the pairwise and network families count a number: as a float, rounded
    to significant_digits when that is set, -0.0 as 0.0."""
    rounding = _round_to_digits(params.get("significant_digits"))

    def counted(value):
        value = float(value)
        if rounding is not None:
            value = rounding(value)
        return 0.0 if value == 0 else value
    return counted


def _zeros_and_rest(vectors, c):
    """(-(number of zero probabilities), sum of the other log terms) of class c."""
    terms = [vector[c] for vector in vectors]
    return -terms.count(-INF), sum([t for t in terms if t != -INF])


# -- rows: the statistics of the network families -----------------------------------

class _RowCounts(_Distribution):
    """Every distinct row of a class, with its exact weight and its number of rows: the
    statistics of the network families, whose structure search needs counts of any
    set of features (the data to recount them, not a table per set).  A row is the
    tuple of its values of the features the family uses (a category, a number as
    counted, None for a missing value).  Memory: one entry per distinct row and
    class, at most one per training row (round numbers with significant_digits to
    keep it smaller)."""

    __slots__ = ("rows",)
    file_fields = ("row_counts",)

    def __init__(self):
        self.rows = {}                    # label -> {row tuple: [weight, number of rows]}

    def add(self, label, values, weights):
        """Count one class's rows (tuples); weights exact, or None for weight 1."""
        mine = self.rows.setdefault(label, {})
        if weights is None:
            counted = Counter(values)
            for row, n in counted.items():
                cell = mine.get(row)
                if cell is None:
                    mine[row] = [n, n]
                else:
                    cell[0] += n
                    cell[1] += n
            return
        integers, shift = _weight_integers(weights)
        counted = {}
        for row, weight in zip(values, integers):
            cell = counted.get(row)
            if cell is None:
                counted[row] = [weight, 1]
            else:
                cell[0] += weight
                cell[1] += 1
        for row, (weight, n) in counted.items():
            weight = _ratio(weight, 1 << shift)
            cell = mine.get(row)
            if cell is None:
                mine[row] = [weight, n]
            else:
                cell[0] += weight
                cell[1] += n

    def absorb(self, other):
        """Add other's rows."""
        for label, theirs in other.rows.items():
            mine = self.rows.setdefault(label, {})
            for row, (weight, n) in theirs.items():
                cell = mine.get(row)
                if cell is None:
                    mine[row] = [weight, n]
                else:
                    cell[0] += weight
                    cell[1] += n

    def deficit(self, other, emptied):
        """The first row other holds more weight or more rows of than these (rows
        already in the same features); a row's weight and its number of rows must
        reach 0 together: the structure search counts rows, so forgetting part of a
        row's weight, or a weight without its rows, is refused."""
        for label in _labels_to_check(other.rows, emptied):
            mine, theirs = self.rows.get(label, {}), other.rows.get(label, {})
            for row, (weight, n) in theirs.items():
                have = mine.get(row, (0, 0))
                if weight > have[0] or n > have[1]:
                    return "class %s: row %s has a weight of %s in %d rows, less than the " \
                        "%s in %d rows to forget" % (_shown(label), _shown(row),
                                                     _plain(have[0]), have[1],
                                                     _plain(weight), n)
                if (weight == have[0]) != (n == have[1]):
                    return "class %s: row %s would keep %s of its weight in %d rows (this " \
                        "model also counts rows: forget a row with the weight it was " \
                        "learned with)" % (_shown(label), _shown(row),
                                           _plain(have[0] - weight), have[1] - n)
            if label in emptied:
                for row, (weight, n) in mine.items():
                    if row not in theirs or theirs[row][1] != n:
                        return "class %s: row %s would be kept after all its rows are " \
                            "forgotten" % (_shown(label), _shown(row))
        return None

    def subtract(self, other):
        """Remove other's rows; a row whose count reaches 0 disappears."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, theirs in other.rows.items():
            mine = self.rows.get(label)
            if mine is None:
                continue
            for row, (weight, n) in theirs.items():
                cell = mine[row]
                if n == cell[1]:
                    del mine[row]
                else:
                    mine[row] = [cell[0] - weight, cell[1] - n]
            if not mine:
                del self.rows[label]

    def size(self):
        """The number of distinct rows kept (over all classes)."""
        return sum(map(len, self.rows.values()))

    def to_file(self, classes, what="a value"):
        """{"row_counts": per class [[[values], weight, number of rows], ...]}, rows
        in the canonical order of their values."""
        def order(item):
            return tuple(map(_canonical, item[0]))
        return {"row_counts": [
            [[[_encode(v, what) for v in row], _exact_text(weight), n]
             for row, (weight, n) in sorted(self.rows.get(label, {}).items(), key=order)]
            for label in classes]}

    @classmethod
    def from_file(cls, data, classes, class_count, width):
        """The rows of the model file's "row_counts" field, validated (``width``: the
        number of values in a row)."""
        per_class = _field(data, "row_counts")
        _expect(type(per_class) in (list, _LazyItems), "row_counts", per_class,
                "one list of rows per class")
        stats = cls()
        count = 0
        for k, rows in enumerate(per_class):
            here = "row_counts[%d]" % k
            _expect(k < len(classes) and type(rows) is list, here, rows,
                    "one list of [[values], weight, number of rows] per class (%d)"
                    % len(classes))
            label = classes[k]
            mine = {}
            total = 0
            for i, item in enumerate(rows):
                at = "%s[%d]" % (here, i)
                _expect(type(item) is list and len(item) == 3 and type(item[0]) is list and
                        len(item[0]) == width and type(item[2]) is int and item[2] > 0, at,
                        item, "[[%d values], weight, number of rows > 0]" % width)
                row = tuple(_decode(v, at) for v in item[0])
                for value in row:
                    _expect(value is None or (_hashable(value) and not _is_missing(value)),
                            at, value, "hashable values or null")
                weight = _decode_exact(item[1], at)
                _expect(weight > 0, at, item[1], "a weight > 0")
                if row in mine:
                    raise _Invalid("%s repeats a row; expected distinct rows" % at)
                mine[row] = [weight, item[2]]
                total += weight
            if total > class_count[label]:
                raise _Invalid("%s adds up to more than class_count for %s"
                               % (here, _shown(label)))
            if mine:
                stats.rows[label] = mine
            count += 1
        _expect(count == len(classes), "row_counts", count, "one list per class (%d)"
                % len(classes))
        return stats


# ----------------------------------------------------------------------------------
# Feature kinds
#
# A kind is a thin adapter from one feature's column of row values to a distribution
# of the section above: how values are read and checked (for fitting, and at
# prediction time when they must be transformed), how the command line reads a cell,
# and which model parameters it takes.  The registry _KINDS at the end of the section
# lists them; features=, the model file and the command line's --KIND COLS options
# all read it.  Adding a kind: a distribution class (only if none above fits), an
# adapter, and one line in _KINDS.
# ----------------------------------------------------------------------------------


class _Parameter:
    """A model parameter: its default, and a check returning None when a value is
    fine, else what was expected ("a finite number >= 0") or a whole description
    that starts with the parameter's name ("class_prior sums to 1.1; ...").
    ``option`` is its command-line option's (type or choices, help), or None when
    the command line does not set it; the type bool makes a flag, and a third item
    holds more argparse keywords (nargs: the values' parts are joined in a tuple)."""

    __slots__ = ("default", "check", "option")

    def __init__(self, default, check, option=None):
        self.default = default
        self.check = check
        self.option = option


def _finite_at_least_0(value):
    number = _number(value)
    if number is None or not isfinite(number) or number < 0:
        return "a finite number >= 0"
    return None


def _integer_at_least(smallest, allow_none=False):
    def check(value):
        if value is None and allow_none:
            return None
        if type(value) is not int or value < smallest:
            return "%san integer >= %d" % ("None or " if allow_none else "", smallest)
        return None
    return check


def _one_of(*choices):
    def check(value):
        if not isinstance(value, str) or value not in choices:
            return " or ".join('"%s"' % c for c in choices)
        return None
    return check


def _cli_number(text):
    """A number option: an int when written as one (--ddof 1), else a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _reals(column, fast=False):
    """The non-missing values of a numeric column as floats; _BadValue otherwise.
    fast: a column of plain floats comes back as it is (NaN and infinities included,
    which _scaled_integers rejects by raising) and anything else raises TypeError."""
    if fast:
        types = set(map(type, column))
        if types == _FLOAT:
            return column
        if types == _FLOAT_NONE:
            return [v for v in column if v is not None]
        if types <= _FLOAT_INT:
            return list(map(float, column))
        raise TypeError
    try:
        xs = list(map(float, column)) if _FLOAT_INT.issuperset(map(type, column)) else None
    except OverflowError:                 # an int beyond the float range
        xs = None
    if xs is None:
        xs = []
        for value in column:
            number = _number(value)
            if number is None:
                if _is_missing(value):
                    continue
                raise _BadValue(value, "a real number")
            if not isfinite(number) and number == number:
                raise _BadValue(value, "a finite number")
            xs.append(number)
    if not all(map(isfinite, xs)):
        bad = next((x for x in xs if x == x and not isfinite(x)), None)
        if bad is not None:
            raise _BadValue(bad, "a finite number")
        xs = [x for x in xs if x == x]
    return xs


def _number_cell(cell):
    """A CSV cell of a numeric feature: a finite float, None for "nan"."""
    try:
        number = float(cell)
    except ValueError:
        raise _BadValue(cell, "a number") from None
    if not isfinite(number):
        if number != number:              # nan: a missing value, as in the library
            return None
        raise _BadValue(cell, "a finite number")
    return number


def _count_cell(cell):
    """A CSV cell of a Poisson feature: a non-negative integer."""
    try:
        try:
            return _count_value(int(cell))
        except ValueError:
            number = float(cell)
        return None if number != number else _count_value(number)
    except (ValueError, _BadValue):
        raise _BadValue(cell, "a non-negative integer count") from None


def _aligned(weights, keep):
    """The weights of the rows kept (keep: a list of bools), in weights' own type."""
    if all(keep):
        return weights
    if isinstance(weights, _Weights):
        return weights.subset(keep)
    return list(compress(weights, keep))


def _present_reals(column, weights, fast=False):
    """(values, weights) of the present values of a numeric column as floats, with
    their weights (None: weight 1); see _reals for ``fast``."""
    if weights is None:
        return _reals(column, fast), None
    keep = [not _is_missing(v) for v in column]
    return _reals(list(compress(column, keep)), fast), _aligned(weights, keep)


def _present(values, weights):
    """(values, weights) without the missing values (None), weights aligned."""
    if weights is None:
        return [v for v in values if v is not None], None
    keep = [v is not None for v in values]
    return list(compress(values, keep)), _aligned(weights, keep)


class _Kind:
    """A feature kind: how one feature's values are read into its distribution.

    A kind is a thin adapter.  The statistics live in its distribution (``stats``, a
    _Distribution of the section above); the kind says how one class's column of row
    values becomes the distribution's values, how the command line reads a cell and
    which model parameters it takes.  Adding a kind is one subclass (and one new
    distribution, if none above fits) and one line in _KINDS.

    Class attributes:
      name           in features=, the model file and the command line
      distribution   the _Distribution class it fills (its file_fields are the kind's)
      parameters     {name: _Parameter} of the model parameters it reads
      blocked        True: add() gets blocks of rows; False: each class's whole column
                     in one call (for kinds whose additions cost a merge, such as text)
    Per kind, overridden as needed:
      read(column, weights, params) -> (values, weights)
                     the present values of one class's column as the distribution
                     counts them, and their weights (None for weight 1): the true
                     weights as the caller gave them, ints or floats (a _Weights,
                     whose .scaled form lets the library's distributions sum them
                     exactly; _aligned keeps it when values are dropped); _BadValue
                     for a wrong value
      convert_cell(text)   (staticmethod) a CSV cell as a value of this kind
      shared(kinds, params)   (classmethod) what compiling needs from all the features
                     of the kind at once (the Gaussian var_smoothing epsilon)
      read_value(value)    optional: a value at prediction time as the
                     distribution's scorer takes it (None for a missing value), for a
                     kind that transforms its values (log x, say); when a kind defines
                     it, its scorer reads each value through it
      compile(classes, params, shared)   the _Scorer (by default the distribution's)
    Defined here once for every kind, so that a subclass stays its own class through
    all of them: add, empty, copy, absorb, deficit, subtract, describe,
    class_statistics, to_file and from_file.
    """

    name = None
    distribution = _Nothing
    parameters = {}
    file_fields = ()
    blocked = True
    __slots__ = ("stats",)

    def __init_subclass__(cls, **options):
        """A kind's model-file fields are its distribution's."""
        super().__init_subclass__(**options)
        cls.file_fields = cls.distribution.file_fields

    def __init__(self, stats=None):
        self.stats = self.distribution() if stats is None else stats

    def add(self, label, column, weights, params):
        """Count one class's column of this feature (weights as for read)."""
        values, weights = self.read(column, weights, params)
        if values:
            self.stats.add(label, values, weights)

    def read(self, column, weights, params):
        """(values, weights) the distribution counts: here the column as it is."""
        return column, weights

    @staticmethod
    def convert_cell(text):
        """A CSV cell as a value: the text itself."""
        return text

    def twin(self, stats):
        """A feature of the same kind (the same class) holding ``stats``."""
        twin = type(self).__new__(type(self))
        twin.stats = stats
        if hasattr(self, "__dict__"):     # a subclass without __slots__
            twin.__dict__.update(self.__dict__)
        return twin

    def empty(self):
        """The same kind with no counts (declared categories kept)."""
        return self.twin(self.stats.empty())

    def copy(self):
        """An equal, independent copy of the same class."""
        return self.twin(self.stats.copy())

    def absorb(self, other):
        """Add other's statistics, in place (exact: merge equals fit)."""
        self.stats.absorb(other.stats)

    def deficit(self, other, emptied):
        """What other's statistics hold beyond these (see _Distribution.deficit)."""
        return self.stats.deficit(other.stats, emptied)

    def subtract(self, other):
        """Remove other's statistics, in place (exact: forget equals a fit without
        those rows)."""
        self.stats.subtract(other.stats)

    @classmethod
    def shared(cls, features, params, class_count=None):
        """What compiling needs from all the kind's features together (and the class
        counts): nothing."""
        return None

    read_value = None

    def compile(self, classes, params, shared):
        """The scorer of the feature (see _Scorer): the distribution's, reading each
        value through read_value when the kind has one."""
        scorer = self.stats.compile(classes, params, shared)
        return scorer if self.read_value is None else _Converted(scorer, self.read_value)

    def describe(self, params):
        """One line about the fitted feature, for the command line."""
        return self.stats.describe(params)

    def class_statistics(self, classes, params):
        """What the feature's statistics say of each class (see _Distribution)."""
        return self.stats.class_statistics(classes, params)

    def to_file(self, classes, what):
        """The feature's fields of the model file (``what`` names its values)."""
        return self.stats.to_file(classes, what)

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The feature from its fields of the model file, validated."""
        return cls(cls.distribution.from_file(feature, where, classes, class_count))


# -- categorical ------------------------------------------------------------------

class _Categorical(_Kind):
    """Any hashable values, counted as they are: P(v | c) = (N_cjv + alpha) / (N_cj +
    alpha * S_j); a value never seen in training gets alpha / (N_cj + alpha * S_j).

    Rows in nltk's style ({word: True}, the absent words left out): a feature whose
    every value seen in training is True counts each training row that lacks it (an
    absent key, None or NaN) as False, so that "absent" is evidence, as nltk's
    NaiveBayesClassifier counts it; at prediction an absent value is still skipped,
    as there.  (Otherwise such a feature would learn nothing: P(True | c) = 1.)"""

    name = "categorical"
    distribution = _ValueCounts
    __slots__ = ()

    @classmethod
    def shared(cls, features, params, class_count=None):
        """The class counts, for the features whose only value is True."""
        return class_count

    def compile(self, classes, params, shared):
        """The scorer; a feature whose only value is True counts its absences as
        False (see the class docstring)."""
        stats = self.stats
        if shared is not None and not stats.declared and len(stats.seen) == 1 and \
                next(iter(stats.seen)) is True:
            stats = stats.with_absences_as(False, shared)
        return stats.compile(classes, params, None)


class _Undecided(_Categorical):
    """A feature whose kind is still to be inferred: no value has been seen yet.

    It scores like a feature with no values (it contributes nothing) and takes its
    kind from the first batch in which it has values; feature_kinds_ calls it
    "gaussian", since all of its (zero) values are numbers.
    """

    name = None
    __slots__ = ()

    def compile(self, classes, params, shared):
        """No values: a scorer that says nothing."""
        return _NoEvidence((0.0,) * len(classes), "gaussian")

    def describe(self, params):
        """'no values yet'."""
        return "no values yet"

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """A feature without a kind, which has no values either."""
        stats = cls.distribution.from_file(feature, where, classes, class_count)
        if stats.values():
            raise _Invalid("%s has values but no kind; expected \"categorical\"" % where)
        return cls(stats)


# -- Gaussian ---------------------------------------------------------------------

class _Gaussian(_Kind):
    """Finite real numbers, normal per class (_NormalSums)."""

    name = "gaussian"
    distribution = _NormalSums
    parameters = {
        "ddof": _Parameter(0, _finite_at_least_0, (_cli_number, "Gaussian variance divisor "
                                                   "N - ddof (default 0; 1 as R)")),
        "var_smoothing": _Parameter(1e-9, _finite_at_least_0, (
            _cli_number, "added variance, times the largest variance (default 1e-9)")),
    }
    convert_cell = staticmethod(_number_cell)
    __slots__ = ()

    def add(self, label, column, weights, params):
        """Add one class's values; _BadValue for anything but a finite number."""
        try:                              # plain floats: summed without a check first
            values, weights_read = _present_reals(column, weights, fast=True)
            if values:
                self.stats.add(label, values, weights_read)
        except (ValueError, OverflowError, TypeError):
            # a NaN, an infinity or an odd value: the careful path finds out which
            super().add(label, column, weights, params)

    def read(self, column, weights, params):
        """The present values as floats; _BadValue for anything but a finite number."""
        return _present_reals(column, weights)

    @classmethod
    def shared(cls, features, params, class_count=None):
        """The var_smoothing epsilon of all the kind's features (see _NormalSums)."""
        return _NormalSums.smoothing([feature.stats for feature in features], params)


# -- ignore -------------------------------------------------------------------------

class _Ignored(_Kind):
    """A feature declared "ignore": nothing is counted, nothing is scored."""

    name = "ignore"
    distribution = _Nothing
    convert_cell = staticmethod(lambda text: None)
    __slots__ = ()

    def read(self, column, weights, params):
        """Nothing is read."""
        return [], None


# -- text -----------------------------------------------------------------------------

def _callable_or_none(value):
    """The check of tokenizer=: None or a callable."""
    return None if value is None or callable(value) else "None or a callable"


def _true_or_false(value):
    """The check of a yes-or-no parameter (complement_norm=)."""
    return None if value is True or value is False else "True or False"


def _ngram_range_check(value):
    """The check of ngram_range=: (min_n, max_n), integers, 1 <= min_n <= max_n."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and \
            all(type(n) is int for n in value) and 1 <= value[0] <= value[1]:
        return None
    return "(min_n, max_n): two integers with 1 <= min_n <= max_n"


def _stop_words_check(value):
    """The check of stop_words=: None, "english" or a list of words."""
    if value is None or (isinstance(value, str) and value == "english"):
        return None
    if isinstance(value, (list, tuple, set, frozenset)) and _STR.issuperset(map(type, value)):
        return None
    return 'None, "english" or a list of words (strings)'


def _ngram_option(text):
    """--ngram-range: "1,2" (or the two numbers as two words): the integers."""
    return tuple(int(part) for part in text.replace(",", " ").split())


_ngram_option.__name__ = "ngram range"   # argparse names the type in its messages


def _stop_words_option(text):
    """--stop-words: english, or a file of stop words (one per line; empty lines and
    lines starting with # are skipped)."""
    if text == "english":
        return text
    try:
        with open(text, encoding="utf-8-sig") as handle:
            return [line.strip() for line in handle
                    if line.strip() and not line.lstrip().startswith("#")]
    except (OSError, UnicodeDecodeError) as error:
        import argparse
        raise argparse.ArgumentTypeError("%s: expected english or a readable UTF-8 file "
                                         "of stop words (%s)" % (text, _one_line(error)))


class _Text(_Kind):
    """Documents (strings, tokenized, or lists of words, with stop words dropped and
    n-grams formed; or {word: count} mappings, weighted bags already made), as word
    counts per class (_WordCounts): multinomial bag-of-words, Bernoulli set-of-words
    or complement naive Bayes."""

    name = "text"
    distribution = _WordCounts
    parameters = {
        "text_model": _Parameter("multinomial", _one_of("multinomial", "bernoulli",
                                                        "complement"), (
            ("multinomial", "bernoulli", "complement"), "for --text columns: bag-of-words "
            "(multinomial, the default), set-of-words (bernoulli) or complement naive "
            "Bayes (complement)")),
        "max_words": _Parameter(None, _integer_at_least(1, allow_none=True), (
            int, "for --text columns: keep the K most frequent words")),
        "min_word_count": _Parameter(1, _integer_at_least(1), (
            int, "for --text columns: drop words seen fewer times (default 1)")),
        "tokenizer": _Parameter(None, _callable_or_none),
        "complement_norm": _Parameter(False, _true_or_false, (
            bool, "for --text-model complement: normalise its weights (scikit-learn's "
            "ComplementNB norm=True)")),
        "ngram_range": _Parameter((1, 1), _ngram_range_check, (
            _ngram_option, "for --text columns: MIN,MAX: the words and word n-grams of "
            "MIN to MAX words (default 1,1: words)", {"nargs": "+"})),
        "stop_words": _Parameter(None, _stop_words_check, (
            _stop_words_option, "for --text columns: english (scikit-learn's 318 words) "
            "or a file of stop words, one per line, dropped before n-grams are formed")),
    }
    blocked = False                       # one merge of word counts per class and call
    __slots__ = ()

    def read(self, column, weights, params):
        """The present documents as lists of words or {word: count} dicts (see
        _TextReading)."""
        return _present(list(map(_TextReading(params), column)), weights)


# -- Poisson counts -----------------------------------------------------------------

class _Poisson(_Kind):
    """Non-negative integer counts, Poisson per class (_PoissonSums)."""

    name = "poisson"
    distribution = _PoissonSums
    convert_cell = staticmethod(_count_cell)
    __slots__ = ()

    def read(self, column, weights, params):
        """The present counts as ints; _BadValue for anything else."""
        if weights is None and _INT.issuperset(map(type, column)) and \
                min(column, default=0) >= 0 and max(column, default=0) <= _FLOAT_MAX:
            return column, None
        return _present(list(map(_count_value, column)), weights)


# -- numbers kept as a record of their values: discretized and kde -------------------

class _Recorded(_Kind):
    """Finite real numbers counted value by value (a _ValueRecord); with
    significant_digits, values are rounded before they are counted, which bounds the
    record's size."""

    distribution = _ValueRecord
    parameters = {
        "significant_digits": _Parameter(None, _integer_at_least(1, allow_none=True), (
            int, "discretized and kde columns: round values to this many significant "
            "digits before counting them (default: keep them exactly)")),
    }
    convert_cell = staticmethod(_number_cell)
    __slots__ = ()

    def read(self, column, weights, params):
        """The present values as floats, rounded when significant_digits says so."""
        values, weights = _present_reals(column, weights)
        rounding = _round_to_digits(params.get("significant_digits"))
        if rounding is not None:
            values = list(map(rounding, values))
        return values, weights


class _Discretized(_Recorded):
    """Numbers cut into bins by Fayyad and Irani's MDL criterion (_MDLBins)."""

    name = "discretized"
    distribution = _MDLBins
    __slots__ = ()


def _bandwidth_parameter(value):
    """The check of bandwidth=: "scott", "silverman" or a number > 0."""
    if value in ("scott", "silverman"):
        return None
    number = _number(value)
    if isinstance(value, str) or number is None or not isfinite(number) or number <= 0:
        return '"scott", "silverman" or a number > 0'
    return None


def _bandwidth_option(text):
    """--bandwidth: scott, silverman or a number."""
    return text if text in ("scott", "silverman") else _cli_number(text)


class _Kde(_Recorded):
    """Numbers modelled by a kernel density estimate per class (_KernelDensity)."""

    name = "kde"
    distribution = _KernelDensity
    parameters = dict(_Recorded.parameters, bandwidth=_Parameter(
        "scott", _bandwidth_parameter, (_bandwidth_option, "kde columns: scott, silverman "
                                        "(as scipy computes them) or a number, the kernel's "
                                        "standard deviation (default scott)")))
    __slots__ = ()


# The registry of feature kinds: the one list that features=, the model file and the
# command line's --KIND COLS options read.
_KINDS = {kind.name: kind for kind in (_Categorical, _Gaussian, _Text, _Ignored, _Poisson,
                                       _Discretized, _Kde)}


def _infer_kind(columns, numeric):
    """The kind of a feature from its values: ``numeric`` (a kind name) when every
    non-missing value is a real number (not bool), "categorical" otherwise, None when
    all are missing."""
    types = set()
    for column in columns:
        types.update(map(type, column))
    types.discard(type(None))
    from numbers import Real
    odd = {t for t in types if not issubclass(t, Real) or issubclass(t, bool)}
    if odd and any(not _is_missing(v) for column in columns for v in column
                   if type(v) in odd):
        return "categorical"
    if any(not _is_missing(v) for column in columns for v in column):
        return numeric
    return None                               # every value is missing


# ----------------------------------------------------------------------------------
# Input checks: parameters, rows, labels and weights
# ----------------------------------------------------------------------------------

_CHUNK = 10000            # rows counted at a time when X is not a list or tuple
_COUNT_BLOCK = 512        # rows of one class whose values are added feature by feature,
_COUNT_VALUES = 10240     # or more rows when they hold fewer values than this


def _check_class_prior_value(prior):
    if prior is None or prior == "uniform":
        return None
    if not isinstance(prior, Mapping) or not prior:
        return 'None, "uniform" or a non-empty {label: probability} dict'
    for label, p in prior.items():
        number = _number(p)
        if number is None or not 0 <= number <= 1:
            return "class_prior[%s] is %s; expected a probability between 0 and 1" \
                % (_shown(label), _shown(p))
    total = math.fsum(map(float, prior.values()))
    if abs(total - 1.0) > 1e-9:
        return "class_prior sums to %r; expected probabilities that sum to 1" % total
    return None


def _by_name(value, what):
    """A features= or categories= value as {name: item}: a dict, or a list by position;
    None when it is neither."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return dict(enumerate(value))
    return None


def _check_features(features):
    kinds = _by_name(features, "features")
    if kinds is None:
        return "None, a {name: kind} dict or a list of kinds"
    for name, kind in kinds.items():
        if not isinstance(kind, str) or kind not in _KINDS:
            return "features[%s] is %s; expected one of %s" % (
                _shown(name), _shown(kind), ", ".join(map(repr, _KINDS)))
    return None


def _check_categories(categories):
    items = _by_name(categories, "categories")
    if items is None:
        return "None, a {name: [values]} dict or a list of value lists"
    for name, values in items.items():
        if values is None:
            continue
        if isinstance(values, (str, bytes, Mapping)) or not (
                hasattr(values, "__iter__") and hasattr(values, "__len__")):
            return "categories[%s] is %s; expected a list of values" % (
                _shown(name), _shown(values))
        for value in values:
            if not _hashable(value) or _is_missing(value):
                return "categories[%s] holds %s; expected hashable, non-missing values" % (
                    _shown(name), _describe(value))
    return None


# The parameters every classifier has; each feature kind adds its own (see _Kind).
_BASE_PARAMETERS = {
    "alpha": _Parameter(1.0, _finite_at_least_0, (
        _cli_number, "smoothing of categorical likelihoods (default 1, Laplace)")),
    "prior_alpha": _Parameter(0.0, _finite_at_least_0, (
        _cli_number, "smoothing of the class prior (default 0)")),
    "class_prior": _Parameter(None, _check_class_prior_value),
    "features": _Parameter(None, _check_features),
    "categories": _Parameter(None, _check_categories),
}


def _label_numbers(value, what, check, expected):
    """The check of a {label: number} parameter: None when value is None or every
    number passes check, else what is wrong with the first that does not."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        return "None or a {label: %s} dict" % expected
    for label, number in value.items():
        real = _number(number)
        if real is None or not check(real):
            return "%s[%s] is %s; expected %s" % (what, _shown(label), _shown(number), expected)
    return None


def _check_class_weight(value):
    if isinstance(value, str):
        return None if value == "balanced" else 'None, "balanced" or a {label: weight} dict'
    return _label_numbers(value, "class_weight", lambda w: isfinite(w) and w >= 0,
                          "a finite number >= 0")


def _check_thresholds(value):
    problem = _label_numbers(value, "thresholds", lambda t: isfinite(t) and t > 0,
                             "a finite number > 0")
    if problem is None and value is not None and not value:
        return "None or a non-empty {label: threshold} dict"
    return problem


def _check_costs(value):
    if value is None:
        return None
    if not isinstance(value, Mapping) or not value:
        return "None or a {true label: {predicted label: cost}} dict"
    for truth, row in value.items():
        if not isinstance(row, Mapping):
            return "costs[%s] is %s; expected a {predicted label: cost} dict" % (
                _shown(truth), _describe(row))
        problem = _label_numbers(row, "costs[%s]" % _shown(truth), isfinite,
                                 "a finite number")
        if problem is not None:
            return problem
    return None


def _check_reject_below(value):
    if value is None:
        return None
    number = _number(value)
    if number is None or not 0 <= number <= 1:
        return "None or a probability between 0 and 1"
    return None


def _check_reject_label(value):
    if not _hashable(value) or (value is not None and _is_missing(value)):
        return "a hashable label (not NaN)"
    return None


# Class weights and decision rules: every classifier has them, after its own parameters
# (see _Decision).  Their defaults are left out of the model file, which is then the
# file of a model without them, byte for byte.
_DECISION_PARAMETERS = {
    "class_weight": _Parameter(None, _check_class_weight),
    "thresholds": _Parameter(None, _check_thresholds),
    "costs": _Parameter(None, _check_costs),
    "reject_below": _Parameter(None, _check_reject_below),
    "reject_label": _Parameter("unsure", _check_reject_label),
}


def _numeric_parameter(default, kinds):
    """The numeric= parameter: the kind given to inferred numeric features (one of
    the numeric kinds among ``kinds``)."""
    numeric = [name for name in kinds if _KINDS[name].convert_cell is _number_cell]
    return _Parameter(default, _one_of(*numeric), (
        tuple(numeric), "the kind of numeric columns not declared otherwise (default %s)"
        % default))


def _check_params(parameters, params, call):
    """Raise NaiveBayesError for the first parameter that is out of its domain, then
    for declarations that contradict each other."""
    _check_domains(parameters, params, call)
    kinds = _by_name(params["features"], "features")
    for name in _by_name(params["categories"], "categories"):
        if kinds.get(name, "categorical") != "categorical":
            raise NaiveBayesError("%s: categories declares values for feature %r, which "
                                  "features= declares %r; expected a categorical feature"
                                  % (call, name, kinds[name]), call=call)
    if params.get("thresholds") is not None and params.get("costs") is not None:
        raise NaiveBayesError("%s: thresholds and costs are both set; expected one decision "
                              "rule (set the other to None)" % call, call=call)


def _check_domains(parameters, params, call):
    """Raise NaiveBayesError naming the first parameter that is out of its domain."""
    for name, parameter in parameters.items():
        problem = parameter.check(params[name])
        if problem is not None:
            if not problem.startswith(name):
                problem = "%s=%s; expected %s" % (name, _shown(params[name]), problem)
            raise NaiveBayesError("%s: %s" % (call, problem), call=call)


# Decision rules: from P(c | x) to a label other than the argmax.  They read the
# posteriors (never joints: with point masses those are infinite) and change no
# probability.  Float rounding can tie, or swap, two scores that differ in the last
# bits (p_a / t and p_b / t for neighbouring p_a, p_b; sums of products); scores that
# close are compared again exactly, as Fractions of the floats, so that the rules are
# exact functions of the probabilities: equal thresholds, or the 0-1 loss, give the
# argmax with its ties.
_NEAR = 1e-12             # relative closeness below which scores are compared exactly


class _Decision:
    """The decision rules of a model, checked against its classes: ``labels`` maps rows
    of P(c | x) (columns in classes order) to labels.

    - reject_below r: a row whose largest probability is below r gets reject_label;
      this is looked at first, on the probabilities themselves.
    - thresholds {c: t_c > 0}, one per class: the class maximising P(c | x) / t_c
      (Spark's rule; ties to the earlier class).
    - costs {i: {j: C_ij}}: the class j minimising sum_i P(i | x) C_ij, the expected
      cost of predicting j when the truth is i (Weka's CostSensitiveClassifier with
      -M, minimizeExpectedCost); every class has a row and every off-diagonal entry,
      a diagonal one left out costs 0; ties to the earlier class.
    - neither: the argmax.

    >>> rule = _Decision(["a", "b"], {"thresholds": {"a": 0.8, "b": 0.2}, "costs": None,
    ...                               "reject_below": None, "reject_label": "unsure"}, "predict()")
    >>> rule.labels([[0.7, 0.3], [0.9, 0.1]])            # 0.7/0.8 < 0.3/0.2; 1.125 > 0.5
    ['b', 'a']
    """

    __slots__ = ("classes", "rule", "thresholds", "costs", "reject_below", "reject_label")

    def __init__(self, classes, params, call):
        _check_domains({name: _DECISION_PARAMETERS[name] for name in
                        ("thresholds", "costs", "reject_below", "reject_label")}, params, call)
        self.classes = list(classes)
        thresholds, costs = params["thresholds"], params["costs"]
        if thresholds is not None and costs is not None:
            raise NaiveBayesError("%s: thresholds and costs are both set; expected one "
                                  "decision rule (set the other to None)" % call, call=call)
        self.rule = "thresholds" if thresholds is not None else \
            "costs" if costs is not None else None
        self.thresholds = self.costs = None
        if thresholds is not None:
            self._check_labels("thresholds", thresholds, call)
            self.thresholds = [float(_number(thresholds[c])) for c in self.classes]
        if costs is not None:
            self._check_labels("costs", costs, call)
            for truth, row in costs.items():
                self._check_labels("costs[%s]" % _shown(truth), row, call, every=False)
            rows = []
            for truth in self.classes:
                row = costs[truth]
                absent = [c for c in self.classes if c not in row and c != truth]
                if absent:
                    raise NaiveBayesError("%s: costs[%s] has no cost for predicting %s; "
                                          "expected one for every other class (0 may be "
                                          "left out on the diagonal only)"
                                          % (call, _shown(truth), _shown(absent[0])),
                                          call=call)
                rows.append([float(_number(row.get(c, 0))) for c in self.classes])
            self.costs = [list(column) for column in zip(*rows)]   # by predicted class
        self.reject_below = None if params["reject_below"] is None else \
            float(_number(params["reject_below"]))
        self.reject_label = params["reject_label"]
        if self.reject_below is not None and self.reject_label in self.classes:
            raise NaiveBayesError("%s: reject_label %s is a class; expected a label the "
                                  "model never predicts otherwise" % (
                                      call, _shown(self.reject_label)), call=call)

    def _check_labels(self, what, mapping, call, every=True):
        """A {label: x} mapping names only classes, and (every) every class."""
        known = set(self.classes)
        unknown = [label for label in mapping if label not in known]
        if unknown:
            raise NaiveBayesError("%s: %s names %s, not among the classes %s" % (
                call, what, _shown(unknown[0]), _shown(self.classes)), call=call)
        absent = [label for label in self.classes if label not in mapping]
        if every and absent:
            raise NaiveBayesError("%s: %s has no entry for class %s; expected one for "
                                  "every class" % (call, what, _shown(absent[0])), call=call)

    def index(self, p):
        """The index of the class the rules choose for one row, or None to reject."""
        if self.reject_below is not None and max(p) < self.reject_below:
            return None
        if self.thresholds is not None:
            scores = list(map(truediv, p, self.thresholds))
            return _exact_best(scores, max(scores) * _NEAR, lambda k, Fraction: (
                Fraction(p[k]) / Fraction(self.thresholds[k])))
        if self.costs is not None:
            try:
                scores = [-math.fsum(map(mul, p, column)) for column in self.costs]
                scale = max(math.fsum(map(abs, map(mul, p, column))) for column in self.costs)
            except OverflowError:         # costs near the float range: all exactly
                scores, scale = [0.0] * len(self.costs), INF
            return _exact_best(scores, scale * _NEAR, lambda k, Fraction: -sum(
                map(mul, map(Fraction, p), map(Fraction, self.costs[k]))))
        return p.index(max(p))

    def labels(self, posteriors):
        """The labels of rows of P(c | x)."""
        classes, reject = self.classes, self.reject_label
        out = []
        for p in posteriors:
            k = self.index(p)
            out.append(reject if k is None else classes[k])
        return out

    def explain(self, p):
        """What the rules did to one row: {"rule", "argmax", "predicted", "changed",
        "probability"}, rule being the one that chose ("reject", "thresholds", "costs",
        or "argmax" when none did)."""
        argmax = p.index(max(p))
        k = self.index(p)
        predicted = self.reject_label if k is None else self.classes[k]
        return {"rule": "reject" if k is None else self.rule or "argmax",
                "argmax": self.classes[argmax], "predicted": predicted,
                "changed": k != argmax, "probability": p[argmax]}


def _exact_best(scores, tolerance, exact):
    """The index of the largest score, the earlier on ties; scores within tolerance of
    the largest are compared again by exact(k, Fraction)."""
    top = max(scores)
    near = [k for k, s in enumerate(scores) if s == top or top - s <= tolerance]
    if len(near) == 1:
        return near[0]
    from fractions import Fraction
    values = [exact(k, Fraction) for k in near]
    return near[values.index(max(values))]


def _declarations(params):
    """({name: kind} from features=, {name: [values]} from categories=): read once per
    call of fit or partial_fit."""
    kinds = _by_name(params["features"], "features")
    categories = {name: list(values) for name, values in
                  _by_name(params["categories"], "categories").items() if values is not None}
    return kinds, categories


def _check_labels(labels, start, call):
    try:
        distinct = set(labels)
    except TypeError:
        i = next(i for i, label in enumerate(labels) if not _hashable(label))
        raise _row_error(call, "y", start + i, "is %s; expected a hashable label"
                         % _describe(labels[i])) from None
    if None in distinct or any(_is_missing(label) for label in distinct):
        i = next(i for i, label in enumerate(labels) if _is_missing(label))
        raise _row_error(call, "y", start + i, "is missing (%s); expected a label"
                         % _shown(labels[i]))


def _check_weights(weights, start, call):
    """The weights as a _Weights: ints where integral, else floats, with their scaled
    integer form; NaiveBayesError naming a bad one."""
    if not _FLOAT.issuperset(map(type, weights)):
        numbers = list(map(_number, weights))
        if None in numbers:
            i = numbers.index(None)
            raise _row_error(call, "sample_weight", start + i, "is %s; expected a finite "
                             "number >= 0" % _describe(weights[i]))
        floats = numbers
    else:
        floats = weights
    if not all(map(isfinite, floats)) or min(floats) < 0:
        i = next(i for i, w in enumerate(floats) if not (isfinite(w) and w >= 0))
        raise _row_error(call, "sample_weight", start + i, "is %s; expected a finite "
                         "number >= 0" % _describe(weights[i]))
    checked = _Weights(int(w) if w.is_integer() else w for w in floats)
    checked.scaled = _weight_integers(floats)
    return checked


def _check_class_prior(prior, class_count, call):
    """A {label: p} class_prior must name exactly the classes seen in training."""
    if prior is None or isinstance(prior, str):
        return
    classes = _sorted_if_orderable(class_count)
    unknown = [label for label in prior if label not in class_count]
    if unknown:
        raise NaiveBayesError("%s: class_prior names %s, not among the classes %s"
                              % (call, _shown(unknown), _shown(classes)), call=call)
    absent = [label for label in classes if label not in prior]
    if absent:
        raise NaiveBayesError("%s: class_prior has no probability for class %s; expected "
                              "one for every class" % (call, _shown(absent)), call=call)


def _balanced_class_weight(labels, weights, call):
    """class_weight="balanced": {label: W / (K * W_c)}, W_c the weight of class c's rows
    (their number when weights is None), W the total and K the number of classes of
    positive weight, correctly rounded to floats (scikit-learn's compute_class_weight
    with sample_weight; its bincount rounds the sums, these are exact).

    >>> _balanced_class_weight(["a", "a", "a", "b"], None, "fit()")
    {'a': 0.6666666666666666, 'b': 2.0}
    """
    _check_labels(labels, 0, call)
    if weights is None:
        totals = Counter(labels)
    else:
        integers, _ = _check_weights(weights, 0, call).scaled    # exact: w = i / 2**shift
        totals = Counter()
        for label, weight in zip(labels, integers):
            totals[label] += weight
    totals = {label: total for label, total in totals.items() if total}
    total = sum(totals.values())
    return {label: total / (len(totals) * count) for label, count in totals.items()}


def _class_weighted(labels, weights, class_weight, start, call):
    """Each row's weight times its class's weight (1 for a class class_weight does
    not name), as floats: scikit-learn's sample_weight * class_weight[y]."""
    _check_labels(labels, start, call)
    factors = [class_weight.get(label, 1.0) for label in labels]
    if weights is None:
        return factors
    weighted = list(map(mul, _check_weights(weights, start, call), factors))
    if not all(map(isfinite, weighted)):
        i = next(i for i, w in enumerate(weighted) if not isfinite(w))
        raise _row_error(call, "sample_weight", start + i, "is %s, times class_weight[%s] "
                         "= %s beyond the float range; expected a finite product"
                         % (_shown(weights[i]), _shown(labels[i]), _shown(factors[i])))
    return weighted


def _rows_of(X, call):
    """X as an iterable of rows: a pandas DataFrame gives dicts by column name, a
    NumPy array lists of Python values; unordered collections are refused (their rows
    would pair with the wrong labels), and so are what scikit-learn refuses: sparse
    matrices, 1-D or complex arrays, arrays without features."""
    if hasattr(X, "columns") and hasattr(X, "itertuples"):
        columns = list(X.columns)
        return [dict(zip(columns, values)) for values in X.itertuples(index=False, name=None)]
    if isinstance(X, (Mapping, set, frozenset, str, bytes)):
        raise NaiveBayesError("%s: X is %s; expected an ordered iterable of rows (a list, "
                              "tuple, generator, array or DataFrame)" % (call, _describe(X)),
                              call=call, argument="X")
    array = _as_numpy(X, "X", call)
    if array is None:
        return X
    if array.ndim != 2:
        raise NaiveBayesError("%s: X is a %d-D array; expected 2-D rows (Reshape your "
                              "data either using array.reshape(-1, 1) if your data has a "
                              "single feature or array.reshape(1, -1) if it contains a "
                              "single sample.)" % (call, array.ndim), call=call,
                              argument="X")
    if array.shape[1] == 0 and array.shape[0]:
        raise NaiveBayesError("%s: X has no features; expected at least one (0 feature(s) "
                              "(shape=(%d, 0)) while a minimum of 1 is required.)"
                              % (call, array.shape[0]), call=call, argument="X")
    if array.dtype.kind == "c":
        raise NaiveBayesError("%s: X holds complex numbers; expected real ones (Complex "
                              "data not supported)" % call, call=call, argument="X")
    return array.tolist()                 # Python numbers, one conversion for all rows


def _loaded_numpy():
    """NumPy if the program has imported it, else None.  This file never imports it:
    NumPy arrays are only read from, and given back for, NumPy or pandas input, so
    NumPy is loaded whenever it is needed."""
    return sys.modules.get("numpy")


def _as_numpy(values, name, call):
    """values as a NumPy array when they are one (or a scipy sparse matrix, refused,
    or an object with __array__ and nothing else); None for any other iterable."""
    module = type(values).__module__ or ""
    if module.startswith("scipy.sparse") or hasattr(values, "tocsr"):
        raise NaiveBayesError("%s: %s is a sparse matrix; expected dense rows (sparse input "
                              "is not supported: use %s.toarray())" % (call, name, name),
                              call=call, argument=name)
    if module.startswith("numpy") and hasattr(values, "ndim"):
        return values
    numpy = _loaded_numpy()
    if numpy is not None and hasattr(values, "__array__") and not hasattr(values, "__iter__"):
        return numpy.asarray(values)      # it is an array in all but name
    return None


def _labels_of(y, call):
    """y as an iterable of labels.  NumPy input follows scikit-learn: a column
    vector is raveled (with its DataConversionWarning), and non-integer floats are a
    continuous target, not labels."""
    if y is None:
        raise NaiveBayesError("%s: y is None; expected labels (this classifier requires y "
                              "to be passed, but the target y is None)" % call, call=call,
                              argument="y")
    array = _as_numpy(y, "y", call)
    if array is None:
        return y
    if array.ndim == 2 and array.shape[1] == 1:
        import warnings
        exceptions = sys.modules.get("sklearn.exceptions")
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                      "change the shape of y to (n_samples, ), for example using ravel().",
                      getattr(exceptions, "DataConversionWarning", UserWarning), stacklevel=3)
        array = array.ravel()
    if array.ndim != 1:
        raise NaiveBayesError("%s: y is a %d-D array; expected one label per row (y should "
                              "be a 1d array)" % (call, array.ndim), call=call, argument="y")
    if array.dtype.kind in "fc":
        numpy = _loaded_numpy()           # an array was given: NumPy is loaded
        finite = numpy.isfinite(array) | numpy.isnan(array)
        if not (finite.all() and numpy.all(array[~numpy.isnan(array)] % 1 == 0)):
            raise NaiveBayesError("%s: y holds non-integer numbers; expected class labels "
                                  "(Unknown label type: continuous)" % call, call=call,
                                  argument="y")
    return array.tolist()


def _iterate(values, name, expected, call):
    """iter(values), refusing what cannot be iterated or has no order."""
    if isinstance(values, (Mapping, set, frozenset, str, bytes)) or values is None:
        raise NaiveBayesError("%s: %s is %s; expected %s" % (call, name, _describe(values),
                                                             expected), call=call,
                              argument=name)
    if hasattr(values, "columns") and hasattr(values, "itertuples"):
        raise NaiveBayesError("%s: %s is a DataFrame; expected one column (a Series)"
                              % (call, name), call=call, argument=name)
    try:
        return iter(values)
    except TypeError:
        raise NaiveBayesError("%s: %s is %s; expected %s" % (call, name, _describe(values),
                                                             expected), call=call,
                              argument=name) from None


def _count_text(counted, iterator, limit=100000):
    """How many items there were: counted plus what the iterator still holds, read
    up to a limit so that an endless iterator cannot hang an error message."""
    extra = sum(1 for _ in islice(iterator, limit)) if iterator is not None else 0
    return ("at least %d" if extra == limit else "%d") % (counted + extra)


def _sequence_names(declared, categories, width, start, call):
    """Feature names for sequence rows: positions 0..width-1, or the names of a
    features= dict that names every column in order with names that are not ints."""
    names = list(range(width))
    if declared and not all(type(name) is int for name in declared):
        if any(type(name) is int for name in declared) or len(declared) != width:
            raise NaiveBayesError(
                "%s: features= names %s but X row %d has %d values; expected positions "
                "0..%d, or a name for every column in order"
                % (call, _shown(list(declared)), start, width, width - 1), call=call)
        names = list(declared)
    known = set(names)
    for option, keys in (("features", declared), ("categories", categories)):
        outside = [name for name in keys if name not in known]
        if outside:
            raise NaiveBayesError("%s: %s= names %s, but X row %d has %d values; expected "
                                  "positions 0..%d%s"
                                  % (call, option, _shown(outside), start, width, width - 1,
                                     "" if names[:1] == [0] else
                                     " or the names %s" % _shown(names)), call=call)
    return names


def _check_declared_names(params, seen, call):
    """A name in features= or categories= that no training row holds, while a row holds
    a name much like it, is a typo.  (A declared feature that is simply absent, say in
    one part of data trained in parts, is fine: it has no values yet.)"""
    unheld = [name for option in ("features", "categories")
              if isinstance(params[option], Mapping)
              for name in params[option] if name not in seen]
    if not unheld:
        return
    import difflib
    held = {str(name): name for name in seen}
    for option in ("features", "categories"):
        value = params[option]
        if not isinstance(value, Mapping):
            continue
        for name in value:
            if name in seen:
                continue
            close = difflib.get_close_matches(str(name), list(held), n=1, cutoff=0.75)
            if close:
                raise NaiveBayesError("%s: %s= names %r, which no row of X holds; did you "
                                      "mean %r?" % (call, option, name, held[close[0]]),
                                      call=call)


def _param_differences(names, mine, theirs):
    """Human-readable differences between two parameter dicts.  Tokenizers are the
    same when identical, or functions with the same code (a function shipped to
    Spark executors and back is a copy)."""
    return ["%s is %r in one and %r in the other" % (name, mine[name], theirs[name])
            for name in names
            if not (mine[name] is theirs[name] or _same_function(mine[name], theirs[name]) or
                    (not callable(mine[name]) and mine[name] == theirs[name]))]


def _same_function(a, b):
    """Two plain functions with the same code, defaults and closure values."""
    try:
        return (a.__code__ == b.__code__ and a.__defaults__ == b.__defaults__ and
                [c.cell_contents for c in a.__closure__ or ()] ==
                [c.cell_contents for c in b.__closure__ or ()])
    except (AttributeError, ValueError):
        return False


def _locate(values, bad):
    """Index of the first of values that is (or equals) the offending value."""
    for i, value in enumerate(values):
        if value is bad:
            return i
    for i, value in enumerate(values):
        try:
            if type(value) is type(bad) and value == bad:
                return i
        except Exception:                 # an odd __eq__: keep looking
            continue
    return 0


# ----------------------------------------------------------------------------------
# Model families: what a model learns (statistics) and what it predicts with (the
# compiled model)
#
# A family is a pair of classes.  The statistics count rows (fit, partial_fit), add
# up (merge), and read and write their part of the model file; compile(params) turns
# them into a compiled model, built once per fitted state, whose joints(rows) gives
# per-class joint log-likelihoods, the one quantity every prediction is made from
# (as scikit-learn's _joint_log_likelihood feeds every prediction).  The classifiers,
# explain, the model file and the command line use only this interface, so they work
# alike for every family.  Adding a family: a statistics class (a subclass of
# _NaiveStatistics, adding what the family counts: AODE adds a _PairCounts), a
# compiled-model class (a semi-naive family builds on _PairTable, as _AODEModel
# does), a public class naming them (a subclass of _Classifier with its
# _statistics_class, _allowed_kinds, _parameters and _command_name), and one entry in
# the registry _MODELS after the classifiers.
#
# statistics:  classes(), names(), kinds(), class_count, layout
#              count(rows, labels, weights, start, fitting)   (raises NaiveBayesError)
#              skeleton(), copy(), absorb(other), conflicts(other)
#              compile(params) -> compiled model
#              to_file(classes) -> {field: ...}; from_file(data, classes, class_count)
#              summary(params) -> [(name, kind, description)]
# compiled:    classes, names, width, log_prior
#              positional(row) -> values in feature order (raises _RowError)
#              joint(row), joints(rows) -> per-class joint log-likelihoods
#              explain(row) -> the dict explain() returns
#              informative() -> [(feature, value, score, favoured label)]
#              tables() -> {feature: table}
# ----------------------------------------------------------------------------------

class _Fitting:
    """What one call of fit or partial_fit counts with: its name, the parameters and
    declarations read once, and the feature names that some row holds."""

    __slots__ = ("call", "params", "kinds", "categories", "default_kind", "numeric", "seen",
                 "allowed", "model")

    def __init__(self, call, params, default_kind, allowed=None, model=None, kind_map=None):
        self.call = call
        self.model = model
        self.params = params
        self.kinds, self.categories = _declarations(params)
        if kind_map:                      # a family that reads some kinds as others
            self.kinds = {name: kind_map.get(kind, kind) for name, kind in self.kinds.items()}
        self.default_kind = default_kind
        self.numeric = params.get("numeric", "gaussian")
        self.seen = set()
        self.allowed = allowed            # the kinds the family can use (None: all)

    def new_feature(self, name):
        """Empty statistics for a feature seen for the first time."""
        kind = self.kinds.get(name)
        categories = self.categories.get(name)
        if kind is None:
            kind = "categorical" if categories is not None else self.default_kind
        if kind is None:
            return _Undecided()
        self.check_kind(name, kind)
        if kind == "categorical":
            return _Categorical(_ValueCounts(categories))
        return _KINDS[kind]()

    def check_kind(self, name, kind):
        """Refuse a kind the family cannot use, naming the fix."""
        if self.allowed is not None and kind not in self.allowed:
            raise NaiveBayesError(
                "%s: feature %r is %s; this model takes %s features (declare it with "
                "features={%r: \"discretized\"} or \"ignore\")"
                % (self.call, name, kind, ", ".join(self.allowed), name), call=self.call)


class _NaiveStatistics:
    """Sufficient statistics of a naive Bayes model: class counts and one statistics
    object per feature.  Fitting is counting into one of these; partial_fit and merge
    add two of them; the model file stores one."""

    file_fields = ("features",)           # its fields in the model file
    __slots__ = ("class_count", "features", "layout")

    def __init__(self):
        self.class_count = {}    # label -> weighted count, in first-seen order
        self.features = {}       # name -> statistics object (a _Kind), in column order
        self.layout = None       # the training rows: "sequence" or "mapping"

    def skeleton(self):
        """Empty statistics with the same features, kinds and declared categories."""
        empty = type(self)()
        empty.layout = self.layout
        empty.features = {name: stats.empty() for name, stats in self.features.items()}
        return empty

    def copy(self):
        """An equal, independent copy."""
        twin = type(self)()
        twin.class_count = dict(self.class_count)
        twin.features = {name: stats.copy() for name, stats in self.features.items()}
        twin.layout = self.layout
        return twin

    def conflicts(self, other):
        """What keeps two sets of statistics apart: row shapes, feature kinds."""
        found = []
        if None not in (self.layout, other.layout) and self.layout != other.layout:
            found.append("one was fitted on %s rows, the other on %s rows"
                         % (self.layout, other.layout))
        elif self.layout == "sequence" and list(self.features) != list(other.features):
            found.append("their rows hold different columns (%s and %s)"
                         % (_shown(list(self.features)), _shown(list(other.features))))
        return found + ["feature %r is %s in one and %s in the other"
                        % (name, mine.name, theirs.name)
                        for name, mine in self.features.items()
                        for theirs in [other.features.get(name)]
                        if theirs is not None and None not in (mine.name, theirs.name)
                        and mine.name != theirs.name]

    def absorb(self, other):
        """Add other's statistics to these, in place.  Counts and sums are exact, so
        absorbing is commutative and associative: merge and partial_fit equal fit."""
        for label, count in other.class_count.items():
            self.class_count[label] = self.class_count.get(label, 0) + count
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is None or (mine.name is None and theirs.name is not None):
                self.features[name] = theirs.copy()     # new, or an undecided kind decided
            elif theirs.name is not None:
                mine.absorb(theirs)
        self.layout = self.layout or other.layout
        return self

    # -- forgetting: the inverse of absorb ------------------------------------------

    def emptied(self, other):
        """The labels whose every row other's statistics would remove."""
        return {label for label, count in other.class_count.items()
                if count and count == self.class_count.get(label)}

    def deficit(self, other):
        """None when other's statistics (rows counted into a skeleton of these) can be
        removed from these; else what other holds beyond them, as a phrase naming the
        class, the feature and the value, word, pair or row.  Statistics are counts
        and sums, not rows: this finds every removal that would leave a count, a sum
        or a record below zero or inconsistent, not every set of rows that differs
        from those learned."""
        for label, count in other.class_count.items():
            have = self.class_count.get(label)
            if have is None and count:
                return "class %s was never learned" % _shown(label)
            if count > (have or 0):
                return "class %s has a total weight of %s, less than the %s to forget" % (
                    _shown(label), _plain(have), _plain(count))
        emptied = self.emptied(other)
        for name, mine in self.features.items():
            theirs = other.features.get(name)
            if theirs is None or theirs.name is None or \
                    (theirs.name != mine.name and theirs.stats.holds_nothing()):
                theirs = mine.empty()     # nothing to take away, but from emptied classes
            elif theirs.name != mine.name:
                return "feature %s: %s values, which the model never learned (it holds " \
                    "the feature as %s)" % (_shown(name), theirs.name, mine.name or
                                            "a feature without values")
            problem = mine.deficit(theirs, emptied)
            if problem is not None:
                return "feature %s: %s" % (_shown(name), problem)
        for name, theirs in other.features.items():
            if name not in self.features and theirs.name is not None and \
                    not theirs.stats.holds_nothing():
                return "feature %s was never learned" % _shown(name)
        return None

    def subtract(self, other, fitting):
        """Remove other's statistics (rows counted into a skeleton of these), in place
        and exactly: the statistics of a fit without those rows.  Raises _Unlearned,
        with nothing changed, when deficit finds something."""
        problem = self.deficit(other)
        if problem is not None:
            raise _Unlearned(problem)
        self.remove(other)
        self.settle(other, fitting)
        return self

    def remove(self, other):
        """The removal itself (deficit found nothing): class counts, then features;
        a class whose count reaches 0 disappears."""
        for label, count in other.class_count.items():
            if count:
                left = self.class_count[label] - count
                if left:
                    self.class_count[label] = left
                else:
                    del self.class_count[label]
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is not None and theirs.name is not None and theirs.name == mine.name:
                mine.subtract(theirs)

    def settle(self, other, fitting):
        """The features whose values other's rows took away, as a fit without those
        rows would have them; returns {name: kind} of those whose kind changed.

        A feature whose kind was inferred (not declared, nor fixed by the class)
        and that other's rows alone had values of has no kind again with sequence
        rows, and is no longer known with mapping rows unless features= declares it
        (a remaining row may have held it without a value, which statistics do not
        record).  One inferred categorical because other's rows held words beside
        numbers takes the numeric kind again, its values recounted exactly."""
        changed = {}
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is None or mine.name is None or theirs.name != mine.name or \
                    name in fitting.kinds or theirs.stats.holds_nothing():
                continue                  # (a declared feature stays as it is)
            inferred = name not in fitting.categories and fitting.default_kind is None
            if not mine.stats.holds_nothing():
                kind = _infer_kind([list(mine.stats.seen)], fitting.numeric) \
                    if inferred and mine.name == "categorical" else None
                if kind not in (None, "categorical"):
                    fitting.check_kind(name, kind)
                    feature = self.features[name] = _KINDS[kind]()
                    for label, counts in mine.stats.counts.items():
                        if counts:
                            feature.add(label, list(counts), list(counts.values()),
                                        fitting.params)
                    changed[name] = kind
            elif self.layout == "mapping":
                del self.features[name]
            elif inferred:
                self.features[name] = _Undecided()
        return changed

    def classes(self):
        """The labels, sorted when orderable, else in first-seen order."""
        return _sorted_if_orderable(self.class_count)

    def names(self):
        """The feature names, in column order."""
        return list(self.features)

    def kinds(self):
        """{name: kind name} (an undecided feature counts as gaussian)."""
        return {name: stats.name or "gaussian" for name, stats in self.features.items()}

    # -- counting -------------------------------------------------------------------

    def count(self, rows, labels, weights, start, fitting):
        """Count one chunk of rows: class counts, then feature by feature, one class's
        column at a time.  Raises NaiveBayesError naming the row; the caller throws
        the statistics away then, so a failed call changes no model."""
        call = fitting.call
        _check_labels(labels, start, call)
        if weights is not None:
            weights = _check_weights(weights, start, call)
        rows, names = self.positional_rows(rows, start, fitting)
        kept = None                       # row numbers, when zero-weight rows are dropped
        if weights is not None and not all(weights):
            kept = [i for i, w in enumerate(weights) if w]   # weight 0: no row at all
            rows = [rows[i] for i in kept]
            labels = [labels[i] for i in kept]
            weights = weights.subset(list(map(bool, weights)))
        groups = defaultdict(list)
        weight_groups = None
        if weights is None:
            for row, label in zip(rows, labels):
                groups[label].append(row)
            chunk_counts = Counter(labels)
        else:
            positions = defaultdict(list)
            for i, (row, label) in enumerate(zip(rows, labels)):
                groups[label].append(row)
                positions[label].append(i)
            integers, shift = weights.scaled
            weight_groups = {}
            for label, where in positions.items():
                group = weight_groups[label] = _Weights(map(weights.__getitem__, where))
                group.scaled = list(map(integers.__getitem__, where)), shift
            chunk_counts = {label: _ratio(sum(w.scaled[0]), 1 << shift)
                            for label, w in weight_groups.items()}
        for label, count in chunk_counts.items():
            self.class_count[label] = self.class_count.get(label, 0) + count
        order = list(groups)
        inferred = set()
        size = max(_COUNT_BLOCK, _COUNT_VALUES // max(1, len(names)))
        default = fitting.default_kind or fitting.numeric
        # Kinds still open are inferred from every value of the chunk (_infer_kind).
        # Walking each such column through all the rows costs as much as the counting
        # (the rows are scattered in memory), so the kind is read from each class's
        # first block and, when that says "number", confirmed block by block in the
        # counting below, where the block is in the cache: a word in a later block
        # (or a value the numeric kind refuses, where the whole chunk says
        # categorical) counts the feature again as categorical from its whole columns.
        # Either way the kind is the one _infer_kind gives for the whole chunk.
        tentative = set()                 # positions whose numeric kind is unconfirmed
        heads = [groups[label][:size] for label in order]
        for position, name in enumerate(names):
            if self.features[name].name is None:
                kind = _infer_kind([list(map(itemgetter(position), head)) for head in heads],
                                   default)
                if kind is not None and kind != "categorical" and \
                        any(len(groups[label]) > size for label in order):
                    if fitting.allowed is None or kind in fitting.allowed:
                        tentative.add(position)
                    else:
                        kind = None       # refused unless the whole chunk says otherwise
                if kind is None:
                    kind = _infer_kind([list(map(itemgetter(position), groups[label]))
                                        for label in order], default)
                if kind is not None:
                    fitting.check_kind(name, kind)
                    self.features[name] = _KINDS[kind]()
                    inferred.add(name)

        def recount(position, name):
            """Count a tentatively numeric feature again from its whole columns, as the
            kind of the whole chunk says, when that is not the numeric kind."""
            tentative.discard(position)
            kind = _infer_kind([list(map(itemgetter(position), groups[label]))
                                for label in order], default)
            if kind != "categorical":
                return False
            fitting.check_kind(name, kind)
            self.features[name] = _KINDS[kind]()
            recounted.add(position)
            add(position, name,
                [list(map(itemgetter(position), groups[label])) for label in order],
                [weight_groups[label] if weight_groups else None for label in order])
            return True

        recounted = set()

        def add(position, name, columns, weights):
            """Add one feature's columns (one per label in order); name the row of a
            bad value."""
            stats = self.features[name]
            try:
                for label, column, weight in zip(order, columns, weights):
                    if column:
                        stats.add(label, column, weight, fitting.params)
            except _BadValue as error:
                if position in tentative and recount(position, name):
                    return
                i = _locate([row[position] for row in rows], error.value)
                i = i if kept is None else kept[i]
                hint = ""
                if error.expected == "a real number" and name not in fitting.kinds and \
                        fitting.default_kind is None:
                    hint = (" (the feature was inferred %s%s; declare it with "
                            "features={%r: \"categorical\"})"
                            % (stats.name, "" if name in inferred else " from earlier rows",
                               name))
                raise _row_error(call, "X", start + i, ", feature %r is %s; expected %s%s"
                                 % (name, _describe(error.value), error.expected, hint)
                                 ) from None

        # Features whose kind wants whole columns (text: one merge of word counts)...
        whole = {position for position, name in enumerate(names)
                 if self.features[name].name is not None and not self.features[name].blocked}
        for position in sorted(whole):
            add(position, names[position],
                [list(map(itemgetter(position), groups[label])) for label in order],
                [weight_groups[label] if weight_groups else None for label in order])
        # ...then block by block of each class's rows, the other features of a block
        # together: the block's values stay in the processor's cache (twice as fast as
        # whole columns at 100,000 rows).
        for first in range(0, max(map(len, groups.values()), default=0), size):
            blocks = [groups[label][first:first + size] for label in order]
            weight_blocks = [weight_groups[label].part(first, first + size)
                             if weight_groups else None for label in order]
            transposed = [zip(*block) if block else repeat(()) for block in blocks]
            for position, (name, columns) in enumerate(zip(names, zip(*transposed))):
                if self.features[name].name is None or position in whole or \
                        position in recounted:
                    continue
                if first and position in tentative and \
                        not _PLAIN_REALS.issuperset(chain.from_iterable(map(
                            map, repeat(type), columns))) and \
                        _infer_kind(columns, default) == "categorical" and \
                        recount(position, name):
                    continue
                add(position, name, columns, weight_blocks)
        return groups, weight_groups, names

    def positional_rows(self, rows, start, fitting):
        """The chunk's rows as sequences in feature order; new features registered,
        and the names that rows hold added to fitting.seen."""
        call = fitting.call
        types = set(map(type, rows))
        if types <= {list, tuple}:
            layout = "sequence"
        elif types <= {dict}:
            layout = "mapping"
        else:
            layout = "mapping" if isinstance(rows[0], Mapping) else "sequence"
            for i, row in enumerate(rows):
                if isinstance(row, (str, bytes)) or not (isinstance(row, Mapping) or (
                        hasattr(row, "__len__") and hasattr(row, "__getitem__"))):
                    raise _row_error(call, "X", start + i, "is %s; expected a sequence or "
                                     "mapping of feature values" % _describe(row))
                if isinstance(row, Mapping) != (layout == "mapping"):
                    raise _row_error(call, "X", start + i, "is a %s but row %d is a %s; "
                                     "expected rows of one shape"
                                     % (type(row).__name__, start, type(rows[0]).__name__))
            if layout == "sequence":
                rows = [row.tolist() if hasattr(row, "tolist") else list(row)
                        for row in rows]
        if self.layout is None:
            self.layout = layout
        elif self.layout != layout:
            raise _row_error(call, "X", start, "is a %s, but the model was fitted on %s; "
                             "expected rows of one shape"
                             % (type(rows[0]).__name__, "mappings" if self.layout ==
                                "mapping" else "sequences (lists or tuples)"))
        if layout == "mapping":
            for option in ("features", "categories"):
                if isinstance(fitting.params[option], (list, tuple)):
                    raise NaiveBayesError(
                        "%s: %s= is a list by position, but X row %d is a mapping; "
                        "expected %s as a {name: ...} dict" % (call, option, start, option),
                        call=call)
            try:
                present = dict.fromkeys(chain.from_iterable(rows))
            except TypeError:
                i = next(i for i, row in enumerate(rows) if not all(map(_hashable, row)))
                raise _row_error(call, "X", start + i, "has a key that is not hashable; "
                                 "expected feature names") from None
            fitting.seen.update(present)
            for name in chain(fitting.kinds, present):
                if name not in self.features:
                    self.features[name] = fitting.new_feature(name)
            names = list(self.features)
            return [list(map(row.get, names)) for row in rows], names
        if not self.features:
            width = len(rows[0])
            for name in _sequence_names(fitting.kinds, fitting.categories, width, start,
                                        call):
                self.features[name] = fitting.new_feature(name)
        fitting.seen.update(self.features)
        width = len(self.features)
        if set(map(len, rows)) != {width}:
            i = next(i for i, row in enumerate(rows) if len(row) != width)
            raise _row_error(call, "X", start + i, "has %d values, expected %d%s" % (
                len(rows[i]), width, "" if fitting.model is None else
                " (X has %d features, but %s is expecting %d features as input)"
                % (len(rows[i]), fitting.model, width)))
        return rows, list(self.features)

    # -- the compiled model, the model file, a summary ------------------------------

    def compile(self, params):
        """The compiled naive Bayes model."""
        return _NaiveModel(self, params)

    def to_file(self, classes):
        """The model file's "features" field."""
        features = []
        for name, stats in self.features.items():
            feature = {"name": _encode(name, "a feature name"), "kind": stats.name}
            feature.update(stats.to_file(classes, "a value of feature %s" % _shown(name)))
            features.append(feature)
        return {"features": features}

    @classmethod
    def from_file(cls, data, classes, class_count):
        """The statistics of a model file's "features" field, validated."""
        statistics = cls()
        features = _field(data, "features")
        _expect(type(features) in (list, _LazyItems), "features", features, "a list")
        for j, feature in enumerate(features):
            if not classes:
                raise _Invalid("features holds a feature, but the model has no classes; "
                               "expected an empty list")
            where = "features[%d]" % j
            _expect(type(feature) is dict, where, feature, "a JSON object")
            name = _decode(_field(feature, "name", where), where + ".name")
            _expect(_hashable(name) and name is not None, where + ".name", name,
                    "a hashable feature name")
            if name in statistics.features:
                raise _Invalid("%s.name is %s again; expected distinct names"
                               % (where, _shown(name)))
            kind = _field(feature, "kind", where)
            _expect(kind is None or (type(kind) is str and kind in _KINDS), where + ".kind",
                    kind, "one of %s or null" % ", ".join(map(repr, _KINDS)))
            kind_class = _KINDS[kind] if kind is not None else _Undecided
            extra = set(feature) - {"name", "kind"} - set(kind_class.file_fields)
            if extra:
                raise _Invalid("%s has field %r, which a %s feature does not have"
                               % (where, sorted(extra)[0], kind or "undecided"))
            statistics.features[name] = kind_class.from_file(feature, where, classes,
                                                             class_count)
        return statistics

    def summary(self, params):
        """[(name, kind, one-line description)] of the features, for the command line."""
        return [(name, stats.name or "gaussian", stats.describe(params))
                for name, stats in self.features.items()]

    def class_statistics(self, params):
        """{name: {"kind": kind, "classes": {label: statistics}}} of every feature whose
        kind describes its classes (see _Distribution.class_statistics)."""
        classes = self.classes()
        result = {}
        for name, feature in self.features.items():
            statistics = feature.class_statistics(classes, params) if feature.name else None
            if statistics is not None:
                result[name] = {"kind": feature.name, "classes": statistics}
        return result


# -- naive Bayes compiled: per-row sums by builtins (the fast path) ---------------
#
# The fast path sees the scorers only through their fast forms (_Scorer.fast_form:
# lookup and quadratic, taken only where they are as current as scorer[value]):
# lookup tables are packed into ints (one builtin sum per row for all of them), normal
# densities become three builtin maps per class, and every other feature is one tuple
# per row.  Whenever a row does not fit (a missing or odd value, an infinity) it
# returns None and the row is scored by the slow path, which also names what is wrong.

_getitem = dict.__getitem__       # a table lookup (with __missing__ for misses) in C


def _picker(positions, width):
    """A function taking the values at positions out of a row (None when positions
    are all of them: the row itself)."""
    if list(positions) == list(range(width)):
        return None
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        position = positions[0]
        return lambda row: (row[position],)
    from operator import itemgetter
    return itemgetter(*positions)


class _Packed:
    """Lookup tables whose entries pack all K per-class log-probabilities into one
    Python int, so that one builtin sum() adds every feature for every class.

    Each class has a 64-bit field holding -log P as a fixed-point number with `bits`
    fractional bits (every categorical log-probability and log-prior is <= 0, so the
    fields are non-negative and never borrow from each other).  Integer addition is
    exact: the sum does not depend on the order of the features, and the only
    rounding is 2^-(bits+1) per term (about 1e-15) and the final conversion to float.
    The fields are unpacked little-endian whatever the machine's byte order.
    """

    __slots__ = ("tables", "prior", "unpack", "width", "negative_scales")

    @classmethod
    def build(cls, tables, log_prior):
        """Packed copies of the tables, or None when a log-probability is -inf (alpha
        = 0) or too small to pack; those models take the tuple path."""
        import struct
        n_terms = len(tables) + 1
        bits = 63 - 11 - n_terms.bit_length()          # -log P < 2^11 in each term
        if bits < 30:
            return None
        scale = float(2 ** bits)
        limit = 2.0 ** 11

        def pack(vector):
            total = 0
            for k, value in enumerate(vector):
                if not -limit < value <= 0:
                    raise OverflowError
                total |= int(round(-value * scale)) << (64 * k)
            return total
        try:
            packed = []
            for table in tables:
                twin = _ValueTable((value, pack(vector)) for value, vector in table.items())
                twin.fallback = pack(table.fallback)
                twin.zeros = 0
                packed.append(twin)
            prior = pack(log_prior)
        except OverflowError:
            return None
        self = cls()
        self.tables = packed
        self.prior = prior
        self.width = 8 * len(log_prior)
        self.unpack = struct.Struct("<%dQ" % len(log_prior)).unpack
        self.negative_scales = (-1.0 / scale,) * len(log_prior)
        return self

    def joint(self, values):
        """log P(c) + sum_j log P(x_j | c) over the packed values of one row."""
        total = sum(map(_getitem, self.tables, values), self.prior)
        return list(map(mul, self.unpack(total.to_bytes(self.width, "little")),
                        self.negative_scales))

    def joints(self, rows):
        """The same for many rows, with no Python-level loop over them: the sums of
        all rows become one array of 64-bit fields, scaled by one map."""
        from array import array
        totals = map(sum, map(map, repeat(_getitem), repeat(self.tables), rows),
                     repeat(self.prior))
        fields = array("Q", b"".join(map(int.to_bytes, totals, repeat(self.width),
                                         repeat("little"))))
        if sys.byteorder != "little":
            fields.byteswap()
        flat = list(map(mul, fields, repeat(self.negative_scales[0])))
        per_row = len(self.negative_scales)
        return list(map(list, zip(*[iter(flat)] * per_row)))


_NEAR_ZERO = 16.0          # |mean / (sqrt(2) sd)| up to which _FastPath uses dist()


class _FastPath:
    """Per-class joint log-likelihoods of whole rows, by builtins (see above)."""

    def __init__(self, scorers, log_prior, width):
        self.log_prior = log_prior
        zeros = (0.0,) * len(log_prior)
        tables = [(j, s.fast_form("lookup")) for j, s in enumerate(scorers)]
        tables = [(j, t) for j, t in tables if t is not None]
        self.packed = _Packed.build([t for _, t in tables], log_prior) if tables else None
        packed = [j for j, _ in tables] if self.packed is not None else []
        in_packed = set(packed)
        normal = [(j, s.fast_form("quadratic")) for j, s in enumerate(scorers)
                  if j not in in_packed]
        normal = [(j, q) for j, q in normal if q is not None]
        self.pick_packed = _picker(packed, width)
        self.pick_normal = _picker([j for j, _ in normal], width)
        # Normal densities: per class, sum_j c_kj - ((x_j - mean_kj) * scale_kj)^2, with
        # the constants c_kj summed once here (and the log-prior too, when no packed
        # tables carry it).  When every |mean * scale| of a class is at most
        # _NEAR_ZERO, the squares come as math.dist(x * scale, mean * scale): one
        # builtin map instead of two.  Its error against (x - mean) * scale is below
        # 2 eps (z^2 + 2 _NEAR_ZERO |z|) for z = (x - mean) * scale: under 1e-14 + 3e-16 z^2
        # in the log density.  Means farther out (many deviations from 0) keep the
        # subtraction first.
        prior = log_prior if self.packed is None else zeros
        self.normal = []
        for k in range(len(log_prior) if normal else 0):
            means = tuple([q[k][1] for _, q in normal])
            scales = tuple([q[k][2] for _, q in normal])
            scaled = list(map(mul, means, scales))
            self.normal.append((prior[k] + sum([q[k][0] for _, q in normal]), means, scales,
                                scaled if max(map(abs, scaled)) <= _NEAR_ZERO else None))
        self.normal = self.normal or None
        taken = set(packed) | {j for j, _ in normal}
        others = [j for j, s in enumerate(scorers) if j not in taken and
                  not isinstance(s, _NoEvidence)]
        self.others = [scorers[j] for j in others]
        self.pick_others = _picker(others, width)
        # Whole batches of rows of packed features need no Python-level loop at all;
        # batches of all-normal rows one loop, without the per-row checks of joint.
        self.only_packed = self.packed is not None and self.pick_packed is None
        self.only_normal = self.normal is not None and self.pick_normal is None

    def joint(self, row):
        """The joint log-likelihoods of one row in feature order, or None when the
        row needs the slow path."""
        try:
            if self.normal is not None:
                pick = self.pick_normal
                values = row if pick is None else pick(row)
                if not _FLOAT_INT.issuperset(map(type, values)):
                    return None                   # missing or odd values
                joint = []
                for constant, means, scales, scaled_means in self.normal:
                    # sum z^2 as hypot(*z)^2 or dist()^2: builtins, as exact as a sum
                    if scaled_means is None:
                        length = hypot(*map(mul, map(sub, values, means), scales))
                    else:
                        length = dist(list(map(mul, values, scales)), scaled_means)
                    joint.append(constant - length * length)
                if self.packed is not None:
                    pick = self.pick_packed
                    joint = list(map(add, self.packed.joint(row if pick is None
                                                            else pick(row)), joint))
            elif self.packed is not None:
                pick = self.pick_packed
                joint = self.packed.joint(row if pick is None else pick(row))
            else:
                joint = list(self.log_prior)
            if self.others:
                pick = self.pick_others
                vectors = map(getitem, self.others, row if pick is None else pick(row))
                joint = list(map(sum, zip(joint, *vectors)))
        except (TypeError, _BadValue, OverflowError):
            return None
        total = sum(joint)
        if total - total == 0:            # all finite: the ordinary case
            return joint
        return None                       # NaN (a missing value), or an infinity

    def joints(self, rows):
        """Joint log-likelihoods of many rows, or None to go row by row."""
        if self.only_packed:
            try:
                return self.packed.joints(rows)
            except TypeError:             # an unhashable value: found row by row
                pass
        elif self.only_normal and _FLOAT_INT.issuperset(map(type, chain.from_iterable(rows))):
            return self.normal_joints(rows)
        return None

    def normal_joints(self, rows):
        """The joints of rows of floats and ints, every feature normal: joint's
        arithmetic, one loop; a row with an infinite or NaN joint is None (the slow
        path scores it)."""
        out = []
        append = out.append
        normal = self.normal
        for row in rows:
            joint = []
            for constant, means, scales, scaled_means in normal:
                if scaled_means is None:
                    length = hypot(*map(mul, map(sub, row, means), scales))
                else:
                    length = dist(list(map(mul, row, scales)), scaled_means)
                joint.append(constant - length * length)
            total = sum(joint)
            append(joint if total - total == 0 else None)
        return out


class _NaiveModel:
    """The compiled naive Bayes model: per feature a scorer (see _Scorer), and a fast
    path that adds them up for whole batches of rows (see _Packed).

    The fast path, per row: features with a lookup table are one dict lookup each in
    packed tables, added by one builtin sum(); Gaussian features are one or two
    builtin maps and one dist() or hypot() per class; anything else (text, counts, a
    zero variance, alpha = 0) is one tuple per feature, added by map(sum, zip(...)).
    A row the fast path cannot take (a missing Gaussian value, a bad value, an
    infinity) is scored feature by feature in joint_checked, which also names what is
    wrong.
    """

    def __init__(self, statistics, params):
        classes = statistics.classes()
        names = statistics.names()
        self.classes = classes
        self.names = names
        self.width = len(names)
        self.zeros = (0.0,) * len(classes)
        self.log_prior = tuple(_log_prior(classes, statistics.class_count, params))
        if params.get("text_model") == "complement" and params["class_prior"] is None and \
                any(stats.name == "text" for stats in statistics.features.values()):
            # complement scores are no log-likelihoods: as scikit-learn's ComplementNB
            # (with 2 or more classes), no learned prior is added to them
            self.log_prior = self.zeros
        by_kind = defaultdict(list)
        for stats in statistics.features.values():
            by_kind[type(stats)].append(stats)
        shared = {kind: kind.shared(features, params, class_count=statistics.class_count)
                  for kind, features in by_kind.items()}
        self.scorers = scorers = [stats.compile(classes, params, shared[type(stats)])
                                  for stats in statistics.features.values()]
        self.fast = _FastPath(scorers, self.log_prior, self.width)

    def positional(self, row):
        """The row as a sequence of values in feature order."""
        kind = type(row)
        if kind is list or kind is tuple:
            if len(row) != self.width:
                raise _RowError("has %d values, expected %d" % (len(row), self.width),
                                len(row))
            return row
        if kind is dict or isinstance(row, Mapping):
            return list(map(row.get, self.names))
        if isinstance(row, (str, bytes)) or not (hasattr(row, "__len__") and
                                                 hasattr(row, "__getitem__")):
            raise _RowError("is %s; expected a sequence or mapping of feature values"
                            % _describe(row))
        tolist = getattr(row, "tolist", None)          # NumPy rows: Python numbers
        return self.positional(tolist() if callable(tolist) else list(row))

    def joint(self, row):
        """Per-class joint log-likelihoods of one row in feature order."""
        joint = self.fast.joint(row)
        if joint is None:
            return self.joint_checked(row)
        return joint

    def joints(self, rows):
        """Joint log-likelihoods of many rows (lists or tuples in feature order)."""
        joints = self.fast.joints(rows)
        if joints is None:
            return list(map(self.joint, rows))
        if None in joints:                # rows the fast path left to the slow one
            joints = [self.joint_checked(row) if joint is None else joint
                      for joint, row in zip(joints, rows)]
        return joints

    def joint_checked(self, row):
        """The slow path: score feature by feature, naming any bad value."""
        vectors = [self.log_prior]
        for name, scorer, value in zip(self.names, self.scorers, row):
            try:
                vector = scorer[value]
                if -INF in vector:
                    vectors.extend(scorer.terms(value))    # each zero term counts
                else:
                    vectors.append(vector)
            except _BadValue as error:
                raise _RowError(", feature %r is %s; expected %s"
                                % (name, _shown(error.value), error.expected)) from None
            except TypeError:
                raise _RowError(", feature %r is %s; expected a hashable value"
                                % (name, _describe(value))) from None
        joint = list(map(sum, zip(*vectors)))
        total = sum(joint)
        if total - total == 0:
            return joint
        return _joint_with_infinities(vectors)

    def explain(self, row, extra=()):
        """The parts of one row's joint log-likelihood (see NaiveBayes.explain);
        ``extra`` are (name, value) pairs of features the model does not know."""
        classes = self.classes
        features = []
        for name, scorer, value in zip(self.names, self.scorers, row):
            try:
                status, vector, details = scorer.explain(value)
            except _BadValue as error:
                raise _RowError(", feature %r is %s; expected %s"
                                % (name, _shown(error.value), error.expected)) from None
            except TypeError:
                raise _RowError(", feature %r is %s; expected a hashable value"
                                % (name, _describe(value))) from None
            entry = {"feature": name, "value": value, "status": status,
                     "log_likelihood": dict(zip(classes, vector))}
            if details and "words" in details:   # text: each word's part, the baseline
                entry["words"] = {word: dict(zip(classes, part))
                                  for word, part in details["words"].items()}
                entry["baseline"] = dict(zip(classes, details["baseline"]))
            if details and "interval" in details:   # a bin: the interval the value is in
                entry["interval"] = details["interval"]
            features.append(entry)
        for name, value in extra:
            features.append({"feature": name, "value": value, "status": "ignored",
                             "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, self.log_prior)), "features": features}

    def informative(self):
        """Every feature's ranked values (or divergence), most informative first."""
        ranked = []
        for name, scorer in zip(self.names, self.scorers):
            ranked.extend(scorer.informative(name, self.classes))
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def tables(self):
        """{feature name: table} (see _Scorer.table)."""
        return {name: scorer.table(self.classes)
                for name, scorer in zip(self.names, self.scorers)}


# -- AODE: averaged one-dependence estimators ------------------------------------------

_AODE_KINDS = ("categorical", "discretized", "ignore")
# The memory budget of the pairwise and network families (max_memory=, in MB): what
# they count grows with the number of distinct pairs or rows, and what they compile
# with it, so both are estimated, at about these many bytes per item (CPython's dict
# entries, int keys and packed terms), and refused beyond the budget before they are
# built, naming the figure and the fix.
_PAIR_BYTES = 100                # a pairwise count (statistics)
_TERM_BYTES = 120                # a compiled term of a pair, in each direction
_ROW_BYTES = 200                 # a distinct row of a network (statistics), plus
_CELL_BYTES = 8                  # per feature of it, and per node of its compiled form


class _OverBudget(Exception):
    """An estimate beyond max_memory: the reason, for the caller to name its call."""


def _memory_check(value):
    """max_memory: a number of megabytes > 0."""
    number = _number(value)
    if number is None or type(value) is bool or not number > 0 or not isfinite(number):
        return "a number of megabytes > 0"
    return None


def _within_budget(params, estimate, what, fix):
    """Raise _OverBudget when ``estimate`` (bytes) passes params' max_memory."""
    budget = params.get("max_memory")
    if budget is not None and estimate > budget * 1e6:
        megabytes = estimate / 1e6
        raise _OverBudget("%s would take about %s MB, beyond max_memory=%s (MB); %s, or "
                          "raise max_memory" % (what, format(megabytes, ",.0f")
                                                if megabytes >= 10 else "%.2g" % megabytes,
                                                _shown(budget), fix))


def _check_memory(params, call, *statistics):
    """NaiveBayesError naming the call when statistics (added up: a model and what
    partial_fit or merge adds to it) would pass params' max_memory."""
    estimates = [part.memory_estimate() for part in statistics
                 if part is not None and hasattr(part, "memory_estimate")]
    if not estimates:
        return
    fix = _NETWORK_FIX if "network" in estimates[0][1] else _AODE_FIX
    try:
        _within_budget(params, sum(size for size, _ in estimates), estimates[0][1], fix)
    except _OverBudget as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None


_MEMORY_PARAMETER = _Parameter(2000, _memory_check, (
    _cli_number, "AODE, TAN, BayesNet and auto: the most memory, in MB, their counts and "
    "compiled tables may take by estimate (default 2000); beyond it the fit or the first "
    "prediction is refused", {"metavar": "MB"}))
_AODE_FIX = "use fewer features, ignore some, or round numbers with significant_digits="
_NETWORK_FIX = ("ignore features with many distinct values (identifiers), or round numbers "
                "with significant_digits=")
_AODE_ESTIMATES = ("laplace", "m")             # estimate=: Lidstone's, or the m-estimate
_AODE_WEIGHTINGS = ("mutual-information",)     # weighting= (None: equal weights)
_AODE_SMALL = 1e-6     # weka.core.Utils.SMALL: below it a mutual-information term, or
# the weight of a feature's present values (imputing its mean), counts as zero


def _aode_weighting_check(value):
    if value is None or (isinstance(value, str) and value in _AODE_WEIGHTINGS):
        return None
    return "None or " + " or ".join('"%s"' % w for w in _AODE_WEIGHTINGS)


def _aode_impute_check(value):
    return None if type(value) is bool else "True or False"


def _presence_counts(pairs, feature_of, width):
    """From one class's pair counts {a << 32 | b: N(c, a, b)} (value ids a < b, each
    of a feature in feature_of), ({a * width + j: sum_v N(c, a, v) over feature j's
    values v}: the rows with value a and feature j present, and {p * width + j (p <
    j): sum_{u, v} N(c, u, v)}: the rows with features p and j both present).  Whole
    counts are added up by the C counter, each key repeated count times, when that is
    not much more work than a loop over the keys."""
    keys = list(pairs)
    counts = list(pairs.values())
    low = list(map(_PAIR_SHIFT.__rrshift__, keys))
    high = list(map(0xFFFFFFFF .__and__, keys))
    low_feature = list(map(feature_of.__getitem__, low))
    high_feature = list(map(feature_of.__getitem__, high))
    with_feature = map(add, map(mul, low, repeat(width)), high_feature)
    with_feature = chain(with_feature, map(add, map(mul, high, repeat(width)), low_feature))
    both = map(add, map(mul, map(min, low_feature, high_feature), repeat(width)),
               map(max, low_feature, high_feature))
    sums = []
    for grouped, times in ((with_feature, counts + counts), (both, counts)):
        counter = {}
        if _INT.issuperset(map(type, counts)) and sum(counts) <= 8 * len(counts):
            _count_keys(counter, chain.from_iterable(map(repeat, grouped, times)))
        else:
            get = counter.get
            for key, count in zip(grouped, times):
                counter[key] = get(key, 0) + count
        sums.append(counter)
    return sums[0], sums[1]


class _AODEStatistics(_NaiveStatistics):
    """The sufficient statistics of AODE: those of naive Bayes (class counts, each
    feature's counts or record of values) and the pairwise class-conditional counts
    N(c, x_p, x_j) of every two features p < j (a _PairCounts), weighted and exact.

    Memory: one count per class and pair of values that occur together, at most
    K * V^2 / 2 for V distinct values of all features together (20 features of 8
    values, 3 classes: 38,400 counts); numbers are counted as they are (bins are cut
    when the model is compiled), so continuous features are best rounded with
    significant_digits.  A fit whose counts would pass max_memory (about 100 bytes
    each: 20 million counts at the default 2000 MB) is refused (see _check_memory).
    """

    file_fields = ("features", "pairs")
    __slots__ = ("pair_counts",)

    def __init__(self):
        super().__init__()
        self.pair_counts = _PairCounts()

    def copy(self):
        """An equal, independent copy."""
        twin = super().copy()
        twin.pair_counts = self.pair_counts.copy()
        return twin

    def absorb(self, other):
        """Add other's statistics, pair counts included."""
        super().absorb(other)
        self.pair_counts.absorb(other.pair_counts)
        return self

    def deficit(self, other):
        """What other holds beyond these statistics, pair counts included."""
        problem = super().deficit(other)
        if problem is None:
            problem = self.pair_counts.deficit(other.pair_counts, self.emptied(other))
        return problem

    def remove(self, other):
        """Remove other's statistics, pair counts included (their feature positions
        are these: other counted into a skeleton of these)."""
        super().remove(other)
        self.pair_counts.subtract(other.pair_counts)

    def settle(self, other, fitting):
        """As naive Bayes settles; pairs renumbered when features are dropped, and
        their values counted as numbers when a feature becomes numeric."""
        names = list(self.features)
        changed = super().settle(other, fitting)
        if list(self.features) != names or changed:
            position = {name: j for j, name in enumerate(self.features)}
            number = _counted_number(fitting.params)
            self.pair_counts = self.pair_counts.renumbered(
                {j: position.get(name) for j, name in enumerate(names)},
                {j: number for j, name in enumerate(names) if name in changed})
        return changed

    def count(self, rows, labels, weights, start, fitting):
        """Count as naive Bayes does, then the pairs of every row's present values of
        its categorical and discretized features (numbers as counted, rounded with
        significant_digits when it is set)."""
        groups, weight_groups, names = super().count(rows, labels, weights, start, fitting)
        features = [self.features[name] for name in names]
        used = [j for j, stats in enumerate(features) if stats.name in
                ("categorical", "discretized")]
        rounding = [_round_to_digits(fitting.params.get("significant_digits"))
                    if features[j].name == "discretized" else None for j in range(len(names))]
        get_id = self.pair_counts.ids.__getitem__
        for label, group in groups.items():
            id_rows = []
            for row in group:
                ids = []
                for j in used:
                    value = row[j]
                    if value is None or _is_missing(value):
                        continue
                    if rounding[j] is not None or features[j].name == "discretized":
                        value = float(value)
                        if rounding[j] is not None:
                            value = rounding[j](value)
                        if value == 0:
                            value = 0.0          # -0.0 and 0.0: one value
                    ids.append(get_id((j, value)))
                ids.sort()
                id_rows.append(ids)
            self.pair_counts.add_ids(label, id_rows, weight_groups[label] if weight_groups
                                     else None)
            _check_memory(fitting.params, fitting.call, self)
        return groups, weight_groups, names

    def compile(self, params):
        """The compiled AODE model."""
        return _AODEModel(self, params)

    def _replacements(self):
        """Each feature's replacement of a missing value (see imputed), from the
        counts as they are."""
        return [self._replacement(self.features[name]) for name in self.names()]

    @staticmethod
    def _replacement(feature):
        """A categorical feature's mode (weighted, all classes; ties to the first value
        in values() order), a number's weighted mean (0.0 when its values weigh 1e-6
        or less); None for another kind or a feature without values."""
        if feature.name not in ("categorical", "discretized"):
            return None
        totals = Counter()
        for values in feature.stats.counts.values():
            totals.update(values)
        if feature.name == "categorical":
            values = feature.stats.values()
            if not values:
                return None
            most = max(totals.get(v, 0) for v in values)
            return next(v for v in values if totals.get(v, 0) == most)
        weight = sum(totals.values())
        if not weight > _AODE_SMALL:
            return 0.0
        values = list(totals)
        _, weighted, _ = _exact_sums(values, [totals[x] for x in values])
        return _float(_fraction(weighted) / weight) + 0.0     # not -0.0

    def lacks_values(self):
        """True when some row lacks the value of a categorical or discretized feature."""
        return any(sum(feature.stats.counts.get(label, {}).values()) != n
                   for feature in self.features.values()
                   if feature.name in ("categorical", "discretized")
                   for label, n in self.class_count.items())

    def impute_values(self):
        """Give every missing value of a categorical or discretized feature its
        replacement, in these statistics' own value counts (N(c, replacement) +=
        N_c - sum_v N(c, v)); the pairwise counts are left as they are.  Returns
        (the value counts as they were, per feature position: {label: {value:
        count}}, the replacements)."""
        counted = {}
        replacements = []
        for j, name in enumerate(self.names()):
            feature = self.features[name]
            replacement = self._replacement(feature)
            replacements.append(replacement)
            if feature.name not in ("categorical", "discretized"):
                continue
            counts = feature.stats.counts
            counted[j] = {label: dict(values) for label, values in counts.items()}
            if replacement is None:
                continue
            for label, n in self.class_count.items():
                lacking = n - sum(counts.get(label, {}).values())
                if lacking:
                    mine = counts.setdefault(label, {})
                    mine[replacement] = mine.get(replacement, 0) + lacking
        return counted, replacements

    def imputed(self):
        """(statistics, replacements): a copy of these statistics as if every missing
        value of a categorical or discretized feature had been replaced before it was
        counted, as Weka's ReplaceMissingValues replaces it, and the replacement of
        each feature (None: nothing to replace it with, or an unused feature).

        A categorical feature's replacement is its mode (weighted, all classes; ties
        to the first value in values() order, the declared order first), a number's
        the weighted mean of its present values (0.0 when they weigh 1e-6 or less),
        counted as one more value before the bins are cut.  Nothing is replaced while
        counting (the mean is known only at the end, and the statistics must stay
        exact and mergeable); every count of a missing value follows from the counts:
          N(c, j missing)            = N_c - sum_v N(c, v)
          N(c, x_p, j missing)       = N(c, x_p) - sum_v N(c, x_p, v)
          N(c, p missing, j missing) = N_c - N_cp - N_cj + sum_{u, v} N(c, u, v)
        and each goes to the replacement's count.  Without a missing value these
        statistics themselves are returned (nothing to replace, nothing to copy).
        """
        if not self.lacks_values():
            return self, self._replacements()
        twin = self.copy()
        names = twin.names()
        counted, replacements = twin.impute_values()
        pair_counts = twin.pair_counts
        get_id = pair_counts.ids.__getitem__
        filled = {j: get_id((j, value)) for j, value in enumerate(replacements)
                  if value is not None}
        used = sorted(counted)
        width = len(names)
        for label, n in self.class_count.items():
            mine = pair_counts.pairs.setdefault(label, {})
            ids = {p: [get_id((p, value)) for value in counted[p].get(label, {})]
                   for p in used}             # numbered before feature_of is read
            feature_of = [j for j, _ in pair_counts.ids.order]
            with_feature, both = _presence_counts(mine, feature_of, width)
            added = {}
            get = added.get
            present = {}
            for p in used:
                values = counted[p].get(label, {})
                present[p] = sum(values.values())
                kids, counts = ids[p], list(values.values())
                base = list(map(mul, kids, repeat(width)))
                for j, b in filled.items():
                    if j == p:
                        continue      # x_p present, j missing: N(c, x_p) - sum_v N(c, x_p, v)
                    lacking = list(map(sub, counts, map(with_feature.get, map(
                        add, base, repeat(j)), repeat(0))))
                    keep = list(map(bool, lacking))
                    if not any(keep):
                        continue
                    lacking = list(compress(lacking, keep))
                    near = list(compress(kids, keep))
                    keys = map(add, map(int.__lshift__, map(min, near, repeat(b)),
                                        repeat(_PAIR_SHIFT)), map(max, near, repeat(b)))
                    for key, count in zip(keys, lacking):
                        added[key] = get(key, 0) + count
            for p, a in filled.items():   # both missing
                for j, b in filled.items():
                    if p < j:
                        lacking = n - present[p] - present[j] + both.get(
                            p * width + j, 0)
                        if lacking:
                            key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                            added[key] = get(key, 0) + lacking
            get = mine.get
            for key, count in added.items():
                mine[key] = get(key, 0) + count
        return twin, replacements

    def to_file(self, classes):
        """The model file's "features" and "pairs" fields."""
        data = super().to_file(classes)
        data.update(self.pair_counts.to_file(classes))
        return data

    @classmethod
    def from_file(cls, data, classes, class_count):
        """AODE's statistics from a model file, validated."""
        statistics = super().from_file(data, classes, class_count)
        statistics.pair_counts = _PairCounts.from_file(data, "pairs", classes,
                                                       len(statistics.features))
        return statistics

    def extra_summary(self):
        """{"pairwise counts": how many are kept}."""
        return {"pairwise counts": self.pair_counts.size()}

    def memory_estimate(self):
        """(bytes, what) of the counts that grow beyond naive Bayes': the pairs."""
        pairs = self.pair_counts.size()
        return pairs * _PAIR_BYTES, "the pairwise counts of AODE (%s)" % format(pairs, ",")


_AODE_DENSE_KEYS = 2048        # keys up to which a parent's child terms are a full list


class _ParentTerms:
    """A parent key's child terms by key number, in the sparse form: the term of a
    key that occurs with the parent, else the term of a count of 0 of its feature."""

    __slots__ = ("model", "parent", "shifted")

    def __init__(self, model, parent):
        self.model = model
        self.parent = parent
        self.shifted = parent << _PAIR_SHIFT

    def __getitem__(self, key):
        term = self.model.sparse_terms.get(self.shifted | key)
        if term is None:
            return self.model.sparse_default(self.parent, self.model.feature_of[key])
        return term


def _dyadic_scaled(column):
    """(ints, scale) with column[i] == ints[i] / scale exactly and scale a power of 2,
    for counts that are ints and Fractions of power-of-2 denominators (what weights
    given as floats sum to); None for anything else."""
    from fractions import Fraction
    if not {int, Fraction}.issuperset(map(type, column)):
        return None
    denominators = {n.denominator for n in column if type(n) is not int}
    if any(d & (d - 1) for d in denominators):
        return None
    scale = max(denominators, default=1)
    return [n * scale if type(n) is int else n.numerator * (scale // n.denominator)
            for n in column], scale


def _scaled_log_terms(scaled, accumulate, starts, ends, pseudo, alpha_sizes):
    """_AODEModel._terms' logs log((n + a) / (N + a S)) of counts given as (ints,
    scale), N the sum over each count's segment, by builtins: the totals summed
    exactly as ints, each count and total rounded once to a float (an int rounded,
    then divided by a power of 2: the float of the exact fraction), as _log_smoothed
    rounds them, so the same numbers; None when a float would overflow."""
    ints, scale = scaled
    prefix = list(accumulate(ints, initial=0))
    totals = map(sub, map(prefix.__getitem__, ends), map(prefix.__getitem__, starts))
    try:
        divisor = float(scale)
        counts = map(truediv, map(float, ints), repeat(divisor))
        sums = map(truediv, map(float, totals), repeat(divisor))
        return list(map(sub, map(log, map(add, counts, pseudo)),
                        map(log, map(add, sums, alpha_sizes))))
    except OverflowError:
        return None


class _AODEModel(_PairTable):
    """The compiled AODE model: the pair tables (see _PairTable) and the averaging.

    Every feature in turn is a super-parent: for a row x,
        P(c, x) ~ sum over qualifying parents p of w_p P(c, x_p) prod_{j != p} P(x_j | c, x_p)
                  / sum of their w_p
    with equal weights w_p (the mean), or with weighting="mutual-information" each
    feature's mutual information with the class (see _mutual_information; equal
    weights again when a row's parents' weights are all 0).  Each probability is one
    smoothed estimate (n + a) / (d + a v) over v outcomes (see pseudo_count):
        P(c, x_p)       = (N(c, x_p) + a) / (N_p + a K S_p)            v = K S_p
        P(x_j | c, x_p) = (N(c, x_p, x_j) + a) / (N_j(c, x_p) + a S_j)  v = S_j
    with a = alpha (estimate="laplace") or a = m / v (estimate="m": Weka's m-estimate
    (n + m/v) / (d + m)), the sum in log space (a log-sum-exp), so that any number
    of features gives finite probabilities.  A parent qualifies when its value is
    present and seen at least frequency_limit times (weighted, all classes together;
    at 0 a declared value never seen qualifies too); when none does, the row is
    scored by naive Bayes with the prior (N_c + a) / (N + a K), v = K, and the
    likelihoods (N(c, x_j) + a) / (N_cj + a S_j).  Numbers are cut into bins by the
    discretized kind's MDL cut points.  With impute=True the model is compiled from
    the statistics with every missing value replaced (see _AODEStatistics.imputed)
    and a row's missing values take the same replacements.

    Per qualifying parent key, a list holds every child key's per-class -log P(x_j |
    c, x_p), built on first use by builtins over all children at once and packed into
    ints as _Packed packs them: a row costs one builtin sum per parent.
    """

    def __init__(self, statistics, params):
        classes = statistics.classes()
        pairs = statistics.pair_counts.size()
        _within_budget(params, 2 * pairs * _TERM_BYTES, "AODE's compiled tables (%s "
                       "pairwise counts, a term each way)" % format(pairs, ","), _AODE_FIX)
        self.replacements = None          # per feature: what fills a missing value
        if params["impute"]:
            statistics, self.replacements = statistics.imputed()
        super().__init__(statistics, classes)
        self.alpha = params["alpha"]
        self.estimate = params["estimate"]
        self.m = params["m"]
        self.limit = params["frequency_limit"]
        k = self.k
        # per feature and per key number: the pseudo-count a of a child term and
        # a * S_j; per feature the parent term's a (over K S_p outcomes)
        self.feature_pseudo = [self.pseudo_count(size) for size in self.sizes]
        self.feature_alpha_size = [a * size for a, size in
                                   zip(self.feature_pseudo, self.sizes)]
        self.parent_pseudo = [self.pseudo_count(k * size) for size in self.sizes]
        self.key_pseudo = [self.feature_pseudo[j] for j in self.feature_of]
        self.alpha_size = [self.feature_alpha_size[j] for j in self.feature_of]
        self.smoothed = (self.alpha if self.estimate == "laplace" else self.m) > 0
        self.segment_start = [self.segments[j][0] for j in self.feature_of]
        self.segment_end = [self.segments[j][1] for j in self.feature_of]
        self.accumulate = accumulate
        class_count = [statistics.class_count[c] for c in classes]
        self.log_prior = tuple(_log_smoothed(class_count, sum(class_count),
                                             self.pseudo_count(k), k))
        # Packed: -log P in fixed point, K 64-bit fields per int (see _Packed); with
        # a > 0 every term is above a / (N + a K max S) (the smallest a, over the most
        # outcomes), so whether they all fit is known now
        bits = 63 - 11 - (self.width + 1).bit_length()
        most = k * max(self.sizes + [1])
        smallest = _log_smoothed([0], sum(class_count), self.pseudo_count(most),
                                 most)[0] if self.smoothed else -INF
        self.scale = float(2 ** bits) if bits >= 30 and smallest > -2047 else None
        if self.scale is not None:
            import struct
            self.unpack = struct.Struct("<%dQ" % k).unpack
        self.zero = 0 if self.scale is not None else self.zeros
        no_counts = [0] * k
        self.fallback = self._terms(None, list(map(list, zip(*[
            self.single.get(kid, no_counts) for kid in range(len(self.key_list))]))) or
            [[] for _ in range(k)])
        self.entries = {}                 # parent key number -> (base, child terms)
        # child terms per parent key: a list over every key number when there are few
        # (builtins over all keys at once), else only the keys that occur with the
        # parent and one term per feature for the others (memory linear in the counts:
        # a list per parent would be quadratic in the keys, as with ID-like columns)
        self.sparse = len(self.key_list) > _AODE_DENSE_KEYS
        self.no_counts = [0] * k
        self.rows = sum(class_count)
        self.single_total = [sum(column) for column in zip(*self.single.values())] or [0]
        self.weights = self._mutual_information() \
            if params["weighting"] == "mutual-information" else None
        if self.sparse:
            self._sparse_tables()

    def pseudo_count(self, outcomes):
        """The a of (n + a) / (d + a * outcomes): alpha (Lidstone's, Laplace's at 1),
        or m / outcomes (the m-estimate (n + m/v) / (d + m) is Lidstone's with alpha
        = m / v), so that both run through the one formula, _log_smoothed."""
        return self.alpha if self.estimate == "laplace" else self.m / outcomes

    def _mutual_information(self):
        """Per feature, its weight as a super-parent: the mutual information with the
        class, sum over classes c (outer) and the feature's keys v (inner) of
        P(c, v) log2(P(c, v) / (P(c) P(v))), with P(c, v) = N(c, v) / N_j, P(c) =
        N_cj / N_j and P(v) = N(v) / N_j over the N_j rows where the feature is
        present (weighted); a term is 0 where P(c, v) or P(c) P(v) is below 1e-6, as
        in Weka's WAODE (whose rows all count 1 and are never missing).  Never below
        0 (a rounding below is clamped)."""
        weights = []
        log_2 = log(2.0)
        for j in range(self.width):
            start, end = self.segments.get(j, (0, 0))
            kids = [kid for kid in range(start, end) if kid in self.frequency]
            total = _float(self.present[j])
            if self.key_of[j] is False or not total > 0:
                weights.append(0.0)
                continue
            counts = [self.single[kid] for kid in kids]
            value_share = [_float(self.frequency[kid]) / total for kid in kids]
            information = 0.0
            for c in range(self.k):
                joint = [_float(n[c]) / total for n in counts]
                class_share = _float(sum([n[c] for n in counts])) / total
                for p, q in zip(joint, map(mul, repeat(class_share), value_share)):
                    if p >= _AODE_SMALL and q >= _AODE_SMALL:
                        information += p * (log(p / q) / log_2)
            weights.append(max(information, 0.0))
        return weights

    def _pack(self, columns):
        """Per-class columns of log P as one list of terms: packed ints (-log P in
        fixed point, class c in bits 64c..64c+63) or tuples."""
        if self.scale is None:
            return list(zip(*columns))
        scale = -self.scale
        packed = None
        for c, column in enumerate(columns):
            fields = map(round, map(mul, column, repeat(scale)))
            if c:
                fields = map(int.__lshift__, fields, repeat(64 * c))
            packed = list(fields) if packed is None else list(map(add, packed, fields))
        return packed

    def _terms(self, p, counts):
        """Per key number, its term log((n + a) / (total + a * S_j)) from per-class
        columns of counts n = N(c, x_p, key) (or N(c, key) for naive Bayes, p None),
        total being its feature's N_j(c, x_p): by builtins over all keys."""
        columns = []
        for column in counts:
            whole = _INT.issuperset(map(type, column))
            logs = None
            if self.smoothed and not whole:       # fractional weights: ints scaled
                scaled = _dyadic_scaled(column)
                if scaled is not None:
                    logs = _scaled_log_terms(scaled, self.accumulate, self.segment_start,
                                             self.segment_end, self.key_pseudo,
                                             self.alpha_size)
            if logs is not None:
                columns.append(logs)
                continue
            prefix = list(self.accumulate(column, initial=0))
            totals = list(map(sub, map(prefix.__getitem__, self.segment_end),
                              map(prefix.__getitem__, self.segment_start)))
            if self.smoothed and whole and prefix[-1] < 2 ** 52:
                logs = list(map(sub, map(log, map(add, column, self.key_pseudo)),
                                map(log, map(add, totals, self.alpha_size))))
            else:                         # a = 0, or weights of other denominators
                logs = [_log_smoothed([n], total, a, size)[0] for n, total, a, size in
                        zip(column, totals, self.key_pseudo,
                            map(self.sizes.__getitem__, self.feature_of))]
            columns.append(logs)
        terms = self._pack(columns)
        if p is not None:                 # the parent is not its own child
            start, end = self.segments.get(p, (0, 0))
            terms[start:end] = [self.zero] * (end - start)
        return terms

    def entry(self, p, kid):
        """(parent term, child terms by key number) of a qualifying parent key, built
        on first use; None when the key does not qualify."""
        found = self.entries.get(kid, 0)
        if found != 0:
            return found
        entry = None
        if self.sparse:                   # the sparse tables, built at once
            base = self.bases.get(kid)
            if base is not None:
                entry = (base, _ParentTerms(self, kid))
            self.entries[kid] = entry
            return entry
        if self.frequency.get(kid, 0) >= self.limit:
            k = self.k
            base = self._pack([[_log_smoothed([n], self.present[p], self.parent_pseudo[p],
                                              k * self.sizes[p])[0]]
                               for n in self.single.get(kid, [0] * k)])[0]
            entry = (base, self._terms(p, self.pair_column(kid)))
        self.entries[kid] = entry
        return entry

    def _sparse_tables(self):
        """The sparse form of every parent's child terms, built at once by builtins
        over the pair counts, by the same arithmetic as _terms (term for term, so both
        forms give the same numbers), in time and memory linear in the number of
        pairwise counts: ``sparse_terms`` {parent << 32 | child: term} for every two
        keys that occur together, ``sparse_totals`` per class {parent * width +
        feature: N_j(c, x_p)} (None when no feature is ever missing: N_j(c, x_p) is
        then N(c, x_p)), and ``bases`` {qualifying parent: its term log P(c, x_p)}."""
        k, width = self.k, self.width
        feature_of, fas = self.feature_of, self.feature_alpha_size
        pair_keys = list(set().union(*self.pairs))
        low = list(map(_PAIR_SHIFT.__rrshift__, pair_keys))
        high = list(map(0xFFFFFFFF .__and__, pair_keys))
        parents, children = low + high, high + low        # each pair in both directions
        child_features = list(map(feature_of.__getitem__, children))
        child_pseudo = list(map(self.feature_pseudo.__getitem__, child_features))
        child_sizes = list(map(fas.__getitem__, child_features))
        complete = sum(self.single_total) == 0 or all(
            present == self.rows for present in self.present)
        groups = None if complete else list(map(add, map(mul, parents, repeat(width)),
                                                child_features))
        columns, self.sparse_totals = [], None if complete else []
        for c, flat in enumerate(self.pairs):
            counts = list(map(flat.get, pair_keys, repeat(0)))
            counts = counts + counts
            if complete:                  # every row with x_p has every feature present
                single = [self.single.get(kid, self.no_counts)[c]
                          for kid in range(len(self.key_list))]
                totals = list(map(single.__getitem__, parents))
            else:
                by_group = {}
                get = by_group.get
                for group, n in zip(groups, counts):
                    by_group[group] = get(group, 0) + n
                self.sparse_totals.append(by_group)
                totals = list(map(by_group.__getitem__, groups))
            if self.smoothed and _INT.issuperset(map(type, counts)) and \
                    max(totals, default=0) < 2 ** 52:
                columns.append(list(map(sub, map(log, map(add, counts, child_pseudo)),
                                        map(log, map(add, totals, child_sizes)))))
            else:                         # a = 0, or fractional weights
                columns.append([_log_smoothed([n], total, a, self.sizes[j])[0]
                                for n, total, a, j in zip(counts, totals, child_pseudo,
                                                          child_features)])
        self.sparse_terms = dict(zip(map(add, map(int.__lshift__, parents,
                                                  repeat(_PAIR_SHIFT)), children),
                                     self._pack(columns))) if pair_keys else {}
        self.sparse_defaults = {}
        # the parent terms log P(c, x_p), feature by feature (one shared total each);
        # at frequency_limit 0 a declared value never seen qualifies too
        self.bases = {}
        qualifying = defaultdict(list)
        for kid, (j, key) in enumerate(self.key_list):
            if key is not _UNSEEN and self.frequency.get(kid, 0) >= self.limit:
                qualifying[j].append(kid)
        for p, kids in qualifying.items():
            counts = [self.single.get(kid, self.no_counts) for kid in kids]
            terms = self._pack([_log_smoothed(list(column), self.present[p],
                                              self.parent_pseudo[p], k * self.sizes[p])
                                for column in zip(*counts)])
            self.bases.update(zip(kids, terms))

    def sparse_default(self, parent, j):
        """The term of a count of 0 of feature j given a parent key (built on first use)."""
        group = parent * self.width + j
        term = self.sparse_defaults.get(group)
        if term is None:
            if j == self.feature_of[parent]:
                term = self.zero          # the parent is not its own child
            else:
                totals = [self.single.get(parent, self.no_counts)[c] for c in range(self.k)] \
                    if self.sparse_totals is None else \
                    [by_group.get(group, 0) for by_group in self.sparse_totals]
                a, alpha_size = self.feature_pseudo[j], self.feature_alpha_size[j]
                term = self._pack([[log(0 + a) - log(total + alpha_size)]
                                   if self.smoothed and type(total) is int and
                                   total < 2 ** 52
                                   else _log_smoothed([0], total, a, self.sizes[j])
                                   for total in totals])[0]
            self.sparse_defaults[group] = term
        return term

    positional = _NaiveModel.positional

    def row_keys(self, row):
        """The key numbers of the row's present, used features (see _PairTable);
        with impute=True, of the row with its missing values replaced."""
        return super().row_keys(self.filled(row))

    def filled(self, row):
        """The row with every missing value replaced (impute=True), else the row."""
        if self.replacements is None:
            return row
        return [value if fill is None or not (value is None or _is_missing(value))
                else fill for value, fill in zip(row, self.replacements)]

    def parents(self, keys):
        """([(parent feature, entry)], their weights, or None for equal weights) of a
        row's qualifying parents; with mutual-information weights those of weight 0
        are left out, unless all are 0 (then every one counts, equally)."""
        found = []
        for kid in keys:
            j, key = self.key_list[kid]
            if key is not _UNSEEN:
                entry = self.entry(j, kid)
                if entry is not None:
                    found.append((j, entry))
        if self.weights is None:
            return found, None
        weights = [self.weights[j] for j, _ in found]
        if not any(weights):
            return found, None
        kept = [w > 0 for w in weights]
        return list(compress(found, kept)), list(compress(weights, kept))

    def joint(self, row):
        """log of the (weighted) mean over parents of P(c, x_p) prod P(x_j | c, x_p),
        per class."""
        keys = self.row_keys(row)
        parents, weights = self.parents(keys)
        if not parents:
            terms = list(map(self.fallback.__getitem__, keys))
            if self.scale is not None:
                return list(map(add, self.log_prior, self.unpacked(sum(terms))))
            return self._combined([[self.log_prior] + terms])
        if self.scale is not None:        # one builtin sum per parent
            width = 8 * self.k
            fields = [self.unpack(sum(map(terms.__getitem__, keys), base).to_bytes(
                width, "little")) for _, (base, terms) in parents]
            shift = log(len(fields)) if weights is None else log(math.fsum(weights))
            scale = self.scale
            joint = []
            for c in range(self.k):
                column = [f[c] for f in fields]
                low = min(column)
                shares = [exp((low - f) / scale) for f in column]
                if weights is not None:
                    shares = list(map(mul, weights, shares))
                joint.append(-low / scale - shift + log(math.fsum(shares)))
            return joint
        return self._combined([[base] + list(map(terms.__getitem__, keys))
                               for _, (base, terms) in parents], weights)

    def _combined(self, parents, weights=None):
        """The tuple form: per parent the sum of its terms, then the log of the
        (weighted) mean over parents; with zero probabilities (a = 0) each class
        counts them as naive Bayes does, by its best parent, when every class is
        impossible."""
        sums = [list(map(sum, zip(*vectors))) for vectors in parents]
        if weights is None:
            joint = [_log_sum_exp([s[c] for s in sums]) - log(len(sums))
                     for c in range(self.k)]
        else:
            logs, total = list(map(log, weights)), log(math.fsum(weights))
            joint = [_log_sum_exp([s[c] + w for s, w in zip(sums, logs)]) - total
                     for c in range(self.k)]
        if max(joint) > -INF:
            return joint
        best = [max(_zeros_and_rest(vectors, c) for vectors in parents)
                for c in range(self.k)]
        top = max(order for order, _ in best)
        joint = _InfiniteJoint([-INF] * self.k)
        joint.effective = [rest if order == top else -INF for order, rest in best]
        return joint

    def joints(self, rows):
        """Joint log-likelihoods of many rows, one by one."""
        return list(map(self.joint, rows))

    def unpacked(self, term):
        """A term as a tuple of per-class log P."""
        if self.scale is None:
            return term
        return tuple([-field / self.scale for field in
                      self.unpack(term.to_bytes(8 * self.k, "little"))])

    def explain(self, row, extra=()):
        """The parts of one row's joint log-likelihood: each parent's share of the
        class's score, and per feature its share-weighted log-likelihoods; the prior
        holds the super-parent terms log P(c, x_p) (share-weighted) and the
        averaging's correction, so that prior + features = joint, exactly as for naive
        Bayes.  With parent weights w_p (of sum W) the shares are w_p P_p(c, x) / W
        P(c, x), and the correction sum_p share_p (log(w_p / W) - log share_p)."""
        classes, k = self.classes, self.k
        keys = self.row_keys(row)
        filled = self.filled(row)
        parents, weights = self.parents(keys)
        if parents:
            parts = [(p, self.unpacked(base), [self.unpacked(terms[key]) for key in keys])
                     for p, (base, terms) in parents]
        else:
            parts = [(None, self.log_prior, [self.unpacked(self.fallback[key])
                                             for key in keys])]
        sums = [list(map(sum, zip(base, *terms))) for _, base, terms in parts]
        joint = self.joint(row)
        m = len(parts)
        if weights is None:
            log_weights, fractions = [-log(m)] * m, [1.0 / m] * m
        else:
            total = math.fsum(weights)
            log_weights = [log(w) - log(total) for w in weights]
            fractions = [w / total for w in weights]
        shares = [[exp(s[c] - joint[c] + lw) if joint[c] > -INF else fraction
                   for c in range(k)] for s, lw, fraction in zip(sums, log_weights,
                                                                 fractions)]
        position = {self.key_list[kid][0]: n for n, kid in enumerate(keys)}
        prior = []
        contribution = [[0.0] * k for _ in keys]
        for c in range(k):
            own = 0.0
            for w, (_, base, terms) in zip(shares, parts):
                if not w[c]:              # a parent with no share (a zero probability)
                    continue              # adds nothing, not 0 * -inf
                own += w[c] * base[c]
                for n, term in enumerate(terms):
                    contribution[n][c] += w[c] * term[c]
            entropy = -sum(w[c] * log(w[c]) for w in shares if w[c] > 0)
            correction = -log(m) if weights is None else \
                math.fsum([w[c] * lw for w, lw in zip(shares, log_weights)])
            prior.append(own + entropy + correction)
        features = []
        for j, (name, value, used) in enumerate(zip(self.names, row, filled)):
            n = position.get(j)
            status = "ignored" if self.key_of[j] is False else "missing" if n is None \
                else ("unseen" if self.key_list[keys[n]][1] is _UNSEEN else "used")
            entry = {"feature": name, "value": value, "status": status,
                     "log_likelihood": dict(zip(classes, contribution[n] if n is not None
                                                else self.zeros))}
            if used is not value:         # impute=True: a missing value replaced
                entry["imputed"] = used
            if n is not None and self.key_of[j]:
                entry["interval"] = self.key_of[j].name(self.key_list[keys[n]][1])
            features.append(entry)
        for name, value in extra:
            features.append({"feature": name, "value": value, "status": "ignored",
                             "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, prior)), "features": features,
                "parents": [{"feature": self.names[p], "value": filled[p],
                             "share": dict(zip(classes, w))}
                            for (p, _, _), w in zip(parts, shares) if p is not None]}

    def _naive_tables(self):
        """Per feature {key: per-class log P(x_j | c)}, naive Bayes' view."""
        tables = [{} for _ in self.names]
        for (j, key), term in zip(self.key_list, self.fallback):
            if key is not _UNSEEN:
                tables[j][key] = self.unpacked(term)
        return tables

    def informative(self):
        """Categorical values and bins ranked as naive Bayes ranks them (AODE's
        dependencies are not in this ranking)."""
        ranked = []
        for j, table in enumerate(self._naive_tables()):
            for key, vector in table.items():
                value = key if self.key_of[j] is None else self.key_of[j].name(key)
                ranked.append((self.names[j], value, _log_ratio_range(vector),
                               self.classes[vector.index(max(vector))]))
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def tables(self):
        """Each feature's naive-Bayes view, P(x_j | c), as naive Bayes tables it."""
        out = {}
        for j, vectors in enumerate(self._naive_tables()):
            name, key_of = self.names[j], self.key_of[j]
            if key_of is False:
                out[name] = {"kind": "ignore"}
            elif key_of is None:
                out[name] = {"kind": "categorical", "probabilities": {
                    label: {v: exp(vector[c]) for v, vector in vectors.items()}
                    for c, label in enumerate(self.classes)}}
            else:
                out[name] = {"kind": "discretized", "cuts": list(key_of.cuts),
                             "probabilities": {
                                 label: [exp(vectors[b][c]) for b in range(len(vectors))]
                                 for c, label in enumerate(self.classes)}}
        return out


# -- Bayesian networks: TAN and hill climbing, as Weka's BayesNet ----------------------
#
# The class and every feature are nodes of a directed acyclic graph; each node has a
# table P(x | its parents), and P(c, x) is the product of every node's entry.  Both
# families learn the graph from the counts by Weka's BAYES score (a Dirichlet(1/2)
# prior on every cell of a node's table, parents fixed): TAN grows a tree over the
# features on top of naive Bayes, hill climbing adds and deletes arcs while the score
# improves.  They are Weka 3.6's BayesNet with the TAN or HillClimber search and the
# SimpleEstimator, including what BayesNet does to the data first: numbers cut into
# Fayyad and Irani's MDL bins (supervised Discretize), then every missing value
# replaced by its feature's most frequent bin or value (ReplaceMissingValues, after
# the discretization), at fit and at prediction.  The structure decides by strict
# comparisons of doubles, so the scores are summed as Weka sums them, term by term in
# its order with its own log-gamma function, and exact ties go the way Weka's scans
# go: the same structure, hence the same probabilities.

_COEFFICIENTS_A = (8.11614167470508450300E-4, -5.95061904284301438324E-4,
                   7.93650340457716943945E-4, -2.77777777730099687205E-3,
                   8.33333333333331927722E-2)
_COEFFICIENTS_B = (-1.37825152569120859100E3, -3.88016315134637840924E4,
                   -3.31612992738871184744E5, -1.16237097492762307383E6,
                   -1.72173700820839662146E6, -8.53555664245765465627E5)
_COEFFICIENTS_C = (-3.51815701436523470549E2, -1.70642106651881159223E4,
                   -2.20528590553854454839E5, -1.13933444367982507207E6,
                   -2.53252307177582951285E6, -2.01889141433532773231E6)


def _horner(x, coefficients, leading_one=False):
    """coefficients[0] x^n + ... + coefficients[n] by Horner's rule (with an implied
    leading 1: x^(n+1) + coefficients[0] x^n + ...), in Cephes' order of operations."""
    value = x + coefficients[0] if leading_one else coefficients[0]
    for c in coefficients[1:]:
        value = value * x + c
    return value


def _weka_ln_gamma(x):
    """ln Gamma(x) for x > 0 as Weka computes it (weka.core.Statistics.lnGamma, a port
    of Cephes' lgam) on a correctly rounded log, as Java's Math.log is: shifted into
    [2, 3) and a rational approximation below 13, Stirling's series above.  Its last
    bits differ from math.lgamma's, and they decide near-ties between structures."""
    if x < 13.0:
        z = 1.0
        while x >= 3.0:
            x -= 1.0
            z *= x
        while x < 2.0:
            z /= x
            x += 1.0
        if x == 2.0:
            return _mdl_log(z, True)
        x -= 2.0
        return _mdl_log(z, True) + x * _horner(x, _COEFFICIENTS_B) / _horner(
            x, _COEFFICIENTS_C, True)
    q = (x - 0.5) * _mdl_log(x, True) - x + 0.91893853320467274178
    if x > 1.0e8:
        return q
    p = 1.0 / (x * x)
    if x >= 1000.0:
        return q + ((7.9365079365079365079365e-4 * p - 2.7777777777777777777778e-3) * p
                    + 0.0833333333333333333333) / x
    return q + _horner(p, _COEFFICIENTS_A) / x


_HALF_LN_GAMMA = [math.nan]      # _weka_ln_gamma(k / 2) for k = 1, 2, ...: only grows


_HALF_TABLE_COUNTS = 10 ** 7  # whole counts up to which the search uses Weka's lnGamma table


def _half_ln_gamma(largest):
    """The table of ln Gamma(k / 2) up to k = largest: the only arguments of the
    structure score, whose prior is 1/2 per cell and whose counts are whole rows."""
    table = _HALF_LN_GAMMA
    while len(table) <= largest:
        table.append(_weka_ln_gamma(len(table) / 2.0))
    return table


_DENSE_CELLS = 1 << 20     # a node's table this large or smaller is scored cell by cell


class _NetworkScores:
    """Weka's BAYES score of a node given its ordered parents, for any node and parent
    list, from the distinct rows (values as node indices, weight) of the data, each
    weight a whole number of ``unit``s; scores are cached.

    The score is the sum over parent configurations j (mixed radix, the first parent
    most significant) of sum_v lnG(1/2 + n_jv) - lnG(n_j + |V|/2) - |V| lnG(1/2) +
    lnG(|V|/2).  Weka adds each term to one running double, in that order, empty
    configurations included (they add 0 only in exact arithmetic), and the structure
    search decides by strict comparisons of these doubles: so a table of at most
    _DENSE_CELLS cells is scored as Weka scores it, term by term (by builtins: the
    terms in order, then one left-to-right reduce, which rounds after each addition as
    the running double does).  A larger table (features with thousands of values, such
    as identifiers; Weka itself needs the whole table then) is scored from the
    configurations that occur: an empty configuration adds 0, and a value absent from
    an occurring configuration adds lnG(1/2) - lnG(1/2), so the score is the sum over
    occurring cells of lnG(1/2 + n) - lnG(1/2) and over occurring configurations of
    lnG(|V|/2) - lnG(n_j + |V|/2), summed exactly rounded (fsum): equal in exact
    arithmetic, its last bits may differ from Weka's; memory and time linear in the
    rows.  The counts are summed as whole numbers, so a score is the same whatever the
    order of the rows.
    """

    def __init__(self, rows, cardinality, unit=1):
        self.cardinality = cardinality
        self.unit = unit
        self.columns = [list(column) for column in zip(*[values for values, _ in rows])]
        if not self.columns:
            self.columns = [[] for _ in cardinality]
        self.weights = [n for _, n in rows]
        self.total = sum(self.weights)
        self.cache = {}

    def __call__(self, node, parents):
        """The score of node given parents (a list), cached."""
        key = node, tuple(parents)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._score(node, parents)
        return found

    def cell_counts(self, node, parents):
        """{cell: whole-number count} of the occurring cells, cell = configuration *
        |V| + value."""
        cells = None
        for p in list(parents) + [node]:
            column = self.columns[p]
            cells = column if cells is None else list(map(
                add, map(mul, cells, repeat(self.cardinality[p])), column))
        counts = Counter()
        weights = self.weights
        if self.total == len(weights):            # every distinct row weighs one unit
            _count_keys(counts, cells)
        elif self.total <= 8 * len(weights):      # a few units each: repeated, in C
            _count_keys(counts, chain.from_iterable(map(repeat, cells, weights)))
        else:
            get = counts.get
            for cell, n in zip(cells, weights):
                counts[cell] = get(cell, 0) + n
        return counts

    def _score(self, node, parents):
        size = self.cardinality[node]
        configurations = 1
        for p in parents:
            configurations *= self.cardinality[p]
        counts = self.cell_counts(node, parents)
        unit = self.unit
        exact = unit == 1 and self.total <= _HALF_TABLE_COUNTS
        if exact:
            table = _half_ln_gamma(2 * self.total + 2 * size + 2)

            def of_count(n):                      # lnG(1/2 + n)
                return table[2 * n + 1]

            def of_total(n):                      # lnG(n + |V|/2)
                return table[2 * n + size]
        else:
            # weights that are not whole numbers, or whole ones beyond
            # _HALF_TABLE_COUNTS: Weka's search has no counterpart (it counts rows
            # whatever their weights), so the library's lgamma serves; Weka's own,
            # whose log is correctly rounded, costs a Decimal log a call
            half = size / 2.0
            cached = {}

            def of_count(n):
                found = cached.get(n)
                if found is None:
                    found = cached[n] = lgamma(n / unit + 0.5)
                return found

            def of_total(n):
                return lgamma(n / unit + half)
        empty_terms = (-(size * table[1]) if exact else -(size * lgamma(0.5)),
                       table[size] if exact else lgamma(size / 2.0))
        if configurations * size > _DENSE_CELLS:
            return self._sparse_score(counts, size, of_count, of_total, empty_terms)
        dense = [0] * (configurations * size)
        for cell, n in counts.items():
            dense[cell] = n
        if exact:
            odd = table[1::2]                     # odd[n] = lnG(1/2 + n)
            cell_terms = list(map(odd.__getitem__, dense))
        else:
            cell_terms = list(map(of_count, dense))
        totals = map(sum, zip(*[iter(dense)] * size))
        columns = [cell_terms[v::size] for v in range(size)]
        columns.append(list(map(neg, map(of_total, totals))))
        columns.append(repeat(empty_terms[0]))
        columns.append(repeat(empty_terms[1]))
        # score += each term in Weka's order (subtracting x is adding -x, exactly)
        return reduce(add, chain.from_iterable(zip(*columns)), 0.0)

    @staticmethod
    def _sparse_score(counts, size, of_count, of_total, empty_terms):
        """The score from the occurring cells (see the class docstring)."""
        at_zero = of_count(0)
        totals = Counter()
        terms = []
        for cell, n in counts.items():
            if n:
                terms.append(of_count(n) - at_zero)
                totals[cell // size] += n
        for n in totals.values():
            terms.append(empty_terms[1] - of_total(n))
        return fsum(terms)


def _tan_structure(score, nodes, root):
    """Weka's TAN search: naive Bayes (the class ``root`` a parent of every feature)
    plus a tree over the features, grown greedily from the strongest link, each
    ordered pair (a, b) weighed by gain(a, b) = score(a | class, b) - score(a | class)
    and the first of equal ones taken (a, then b, in index order); the first link is
    taken whatever its gain, each later one has exactly one end in the tree.  Each
    link (a, b) is then oriented as Weka orients it: b gets parent a when b has no
    feature parent yet, else a gets parent b."""
    parents = [[root] if i != root else [] for i in range(nodes)]
    features = [i for i in range(nodes) if i != root]
    if nodes <= 2:
        return parents
    base = {a: score(a, [root]) for a in features}
    gain = {}
    for n, a in enumerate(features):
        _progress("scoring pairs, feature", n + 1, len(features))
        gain.update(((a, b), score(a, [root, b]) - base[a]) for b in features if a != b)
    _progress("scoring pairs, feature")
    linked = [False] * nodes
    links = []
    for step in range(nodes - 2):
        best, best_gain = None, 0.0
        for a in features:
            for b in features:
                if a == b or (step and linked[a] == linked[b]):
                    continue
                if best is None or gain[a, b] > best_gain:
                    best, best_gain = (a, b), gain[a, b]
        links.append(best)
        linked[best[0]] = linked[best[1]] = True
    has_parent = [False] * nodes
    for a, b in links:
        child, parent = (b, a) if not has_parent[b] else (a, b)
        parents[child].append(parent)
        has_parent[child] = True
    return parents


def _descendants(children, start):
    """The nodes a directed path leads to from start (start included)."""
    seen, todo = {start}, [start]
    while todo:
        for child in children[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _hill_climbing_structure(score, nodes, root, max_parents):
    """Weka's HillClimber search with its defaults (from naive Bayes, no arc
    reversal): repeatedly the best of every arc addition (heads in index order, then
    tails; only heads with fewer than max_parents parents, the class counting as one;
    none that closes a cycle) and every arc deletion (nodes in index order, parents
    in their order), by the change of the head's score, the first of equal ones; stop
    when the best change is not positive."""
    parents = [[root] if i != root else [] for i in range(nodes)]
    added = [[None] * nodes for _ in range(nodes)]        # [head][tail]: score change
    deleted = [[None] * nodes for _ in range(nodes)]

    def update(head):
        """The score changes of every move into head."""
        mine = parents[head]
        base = score(head, mine)
        for tail in range(nodes):
            if tail == head:
                continue
            if tail not in mine:
                if len(mine) < max_parents:
                    added[head][tail] = score(head, mine + [tail]) - base
            else:
                deleted[head][tail] = score(head, [p for p in mine if p != tail]) - base

    for node in range(nodes):
        _progress("scoring nodes", node + 1, nodes)
        update(node)
    _progress("scoring nodes")
    step = 0
    while True:
        step += 1
        _progress("structure search, step", step)
        best, best_change = None, -1e100
        children = [[] for _ in parents]
        for child, mine in enumerate(parents):
            for p in mine:
                children[p].append(child)
        for head in range(nodes):
            if len(parents[head]) >= max_parents:
                continue
            below = _descendants(children, head)   # an arc from one would close a cycle
            for tail in range(nodes):
                if tail == head or tail in parents[head] or tail in below:
                    continue
                if added[head][tail] > best_change:
                    best, best_change = (True, head, tail), added[head][tail]
        for head in range(nodes):
            for tail in parents[head]:
                if deleted[head][tail] > best_change:
                    best, best_change = (False, head, tail), deleted[head][tail]
        if best is None or not best_change > 0:
            _progress("structure search, step")
            return parents
        add_arc, head, tail = best
        if add_arc:
            parents[head].append(tail)
        else:
            parents[head].remove(tail)
        update(head)


_NETWORK_KINDS = ("categorical", "discretized", "ignore")


class _NetworkStatistics(_NaiveStatistics):
    """The sufficient statistics of the network families: those of naive Bayes and
    every distinct row of the features they use (a _RowCounts), weighted and exact,
    and the order of the classes as first declared (partial_fit's classes=, an ARFF
    file's declaration), which the structure search sums its scores in, as Weka does.

    Memory: one entry per distinct row and class, at most one per training row;
    numbers are kept as counted (their bins are cut when the model is compiled), so
    continuous features are best rounded with significant_digits.
    """

    file_fields = ("features", "row_counts", "class_order")
    __slots__ = ("row_counts", "class_order")

    def __init__(self):
        super().__init__()
        self.row_counts = _RowCounts()
        self.class_order = []

    def copy(self):
        """An equal, independent copy."""
        twin = super().copy()
        twin.row_counts = self.row_counts.copy()
        twin.class_order = list(self.class_order)
        return twin

    def skeleton(self):
        """Empty statistics with the same features and class order."""
        empty = super().skeleton()
        empty.class_order = list(self.class_order)
        return empty

    def declare_classes(self, classes):
        """Remember the order of the classes the first time they are declared."""
        if not self.class_order:
            self.class_order = list(classes)

    def absorb(self, other):
        """Add other's statistics: rows placed by feature name, as the features are."""
        mine = list(self.features)
        super().absorb(other)
        names = list(self.features)
        if names != mine:             # new features: every row of mine gets them
            self.row_counts = self._widened(self.row_counts, mine, names)
        theirs = self._widened(other.row_counts, list(other.features), names)
        self.row_counts.absorb(theirs)
        self.class_order = self.class_order or list(other.class_order)
        return self

    def _rows_as_mine(self, other):
        """other's rows, and these, in these features (rows counted before a mapping
        row brought a new feature lack its value)."""
        names = list(self.features)
        mine = self.row_counts
        if any(len(row) != len(names) for counted in mine.rows.values() for row in counted):
            mine = self._widened(mine, names, names)
        return mine, self._widened(other.row_counts, list(other.features), names)

    def deficit(self, other):
        """What other holds beyond these statistics, rows included."""
        problem = super().deficit(other)
        if problem is None:
            mine, theirs = self._rows_as_mine(other)
            problem = mine.deficit(theirs, self.emptied(other))
        return problem

    def remove(self, other):
        """Remove other's statistics, rows included."""
        self.row_counts, theirs = self._rows_as_mine(other)
        super().remove(other)
        self.row_counts.subtract(theirs)

    def settle(self, other, fitting):
        """As naive Bayes settles; rows narrowed to the features left (their values
        counted as numbers where a feature became numeric), and classes no longer
        held left out of the class order."""
        names = list(self.features)
        changed = super().settle(other, fitting)
        if changed:
            number = _counted_number(fitting.params)
            self.row_counts = self._widened(self.row_counts, names, names, {
                j: number for j, name in enumerate(names) if name in changed})
        if list(self.features) != names:
            self.row_counts = self._widened(self.row_counts, names, list(self.features))
        self.class_order = [label for label in self.class_order
                            if label in self.class_count]
        return changed

    @staticmethod
    def _widened(row_counts, names, wanted, convert=None):
        """Row counts whose rows hold the values of ``wanted`` names (None for one they
        lack), from rows that hold those of ``names`` (``convert``: {position in
        names: function} for values to count anew)."""
        position = {name: i for i, name in enumerate(names)}
        where = [position.get(name) for name in wanted]
        widened = _RowCounts()
        for label, rows in row_counts.rows.items():
            mine = widened.rows[label] = {}
            for row, (weight, n) in rows.items():
                if convert:
                    row = tuple([convert[j](v) if j in convert and v is not None else v
                                 for j, v in enumerate(row)])
                new = tuple([None if i is None or i >= len(row) else row[i] for i in where])
                cell = mine.get(new)
                if cell is None:
                    mine[new] = [weight, n]
                else:
                    cell[0] += weight
                    cell[1] += n
        return widened

    def count(self, rows, labels, weights, start, fitting):
        """Count as naive Bayes does, then every row's values of its categorical and
        discretized features (numbers as counted, rounded with significant_digits when
        it is set; None for a missing value or another kind)."""
        groups, weight_groups, names = super().count(rows, labels, weights, start, fitting)
        features = [self.features[name] for name in names]
        kinds = [feature.name for feature in features]
        rounding = _round_to_digits(fitting.params.get("significant_digits"))
        width = len(self.features)
        for label, group in groups.items():
            values = []
            for row in group:
                out = [None] * width
                for j, kind in enumerate(kinds):
                    value = row[j]
                    if value is None or kind not in ("categorical", "discretized") or \
                            _is_missing(value):
                        continue
                    if kind == "discretized":
                        value = float(value)
                        if rounding is not None:
                            value = rounding(value)
                        if value == 0:
                            value = 0.0          # -0.0 and 0.0: one value
                    out[j] = value
                values.append(tuple(out))
            self.row_counts.add(label, values, weight_groups[label] if weight_groups
                                else None)
        _check_memory(fitting.params, fitting.call, self)
        return groups, weight_groups, names

    def compile(self, params):
        """The compiled network (its structure searched now)."""
        return _NetworkModel(self, params)

    def to_file(self, classes):
        """The model file's "features", "row_counts" and "class_order" fields."""
        data = super().to_file(classes)
        width = len(self.features)
        rows = self.row_counts
        if any(len(row) != width for counted in rows.rows.values() for row in counted):
            rows = self._widened(rows, list(self.features), list(self.features))
        data.update(rows.to_file(classes))
        data["class_order"] = [_encode(label, "a class label") for label in
                               self.class_order]
        return data

    @classmethod
    def from_file(cls, data, classes, class_count):
        """The network statistics of a model file, validated."""
        statistics = super().from_file(data, classes, class_count)
        statistics.row_counts = _RowCounts.from_file(data, classes, class_count,
                                                     len(statistics.features))
        order = _field(data, "class_order")
        order = _decode_list(list(order) if type(order) is _LazyItems else order,
                             "class_order")
        for label in order:
            _expect(_hashable(label) and label in class_count, "class_order", label,
                    "labels among the classes")
        if len(set(order)) != len(order):
            raise _Invalid("class_order repeats a label; expected distinct labels")
        statistics.class_order = order
        return statistics

    def extra_summary(self):
        """{"distinct rows": how many are kept}."""
        return {"distinct rows": self.row_counts.size()}

    def memory_estimate(self):
        """(bytes, what) of the counts that grow beyond naive Bayes': the rows."""
        rows = self.row_counts.size()
        return (rows * (_ROW_BYTES + _CELL_BYTES * len(self.features)),
                "the distinct rows a network keeps (%s)" % format(rows, ","))


_DENSE_TABLE = 1 << 16    # a node's table this large or smaller is kept whole


class _SparseCells(dict):
    """A node's table of log P(value | configuration) by cell, for a table too large
    to keep whole: the cells whose count is not 0; ``defaults``, per configuration
    that occurs in training, the entry of a value of count 0 in it; any other cell is
    in a configuration that never occurs, whose entry is ``empty`` (1/|V|, the
    estimate from no counts)."""

    __slots__ = ("size", "empty", "defaults")

    def __init__(self, size, empty):
        super().__init__()
        self.size = size
        self.empty = empty
        self.defaults = {}

    def __missing__(self, cell):
        """The entry of a value of count 0."""
        default = self.defaults.get(cell // self.size)
        return self.empty[cell % self.size] if default is None else default

    def rows(self):
        """(configuration, [entry of each value]) of the occurring configurations, in
        configuration order."""
        size = self.size
        return [(j, [self[j * size + v] for v in range(size)])
                for j in sorted(self.defaults)]


class _NodeVectors(dict):
    """One node's terms for every class at once: the key (the node's value, then its
    parents' values but the class's) -> per class (classes_ order) log P(value |
    parents), filled as keys occur (a table holds no more entries than it has cells,
    and most are never asked for)."""

    __slots__ = ("model", "node", "positions")

    def __init__(self, model, node):
        super().__init__()
        self.model = model
        self.node = node
        root = model.root
        # where each parent's value is: in the key (its place), or the class (None)
        own = 0 if node != root else None
        features = [p for p in model.parents[node] if p != root]
        self.positions = [None if p == root else features.index(p) + (own is not None)
                          for p in model.parents[node]]

    def __missing__(self, key):
        """The terms of a key, as node_terms computes them."""
        model = self.model
        node = self.node
        size = model.cardinality[node]
        table = model.cpts[node]
        sizes = [model.cardinality[p] for p in model.parents[node]]
        vector = []
        for c in model.class_index:
            j = 0
            for where, parent_size in zip(self.positions, sizes):
                j = j * parent_size + (c if where is None else key[where])
            vector.append(table[j * size + (c if node == model.root else key[0])])
        vector = tuple(vector)
        self[key] = vector
        return vector


class _NetworkFast:
    """A network's joint log-likelihoods of whole rows with one dict lookup per node:
    every node's terms for all classes at once (_NodeVectors), keyed by the values of
    the row that the node's table reads, then added per class in node order, as
    joint adds them (so the same numbers).  A row with a missing, unseen or odd value,
    or an infinite term, returns None: joint scores it (and names what is wrong)."""

    def __init__(self, model):
        used = model.used
        self.categorical = [n for n, j in enumerate(used) if j not in model.cuts]
        self.binned = [n for n, j in enumerate(used) if j in model.cuts]
        self.pick_categorical = _picker([used[n] for n in self.categorical], model.width)
        self.pick_binned = _picker([used[n] for n in self.binned], model.width)
        self.indexes = [model.index[used[n]] for n in self.categorical]
        self.cuts = [model.cuts[used[n]] for n in self.binned]
        order = self.categorical + self.binned          # node n's value: order.index(n)
        self.node_order = None if order == list(range(len(used))) else \
            itemgetter(*[order.index(n) for n in range(len(used))])
        root = model.root
        self.keys = []
        for node, parents in enumerate(model.parents):
            key = ([] if node == root else [node]) + [p for p in parents if p != root]
            # (itemgetter of one place gives the value, not a tuple: the place twice)
            self.keys.append(itemgetter(*key, *key) if len(key) == 1 else
                             itemgetter(*key) if key else _no_key)
        self.vectors = [_NodeVectors(model, node) for node in range(len(model.parents))]

    def joint(self, row):
        """Per-class joint log-likelihoods of one row (in feature order), or None."""
        try:
            values = []
            if self.categorical:
                pick = self.pick_categorical
                values = list(map(dict.get, self.indexes, row if pick is None else pick(row)))
                if None in values:
                    return None           # missing, unseen
            if self.cuts:
                pick = self.pick_binned
                numbers = row if pick is None else pick(row)
                if not _FLOAT_INT.issuperset(map(type, numbers)):
                    return None
                total = sum(numbers)
                if total - total != 0:
                    return None           # NaN or infinite
                values += map(bisect_left, self.cuts, map(float, numbers))   # as _number
            if self.node_order is not None:
                values = list(self.node_order(values))
        except (TypeError, OverflowError):          # unhashable, or an int beyond floats
            return None
        joint = list(map(sum, zip(*map(getitem, self.vectors,
                                       [key(values) for key in self.keys]))))
        total = sum(joint)
        return joint if total - total == 0 else None


def _no_key(values):
    """The key of a node that reads no value of the row (the class without parents)."""
    return ()


class _NetworkModel:
    """The compiled network: the data as BayesNet sees it (bins and filled-in values),
    the structure its search finds, and every node's table of log P(x | parents).

    The nodes are the categorical and discretized features in column order, then the
    class (Weka's ARFF files put the class last).  A row's joint log-likelihood of
    class c is the sum over the nodes of log P(node's value | its parents' values),
    the class node taking the value c; P(x | j) = (alpha + w(j, x)) / (alpha |X| +
    w(j)) from the weighted counts (SimpleEstimator); the search uses a prior of 1/2
    per cell whatever alpha is (as Weka).  The search and the bins weigh rows as the
    tables do, so that a weight of 2 is a row counted twice (scikit-learn's meaning;
    Weka's search and its MDL test count rows whatever their weights: the same with
    unit weights, Weka's own data).  A missing value, or a value never seen in
    training, counts as its feature's most frequent bin or value (weighted; the first
    of equal ones).
    """

    def __init__(self, statistics, params):
        self.classes = classes = statistics.classes()
        self.names = names = statistics.names()
        self.width = len(names)
        rows = statistics.row_counts.size()
        _within_budget(params, rows * (_ROW_BYTES + 3 * _CELL_BYTES * (self.width + 1)),
                       "the network's compiled tables (%s distinct rows)" % format(rows, ","),
                       _NETWORK_FIX)
        self.k = len(classes)
        self.zeros = (0.0,) * self.k
        self.alpha = params["alpha"]
        max_parents = params.get("max_parents")   # None: TAN
        order = [c for c in statistics.class_order if c in statistics.class_count]
        self.class_values = order + [c for c in classes if c not in order]
        self.class_index = [self.class_values.index(c) for c in classes]
        kinds = [statistics.features[name].name for name in names]
        self.used = used = [j for j, kind in enumerate(kinds) if kind in
                            ("categorical", "discretized")]
        rows = statistics.row_counts.rows
        self.cuts, self.index, self.values = {}, {}, {}
        for n, j in enumerate(used):
            _progress("feature", n + 1, len(used))
            if kinds[j] == "categorical":
                self.values[j] = statistics.features[names[j]].stats.values()
                self.index[j] = {v: i for i, v in enumerate(self.values[j])}
            else:
                self.cuts[j] = self._cut_points(rows, j)
        _progress("feature")
        self.cardinality = [max(1, len(self.values[j])) if j in self.values else
                            len(self.cuts[j]) + 1 for j in used] + [len(self.class_values)]
        self.modes = self._modes(rows)
        prepared = {}                     # values as node indices -> [weight, rows]
        for label, counted in rows.items():
            c = self.class_values.index(label)
            for row, (weight, n) in counted.items():
                key = tuple(self._indices(row)) + (c,)
                cell = prepared.get(key)
                if cell is None:
                    prepared[key] = [weight, n]
                else:
                    cell[0] += weight
                    cell[1] += n
        self.prepared = prepared
        self.fast = None                  # the _NetworkFast, made on first use
        from fractions import Fraction
        unit = _common_denominator(weight for weight, _ in prepared.values())
        scored = [(values, weight * unit if type(weight) is int else
                   int(Fraction(weight) * unit))
                  for values, (weight, _) in prepared.items() if weight]
        score = _NetworkScores(scored, self.cardinality, unit)
        nodes = len(used) + 1
        self.root = root = nodes - 1
        if max_parents is None:
            self.parents = _tan_structure(score, nodes, root)
        else:
            self.parents = _hill_climbing_structure(score, nodes, root, max_parents)
        self.cpts = [self._table(node, prepared) for node in range(nodes)]

    def _cut_points(self, rows, j):
        """Feature j's MDL cut points, as Weka's Discretize finds them, from the class
        weights per value (values of weight 0 left out)."""
        weights = {}
        for label, counted in rows.items():
            c = self.class_values.index(label)
            for row, (weight, _) in counted.items():
                value = row[j] if j < len(row) else None
                if value is not None and weight:
                    weights.setdefault(value, [0] * len(self.class_values))[c] += weight
        values = sorted(weights)
        if not values:
            return []
        return _mdl_cut_points(values, [list(column) for column in
                                        zip(*[weights[v] for v in values])])

    def _modes(self, rows):
        """Each used feature's most frequent node value (weighted, after the bins; the
        first of equal ones; 0 when every value is missing)."""
        totals = [[0] * size for size in self.cardinality[:-1]]
        for counted in rows.values():
            for row, (weight, _) in counted.items():
                for n, j in enumerate(self.used):
                    value = row[j] if j < len(row) else None
                    if value is not None:
                        totals[n][self._index(j, value)] += weight
        return [column.index(max(column)) if column else 0 for column in totals]

    def _index(self, j, value):
        """The node value of feature j's value: its bin, or its place among the known
        values (None for one never seen in training)."""
        cuts = self.cuts.get(j)
        if cuts is not None:
            return bisect_left(cuts, value)
        return self.index[j].get(value)

    def _indices(self, row):
        """The node values of a row's used features, a missing one filled in."""
        out = []
        for n, j in enumerate(self.used):
            value = row[j] if j < len(row) else None
            index = None if value is None else self._index(j, value)
            out.append(self.modes[n] if index is None else index)
        return out

    def _table(self, node, prepared):
        """log P(value | configuration) of a node, flat: at configuration * |V| +
        value (mixed radix, the first parent most significant), from the weighted
        counts.  A list of every cell when the table has at most _DENSE_TABLE cells,
        else a _SparseCells holding the occurring configurations' cells (the others
        give what an empty configuration gives): the same numbers either way."""
        from fractions import Fraction
        alpha = Fraction(self.alpha)
        size = self.cardinality[node]
        parents = self.parents[node]
        configurations = 1
        for p in parents:
            configurations *= self.cardinality[p]
        counts = {}                       # configuration -> {value: weight}
        for values, (weight, _) in prepared.items():
            j = 0
            for p in parents:
                j = j * self.cardinality[p] + values[p]
            config = counts.get(j)
            if config is None:
                config = counts[j] = {}
            v = values[node]
            config[v] = config.get(v, 0) + weight

        def entry(n, total):
            return _log(float(alpha + n) / total) if total else -log(size)
        empty = [entry(0, float(alpha * size))] * size
        if configurations * size <= _DENSE_TABLE:
            table = []
            for j in range(configurations):
                config = counts.get(j)
                if config is None:
                    table.extend(empty)
                    continue
                total = float(alpha * size + sum(config.values()))
                table.extend([entry(config.get(v, 0), total) for v in range(size)])
            return table
        table = _SparseCells(size, empty)
        for j, config in counts.items():
            total = float(alpha * size + sum(config.values()))
            table.defaults[j] = entry(0, total)
            for v, n in config.items():
                if n:
                    table[j * size + v] = entry(n, total)
        return table

    positional = _NaiveModel.positional

    def prepared_row(self, row):
        """(node values without the class, statuses) of a row; _RowError for a value of
        the wrong kind."""
        out, statuses = [], []
        for n, j in enumerate(self.used):
            value = row[j]
            if value is None or _is_missing(value):
                out.append(self.modes[n])
                statuses.append("missing")
                continue
            try:
                if j in self.cuts:
                    number = _number(value)
                    if number is None or not isfinite(number):
                        raise _BadValue(value, "a real number" if number is None
                                        else "a finite number")
                    index = bisect_left(self.cuts[j], number)
                else:
                    index = self.index[j].get(value)
            except _BadValue as error:
                raise _RowError(", feature %r is %s; expected %s"
                                % (self.names[j], _shown(error.value), error.expected)) \
                    from None
            except TypeError:
                raise _RowError(", feature %r is %s; expected a hashable value"
                                % (self.names[j], _describe(value))) from None
            if index is None:
                out.append(self.modes[n])
                statuses.append("unseen")
            else:
                out.append(index)
                statuses.append("used")
        return out, statuses

    def node_terms(self, values):
        """Per class (classes_ order), each node's log P(value | parents)."""
        terms = []
        values = values + [0]
        root = self.root
        for c in self.class_index:
            values[root] = c
            mine = []
            for node, parents in enumerate(self.parents):
                j = 0
                for p in parents:
                    j = j * self.cardinality[p] + values[p]
                mine.append(self.cpts[node][j * self.cardinality[node] + values[node]])
            terms.append(mine)
        return terms

    def joint(self, row):
        """Per class, the sum of every node's log P(value | parents)."""
        values, _ = self.prepared_row(row)
        joint = [sum(terms) for terms in self.node_terms(values)]
        total = sum(joint)
        if total - total == 0:
            return joint
        return _joint_with_infinities([list(column) for column in
                                       zip(*self.node_terms(values))])

    def joints(self, rows):
        """Joint log-likelihoods of many rows: by the fast form where a row allows it
        (the same numbers as joint: the same terms added in the same order)."""
        fast = self.fast
        if fast is None:
            fast = self.fast = _NetworkFast(self)
        joint = self.joint
        return [fast.joint(row) or joint(row) for row in rows]

    def parent_names(self, node):
        """A node's parents as feature names, None for the class."""
        return [None if p == self.root else self.names[self.used[p]]
                for p in self.parents[node]]

    def explain(self, row, extra=()):
        """The joint log-likelihood split into the class node's term (the prior) and
        each feature node's term; a missing or unseen value contributes the term of
        the value it counts as (its feature's most frequent one, in "counted_as")."""
        classes = self.classes
        values, statuses = self.prepared_row(row)
        terms = self.node_terms(values)
        node_of = {j: n for n, j in enumerate(self.used)}
        features = []
        for j, (name, value) in enumerate(zip(self.names, row)):
            n = node_of.get(j)
            if n is None:
                features.append({"feature": name, "value": value, "status": "ignored",
                                 "log_likelihood": dict.fromkeys(classes, 0.0)})
                continue
            entry = {"feature": name, "value": value, "status": statuses[n],
                     "log_likelihood": dict(zip(classes, [t[n] for t in terms])),
                     "parents": self.parent_names(n)}
            if statuses[n] != "used":
                entry["counted_as"] = self.node_value(n, values[n])
            elif j in self.cuts:
                entry["interval"] = _BinKeys(self.cuts[j], bisect_left).name(values[n])
            features.append(entry)
        for name, value in extra:
            features.append({"feature": name, "value": value, "status": "ignored",
                             "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, [t[self.root] for t in terms])),
                "features": features, "class_parents": self.parent_names(self.root)}

    def node_value(self, n, index):
        """Node n's value index as a value: a known value, or a bin's interval."""
        j = self.used[n]
        if j in self.cuts:
            return _BinKeys(self.cuts[j], bisect_left).name(index)
        return self.values[j][index] if self.values[j] else None

    def informative(self):
        """Values and bins ranked as naive Bayes ranks them (the log of their largest
        likelihood ratio between two classes, from the counts), the network's arcs
        aside."""
        ranked = []
        for n, j in enumerate(self.used):
            table = self._naive(n)
            for index, vector in enumerate(table):
                ranked.append((self.names[j], self.node_value(n, index),
                               _log_ratio_range(vector),
                               self.classes[vector.index(max(vector))]))
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def _naive(self, n):
        """Per value of node n, per class log P(value | c) of its own counts."""
        size = self.cardinality[n]
        counts = [[0] * size for _ in self.classes]
        position = {c: k for k, c in enumerate(self.class_index)}
        for values, (weight, _) in self.prepared.items():
            counts[position[values[self.root]]][values[n]] += weight
        columns = [_log_smoothed(column, sum(column), self.alpha, size) for column in counts]
        return [tuple(column[v] for column in columns) for v in range(size)]

    def tables(self):
        """Per feature node its parents and table {parents' values: {value: P}}, the
        class node's under the key None; ignored features {"kind": "ignore"}."""
        out = {}
        node_of = {j: n for n, j in enumerate(self.used)}
        for j, name in enumerate(self.names):
            n = node_of.get(j)
            if n is None:
                out[name] = {"kind": "ignore"}
                continue
            table = {"kind": "discretized" if j in self.cuts else "categorical",
                     "parents": self.parent_names(n), "probabilities": self._cpt(n)}
            if j in self.cuts:
                table["cuts"] = list(self.cuts[j])
            out[name] = table
        out[None] = {"kind": "class", "parents": self.parent_names(self.root),
                     "probabilities": self._cpt(self.root)}
        return out

    def naive_tables(self):
        """Each feature's naive-Bayes view, P(x_j | c) of its own counts, as naive
        Bayes tables it (the pictures draw it)."""
        out = {}
        node_of = {j: n for n, j in enumerate(self.used)}
        for j, name in enumerate(self.names):
            n = node_of.get(j)
            if n is None:
                out[name] = {"kind": "ignore"}
                continue
            vectors = [[exp(t) for t in vector] for vector in self._naive(n)]
            if j in self.cuts:
                out[name] = {"kind": "discretized", "cuts": list(self.cuts[j]),
                             "probabilities": {label: [p[c] for p in vectors]
                                               for c, label in enumerate(self.classes)}}
            else:
                out[name] = {"kind": "categorical", "probabilities": {
                    label: {self.node_value(n, v): p[c] for v, p in enumerate(vectors)}
                    for c, label in enumerate(self.classes)}}
        return out

    def _cpt(self, node):
        """{parents' values (a tuple: labels for the class, values or bin intervals
        for features): {value: P}} of a node."""
        def value_of(n, index):
            return self.class_values[index] if n == self.root else self.node_value(n, index)
        parents = self.parents[node]
        size = self.cardinality[node]
        table = self.cpts[node]
        if type(table) is _SparseCells:
            rows = table.rows()
        else:
            rows = enumerate(table[j:j + size] for j in range(0, len(table), size))
        cpt = {}
        for j, row in rows:
            key, rest = [], j
            for p in reversed(parents):
                rest, index = divmod(rest, self.cardinality[p])
                key.append(value_of(p, index))
            cpt[tuple(reversed(key))] = {value_of(node, v): exp(t) for v, t in
                                         enumerate(row)}
        return cpt

    def summary_items(self):
        """{"parents": {feature: [parents]}, None for the class; the class node's
        parents under the key None}."""
        parents = {self.names[j]: self.parent_names(n) for n, j in enumerate(self.used)}
        parents[None] = self.parent_names(self.root)
        return {"parents": parents}


# -- Weighted naive Bayes: one weight per feature, learned --------------------------
#
# P(c | x) ~ P(c) prod_j P(x_j | c)^(w_j): naive Bayes' own tables (MDL bins for
# numbers), each feature's evidence weighed by w_j >= 0, the weights maximising the
# training rows' conditional log-likelihood less (lambda / 2) sum_j w_j^2 (Zaidi,
# Cerquides, Carman and Webb 2013, "Alleviating naive Bayes attribute independence
# assumption by attribute weighting": WANBIA).  Features that repeat one another
# (a charge and the minutes it is computed from) share the evidence they would
# otherwise count twice, and a feature that does not help fades towards 0 (Khiops'
# selective naive Bayes weighs and drops features for the same reason).  The
# objective is convex in w (a softmax of functions linear in w), so projected
# Newton steps find its one minimum.

_WEIGHT_ROWS = 5000        # rows the weights are learned on at most (a stratified sample)
_WEIGHT_PENALTY = 1.0      # lambda: a standard normal prior on each weight
_WEIGHT_MAX = 100.0        # the most a feature's evidence counts (separable data: w -> inf)
_WEIGHT_STEPS = 20         # Newton steps at most (a handful suffice: see _attribute_weights)
_WEIGHT_FULL_HESSIAN = 150  # features beyond which Newton steps use the Hessian's diagonal
_HESSIAN_WORK = 10 ** 7    # fewer rows (not below 500) when features^2 x classes x rows is more


def _attribute_weights(columns, prior, truth, row_weights, penalty=_WEIGHT_PENALTY,
                       steps=_WEIGHT_STEPS):
    """The weights 0 <= w <= _WEIGHT_MAX minimising -sum_i v_i log P(y_i | x_i) +
    penalty/2 |w|^2,
    P(c | x_i) ~ exp(prior_c + sum_j w_j columns[j][c][i]): ``columns`` per feature and
    class the rows' log-likelihoods, ``truth`` each row's class, ``row_weights`` v_i.

    Projected Newton from w = 1 (naive Bayes): on the weights that are free (above 0,
    or at 0 with a gradient pulling them up) a Newton step, cut back until the loss
    falls as Armijo asks; the loss is convex with a Hessian of at least penalty * I,
    so a handful of steps find its minimum (beyond _WEIGHT_FULL_HESSIAN features the
    steps use the Hessian's diagonal, and _WEIGHT_STEPS of them come close).  By
    builtins over the rows; deterministic (the same inputs give the same weights, bit
    for bit)."""
    width, k, n = len(columns), len(prior), len(truth)
    if not width or k < 2 or not n:
        return [1.0] * width
    # the rows' weights over the largest (1 for unit weights), the penalty with them:
    # the same minimum, without overflow for weights such as 1e30
    scale = max(row_weights)
    if scale != 1.0:
        row_weights = [v / scale for v in row_weights]
        penalty = penalty / scale

    def posterior(w):
        """(loss, P(c | x_i) per class) at w."""
        scores = []
        for c in range(k):
            score = [prior[c]] * n
            for j in range(width):
                if w[j]:
                    score = list(map(add, score, map(mul, columns[j][c], repeat(w[j]))))
            scores.append(score)
        top = list(map(max, *scores))
        exps = [list(map(exp, map(sub, score, top))) for score in scores]
        totals = reduce(lambda a, b: list(map(add, a, b)), exps)
        true = list(map(getitem, zip(*scores), truth))
        log_totals = map(add, map(log, totals), top)
        loss = fsum(map(mul, row_weights, map(sub, log_totals, true)))
        return (loss + penalty / 2 * fsum(x * x for x in w),
                [list(map(truediv, column, totals)) for column in exps])

    def derivatives(w, probabilities):
        """The gradient and the Hessian of the loss at w."""
        weighted = [list(map(mul, row_weights, column)) for column in probabilities]
        means = [reduce(lambda a, b: list(map(add, a, b)),
                        [list(map(mul, columns[j][c], probabilities[c])) for c in range(k)])
                 for j in range(width)]
        true = [list(map(getitem, zip(*columns[j]), truth)) for j in range(width)]
        gradient = [fsum(map(mul, row_weights, map(sub, means[j], true[j])))
                    + penalty * w[j] for j in range(width)]
        # each feature's classes end to end in one list, one product per pair, and
        # only the (row, class) cells whose v_i P(c | x_i) is not negligible (the
        # Hessian only steers the steps: the loss and the gradient are exact)
        cells = list(chain.from_iterable(weighted))
        floor = 1e-12 * max(cells)
        kept = [x > floor for x in cells]
        cells = list(compress(cells, kept))
        flat = [list(compress(chain.from_iterable(columns[j]), kept)) for j in range(width)]
        products = [list(map(mul, cells, flat[j])) for j in range(width)]
        spread = [list(map(mul, row_weights, means[j])) for j in range(width)]
        hessian = [[0.0] * width for _ in range(width)]
        for j in range(width):
            for m in (range(j + 1) if full else (j,)):
                value = sum(map(mul, products[j], flat[m])) - sum(map(mul, spread[j], means[m]))
                hessian[j][m] = hessian[m][j] = value + (penalty if j == m else 0.0)
        return gradient, hessian

    full = width <= _WEIGHT_FULL_HESSIAN        # else its diagonal: steps stay cheap

    w = [1.0] * width
    loss, probabilities = posterior(w)
    for _ in range(steps):
        gradient, hessian = derivatives(w, probabilities)
        free = [j for j in range(width) if (w[j] > 0 or gradient[j] < 0) and (
            w[j] < _WEIGHT_MAX or gradient[j] > 0)]
        if not free:
            break
        solved = _solve_positive([[hessian[j][m] for m in free] for j in free],
                                 [-gradient[j] for j in free]) if full else \
            [-gradient[j] / hessian[j][j] for j in free]
        if not all(map(isfinite, solved)):
            break
        direction = [0.0] * width
        for j, d in zip(free, solved):
            direction[j] = d
        t = 1.0
        for _ in range(30):                 # cut back until Armijo's decrease
            trial = [min(_WEIGHT_MAX, max(0.0, x + t * d)) for x, d in zip(w, direction)]
            trial_loss, trial_probabilities = posterior(trial)
            if trial_loss <= loss + 1e-4 * fsum(map(mul, gradient, map(sub, trial, w))):
                break
            t /= 2.0
        else:
            break
        done = loss - trial_loss <= 1e-6 * (1.0 / scale + abs(loss))
        w, loss, probabilities = trial, trial_loss, trial_probabilities
        if done:
            break
    return w


def _solve_positive(matrix, vector):
    """x with matrix x = vector, the matrix symmetric positive definite (Cholesky)."""
    size = len(vector)
    lower = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1):
            value = matrix[i][j] - sum(map(mul, lower[i][:j], lower[j][:j]))
            if i == j:
                lower[i][i] = sqrt(max(value, 1e-300))
            else:
                lower[i][j] = value / lower[j][j]
    forward = []
    for i in range(size):
        forward.append((vector[i] - sum(map(mul, lower[i][:i], forward))) / lower[i][i])
    solution = [0.0] * size
    for i in reversed(range(size)):
        solution[i] = (forward[i] - sum(lower[j][i] * solution[j]
                                        for j in range(i + 1, size))) / lower[i][i]
    return solution


class _WeightedNaiveModel:
    """Naive Bayes on MDL bins with one learned weight per feature (see the comment
    above): the tables of _NaiveModel, P(c | x) ~ P(c) prod_j P(x_j | c)^(w_j), the
    weights learned when the model is compiled from the distinct rows a network's
    statistics keep (in a canonical order; on a stratified sample when there are
    more than _WEIGHT_ROWS, or than _HESSIAN_WORK / (features^2 x classes) but at
    least 500, for the Hessian's sake), so that they are a function of the statistics: the same
    however the rows arrived, and learned again after partial_fit or merge.  An
    AutoBayes member ("weighted")."""

    def __init__(self, rows, params):
        self.base = base = _NaiveStatistics.compile(rows, params)
        self.classes, self.names, self.width = base.classes, base.names, base.width
        self.zeros = base.zeros
        self.positional = base.positional
        classes = self.classes
        training = [(values, classes.index(label), float(weight))
                    for label, counted in rows.row_counts.rows.items()
                    if label in classes
                    for values, (weight, _) in counted.items() if weight]
        training.sort(key=lambda item: (item[1], _canonical_row(item[0])))
        used = [j for j, scorer in enumerate(base.scorers)
                if not isinstance(scorer, _NoEvidence)]
        size = max(500, min(_WEIGHT_ROWS, _HESSIAN_WORK // max(1, len(used) ** 2
                                                               * len(classes))))
        if len(training) > size:
            kept = _stratified_sample([item[1] for item in training], size, 0)
            training = [training[n] for n in kept]
        columns = []
        for j in used:
            scorer = base.scorers[j]
            vectors = [scorer[values[j] if j < len(values) else None]
                       for values, _, _ in training]
            columns.append([list(column) for column in zip(*vectors)] if vectors else
                           [[] for _ in classes])
        finite = all(isfinite(x) for x in base.log_prior) and all(
            isfinite(sum(column)) for per_class in columns for column in per_class)
        learned = _attribute_weights(columns, base.log_prior,
                                     [c for _, c, _ in training],
                                     [v for _, _, v in training]) if finite else \
            [1.0] * len(used)
        self.weights = [1.0] * self.width
        for j, w in zip(used, learned):
            self.weights[j] = w

    def joint(self, row):
        """Per class, log P(c) + sum_j w_j log P(x_j | c)."""
        vectors = [self.base.log_prior]
        for name, scorer, value, w in zip(self.names, self.base.scorers, row, self.weights):
            try:
                vector = scorer[value]
            except _BadValue as error:
                raise _RowError(", feature %r is %s; expected %s"
                                % (name, _shown(error.value), error.expected)) from None
            except TypeError:
                raise _RowError(", feature %r is %s; expected a hashable value"
                                % (name, _describe(value))) from None
            if w != 1.0:
                vector = [x * w if w else 0.0 for x in vector]
            vectors.append(vector)
        joint = list(map(fsum, zip(*vectors)))
        total = sum(joint)
        if total - total == 0:
            return joint
        return _joint_with_infinities(vectors)

    def joints(self, rows):
        """Joint log-likelihoods of many rows."""
        return list(map(self.joint, rows))

    def explain(self, row, extra=()):
        """Naive Bayes' parts, each feature's log-likelihood times its weight (its
        "weight" given beside)."""
        parts = self.base.explain(row, extra)
        for entry, w in zip(parts["features"], self.weights):
            entry["weight"] = w
            entry["log_likelihood"] = {label: x * w if w else 0.0
                                       for label, x in entry["log_likelihood"].items()}
        return parts

    def informative(self):
        """Naive Bayes' ranking, each score times its feature's weight."""
        weight = dict(zip(self.names, self.weights))
        ranked = [(name, value, score * weight.get(name, 1.0), label)
                  for name, value, score, label in self.base.informative()]
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def tables(self):
        """Naive Bayes' tables, each with its feature's "weight"."""
        tables = self.base.tables()
        for name, w in zip(self.names, self.weights):
            tables[name] = dict(tables[name], weight=w)
        return tables

    def naive_tables(self):
        """The unweighted tables (the pictures draw them)."""
        return self.base.tables()

    def summary_items(self):
        """{"feature weights": {feature: w}} of the features with evidence (not those
        ignored)."""
        return {"feature weights": {name: w for name, w, scorer in zip(
            self.names, self.weights, self.base.scorers) if not isinstance(scorer, _NoEvidence)}}


# -- AutoBayes: the family's models mixed, weighted by cross-validation ---------------
#
# A linear pool: P(c | x) = sum over members m of w_m P_m(c | x), the members being
# models of the families above (by default WAODE, AODE with m-estimates, both on
# imputed values, and a Bayesian network of at most 2 parents), each fitted on all
# the rows, and the weights chosen by the training data only: each member's
# out-of-fold probabilities of the true class in an internal stratified
# cross-validation, then the weights that maximise their mixture's log-likelihood
# (EM, with a Dirichlet prior of a few pseudo-rows per member, so that small data
# sets keep nearly equal weights).  A linear pool of calibrated members is calibrated
# itself and cannot be worse, in log loss, than the best fixed mixture of them on the
# rows it was chosen on; it beat every single member on the 15 Weka data sets
# (README, "Accuracy").

class _MixtureStatistics:
    """The statistics of AutoBayes: one statistics object per family of its members
    (two AODE members share one set of AODE counts), all counting the same rows, and
    the mixture's weights and their evaluation, chosen when it was fitted."""

    file_fields = ("members", "mixture")
    __slots__ = ("parts", "weights", "evaluation", "temperature")

    def __init__(self, families=()):
        self.parts = {family: _MODELS[family]._statistics_class() for family in families}
        self.weights = {}                 # member name -> weight (empty: equal weights)
        self.evaluation = {}              # member name or "mixture" -> [log loss, accuracy, rows]
        self.temperature = 1.0            # the mixture's probabilities to the power 1 / T

    @property
    def primary(self):
        """The first family's statistics: classes, features and layout are the same in
        every part."""
        return next(iter(self.parts.values()))

    @property
    def class_count(self):
        """The weighted number of rows per class (the parts agree)."""
        return self.primary.class_count

    @class_count.setter
    def class_count(self, counts):
        for statistics in self.parts.values():
            statistics.class_count = dict(counts)

    @property
    def layout(self):
        """The rows' shape ("sequence" or "mapping")."""
        return self.primary.layout

    @layout.setter
    def layout(self, layout):
        for statistics in self.parts.values():
            statistics.layout = layout

    @property
    def features(self):
        """{name: feature} of the first part (every part has the same features)."""
        return self.primary.features

    def classes(self):
        """The labels, as the parts order them."""
        return self.primary.classes()

    def names(self):
        """The feature names."""
        return self.primary.names()

    def kinds(self):
        """{name: kind}."""
        return self.primary.kinds()

    def summary(self, params):
        """The features' one-line descriptions."""
        return self.primary.summary(params)

    def class_statistics(self, params):
        """What each feature says of each class (the first part's)."""
        return self.primary.class_statistics(params)

    def count(self, rows, labels, weights, start, fitting):
        """Count a chunk of rows into every part."""
        for statistics in self.parts.values():
            result = statistics.count(rows, labels, weights, start, fitting)
        return result

    def declare_classes(self, classes):
        """Every part knows every declared class (and a network its order)."""
        for statistics in self.parts.values():
            for label in classes:
                statistics.class_count.setdefault(label, 0)
            if hasattr(statistics, "declare_classes"):
                statistics.declare_classes(classes)

    def _twin(self, parts):
        twin = type(self)()
        twin.parts = parts
        twin.weights = dict(self.weights)
        twin.evaluation = {name: list(v) for name, v in self.evaluation.items()}
        twin.temperature = self.temperature
        return twin

    def skeleton(self):
        """Empty parts with the same features, and the same weights."""
        return self._twin({family: s.skeleton() for family, s in self.parts.items()})

    def copy(self):
        """An equal, independent copy."""
        return self._twin({family: s.copy() for family, s in self.parts.items()})

    def conflicts(self, other):
        """What keeps two AutoBayes models apart: their parts' conflicts."""
        if set(self.parts) != set(other.parts):
            return ["their members come from different families (%s and %s)"
                    % (", ".join(self.parts), ", ".join(other.parts))]
        found = []
        for family, statistics in self.parts.items():
            found.extend(statistics.conflicts(other.parts[family]))
        return list(dict.fromkeys(found))

    def absorb(self, other):
        """Add other's counts to every part.  The weights were chosen from each one's
        rows: the merged ones are the two weighted by the models' numbers of rows
        (fit again to choose them from all the rows)."""
        mine = sum(self.class_count.values())
        theirs = sum(other.class_count.values())
        for family, statistics in self.parts.items():
            statistics.absorb(other.parts[family])
        if self.weights != other.weights and (self.weights or other.weights):
            names = list(dict.fromkeys(list(self.weights) + list(other.weights)))
            total = mine + theirs
            self.weights = {name: float((self.weights.get(name, 0) * mine +
                                         other.weights.get(name, 0) * theirs) / total)
                            if total else 0.0 for name in names}
            self.evaluation = {}
        if self.temperature != other.temperature:     # 1 / T averaged likewise
            total = mine + theirs
            self.temperature = float(total / (mine / self.temperature +
                                              theirs / other.temperature)) if total else 1.0
            self.evaluation = {}
        return self

    def deficit(self, other):
        """What other holds beyond every part's statistics (None: nothing)."""
        for family, statistics in self.parts.items():
            problem = statistics.deficit(other.parts[family])
            if problem is not None:
                return problem
        return None

    def subtract(self, other, fitting):
        """Remove other's rows from every part (forget; the weights stay)."""
        for family, statistics in self.parts.items():
            statistics.subtract(other.parts[family], fitting)

    def compile(self, params):
        """The compiled mixture."""
        return _MixtureModel(self, params)

    def to_file(self, classes):
        """The model file's "members" (each family's fields) and "mixture" fields."""
        members = []
        for family, statistics in self.parts.items():
            item = {"family": family}
            item.update(statistics.to_file(classes))
            members.append(item)
        return {"members": members, "mixture": {
            "weights": [[name, w] for name, w in self.weights.items()],
            "evaluation": [[name] + list(v) for name, v in self.evaluation.items()],
            "temperature": self.temperature}}

    @classmethod
    def from_file(cls, data, classes, class_count):
        """AutoBayes' statistics from a model file, validated."""
        statistics = cls()
        members = _field(data, "members")
        _expect(type(members) in (list, _LazyItems), "members", members, "a list")
        for n, item in enumerate(members):
            where = "members[%d]" % n
            _expect(type(item) is dict, where, item, "a JSON object")
            family = item.get("family")
            _expect(family in _MODELS and family not in statistics.parts and
                    family in ("NaiveBayes", "AODE", "TAN", "BayesNet"), where + ".family",
                    family, "a family name, once")
            part_class = _MODELS[family]._statistics_class
            extra = set(item) - {"family"} - set(part_class.file_fields)
            if extra:
                raise _Invalid("%s has field %r, which a %s part does not have"
                               % (where, sorted(extra)[0], family))
            try:
                statistics.parts[family] = part_class.from_file(item, classes, class_count)
            except _Invalid as error:
                raise _Invalid("%s: %s" % (where, error)) from None
        if not statistics.parts:
            raise _Invalid("members is empty; expected one entry per family of the members")
        mixture = _field(data, "mixture")
        _expect(type(mixture) is dict and set(mixture) - {"temperature"} ==
                {"weights", "evaluation"}, "mixture", mixture,
                '{"weights": [...], "evaluation": [...], "temperature": T}')
        temperature = mixture.get("temperature", 1.0)
        _expect(type(temperature) in (int, float) and type(temperature) is not bool and
                isfinite(temperature) and temperature > 0, "mixture.temperature",
                temperature, "a finite number > 0")
        statistics.temperature = float(temperature)
        for pair in mixture["weights"]:
            _expect(type(pair) is list and len(pair) == 2 and type(pair[0]) is str and
                    type(pair[1]) in (int, float) and 0 <= pair[1] <= 1, "mixture.weights",
                    pair, "[member name, weight between 0 and 1]")
            statistics.weights[pair[0]] = float(pair[1])
        for item in mixture["evaluation"]:
            _expect(type(item) is list and len(item) == 4 and type(item[0]) is str and
                    all(type(v) in (int, float) for v in item[1:]), "mixture.evaluation",
                    item, "[member name, log loss, accuracy, rows]")
            statistics.evaluation[item[0]] = list(item[1:])
        return statistics

    def extra_summary(self):
        """The weights and their evaluation."""
        return {}

    def memory_estimate(self):
        """(bytes, what) of every part's growing counts together."""
        parts = [statistics.memory_estimate() for statistics in self.parts.values()
                 if hasattr(statistics, "memory_estimate")]
        return sum(size for size, _ in parts), " and ".join(what for _, what in parts)


class _MixtureModel:
    """The compiled AutoBayes: every member with a weight compiled, and
    log P(c | x) = log sum_m w_m P_m(c | x) as the joint log-likelihood (the mixture's
    posterior: the classes' scores differ from a joint by one constant per row)."""

    def __init__(self, statistics, params):
        self.classes = statistics.classes()
        self.names = statistics.names()
        self.width = len(self.names)
        self.k = len(self.classes)
        members = params["members"]
        weights = _mixture_weights(members, statistics.weights, params["weights"])
        shared = {}
        self.members = []
        for name in members:
            if weights[name] < 1e-3:      # a member that the mixture does not need
                continue
            self.members.append((name, weights[name],
                                 _member_model(statistics, name, params, shared)))
        total = sum(w for _, w, _ in self.members)
        self.members = [(name, w / total, compiled) for name, w, compiled in self.members]
        self.evaluation = statistics.evaluation
        self.temperature = statistics.temperature
        self.positional = self.members[0][2].positional

    def _mixed(self, per_member):
        """log sum_m w_m P_m(c | x) of one row, from each member's joint, over T."""
        mixed = [0.0] * self.k
        for (_, weight, _), joint in zip(self.members, per_member):
            for c, p in enumerate(_posterior(joint)):
                mixed[c] += weight * p
        return [_log(p) / self.temperature for p in mixed]

    def joint(self, row):
        """The mixture's log posterior of one row."""
        return self._mixed([compiled.joint(row) for _, _, compiled in self.members])

    def joints(self, rows):
        """The mixture's log posteriors of many rows."""
        per_member = [compiled.joints(rows) for _, _, compiled in self.members]
        columns = [_posteriors(joints) for joints in per_member]
        out = []
        for n in range(len(rows)):
            mixed = [0.0] * self.k
            for (_, weight, _), probabilities in zip(self.members, columns):
                for c, p in enumerate(probabilities[n]):
                    mixed[c] += weight * p
            out.append([_log(p) / self.temperature for p in mixed])
        return out

    def leader(self):
        """The member of the largest weight."""
        return max(self.members, key=lambda member: member[1])[2]

    def explain(self, row, extra=()):
        """The leading member's explanation, its prior made the rest of the mixture's
        log posterior (so that prior + features = joint), with every member's weight
        and probabilities under "members"."""
        parts = self.leader().explain(row, extra)
        joint = self.joint(row)
        features = parts["features"]
        parts["prior"] = {label: joint[c] - sum(f["log_likelihood"][label]
                                                for f in features)
                          if joint[c] > -INF else -INF
                          for c, label in enumerate(self.classes)}
        parts["members"] = [{"member": name, "weight": weight, "probability": dict(zip(
            self.classes, _posterior(compiled.joint(row))))}
            for name, weight, compiled in self.members]
        return parts

    def informative(self):
        """The leading member's ranking."""
        return self.leader().informative()

    def tables(self):
        """The leading member's tables."""
        return self.leader().tables()

    def naive_tables(self):
        """The leading member's naive-Bayes view of each feature (the pictures')."""
        leader = self.leader()
        naive = getattr(leader, "naive_tables", None)
        return naive() if naive is not None else leader.tables()

    def summary_items(self):
        """{"members": [[name, weight, out-of-fold log loss, accuracy]], "choice": a
        sentence}, and the leading member's structure when it has one."""
        rows = [[name, weight] + list(self.evaluation.get(name, [None, None])[:2])
                for name, weight, _ in self.members]
        items = {"members": rows, "choice": _mixture_sentence(rows, self.evaluation,
                                                              self.temperature),
                 "temperature": self.temperature}
        leader = self.leader()
        if hasattr(leader, "summary_items"):
            items.update(leader.summary_items())
        return items


def _mixture_sentence(rows, evaluation, temperature=1.0):
    """'mixture 0.41 waode, 0.33 bayesnet, ... chosen by 5-fold cross-validation on
    300 rows: log loss 0.31, accuracy 0.88 (best member waode: 0.33, 0.87)'."""
    shares = ", ".join("%.2f %s" % (weight, name) for name, weight, _, _ in
                       sorted(rows, key=lambda row: -row[1]))
    mixture = evaluation.get("mixture")
    if not mixture:
        return "mixture %s (weights not chosen from the data)" % shares
    scored = [(v[0], name) for name, v in evaluation.items() if name != "mixture"]
    best = min(scored)[1] if scored else None
    text = "mixture %s, weights chosen by cross-validation on %s rows: log loss %.3g, " \
        "accuracy %.3g" % (shares, format(int(mixture[2]), ","), mixture[0], mixture[1])
    if temperature != 1.0:
        text += ", probabilities tempered by T = %.3g" % temperature
    if best is not None:
        text += " (best single member %s: %.3g, %.3g)" % (best, evaluation[best][0],
                                                          evaluation[best][1])
    return text


def _mixture_weights(members, chosen, setting):
    """{member: weight} as the weights parameter says: "cv" the ones chosen at fit
    (equal ones until then), "uniform" equal ones, or a {member: weight} dict."""
    if isinstance(setting, Mapping):
        total = sum(float(setting.get(name, 0)) for name in members)
        return {name: float(setting.get(name, 0)) / total for name in members}
    if setting == "cv" and chosen and sum(chosen.get(name, 0) for name in members) > 0:
        total = sum(chosen.get(name, 0) for name in members)
        return {name: chosen.get(name, 0) / total for name in members}
    return {name: 1.0 / len(members) for name in members}


def _temperature(probabilities, truth, row_weights, prior=2.0):
    """The T, between 1/4 and 4, whose tempered probabilities p_c^(1/T) / sum_d
    p_d^(1/T) give the out-of-fold rows the least log loss (weighted), plus ``prior``
    pseudo-rows' worth of (log T)^2 pulling it towards 1: naive Bayes' products of
    correlated factors are over-confident (T > 1 softens them); the order of the
    classes in each row, hence every prediction, is unchanged.  Golden-section search
    on log T: deterministic."""
    rows = [([_log(p) for p in row], t, v) for row, t, v in
            zip(probabilities, truth, row_weights) if row[t] > 0]
    if not rows:
        return 1.0

    def loss(log_t):
        inverse = exp(-log_t)
        total = prior * log_t * log_t
        for logs, t, v in rows:
            scaled = [x * inverse for x in logs]
            total -= v * (scaled[t] - _log_sum_exp(scaled))
        return total
    lo, hi = log(0.25), log(4.0)
    ratio = (sqrt(5.0) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    loss_a, loss_b = loss(a), loss(b)
    for _ in range(40):
        if loss_a <= loss_b:
            hi, b, loss_b = b, a, loss_a
            a = hi - ratio * (hi - lo)
            loss_a = loss(a)
        else:
            lo, a, loss_a = a, b, loss_b
            b = lo + ratio * (hi - lo)
            loss_b = loss(b)
    best = (lo + hi) / 2
    return round(exp(best), 6) if loss(best) < loss(0.0) else 1.0


def _em_weights(likelihoods, row_weights, prior, steps=100):
    """The linear pool's weights w maximising sum_i v_i log sum_m w_m L[m][i] + prior
    sum_m log w_m (the data's weights v, a Dirichlet prior of ``prior`` pseudo-rows per
    member), by EM from equal weights: deterministic, and a member that never helps
    fades towards 0."""
    count = len(likelihoods)
    weights = [1.0 / count] * count
    for _ in range(steps):
        totals = [prior] * count
        for i, v in enumerate(row_weights):
            mixed = sum(w * column[i] for w, column in zip(weights, likelihoods))
            if mixed > 0:
                for m in range(count):
                    totals[m] += v * weights[m] * likelihoods[m][i] / mixed
        total = sum(totals)
        weights = [t / total for t in totals]
    return weights


# ----------------------------------------------------------------------------------
# The classifiers
# ----------------------------------------------------------------------------------

class _Classes(list):
    """classes_: a list, with the shape, ndim and size that scikit-learn's tools
    (cross_val_predict, for one) read off a NumPy array of classes."""

    __slots__ = ()

    @property
    def shape(self):
        """(number of classes,)."""
        return (len(self),)

    @property
    def ndim(self):
        """1."""
        return 1

    @property
    def size(self):
        """The number of classes."""
        return len(self)


class _NotFittedError(NaiveBayesError, AttributeError):
    """A model used before fit.  An AttributeError too, so that hasattr(model,
    "classes_") is False before fit, as scikit-learn expects of fitted attributes."""


def _not_fitted(message, call):
    """The NaiveBayesError for a model used before fit: when scikit-learn is loaded,
    also its NotFittedError (that scikit-learn's tools catch), without importing it."""
    exceptions = sys.modules.get("sklearn.exceptions")
    base = getattr(exceptions, "NotFittedError", None)
    if base is None:
        return _NotFittedError(message, call=call)
    error_class = _NOT_FITTED_CLASSES.get(base)
    if error_class is None:
        error_class = _NOT_FITTED_CLASSES[base] = type(
            "NotFittedError", (NaiveBayesError, base), {"__module__": __name__})
    return error_class(message, call=call)


_NOT_FITTED_CLASSES = {}


class _ModelState:
    """What a classifier has learned (statistics, the label column's name), the
    compiled model built from it, and the lock that guards both.  One object, so
    that predicting (which may build the compiled model) changes no attribute of the
    classifier, as scikit-learn expects."""

    __slots__ = ("statistics", "target", "compiled", "lock", "numpy_labels")

    def __init__(self, statistics=None, target=None):
        import _thread                    # built in: no import cost
        self.statistics = statistics
        self.target = target
        self.compiled = None
        self.lock = _thread.allocate_lock()
        self.numpy_labels = False         # fitted on NumPy or pandas labels


def _numpy_input(X):
    """True when X is a NumPy array or a pandas object: scikit-learn's convention is
    then NumPy output, and NumPy is surely importable."""
    module = type(X).__module__ or ""
    return module.startswith("numpy") or module.startswith("pandas")


def _as_array(values, numpy_output):
    numpy = _loaded_numpy() if numpy_output else None
    return values if numpy is None else numpy.asarray(values)


_PREDICT_BLOCK = 4096            # rows predicted at a time
_SEQUENCES = frozenset((list, tuple))


def _check_columns(columns, names, call):
    """A DataFrame (or named array) given to a prediction must hold every column the
    model was fitted on: a missing one would silently count as missing values."""
    present = set(columns)
    lacking = [name for name in names if name not in present]
    if lacking:
        raise NaiveBayesError("%s: X has no column %s, which the model was fitted on; "
                              "expected the columns %s (pass None or NaN for a value that "
                              "is missing)" % (call, _shown(lacking[0] if len(lacking) == 1
                                                            else lacking),
                                               _shown(list(names), 200)),
                              call=call, argument="X")


def _warn_unknown_names(unknown, call):
    """One warning for dict rows whose keys the model never saw in training (a typo
    counts as a missing feature, silently, otherwise)."""
    import warnings
    more = " and %d more" % (len(unknown) - 10) if len(unknown) > 10 else ""
    warnings.warn("%s: X has keys the model never saw in training, ignored: %s%s"
                  % (call, _shown(unknown[:10], 200), more), UserWarning, stacklevel=4)


def _label_name(y, current):
    """The name of the label column: a pandas Series' name, else what it was."""
    name = getattr(y, "name", None) if hasattr(y, "to_numpy") else None
    return name if isinstance(name, str) else current


def _check_discrete_labels(class_count, call):
    """Refuse a target that looks continuous: more than 10 labels, all real numbers,
    some of them not whole (a satisfaction score, a price): a class per value is not
    what was meant."""
    labels = list(class_count)
    if len(labels) <= 10:
        return
    numbers = [_number(label) for label in labels if not isinstance(label, bool)]
    if len(numbers) == len(labels) and None not in numbers and \
            any(not float(n).is_integer() for n in numbers if isfinite(n)):
        raise NaiveBayesError(
            "%s: y looks continuous (%d distinct numbers such as %s); expected class "
            "labels: cut the numbers into classes first (or give them as strings to "
            "make each value a class)" % (call, len(labels), _shown(labels[:3])),
            call=call, argument="y")


def _check_classes_argument(classes, known, call):
    """partial_fit's classes= as an ordered set of labels, or None."""
    if classes is None:
        return None
    if isinstance(classes, (str, bytes, Mapping)):
        raise NaiveBayesError("%s: classes=%s; expected a list of labels"
                              % (call, _shown(classes)), call=call, argument="classes")
    try:
        labels = list(classes)
        declared = dict.fromkeys(labels)
    except TypeError:
        raise NaiveBayesError("%s: classes=%s; expected a list of hashable labels"
                              % (call, _shown(classes)), call=call,
                              argument="classes") from None
    if not declared or any(_is_missing(label) for label in declared):
        raise NaiveBayesError("%s: classes=%s; expected a non-empty list of labels"
                              % (call, _shown(classes)), call=call, argument="classes")
    if known is not None:
        missing = [label for label in known if label not in declared]
        if missing:
            raise NaiveBayesError("%s: classes= leaves out %s, which the model already "
                                  "knows" % (call, _shown(missing)), call=call,
                                  argument="classes")
    return declared


# Parameters two models may differ in and still merge (the merged model takes the
# first one's): the memory budget says nothing about the data.
_MERGE_FREE = ("max_memory",)


class _Classifier:
    """What NaiveBayes and AODE share: the scikit-learn estimator protocol, fitting by
    counting into the family's statistics, every prediction from the compiled model's
    joint log-likelihoods, explanations, merging and the model file.

    Thread safety: predictions may run in many threads at once.  fit, partial_fit,
    merge's inputs and set_params may run beside them: an update changes the model
    under a lock, and the compiled model that predictions use is built under the same
    lock from a consistent state, so a prediction that overlaps an update sees the
    model before or after it, and every prediction that starts after the update
    returns sees the new model.
    """

    _statistics_class = _NaiveStatistics  # the model family (see "Model families")
    _parameters = {}                      # name -> _Parameter, in __init__ order
    _default_kind = None                  # CategoricalNB and GaussianNB fix the kind
    _allowed_kinds = None                 # the kinds the family can use (None: all)
    _command_name = None                  # its name for the command line's --model
    _kind_map = None                      # kinds the family reads as others: {kind: kind}
    # merge(a, b) is the model of fitting both training sets (cross_validate relies on it)
    _merge_is_fit = True
    _estimator_type = "classifier"        # scikit-learn before 1.6

    def _new_statistics(self):
        """Empty statistics of the model's family."""
        return self._statistics_class()

    def _start(self):
        """The state of a new, unfitted model (parameters are checked when used, as
        scikit-learn wants)."""
        self._state = _ModelState()

    # -- the scikit-learn estimator protocol ------------------------------------

    def get_params(self, deep=True):
        """The constructor parameters, as a dict.

        >>> NaiveBayes(alpha=0.5).get_params()["alpha"]
        0.5
        """
        return {name: getattr(self, name) for name in self._parameters}

    def set_params(self, **params):
        """Set parameters.  Smoothing, priors and the other parameters that shape
        probabilities rather than counts take effect at once, even on a fitted or
        loaded model, because it keeps counts rather than probabilities; features and
        categories apply at the next fit.  Values are checked when the model is next
        used (as scikit-learn wants), with an error naming the parameter.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> round(model.predict_proba_one(["b"])[1], 4)      # (1/3 * 2/3) / (2/3 * 1/4 + 1/3 * 2/3)
        0.5714
        >>> round(model.set_params(alpha=0).predict_proba_one(["b"])[1], 4)
        1.0
        """
        for name in params:
            if name not in self._parameters:
                raise NaiveBayesError("set_params(): unknown parameter %r; expected one "
                                      "of %s" % (name, ", ".join(self._parameters)),
                                      call="set_params()")
        with self._state.lock:
            for name, value in params.items():
                setattr(self, name, value)
            self._state.compiled = None
        return self

    def __sklearn_tags__(self):
        """Tags for scikit-learn 1.6 and later.  scikit-learn is not a dependency: it
        is imported here, when scikit-learn itself asks for the tags."""
        import importlib
        tags = importlib.import_module("sklearn.utils")
        return tags.Tags(estimator_type="classifier",
                         target_tags=tags.TargetTags(required=True),
                         classifier_tags=tags.ClassifierTags(),
                         input_tags=tags.InputTags(allow_nan=True, categorical=True,
                                                   string=True, dict=True))

    def __sklearn_is_fitted__(self):
        """True once fitted (scikit-learn's check_is_fitted asks)."""
        return self._state.statistics is not None

    def __repr__(self):
        """The class and the parameters that differ from their defaults."""
        changed = ["%s=%r" % (name, getattr(self, name))
                   for name, parameter in self._parameters.items()
                   if getattr(self, name) is not parameter.default
                   and getattr(self, name) != parameter.default]
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))

    def __getstate__(self):
        """For pickle: the parameters and the statistics, not the compiled model."""
        state = dict(self.__dict__)
        learned = state.pop("_state")         # the compiled model is rebuilt on demand
        state["_learned"] = (learned.statistics, learned.target, learned.numpy_labels)
        return state

    def __setstate__(self, state):
        """From pickle: a fresh state around the statistics."""
        state = dict(state)
        statistics, target, numpy_labels = state.pop("_learned", (None, None, False))
        self.__dict__.update(state)
        self._state = _ModelState(statistics, target)
        self._state.numpy_labels = numpy_labels

    # -- fitted attributes --------------------------------------------------------

    def _fitted(self, call=None):
        """The statistics; NaiveBayesError (NotFittedError, an AttributeError too)
        before fit, naming the call or attribute."""
        statistics = self._state.statistics
        if statistics is None:
            raise _not_fitted("%sthis %s is not fitted yet; call fit(X, y) first"
                              % ("" if call is None else call + ": ", type(self).__name__),
                              call)
        return statistics

    @property
    def classes_(self):
        """Class labels, sorted when orderable, else in first-seen order: a list (with
        the .shape scikit-learn's tools read), or a NumPy array when the labels given to
        fit were a NumPy array or pandas Series, as scikit-learn's tools require.

        >>> NaiveBayes().fit([["a"], ["b"]], ["yes", "no"]).classes_
        ['no', 'yes']
        """
        classes = self._fitted().classes()
        numpy = _loaded_numpy() if self._state.numpy_labels else None
        if numpy is not None:             # scikit-learn's tools index and compare it
            labels = numpy.asarray(classes)
            return labels if labels.ndim == 1 else numpy.asarray(classes, dtype=object)
        return _Classes(classes)

    @property
    def class_count_(self):
        """Weighted number of training rows per class, in classes_ order.

        >>> model = NaiveBayes().fit([["a"], ["b"], ["c"]], [1, 0, 1], sample_weight=[2, 1, 0.5])
        >>> model.class_count_
        [1, 2.5]
        """
        statistics = self._fitted()
        return [_plain(statistics.class_count[c]) for c in statistics.classes()]

    @property
    def feature_names_(self):
        """Feature names in column order: positions for sequence rows, keys (in
        first-seen order) for mappings.

        >>> NaiveBayes().fit([["a", 1.0]], [0]).feature_names_
        [0, 1]
        """
        return self._fitted().names()

    @property
    def feature_kinds_(self):
        """{feature name: kind}.  A feature that has had no values yet counts as
        "gaussian" (all of its zero values are numbers); it contributes nothing, and
        its first values decide its kind.

        >>> NaiveBayes().fit([{"city": "Oslo", "temp": -3.5}], ["cold"]).feature_kinds_
        {'city': 'categorical', 'temp': 'gaussian'}
        """
        return self._fitted().kinds()

    @property
    def n_features_in_(self):
        """The number of features (scikit-learn's name for len(feature_names_))."""
        return len(self._fitted().names())

    @property
    def target_(self):
        """The name of the label column, when known (a pandas Series' name, or the
        command line's --target); it is kept in the model file.  Settable."""
        return self._state.target

    @target_.setter
    def target_(self, name):
        """Set the label column's name."""
        self._state.target = name

    # -- fitting ------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Learn from rows X and labels y, forgetting anything learned before.

        X, y and sample_weight may be any iterables (generators, NumPy arrays,
        a pandas DataFrame for X); they are read once and no row is kept.  Feature
        kinds are inferred from all rows of a list, or from the first 10,000 rows of
        a generator.  Returns self.

        >>> model = NaiveBayes().fit([["red", 2.5], ["blue", 0.4]], ["apple", "plum"])
        >>> model.classes_, model.feature_kinds_
        (['apple', 'plum'], {0: 'categorical', 1: 'gaussian'})
        """
        statistics = self._learn(X, y, sample_weight, self._new_statistics(), "fit()")
        with self._state.lock:
            self._state.statistics = statistics
            self._state.compiled = None
            self._state.target = _label_name(y, self._state.target)
            self._state.numpy_labels = _numpy_input(y)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Learn from more rows, adding to what is known (new classes, values and
        features are welcome).  Counts and sums are exact, so any batching gives
        exactly the model of one fit, provided each feature's kind is the same in
        every batch (declare it with features= if a batch could make it look
        otherwise).  ``classes``, as in scikit-learn, lists every label there will
        be: labels outside it are errors, and those not yet seen get a count of 0.
        A failed call leaves the model as it was.

        >>> model = CategoricalNB().partial_fit([["a"]], [0]).partial_fit([["b"]], [1])
        >>> model.classes_, model.predict([["b"]])
        ([0, 1], [1])
        """
        with self._state.lock:
            base = self._state.statistics
            batch = base.skeleton() if base is not None else self._new_statistics()
            known = dict(base.class_count) if base is not None else None
        batch = self._learn(X, y, sample_weight, batch, "partial_fit()", known, classes)
        _check_memory(self.get_params(), "partial_fit()", base, batch)
        with self._state.lock:
            if self._state.statistics is None:
                self._state.statistics = batch
                self._state.numpy_labels = _numpy_input(y)
            else:
                self._state.statistics.absorb(batch)
            self._state.compiled = None
            self._state.target = _label_name(y, self._state.target)
        return self

    def _learn(self, X, y, sample_weight, statistics, call, known=None, classes=None,
               check_names=True, class_weighted=False):
        """Count X, y into statistics, chunk by chunk; raise before anything is kept.
        ``known``: the class counts of the model that partial_fit adds to;
        ``check_names``: look for misspelt names in features= and categories=;
        ``class_weighted``: sample_weight already holds the class weights."""
        params = self.get_params()
        _check_params(self._parameters, params, call)
        class_weight = None if class_weighted else params["class_weight"]
        if class_weight == "balanced":
            y, sample_weight = self._balanced(y, sample_weight, call)
            class_weight = _balanced_class_weight(y, sample_weight, call)
        elif class_weight is not None:
            class_weight = {label: _number(w) for label, w in class_weight.items()}
        # NumPy input: a row of the wrong width is also told in scikit-learn's words
        fitting = _Fitting(call, params, self._default_kind, self._allowed_kinds,
                           type(self).__name__ if _numpy_input(X) else None,
                           kind_map=self._kind_map)
        declared_classes = _check_classes_argument(classes, known, call)
        X = _rows_of(X, call)
        rows_in = _iterate(X, "X", "an iterable of rows", call)
        labels_in = _iterate(_labels_of(y, call), "y", "an iterable of labels", call)
        if sample_weight is not None and _as_numpy(sample_weight, "sample_weight",
                                                   call) is not None:
            sample_weight = _as_numpy(sample_weight, "sample_weight", call).tolist()
        weights_in = None if sample_weight is None else _iterate(
            sample_weight, "sample_weight", "an iterable of numbers", call)
        size = max(1, len(X)) if hasattr(X, "__len__") and hasattr(X, "__getitem__") \
            else _CHUNK
        start = 0
        while True:
            rows = list(islice(rows_in, size))
            labels = list(islice(labels_in, size))
            weights = None if weights_in is None else list(islice(weights_in, size))
            for other, items, iterator, what in (
                    ("y", labels, labels_in, "labels"),
                    ("sample_weight", weights, weights_in, "weights")):
                if items is not None and len(items) != len(rows):
                    raise NaiveBayesError(
                        "%s: X has %s rows but %s has %s %s; expected one per row"
                        % (call, _count_text(start + len(rows), rows_in), other,
                           _count_text(start + len(items), iterator), what),
                        call=call, argument=other)
            if not rows:
                break
            if class_weight is not None:
                weights = _class_weighted(labels, weights, class_weight, start, call)
            if declared_classes is not None:
                for i, label in enumerate(labels):
                    if label not in declared_classes:
                        raise _row_error(call, "y", start + i, "is %s, not among classes=%s"
                                         % (_shown(label), _shown(list(declared_classes))))
            statistics.count(rows, labels, weights, start, fitting)
            start += len(rows)
        if start == 0:
            raise NaiveBayesError("%s: X is empty; expected at least one row" % call,
                                  call=call, argument="X")
        for label in declared_classes or ():
            statistics.class_count.setdefault(label, 0)
        if declared_classes is not None and hasattr(statistics, "declare_classes"):
            statistics.declare_classes(declared_classes)
        class_count = dict(known or {})
        for label, count in statistics.class_count.items():
            class_count[label] = class_count.get(label, 0) + count
        if not any(class_count.values()):
            raise NaiveBayesError("%s: sample_weight %sis zero for every row; expected a "
                                  "positive total weight" % (call, "" if class_weight is None
                                                             else "times class_weight "),
                                  call=call, argument="sample_weight")
        _check_class_prior(params.get("class_prior"), class_count, call)
        _check_discrete_labels(class_count, call)
        if known is None and check_names:
            _check_declared_names(params, fitting.seen, call)
        return statistics

    def _balanced(self, y, sample_weight, call):
        """(labels, weights) as lists, for class_weight="balanced", whose weights need
        every label first: only fit has them all."""
        if call != "fit()":
            raise NaiveBayesError(
                '%s: class_weight="balanced" weighs the rows by the class counts of one '
                "whole fit, which %s cannot know; expected fit(), or a {label: weight} "
                "class_weight (n / (K * n_c) from all the labels)" % (call, call[:-2]),
                call=call, argument="class_weight")
        labels = list(_iterate(_labels_of(y, call), "y", "an iterable of labels", call))
        if sample_weight is not None:
            sample_weight = list(_iterate(sample_weight, "sample_weight",
                                          "an iterable of numbers", call))
        return labels, sample_weight

    # -- prediction -----------------------------------------------------------------

    def _model(self, call):
        """The compiled model, built on first use after each change."""
        compiled = self._state.compiled
        if compiled is not None:
            return compiled
        with self._state.lock:
            compiled = self._state.compiled
            if compiled is None:
                if self._state.statistics is None:
                    raise _not_fitted("%s: this %s is not fitted yet; call fit(X, y) first"
                                      % (call, type(self).__name__), call)
                params = self.get_params()
                _check_params(self._parameters, params, call)
                _check_class_prior(params.get("class_prior"), self._state.statistics.class_count,
                                   call)
                try:
                    compiled = self._state.statistics.compile(params)
                except _OverBudget as error:
                    raise NaiveBayesError("%s: %s" % (call, error), call=call) from None
                self._state.compiled = compiled
        return compiled

    def _joints(self, X, call):
        """Per-row joint log-likelihoods, and the compiled model that made them.

        Rows come in blocks; a block of lists or tuples of the right width (checked
        by builtins) goes to compiled.joints whole, anything else row by row.
        """
        compiled = self._model(call)
        if hasattr(X, "columns") and hasattr(X, "itertuples") and \
                self._state.statistics.layout == "mapping":
            _check_columns(X.columns, compiled.names, call)
        rows = _iterate(_rows_of(X, call), "X", "an iterable of rows", call)
        width = {compiled.width}
        out = []
        start = 0
        unknown = None
        while True:
            block = list(islice(rows, _PREDICT_BLOCK))
            if not block:
                if unknown:
                    _warn_unknown_names(unknown, call)
                return out, compiled
            if unknown is None and block and type(block[0]) is dict:
                known = set(compiled.names)
                unknown = [name for name in dict.fromkeys(chain.from_iterable(block))
                           if name not in known]
            try:
                if set(map(type, block)) <= _SEQUENCES and set(map(len, block)) == width:
                    out.extend(compiled.joints(block))
                else:
                    out.extend(map(compiled.joint, map(compiled.positional, block)))
            except _RowError:             # find the row, for the message
                for i, row in enumerate(block):
                    try:
                        compiled.joint(compiled.positional(row))
                    except _RowError as error:
                        raise _row_error(call, "X", start + i,
                                         self._reason(error, _numpy_input(X))) from None
                raise
            start += len(block)

    def _reason(self, error, numpy_input=False):
        """A _RowError's text; for NumPy input, a row of the wrong width is also told
        in scikit-learn's words."""
        if error.width is None or not numpy_input:
            return str(error)
        return "%s (X has %d features, but %s is expecting %d features as input)" % (
            error, error.width, type(self).__name__, self._model("").width)

    def _joint_one(self, x, call):
        """One row's joint log-likelihoods and the compiled model."""
        compiled = self._state.compiled
        if compiled is None:
            compiled = self._model(call)
        try:
            return compiled.joint(compiled.positional(x)), compiled
        except _RowError as error:
            reason = self._reason(error, _numpy_input(x))
            raise NaiveBayesError("%s: x%s" % (call, reason if reason.startswith(",")
                                               else " " + reason),
                                  call=call, argument="x", reason=reason) from None

    def predict_joint_log_proba(self, X):
        """log P(c) + sum_j log P(x_j | c) per row, columns in classes_ order.

        >>> model = CategoricalNB(alpha=0).fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(math.exp(v), 4) for v in row] for row in model.predict_joint_log_proba([["a"]])]
        [[0.6667, 0.0]]
        """
        joints, _ = self._joints(X, "predict_joint_log_proba()")
        if _InfiniteJoint in set(map(type, joints)):
            joints = [list(joint) for joint in joints]
        return _as_array(joints, _numpy_input(X))

    def predict_log_proba(self, X):
        """log P(c | x) per row, columns in classes_ order.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(v, 4) for v in row] for row in model.predict_log_proba([["b"]])]
        [[-0.8473, -0.5596]]
        """
        joints, _ = self._joints(X, "predict_log_proba()")
        return _as_array(_posteriors(joints, logs=True), _numpy_input(X))

    def predict_proba(self, X):
        """P(c | x) per row, columns in classes_ order; every row sums to 1.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(p, 4) for p in row] for row in model.predict_proba([["a"], [None]])]
        [[0.8182, 0.1818], [0.6667, 0.3333]]
        """
        joints, _ = self._joints(X, "predict_proba()")
        return _as_array(_posteriors(joints), _numpy_input(X))

    def predict(self, X):
        """The most probable class of each row (ties go to the earlier class), or the
        class the decision rules choose (thresholds, costs, reject_below).

        >>> GaussianNB().fit([[1.0], [1.5], [4.0], [4.5]], list("aabb")).predict([[1.2], [3.9]])
        ['a', 'b']
        """
        labels = self._predict(X, "predict()")
        if _numpy_input(X) and self.reject_below is not None and \
                len(set(map(type, labels))) > 1:  # the reject label beside classes of
            numpy = _loaded_numpy()               # another type: as they are
            return numpy.array(labels + [None], dtype=object)[:-1]
        return _as_array(labels, _numpy_input(X))

    def _predict(self, X, call):
        """The predicted labels of the rows of X."""
        joints, compiled = self._joints(X, call)
        decision = self._decision(compiled.classes, call)
        if decision is not None:
            return decision.labels(_posteriors(joints))
        return list(map(compiled.classes.__getitem__, _best(joints)))

    def _decision(self, classes, call):
        """The decision rules set, checked against the classes (a _Decision), or None
        when none is set: predict is the argmax."""
        if self.thresholds is None and self.costs is None and self.reject_below is None:
            return None
        return _Decision(classes, self.get_params(), call)

    def predict_one(self, x):
        """The most probable class of one row, or the decision rules' choice.

        >>> CategoricalNB().fit([["a"], ["b"]], ["p", "q"]).predict_one(["b"])
        'q'
        """
        joint, compiled = self._joint_one(x, "predict_one()")
        decision = self._decision(compiled.classes, "predict_one()")
        if decision is not None:
            return decision.labels([_posterior(joint)])[0]
        return compiled.classes[_best([joint])[0]]

    def predict_proba_one(self, x):
        """{label: P(label | x)} for one row.

        >>> proba = CategoricalNB().fit([["a"], ["b"]], ["p", "q"]).predict_proba_one({0: "b"})
        >>> {label: round(p, 4) for label, p in proba.items()}
        {'p': 0.3333, 'q': 0.6667}
        """
        joint, compiled = self._joint_one(x, "predict_proba_one()")
        return dict(zip(compiled.classes, _posterior(joint)))

    def score(self, X, y, sample_weight=None):
        """Accuracy: the (weighted) fraction of rows whose prediction (predict's, the
        decision rules' when set: a rejected row counts as wrong) equals y.

        >>> CategoricalNB().fit([["a"], ["b"]], [0, 1]).score([["a"], ["b"], ["a"]], [0, 1, 1])
        0.6666666666666666
        """
        truth = list(_iterate(y, "y", "an iterable of labels", "score()"))
        predicted = self._predict(X, "score()")
        if len(truth) != len(predicted):
            raise NaiveBayesError("score(): X has %d rows but y has %d labels; expected "
                                  "one label per row" % (len(predicted), len(truth)),
                                  call="score()", argument="y")
        if not predicted:
            raise NaiveBayesError("score(): X is empty; expected at least one row",
                                  call="score()", argument="X")
        hits = [p == t for p, t in zip(predicted, truth)]
        if sample_weight is None:
            return sum(hits) / len(hits)
        weights = list(_iterate(sample_weight, "sample_weight", "an iterable of numbers",
                                "score()"))
        if len(weights) != len(hits):
            raise NaiveBayesError("score(): sample_weight has %d weights for %d rows"
                                  % (len(weights), len(hits)), call="score()",
                                  argument="sample_weight")
        weights, shift = _check_weights(weights, 0, "score()").scaled
        total = sum(weights)
        if not total:
            raise NaiveBayesError("score(): sample_weight is zero for every row; expected a "
                                  "positive total weight", call="score()",
                                  argument="sample_weight")
        hit = sum(w for w, hit in zip(weights, hits) if hit)
        if type(hit) is int and type(total) is int:
            return hit / total            # correctly rounded
        from fractions import Fraction    # weights spanning > 900 binades
        return float(Fraction(hit) / total)

    # -- what the model learned, and explanations ------------------------------------

    def explain(self, x):
        """How one row's joint log-likelihood is made up, feature by feature.

        Returns {"prior": {label: log P(c)}, "features": [{"feature", "value",
        "status", "log_likelihood": {label: log P(value | c)}}, ...]}, where status is
        "used", "unseen" (the Laplace fallback), "missing" or "ignored" (a feature
        declared "ignore" or never seen in training); missing and ignored features
        contribute 0.  The prior plus all contributions is the joint log-likelihood
        (where some are infinite, a point-mass density +inf or a zero probability
        -inf, they are counted rather than added, as predict_joint_log_proba counts
        them: the finite sum when the counts cancel, else +inf or -inf).  With a
        decision rule set (thresholds, costs, reject_below), "decision" says what it
        did: {"rule": "thresholds", "costs", "reject" or "argmax" (none changed the
        label), "argmax": the most probable class, "predicted": predict's label,
        "changed": whether they differ, "probability": the argmax's P(c | x)}.

        >>> model = CategoricalNB().fit([["a", "x"], ["b", "x"], ["a", "y"]], [1, 2, 1])
        >>> parts = model.explain({0: "a", 1: "z", 2: "?"})
        >>> [(f["feature"], f["status"]) for f in parts["features"]]
        [(0, 'used'), (1, 'unseen'), (2, 'ignored')]
        >>> joint = [parts["prior"][c] + sum(f["log_likelihood"][c] for f in parts["features"])
        ...          for c in model.classes_]
        >>> all(abs(a - b) < 1e-12 for a, b in zip(joint, model.predict_joint_log_proba(
        ...     [{0: "a", 1: "z", 2: "?"}])[0]))
        True
        """
        compiled = self._model("explain()")
        decision = self._decision(compiled.classes, "explain()")
        extra = []
        if isinstance(x, Mapping):
            known = set(compiled.names)
            extra = [(name, value) for name, value in x.items() if name not in known]
        try:
            parts = compiled.explain(compiled.positional(x), extra)
        except _RowError as error:
            reason = str(error)
            raise NaiveBayesError("explain(): x%s" % (reason if reason.startswith(",")
                                                      else " " + reason),
                                  call="explain()", argument="x", reason=reason) from None
        if decision is not None:
            joint, _ = self._joint_one(x, "explain()")
            parts["decision"] = decision.explain(_posterior(joint))
        return parts

    def most_informative_features(self, n=10):
        """The n (feature, value, score, favoured_label) tuples that best separate the
        classes, most informative first; printing them is the command line's job.

        Categorical: every known value, scored as nltk does by the largest likelihood
        ratio between two classes, log(max_c P(v|c) / min_c P(v|c)), favouring the
        class where it is most likely.  Gaussian and Poisson (value None): the largest
        Kullback-Leibler divergence KL(P_a || P_b) between two classes' distributions,
        the average log-likelihood ratio a value from class a gives for a over b.  All
        scores are in nats of log-likelihood ratio, so one ranking holds every kind.

        >>> model = CategoricalNB().fit([["a", "x"], ["b", "x"], ["a", "y"]], [1, 2, 1])
        >>> [(f, v, round(s, 3), c) for f, v, s, c in model.most_informative_features(2)]
        [(0, 'b', 0.981, 2), (0, 'a', 0.811, 1)]
        """
        compiled = self._model("most_informative_features()")
        if type(n) is not int or n < 0:
            raise NaiveBayesError("most_informative_features(): n=%r; expected an "
                                  "integer >= 0" % (n,), call="most_informative_features()")
        return compiled.informative()[:n]

    def tables(self):
        """The fitted conditional distributions, {feature name: table}: the public view
        of what the model learned (R naivebayes' tables(); scikit-learn's theta_, var_
        and feature_log_prob_).  Labels are as in classes_; see the README for each
        kind's table.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> table = model.tables()[0]["probabilities"][0]   # (2 + 1) / (2 + 2), (0 + 1) / (2 + 2)
        >>> {value: round(p, 12) for value, p in table.items()}
        {'a': 0.75, 'b': 0.25}
        """
        return self._model("tables()").tables()

    def summary(self, per_class=False):
        """What the model holds, as plain data: {"classes": [[label, count]],
        "features": [[name, kind, description]], "target": name or None}, and for AODE
        "pairwise counts", the number of pairwise counts kept.

        With per_class=True, also "class_statistics": {name: {"kind": kind, "classes":
        {label: statistics}}}, what each feature's statistics say of each class, as R's
        and Weka's summaries show them (info prints them): "count", the class's
        weight of rows where the feature is present (documents for text); with "mean"
        and "sd" (gaussian and kde: the deviation with the model's ddof, without
        var_smoothing; poisson: the mean only), "bins" and "cuts" (discretized: the
        class's weight in each MDL bin), or "top" ([[value, count]] of the class's 3
        most frequent values, or words).

        >>> NaiveBayes().fit([["a", 1.0], ["b", 3.0]], ["x", "y"]).summary()["features"]
        [[0, 'categorical', '2 values: a, b'], [1, 'gaussian', 'mean 2, standard deviation 1']]
        """
        statistics = self._fitted("summary()")
        params = self.get_params()
        summary = {"classes": [[label, count] for label, count in
                               zip(statistics.classes(), self.class_count_)],
                   "features": [list(item) for item in statistics.summary(params)],
                   "target": self._state.target}
        if per_class:
            summary["class_statistics"] = statistics.class_statistics(params)
        extra = getattr(statistics, "extra_summary", None)
        summary.update(extra() if extra else {})
        compiled = self._model("summary()")
        if hasattr(compiled, "summary_items"):    # what compiling found (a structure)
            summary.update(compiled.summary_items())
        return summary

    # -- pictures (see "Pictures") ----------------------------------------------------

    def plot(self, feature=None, width=540, height=300):
        """An SVG document (text) of a feature's class-conditional distributions, one
        series per class: densities (gaussian, kde), probabilities at 0, 1, 2 ...
        (poisson), bars per bin between the cut points (discretized), per value
        (categorical: the likeliest values, the rest summed as "other") or per word
        (text: the words that most favour each class); more than 8 classes make the
        bars a heat map.  AODE and the networks draw naive Bayes' view, P(x_j | c).
        Without a feature: the model's structure, which feature depends on which.

        >>> model = NaiveBayes().fit([[1.0], [2.0], [6.0], [7.0]], ["lo", "lo", "hi", "hi"])
        >>> svg = model.plot(0)
        >>> svg.startswith("<svg") and 'data-label="hi"' in svg and svg.endswith("</svg>")
        True
        """
        if feature is None:
            self._model("plot()")
            return _svg_structure(self)
        return _svg_plot(self, feature, _picture_tables(self, "plot()"), width, height)

    def _repr_html_(self):
        """The notebook view: classes, and per feature a small plot; None before fit
        (the notebook shows repr() instead)."""
        return None if self._state.statistics is None else _notebook_html(self)

    def _repr_svg_(self):
        """One picture where one fits (the structure of AODE, TAN and BayesNet, the
        plot of a one-feature model); else None, as before fit."""
        return None if self._state.statistics is None else _notebook_svg(self)

    # -- combining models -------------------------------------------------------------

    def merge(self, other):
        """A new model equal to one fitted on the training data of both; neither
        input changes.  Counts and sums are exact, so merge is commutative and
        associative and agrees bit for bit with fit and partial_fit.  (Labels that
        cannot be sorted keep first-seen order, self's first, as a fit on self's data
        followed by other's would; that order breaks ties.)

        >>> a = NaiveBayes().fit([["x", 1.0], ["y", 2.0]], ["p", "q"])
        >>> b = NaiveBayes().fit([["x", 1.5], ["z", 3.0]], ["p", "r"])
        >>> both = NaiveBayes().fit([["x", 1.0], ["y", 2.0], ["x", 1.5], ["z", 3.0]],
        ...                         ["p", "q", "p", "r"])
        >>> a.merge(b).predict_proba([["x", 1.2]]) == both.predict_proba([["x", 1.2]])
        True
        """
        if not isinstance(other, _Classifier) or \
                other._statistics_class is not self._statistics_class:
            raise NaiveBayesError("merge(): other is %s; expected a %s model"
                                  % (_describe(other), type(self).__name__), call="merge()")
        differences = _param_differences(
            [name for name in self._parameters if name not in _MERGE_FREE],
            self.get_params(), other.get_params())
        if type(self) is not type(other):
            differences.insert(0, "the models are a %s and a %s"
                               % (type(self).__name__, type(other).__name__))
        with self._state.lock:
            mine = self._state.statistics.copy() if self._state.statistics is not None else None
        with other._state.lock:
            theirs = other._state.statistics.copy() if other._state.statistics is not None else None
        if mine is not None and theirs is not None:
            differences.extend(mine.conflicts(theirs))
        if differences:
            raise NaiveBayesError("merge(): the models differ: %s; expected models with "
                                  "the same parameters and feature kinds"
                                  % "; ".join(differences), call="merge()")
        if self.class_weight == "balanced" and mine is not None and theirs is not None:
            raise NaiveBayesError('merge(): class_weight="balanced" weighed each model\'s rows '
                                  "by its own class counts, so their sum is not the balanced "
                                  "model of both; expected fit() on all the rows, or a "
                                  "{label: weight} class_weight", call="merge()")
        merged = type(self)(**self.get_params())
        merged._state.target = (self._state.target if self._state.target is not None
                                else other._state.target)
        if mine is not None or theirs is not None:
            statistics = mine or theirs
            if mine is not None and theirs is not None:
                statistics.absorb(theirs)
            _check_class_prior(self.get_params().get("class_prior"),
                               statistics.class_count, "merge()")
            _check_memory(self.get_params(), "merge()", statistics)
            merged._state.statistics = statistics
        return merged

    def forget(self, X, y, sample_weight=None):
        """Remove rows that were learned (by fit, partial_fit or merge), exactly: the
        model then equals, count for count, one fitted without them (sa-learn
        --forget for a spam filter, or a user's data withdrawn).  Returns self.

        The rows are read and checked as partial_fit reads them (the model's current
        parameters), counted, and the counts taken away: ``sample_weight`` removes
        that much of each row's weight (a row learned with weight 2 and forgotten
        with weight 0.5 is left with 1.5; TAN and BayesNet, which also count rows,
        refuse part of a row's weight).  Whatever reaches zero disappears: classes,
        values, words, pairs, rows, and features that only those rows had values of
        (see the README for what statistics cannot tell back).  Removing more than
        was learned of any class, value, word, pair or row, a feature or class never
        learned, or every row the model holds, raises NaiveBayesError and changes
        nothing.  Statistics are counts and sums, not rows, so rows never learned
        are refused where the counts show it, not always.

        >>> X, y = [["red"], ["red"], ["blue"]], ["a", "a", "b"]
        >>> model = CategoricalNB().fit(X + [["green"]], y + ["a"]).forget([["green"]], ["a"])
        >>> model.to_dict() == CategoricalNB().fit(X, y).to_dict()
        True
        >>> model.forget([["blue"]], ["a"])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: forget(): feature 0: class 'a': value 'blue' was never ...
        """
        call = "forget()"
        with self._state.lock:
            base = self._fitted(call)
            batch = base.skeleton()
            known = dict(base.class_count)
        try:
            batch = self._learn(X, y, sample_weight, batch, call, known)
        except NaiveBayesError:
            # a label never learned also fails partial_fit's check of a class_prior:
            # say what is wrong for forget
            unknown = [label for label in batch.class_count if label not in known]
            if unknown:
                raise NaiveBayesError("%s: class %s was never learned; expected rows that "
                                      "the model learned (nothing was forgotten)"
                                      % (call, _shown(unknown[0])), call=call) from None
            raise
        fitting = _Fitting(call, self.get_params(), self._default_kind, self._allowed_kinds)
        with self._state.lock:
            statistics = self._state.statistics
            problem = statistics.deficit(batch)
            if problem is not None:
                raise NaiveBayesError("%s: %s; expected rows that the model learned (nothing "
                                      "was forgotten)" % (call, problem), call=call)
            left = {label: count - batch.class_count.get(label, 0)
                    for label, count in statistics.class_count.items()}
            if not any(left.values()):
                raise NaiveBayesError("%s: these are all the rows the model learned; "
                                      "expected some to be left (fit a new model instead; "
                                      "nothing was forgotten)" % call, call=call)
            _check_class_prior(fitting.params.get("class_prior"),
                               {label: count for label, count in left.items()
                                if count or not batch.class_count.get(label)}, call)
            statistics.subtract(batch, fitting)
            self._state.compiled = None
        return self

    # -- the model file ---------------------------------------------------------------

    def to_dict(self):
        """The model as plain JSON-ready data: counts, sums and parameters (see the
        README for the format).  An unfitted model gives its parameters only.

        >>> model = CategoricalNB().fit([["a"], ["b"]], [1, 0])
        >>> data = model.to_dict()
        >>> data["format"], data["format_version"], data["classes"], data["class_count"]
        ('naive_bayes', 1, [0, 1], [1, 1])
        >>> NaiveBayes.from_dict(data).predict([["a"]])
        [1]
        """
        with self._state.lock:
            return _model_to_dict(self, self._state.statistics)

    @classmethod
    def from_dict(cls, data):
        """The model that to_dict() described.  Validates everything and never runs
        code; any problem raises NaiveBayesError naming the field.

        >>> data = CategoricalNB().fit([["a"]], [0]).to_dict()
        >>> data["class_count"] = [-1]
        >>> NaiveBayes.from_dict(data)
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: from_dict(): class_count[0] is -1; expected a count >= 0
        """
        return _model_from_dict(cls, data, "from_dict()")

    def save(self, path):
        """Write the model to path as JSON, atomically: a temporary file in the same
        folder is renamed over path, so an existing file is never half-written.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "model.json")
        >>> GaussianNB().fit([[1.0], [3.0]], ["low", "high"]).save(path)
        >>> NaiveBayes.load(path).predict([[1.2]])
        ['low']
        """
        path = _checked_path(path, "save()")
        _write_atomically(path, _json_text(self.to_dict()), "save(%s)" % _path_text(path))

    @classmethod
    def load(cls, path):
        """Read a model written by save(); it loads back as the class it was saved as
        (NaiveBayes.load reads any model file).  Never runs code; an invalid file
        raises NaiveBayesError.

        >>> NaiveBayes.load("no/such/model.json")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: load(no/such/model.json): cannot read the file: No such ...
        """
        path = _checked_path(path, "load()")
        return _load_file(cls, path, "load(%s)" % _path_text(path))


# The order of the parameters in the constructors (the order of the public contract).
_PARAMETER_ORDER = ("members", "weights", "folds", "max_parents", "alpha", "prior_alpha",
                    "class_prior", "frequency_limit", "features", "categories", "ddof",
                    "var_smoothing", "text_model", "max_words", "min_word_count", "tokenizer",
                    "complement_norm", "ngram_range", "stop_words", "numeric", "bandwidth",
                    "significant_digits")


def _classifier_parameters(numeric_default, kinds, extra=None, without=()):
    """The parameters of a classifier: the base ones (but those it does without),
    numeric=, those of the feature kinds it can use and its own (extra), in
    _PARAMETER_ORDER; then the class weights and decision rules."""
    parameters = {name: p for name, p in _BASE_PARAMETERS.items() if name not in without}
    for kind in kinds:
        parameters.update(_KINDS[kind].parameters)
    parameters["numeric"] = _numeric_parameter(numeric_default, kinds)
    parameters.update(extra or {})
    order = {name: i for i, name in enumerate(_PARAMETER_ORDER)}
    parameters = dict(sorted(parameters.items(), key=lambda item: order.get(item[0], 99)))
    parameters.update(_DECISION_PARAMETERS)           # last, on every classifier
    return parameters


class NaiveBayes(_Classifier):
    """Naive Bayes over categorical, Gaussian, text and count features, alone or
    mixed in one model.

    Parameters (all can be changed with set_params; those that shape probabilities
    take effect at once, even on a loaded model, because the model keeps counts
    rather than probabilities; they are checked when the model is used):

    alpha          Lidstone smoothing of categorical, word, count and bin likelihoods
                   (1 = Laplace, 0 = MLE).
    prior_alpha    smoothing of the class prior: (N_c + prior_alpha) / (N + K*prior_alpha).
    class_prior    None (learned), "uniform", or {label: probability} (overrides
                   prior_alpha).
    features       None to infer each feature's kind, or {name: kind} / [kind, ...] with
                   kind in "categorical", "gaussian", "text", "poisson", "discretized",
                   "kde", "ignore".  Undeclared features are inferred: numeric= when
                   every non-missing training value is a real number (not bool),
                   categorical otherwise (text and counts are never inferred: declare
                   them).
    categories     known values per categorical feature ({name: [values]} or a list by
                   position); they count in S_j even if unseen, and any other training
                   value is an error.
    ddof           Gaussian variance divisor N_c - ddof: 0 as scikit-learn, 1 as R and the
                   textbooks.
    var_smoothing  added to every Gaussian variance, times the largest variance (ddof 0,
                   all classes pooled) of any Gaussian feature, as in scikit-learn.
    text_model     "multinomial" (bag-of-words: word counts), "bernoulli" (set-of-words:
                   each vocabulary word present or absent) or "complement" (complement
                   naive Bayes, Rennie et al. 2003: scikit-learn's ComplementNB; no
                   learned prior is added to its scores, a class_prior given is), for
                   text features.
    max_words      keep the k most frequent training words (None: all), frequency being
                   documents (Bernoulli) or occurrences (multinomial, complement); ties
                   alphabetical.
    min_word_count drop words rarer than this.
    tokenizer      None (lowercase, then scikit-learn CountVectorizer's default pattern)
                   or a callable from a string to a list of words; a text value may also
                   be a list of words already split, or a {word: count} mapping with
                   real counts >= 0 (TF-IDF weights, say), taken as it is.
    complement_norm   complement weights normalised (ComplementNB's norm=True).
    ngram_range    (min_n, max_n): the n-grams of min_n to max_n words, joined by a
                   space, after stop words are dropped, as CountVectorizer forms them.
    stop_words     None, "english" (scikit-learn's 318 words) or a list of words to
                   drop (not lowercased, as in CountVectorizer).
    numeric        the kind of inferred numeric features: "gaussian", "discretized" or
                   "kde".
    class_weight   None, "balanced" or {label: weight}: each row's weight times its
                   class's weight (1 for a class not named), as scikit-learn's
                   class_weight; it changes the counts, and so the model.
    thresholds     {label: t > 0}, one per class: predict the class maximising
                   P(c | x) / t_c (Spark's rule).
    costs          {true label: {predicted label: cost}}: predict the class of least
                   expected cost, sum_i P(i | x) cost[i][j].
    reject_below   a probability: predict reject_label when the largest P(c | x) is
                   below it.
    reject_label   what predict says then (default "unsure"; never a class).

    Policies:

    - Rows are sequences (features named 0, 1, ...) or mappings (named by key, in
      first-seen order after any declared in ``features``).  A sequence row holds the
      values of ``feature_names_`` in order.
    - Missing values (None, float NaN, an absent key) are skipped when fitting and
      contribute nothing when predicting.  A feature name never seen in training is
      ignored at predict time.
    - A categorical value never seen in training gets the Laplace fallback
      alpha / (N_cj + alpha * S_j) for every class.  When a class has no rows with
      the feature and alpha = 0, its likelihood is the limit 1 / S_j.
    - Gaussian (and Poisson): a class with no values of a feature uses the pooled
      distribution of all classes; a class variance with N_c - ddof <= 0 counts as 0.
      Statistics are exact sums, so fit, partial_fit in any batches and merge agree
      exactly.
    - Zero probabilities (alpha = 0) and zero variances (var_smoothing = 0) give
      log-likelihoods of -inf and +inf (a point mass at the class mean).  They are
      counted rather than added: classes are ranked first by (number of +inf terms -
      number of -inf terms), then by the sum of the finite terms; this is the limit of
      a tiny epsilon in place of each zero.  So no NaN is ever returned, and when
      every class has probability zero the decision falls to the remaining evidence.
    - ``classes_`` is sorted when the labels are mutually orderable, else in first-seen
      order; ties in predict go to the earlier class in ``classes_``.
    - Weights: sample_weight w counts a row w times (a weight of 2 equals the row
      twice, a weight of 0 as if the row were absent); weights must be finite, >= 0.
    - Labels and categorical values are compared as Python compares them: 1, 1.0 and
      True are one value.
    - Every error the caller can cause raises NaiveBayesError naming the call, the
      argument and the row (rows count from 0, like Python indexes); a failed fit or
      partial_fit leaves the model as it was.
    - NumPy or pandas input gives NumPy output from predict and the predict_*proba
      methods, as in scikit-learn; lists otherwise.
    - Class weights (every classifier): class_weight multiplies each row's
      sample_weight, as floats (scikit-learn's sample_weight * class_weight[y]), so a
      model equals the fit with those sample weights, bit for bit, and class_count_
      holds the weighted counts; a weight of 0 drops the class's rows.  "balanced" is
      W / (K * W_c), W_c the weight of class c's rows (their number without
      sample_weight), W the total and K the number of classes of positive weight
      (scikit-learn's compute_class_weight given the sample_weight, as its
      LogisticRegression calls it), correctly rounded from exact sums.  It needs
      every label at once: fit computes it from its rows; partial_fit and forget
      refuse it, and so does merge (each model's rows were weighed by its own
      counts): give a {label: weight} mapping instead, which all of them take
      (forget then removes each row's weight times its class's).
    - Decision rules (every classifier): thresholds, costs and reject_below change
      predict, predict_one and score (accuracy of predict: a rejected row counts as
      wrong), never a probability.  reject_below is looked at first, on the
      probabilities; then thresholds or costs (one of them; both set is an error)
      choose among the classes; ties go to the earlier class, and scores closer than
      rounding can tell are compared exactly, so equal thresholds and the 0-1 loss
      give the argmax.  thresholds names every class, each > 0 (Spark also allows one
      0, meaning "that class whenever possible": use a tiny threshold).  costs has a
      row per true class and a cost for every other class (a diagonal entry left out
      costs 0; costs may be negative).  reject_label is not a class.  Labels the
      classes lack, or classes left out, are errors when predict is next called; the
      values themselves are checked at fit too.  explain() says what a rule did.

    >>> model = NaiveBayes().fit([["red", 1.0], ["red", 1.2], ["blue", 3.1],
    ...                          ["blue", 2.9]], ["a", "a", "b", "b"])
    >>> model.feature_kinds_
    {0: 'categorical', 1: 'gaussian'}
    >>> model.predict([["red", 1.1], [None, 3.0], ["green", None]])
    ['a', 'b', 'a']
    """

    _parameters = _classifier_parameters("gaussian", _KINDS)
    _command_name = "naive"

    def __init__(self, alpha=1.0, prior_alpha=0.0, class_prior=None, features=None,
                 categories=None, ddof=0, var_smoothing=1e-9, text_model="multinomial",
                 max_words=None, min_word_count=1, tokenizer=None, complement_norm=False,
                 ngram_range=(1, 1), stop_words=None, numeric="gaussian",
                 bandwidth="scott", significant_digits=None, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.alpha = alpha
        self.prior_alpha = prior_alpha
        self.class_prior = class_prior
        self.features = features
        self.categories = categories
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.text_model = text_model
        self.max_words = max_words
        self.min_word_count = min_word_count
        self.tokenizer = tokenizer
        self.complement_norm = complement_norm
        self.ngram_range = ngram_range
        self.stop_words = stop_words
        self.numeric = numeric
        self.bandwidth = bandwidth
        self.significant_digits = significant_digits
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


class CategoricalNB(NaiveBayes):
    """Naive Bayes with every feature categorical, whatever its type (numbers too):
    scikit-learn's CategoricalNB, without the ordinal encoding.

    >>> CategoricalNB().fit([[1, 10], [2, 20]], ["x", "y"]).feature_kinds_
    {0: 'categorical', 1: 'categorical'}
    """

    _default_kind = "categorical"
    _command_name = None


class GaussianNB(NaiveBayes):
    """Naive Bayes with every feature Gaussian.

    >>> model = GaussianNB().fit([[1.0], [1.2], [3.0], [3.2]], [0, 0, 1, 1])
    >>> model.predict([[1.1], [2.9]])
    [0, 1]
    """

    _default_kind = "gaussian"
    _command_name = None


class AODE(_Classifier):
    """Averaged one-dependence estimators (Webb, Boughton and Wang 2005; the
    semi-naive Bayes of the watermelon book, section 7.5): each feature may depend on
    one other feature besides the class.  Every feature in turn is a super-parent:

        P(c, x) ~ mean over qualifying parents p of P(c, x_p) prod_{j != p} P(x_j | c, x_p)
        P(c, x_p)       = (N(c, x_p) + alpha) / (N_p + alpha * K * S_p)
        P(x_j | c, x_p) = (N(c, x_p, x_j) + alpha) / (N_j(c, x_p) + alpha * S_j)

    where N_p counts the rows with feature p present and N_j(c, x_p) the class-c rows
    with x_p where feature j is present; S_j is the number of known values (declared
    in categories, else seen) or bins.  A parent qualifies when its value is present
    and seen at least frequency_limit times in training (weighted, all classes
    together; at frequency_limit=0 every present value, a declared value never seen
    included); when none qualifies, the row is scored by naive Bayes with the prior
    (N_c + alpha) / (N + alpha * K) and P(x_j | c) = (N(c, x_j) + alpha) / (N_cj +
    alpha * S_j).  At alpha = 1 this is Weka's weka.classifiers.bayes.AODE -F
    frequency_limit, but computed in log space (the mean over parents a log-sum-exp),
    so that any number of features gives finite, normalised probabilities.

    Parameters: alpha, frequency_limit, features and categories as above (class_weight
    and the decision rules as NaiveBayes'); numeric: inferred numbers are
    "discretized" (Fayyad and Irani's MDL bins, as Weka's supervised Discretize; cut
    when the model is compiled); significant_digits rounds numbers before they are
    counted.  Features may be "categorical", "discretized" or
    "ignore"; other kinds are refused with the fix (declare them "discretized").
    Three more, independent of each other and of the above:

    - estimate="m": Weka's m-estimate (AODE -M, m = -W) in all four probabilities:
      (n + m / v) / (d + m) with the n and d of the formulas above and v their number
      of outcomes (K * S_p for P(c, x_p), S_j for P(x_j | c, x_p) and P(x_j | c), K
      for the prior), i.e. Lidstone's formula with alpha = m / v; alpha has no role
      then.  m >= 0 may be any number (Weka's is an integer).
    - weighting="mutual-information": the weighted AODE of Jiang and Zhang (2006),
      Weka's WAODE: parent p's product has the weight I_p = sum over classes c and
      values v of P(c, v) log2(P(c, v) / (P(c) P(v))) (a term 0 where P(c, v) or P(c)
      P(v) is below 1e-6, as in Weka), the class score sum_p I_p P_p / sum_p I_p over
      the row's qualifying parents.  When those weights are all 0 (every feature
      independent of the class in the counts, one class only, no bins), equal
      weights: plain AODE (where Weka's WAODE answers NaN).  Weka's WAODE takes no
      missing values and counts every row once; here the probabilities of I_p are
      the weighted counts over the rows where feature p is present (sample weights
      honoured), so that it gives an answer wherever AODE does, and Weka's WAODE is
      AODE(weighting="mutual-information", estimate="m", frequency_limit=0) on
      categorical data without missing values and with unit weights.
    - impute=True: Weka's ReplaceMissingValues before everything else: a missing
      categorical value becomes the feature's weighted mode (ties to the first value
      in the declared order, then the seen ones in sorted order), a missing number
      the weighted mean of the present ones (0.0 when they weigh 1e-6 or less),
      counted before the bins are cut; the same replacements fill missing values at
      prediction time.  The statistics still keep only what was seen (exact and
      mergeable): the replaced counts are derived from them when the model is
      compiled.  explain() marks such a feature "used" with its "imputed" value.

    Statistics are exact weighted counts: class and value counts and the pairwise
    counts N(c, x_p, x_j), about K * V^2 / 2 numbers for V distinct values of all
    features together; fit, partial_fit in any batches and merge agree exactly.

    max_memory (megabytes, default 2000) bounds, by estimate, what grows with the
    pairs: a fit, partial_fit or merge whose pairwise counts would pass it (about 100
    bytes a count: 20 million counts) is refused, naming the figure and the fix, and
    so is the first prediction when the compiled tables (about 240 bytes a count: a
    term in each direction) would; compiling takes time and memory linear in the
    counts (features of thousands of values, such as identifiers, keep only the
    terms of the pairs that occur).  It says nothing about the data: models that
    differ only in it merge.

    The watermelon book's numbers (data set 3.0, Laplace smoothing):

    >>> X = [r.split() for r in ("青绿 蜷缩 浊响 清晰 凹陷 硬滑", "乌黑 蜷缩 沉闷 清晰 凹陷 硬滑",
    ...      "乌黑 蜷缩 浊响 清晰 凹陷 硬滑", "青绿 蜷缩 沉闷 清晰 凹陷 硬滑", "浅白 蜷缩 浊响 清晰 凹陷 硬滑",
    ...      "青绿 稍蜷 浊响 清晰 稍凹 软粘", "乌黑 稍蜷 浊响 稍糊 稍凹 软粘", "乌黑 稍蜷 浊响 清晰 稍凹 硬滑",
    ...      "乌黑 稍蜷 沉闷 稍糊 稍凹 硬滑", "青绿 硬挺 清脆 清晰 平坦 软粘", "浅白 硬挺 清脆 模糊 平坦 硬滑",
    ...      "浅白 蜷缩 浊响 模糊 平坦 软粘", "青绿 稍蜷 浊响 稍糊 凹陷 硬滑", "浅白 稍蜷 沉闷 稍糊 凹陷 硬滑",
    ...      "乌黑 稍蜷 浊响 清晰 稍凹 软粘", "浅白 蜷缩 浊响 模糊 平坦 硬滑", "青绿 蜷缩 沉闷 稍糊 稍凹 硬滑")]
    >>> y = ["是"] * 8 + ["否"] * 9
    >>> model = AODE().fit(X, y)
    >>> model.predict_one(X[0])
    '是'
    """

    _statistics_class = _AODEStatistics
    _allowed_kinds = _AODE_KINDS
    _command_name = "aode"
    _parameters = _classifier_parameters(
        "discretized", _AODE_KINDS, without=("prior_alpha", "class_prior"), extra={
            "frequency_limit": _Parameter(1, _finite_at_least_0, (
                _cli_number, "AODE: a parent's value must be seen this many times in "
                "training (default 1; 0: every present value is a parent)")),
            "estimate": _Parameter("laplace", _one_of(*_AODE_ESTIMATES), (
                _AODE_ESTIMATES, "AODE: laplace (alpha smoothing, default) or m (Weka's "
                "m-estimate (n + m/v) / (d + m), AODE -M)")),
            "m": _Parameter(1.0, _finite_at_least_0, (
                _cli_number, "AODE: the weight m of the m-estimate (default 1)")),
            "weighting": _Parameter(None, _aode_weighting_check, (
                _AODE_WEIGHTINGS, "AODE: weigh each super-parent by its mutual "
                "information with the class (Weka's WAODE; default: equal weights)")),
            "impute": _Parameter(False, _aode_impute_check, (
                bool, "AODE: replace missing values by the training mean or mode "
                "before discretization (Weka's ReplaceMissingValues)")),
            "max_memory": _MEMORY_PARAMETER})

    def __init__(self, alpha=1.0, frequency_limit=1, features=None, categories=None,
                 numeric="discretized", significant_digits=None, estimate="laplace",
                 m=1.0, weighting=None, impute=False, max_memory=2000, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.alpha = alpha
        self.frequency_limit = frequency_limit
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.estimate = estimate
        self.m = m
        self.weighting = weighting
        self.impute = impute
        self.max_memory = max_memory
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


def _network_parameters(extra=None):
    """The parameters of the network families: alpha (default 1/2, Weka's), the kinds
    they take and their own (extra)."""
    parameters = {"alpha": _Parameter(0.5, _finite_at_least_0, (
        _cli_number, "smoothing of categorical likelihoods (default 1, Laplace; 0.5 for "
        "--model tan and bayesnet)"))}
    parameters.update(extra or {})
    parameters["max_memory"] = _MEMORY_PARAMETER
    return _classifier_parameters("discretized", _NETWORK_KINDS,
                                  without=("prior_alpha", "class_prior"), extra=parameters)


class TAN(_Classifier):
    """Tree-augmented naive Bayes (Friedman, Geiger and Goldszmidt 1997): every feature
    has the class and at most one other feature as parents, the tree chosen as Weka's
    TAN search chooses it (each ordered pair weighed by its gain in Weka's BAYES score,
    the tree grown greedily from the strongest link, ties to the first pair in column
    order, arcs oriented by Weka's rule), then P(x | parents) = (alpha + w(j, x)) /
    (alpha |X| + w(j)).  Equal to Weka 3.6's weka.classifiers.bayes.BayesNet -Q
    weka.classifiers.bayes.net.search.local.TAN -- -S BAYES -E
    weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A alpha, including what it
    does to the data: numbers cut into MDL bins (Weka's supervised Discretize), then a
    missing value counted as its feature's most frequent bin or value, at fit and at
    prediction.

    Parameters (class_weight and the decision rules as NaiveBayes'): alpha (the
    tables' smoothing; Weka reads -A as a 32-bit float, so pass
    alpha=0.10000000149011612 to reproduce -A 0.1; the search uses 1/2 whatever alpha
    is, as Weka's does), features, categories, numeric and significant_digits as
    AODE's.  Features may be "categorical", "discretized" or "ignore".  The columns'
    order is the nodes' order, which breaks ties as Weka's attribute order does; the
    order of the classes declared to partial_fit(classes=...) (an ARFF file's) is the
    class node's.

    Statistics: class counts, each feature's counts or record of values, and every
    distinct row's weight and number of rows, exact; merge and partial_fit give the
    counts of one fit, and the structure is searched again from them when the model
    is next used.  The search, the bins and the tables weigh rows alike, a weight of
    2 being the row twice (scikit-learn's meaning; Weka's search counts rows whatever
    their weights, which is the same with unit weights, Weka's own data); a class the
    training data never saw keeps alpha-only counts.

    Memory and time: the statistics hold one entry per distinct row; compiling
    searches the structure (time: the pairs of nodes times the rows) and builds each
    node's table, kept whole up to 65,536 cells and beyond that as the cells that
    occur (the same numbers: features of thousands of values, such as identifiers,
    cost what occurs, not the product of their sizes).  max_memory (megabytes,
    default 2000) bounds both by estimate (about 200 bytes and 8 per feature a
    distinct row, three times that compiled): beyond it the fit or the first
    prediction is refused, naming the figure and the fix.

    >>> X = [["sunny", "hot"], ["sunny", "hot"], ["rain", "mild"], ["rain", "cool"],
    ...      ["overcast", "cool"], ["sunny", "mild"], ["rain", "mild"], ["overcast", "hot"]]
    >>> model = TAN().fit(X, ["no", "no", "yes", "no", "yes", "no", "yes", "yes"])
    >>> model.summary()["parents"]        # None: the class; 1 is the root of the tree
    {0: [None, 1], 1: [None], None: []}
    >>> model.predict_one(["overcast", "mild"])
    'yes'
    """

    _statistics_class = _NetworkStatistics
    _allowed_kinds = _NETWORK_KINDS
    _command_name = "tan"
    _parameters = _network_parameters()

    def __init__(self, alpha=0.5, features=None, categories=None, numeric="discretized",
                 significant_digits=None, max_memory=2000, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.alpha = alpha
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.max_memory = max_memory
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


class BayesNet(_Classifier):
    """A Bayesian network classifier whose structure Weka's HillClimber search finds:
    from naive Bayes, the best arc addition or deletion by Weka's BAYES score, again
    and again while the score improves, at most max_parents parents per node (the class
    counted; the class itself may get parents, and a feature may lose the class), no
    cycle, no arc reversal (Weka's default); then P(x | parents) = (alpha + w(j, x)) /
    (alpha |X| + w(j)).  Equal to Weka 3.6's weka.classifiers.bayes.BayesNet -Q
    weka.classifiers.bayes.net.search.local.HillClimber -- -P max_parents -S BAYES -E
    weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A alpha, with its treatment
    of numbers and missing values (see TAN, whose parameters, statistics and policies
    it shares).

    >>> X = [["a", "x"], ["a", "x"], ["b", "y"], ["b", "y"], ["a", "y"], ["b", "x"]]
    >>> model = BayesNet(max_parents=2).fit(X, [1, 1, 0, 0, 1, 0])
    >>> sorted(model.predict_proba_one(["a", "x"]).items())[1][1] > 0.5
    True
    """

    _statistics_class = _NetworkStatistics
    _allowed_kinds = _NETWORK_KINDS
    _command_name = "bayesnet"
    _parameters = _network_parameters({
        "max_parents": _Parameter(2, _integer_at_least(1), (
            int, "bayesnet: at most this many parents per node, the class counted "
            "(default 2)"))})

    def __init__(self, max_parents=2, alpha=0.5, features=None, categories=None,
                 numeric="discretized", significant_digits=None, max_memory=2000,
                 class_weight=None, thresholds=None, costs=None, reject_below=None,
                 reject_label="unsure"):
        self.max_parents = max_parents
        self.alpha = alpha
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.max_memory = max_memory
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


# AutoBayes' possible members: (classifier, its own settings); the shared ones
# (features, categories, numeric, significant_digits) are AutoBayes'.
_AUTO_MEMBERS = {
    "waode": (AODE, {"weighting": "mutual-information", "estimate": "m", "frequency_limit": 0,
                     "impute": True}),
    "aode": (AODE, {"estimate": "m", "impute": True}),
    "bayesnet": (BayesNet, {"max_parents": 2}),
    "bayesnet3": (BayesNet, {"max_parents": 3}),
    "tan": (TAN, {}),
    "naive": (NaiveBayes, {"numeric": "discretized"}),
    "weighted": (NaiveBayes, {"numeric": "discretized"}),
}


_AUTO_WORK = 20000000     # rows x features^2 / 2 of AutoBayes' internal cross-validation


def _auto_sample(width):
    """The most rows AutoBayes cross-validates its members on to choose their weights:
    5,000, fewer for wide data so that the pairs of values its members count stay
    about _AUTO_WORK (2,366 rows of 130 features), never fewer than 1,000."""
    return max(1000, min(5000, _AUTO_WORK * 2 // max(1, width * width)))


def _aode_statistics_of_rows(rows, impute):
    """(AODE's statistics, the replacements of missing values or None) of the rows a
    network's statistics keep, as AODE would have counted them, but for numbers:
    each number is counted as the smallest value of its MDL bin (the bins cut as
    AODE cuts them, after the imputation with impute=True), so that the pairwise
    counts hold pairs of bins rather than of raw values.  AODE's compiled model reads
    every number through its bin, so it compiles to the same model: the same counts
    per pair of keys, exactly, in memory that grows with the bins, not the values.
    With impute=True the missing values are first replaced as Weka's
    ReplaceMissingValues replaces them (see _AODEStatistics.imputed), row by row."""
    aode = _AODEStatistics()
    aode.class_count = dict(rows.class_count)
    aode.layout = rows.layout
    aode.features = {name: feature.copy() for name, feature in rows.features.items()}
    replacements = None
    if impute:
        replacements = aode.impute_values()[1] if aode.lacks_values() else \
            aode._replacements()
    classes = aode.classes()
    names = aode.names()
    readers = []                          # per feature: None (the value), bins, or False
    for name in names:
        feature = aode.features[name]
        if feature.name == "categorical":
            readers.append(None)
        elif feature.name == "discretized":
            values, columns = feature.stats.weight_columns(classes)
            cuts = _mdl_cut_points(values, columns) if values else []
            smallest = {}
            for value in values:          # in increasing order
                smallest.setdefault(bisect_left(cuts, value), value)
            readers.append((cuts, smallest))
        else:
            readers.append(False)
    get_id = aode.pair_counts.ids.__getitem__
    used = [(j, reader) for j, reader in enumerate(readers) if reader is not False]
    for label, counted in rows.row_counts.rows.items():
        id_rows, weights = [], []
        for row, (weight, _) in counted.items():
            if not weight:
                continue
            ids = []
            for j, reader in used:
                value = row[j] if j < len(row) else None
                if value is None:
                    if replacements is None or replacements[j] is None:
                        continue
                    value = replacements[j]
                if reader is not None:
                    cuts, smallest = reader
                    value = smallest[bisect_left(cuts, value)]
                ids.append(get_id((j, value)))
            ids.sort()
            id_rows.append(ids)
            weights.append(weight)
        if id_rows:
            aode.pair_counts.add_ids(label, id_rows, weights)
    return aode, replacements


def _member_model(statistics, name, params, shared):
    """AutoBayes' member ``name`` compiled from its statistics (a _MixtureStatistics):
    a network or naive Bayes from the rows that the network statistics keep, AODE
    from the pairwise counts of their bins (_aode_statistics_of_rows; ``shared``
    keeps them for the next AODE member of the same statistics).  A model file that
    kept AODE's own counts compiles its AODE members from them."""
    cls, member_params = _member_parameters(name, params)
    part = statistics.parts.get(cls.__name__)
    if part is not None:
        return part.compile(member_params)
    rows = next((part for part in statistics.parts.values()
                 if isinstance(part, _NetworkStatistics)), None)
    if rows is None:
        raise NaiveBayesError("AutoBayes: member %r needs statistics this model did not "
                              "keep; fit it again" % name)
    if cls._statistics_class is _NetworkStatistics:
        return rows.compile(member_params)
    if name == "weighted":
        return _WeightedNaiveModel(rows, member_params)
    if cls._statistics_class is _NaiveStatistics:
        return _NaiveStatistics.compile(rows, member_params)
    impute = bool(member_params.get("impute"))
    found = shared.get(impute)
    if found is None:
        found = shared[impute] = _aode_statistics_of_rows(rows, impute)
    aode, replacements = found
    compiled = _AODEModel(aode, dict(member_params, impute=False))
    compiled.replacements = replacements
    return compiled


def _check_members(value):
    """The check of members=: a non-empty list of distinct names of AutoBayes' members."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value or \
            len(set(value)) != len(value) or any(name not in _AUTO_MEMBERS for name in value):
        return "a non-empty list of distinct names among %s" % ", ".join(
            map(repr, _AUTO_MEMBERS))
    return None


def _check_mixture_weights(value):
    """The check of weights=: "cv", "uniform" or {member: weight >= 0}, some positive."""
    if value in ("cv", "uniform"):
        return None
    if isinstance(value, Mapping) and value and all(
            isinstance(name, str) and _number(w) is not None and isfinite(_number(w)) and
            _number(w) >= 0 for name, w in value.items()) and \
            sum(map(_number, value.values())) > 0:
        return None
    return '"cv", "uniform" or a {member: weight >= 0} dict with a positive weight'


def _member_parameters(name, params):
    """(class, parameters) of one AutoBayes member: its own settings (_AUTO_MEMBERS) and
    AutoBayes' shared ones (features, categories, numeric, significant_digits)."""
    cls, own = _AUTO_MEMBERS[name]
    member = cls().get_params()
    member.update(own)
    for shared in ("features", "categories", "numeric", "significant_digits", "max_memory"):
        if shared in cls._parameters:
            member[shared] = params[shared]
    return cls, member


class AutoBayes(_Classifier):
    """The setting to use when you do not want to choose: a mixture of the family's
    best models, weighted by what the training data says.

    P(c | x) = sum over members m of w_m P_m(c | x).  The members (members=) are, by
    default, WAODE (AODE with mutual-information weights, m-estimates and no frequency
    limit) and AODE with m-estimates, both on missing values imputed as Weka's
    ReplaceMissingValues imputes them, a Bayesian network found by hill climbing with
    at most 2 parents per node, and "weighted": naive Bayes with one weight w_j >= 0
    per feature, P(c | x) ~ P(c) prod_j P(x_j | c)^(w_j), the weights maximising the
    rows' conditional log-likelihood less (1/2) sum_j w_j^2 (WANBIA: Zaidi,
    Cerquides, Carman and Webb 2013), so that features repeating one another share
    the evidence they would count twice and features that do not help fade
    (summary()["feature weights"] when it leads the mixture); numbers are cut into
    MDL bins.  fit chooses the
    weights (weights="cv"): each member's probabilities of the true class of every row
    in an internal stratified cross-validation (folds=, seeded, on the rows in a
    canonical order, so that their order does not matter; on a stratified sample of
    5,000 rows when there are more, fewer for wide data: 2,366 rows of 130 features),
    then the weights maximising their mixture's log-likelihood, with a prior of 2
    pseudo-rows per member (EM), and one temperature T (between 1/4 and 4, with a
    prior of 2 pseudo-rows on log T pulling it towards 1) by which the mixture's
    probabilities are tempered, P(c | x)^(1/T) normalised, where the same
    out-of-fold rows say the mixture is over- or under-confident (it never changes
    which class is the most probable); then every member is fitted on all the rows.
    summary()["choice"] says what it chose and why, explain() each member's weight.

    Other members: "tan" (TAN), "bayesnet3" (at most 3 parents), "naive" (naive Bayes
    on MDL bins).  weights="uniform" or {member: weight} fixes the weights instead.
    class_weight weighs the rows once, from all of fit's rows, for the members and the
    internal cross-validation alike; the decision rules are NaiveBayes'.

    Statistics: the class and value counts and every distinct row's weight, exact,
    as a Bayesian network keeps them; every member compiles from them, the AODE
    members from the pairwise counts of their bins, which give exactly the model
    of AODE fitted on the same rows (memory linear in the rows and features, where
    AODE's own pairwise counts of raw numbers grow with the square of the features).
    fit keeps the rows in memory while it cross-validates (it reads X once, into a
    list).  partial_fit and merge update the statistics exactly and keep the weights
    chosen at fit (a merge averages two models' weights by their numbers of rows);
    fit again to choose them from all the rows.

    >>> X = [["sunny", "hot"], ["sunny", "hot"], ["rain", "mild"], ["rain", "cool"],
    ...      ["overcast", "cool"], ["sunny", "mild"], ["rain", "mild"], ["overcast", "hot"]]
    >>> model = AutoBayes().fit(X, ["no", "no", "yes", "no", "yes", "no", "yes", "yes"])
    >>> model.predict_one(["overcast", "mild"])
    'yes'
    >>> [name for name, *_ in model.summary()["members"]]
    ['waode', 'aode', 'bayesnet', 'weighted']
    """

    _statistics_class = _MixtureStatistics
    _allowed_kinds = _NETWORK_KINDS
    # numbers are binned whatever kind they are declared (read_csv's kinds say
    # gaussian): AutoBayes' members condition on bins
    _kind_map = {"gaussian": "discretized", "kde": "discretized", "poisson": "discretized"}
    # a merge averages the weights that a fit chooses by cross-validation
    _merge_is_fit = False
    _command_name = "auto"
    _parameters = _classifier_parameters(
        "discretized", _NETWORK_KINDS, without=("alpha", "prior_alpha", "class_prior"),
        extra={"members": _Parameter(("waode", "aode", "bayesnet", "weighted"),
                                     _check_members),
               "weights": _Parameter("cv", _check_mixture_weights),
               "folds": _Parameter(5, _integer_at_least(2)),
               "max_memory": _MEMORY_PARAMETER})

    def __init__(self, members=("waode", "aode", "bayesnet", "weighted"), weights="cv",
                 folds=5, features=None, categories=None, numeric="discretized",
                 significant_digits=None, max_memory=2000, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.members = members
        self.weights = weights
        self.folds = folds
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.max_memory = max_memory
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()

    def _new_statistics(self):
        """Empty statistics: the rows, as a Bayesian network keeps them, from which
        every member compiles (see _member_model)."""
        return _MixtureStatistics(("BayesNet",))

    def fit(self, X, y, sample_weight=None):
        """Fit every member on all the rows and, with weights="cv", choose the
        mixture's weights by cross-validation (see the class docstring).

        >>> model = AutoBayes(folds=2).fit([["a"], ["a"], ["b"], ["b"]] * 3, [0, 0, 1, 1] * 3)
        >>> model.predict([["a"], ["b"]])
        [0, 1]
        """
        return self._fit_rows(X, y, sample_weight)

    def _fit_rows(self, X, y, sample_weight=None, classes=None):
        """fit, with the classes declared in their order (an ARFF file's, for the
        command line, which reads the whole file for AutoBayes: its weights are
        chosen from every row)."""
        _check_params(self._parameters, self.get_params(), "fit()")
        X = _rows_of(X, "fit()")
        X = list(_iterate(X, "X", "an iterable of rows", "fit()"))
        y = _labels_of(y, "fit()")
        y = list(_iterate(y, "y", "an iterable of labels", "fit()"))
        if sample_weight is not None:
            if _as_numpy(sample_weight, "sample_weight", "fit()") is not None:
                sample_weight = _as_numpy(sample_weight, "sample_weight", "fit()").tolist()
            sample_weight = list(_iterate(sample_weight, "sample_weight",
                                          "an iterable of numbers", "fit()"))
        class_weight = self.class_weight  # once, from all the rows: the folds share it
        if class_weight is not None and (sample_weight is None or
                                         len(sample_weight) == len(y)):
            if class_weight == "balanced":
                class_weight = _balanced_class_weight(y, sample_weight, "fit()")
            class_weight = {label: _number(w) for label, w in class_weight.items()}
            sample_weight = _class_weighted(y, sample_weight, class_weight, 0, "fit()")
        statistics = self._learn(X, y, sample_weight, self._new_statistics(), "fit()",
                                 classes=classes, class_weighted=True)
        if self.weights == "cv":
            self._choose_weights(statistics, X, y, sample_weight)
        with self._state.lock:
            self._state.statistics = statistics
            self._state.compiled = None
            self._state.target = _label_name(y, self._state.target)
            self._state.numpy_labels = False
        return self

    def _choose_weights(self, statistics, X, y, sample_weight, limit=5000):
        """statistics.weights and .evaluation from an internal cross-validation: the
        folds' statistics counted once each, each training set their merge.  The rows
        are first put in a canonical order (by label, values and weight), so that the
        folds, hence the weights, depend on the rows and not on the order they came
        in: the same rows in any order give the same model file.  Beyond
        _auto_sample(width) rows the cross-validation runs on a stratified sample of
        that many (three weights need no more; the members themselves are fitted on
        every row)."""
        folds = min(self.folds, len(X))
        if folds < 2 or len(statistics.class_count) < 2:
            return
        order = sorted(range(len(X)), key=lambda i: (
            _canonical_value(y[i]), _canonical_row(X[i]),
            _canonical_value(1 if sample_weight is None else sample_weight[i])))
        sample = _auto_sample(len(statistics.names()))
        if len(order) > sample:
            kept = _stratified_sample([y[i] for i in order], sample, 0)
            order = [order[n] for n in kept]
        X = [X[i] for i in order]
        y = [y[i] for i in order]
        if sample_weight is not None:
            sample_weight = [sample_weight[i] for i in order]
        folds = min(folds, len(X))
        fold_of = _stratified_folds(y, folds, 0)
        # every fold counts each feature as the whole fit does (a column of numbers
        # and a few words is categorical, even in a fold without the words)
        declared = type(self)(**dict(self.get_params(), features=statistics.kinds()))
        parts = []
        for fold in range(folds):
            members = [i for i, f in enumerate(fold_of) if f == fold]
            part = None               # (a fold of rows weighing 0 counts nothing)
            if members and (sample_weight is None or any(sample_weight[i] for i in members)):
                part = declared._learn([X[i] for i in members], [y[i] for i in members],
                                       None if sample_weight is None else
                                       [sample_weight[i] for i in members],
                                       declared._new_statistics(), "fit()",
                                       check_names=False, class_weighted=True)
            parts.append((members, part))
        stride = max(1, -(-len(X) // limit))          # score at most about limit rows
        params = self.get_params()
        names = list(self.members)
        classes = statistics.classes()
        likelihoods = [[] for _ in names]
        hits = [[] for _ in names]
        probabilities = [[] for _ in names]
        scored = []
        for fold, (members, _) in enumerate(parts):
            _progress("choosing the weights, fold", fold + 1, folds)
            held_out = [i for i in members if i % stride == 0 and (
                sample_weight is None or sample_weight[i])]     # weight 0: nothing to score
            training = None
            for other, (_, part) in enumerate(parts):
                if other != fold and part is not None:
                    training = part.copy() if training is None else training.absorb(part)
            if not held_out or training is None:
                continue
            scored.extend(held_out)
            shared = {}
            for m, name in enumerate(names):
                try:
                    compiled = _member_model(training, name, params, shared)
                except _OverBudget as error:
                    raise NaiveBayesError("fit(): %s" % error, call="fit()") from None
                rows = [compiled.positional(X[i]) for i in held_out]
                for i, joint in zip(held_out, compiled.joints(rows)):
                    posterior = dict(zip(compiled.classes, _posterior(joint)))
                    full = [posterior.get(c, 0.0) for c in classes]
                    probabilities[m].append(full)
                    truth = posterior.get(y[i], 0.0)
                    likelihoods[m].append(max(truth, 1e-300))
                    hits[m].append(max(range(len(full)), key=full.__getitem__) ==
                                   classes.index(y[i]) if y[i] in classes else False)
        _progress("choosing the weights, fold")
        if not scored:
            return
        row_weights = [1.0 if sample_weight is None else float(sample_weight[i])
                       for i in scored]
        total = sum(row_weights) or 1.0
        weights = _em_weights(likelihoods, row_weights, prior=2.0)
        statistics.weights = dict(zip(names, weights))

        def scores(columns, correct):
            loss = -sum(v * log(max(p, 1e-15)) for v, p in zip(row_weights, columns))
            return [loss / total, sum(v for v, hit in zip(row_weights, correct) if hit)
                    / total, len(scored)]
        statistics.evaluation = {name: scores(likelihoods[m], hits[m])
                                 for m, name in enumerate(names)}
        mixed = [[sum(w * probabilities[m][n][c] for m, w in enumerate(weights))
                  for c in range(len(classes))] for n in range(len(scored))]
        truth = [classes.index(y[i]) for i in scored]
        statistics.temperature = _temperature(mixed, truth, row_weights)
        mixed = [_posterior([_log(p) / statistics.temperature for p in row])
                 for row in mixed]
        statistics.evaluation["mixture"] = scores(
            [row[t] for row, t in zip(mixed, truth)],
            [max(range(len(row)), key=row.__getitem__) == t for row, t in zip(mixed, truth)])


# The registry of classifiers: what a model file's "model" field names; those with a
# _command_name are the command line's --model choices.
_MODELS = {cls.__name__: cls for cls in (NaiveBayes, CategoricalNB, GaussianNB, AODE, TAN,
                                         BayesNet, AutoBayes)}
_CLI_MODELS = {cls._command_name: cls for cls in _MODELS.values() if cls._command_name}


# ----------------------------------------------------------------------------------
# The model file: versioned JSON of counts and sums
#
# Counts and sums, not probabilities, so that parameters can change after loading and
# models can be merged and updated.  One top-level field per line and one item of a
# list per line, so that a file is read item by item; written atomically.
# ----------------------------------------------------------------------------------


def _model_to_dict(model, statistics):
    params = model.get_params()
    encoded = {}
    for name, value in params.items():
        if name in _DECISION_PARAMETERS:
            if value is not _DECISION_PARAMETERS[name].default and \
                    value != _DECISION_PARAMETERS[name].default:
                _check_domains({name: _DECISION_PARAMETERS[name]}, params, "to_dict()")
                encoded[name] = _encode_decision(name, value)
        elif name == "class_prior":
            encoded[name] = value if value is None or isinstance(value, str) else [
                [_encode(label, "class_prior label"), float(p)] for label, p in value.items()]
        elif name == "features":
            encoded[name] = _encode_by_name(value, lambda kind: kind, "features")
        elif name == "categories":
            encoded[name] = _encode_by_name(
                value, lambda values: None if values is None else
                [_encode(v, "a declared category") for v in values], "categories")
        elif name == "tokenizer":
            encoded[name] = None if value is None else "custom"
        elif name == "members":           # AutoBayes: a list of names
            encoded[name] = list(value)
        elif name == "weights" and isinstance(value, Mapping):
            encoded[name] = [[member, float(w)] for member, w in value.items()]
        elif name == "ngram_range":
            encoded[name] = list(value)
        elif name == "stop_words" and value is not None and not isinstance(value, str):
            words = sorted(value) if isinstance(value, (set, frozenset)) else value
            encoded[name] = [_encode(word, "a stop word") for word in words]
        elif _number(value) is not None and type(value) is not int:
            encoded[name] = float(value)
        else:
            encoded[name] = value
    data = {"format": FORMAT, "format_version": FORMAT_VERSION,
            "model": _model_name(type(model)), "params": encoded,
            "target": None if model.target_ is None else _encode(str(model.target_), "target"),
            "rows": None, "classes": [], "class_count": []}
    if statistics is None:
        data.update({field: [] for field in _statistics_fields(type(model))})
        return data
    data["rows"] = statistics.layout
    classes = statistics.classes()
    data["classes"] = [_encode(c, "a class label") for c in classes]
    data["class_count"] = [_exact_text(statistics.class_count[c]) for c in classes]
    data.update(statistics.to_file(classes))
    return data


def _encode_decision(name, value):
    """A class weight or decision parameter as the model file holds it: a mapping as
    [[label, number], ...] (costs: [[true label, [[predicted label, cost], ...]], ...]),
    labels encoded as labels are; only written when it is not the default."""
    if name == "reject_label":
        return _encode(value, "reject_label")
    if name == "costs":
        return [[_encode(truth, "a costs label"), _encode_decision("thresholds", row)]
                for truth, row in value.items()]
    if isinstance(value, Mapping):
        return [[_encode(label, "a %s label" % name), _file_number(number)]
                for label, number in value.items()]
    return value if isinstance(value, str) else _file_number(value)


def _file_number(number):
    """A parameter's number for the file: an int as it is, any other real as a float."""
    return number if type(number) is int else float(_number(number))


def _statistics_fields(cls):
    """The model-file fields that a classifier's family writes."""
    return cls._statistics_class.file_fields


def _encode_by_name(value, encode, what):
    """features= and categories=: a list by position, or {"by_name": [[name, x]]}."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {"by_name": [[_encode(name, "a %s name" % what), encode(x)]
                            for name, x in value.items()]}
    return [encode(x) for x in value]


def _model_name(cls):
    """The model file's name for a classifier class (a user's subclass is saved as
    the library class it derives from)."""
    for known in cls.__mro__:
        if _MODELS.get(known.__name__) is known:
            return known.__name__
    return "NaiveBayes"


def _json_text(data):
    """JSON text of a model: one top-level field per line, one feature per line.
    Non-ASCII text is written as it is, unless it holds lone surrogates (which UTF-8
    cannot encode, and os.fsdecode makes): then every non-ASCII character is escaped."""
    text = _json_lines(data, False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _json_lines(data, True)
    return text


def _json_lines(data, ascii):
    import json

    def dump(value):
        return json.dumps(value, ensure_ascii=ascii, allow_nan=False)
    lines = ["{"]
    lists = [key for key in data if type(data[key]) is list and key not in
             ("classes", "class_count")]
    for key in data:
        if key not in lists:
            lines.append(" %s: %s," % (dump(key), dump(data[key])))
    for n, key in enumerate(lists):
        items = [dump(item) for item in data[key]]
        lines.append(" %s: [%s" % (dump(key), "" if items else "]"))
        for i, item in enumerate(items):
            lines.append("  " + item + ("," if i < len(items) - 1 else ""))
        if items:
            lines.append(" ]")
        if n < len(lists) - 1:
            lines[-1] += ","
    if not lists:
        lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _checked_path(path, call):
    """A path for open(): str, bytes or os.PathLike, without NUL characters."""
    import os
    try:
        path = os.fspath(path)
    except TypeError:
        raise NaiveBayesError("%s: path is %s; expected a file name (str, bytes or "
                              "os.PathLike)" % (call, _describe(path)), call=call,
                              argument="path") from None
    if ("\0" if isinstance(path, str) else b"\0") in path:
        raise NaiveBayesError("%s: path %s holds a NUL character; expected a file name"
                              % (call, _shown(path)), call=call, argument="path")
    if not path:
        raise NaiveBayesError("%s: path is empty; expected a file name" % call, call=call,
                              argument="path")
    return path


def _path_text(path):
    """A path as text for messages."""
    import os
    return os.fsdecode(path) if isinstance(path, bytes) else path


class _AtomicFile:
    """A file written through a temporary file in the same folder and renamed over
    the target on commit, so that the target is never half-written.  The temporary
    file is created with mode 0666 less the umask (the kernel applies it); on
    commit it takes the mode of the file it replaces, if any."""

    def __init__(self, path, call, binary=False):
        import os
        self.path = path
        self.call = call
        self.folder = os.path.dirname(os.path.abspath(path))
        name = ".nb-%s.tmp" % os.urandom(6).hex()      # short: any legal name fits
        self.temporary = os.path.join(self.folder, os.fsencode(name)
                                      if isinstance(path, bytes) else name)
        try:
            handle = os.open(self.temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                             getattr(os, "O_BINARY", 0), 0o666)
        except OSError as error:
            raise self._error(error) from None
        self.stream = os.fdopen(handle, "wb" if binary else "w",
                                **({} if binary else {"encoding": "utf-8", "newline": ""}))

    def _error(self, error):
        """(call None: the command line, which names the command itself)"""
        return NaiveBayesError("%scannot write %s: %s" % (
            "" if self.call is None else self.call + ": ", _path_text(self.path),
            error.strerror or error), call=self.call)

    def commit(self):
        """Flush, sync and rename over the target; NaiveBayesError if that fails."""
        import os
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            try:
                os.chmod(self.temporary, os.stat(self.path).st_mode & 0o7777)
            except FileNotFoundError:
                pass
            os.replace(self.temporary, self.path)
        except BaseException as error:
            self.discard()
            if isinstance(error, OSError):
                raise self._error(error) from None
            raise

    def discard(self):
        """Close and remove the temporary file."""
        import os
        try:
            self.stream.close()
        except OSError:
            pass
        try:
            os.unlink(self.temporary)
        except OSError:
            pass


def _write_atomically(path, text, call):
    """Write text to path atomically (see _AtomicFile)."""
    target = _AtomicFile(path, call)
    try:
        target.stream.write(text)
    except BaseException as error:
        target.discard()
        if isinstance(error, OSError):
            raise target._error(error) from None
        raise
    target.commit()


def _load_file(cls, path, call):
    """The model in a file; every failure one NaiveBayesError.

    A file in the layout save() writes (one field per line, one list item per line)
    is read in two passes: the first notes where each list starts, the second hands
    the lists' items to the model one parsed line at a time, so that memory holds the
    model and one item's JSON, never the whole file's.  Any other JSON is parsed
    whole.
    """
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise NaiveBayesError("%s: cannot read the file: %s"
                              % (call, error.strerror or error), call=call) from None
    try:
        with stream:
            data = _read_layout(stream, call)
            if data is None:
                stream.seek(0)
                data = _parse_json(stream.read(), call)
            return _model_from_dict(cls, data, call)
    except OSError as error:
        raise NaiveBayesError("%s: cannot read the file: %s"
                              % (call, error.strerror or error), call=call) from None


def _read_layout(stream, call):
    """The fields of a file in save()'s layout, its lists as _LazyItems; None for any
    other layout (the caller then parses the file whole)."""
    if stream.readline().lstrip(b"\xef\xbb\xbf").strip() != b"{":
        return None
    data = {}
    for line in iter(stream.readline, b""):
        text = line.strip()
        if text == b"}":
            return data if not stream.read(64).strip() else None
        key, colon, value = text.partition(b": ")
        if not (colon and key.startswith(b'"') and key.endswith(b'"')):
            return None
        key = _parse_json(key, call)
        if value == b"[":                 # a list: one item per line, up to "]"
            data[key] = _LazyItems(stream, stream.tell(), call)
            for item in iter(stream.readline, b""):
                if item.strip() in _LIST_ENDS:
                    break
            else:
                return None
        else:
            data[key] = _parse_json(value[:-1] if value.endswith(b",") else value, call)
    return None


def _model_from_dict(cls, data, call):
    try:
        return _build_model(cls, data)
    except _Invalid as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None
    except RecursionError:
        raise NaiveBayesError("%s: nested too deeply to be a model file" % call,
                              call=call) from None


_HEADER_FIELDS = ("format", "format_version", "model", "params", "target", "rows",
                  "classes", "class_count")


def _build_model(cls, data):
    _expect(type(data) is dict, "the model", data, "a JSON object")
    _expect(_field(data, "format") == FORMAT, "format", data["format"], repr(FORMAT))
    version = _field(data, "format_version")
    _expect(type(version) is int and version >= 1, "format_version", version,
            "a positive integer")
    if version > FORMAT_VERSION:
        raise _Invalid("format_version is %d, written by a newer naive_bayes.py; this one "
                       "reads format_version %d" % (version, FORMAT_VERSION))
    name = _field(data, "model")
    stored = _MODELS.get(name) if type(name) is str else None
    _expect(stored is not None, "model", name, " or ".join(map(repr, _MODELS)))
    fields = _HEADER_FIELDS + _statistics_fields(stored)
    for key in data:
        if key not in fields:
            raise _Invalid("the model has an unknown field %r; expected only %s"
                           % (key, ", ".join(fields)))
    if issubclass(stored, cls) or cls is NaiveBayes:
        target_class = stored             # NaiveBayes.load reads any model file
    elif issubclass(cls, stored) and cls.__module__ != __name__:
        target_class = cls                # a user's subclass of the stored class
    else:
        raise _Invalid("the file holds %s %s, not %s %s (NaiveBayes.load reads any model "
                       "file)" % (_article(name), name, _article(cls.__name__),
                                  cls.__name__))
    params = _decode_params(_field(data, "params"), target_class._parameters)
    model = target_class(**params)
    try:
        _check_params(target_class._parameters, params, "params")
    except NaiveBayesError as error:
        raise _Invalid(str(error)) from None
    target = _field(data, "target")
    if type(target) is dict:
        target = _decode(target, "target")
    _expect(target is None or type(target) is str, "target", target, "a string or null")
    model._state.target = target
    classes = _decode_list(_field(data, "classes"), "classes")
    class_count = _field(data, "class_count")
    _expect(type(class_count) is list and len(class_count) == len(classes), "class_count",
            class_count, "a list of %d counts, one per class" % len(classes))
    layout = _field(data, "rows")
    _expect(layout in (None, "sequence", "mapping"), "rows", layout,
            '"sequence", "mapping" or null')
    counts = {}
    for i, label in enumerate(classes):
        _expect(_hashable(label) and not _is_missing(label), "classes[%d]" % i, label,
                "a label")
        if label in counts:
            raise _Invalid("classes[%d] is %s again; expected distinct labels"
                           % (i, _shown(label)))
        counts[label] = _decode_exact(class_count[i], "class_count[%d]" % i)
    if classes and not any(counts.values()):
        raise _Invalid("class_count is all 0; expected a positive total")
    statistics = stored._statistics_class.from_file(data, classes, counts)
    if not classes:
        return model
    statistics.layout = layout
    statistics.class_count = counts
    try:
        _check_class_prior(params.get("class_prior"), counts, "params")
        model._decision(statistics.classes(), "params")
    except NaiveBayesError as error:
        raise _Invalid(str(error)) from None
    _check_kinds_file(model, statistics)
    model._state.statistics = statistics
    return model


def _check_kinds_file(model, statistics):
    """The stored kinds must be what the model class and params would have made."""
    fixed = model._default_kind
    declared, categories = _declarations(model.get_params())
    declared = {name: (model._kind_map or {}).get(kind, kind) for name, kind in
                declared.items()}
    for name, stats in statistics.features.items():
        if stats.name is None:
            continue
        if model._allowed_kinds is not None and stats.name not in model._allowed_kinds:
            raise _Invalid("feature %r is %s, which a %s cannot hold"
                           % (name, stats.name, type(model).__name__))
        if name in declared and declared[name] != stats.name:
            raise _Invalid("params.features declares %r %s, but the file holds it as %s"
                           % (name, declared[name], stats.name))
        if fixed and name not in declared and stats.name != fixed:
            raise _Invalid("feature %r is %s, but a %s holds only %s features"
                           % (name, stats.name, type(model).__name__, fixed))
        if name in categories and list(dict.fromkeys(categories[name])) != \
                list(getattr(stats.stats, "declared", ())):
            raise _Invalid("params.categories for %r differs from the feature's declared "
                           "values" % (name,))


def _decode_params(params, parameters):
    _expect(type(params) is dict, "params", params, "a JSON object")
    unknown = [name for name in params if name not in parameters]
    if unknown:
        raise _Invalid("params has unknown field %r; expected only %s"
                       % (unknown[0], ", ".join(parameters)))
    decoded = {}
    for name, parameter in parameters.items():
        if name not in params:            # written before the parameter existed
            decoded[name] = parameter.default
            continue
        value = params[name]
        where = "params." + name
        if name in _DECISION_PARAMETERS:
            value = _decode_decision(name, value, where)
        elif name == "class_prior" and type(value) is list:
            pairs = {}
            for i, pair in enumerate(value):
                _expect(type(pair) is list and len(pair) == 2, "%s[%d]" % (where, i), pair,
                        "[label, probability]")
                label = _decode(pair[0], "%s[%d][0]" % (where, i))
                _expect(_hashable(label), "%s[%d][0]" % (where, i), label, "a label")
                pairs[label] = pair[1]
            value = pairs
        elif name == "features" and value is not None:
            value = _decode_by_name(value, where, lambda kind, here: kind)
        elif name == "categories" and value is not None:
            value = _decode_by_name(value, where, lambda values, here: None
                                    if values is None else _decode_list(values, here))
        elif name == "tokenizer":
            _expect(value in (None, "custom"), where, value, 'null or "custom"')
            value = None if value is None else _UNSAVED_TOKENIZER
        elif name == "members":
            _expect(type(value) is list and _STR.issuperset(map(type, value)), where, value,
                    "a list of member names")
            value = tuple(value)
        elif name == "weights" and type(value) is list:
            _expect(all(type(p) is list and len(p) == 2 and type(p[0]) is str and
                        type(p[1]) in (int, float) for p in value), where, value,
                    "[[member, weight], ...]")
            value = {member: weight for member, weight in value}
        elif name == "ngram_range":
            _expect(type(value) is list and len(value) == 2, where, value, "[min_n, max_n]")
            value = tuple(value)
        elif name == "stop_words" and type(value) is list:
            value = _decode_list(value, where)
        elif type(value) not in (int, float, str, bool, type(None)):
            raise _Invalid("%s is %s; expected a number, a string, true, false or null"
                           % (where, _describe(value)))
        decoded[name] = value
    return decoded


def _decode_decision(name, value, where):
    """A class weight or decision parameter from the file (see _encode_decision); its
    values are checked as parameters after."""
    if name == "reject_label":
        return _decode(value, where)
    if type(value) is not list:
        _expect(value is None or type(value) in (int, float, str), where, value,
                "a list of [label, number] pairs, a number, a string or null")
        return value
    pairs = {}
    for i, pair in enumerate(value):
        here = "%s[%d]" % (where, i)
        _expect(type(pair) is list and len(pair) == 2, here, pair,
                "[label, %s]" % ("[[label, cost], ...]" if name == "costs" else "number"))
        label = _decode(pair[0], here + "[0]")
        _expect(_hashable(label), here + "[0]", label, "a label")
        if label in pairs:
            raise _Invalid("%s[0] is %s again; expected distinct labels" % (here, _shown(label)))
        if name == "costs":
            _expect(type(pair[1]) is list, here + "[1]", pair[1], "[[label, cost], ...]")
            pairs[label] = _decode_decision("thresholds", pair[1], here + "[1]")
        else:
            _expect(type(pair[1]) in (int, float), here + "[1]", pair[1], "a number")
            pairs[label] = pair[1]
    return pairs


def _decode_by_name(value, where, decode):
    if type(value) is dict and list(value) == ["by_name"] and type(value["by_name"]) is list:
        result = {}
        for i, pair in enumerate(value["by_name"]):
            here = "%s.by_name[%d]" % (where, i)
            _expect(type(pair) is list and len(pair) == 2, here, pair, "[name, value]")
            name = _decode(pair[0], here + "[0]")
            _expect(_hashable(name), here + "[0]", name, "a hashable name")
            result[name] = decode(pair[1], here + "[1]")
        return result
    _expect(type(value) is list, where, value, 'a list or {"by_name": [[name, value]]}')
    return [decode(item, "%s[%d]" % (where, i)) for i, item in enumerate(value)]


# ----------------------------------------------------------------------------------
# Reports: evaluation, cross-validation and explanations as plain data
#
# What the command line prints, computed here so that the command line only
# translates options into calls and data into text: evaluate() and cross_validate()
# return an EvaluationReport, whose str() is the text that evaluate and cv print.
# ----------------------------------------------------------------------------------

class _Evaluation:
    """Predictions against the truth, gathered batch by batch (evaluate, cv, the HTML
    report): every row's true label, weight, predicted class and probabilities, from
    which report() computes the figures.  The ROC curves need every row's scores, so
    the probabilities are kept, in a flat array of doubles (8 bytes each)."""

    def __init__(self, classes):
        from array import array
        self.classes = list(classes)        # the columns of the probabilities
        self.index = {label: k for k, label in enumerate(self.classes)}
        self.truths = []
        self.predicted = []                 # indices into classes
        self.weights = []                   # ints or floats
        self.weighted = False               # True once weights were given
        self.probabilities = array("d")

    @property
    def rows(self):
        """The number of rows added."""
        return len(self.truths)

    def add(self, truths, probabilities, weights=None, predicted=None):
        """Add rows: their true labels and probabilities (classes order), and their
        weights (None: 1 each) and predicted classes (indices into classes; None: the
        first most probable, as predict decides).  A label the model does not know
        has probability 0."""
        probabilities = [list(p) for p in probabilities]
        if predicted is None:
            predicted = [p.index(max(p)) for p in probabilities]
        for p in probabilities:
            self.probabilities.extend(p)
        self.truths.extend(truths)
        self.predicted.extend(predicted)
        if weights is None:
            self.weights.extend(repeat(1, len(probabilities)))
        else:
            self.weights.extend(weights)
            self.weighted = True

    def predictions(self):
        """Each row's probabilities (classes order), in the order the rows came."""
        width = len(self.classes)
        flat = self.probabilities.tolist()
        return [flat[i:i + width] for i in range(0, len(flat), width)]

    def report(self):
        """The figures as plain JSON-ready data (what evaluate --json prints; see
        EvaluationReport for each): labels as scikit-learn's
        precision_recall_fscore_support and confusion_matrix use them (those in the
        truth or the predictions), every figure weighted by the rows' weights."""
        classes, truths, weights = self.classes, self.truths, self.weights
        width = len(classes)
        unknown = [t for t in dict.fromkeys(truths) if t not in self.index]
        columns = classes + unknown       # every label: the model's, then the truth's
        predicted = [classes[k] for k in self.predicted]
        occurring = set(truths) | set(predicted)
        labels = [c for c in classes if c in occurring] + unknown
        confusion = {}
        support = dict.fromkeys(columns, 0)
        for truth, guess, weight in zip(truths, predicted, weights):
            confusion[truth, guess] = confusion.get((truth, guess), 0) + weight
            support[truth] += weight
        total = _weight_sum(weights)
        per_class = {}
        for label in labels:
            tp = confusion.get((label, label), 0)
            chosen = _weight_sum([n for (_, p), n in confusion.items() if p == label])
            precision = tp / chosen if chosen else 0.0
            recall = tp / support[label] if support[label] else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            per_class[label] = {"precision": precision, "recall": recall, "f1": f1,
                                "support": _plain(support[label])}
        averages = {}
        for name, weight in (("macro avg", lambda s: 1.0 / len(labels)),
                             ("weighted avg", lambda s: s / total if total else 0.0)):
            averages[name] = {metric: sum(weight(c["support"]) * c[metric]
                                          for c in per_class.values())
                              for metric in ("precision", "recall", "f1")}
            averages[name]["support"] = _plain(total)
        correct = _weight_sum([confusion.get((label, label), 0) for label in labels])
        probabilities = self.probabilities
        losses, briers = [], []
        second = columns[1] if len(columns) == 2 else None
        for i, (truth, weight) in enumerate(zip(truths, weights)):
            row = probabilities[i * width:(i + 1) * width]
            k = self.index.get(truth)
            p = row[k] if k is not None else 0.0
            losses.append(-weight * log(min(max(p, 1e-15), 1.0)))
            if second is not None:        # two labels: scikit-learn's binary form
                q = row[self.index[second]] if second in self.index else 0.0
                briers.append(weight * (q - (truth == second)) ** 2)
            else:                         # (p_c - [c is the truth])^2 over every label
                briers.append(weight * (math.fsum([x * x for x in row]) - 2 * p + 1))
        areas = {}
        for label in columns:
            k = self.index.get(label)
            scores = probabilities[k::width] if k is not None else [0.0] * len(truths)
            areas[label] = _roc_auc(scores, [t == label for t in truths], weights)
        if len(columns) == 2:
            roc_auc = areas[second]
        elif len(columns) > 2 and None not in areas.values():
            roc_auc = math.fsum(areas.values()) / len(columns)
        else:
            roc_auc = None
        undefined = None                  # why there is no roc_auc
        if roc_auc is None:
            label = next((label for label in columns if areas[label] is None), None)
            undefined = "one class" if label is None or len(columns) < 2 else "%s %s" % (
                _clip(_shown(label), 30), "has no rows" if not support[label]
                else "is every row")
        return {"rows": self.rows, "weight": _plain(total),
                "accuracy": correct / total if total else 0.0,
                "log_loss": math.fsum(losses) / total if total else 0.0,
                "brier": math.fsum(briers) / total if total else 0.0,
                "roc_auc": roc_auc,
                "roc_auc_by_class": {str(label): area for label, area in areas.items()},
                "classes": {str(label): metrics for label, metrics in per_class.items()},
                "averages": averages, "labels": labels,
                "confusion_matrix": [[_plain(confusion.get((t, p), 0)) for p in labels]
                                     for t in labels],
                "per_class": per_class, "columns": columns, "undefined": undefined}


def _weight_sum(weights):
    """The sum of weights: exact for ints, correctly rounded for floats."""
    weights = list(weights)
    return sum(weights) if _INT.issuperset(map(type, weights)) else math.fsum(weights)


def _roc_auc(scores, positives, weights):
    """The area under the ROC curve of ``scores`` telling the rows where
    ``positives`` holds from the others, each row counting its weight: the trapezoid
    over the curve's points, rows of equal scores making one diagonal step (so a tie
    counts one half), as scikit-learn's roc_auc_score computes it.  None when either
    side weighs nothing: the area is then undefined (scikit-learn's roc_auc_score
    warns and returns NaN; a report never holds NaN).

    >>> _roc_auc([0.9, 0.4, 0.4, 0.1], [True, True, False, False], [1, 1, 1, 1])
    0.875
    """
    steps = {}                            # score -> [weight of negatives, of positives]
    for score, positive, weight in zip(scores, positives, weights):
        step = steps.get(score)
        if step is None:
            step = steps[score] = [0, 0]
        step[1 if positive else 0] += weight
    negatives = _weight_sum(step[0] for step in steps.values())
    positive_total = _weight_sum(step[1] for step in steps.values())
    if not (negatives > 0 and positive_total > 0):
        return None
    twice_area, above = 0, 0              # twice the area: exact for whole weights
    for score in sorted(steps, reverse=True):
        step_negatives, step_positives = steps[score]
        twice_area += step_negatives * (2 * above + step_positives)
        above += step_positives
    return twice_area / (2 * positive_total * negatives)


def _decision_report(decision, evaluation):
    """What the decision rules (a _Decision over evaluation.classes) made of the rows
    of an _Evaluation, as JSON-ready data: the rule, the weighted accuracy of their
    labels, the rows they changed from the argmax and rejected, their confusion
    matrix (rows: true_labels; columns: labels, the reject label last) and, with
    costs, the weighted total and mean cost of the rows they decided beside the
    argmax's on the same rows (a rejected row, or one whose true label is not a
    class, has no cost)."""
    classes = decision.classes
    index = {label: k for k, label in enumerate(classes)}
    confusion, truths = {}, {}
    changed = rejected = 0
    costs, argmax_costs, costed = [], [], []
    for truth, p, best, weight in zip(evaluation.truths, evaluation.predictions(),
                                      evaluation.predicted, evaluation.weights):
        k = decision.index(p)
        predicted = decision.reject_label if k is None else classes[k]
        confusion[truth, predicted] = confusion.get((truth, predicted), 0) + weight
        truths[truth] = truths.get(truth, 0) + weight
        changed += k != best
        rejected += k is None
        i = index.get(truth)
        if decision.costs is not None and i is not None and k is not None:
            costs.append(weight * decision.costs[k][i])
            argmax_costs.append(weight * decision.costs[best][i])
            costed.append(weight)
    occurring = set(truths) | {p for _, p in confusion}
    true_labels = [c for c in classes if c in occurring] + [t for t in truths
                                                            if t not in index]
    labels = list(true_labels)
    if rejected and decision.reject_label not in labels:
        labels.append(decision.reject_label)
    total = _weight_sum(truths.values())
    correct = _weight_sum([n for (t, p), n in confusion.items() if t == p])
    report = {"rule": decision.rule or "reject", "reject_below": decision.reject_below,
              "reject_label": None if decision.reject_below is None else
              decision.reject_label,
              "rows": evaluation.rows, "accuracy": correct / total if total else 0.0,
              "changed": changed, "rejected": rejected, "labels": labels,
              "true_labels": true_labels,
              "confusion_matrix": [[_plain(confusion.get((t, p), 0)) for p in labels]
                                   for t in true_labels]}
    if decision.costs is not None:
        weight = _weight_sum(costed)
        cost, argmax_cost = math.fsum(costs), math.fsum(argmax_costs)
        report.update(costed_rows=len(costed), total_cost=cost,
                      mean_cost=cost / weight if weight else 0.0,
                      argmax_total_cost=argmax_cost,
                      argmax_mean_cost=argmax_cost / weight if weight else 0.0)
    return report


def _decision_text(decided):
    """The decision rules' part of a report's text: what they changed, their
    confusion matrix and, with costs, the costs beside the argmax's."""
    rule = {"thresholds": "thresholds (the largest P(c | x) / t_c)",
            "costs": "costs (the least expected cost)", "reject": "the argmax"}[decided["rule"]]
    if decided["reject_below"] is not None:
        rule += ", %s below P = %g" % (_clip(decided["reject_label"], 20),
                                       decided["reject_below"])
    lines = ["", "decision rule: %s" % rule,
             "accuracy  %.4f  (%s of %s rows changed from the argmax, %s rejected)"
             % (decided["accuracy"], format(decided["changed"], ","),
                format(decided["rows"], ","), format(decided["rejected"], ","))]
    if "total_cost" in decided:
        lines.append("cost      %.10g, %.4f per row (the argmax's: %.10g, %.4f per row)%s" % (
            decided["total_cost"], decided["mean_cost"], decided["argmax_total_cost"],
            decided["argmax_mean_cost"], "" if decided["costed_rows"] == decided["rows"] else
            "\n          %s rows have no cost (rejected, or their class is not the model's)"
            % format(decided["rows"] - decided["costed_rows"], ",")))
    labels = [str(label) for label in decided["labels"]]
    lines += ["", "confusion matrix of the decision rule (rows: true class, columns: "
              "predicted)"]
    lines += _confusion_lines(labels, [[_figure(n) for n in row]
                                       for row in decided["confusion_matrix"]],
                              max(_width(_clip(label)) for label in labels))
    return "\n".join(lines) + "\n"


class EvaluationReport:
    """What evaluate() and cross_validate() return: a model's predictions against the
    truth, as attributes, as data (to_dict()) and as text (str(), which is what the
    command line's evaluate and cv print).  Every figure weighs each row by its
    sample weight, as scikit-learn's metrics do with sample_weight.

    accuracy     the weighted share of rows whose predicted class (the first most
                 probable, as predict decides) is the true one
    log_loss     the weighted mean of -log P(true class), probabilities clipped at
                 1e-15 (a label the model does not know has probability 0)
    brier        scikit-learn's brier_score_loss: with two labels the weighted mean
                 of (p - y)^2 for the second label, in [0, 1]; with more, the
                 weighted mean over rows of the sum over labels of (p_c - [c is the
                 truth])^2, in [0, 2] (Brier's own definition, twice the two-label
                 form when there are two)
    roc_auc      the area under the ROC curve (ties count one half, as in
                 scikit-learn's roc_auc_score): of the second label's probability
                 with two labels; the mean of every label's one-vs-rest area with
                 more (multi_class="ovr", average="macro").  None when undefined: a
                 label with no row, or with every row, of the truth (weighted)
    roc_auc_by_class   {label: one-vs-rest area, or None}
    per_class    {label: {"precision", "recall", "f1", "support"}} (support: the
                 weight of its true rows), for the labels in the truth or the
                 predictions (scikit-learn's labels)
    labels       those labels, in the order of per_class and confusion
    confusion    [[weight]]: rows the true label, columns the predicted one
    classes      the columns of predictions: the model's classes (evaluate), or every
                 label of y, sorted when orderable (cross_validate)
    predictions  each row's probabilities (cross_validate: out of fold), input order
    predicted    each row's predicted class, input order
    rows, weight the number of rows and their total weight
    warnings     one line each: cross-validated accuracy below always predicting the
                 majority class, with the settings to try; fewer rows of a class
                 than folds
    Cross-validation only (None otherwise): folds, seed, fold_accuracy (each fold's
    weighted accuracy), mean_accuracy and sd_accuracy (their mean and population
    standard deviation), fold_of (each row's fold, from 0).
    decision     when the model has a decision rule (thresholds, costs, reject_below),
                 what it made of the rows (the figures above are the argmax's): {"rule",
                 "accuracy", "changed", "rejected", "labels", "true_labels",
                 "confusion_matrix"} and with costs "total_cost", "mean_cost" and the
                 argmax's (see _decision_report); else None
    """

    __slots__ = ("rows", "weight", "accuracy", "log_loss", "brier", "roc_auc",
                 "roc_auc_by_class", "per_class", "labels", "confusion", "classes",
                 "predictions", "predicted", "warnings", "folds", "seed", "fold_accuracy",
                 "mean_accuracy", "sd_accuracy", "fold_of", "decision", "_data")

    def __init__(self, evaluation, warnings=(), folds=None, decision=None):
        data = evaluation.report()
        self._data = data
        self.rows, self.weight = data["rows"], data["weight"]
        self.accuracy, self.log_loss = data["accuracy"], data["log_loss"]
        self.brier, self.roc_auc = data["brier"], data["roc_auc"]
        self.roc_auc_by_class = {label: data["roc_auc_by_class"][str(label)]
                                 for label in data["columns"]}
        self.per_class = data["per_class"]
        self.labels = data["labels"]
        self.confusion = data["confusion_matrix"]
        self.classes = evaluation.classes
        self.predictions = evaluation.predictions()
        self.predicted = [self.classes[k] for k in evaluation.predicted]
        self.warnings = list(warnings)
        for name in ("folds", "seed", "fold_accuracy", "mean_accuracy", "sd_accuracy",
                     "fold_of"):
            setattr(self, name, None if folds is None else folds[name])
        self.decision = None if decision is None else _decision_report(decision, evaluation)

    def __repr__(self):
        return "<EvaluationReport: %s, accuracy %.4f%s>" % (
            _counted(self.rows, "row"), self.accuracy,
            "" if self.folds is None else ", %d-fold cross-validation" % self.folds)

    def to_dict(self, predictions=True):
        """The report as plain JSON-ready data (labels as they are): rows, weight,
        accuracy, log_loss, brier, roc_auc, roc_auc_by_class, classes (per class, by
        str(label): precision, recall, f1, support), averages (macro avg, weighted
        avg), labels, confusion_matrix, warnings; cross-validation adds folds, seed,
        fold_accuracy, mean_accuracy and sd_accuracy; and with ``predictions``,
        prediction_classes, predictions, predicted (and fold_of)."""
        data = {key: value for key, value in self._data.items()
                if key not in ("per_class", "columns", "undefined")}
        data["warnings"] = list(self.warnings)
        if self.folds is not None:
            data.update(folds=self.folds, seed=self.seed, fold_accuracy=self.fold_accuracy,
                        mean_accuracy=self.mean_accuracy, sd_accuracy=self.sd_accuracy)
        if self.decision is not None:
            data["decision"] = self.decision
        if predictions:
            data.update(prediction_classes=list(self.classes),
                        predictions=self.predictions, predicted=list(self.predicted))
            if self.folds is not None:
                data["fold_of"] = list(self.fold_of)
        return data

    def __str__(self):
        """The report as aligned text within 80 columns: what evaluate and cv print."""
        return _report_text(self)


def _report_text(report):
    """The text of an EvaluationReport (see its __str__)."""
    data = report._data
    lines = []
    if report.folds is not None:
        accuracy = [a for a in report.fold_accuracy if a is not None]
        lines += ["fold accuracy %.4f +- %.4f (min %.4f, max %.4f)"
                  % (report.mean_accuracy, report.sd_accuracy, min(accuracy),
                     max(accuracy)), ""]
    weight = "" if report.weight == report.rows else " (weight %s)" % _figure(report.weight)
    lines += ["rows      %s%s" % (format(report.rows, ","), weight),
              "accuracy  %.4f" % report.accuracy,
              "log loss  %.4f" % report.log_loss,
              "brier     %.4f" % report.brier,
              "roc auc   %s" % _roc_auc_text(report)]
    import textwrap
    for warning in report.warnings:
        lines += textwrap.wrap("warning: " + warning, 80, subsequent_indent="  ",
                               break_long_words=False, break_on_hyphens=False)
    lines.append("")
    labels = [str(label) for label in report.labels]
    width = max([_width(_clip(label)) for label in labels] + [len("weighted avg")])
    lines.append("%s  precision  recall  f1-score  support" % _left("", width))
    rows = list(data["classes"].items()) + list(data["averages"].items())
    for i, (label, metrics) in enumerate(rows):
        if i == len(data["classes"]):
            lines.append("")
        lines.append("%s  %9.4f  %6.4f  %8.4f  %7s"
                     % (_left(_clip(label), width), metrics["precision"], metrics["recall"],
                        metrics["f1"], _figure(metrics["support"])))
    lines.append("")
    lines.append("confusion matrix (rows: true class, columns: predicted)")
    lines += _confusion_lines(labels, [[_figure(n) for n in row] for row in report.confusion],
                              max(_width(_clip(label)) for label in labels))
    return "\n".join(lines) + "\n" + (
        "" if report.decision is None else _decision_text(report.decision))


def _figure(n):
    """A count or weight for a report: an integer as it is, else 6 digits."""
    return str(n) if type(n) is int else "%.6g" % n


def _roc_auc_text(report):
    """The ROC AUC line's figure, or why there is none."""
    if report.roc_auc is None:
        return "undefined (%s)" % report._data["undefined"]
    return "%.4f%s" % (report.roc_auc, " (one-vs-rest, macro mean)"
                       if len(report.roc_auc_by_class) > 2 else "")


def _confusion_lines(labels, matrix, width):
    """The confusion matrix as text within 80 columns: labels as column heads when
    they fit, else numbers with a legend."""
    cell = max([len(str(n)) for row in matrix for n in row] + [1])
    heads = [str(label) for label in labels]
    if width + 2 + len(labels) * (max(map(_width, heads)) + 2) > 80:
        heads = [str(k + 1) for k in range(len(labels))]
        legend = ["  %*d = %s" % (len(heads[-1]), k + 1, _clip(label, 60))
                  for k, label in enumerate(labels)]
        rows = [str(k + 1) for k in range(len(labels))]
        width = len(heads[-1])
    else:
        legend = []
        rows = [_clip(label) for label in labels]
    cell = max([cell] + list(map(_width, heads)))
    lines = [_left("", width) + "  " + "  ".join(_right(h, cell) for h in heads)]
    lines += [_left(label, width) + "  " + "  ".join(_right(n, cell) for n in row)
              for label, row in zip(rows, matrix)]
    return lines + (["", "classes:"] + legend if legend else [])


def _labels_list(y, call):
    """y as a checked list of labels."""
    labels = list(_iterate(_labels_of(y, call), "y", "an iterable of labels", call))
    _check_labels(labels, 0, call)
    return labels


def _weights_list(sample_weight, call):
    """sample_weight as a checked list of weights (ints where integral), or None."""
    if sample_weight is None:
        return None
    array = _as_numpy(sample_weight, "sample_weight", call)
    weights = list(_iterate(array.tolist() if array is not None else sample_weight,
                            "sample_weight", "an iterable of numbers", call))
    return _check_weights(weights, 0, call) if weights else weights


def _check_lengths(call, rows, labels, weights):
    """One label and weight per row, at least one row, and some weight."""
    for name, items, what in (("y", labels, "labels"), ("sample_weight", weights, "weights")):
        if items is not None and len(items) != rows:
            raise NaiveBayesError("%s: X has %d rows but %s has %d %s; expected one per row"
                                  % (call, rows, name, len(items), what), call=call,
                                  argument=name)
    if not rows:
        raise NaiveBayesError("%s: X is empty; expected at least one row" % call, call=call,
                              argument="X")
    if weights is not None and not any(weights):
        raise NaiveBayesError("%s: sample_weight is zero for every row; expected a positive "
                              "total weight" % call, call=call, argument="sample_weight")


def _check_classifier(model, call):
    if not isinstance(model, _Classifier):
        raise NaiveBayesError("%s: model is %s; expected a classifier of naive_bayes "
                              "(NaiveBayes, AODE, TAN, BayesNet, AutoBayes ...)"
                              % (call, _describe(model)), call=call, argument="model")


def evaluate(model, X, y, sample_weight=None):
    """The EvaluationReport of a fitted model's predictions for rows X against labels
    y, each row weighted by sample_weight: accuracy, log loss, Brier score, ROC AUC,
    per-class precision, recall and F1, the confusion matrix, and each row's
    probabilities (report.predictions, columns in the model's classes_ order).
    str(report) is what the command line's evaluate prints.

    >>> model = CategoricalNB().fit([["a"], ["a"], ["b"], ["b"]], ["x", "x", "y", "y"])
    >>> report = evaluate(model, [["a"], ["b"], ["b"]], ["x", "y", "x"])
    >>> report.accuracy, report.roc_auc, report.confusion
    (0.6666666666666666, 0.75, [[1, 1], [0, 1]])
    """
    call = "evaluate()"
    _check_classifier(model, call)
    model._fitted(call)
    if not (hasattr(X, "__len__") and hasattr(X, "__getitem__")):
        X = list(_iterate(_rows_of(X, call), "X", "an iterable of rows", call))
    labels = _labels_list(y, call)
    weights = _weights_list(sample_weight, call)
    _check_lengths(call, len(X), labels, weights)
    joints, compiled = model._joints(X, call)
    decision = model._decision(compiled.classes, call)
    evaluation = _Evaluation(compiled.classes)
    evaluation.add(labels, _posteriors(joints), weights, _best(joints))
    return EvaluationReport(evaluation, decision=decision)


def cross_validate(model, X, y, folds=10, seed=0, sample_weight=None):
    """Stratified k-fold cross-validation of a model's settings: the EvaluationReport
    of every row's out-of-fold prediction (report.predictions, in input order, columns
    in report.classes order), with each fold's accuracy.  str(report) is what the
    command line's cv prints after its first line.

    The folds are the command line's: each class's rows shuffled by
    random.Random(seed) and dealt round-robin over the folds, the classes in sorted
    order, so that each fold holds about 1/folds of every class (the same seed, the
    same folds).  Each fold is predicted by a new model with ``model``'s parameters,
    type(model)(**model.get_params()), fitted on the other folds' rows and weights:
    ``model`` itself is neither fitted nor changed.  For the families whose merge
    equals a fit (_merge_is_fit) one model is fitted per fold and each training set's
    model is the merge of the others', the same model, (k - 1) times cheaper;
    AutoBayes, whose weights come from a cross-validation of its own training rows,
    is fitted afresh on each training set.

    report.warnings (also in str(report)) says when the accuracy is below the majority
    rate (the weighted share of the most frequent class: what always predicting it
    scores), naming settings to try, and when a class has fewer rows than there are
    folds (some folds then hold none of it, as scikit-learn's StratifiedKFold warns).
    Bad arguments raise NaiveBayesError: folds < 2 or more folds than rows, lengths
    that differ, an error in a row (named by its number in X).

    >>> X = [["a", 1.0], ["a", 1.5], ["b", 3.0], ["b", 3.5]] * 3
    >>> report = cross_validate(NaiveBayes(), X, ["x", "x", "y", "y"] * 3, folds=3)
    >>> report.accuracy, report.fold_accuracy, report.roc_auc
    (1.0, [1.0, 1.0, 1.0], 1.0)
    """
    import operator
    call = "cross_validate()"
    _check_classifier(model, call)
    for name, value, least in (("folds", folds, 2), ("seed", seed, None)):
        try:
            number = operator.index(value)
        except TypeError:
            number = None
        if number is None or type(value) is bool or (least is not None and number < least):
            raise NaiveBayesError("%s: %s=%s; expected an integer%s"
                                  % (call, name, _shown(value),
                                     "" if least is None else " >= %d" % least),
                                  call=call, argument=name)
    folds, seed = operator.index(folds), operator.index(seed)
    X = list(_iterate(_rows_of(X, call), "X", "an iterable of rows", call))
    labels = _labels_list(y, call)
    weights = _weights_list(sample_weight, call)
    _check_lengths(call, len(X), labels, weights)
    if folds > len(X):
        raise NaiveBayesError("%s: folds=%d but X has %s; expected at most one fold per row"
                              % (call, folds, _counted(len(X), "row")), call=call,
                              argument="folds")
    params = model.get_params()
    return _cross_validate(lambda: type(model)(**params), X, labels, folds, seed, weights)


def _cross_validate(make_model, X, labels, folds, seed, weights=None,
                    call="cross_validate()", command_line=False):
    """cross_validate on checked lists of rows, labels and weights; make_model()
    gives a new model of the settings.  ``command_line``: warnings name options
    (--model auto), not keywords (AutoBayes())."""
    n = len(X)
    fold_of = _stratified_folds(labels, folds, seed)
    members = [[] for _ in range(folds)]
    for i, fold in enumerate(fold_of):
        members[fold].append(i)
    model = make_model()
    # class_weight="balanced" weighs each training set by its own class counts, which
    # a merge of the folds' models cannot: each training set is fitted whole
    merging = model._merge_is_fit and model.get_params().get("class_weight") != "balanced"
    classes = _sorted_if_orderable(dict.fromkeys(labels))
    decision = model._decision(classes, call)      # a bad rule fails before any fit
    parts = [None] * folds
    for fold, rows in enumerate(members if merging else ()):
        _progress("fitting fold", fold + 1, folds)
        if rows and (weights is None or any(weights[i] for i in rows)):
            try:
                parts[fold] = _fit_rows(make_model(), X, labels, weights, rows, call)
            except NaiveBayesError as error:
                if error.row is not None:         # a bad row: as bad in any fit
                    raise
                merging = False                   # (a class_prior naming a class this
                break                             # fold lacks): fit each training set
    _progress("fitting fold")
    index = {label: k for k, label in enumerate(classes)}
    probabilities, predicted = [None] * n, [None] * n
    for fold, rows in enumerate(members):
        _progress("fold", fold + 1, folds)
        training = None
        if merging:
            try:
                for other, part in enumerate(parts):
                    if other != fold and part is not None:
                        training = part if training is None else training.merge(part)
            except NaiveBayesError:               # the folds' inferred kinds differ
                training = None
        if training is None:
            training = _fit_rows(make_model(), X, labels, weights,
                                 [i for i in range(n) if fold_of[i] != fold], call)
        try:
            joints, compiled = training._joints([X[i] for i in rows], call)
        except NaiveBayesError as error:
            raise _renumbered(error, rows, call) from None
        order = [index[label] for label in compiled.classes]
        for i, p, best in zip(rows, _posteriors(joints), _best(joints)):
            full = [0.0] * len(classes)
            for k, q in zip(order, p):
                full[k] = q
            probabilities[i], predicted[i] = full, order[best]
    evaluation = _Evaluation(classes)
    evaluation.add(labels, probabilities, weights, predicted)
    weight = (lambda i: 1) if weights is None else weights.__getitem__
    fold_accuracy = []
    for rows in members:
        total = _weight_sum(map(weight, rows))
        hit = _weight_sum([weight(i) for i in rows if classes[predicted[i]] == labels[i]])
        fold_accuracy.append(hit / total if total else None)
    scored = [a for a in fold_accuracy if a is not None]
    mean = math.fsum(scored) / len(scored)
    counts = Counter(labels)
    smallest = min(classes, key=counts.__getitem__)
    warnings = []
    if counts[smallest] < folds:
        warnings.append("class %s has %s, fewer than %d folds: some folds have none"
                        % (_clip(_shown(smallest), 30), _counted(counts[smallest], "row"),
                           folds))
    report = EvaluationReport(evaluation, warnings, {
        "folds": folds, "seed": seed, "fold_accuracy": fold_accuracy, "mean_accuracy": mean,
        "sd_accuracy": math.sqrt(math.fsum((a - mean) ** 2 for a in scored) / len(scored)),
        "fold_of": fold_of}, decision)
    majority = max(report.labels, key=lambda label: report.per_class[label]["support"])
    rate = report.per_class[majority]["support"] / report.weight
    if report.accuracy < rate:
        report.warnings.insert(0, _majority_warning(majority, rate, training,
                                                    command_line))
    return report


def _majority_warning(majority, rate, model, command_line):
    """Cross-validated accuracy below the majority rate, and the settings to try:
    AutoBayes (the recommended model), and MDL bins for numbers modelled otherwise."""
    settings = []
    if isinstance(model, AutoBayes):
        settings.append(("--model naive --numeric discretized",
                         "NaiveBayes(numeric='discretized')"))
    else:
        settings.append(("--model auto", "AutoBayes()"))
        if set(model.feature_kinds_.values()) & {"gaussian", "kde", "poisson"}:
            settings.append(("--numeric discretized", "numeric='discretized'"))
    return "accuracy below the majority rate %.4f (always %s); try %s" % (
        rate, _clip(_shown(majority), 20),
        " or ".join(option if command_line else keyword for option, keyword in settings))


def _fit_rows(model, X, labels, weights, rows, call):
    """model fitted on the rows numbered ``rows`` of X; an error about one of them
    names its number in X."""
    try:
        return model.fit([X[i] for i in rows], [labels[i] for i in rows],
                         None if weights is None else [weights[i] for i in rows])
    except NaiveBayesError as error:
        raise _renumbered(error, rows, call) from None


def _renumbered(error, rows, call):
    """A NaiveBayesError about row r of a selection, restated under ``call`` about
    row rows[r] of the whole."""
    row, argument = getattr(error, "row", None), getattr(error, "argument", None)
    if row is not None and argument in ("X", "y", "sample_weight") and 0 <= row < len(rows):
        return _row_error(call, argument, rows[row], error.reason)
    message = str(error)
    if error.call and message.startswith(error.call + ": "):
        message = message[len(error.call) + 2:]
    return NaiveBayesError("%s: %s" % (call, message), call=call, argument=argument)


def _log_odds_parts(model, row, words_shown=10):
    """Why one row got its prediction, as data: the predicted class and the runner-up
    with their probabilities, and each part of log P(best)/P(runner-up) (the prior,
    every used feature, the most influential words of a text), largest first: items
    are (feature, separator " = " or ": ", the value or word, log-odds part).  A
    network counts a missing value as its feature's most frequent one: that is a part
    too ("counted as" in explain)."""
    parts = model.explain(row)
    probabilities = model.predict_proba_one(row)
    ranked = sorted(probabilities, key=lambda c: -probabilities[c])
    result = {"predicted": ranked[0], "probability": probabilities[ranked[0]],
              "runner_up": None, "runner_probability": None, "items": [],
              "decision": parts.get("decision"),
              "missing": [e["feature"] for e in parts["features"]
                          if e["status"] == "missing" and "counted_as" not in e]}
    if len(ranked) < 2:
        return result
    best, runner = ranked[:2]
    result["runner_up"], result["runner_probability"] = runner, probabilities[runner]
    items = [("prior", "", "", parts["prior"][best] - parts["prior"][runner])]
    for entry in parts["features"]:
        if entry["status"] not in ("used", "unseen") and "counted_as" not in entry:
            continue
        if "words" in entry:              # a text feature: the words that mattered
            words = sorted(((word, ll[best] - ll[runner])
                            for word, ll in entry["words"].items()),
                           key=lambda item: -abs(item[1]))
            items.extend((entry["feature"], ": ", word, value)
                         for word, value in words[:words_shown])
            if words[words_shown:]:
                items.append((entry["feature"], ": ", "%d other words"
                              % len(words[words_shown:]),
                              math.fsum(value for _, value in words[words_shown:])))
            baseline = entry["baseline"][best] - entry["baseline"][runner]
            if baseline:
                items.append((entry["feature"], ": ", "no word present (baseline)", baseline))
            continue
        ll = entry["log_likelihood"]
        value = entry.get("interval", entry["value"])
        note = " (unseen)" if entry["status"] == "unseen" else ""
        if "counted_as" in entry:
            note = " (%s, counted as %s)" % (entry["status"], entry["counted_as"])
        items.append((entry["feature"], " = ", "%s%s" % (value, note), ll[best] - ll[runner]))
    items.sort(key=lambda item: -abs(item[3]) if item[3] == item[3] else 0)
    result["items"] = items
    return result


def _informative_rows(model, top):
    """(feature, value or None, favoured label, score, likelihood ratio) rows."""
    return [(feature, value, favoured, score, exp(score) if score < 709 else INF)
            for feature, value, score, favoured in model.most_informative_features(top)]


# ----------------------------------------------------------------------------------
# Pictures: SVG plots and an HTML report
#
# model.plot(feature) draws a feature's class-conditional distributions, model.plot()
# the model's structure, report_html() one page about a model and its predictions,
# _repr_html_ the notebook view.  Everything is drawn from what the model computes:
# tables() (naive Bayes' view, P(x_j | c), for AODE and the networks), the compiled
# scorers for densities, summary(), most_informative_features(), explain() and the
# probabilities.  The markup is well-formed XML: every SVG and the page parse with
# xml.etree.  Series differ by colour (Okabe and Ito's palette), dash, marker and
# hatching, so they stay apart in greyscale and for colour-blind readers, and a class
# keeps its style in every picture.  The page has no script and fetches nothing (its
# Content-Security-Policy forbids both, so a browser complains if anything tries).  A
# picture's ids start with a hash of its content: pictures on one page never share an
# id (unless they are the same picture), and the same model gives the same bytes.
# ----------------------------------------------------------------------------------

_SVG_NAMESPACE = "http://www.w3.org/2000/svg"
_SVG_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_SVG_INK = "#222222"
_SVG_ID = "\ue000"                # stands for the picture's id prefix until it is done
_XML_FORBIDDEN = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


def _xml_text(value):
    """str(value) for XML text or attributes: markup escaped, characters XML forbids
    as U+FFFD, U+E000 (_SVG_ID) as a character reference."""
    import re
    from html import escape
    return escape(re.sub(_XML_FORBIDDEN, "\ufffd", str(value))).replace(_SVG_ID,
                                                                        "&#xe000;")


def _svg_px(number):
    """A coordinate as short text (one decimal at most)."""
    return ("%.1f" % number).rstrip("0").rstrip(".")


def _element(name, content="", **attributes):
    """An XML element.  Attribute names: _ becomes -, a trailing _ is dropped (class_);
    a float is written as a coordinate, a value given as (markup,) as it is (an id
    with _SVG_ID), any other escaped; None leaves the attribute out."""
    written = "".join(' %s="%s"' % (key.rstrip("_").replace("_", "-"), _svg_px(value)
                                    if type(value) is float else value[0]
                                    if type(value) is tuple else _xml_text(value))
                      for key, value in attributes.items() if value is not None)
    return "<%s%s>%s</%s>" % (name, written, content, name) if content else \
        "<%s%s/>" % (name, written)


def _svg_text(x, y, content, size=12, anchor="start", limit=None, **attributes):
    """A text at (x, y); cut to limit columns, the whole text then in a hover title."""
    text = str(content)
    shown = _xml_text(text)
    if limit and _width(text) > limit:
        shown = _element("title", shown) + _xml_text(_svg_clip(text, limit))
    return _element("text", shown, x=float(x), y=float(y), font_size=size,
                    text_anchor=anchor, **attributes)


def _svg_clip(value, limit):
    """A value's text on one line within limit columns, cut in the middle by an
    ellipsis so that names differing only at the end stay apart."""
    text = " ".join(str(value).split())
    if _width(text) <= limit:
        return text

    def within(characters, columns):
        kept, used = [], 0
        for character in characters:
            used += _width(character)
            if used > columns:
                break
            kept.append(character)
        return "".join(kept)
    tail = within(reversed(text), (limit - 1) // 3)[::-1]
    return within(text, limit - 1 - _width(tail)) + "\u2026" + tail


def _svg_text_width(text, size=12):
    """About the width in pixels of a text in a sans-serif font."""
    return 0.6 * size * _width(text)


def _svg_number(x, digits=4):
    """x in at most ``digits`` significant digits, its exponent without + and 0s."""
    if not isfinite(x):
        return "NaN" if x != x else "\u221e" if x > 0 else "-\u221e"
    mantissa, _, exponent = ("%.*g" % (digits, x)).partition("e")
    return mantissa + ("e%d" % int(exponent) if exponent else "")


def _svg_short_numbers(text):
    """A text with its numbers of over 8 significant digits in 7: a bin named
    (-inf, 8.315000000000001] shows as (-inf, 8.315]."""
    import re

    def short(match):
        number = match.group()
        digits = len(number.split("e")[0].strip("-").replace(".", "").lstrip("0"))
        return _svg_number(float(number), 7) if digits > 8 else number
    return re.sub(r"-?\d+\.\d+(?:e[-+]?\d+)?", short, str(text))


def _svg_ticks(lo, hi, count=5):
    """About count round values (1, 2 or 5 times a power of ten) from lo to hi, and
    the step between them."""
    raw = (hi - lo) / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    first = math.ceil(lo / step - 1e-9)
    return [(first + i) * step for i in range(math.floor(hi / step + 1e-9) - first + 1)], \
        step


def _svg_tick_texts(ticks, step):
    """Tick labels with the digits that tell neighbours apart, all in one notation."""
    fixed = 1e-4 <= max([abs(t) for t in ticks] + [step]) < 1e6 and step >= 1e-6
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    texts = []
    for t in ticks:
        if abs(t) < step * 1e-6:
            texts.append("0")
        elif fixed:
            texts.append("%.*f" % (decimals, t))
        else:
            digits = math.floor(math.log10(abs(t)) + 1e-9) - math.floor(math.log10(step) +
                                                                        1e-9)
            texts.append(_svg_number(t, max(0, digits) + 1))
    return texts


def _svg_span(values):
    """(lo, hi) of the finite values, widened when they are all equal."""
    finite = [v for v in values if isfinite(v)] or [0.0, 1.0]
    lo, hi = min(finite), max(finite)
    if hi - lo <= 1e-12 * max(abs(lo), abs(hi), 1e-300):
        pad = abs(lo) * 0.1 or 1.0
        return lo - pad, hi + pad
    return lo, hi


def _svg_round_top(value):
    """(0, top): top the first round tick at or above value."""
    value = value if isfinite(value) and value > 0 else 1.0
    step = _svg_ticks(0.0, value, 5)[1]
    return 0.0, math.ceil(value / step - 1e-9) * step


# Series i (the class's position in classes_) has a colour, a dash, a marker and a
# hatching, in cycles of 8, 6, 7 and 6: 24 series look different in greyscale.
_SVG_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                "#000000", "#F0E442")          # Okabe and Ito (2008), yellow last
_SVG_DASHES = (None, "7 3", "2 2", "9 3 2 3", "1 3", "12 4")
_SVG_HATCHES = (None, "rotate(45)", "rotate(-45)", "rotate(0)", "rotate(90)", "cross")
_SVG_MARKERS = (None,                                                   # a circle
                ((-1, -1), (1, -1), (1, 1), (-1, 1)),                  # square
                ((0, -1.3), (1.15, 0.8), (-1.15, 0.8)),                # triangle
                ((0, -1.35), (1.1, 0), (0, 1.35), (-1.1, 0)),          # diamond
                ((0, 1.3), (1.15, -0.8), (-1.15, -0.8)),               # down triangle
                ((-1.2, 0), (-0.6, -1.05), (0.6, -1.05), (1.2, 0), (0.6, 1.05),
                 (-0.6, 1.05)),                                        # hexagon
                ((-0.4, -1.2), (0.4, -1.2), (0.4, -0.4), (1.2, -0.4), (1.2, 0.4),
                 (0.4, 0.4), (0.4, 1.2), (-0.4, 1.2), (-0.4, 0.4), (-1.2, 0.4),
                 (-1.2, -0.4), (-0.4, -0.4)))                          # cross


def _svg_colour(i):
    """The colour of series i."""
    return _SVG_COLOURS[i % len(_SVG_COLOURS)]


def _svg_fill(i):
    """The fill of series i: its colour, hatched its own way (solid every sixth); a
    pattern as (markup,), see _element."""
    if _SVG_HATCHES[i % len(_SVG_HATCHES)] is None:
        return _svg_colour(i)
    return ("url(#%shatch%d)" % (_SVG_ID, i),)


def _svg_defs(series):
    """The hatch patterns of series 0 .. series-1 and an arrow head."""
    patterns = "".join(_element(
        "pattern", _element("rect", width=6, height=6, fill=_svg_colour(i)) +
        _element("path", d="M0 3H6M3 0V6" if hatch == "cross" else "M0 3H6",
                 stroke="#ffffff", stroke_width=1.6),
        id=("%shatch%d" % (_SVG_ID, i),), patternUnits="userSpaceOnUse", width=6, height=6,
        patternTransform=None if hatch == "cross" else hatch)
        for i, hatch in ((i, _SVG_HATCHES[i % len(_SVG_HATCHES)]) for i in range(series))
        if hatch)
    arrow = _element("marker", _element("path", d="M0 0L8 4L0 8z", fill=_svg_colour(1)),
                     id=(_SVG_ID + "arrow",), viewBox="0 0 8 8", refX=8, refY=4,
                     markerWidth=6, markerHeight=6, orient="auto")
    return _element("defs", patterns + arrow)


def _svg_marker(i, x, y, r=3.5):
    """The marker of series i at (x, y): a shape per series, outlined in white."""
    shape = _SVG_MARKERS[i % len(_SVG_MARKERS)]
    style = dict(fill=_svg_colour(i), stroke="#ffffff", stroke_width=0.8)
    if shape is None:
        return _element("circle", cx=float(x), cy=float(y), r=float(r), **style)
    return _element("polygon", points=" ".join("%s,%s" % (_svg_px(x + r * u),
                                                          _svg_px(y + r * v))
                                               for u, v in shape), **style)


def _svg_legend(labels, kind="line", notes=None, limit=26):
    """A legend column: a sample and the label of each (series, label), a note after
    the label (below it when long); and the legend's width and height.  kind: "line",
    "bar" or "both"."""
    parts, y, widths = [], 8, [0]
    for i, label in labels:
        x, note = 0.0, (notes or {}).get(i, "")
        if kind != "line":
            parts.append(_element("rect", x=4.0, y=y - 6.0, width=18, height=12,
                                  fill=_svg_fill(i), stroke=_SVG_INK, stroke_width=0.6))
            x = 0.0 if kind == "bar" else 26.0
        if kind != "bar":
            parts.append(_element("line", x1=x, y1=float(y), x2=x + 26, y2=float(y),
                                  stroke=_svg_colour(i), stroke_width=2.2,
                                  stroke_dasharray=_SVG_DASHES[i % len(_SVG_DASHES)]) +
                         _svg_marker(i, x + 13, y))
        inline = len(note) <= 12
        shown = _svg_clip(label, limit) + (note if inline else "")
        parts.append(_element("text", _element("title", _xml_text(label)) +
                              _xml_text(shown), x=x + 32, y=y + 4.0))
        widths.append(x + 32 + _svg_text_width(shown))
        if not inline:
            y += 14
            parts.append(_svg_text(x + 32, y + 4, note.strip(), 10, fill="#555555"))
            widths.append(x + 32 + _svg_text_width(note, 10))
        y += 18
    return "".join(parts), max(widths) + 12, y - 8


def _svg_document(width, height, body, title, series=0):
    """An SVG document: a title for screen readers, the patterns of the series, a
    white ground and the body; its ids prefixed by a hash of the whole."""
    import zlib
    svg = _element("svg", _element("title", _xml_text(title)) + _svg_defs(series) +
                   _element("rect", width="100%", height="100%", fill="#ffffff") + body,
                   xmlns=_SVG_NAMESPACE, width=float(width), height=float(height),
                   viewBox="0 0 %s %s" % (_svg_px(width), _svg_px(height)), role="img",
                   font_family=_SVG_FONT, font_size=12, fill=_SVG_INK)
    return svg.replace(_SVG_ID, "nb%08x-" % zlib.crc32(svg.encode("utf-8")))


def _svg_message(title, message, width=420, height=80):
    """A small picture that says why there is nothing to draw."""
    return _svg_document(width, height, _svg_text(12, 22, title, 13, limit=60,
                                                  font_weight="bold") +
                         _svg_text(12, min(50, height - 8), message, fill="#555555"),
                         title)


class _SvgFrame:
    """A rectangle of a picture where data coordinates map linearly to pixels."""

    __slots__ = ("left", "top", "width", "height", "x_range", "y_range")

    def __init__(self, left, top, width, height, x_range, y_range):
        self.left, self.top, self.width, self.height = left, top, width, height
        self.x_range, self.y_range = x_range, y_range

    def x(self, value):
        """The pixel column of a value."""
        lo, hi = self.x_range
        return self.left + (value - lo) / (hi - lo) * self.width

    def y(self, value):
        """The pixel row of a value, held inside the frame (a curve that leaves it
        runs along its edge)."""
        lo, hi = self.y_range
        value = min(max(value, lo), hi)
        return self.top + self.height - (value - lo) / (hi - lo) * self.height


def _svg_tick_count(width, lo, hi):
    """How many x ticks to ask for: as many as fit without their labels touching."""
    for count in range(max(2, int(width // 45)), 2, -1):
        ticks, step = _svg_ticks(lo, hi, count)
        widest = max([_svg_text_width(t, 11) for t in _svg_tick_texts(ticks, step)] + [0])
        if widest + 10 < step / (hi - lo) * width:
            return count
    return 2


def _svg_axes(frame, x_label, y_label, small=False, x_numeric=True, y_numeric=True):
    """The frame, its grid lines, ticks and axis titles."""
    parts, size, bottom = [], 10 if small else 11, frame.top + frame.height
    ticks, step = _svg_ticks(*frame.y_range, 3 if small else 5) if y_numeric else ([], 1)
    for value, label in zip(ticks, _svg_tick_texts(ticks, step)):
        y = frame.y(value)
        parts.append(_element("line", x1=float(frame.left), y1=y,
                              x2=float(frame.left + frame.width), y2=y, stroke="#e3e3e3") +
                     _svg_text(frame.left - 5, y, label, size, "end", class_="nb-tick-y",
                               dominant_baseline="central"))
    if x_numeric:
        ticks, step = _svg_ticks(*frame.x_range,
                                 _svg_tick_count(frame.width, *frame.x_range))
        for value, label in zip(ticks, _svg_tick_texts(ticks, step)):
            x = frame.x(value)
            parts.append(_element("line", x1=x, y1=float(bottom), x2=x, y2=bottom + 4.0,
                                  stroke="#555555") +
                         _svg_text(x, bottom + 16, label, size, "middle",
                                   class_="nb-tick-x"))
    parts.append(_element("rect", x=float(frame.left), y=float(frame.top),
                          width=float(frame.width), height=float(frame.height), fill="none",
                          stroke="#888888"))
    if x_label and not small:
        parts.append(_svg_text(frame.left + frame.width / 2, bottom + 36, x_label, 12,
                               "middle", limit=70))
    if y_label and not small:
        middle = frame.top + frame.height / 2
        parts.append(_svg_text(14, middle, y_label, 12, "middle",
                               transform="rotate(-90 14 %s)" % _svg_px(middle)))
    return "".join(parts)


def _svg_chart(title, classes, y_label, y_range, draw, x_range=None, x_label=None,
               width=540, height=300, small=False, notes=None, listed=None, plot_width=0,
               below=0, kind="line"):
    """A chart: the frame and axes, draw(frame) on them, the title, and on the right
    a legend of the classes (those in listed, when given); small: neither."""
    labels = [(i, c) for i, c in enumerate(classes) if listed is None or i in listed]
    legend, legend_width, legend_height = _svg_legend(labels, kind, notes)
    legend_room = 0 if small else legend_width + 16
    ticks, step = _svg_ticks(*y_range, 3 if small else 5)
    left = (8 if small else 30) + max(_svg_text_width(t, 11)
                                      for t in _svg_tick_texts(ticks, step))
    top = 10 if small else 30
    height = height if small else max(height, top + 60 + legend_height)
    plot_width = max(plot_width, width - left - legend_room - 10,
                     0 if small else 0.55 * width)
    frame = _SvgFrame(left, top, plot_width, height - top - (22 if small else 48),
                      x_range or (0.0, 1.0), y_range)
    width = left + plot_width + legend_room + 10
    body = _svg_axes(frame, x_label, y_label, small, x_range is not None) + draw(frame)
    if not small:
        body += _svg_text(left, 18, title, 13, limit=int((width - left) / 7.5),
                          font_weight="bold")
        body += _element("g", legend, class_="nb-legend", transform="translate(%s %s)"
                         % (_svg_px(width - legend_room + 6), top))
    return _svg_document(width, height + below, body, title, len(classes))


def _svg_along(points, spacing, offset):
    """Places every ``spacing`` pixels along a polyline of pixel points, the first
    ``offset`` pixels in: markers as far apart on a steep peak as on a slope."""
    places, travelled, wanted = [], 0.0, offset
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        step = hypot(x1 - x0, y1 - y0)
        while step and travelled + step >= wanted:
            t = (wanted - travelled) / step
            places.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
            wanted += spacing
        travelled += step
    return places


def _svg_line_chart(title, curves, classes, x_label, y_label, y_range, notes=None,
                    small=False, width=540, height=300, under=None, listed=None,
                    plot_width=0):
    """Curves {series: (xs, ys)}, a marker every 60 pixels along each (none where it
    lies along 0, staggered between the series); under(frame) draws first."""
    def draw(frame):
        body = [under(frame) if under else ""]
        floor = frame.y(0.03 * frame.y_range[1])
        for i, (xs, ys) in sorted(curves.items()):
            shown = [(frame.x(x), frame.y(y)) for x, y in zip(xs, ys) if y == y]
            line = _element("polyline", points=" ".join(
                "%s,%s" % (_svg_px(x), _svg_px(y)) for x, y in shown),
                fill="none", stroke=_svg_colour(i), stroke_width=1.6 if small else 2.2,
                stroke_linejoin="round", stroke_dasharray=_SVG_DASHES[i % len(_SVG_DASHES)])
            markers = "" if small else "".join(
                _svg_marker(i, x, y) for x, y in _svg_along(shown, 60.0, 8 + 23 * i % 60)
                if y < floor)
            body.append(_element("g", line + markers, class_="nb-series", data_series=i,
                                 data_label=classes[i]))
        return "".join(body)
    x_range = _svg_span([x for xs, _ in curves.values() for x in xs])
    return _svg_chart(title, classes, y_label, y_range, draw, x_range, x_label, width,
                      height, small, notes, listed, plot_width)


def _svg_bar_chart(title, groups, values, classes, y_label, notes=None, small=False,
                   width=540, height=300):
    """Grouped bars: in each group a bar per series, values {series: [heights]}; group
    names turned when they do not fit side by side."""
    series = sorted(values)
    y_range = _svg_round_top(max(v for i in series for v in values[i]))
    plot_width = min(1400, len(groups) * len(series) * 5 + len(groups) * 8)
    limit, size = (12, 10) if small else (24, 11)
    widest = max(_svg_text_width(_svg_clip(g, limit), size) for g in groups)
    turned = widest > max(plot_width, width * (0.8 if small else 0.55)) / len(groups) - 6

    def draw(frame):
        group_width = frame.width / len(groups)
        bar_width = group_width * 0.8 / len(series)
        body, base = [], frame.top + frame.height
        for g, group in enumerate(groups):
            x0 = frame.left + g * group_width + group_width * 0.1
            for n, i in enumerate(series):
                y = frame.y(values[i][g])
                tip = _element("title", _xml_text("%s, %s: %s" % (
                    classes[i], group, _svg_number(values[i][g]))))
                body.append(_element("rect", tip, x=x0 + n * bar_width, y=y,
                                     width=bar_width, height=base - y, fill=_svg_fill(i),
                                     stroke=_SVG_INK,
                                     stroke_width=0.4 if bar_width < 6 else 0.7,
                                     class_="nb-bar", data_series=i, data_group=g))
            centre = frame.left + (g + 0.5) * group_width
            if turned:
                body.append(_svg_text(centre + 4, base + 12, group, size, "end", limit,
                                      class_="nb-group", transform="rotate(-40 %s %s)"
                                      % (_svg_px(centre + 4), _svg_px(base + 12))))
            else:
                body.append(_svg_text(centre, base + 16, group, size, "middle", limit,
                                      class_="nb-group"))
        return "".join(body)
    below = (widest * 0.64 if turned else 0) - (0 if small else 20)
    return _svg_chart(title, classes, y_label, y_range, draw, None, None, width, height,
                      small, notes, plot_width=plot_width, below=below, kind="bar")


def _svg_heat_colour(fraction):
    """A sequential blue for a fraction in [0, 1], darker for larger (greyscale-safe)."""
    return "#%02x%02x%02x" % tuple(round(a + (b - a) * fraction)
                                   for a, b in zip((247, 251, 255), (8, 48, 107)))


def _svg_heat_map(title, rows, columns, shade, text, tip, axes, cell=(40.0, 40.0),
                  diagonal=False):
    """A heat map: cell (r, c) shaded by shade(r, c) in [0, 1], labelled text(r, c),
    hover tip(r, c); axes: (row title, column title); the diagonal outlined if asked."""
    cell_width, cell_height = cell
    room = max(_svg_text_width(_svg_clip(label, 22), 11) for label in rows) + 16
    lengths = [_svg_text_width(_svg_clip(label, 22), 11) for label in columns]
    upright = max(lengths) < cell_width - 4
    left, top = room + 26, (34 if upright else max(lengths) * 0.8 + 12) + 40
    width = max(left + len(columns) * cell_width + (20 if upright else lengths[-1] * 0.7),
                _svg_text_width(title, 13) + 30)
    middle = top + len(rows) * cell_height / 2
    body = [_svg_text(12, 18, title, 13, font_weight="bold"),
            _svg_text(left + len(columns) * cell_width / 2, 36, axes[1], 12, "middle"),
            _svg_text(14, middle, axes[0], 12, "middle",
                      transform="rotate(-90 14 %s)" % _svg_px(middle))]
    for r, label in enumerate(rows):
        y = top + r * cell_height
        body.append(_svg_text(left - 6, y + cell_height / 2 + 4, label, 11, "end", 22))
        for c in range(len(columns)):
            x, share, outlined = left + c * cell_width, shade(r, c), diagonal and r == c
            body.append(_element("rect", _element("title", _xml_text(tip(r, c))), x=x, y=y,
                                 width=cell_width, height=cell_height,
                                 fill=_svg_heat_colour(share),
                                 stroke=_SVG_INK if outlined else "#ffffff",
                                 stroke_width=1.6 if outlined else 1.0, class_="nb-cell",
                                 data_row=r, data_column=c) +
                        _svg_text(x + cell_width / 2, y + cell_height / 2 + 4, text(r, c),
                                  10, "middle",
                                  fill="#ffffff" if share > 0.5 else _SVG_INK))
    for c, label in enumerate(columns):
        x = left + (c + 0.5) * cell_width
        body.append(_svg_text(x, top - 6, label, 11, "middle", 22) if upright else
                    _svg_text(x + 4, top - 6, label, 11, "start", 22,
                              transform="rotate(-50 %s %s)" % (_svg_px(x + 4),
                                                               _svg_px(top - 6))))
    return _svg_document(width, top + len(rows) * cell_height + 20, "".join(body), title)


# -- what the model holds, for the pictures ------------------------------------------

def _picture_tables(model, call):
    """Each feature's table as naive Bayes tables it: for AODE and the networks their
    naive-Bayes view, P(x_j | c) alone."""
    compiled = model._model(call)
    naive = getattr(compiled, "naive_tables", None)
    return naive() if naive is not None else compiled.tables()


def _picture_log_densities(model, feature, xs):
    """{class index: [log p(x | c) for x in xs]}, by the feature's compiled scorer (NaN
    where it refuses x: a lognormal's x <= 0, say)."""
    compiled = model._model("plot()")
    scorer = compiled.scorers[compiled.names.index(feature)]
    refused = (math.nan,) * len(compiled.classes)
    vectors = []
    for x in xs:
        try:
            vectors.append(scorer[x])
        except _BadValue:
            vectors.append(refused)
    return dict(enumerate(zip(*vectors)))


def _picture_recorded_values(model, feature):
    """{class index: its distinct training values} of a kde feature (its record)."""
    counts = model._state.statistics.features[feature].stats.counts
    return {i: sorted(counts[label]) for i, label in enumerate(model.classes_)
            if counts.get(label)}


def _picture_parents(model):
    """{feature: [the features it depends on besides the class]}, the class's own
    under None; None for naive Bayes.  In AODE each feature in turn is the parent of
    all the others (AutoBayes: its leading member's structure); a network's arcs are
    its summary()["parents"]."""
    compiled = model._model("plot()")
    leader = compiled.leader() if isinstance(compiled, _MixtureModel) else compiled
    if isinstance(leader, _AODEModel):
        names = [n for n, kind in model.feature_kinds_.items() if kind != "ignore"]
        return {name: [other for other in names if other != name] for name in names}
    parents = model.summary().get("parents")
    if parents is None:
        return None
    return {name: [p for p in others if p is not None] for name, others in parents.items()}


# -- one plot per kind of table: what to draw, or None when nothing is known ---------
#
# Each returns (y label, {series: (xs, ys)}) for curves, or (y label, groups,
# {series: [height per group]}) for bars; a series is the class's position.

_SVG_GRID = 240                   # steps of a density curve


def _svg_densities(model, feature, grid, present):
    """{series: (grid, p(x | c))} of the classes present."""
    logs = _picture_log_densities(model, feature, grid)
    return {i: (grid, [INF if v >= 700 else exp(v) for v in logs[i]]) for i in present}


def _svg_grid(lo, hi, extra=()):
    """_SVG_GRID + 1 even steps from lo to hi, and the extra points between."""
    return sorted(set([lo + (hi - lo) * k / _SVG_GRID for k in range(_SVG_GRID + 1)] +
                      [x for x in extra if lo <= x <= hi]))


def _svg_gaussian(model, feature, table):
    """Normal densities over each class's mean +- 4 standard deviations (the mean and
    +- 1/2, 1 and 2 sd on the grid, so that narrow peaks keep their shape)."""
    index = {label: i for i, label in enumerate(model.classes_)}
    spreads = {index[c]: (m, sqrt(table["variance"][c])) for c, m in table["mean"].items()}
    if not spreads:
        return None
    lo, hi = _svg_span([m - 4 * s for m, s in spreads.values()] +
                       [m + 4 * s for m, s in spreads.values()])
    grid = _svg_grid(lo, hi, [m + s * k for m, s in spreads.values()
                              for k in (-2, -1, -0.5, 0, 0.5, 1, 2)])
    return "density p(x | class)", _svg_densities(model, feature, grid, spreads)


def _svg_kde(model, feature, table):
    """Kernel densities over the training values +- 3 bandwidths, the values (up to
    2,000) on the grid: narrow peaks keep their shape, a point mass shows at its value."""
    values = _picture_recorded_values(model, feature)
    if not values:
        return None
    bandwidth = [table["bandwidth"].get(label, 0.0) for label in model.classes_]
    h = max(bandwidth)
    lo, hi = _svg_span([min(min(v) for v in values.values()) - 3 * h,
                        max(max(v) for v in values.values()) + 3 * h])
    recorded = [v for vs in values.values() for v in vs]
    if len(recorded) > 2000:              # a long record: its point masses only
        recorded = [v for i, vs in values.items() if not bandwidth[i] for v in vs]
    grid = _svg_grid(lo, hi, recorded)
    return "density p(x | class)", _svg_densities(model, feature, grid, values)


def _svg_poisson(model, feature, table):
    """Poisson probabilities at 0, 1, 2 ... up to the largest rate + 4 sd."""
    index = {label: i for i, label in enumerate(model.classes_)}
    rates = {index[c]: rate for c, rate in table.get("rate", {}).items()}
    if not rates:
        return None
    top = max(math.ceil(rate + 4 * sqrt(rate) + 1) for rate in rates.values())
    counts = list(range(0, top + 1, max(1, top // 200)))
    return "P(x | class)", _svg_densities(model, feature, counts, rates)


def _svg_interval(cuts, b):
    """Bin b between the cut points as text: <= c1, (c1, c2], ..., > ck."""
    if not cuts:
        return "all values"
    if b == 0:
        return "\u2264 %s" % _svg_number(cuts[0], 7)
    if b == len(cuts):
        return "> %s" % _svg_number(cuts[-1], 7)
    return "(%s, %s]" % (_svg_number(cuts[b - 1], 7), _svg_number(cuts[b], 7))


def _svg_discretized(model, feature, table):
    """P(bin | class): a group of bars per bin between the cut points."""
    if not table.get("probabilities"):
        return None
    index, cuts = {label: i for i, label in enumerate(model.classes_)}, table["cuts"]
    return ("P(bin | class)", [_svg_interval(cuts, b) for b in range(len(cuts) + 1)],
            {index[c]: list(p) for c, p in table["probabilities"].items()})


def _svg_categorical(model, feature, table):
    """P(value | class) of the values of largest mean probability (as many as fit, in
    table order), the rest summed as "other"."""
    probabilities = table.get("probabilities") or {}
    values = list(dict.fromkeys(v for p in probabilities.values() for v in p))
    if not values:
        return None
    limit = max(3, min(12, 160 // len(probabilities)))
    others = len(values) > limit
    if others:
        mean = {v: sum(p.get(v, 0.0) for p in probabilities.values()) for v in values}
        kept = set(sorted(values, key=lambda v: -mean[v])[:limit - 1])
        values = [v for v in values if v in kept]
    index = {label: i for i, label in enumerate(model.classes_)}
    heights = {index[c]: [p.get(v, 0.0) for v in values] +
               ([max(0.0, 1.0 - sum(p.get(v, 0.0) for v in values))] if others else [])
               for c, p in probabilities.items()}
    return "P(value | class)", [str(v) for v in values] + ["other"] * others, heights


def _svg_words(model, feature, table):
    """P(word | class) of the words that most favour each class: those of largest
    P(w | c) log(P(w | c) / max over the other classes P(w | c'))."""
    probabilities = table.get("probabilities") or {}
    if not any(probabilities.values()):
        return None
    per_class = max(1, 16 // len(probabilities))
    chosen = []
    for c, p in probabilities.items():
        rivals = [o for d, o in probabilities.items() if d != c]
        gain = {w: q * log(q / max([o.get(w, 0.0) for o in rivals] + [1e-300]))
                for w, q in p.items() if q > 0}
        chosen += [w for w in sorted(gain, key=gain.get, reverse=True)
                   if w not in chosen][:per_class]
    index = {label: i for i, label in enumerate(model.classes_)}
    return ("P(word | class)", chosen,
            {index[c]: [p.get(w, 0.0) for w in chosen] for c, p in probabilities.items()})


_SVG_KINDS = {"gaussian": _svg_gaussian, "kde": _svg_kde, "poisson": _svg_poisson,
              "discretized": _svg_discretized, "categorical": _svg_categorical,
              "text": _svg_words}


def _svg_plot(model, feature, tables, width=540, height=300, small=False):
    """The SVG of one feature (see _Classifier.plot); tables: _picture_tables'.  With
    more than 8 classes, bars become a heat map; small: a thumbnail without title
    and legend."""
    try:
        table = tables[feature]
    except (KeyError, TypeError):
        raise NaiveBayesError("plot(): feature %s is not one of the model's features (%s)"
                              % (_shown(feature, 40), _svg_clip(", ".join(map(repr, tables)),
                                                                60)), call="plot()") from None
    title = "%s (%s)" % (feature, table["kind"])
    draw = _SVG_KINDS.get(table["kind"])
    drawn = draw and draw(model, feature, table)
    if not drawn:
        why = ("ignored by the model" if table["kind"] == "ignore" else
               "no values in training" if draw else "no picture of this kind")
        return _svg_message(title, why, *((width, 40) if small else (420, 80)))
    classes = model.classes_
    notes = {i: " (no values)" for i in range(len(classes)) if i not in drawn[-1]}
    if len(drawn) == 2:
        y_label, curves = drawn
        peaks = sorted(max([y for y in ys if y == y] + [0.0]) for _, ys in curves.values())
        while len(peaks) > 1 and not peaks[-1] <= 4 * peaks[-2]:
            peaks.pop()               # a peak over 4 times the next runs off the top
        y_range = _svg_round_top(peaks[-1])
        for i, (xs, ys) in curves.items():
            peak = max([y for y in ys if y == y] + [0.0])
            if peak > y_range[1]:
                notes[i] = " (peak %s at %s)" % (_svg_number(peak),
                                                 _svg_number(xs[ys.index(peak)]))
        return _svg_line_chart(title, curves, classes, str(feature), y_label, y_range,
                               notes, small, width, height)
    y_label, groups, heights = drawn
    if len(heights) > 8 and not small:        # many classes: bars would be a thicket
        rows = sorted(heights)
        largest = max(max(heights[i]) for i in rows) or 1.0
        cell = max(38.0, min(90.0, max(_svg_text_width(_svg_clip(g, 22), 11) for g in groups)
                             + 8))
        return _svg_heat_map(
            "%s: %s" % (title, y_label), [classes[i] for i in rows], groups,
            lambda r, c: heights[rows[r]][c] / largest,
            lambda r, c: "%.2f" % heights[rows[r]][c],
            lambda r, c: "%s, %s: %s" % (classes[rows[r]], groups[c],
                                         _svg_number(heights[rows[r]][c])),
            ("class", "shade: probability, darkest = %s" % _svg_number(largest, 3)),
            (cell, 20.0))
    return _svg_bar_chart(title, groups, heights, classes, y_label, notes, small, width,
                          height)


def _svg_structure(model):
    """A node-link diagram: the class in the middle with a light line to every
    feature, an arrow from each of a feature's other parents (a chord bent to its
    left, clear of the class), and in AODE a light chord between every pair."""
    parents, everything = _picture_parents(model) or {}, isinstance(model, AODE)
    names = [n for n, kind in model.feature_kinds_.items() if kind != "ignore"]
    kind = type(model).__name__
    caption = ("%s: each feature in turn is the parent of all the others" % kind
               if everything else "%s: the class is a parent of every feature; arrows "
               "show the other parents" % kind if parents else
               "%s: every feature depends on the class only" % kind)
    radius = max(110.0, min(260.0, len(names) * 14.0))
    room = max([_svg_text_width(_svg_clip(name, 18)) for name in names] + [30]) + 16
    width = max(560, 2 * (radius + room) + 20, _svg_text_width(caption, 14) + 24)  # bold
    height = 2 * (radius + 34) + 40
    cx, cy = width / 2, height / 2 + 14
    where = {None: (cx, cy, 24.0)}                # centre and radius of each node
    for k, name in enumerate(names):
        turn = 2 * math.pi * k / len(names)
        where[name] = (cx + radius * math.sin(turn), cy - radius * math.cos(turn), 6.0)
    spokes, arcs, nodes = [], [], []
    for k, name in enumerate(names + [None]):
        x, y, r = where[name]
        if name is not None:
            spokes.append(_element("line", x1=cx, y1=cy, x2=x, y2=y, stroke="#cccccc"))
        for parent in parents.get(name, ()):
            if parent not in where or everything and names.index(parent) < k:
                continue
            px, py, _ = where[parent]
            bend = 0.0 if everything else 0.3     # AODE's chords: straight, every pair
            qx, qy = (px + x) / 2 + bend * (py - y), (py + y) / 2 + bend * (x - px)
            back = (r + 2) / max(hypot(x - qx, y - qy), 1e-9)   # stop at the node's edge
            arcs.append(_element(
                "path", d="M%s %sQ%s %s %s %s" % tuple(map(_svg_px, (
                    px, py, qx, qy, x - (x - qx) * back, y - (y - qy) * back))),
                fill="none", stroke="#999999" if everything else _svg_colour(1),
                stroke_width=1.0 if everything else 1.6,
                marker_end=None if everything else ("url(#%sarrow)" % _SVG_ID,),
                class_="nb-edge", data_from=parent, data_to=name))
        if name is None:
            continue
        side = "start" if x > cx + 1 else "end" if x < cx - 1 else "middle"
        nodes.append(_element("circle", cx=x, cy=y, r=r, fill="#ffffff", stroke=_SVG_INK,
                              stroke_width=1.5, class_="nb-node", data_feature=name) +
                     _svg_text(x + {"start": 10, "end": -10, "middle": 0}[side],
                               y + (4 if side != "middle" else -12 if y < cy else 20),
                               name, 12, side, 18))
    nodes.append(_element("circle", cx=cx, cy=cy, r=24.0, fill=_svg_colour(0)) +
                 _svg_text(cx, cy + 4, "class", 12, "middle", fill="#ffffff",
                           font_weight="bold"))
    return _svg_document(width, height, _svg_text(12, 20, caption, 13, font_weight="bold") +
                         "".join(spokes + arcs + nodes), "Structure: " + caption)


# -- evaluation pictures: confusion matrix, ROC curves, reliability, explanations ----

def _svg_roc_points(scores, positives):
    """The ROC curve [(false positive rate, true positive rate)] and the area under
    it; tied scores make one diagonal step, so the area is the Mann-Whitney U / (P N)."""
    pairs = sorted(zip(scores, positives), key=lambda pair: -pair[0])
    p_total = sum(positives)
    n_total = len(pairs) - p_total
    points, tp, fp, area, k = [(0.0, 0.0)], 0, 0, 0.0, 0
    while k < len(pairs):
        score, step_tp, step_fp = pairs[k][0], 0, 0
        while k < len(pairs) and pairs[k][0] == score:
            step_tp, step_fp, k = step_tp + pairs[k][1], step_fp + (not pairs[k][1]), k + 1
        area += step_fp * (tp + step_tp / 2)
        tp, fp = tp + step_tp, fp + step_fp
        points.append((fp / n_total, tp / p_total))
    return points, area / (p_total * n_total)


def _svg_roc(classes, probabilities, truths):
    """ROC curves: of the second class when there are two, else of each class against
    the rest, with the area under each (AUC) in the legend."""
    curves, notes, areas = {}, {}, []
    for i in [1] if len(classes) == 2 else range(len(classes)):
        positives = [t == classes[i] for t in truths]
        if 0 < sum(positives) < len(positives):
            points, area = _svg_roc_points([p[i] for p in probabilities], positives)
            curves[i] = ([x for x, _ in points], [y for _, y in points])
            notes[i] = " (AUC %.3f)" % area
            areas.append(area)
    if not curves:
        return _svg_message("ROC curve", "needs rows of at least two classes")
    title = ("ROC curve, positive class %s" % _svg_clip(classes[1], 30) if len(classes) == 2
             else "ROC curves, each class against the rest (mean AUC %.3f)"
             % (sum(areas) / len(areas)))

    def chance(frame):
        return _element("line", x1=frame.x(0.0), y1=frame.y(0.0), x2=frame.x(1.0),
                        y2=frame.y(1.0), stroke="#999999", stroke_dasharray="4 4")
    return _svg_line_chart(title, curves, classes, "false positive rate",
                           "true positive rate", (0.0, 1.0), notes, width=560, height=380,
                           under=chance, listed=curves, plot_width=340)


def _svg_reliability(classes, probabilities, truths, bins=10):
    """Reliability diagram: per bin of predicted probability, the mean prediction
    against the observed frequency (marker area ~ rows), the rows per bin below."""
    if len(classes) == 2:
        pairs = [(p[1], t == classes[1]) for p, t in zip(probabilities, truths)]
        what = "P(%s)" % _svg_clip(classes[1], 30)
    else:
        pairs = [(max(p), t == classes[p.index(max(p))])
                 for p, t in zip(probabilities, truths)]
        what = "P(predicted class)"
    groups = [[] for _ in range(bins)]
    for p, hit in pairs:
        groups[min(bins - 1, int(p * bins))].append((p, hit))
    most = max(len(g) for g in groups)
    curve = _SvgFrame(56, 34, 300, 300, (0.0, 1.0), (0.0, 1.0))
    counts = _SvgFrame(56, 368, 300, 80, (0.0, 1.0), _svg_round_top(most * 1.3))
    title = "Reliability: observed frequency against %s" % what
    body = [_svg_text(12, 18, title, 13, font_weight="bold"),
            _svg_axes(curve, None, "observed frequency"),
            _svg_axes(counts, "mean predicted %s, bins of %g" % (what, 1 / bins), "rows"),
            _element("line", x1=curve.x(0.0), y1=curve.y(0.0), x2=curve.x(1.0),
                     y2=curve.y(1.0), stroke="#999999", stroke_dasharray="4 4")]
    points = []
    for b, group in enumerate(groups):
        x0, top = counts.x(b / bins), counts.y(len(group))
        body.append(_element("rect", x=x0 + 1, y=top, width=28.0,
                             height=counts.y(0.0) - top, fill="#bbbbbb", class_="nb-count"))
        if group:
            points.append((sum(p for p, _ in group) / len(group),
                           sum(h for _, h in group) / len(group), len(group)))
            body.append(_svg_text(x0 + 15, top - 3, len(group), 9, "middle"))
    body.append(_element("polyline", points=" ".join(
        "%s,%s" % (_svg_px(curve.x(m)), _svg_px(curve.y(o))) for m, o, _ in points),
        fill="none", stroke=_svg_colour(0), stroke_width=1.6))
    for m, o, n in points:
        body.append(_element("g", _element("title", _xml_text(
            "mean prediction %.3f, observed %.3f, %d rows" % (m, o, n))) +
            _svg_marker(0, curve.x(m), curve.y(o), 2.5 + 5 * sqrt(n / most)),
            class_="nb-bin", data_mean=repr(m), data_observed=repr(o), data_count=n))
    return _svg_document(max(380, _svg_text_width(title, 13) + 30), 498, "".join(body),
                         title)


def _svg_waterfall(parts, classes, limit=12):
    """Waterfall bars of log P(best) / P(runner-up), parts as _log_odds_parts gives
    them: each part moves the running sum (parts of 0 left out); the last bar is the
    total."""
    items = [item for item in parts["items"] if isfinite(item[3]) and item[3]]
    infinite = [item[0] for item in parts["items"] if not isfinite(item[3])]
    if len(items) > limit:
        rest = items[limit - 1:]
        items = items[:limit - 1] + [("%d other parts" % len(rest), "", "",
                                      fsum(v for *_, v in rest))]
    labels = [_svg_clip("%s%s%s" % (f, s, _svg_short_numbers(w)), 44) for f, s, w, _ in items]
    total, running, spans = fsum(v for *_, v in items), 0.0, []
    for *_, v in items:
        spans.append((running, running + v))
        running += v
    lo, hi = _svg_span([0.0, total] + [x for s in spans for x in s])
    room = max([_svg_text_width(label, 11) for label in labels] + [100]) + 16
    width = max(560, room + 380)
    frame = _SvgFrame(room, 46, width - room - 30, 20 * (len(items) + 1),
                      (lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.16), (0.0, 1.0))
    best, runner = parts["predicted"], parts["runner_up"]
    ours, theirs = classes.index(best), classes.index(runner)
    key, key_width, _ = _svg_legend([(ours, "for %s" % _svg_clip(best, 24))], "bar")
    body = [_svg_text(12, 18, "log P(%s) / P(%s) = %s, part by part" % (
        _svg_clip(best, 24), _svg_clip(runner, 24), _svg_number(total)), 13, font_weight="bold"),
        _element("g", key, transform="translate(%s 24)" % _svg_px(room - 4)),
        _element("g", _svg_legend([(theirs, "for %s" % _svg_clip(runner, 24))], "bar")[0],
                 transform="translate(%s 24)" % _svg_px(room + key_width)),
        _svg_axes(frame, "contribution to the log odds (nats)", None, y_numeric=False),
        _element("line", x1=frame.x(0.0), y1=float(frame.top), x2=frame.x(0.0),
                 y2=float(frame.top + frame.height), stroke="#555555")]
    for k, (label, (a, b)) in enumerate(zip(labels + ["total"], spans + [(0.0, total)])):
        y, (x0, x1) = frame.top + k * 20 + 3, sorted((frame.x(a), frame.x(b)))
        fill = _SVG_INK if k == len(items) else _svg_fill(ours if b >= a else theirs)
        tip = _element("title", _xml_text("%s: %+.4f" % (label, b - a)))
        body.append(_element("rect", tip, x=x0, y=float(y), width=max(x1 - x0, 1.0),
                             height=14.0, fill=fill, class_="nb-step",
                             data_value=repr(b - a)) +
                    _svg_text(room - 8, y + 11, label, 11, "end",
                              font_weight="bold" if k == len(items) else None) +
                    _svg_text(x1 + 4, y + 11, "%+.3g" % (b - a), 10))
    if infinite:
        body.append(_svg_text(room, frame.top + frame.height + 50, "not drawn (infinite): "
                              + ", ".join(map(str, infinite)), 11, limit=60))
    return _svg_document(width, frame.top + frame.height + 60, "".join(body),
                         "Explanation", len(classes))


# -- the HTML page and the notebook view ---------------------------------------------

_REPORT_CSS = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; color: #222; margin: 24px;
       max-width: 1180px; line-height: 1.4; }
h1 { font-size: 22px; } h2 { font-size: 18px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 8px 16px 16px 0; display: inline-table;
        vertical-align: top; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
p.note { font-size: 13px; color: #444; }
figure { display: inline-table; margin: 8px 10px 16px 0; vertical-align: top; }
figcaption { display: table-caption; caption-side: bottom; font-size: 13px; color: #444; }
.share { display: inline-block; height: 10px; background: #0072B2; }
svg { max-width: 100%; height: auto; }
@media print { body { margin: 0; } figure, table, tr { break-inside: avoid; }
               h2 { break-after: avoid; }
               * { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""
_REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _html_table(header, rows, numeric=()):
    """An HTML table; cells are escaped, unless given as (markup,)."""
    def cell(k, value, tag):
        content = value[0] if isinstance(value, tuple) else _xml_text(value)
        return "<%s%s>%s</%s>" % (tag, ' class="n"' if k in numeric else "", content, tag)
    return "<table><tr>%s</tr>%s</table>" % (
        "".join(cell(-1, h, "th") for h in header),
        "".join("<tr>%s</tr>" % "".join(cell(k, v, "td") for k, v in enumerate(row))
                for row in rows))


def _html_figure(svg, caption):
    """A picture with its caption."""
    return "<figure>%s<figcaption>%s</figcaption></figure>" % (svg, _xml_text(caption))


def _html_share(fraction, width=120):
    """An inline bar of a fraction in [0, 1], as markup for _html_table."""
    return ('<span class="share" style="width:%spx"></span>'
            % _svg_px(max(1.0, fraction * width)),)


def _html_summary(model):
    """The classes with their counts, the features' kinds and descriptions, the
    parameters."""
    summary = model.summary()
    counts = [count for _, count in summary["classes"]]
    classes = _html_table(["class", "rows", "share", ""], [
        (label, _svg_number(n, 8), "%.1f%%" % (100 * n / sum(counts)),
         _html_share(n / max(counts))) for label, n in summary["classes"]], numeric=(1, 2))
    features = _html_table(["feature", "kind", "what the model holds"], summary["features"])
    params = "; ".join("%s=%s" % (k, _shown(v))
                       for k, v in sorted(model.get_params().items()))
    line = "%s: %s rows, %d class%s, %s%s." % (
        type(model).__name__, _svg_number(sum(counts), 12), len(counts),
        "" if len(counts) == 1 else "es", _counted(len(summary["features"]), "feature"),
        "" if summary["target"] is None else ", target %s" % summary["target"])
    return "<h2>Summary</h2><p>%s</p>%s%s<p class=\"note\">Parameters: %s</p>" % (
        _xml_text(line), classes, features, _xml_text(params))


def _html_informative(model, top=20):
    """The ranking of most_informative_features, with bars on a log scale."""
    ranked = _informative_rows(model, top)
    if not ranked:
        return ""
    largest = math.log1p(max(score for *_, score, _ in ranked)) or 1.0
    rows = [(k + 1, feature, "" if value is None else _svg_short_numbers(value), favoured,
             _svg_number(score), "e^%s" % _svg_number(score) if ratio == INF
             else _svg_number(ratio), _html_share(math.log1p(score) / largest))
            for k, (feature, value, favoured, score, ratio) in enumerate(ranked)]
    return ("<h2>Most informative features</h2><p class=\"note\">Score: the largest "
            "log-likelihood ratio between two classes, in nats (for numbers the largest "
            "Kullback-Leibler divergence); ratio: its exponential; bars on a log scale."
            "</p>" + _html_table(["#", "feature", "value", "favours", "score", "ratio", ""],
                                 rows, numeric=(0, 4, 5)))


def _html_explanations(model, X, probabilities, truths, count=3):
    """Waterfall explanations of a few rows: the most confident right and wrong
    predictions and the least confident (without labels, the first rows)."""
    classes = model.classes_
    if len(classes) < 2:
        return "<h2>Explanations</h2><p>The model has one class: nothing to compare.</p>"
    confidence = [max(p) for p in probabilities]
    if truths is None:
        chosen = list(range(min(count, len(X))))
    else:
        right = [k for k, p in enumerate(probabilities)
                 if classes[p.index(confidence[k])] == truths[k]]
        wrong = sorted(set(range(len(X))) - set(right))
        chosen = [max(group, key=confidence.__getitem__) for group in (right, wrong)
                  if group]
        chosen += [k for k in sorted(range(len(X)), key=confidence.__getitem__)
                   if k not in chosen][:max(0, count - len(chosen))]
    out = ["<h2>Explanations</h2><p class=\"note\">Each part of log P(predicted) / "
           "P(runner-up) for a few rows, as the model explains them.</p>"]
    for k in chosen:
        parts = _log_odds_parts(model, X[k])
        out.append(_html_figure(_svg_waterfall(parts, classes), "Row %d: predicted %s "
                                "(P = %.4g), runner-up %s (P = %.4g)%s" % (
                                    k + 1, parts["predicted"], parts["probability"],
                                    parts["runner_up"], parts["runner_probability"],
                                    "" if truths is None
                                    else ", true class %s" % truths[k])))
    return "".join(out)


def _html_evaluation(model, probabilities, truths):
    """Accuracy and log loss, the confusion matrix, ROC curves, reliability diagram."""
    evaluation = _Evaluation(model.classes_)
    evaluation.add(truths, probabilities)
    report = evaluation.report()
    labels, matrix = report["labels"], report["confusion_matrix"]
    totals = [sum(row) or 1 for row in matrix]
    size = max(26.0, min(54.0, 640.0 / len(labels)))
    confusion = _svg_heat_map(
        "Confusion matrix (rows: true class, columns: predicted)", labels, labels,
        lambda r, c: matrix[r][c] / totals[r],
        lambda r, c: str(matrix[r][c]) if matrix[r][c] else "",
        lambda r, c: "true %s, predicted %s: %d (%.1f%% of the row)" % (
            labels[r], labels[c], matrix[r][c], 100 * matrix[r][c] / totals[r]),
        ("true", "predicted"), (size, size), True)
    out = ["<h2>Evaluation</h2><p>%s rows: accuracy %.4f, log loss %.4f.</p>"
           % (_svg_number(report["rows"], 12), report["accuracy"], report["log_loss"]),
           _html_figure(confusion, "Counts; shade: share of the true class's rows; "
                        "outlined: the diagonal.")]
    if len(model.classes_) > 1:           # the narrower one first, beside the matrix
        out.append(_html_figure(_svg_reliability(model.classes_, probabilities, truths),
                                "Dashed: perfect calibration; bars: rows per bin."))
        out.append(_html_figure(_svg_roc(model.classes_, probabilities, truths),
                                "Dashed: chance."))
    return "".join(out)


def _html_features(model):
    """The structure, where there is one, and every feature's plot."""
    parents = _picture_parents(model)
    out = ["<h2>Features</h2>"]
    if parents is not None:
        out.append(_html_figure(_svg_structure(model), "Which feature depends on which."))
    tables = _picture_tables(model, "report_html()")
    for name, kind, description in model.summary()["features"]:
        caption = "%s: %s, %s" % (name, kind, description)
        if parents and parents.get(name) and not isinstance(model, AODE):
            caption += "; parents: " + ", ".join(map(str, parents[name]))
        out.append(_html_figure(_svg_plot(model, name, tables), caption))
    return "".join(out)


def report_html(model, X=None, y=None, proba=None, title=None):
    """One self-contained HTML page about a fitted model: its summary, the ranking of
    informative features and every feature's plot; with rows X a few rows'
    explanations, and with their labels y the confusion matrix, ROC curves and
    reliability diagram.  proba: probabilities of X (classes_ order) to evaluate in
    place of predict_proba(X), the out-of-fold ones of a cross-validation say.

    >>> X, y = [["a"], ["a"], ["b"], ["b"]], ["yes", "yes", "no", "yes"]
    >>> page = report_html(CategoricalNB().fit(X, y), X, y)
    >>> page.startswith("<!DOCTYPE html>") and "Confusion matrix" in page
    True
    """
    model._model("report_html()")
    if hasattr(X, "columns") and hasattr(X, "to_dict"):     # a pandas DataFrame
        X = X.to_dict("records")
    X, y = (None if X is None else list(X)), (None if y is None else list(y))
    if y is not None and (X is None or len(X) != len(y)):
        raise NaiveBayesError("report_html(): y has %d labels, expected one per row of X "
                              "(%s)" % (len(y), "no X" if X is None else
                                        _counted(len(X), "row")), call="report_html()")
    body = [_html_summary(model), _html_informative(model)]
    if X:
        if proba is None:
            proba = model.predict_proba(X)
        probabilities = [list(p) for p in proba]
        if len(probabilities) != len(X) or any(len(p) != len(model.classes_)
                                               for p in probabilities):
            raise NaiveBayesError("report_html(): proba has %s; expected one per row of X "
                                  "(%d), each of %d probabilities (one per class)"
                                  % (_counted(len(probabilities), "row"), len(X),
                                     len(model.classes_)), call="report_html()")
        if y:
            body.append(_html_evaluation(model, probabilities, y))
        body.append(_html_explanations(model, X, probabilities, y))
    body.append(_html_features(model))
    title = title or "%s model" % type(model).__name__
    return ('<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head>'
            '<meta charset="utf-8"/><meta http-equiv="Content-Security-Policy" '
            'content="%s"/><meta name="viewport" content="width=device-width, '
            'initial-scale=1"/><title>%s</title><style>%s</style></head><body><h1>%s</h1>'
            '%s</body></html>\n' % (_REPORT_POLICY, _xml_text(title), _REPORT_CSS,
                                    _xml_text(title), "".join(body)))


def _notebook_html(model, limit=12):
    """The notebook view: the classes and their key, then of the first `limit`
    features the kind, a small plot and the description."""
    summary = model.summary()
    key, width, height = _svg_legend(list(enumerate(model.classes_)), "both")
    key = _svg_document(width + 10, height + 4, key, "classes", len(model.classes_))
    tables = _picture_tables(model, "_repr_html_()")
    rows = [(name, kind, (_svg_plot(model, name, tables, 260, 110, True),), description)
            for name, kind, description in summary["features"][:limit]]
    more = len(summary["features"]) - limit
    counts = ", ".join("%s: %s" % (c, _svg_number(n, 12)) for c, n in summary["classes"])
    return '<div class="naive-bayes"><p><b>%s</b>, classes %s</p>%s%s%s</div>' % (
        _xml_text(type(model).__name__), _xml_text(counts), key,
        _html_table(["feature", "kind", "", "what the model holds"], rows),
        "<p>and %d more features (report_html shows all)</p>" % more if more > 0 else "")


def _notebook_svg(model):
    """One picture of the model where one fits: its structure (AODE, TAN, BayesNet) or
    its one feature's plot; else None (the HTML view shows more)."""
    if _picture_parents(model) is not None:
        return _svg_structure(model)
    names = [n for n, kind in model.feature_kinds_.items() if kind != "ignore"]
    if len(names) != 1:
        return None
    return _svg_plot(model, names[0], _picture_tables(model, "_repr_svg_()"))


# ----------------------------------------------------------------------------------
# Reading files: CSV and ARFF as people have them
#
# read_csv and read_arff return a Table; the command line reads through the same
# _TableReader, in batches.  Files are read as a stream of numbered lines (any text
# encoding, byte-order marks, bounded line length), split into cells (CSV with a
# detected delimiter and decimal mark, or Weka's ARFF), and converted column by
# column into values of the kinds declared or guessed from a sample of rows.  Every
# parse of a cell, a header, a date, an index or an encoding that fails is a
# NaiveBayesError naming the file and the line (and the column, for a cell).
# ----------------------------------------------------------------------------------


_SAMPLE_ROWS = 10000      # rows read to decide what each column holds
_BATCH_ROWS = 2000        # rows per partial_fit call: bounds the memory of a fit
# Characters in one line of a file: a longer line is refused once that much is read,
# before it fills the memory.
_LINE_LIMIT = 1 << 25
_PROG = "naive_bayes.py"
# Cells that mean "missing" unless --missing-only says otherwise: pandas' default list
# (read_csv's na_values), and Weka's "?".
_MISSING_CELLS = ("", "?", "NA", "N/A", "n/a", "NaN", "nan", "-NaN", "-nan", "NULL",
                  "null", "None", "#N/A", "#N/A N/A", "#NA", "<NA>", "-1.#IND", "-1.#QNAN",
                  "1.#IND", "1.#QNAN")
_DELIMITER_NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t", "pipe": "|",
                    "space": " "}
_DELIMITERS = (",", ";", "\t", "|")      # detected, in this order of preference
_CODE_VALUES = 5          # an integer column with at most this many values may hold codes


class _Usage(Exception):
    """A command-line mistake: exit status 2."""


class _OptionError(NaiveBayesError):
    """A reading option that names no column or has a bad value (for the command
    line, a usage mistake: exit status 2)."""


def _typed(value, limit=40):
    """A value as it would be typed on a shell command line, cut to about ``limit``
    characters (a column name of a megabyte makes no one-line message)."""
    text = str(value)
    if len(text) > limit or "\n" in text or "\r" in text:
        text = _clip(text, limit)
    return _quote(text)


class _ReadOptions:
    """The options of read_csv and read_arff, and of the command line (which passes
    its own), checked; and how to name one in a message, as its caller writes it:
    ``--ignore id`` on the command line, ``ignore=['id']`` in Python."""

    _LISTS = ("missing", "missing_only")          # and each kind's option
    __slots__ = ("call", "cli", "delimiter", "decimal", "encoding", "missing",
                 "missing_only", "numeric", "columns", "model")

    def __init__(self, call, cli, delimiter=None, decimal=None, encoding=None,
                 missing=(), missing_only=None, numeric=None, columns=None, model=None):
        self.call = call
        self.cli = cli
        self.columns = columns or {}
        self.model = model
        self.delimiter = None if delimiter is None else self._delimiter(delimiter)
        if decimal is not None and decimal not in (".", ","):
            raise _OptionError("%s: expected . or ," % self.spell("decimal", decimal))
        self.decimal = decimal
        self.encoding = None if encoding is None else self._encoding(encoding)
        self.missing = list(missing or ())
        self.missing_only = None if missing_only is None else list(missing_only)
        problem = NaiveBayes._parameters["numeric"].check(numeric) if numeric else None
        if problem is not None:
            raise _OptionError("%s: expected %s" % (self.spell("numeric", numeric), problem))
        self.numeric = numeric or NaiveBayes._parameters["numeric"].default

    @classmethod
    def from_args(cls, args, numeric=None, model=None):
        """The reading options of a command line (argparse's namespace)."""
        columns = {kind: _columns(getattr(args, kind, None)) for kind in _KINDS}
        return cls("", True, args.delimiter, args.decimal, args.encoding, args.missing,
                   args.missing_only, numeric, {k: v for k, v in columns.items() if v},
                   model)

    @classmethod
    def from_keywords(cls, call, keywords, csv):
        """The options of read_csv (csv=True) or read_arff, by keyword; an unknown
        keyword is a TypeError, as Python's own."""
        allowed = ("delimiter", "decimal", "encoding", "missing", "missing_only",
                   "numeric", "model") if csv else ("encoding", "numeric", "model")
        columns, given = {}, {}
        for name, value in keywords.items():
            if value is None and (name in _KINDS or name in allowed):
                continue                  # None: the default, as for every option
            if name in _KINDS:
                columns[name] = value
            elif name in allowed:
                given[name] = value
            else:
                raise TypeError("%s got an unexpected keyword argument %r; expected %s "
                                "or a kind (%s)" % (call, name, ", ".join(allowed),
                                                    ", ".join(_KINDS)))
        options = cls(call, False)             # the spelling, for the checks below
        for name in [name for name in given if name in cls._LISTS] + list(columns):
            value = given[name] if name in given else columns[name]
            if value is None:
                continue
            names = [value] if isinstance(value, str) else value
            try:
                names = list(names)
            except TypeError:
                names = None
            if names is None or not all(isinstance(n, str) for n in names):
                raise _OptionError("%s: expected a list of %s" % (
                    options.spell(name, value), "cells" if name in cls._LISTS else
                    "column names"))
            if name in columns:
                columns[name] = names
            else:
                given[name] = names
        for name in ("delimiter", "decimal", "encoding", "numeric"):
            if not isinstance(given.get(name, ""), str):
                raise _OptionError("%s: expected a string" % options.spell(name, given[name]))
        model = given.pop("model", None)
        if model is not None and not (isinstance(model, _Classifier) and
                                      model.__sklearn_is_fitted__()):
            raise _OptionError("%s: model=%s; expected a fitted classifier of this module"
                               % (call, _shown(model)))
        return cls(call, False, columns={k: v for k, v in columns.items() if v},
                   model=model, **given)

    def spell(self, option, value=None, placeholder=False):
        """An option as its caller writes it: --ignore id, or ignore=['id']."""
        if self.cli:
            flag = "--" + option.replace("_", "-")
            if value is None:
                return flag
            if isinstance(value, list):
                value = ",".join(value)
            return "%s %s" % (flag, value if placeholder else _typed(value))
        if value is None or placeholder:
            return "%s=%s" % (option, value or "")
        if isinstance(value, list):
            return "%s=%s" % (option, _shown(value, 50))
        if isinstance(value, str) and (option in _KINDS or option in self._LISTS):
            value = [value]
        return "%s=%s" % (option, _shown(value, 50))

    def _delimiter(self, option, name="delimiter"):
        """A delimiter option: a character, or tab, comma, semicolon, pipe, space, \\t."""
        delimiter = _DELIMITER_NAMES.get(option.lower(), option) if isinstance(
            option, str) else option
        if not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in "\"\r\n":
            raise _OptionError("%s: expected one character, or tab, comma, semicolon, pipe "
                               "or space" % self.spell(name, option))
        return delimiter

    def _encoding(self, name):
        """The canonical name of a text encoding that Python knows."""
        import codecs
        try:
            canonical = codecs.lookup(name).name
        except (LookupError, TypeError, ValueError):
            raise _OptionError("%s: not an encoding Python knows"
                               % self.spell("encoding", name)) from None
        try:
            "a".encode(canonical)
        except LookupError:               # base64, rot13, zlib: bytes to bytes
            raise _OptionError("%s: not a text encoding (it turns bytes into bytes)"
                               % self.spell("encoding", name)) from None
        except UnicodeError:
            pass                          # a text encoding that refuses text: see _Lines
        return canonical


def _columns(option):
    """Column names from a comma-separated option value (or several uses of it);
    --ignore '' names the column without a name."""
    names = []
    for value in option or ():
        if value.strip() == "":
            names.append("")
        names.extend(name.strip() for name in value.split(",") if name.strip())
    return names


class _Lines:
    """The lines of a file (a path, "-" for standard input, or an open file, binary or
    text) as text, numbered: decoded line by line so that a decoding error names its
    line, each line at most _LINE_LIMIT characters.  The encoding is ``encoding``,
    else the one a byte-order mark names (UTF-8, UTF-16, UTF-32), else UTF-8."""

    _BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\x00\x00", "utf-32-le"),
             (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"),
             (b"\xfe\xff", "utf-16-be"))
    # Characters whose bytes must be ASCII's for a file to be split into lines
    # before it is decoded (so that a decoding error names its line).
    _PLAIN = "\n\r\t ,;|\"'%{}?.-+0123456789azAZ"

    def __init__(self, path, encoding=None, spell=None):
        self.number = 0
        self.pending = []                 # decoded lines not yet returned, last first
        self.rest = b""                   # bytes after the last newline read
        self.tail = ""                    # text after the last newline decoded
        self.decoder = None               # for encodings that are not ASCII-compatible
        self.text = None                  # an open text file
        self.owned = not hasattr(path, "read")
        if self.owned:
            self.path = path if path == "-" else self._file_name(path)
            try:
                if path == "-":
                    self.raw = sys.stdin.buffer
                elif self.path.lower().endswith(".gz"):     # as Weka and pandas read them
                    import gzip
                    self.raw = gzip.open(self.path, "rb")
                else:
                    self.raw = open(self.path, "rb")
            except OSError as error:
                raise NaiveBayesError("cannot read %s: %s"
                                      % (self.path, error.strerror or error)) from None
        else:
            name = getattr(path, "name", None)
            self.path = name if isinstance(name, str) else "<stream>"
            self.raw = path
        try:
            self._open(encoding, spell)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _file_name(path):
        """A path as text; NaiveBayesError for anything that cannot name a file."""
        import os
        try:
            name = os.fspath(path)
        except TypeError:
            raise NaiveBayesError("cannot read %s: expected a file name or an open file"
                                  % _describe(path)) from None
        if isinstance(name, bytes):
            name = os.fsdecode(name)
        if "\x00" in name:
            raise NaiveBayesError("cannot read %s: a file name has no NUL character"
                                  % _shown(name))
        return name

    def _open(self, encoding, spell):
        """Decide the encoding from the option and the byte-order mark."""
        import codecs
        if isinstance(self.raw.read(0), str):           # an open text file
            self.text = self.raw
            self.encoding = getattr(self.raw, "encoding", None) or "text"
            self.shown = str(self.encoding).upper()
            return
        start = b""
        while len(start) < 4:
            more = self._bytes(self.raw.read, 4 - len(start))
            if not more:
                break
            start += more
        bom, named = next(((b, n) for b, n in self._BOMS if start.startswith(b) and
                           n.startswith(encoding or "")), (b"", None))
        if encoding in ("utf-16", "utf-32"):            # the byte order from the mark
            if named is None:
                raise NaiveBayesError(
                    "%s line 1: %s names no byte order and the file has no byte-order "
                    "mark; name it: %s or %s"
                    % (self.path, spell("encoding", encoding) if spell else encoding,
                       spell("encoding", encoding + "-le") if spell else encoding + "-le",
                       encoding + "-be"))
            encoding = named
        self.encoding = encoding or named or "utf-8"
        skip = bom and (encoding is None or self.encoding == named or
                        (named == "utf-8" and self.encoding == "utf-8-sig"))
        self.rest = start[len(bom):] if skip else start
        self.shown = self.encoding.upper() if self.encoding.startswith("utf") \
            else self.encoding
        try:
            plain = self._PLAIN.encode(self.encoding) == self._PLAIN.encode("ascii")
        except UnicodeError:
            plain = False
        if not plain:                     # UTF-16, UTF-32, EBCDIC: decoded as a stream
            self.decoder = codecs.getincrementaldecoder(self.encoding)()

    def __iter__(self):
        """The lines."""
        return self

    def __next__(self):
        """The next line, counted."""
        if not self.pending:
            if self.text is not None:
                self._read_text()
            elif self.decoder is not None:
                self._decode_stream()
            else:
                self._read_block()
            if not self.pending:
                raise StopIteration
        self.number += 1
        return self.pending.pop()

    def blocks(self):
        """The lines still to come, a list at a time (as read and decoded), counted a
        list at a time: chain.from_iterable(blocks()) gives them with no Python step
        per line (csv.reader counts the lines it reads itself)."""
        while True:
            if not self.pending:
                if self.text is not None:
                    self._read_text()
                elif self.decoder is not None:
                    self._decode_stream()
                else:
                    self._read_block()
                if not self.pending:
                    return
            lines, self.pending = self.pending[::-1], []
            self.number += len(lines)
            yield lines

    def _read_text(self):
        """The next line of an open text file."""
        try:
            line = self.text.readline(_LINE_LIMIT + 1)
        except UnicodeError:
            raise NaiveBayesError("%s line %d or soon after: not %s text" % (
                self.path, self.number + 1, self.shown)) from None
        if len(line) > _LINE_LIMIT:
            self._too_long(self.number + 1)
        if line:
            self.pending = [line]

    def _read(self):
        """The next block of bytes (64 KB at most), the first four bytes first."""
        if self.rest:
            block, self.rest = self.rest, b""
            return block
        return self._bytes(getattr(self.raw, "read1", self.raw.read), 1 << 16)

    def _bytes(self, read, size):
        """read(size), a failure (a damaged .gz file, a disk error) naming the file."""
        import zlib
        try:
            return read(size)
        except (OSError, EOFError, zlib.error) as error:
            raise NaiveBayesError("%s line %d or soon after: cannot read the file: %s"
                                  % (self.path, self.number + 1,
                                     getattr(error, "strerror", None) or error)) from None

    def _decode_stream(self):
        """Fill self.pending from blocks decoded by an incremental decoder (for
        encodings whose newline is not the byte 10)."""
        while not self.pending:
            block = self._read()
            try:
                text = self.tail + self.decoder.decode(block, not block)
            except UnicodeError:
                raise NaiveBayesError("%s line %d or soon after: not %s text; name the "
                                      "file's encoding with --encoding"
                                      % (self.path, self.number + 1, self.shown)) from None
            if block:
                lines = [line + "\n" for line in text.split("\n")]
                self.tail = lines.pop()[:-1]
            else:
                lines = [line + "\n" for line in text.split("\n")]
                last = lines.pop()[:-1]          # the text after the last newline
                self.tail = ""
                if last:
                    lines.append(last)
            if len(self.tail) > _LINE_LIMIT:
                self._too_long(self.number + len(lines) + 1)
            for k, line in enumerate(lines):
                if len(line) > _LINE_LIMIT:
                    self._too_long(self.number + k + 1)
            lines.reverse()
            self.pending = lines
            if not block:
                return

    def _read_block(self):
        """Fill self.pending (lines in reverse order) from the next whole lines of the
        byte stream, read 64 KB at a time and decoded together."""
        parts, size = [], 0
        while True:
            block = self._read()
            if not block:
                data = b"".join(parts)
                break
            cut = block.rfind(b"\n") + 1
            if cut:
                parts.append(block[:cut])
                data, self.rest = b"".join(parts), block[cut:]
                break
            parts.append(block)
            size += len(block)
            if size > _LINE_LIMIT:
                self._too_long(self.number + 1)
        if not data:
            return
        try:
            text = data.decode(self.encoding)
        except UnicodeError:
            text = None
        lines = text.split("\n") if text is not None else data.split(b"\n")
        last = lines.pop()                # "" after a final newline, else a last line
        lines = [line + ("\n" if text is not None else b"\n") for line in lines]
        if last:
            lines.append(last)
        for k, line in enumerate(lines):
            if len(line) > _LINE_LIMIT:
                self._too_long(self.number + k + 1)
            if text is None:
                try:
                    lines[k] = line.decode(self.encoding)
                except UnicodeError as error:
                    where = getattr(error, "start", None)
                    raise NaiveBayesError(
                        "%s line %d: not %s text%s; name the file's encoding with "
                        "--encoding, for instance --encoding latin-1"
                        % (self.path, self.number + k + 1, self.shown,
                           "" if where is None else " (byte %d)" % (where + 1))
                    ) from None
        lines.reverse()
        self.pending = lines

    def _too_long(self, number):
        """Refuse an overlong line, naming it."""
        raise NaiveBayesError("%s line %d: longer than %s characters; expected a CSV or "
                              "ARFF file" % (self.path, number, format(_LINE_LIMIT, ",")))

    def close(self):
        """Close the file (not standard input, nor a file the caller opened)."""
        if self.owned and self.path != "-" and hasattr(self, "raw"):
            self.raw.close()


def _detected_delimiter(lines):
    """The first of , ; tab | that splits the first lines into the same number of
    fields, more than one (else the first that splits any line, else ,)."""
    import csv
    best = None
    for candidate in _DELIMITERS:
        try:
            widths = {len(cells) for cells in csv.reader(lines, delimiter=candidate) if cells}
        except csv.Error:
            continue
        if len(widths) == 1 and widths != {1}:
            return candidate
        if best is None and max(widths, default=1) > 1:
            best = candidate
    return best or ","


def _ascii_float(text):
    """A number as Java's Double and pandas read one: ASCII digits (Python's float()
    also takes other scripts' digits and 1_000); ValueError otherwise."""
    if "_" in text or not text.isascii():
        raise ValueError(text)
    return float(text)


class _CsvSource:
    """The rows of one CSV file, read once: its header (names stripped of spaces),
    then (line number, cells) for each row, cells stripped and ragged rows refused.

    The delimiter, the decimal mark (a comma in ;-separated files), the encoding and
    the missing-value cells come from the options or are detected; an empty-named
    first column (R's write.csv row names) is left out, with a note."""

    declared = {}                 # ARFF declares kinds and values; a CSV file does not
    categories = {}
    default_target = None
    weighted = False              # ARFF rows may carry an instance weight

    def __init__(self, path, options, notes):
        import csv
        self.lines = _Lines(path, options.encoding, options.spell)
        self.path = self.lines.path
        self.encoding = self.lines.encoding
        self.options = options
        try:
            first = list(islice(self.lines, 20))
            self.delimiter = options.delimiter or _detected_delimiter(first)
            self.decimal = options.decimal or ("," if self.delimiter == ";" else ".")
            only = options.missing_only
            self.missing = frozenset(only if only is not None else _MISSING_CELLS) | \
                frozenset(options.missing) | {""}
            self.numeric_missing = any(_TableReader._finite_numbers([cell]) is not None
                                       for cell in self.missing)
            self.reader = csv.reader(chain(first, chain.from_iterable(self.lines.blocks())),
                                     delimiter=self.delimiter, strict=True)
            header = self._next()
            if header is None:
                raise NaiveBayesError("%s is empty; expected a header row" % self.path)
            self.header = [name.strip() for name in header]
            self.width = len(header)
            self.skipped = None
            if self.header[0] == "" and len(self.header) > 1 and \
                    "" not in options.columns.get("ignore", ()):
                self.skipped = 0                  # R's row names: no feature, no target
                notes.append("note: %s: the first column has no name (row numbers, as R's "
                             "write.csv writes them): not used; %s says so and hides "
                             "this note" % (self.path, options.spell("ignore", "")))
            names = [n for i, n in enumerate(self.header) if i != self.skipped]
            if len(set(names)) != len(names):
                repeated = next(name for name in names if names.count(name) > 1)
                raise NaiveBayesError("%s line 1: column %s appears twice; expected "
                                      "distinct column names" % (self.path, _shown(repeated)))
        except BaseException:
            self.close()
            raise
        self.index = {name: i for i, name in enumerate(self.header) if i != self.skipped}

    def _next(self):
        """The next non-blank record; self.start is the line it starts on."""
        import csv
        while True:
            self.start = self.reader.line_num + 1
            try:
                cells = next(self.reader)
            except StopIteration:
                return None
            except csv.Error as error:
                raise NaiveBayesError("%s line %d: %s" % (self.path, self.reader.line_num,
                                                          error)) from None
            if cells and cells != [""] * len(cells):     # a blank line is not a row
                return cells

    def rows(self):
        """(line number, cells) for every data row, cells (a tuple) stripped of spaces."""
        return chain.from_iterable(self._row_chunks())

    def _row_chunks(self, size=1000):
        """rows() a list at a time, made by builtins with no Python step per row:
        csv.reader's records taken by islice, their lines numbered from the lines
        the reader counted (a record spans one line more per line break in its
        cells), blank records dropped, the cells stripped."""
        import csv
        width = self.width
        reader = self.reader
        strip = str.strip
        try:
            while True:
                first = reader.line_num + 1
                records = list(islice(reader, size))
                if not records:
                    return
                if reader.line_num - first + 1 == len(records):
                    lines = range(first, first + len(records))
                else:                     # quoted line breaks
                    spans = [1 + "".join(cells).count("\n") for cells in records]
                    lines = [first + n for n in accumulate(spans, initial=0)][:-1]
                if not all(map(any, records)):     # a blank line is not a row
                    kept = [(line, cells) for line, cells in zip(lines, records)
                            if any(cells)]
                    lines = [line for line, _ in kept]
                    records = [cells for _, cells in kept]
                if set(map(len, records)) - {width}:
                    line, cells = next((line, cells) for line, cells in zip(lines, records)
                                       if len(cells) != width)
                    raise NaiveBayesError("%s line %d: %s, expected %d as in the header"
                                          % (self.path, line, _counted(len(cells), "cell"),
                                             width))
                # cells as tuples: a tuple of strings leaves the garbage collector's
                # lists at its first pass, a list never (the rows of a batch would be
                # traversed again at every collection while they live)
                yield list(zip(lines, map(tuple, map(map, repeat(strip), records))))
        except csv.Error as error:
            raise NaiveBayesError("%s line %d: %s" % (self.path, reader.line_num,
                                                      error)) from None

    def number(self, cell):
        """A cell as a float, or None when it is not a number."""
        if self.decimal == ",":
            cell = cell.replace(",", ".")
        try:
            return _ascii_float(cell)
        except ValueError:
            return None

    def numbers(self, cells):
        """The cells as floats; ValueError when one is not a number."""
        if self.decimal == ",":
            cells = [cell.replace(",", ".") for cell in cells]
        text = "".join(cells)
        if "_" in text or not text.isascii():
            return list(map(_ascii_float, cells))
        return list(map(float, cells))

    def column(self, name, option):
        """Index of a column named by an option (the option's name, as the caller
        spells it, in the error)."""
        index = self.index.get(name)
        if index is None:
            spell = self.options.spell
            raise _OptionError("%s: no column %s in %s; the columns are %s"
                               % (spell(option) if self.options.cli else spell(option, name),
                                  _shown(name), self.path,
                                  _clip(", ".join(map(_quote, self.index)), 200)))
        return index

    def close(self):
        """Close the file."""
        self.lines.close()


# -- ARFF, Weka's file format ---------------------------------------------------------
#
# As Weka's ArffLoader reads it: values separated by whitespace or commas (which are
# the same there), ' and " quotes with backslash escapes, % comments, ? for a
# missing value (a quoted '?' is a value), sparse rows {index value, ...} whose
# unlisted attributes are 0 (a nominal attribute's first value), and an optional
# instance weight {w} after a row.  Dates become milliseconds since 1970 (UTC), the
# number Weka keeps.  Numbers and weights are read as Java's Double reads them (ASCII
# digits only); sparse indices as Java's Integer does (any script's decimal digits,
# an optional sign), so that a file Weka refuses is refused here too.

_ARFF_TOKEN = None            # compiled on first use (re is not imported up front)
_ARFF_ODD = None              # what the fast split of a plain data line cannot take
_ARFF_INDEX = None
_ARFF_KINDS = {"numeric": "numeric", "real": "numeric", "integer": "numeric",
               "string": "string", "date": "date", "relational": "relational"}
_ARFF_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "a": "\a",
                 "v": "\v"}
# Date pattern letters: (field, smallest, largest); a day's largest is its month's.
_ARFF_DATE_FIELDS = {"y": (1, 292278994), "M": (1, 12), "d": (1, 31), "H": (0, 23),
                     "m": (0, 59), "s": (0, 59), "S": (0, 999)}


def _arff_tokens(text):
    """[(quoted, text)] of one line: quoted values are unescaped, braces are ("{",
    None) and ("}", None); a comment ends the line."""
    global _ARFF_TOKEN
    if _ARFF_TOKEN is None:
        import re
        _ARFF_TOKEN = re.compile(r"[\x00-\x20,]*(?:([^\x00-\x20,'\"%{}]+)|'((?:[^'\\]|\\.)*)'"
                                 r"|\"((?:[^\"\\]|\\.)*)\"|([{}])|(['\"])|(%.*)?\Z)", re.S)
    tokens = []
    for match in _ARFF_TOKEN.finditer(text):
        word, single, double, brace, unclosed = match.groups()[:5]
        if word is not None:
            tokens.append((False, word))
        elif brace is not None:
            tokens.append((brace, None))
        elif unclosed is not None:
            raise ValueError("a value opened with %s is not closed on its line" % unclosed)
        elif single is not None or double is not None:
            quoted = single if single is not None else double
            tokens.append((True, _arff_unescape(quoted) if "\\" in quoted else quoted))
        else:
            break
    return tokens


def _arff_unescape(text):
    """A quoted ARFF value's escapes undone: \\n \\t and the like, and \\x for any other x."""
    import re
    return re.sub(r"\\(.)", lambda m: _ARFF_ESCAPES.get(m.group(1), m.group(1)), text,
                  flags=re.S)


def _java_epoch_days(year, month, day):
    """Days from 1970-01-01 to a date of Java's default calendar (Weka's): Gregorian
    from 15 October 1582, Julian before (Fliegel and Van Flandern's day numbers)."""
    a = (14 - month) // 12
    y = year + 4800 - a
    m = month + 12 * a - 3
    days = day + (153 * m + 2) // 5 + 365 * y + y // 4
    if (year, month, day) >= (1582, 10, 15):
        days += -(y // 100) + y // 400 - 32045
    else:
        days -= 32083
    return days - 2440588


def _month_days(year, month):
    """Days in a month of Java's calendar (Julian leap years before 1583)."""
    if month != 2:
        return 30 if month in (4, 6, 9, 11) else 31
    leap = year % 4 == 0 and (year < 1583 or year % 100 != 0 or year % 400 == 0)
    return 29 if leap else 28


def _arff_date_parser(pattern):
    """A function from a date in Java's SimpleDateFormat ``pattern`` (the numeric
    letters y M d H m s S and quoted literals) to milliseconds since 1970 (UTC), as
    Weka's strict parse reads it: a field followed by another takes exactly its
    letters' count of digits, others any number (of any script's digits, as Java);
    y or yy with two digits is a year from 1970 to 2069 (yyyy takes them as they
    are); each field in its range.
    ValueError, with the reason, for a pattern or a date that is not one."""
    import re
    parts, i = [], 0                       # (letter, count) or literal text
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            end = pattern.find("'", i + 1)
            if end < 0:
                raise ValueError("a quote in the pattern is not closed")
            parts.append(pattern[i + 1:end] or "'")
            i = end + 1
            continue
        if c.isalpha():
            j = i
            while j < len(pattern) and pattern[j] == c:
                j += 1
            count = j - i
            if c not in _ARFF_DATE_FIELDS or (count > 2 and c not in "yS") or \
                    any(part[0] == c for part in parts if type(part) is tuple):
                raise ValueError("pattern letters %r are not supported (supported: yyyy, "
                                 "MM, dd, HH, mm, ss, SSS and 'quoted text')" % pattern[i:j])
            parts.append((c, count))
            i = j
            continue
        parts.append(c)
        i += 1
    regex = ""
    for k, part in enumerate(parts):
        if type(part) is tuple:
            abutting = k + 1 < len(parts) and type(parts[k + 1]) is tuple
            regex += "(?P<%s>\\d{%d})" % (part[0], part[1]) if abutting else \
                "(?P<%s>\\d+)" % part[0]
        else:
            regex += re.escape(part)
    match = re.compile(regex + r"\Z").match
    short_year = ("y", 1) in parts or ("y", 2) in parts

    def parse(text):
        found = match(text.strip())
        if found is None:
            raise ValueError("does not match the date format %r" % pattern)
        digits = found.groupdict()
        if any(len(value) > 12 for value in digits.values()):
            raise ValueError("a field of more than 12 digits")
        fields = {k: int(v) for k, v in digits.items()}
        if "y" in fields and len(digits["y"]) == 2 and short_year:    # 1970 to 2069
            fields["y"] += 1900 if fields["y"] >= 70 else 2000
        year, month = fields.get("y", 1970), fields.get("M", 1)
        for letter, value in fields.items():
            smallest, largest = _ARFF_DATE_FIELDS[letter]
            if letter == "d" and smallest <= month <= 12:
                largest = _month_days(year, month)
            if not smallest <= value <= largest:
                raise ValueError("%s %d is out of range (%d to %d)"
                                 % ({"y": "year", "M": "month", "d": "day", "H": "hour",
                                     "m": "minute", "s": "second", "S": "millisecond"}
                                    [letter], value, smallest, largest))
        day = fields.get("d", 1)
        if (1582, 10, 5) <= (year, month, day) < (1582, 10, 15):
            raise ValueError("the days 5 to 14 October 1582 are not in Java's calendar")
        seconds = ((_java_epoch_days(year, month, day) * 24 + fields.get("H", 0)) * 60 +
                   fields.get("m", 0)) * 60 + fields.get("s", 0)
        return float(seconds * 1000 + fields.get("S", 0))
    return parse


def _arff_number(text):
    """A numeric value as Weka reads it (None: NaN, Weka's own missing value); only
    finite numbers in ASCII digits."""
    if "_" in text or not text.isascii():
        raise ValueError(text)
    return _arff_plain_number(text)


def _arff_plain_number(text):
    """_arff_number of a value known to be ASCII without "_"."""
    number = float(text)
    if not isfinite(number):
        if number != number:
            return None
        raise ValueError(text)
    return number


class _ArffReader:
    """The header and rows of an ARFF file read from numbered lines (see _Lines):
    .attributes is [(name, kind, declared values or date pattern or None)], with kind
    "numeric", "nominal", "string" or "date", and .declared_at their lines; rows()
    yields (line, values, weight)."""

    def __init__(self, lines, path):
        self.lines = lines
        self.path = path
        self.attributes = []
        self.declared_at = []
        self.first = None                  # a row on the @data line itself
        names = set()
        relation = False
        for text in lines:
            tokens = self._tokens(text)
            if not tokens:
                continue
            keyword = (tokens[0][1] or "").lower()
            if keyword == "@relation" and not relation and not self.attributes:
                relation = True
            elif keyword == "@attribute" and relation:
                attribute = self._attribute(tokens)
                if attribute[0] in names:
                    raise self._error("attribute %s is declared twice" % _shown(attribute[0]))
                names.add(attribute[0])
                self.attributes.append(attribute)
                self.declared_at.append(lines.number)
            elif keyword == "@data" and self.attributes:
                if len(tokens) > 1:
                    self.first = (lines.number, tokens[1:])
                break
            else:
                raise self._error("expected %s, found %s" % (
                    "@attribute or @data" if relation else "@relation",
                    _shown(tokens[0][1] or tokens[0][0])))
        else:
            raise NaiveBayesError("%s: the file ends before @data; expected an ARFF header "
                                  "(@relation, @attribute lines, @data)" % path)
        self.converters, self.defaults = [], []
        for name, kind, detail in self.attributes:
            if kind == "numeric":
                self.converters.append(_arff_number)
                self.defaults.append(0.0)
            elif kind == "nominal":
                self.converters.append(dict(zip(detail, detail)).__getitem__)
                self.defaults.append(detail[0] if detail else None)
            elif kind == "string":
                self.converters.append(str)
                self.defaults.append("")
            else:
                self.converters.append(_arff_date_parser(detail))
                self.defaults.append(0.0)

    def _error(self, problem):
        """A NaiveBayesError naming the file and the line."""
        return NaiveBayesError("%s line %d: %s" % (self.path, self.lines.number, problem))

    def _tokens(self, text):
        """The tokens of one line, or the error naming it."""
        try:
            return _arff_tokens(text)
        except ValueError as error:
            raise self._error(str(error)) from None

    def _attribute(self, tokens):
        """(name, kind, declared values or date pattern) of an @attribute line."""
        if len(tokens) < 3 or tokens[1][1] is None:
            raise self._error("@attribute needs a name and a type")
        name = tokens[1][1]
        if tokens[2][0] == "{":
            values = [text for _, text in tokens[3:] if text is not None]
            if tokens[-1][0] != "}" or len(values) != len(tokens) - 4:
                raise self._error("the values of attribute %s are not a {list}"
                                  % _shown(name))
            if len(set(values)) != len(values):
                raise self._error("attribute %s declares a value twice" % _shown(name))
            return name, "nominal", values
        kind = _ARFF_KINDS.get((tokens[2][1] or "").lower())
        if kind is None or kind == "relational":
            raise self._error("attribute %s has type %s; expected numeric, real, integer, "
                              "string, date or {values}%s" % (
                                  _shown(name), _shown(tokens[2][1] or tokens[2][0]),
                                  " (relational attributes are not supported)"
                                  if kind else ""))
        if kind == "date":
            pattern = tokens[3][1] if len(tokens) > 3 else "yyyy-MM-dd'T'HH:mm:ss"
            if pattern is None:
                raise self._error("attribute %s: expected a date format after date, found "
                                  "%s" % (_shown(name), tokens[3][0]))
            try:
                _arff_date_parser(pattern)
            except ValueError as error:
                raise self._error("attribute %s: date format %s: %s"
                                  % (_shown(name), _shown(pattern), error)) from None
            return name, kind, pattern
        return name, kind, None

    _number = staticmethod(_arff_number)

    def rows(self):
        """(line, values, weight) for each instance, one line read at a time."""
        global _ARFF_ODD
        if _ARFF_ODD is None:
            import re
            _ARFF_ODD = re.compile(r"['\"{}%_\x00-\x08\x0e-\x1b]").search
        n = len(self.attributes)
        converters = [_arff_plain_number if f is _arff_number else f
                      for f in self.converters]
        odd = _ARFF_ODD
        if self.first is not None:
            first, self.first = self.first, None
            yield self._row(*first)
        for text in self.lines:
            # The plain, dense row (ASCII, no quotes, braces, comments, "_" or control
            # characters that str.split reads otherwise than Weka): split at once.
            if text.isascii() and not odd(text):
                tokens = text.replace(",", " ").split()
                if not tokens:
                    continue
                if len(tokens) == n:
                    try:
                        yield (self.lines.number, [None if t == "?" else f(t) for f, t in
                                                   zip(converters, tokens)], 1.0)
                        continue
                    except (ValueError, KeyError):
                        pass                   # the careful path names the problem
            tokens = self._tokens(text)
            if tokens:
                yield self._row(self.lines.number, tokens)

    def _row(self, line, tokens):
        """(values, weight, sparse) of one data line."""
        global _ARFF_INDEX
        n = len(self.attributes)
        if tokens[0][0] == "{":               # sparse: {index value, ...}
            if _ARFF_INDEX is None:
                import re
                _ARFF_INDEX = re.compile(r"[+-]?\d{1,9}\Z").match    # Java's int
            end = next((i for i, t in enumerate(tokens) if t[0] == "}"), None)
            if end is None or (end - 1) % 2:
                raise self._error("expected a sparse row {index value, ...}")
            values = list(self.defaults)
            previous = -1
            for i in range(1, end, 2):
                index = tokens[i][1]
                if index is None or not _ARFF_INDEX(index) or \
                        not previous < int(index) < n:
                    raise self._error("sparse index %s: expected increasing attribute "
                                      "numbers 0 to %d" % (_shown(index or tokens[i][0]),
                                                           n - 1))
                previous = int(index)
                values[previous] = self._value(tokens[i + 1], previous)
            rest = tokens[end + 1:]
        else:
            count = next((i for i, t in enumerate(tokens) if t[0] == "{"), len(tokens))
            if count != n:
                raise self._error("%d values, expected %d" % (count, n))
            values = [self._value(token, i) for i, token in enumerate(tokens[:n])]
            rest = tokens[n:]
        weight = 1.0
        if rest:
            if len(rest) != 3 or rest[0][0] != "{" or rest[2][0] != "}":
                raise self._error("unexpected %s after the values; expected an instance "
                                  "weight {w} or nothing" % _shown(rest[0][1] or rest[0][0]))
            try:
                weight = _ascii_float(rest[1][1])
            except (TypeError, ValueError):
                weight = None
            if weight is None or not (isfinite(weight) and weight >= 0):
                raise self._error("instance weight %s: expected a finite number >= 0"
                                  % _shown(rest[1][1] or rest[1][0]))
        return line, values, weight

    def _value(self, token, index):
        """One token as a value of attribute index."""
        quoted, text = token
        if text is None:
            raise self._error("expected a value of attribute %s, found %s"
                              % (_shown(self.attributes[index][0]), quoted))
        if text == "?" and not quoted:
            return None
        name, kind, detail = self.attributes[index]
        try:
            return self.converters[index](text)
        except (ValueError, KeyError) as error:
            if kind == "nominal":
                expected = "one of its declared values %s" % _shown(detail)
            elif kind == "date":
                expected = "a date (%s)" % error
            else:
                try:
                    _ascii_float(text)        # a number, so one out of range
                    expected = "a finite number"
                except ValueError:
                    expected = "a number"
            raise self._error("attribute %s is %s; expected %s"
                              % (_shown(name), _shown(text), expected)) from None


class _ArffSource:
    """The rows of one ARFF file (Weka's format), read once: the attributes' names,
    kinds and declared values, then (line number, values) per instance."""

    decimal = "."
    delimiter = ","
    weighted = True
    numeric_missing = True        # its cells come typed: read cell by cell
    _KINDS = {"numeric": "gaussian", "date": "gaussian", "string": "text",
              "nominal": "categorical"}

    def __init__(self, path, options, notes):
        self.lines = _Lines(path, options.encoding, options.spell)
        self.path = self.lines.path
        self.encoding = self.lines.encoding
        self.options = options
        try:
            self.arff = _ArffReader(self.lines, self.path)
        except BaseException:
            self.close()
            raise
        self.header = [name for name, _, _ in self.arff.attributes]
        self.index = {name: i for i, name in enumerate(self.header)}
        self.width = len(self.header)
        self.missing = frozenset()
        self.declared = {name: self._KINDS[kind] for name, kind, _ in self.arff.attributes}
        self.categories = {name: values for name, kind, values in self.arff.attributes
                           if kind == "nominal"}
        self.default_target = self.header[-1] if self.header else None
        self.skipped = None

    def check_target(self, name, default):
        """Refuse a class attribute that is not nominal, as Weka's classifiers do
        ("Cannot handle numeric class"), naming the option that picks another."""
        index = self.index[name]
        kind = self.arff.attributes[index][1]
        if kind == "nominal":
            return
        fix = self.options.spell("target", "COL", placeholder=True)
        where = "%s line %d: " % (self.path, self.arff.declared_at[index])
        if default:
            raise _OptionError("%sthe last attribute, %s, is the class by default (as in "
                               "Weka), but it is %s and a class must be nominal; name the "
                               "class with %s" % (where, _shown(name), kind, fix))
        raise _OptionError("%s%s: attribute %s is %s, and a class must be nominal (as in "
                           "Weka); name a nominal attribute with %s"
                           % (where, self.options.spell("target", name), _shown(name), kind,
                              fix))

    def rows(self):
        """(line, values) for each instance; an instance weight other than 1 follows
        the values (see _TableReader)."""
        for line, values, weight in self.arff.rows():
            if weight != 1.0:
                values.append(weight)
            yield line, values

    def number(self, cell):
        """A cell as a float, or None when it is not a number."""
        return cell if type(cell) is float else None

    column = _CsvSource.column

    def close(self):
        """Close the file."""
        self.lines.close()


# -- What each column holds -----------------------------------------------------------


def _column_kinds(source, options, sample, target, notes):
    """{column: kind} for every column but the target: the kind options first; then
    what an ARFF header declares (numbers as options.numeric); then, for a CSV column,
    what its sampled cells hold (see _guess_kind)."""
    declared = {}
    for kind, names in options.columns.items():
        for name in names:
            if not (name == "" and kind == "ignore" and source.skipped is not None):
                source.column(name, kind)
            if name == target:
                raise _OptionError("%s: that is the target column" % options.spell(kind, name))
            if declared.get(name, kind) != kind:
                raise _OptionError("%s: the column is also declared %s"
                                   % (options.spell(kind, name), declared[name]))
            declared[name] = kind
    kinds, codes = {}, []
    for name, index in source.index.items():
        if name == target:
            continue
        if name in declared:
            kinds[name] = declared[name]
        elif name in source.declared:
            kind = source.declared[name]
            kinds[name] = options.numeric if kind == "gaussian" else kind
        else:
            kinds[name] = _guess_kind(name, [cells[index] for _, cells in sample], source,
                                      options, notes, codes)
    if len(codes) == 1:
        name, values = codes[0]
        notes.append("note: column %s holds only %d distinct integers (%s); if they are "
                     "codes, %s reads them as categories"
                     % (_typed(name), len(values), _clip(", ".join(values), 30),
                        options.spell("categorical", name)))
    elif codes:
        sizes = sorted(len(values) for _, values in codes)
        notes.append("note: %d columns hold only %s distinct integers (%s); if they are "
                     "codes, %s reads them as categories"
                     % (len(codes), "%d to %d" % (sizes[0], sizes[-1]) if sizes[0] <
                        sizes[-1] else sizes[0], _clip(", ".join(n for n, _ in codes), 40),
                        options.spell("categorical", [n for n, _ in codes])))
    return kinds


def _guess_kind(name, cells, source, options, notes, codes):
    """The kind of an undeclared CSV column from its sampled cells: numeric
    (options.numeric) when every non-missing cell is a number, except numbers with a
    leading zero (zip codes: categorical); "ignore" for dates and for text with a
    different value in every row (an ID), with a note naming the option that keeps
    them; else categorical.  A warning for what may be a mistake (numbers that count
    the rows, a numeric column but for a few cells, decimal commas, free text), and
    columns of a few distinct integers (codes?) listed in ``codes``."""
    import re
    numeric_kind = options.numeric
    present = [cell for cell in cells if cell not in source.missing]
    if not present:
        return numeric_kind
    column = _typed(name)
    few = max(1, len(present) // 20)     # non-numeric cells a numeric column may have
    try:                                  # the usual cases first: all numbers...
        numbers = source.numbers(present)
        odd = []
    except ValueError:                    # ...or text, found out after a few cells
        numbers, odd = [], []
        for cell in present:
            number = source.number(cell)
            if number is not None:
                numbers.append(number)
                continue
            odd.append(cell)
            if len(odd) > few:
                break
    if not odd:
        zero_led = next(filter(lambda cell: "." not in cell and "," not in cell,
                               filter(re.compile(r"[+-]?0\d").match, present)), None)
        if zero_led is not None:
            notes.append("warning: column %s has numbers with leading zeros (%s): read as "
                         "categories, as codes; %s reads them as numbers"
                         % (column, _clip(zero_led), options.spell(numeric_kind, name)))
            return "categorical"
        integers = all(map(float.is_integer, numbers))
        if len(present) >= 20 and integers and numbers == list(map(
                float, range(int(numbers[0]), int(numbers[0]) + len(numbers)))):
            notes.append("warning: column %s counts rows (%s, %s, ...): an ID?; %s"
                         % (column, _clip(present[0]), _clip(present[1]),
                            options.spell("ignore", name)))
        elif integers and len(present) >= 10:
            values = sorted(set(numbers))
            if 2 <= len(values) <= _CODE_VALUES:
                codes.append((name, ["%d" % v for v in values]))
        return numeric_kind
    if len(odd) <= few and 2 * len(numbers) > len(present):
        notes.append("warning: column %s is numeric but for %s like %s: read as "
                     "categories; %s reads such cells as missing"
                     % (column, _counted(len(odd), "cell"), _typed(odd[0], 30),
                        options.spell("missing", odd[0])))
    elif source.decimal != "," and all(map(re.compile(r"[+-]?\d*,\d+\Z").match, present)):
        notes.append("warning: column %s holds numbers with decimal commas (%s): read as "
                     "categories; %s reads them as numbers"
                     % (column, _clip(present[0]), options.spell("decimal", ",")))
    elif len(present) >= 10 and all(re.match(
            r"\d{4}-\d\d-\d\d|\d\d?[/.-]\d\d?[/.-]\d{2,4}(\D|$)", cell) for cell in present):
        notes.append("note: column %s holds dates (%s): ignored; %s keeps them as "
                     "categories, or turn them into numbers or parts (year, month) first"
                     % (column, _clip(present[0]), options.spell("categorical", name)))
        return "ignore"
    elif sum(map(len, present)) >= 30 * len(present) and \
            sum(" " in cell for cell in present) * 2 >= len(present):
        notes.append("warning: column %s looks like free text (long values with spaces): "
                     "read as categories; %s reads its words"
                     % (column, options.spell("text", name)))
    elif len(present) >= 20 and len(set(present)) == len(present):
        notes.append("note: column %s has a different value in every row, as an ID has: "
                     "ignored, as it cannot help predict; %s keeps it"
                     % (column, options.spell("categorical", name)))
        return "ignore"
    return "categorical"


def _check_target_cells(cells, target, source):
    """Refuse a target column that looks continuous (more than 10 distinct numbers,
    some not whole): each value would become a class."""
    distinct = set(cells)
    if len(distinct) <= 10:
        return
    numbers = [source.number(cell) for cell in distinct]
    if None not in numbers and any(isfinite(n) and not n.is_integer() for n in numbers):
        raise NaiveBayesError(
            "%s: the target %s looks continuous (%d distinct numbers such as %s); expected "
            "class labels: cut the numbers into classes first, or choose another column "
            "with --target" % (source.path, _shown(target), len(distinct),
                               _clip(", ".join(sorted(distinct)[:3]), 40)))


def _label_parser(cells, classes=None):
    """How label cells become labels: integers when every label is one (so that 2
    sorts before 10), else the text; with a model's classes, as they are typed."""
    import re
    integer = re.compile(r"[+-]?(0|[1-9]\d*)\Z").match
    if classes is not None:
        wanted = all(type(c) is int for c in classes)
    else:
        wanted = bool(cells) and all(type(cell) is str and integer(cell) for cell in cells)
    if not wanted:
        return _same_label
    return lambda cell: int(cell) if type(cell) is str and integer(cell) else cell


def _same_label(cell):
    """A label cell as the label: its text."""
    return cell


def _strict_numbers(convert):
    """The cell converter of a kind that reads numbers, refusing what Python's float()
    takes but a file's number is not (1_000, other scripts' digits); None for a kind
    that reads text (its converter takes "_")."""
    try:
        convert("_")
    except _BadValue:
        pass
    except Exception:                     # a kind of its own: its converter decides
        return None
    else:
        return None

    def strict(cell):
        if "_" in cell or not cell.isascii():
            try:
                convert("_")
            except _BadValue as error:
                raise _BadValue(cell, error.expected) from None
        return convert(cell)
    return strict


def _converters(source, names, kinds, index):
    """Per feature, (convert, strict): functions turning a cell into a value, the
    second for columns with a cell that is not plain ASCII or holds "_" (None when
    the kind reads text; convert None: not read, for a feature with no column in
    ``index`` or of kind "ignore")."""
    converters = []
    for name in names:
        kind = kinds[name]
        reader = _KINDS.get(kind)
        convert = reader.convert_cell if reader is not None else _Kind.convert_cell
        if name not in index or kind == "ignore":
            converters.append((None, None))
            continue
        strict = None if convert is _Kind.convert_cell else _strict_numbers(convert)
        if strict is not None and source.decimal == ",":
            converters.append((lambda cell, convert=convert: convert(cell.replace(",", ".")),
                               lambda cell, strict=strict: strict(cell.replace(",", "."))))
        else:
            converters.append((convert, strict))
    return converters


# -- Tables: read_csv and read_arff -----------------------------------------------------


class Table:
    """A data file's rows, ready for fit: what read_csv and read_arff return.

    X              the rows, one list per row of the file (the target left out), its
                   values in the order of ``names``, each converted for its kind (a
                   number for gaussian, discretized, kde and poisson columns, the text
                   for categorical and text ones, None for missing and ignored cells)
    y              the labels (None without a target); integers when every label is
    sample_weight  ARFF instance weights, or None (a CSV file, or weights all 1)
    names          the feature columns, in the order of each row's values
    kinds          {column: kind}: features= for a model, as the command line fits
    categories     {column: declared values} of categorical ARFF attributes, or None
    classes        an ARFF class attribute's declared values, or None
    target         the target column, or None
    lines          the line of the file on which each row starts
    warnings       notes and warnings, one line each, as the command line prints them
    path, delimiter, decimal, encoding   the file, and how it was written

    Rows are lists rather than dicts as scikit-learn's data sets are (``data`` with
    ``feature_names``): the form fit reads fastest, in half the memory, and the one
    the command line fits on, so that its model files are the same; records() gives
    dicts.
    """

    __slots__ = ("X", "y", "sample_weight", "names", "kinds", "categories", "classes",
                 "target", "lines", "warnings", "path", "delimiter", "decimal",
                 "encoding")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    def __len__(self):
        """The number of rows."""
        return len(self.X)

    def __repr__(self):
        return "<Table %s: %s, %s%s>" % (
            _shown(self.path), _counted(len(self.X), "row"),
            _counted(len(self.names), "feature"),
            "" if self.target is None else ", target %s" % _shown(self.target))

    def records(self):
        """The rows as dicts {column: value}."""
        names = self.names
        return [dict(zip(names, row)) for row in self.X]

    def at_line(self, error):
        """A NaiveBayesError about one row of X, y or sample_weight (from fit,
        predict, ...), restated with the file and the line of that row.

        >>> import io
        >>> table = read_csv(io.StringIO("x,y\\n1,a\\n-2,b\\n"), target="y")
        >>> try:
        ...     NaiveBayes(features={"x": "poisson"}).fit(table.X, table.y)
        ... except NaiveBayesError as error:
        ...     print(table.at_line(error))
        <stream> line 3, feature 'x' is float -2.0; expected a non-negative integer count
        """
        row = getattr(error, "row", None)
        if getattr(error, "argument", None) in ("X", "y", "sample_weight") and \
                row is not None and 0 <= row < len(self.lines):
            reason = error.reason
            if error.argument == "sample_weight":
                reason = ": sample_weight" + reason
            return NaiveBayesError("%s line %d%s" % (self.path, self.lines[row], reason))
        return NaiveBayesError("%s: %s" % (self.path, error))


class _TableReader:
    """An open data file read as a table, by read_csv, read_arff and the command line:
    on opening, its header, the target, each column's kind (inferred from the first
    _SAMPLE_ROWS rows, or a model's) and the notes and warnings about them; then its
    rows, converted batch by batch (tables of their own, see convert)."""

    def __init__(self, path, arff, target, options, default_target=False):
        self.options = options
        self.warnings = []
        self.unlabelled = 0
        self.first_unlabelled = None
        source = (_ArffSource if arff else _CsvSource)(path, options, self.warnings)
        self.source = source
        try:
            self._open(source, target, options, default_target)
        except BaseException:
            source.close()
            raise

    def _open(self, source, target, options, default_target):
        """Resolve the target, the kinds and the labels' type."""
        given = target
        if target is None and default_target:
            target = source.default_target
        if target is not None:
            source.column(target, "target")
            if isinstance(source, _ArffSource):
                source.check_target(target, default=given is None)
        self.target = target
        self.sample = []
        self.rows = source.rows()         # read once: the sample, then the rest
        model = options.model
        if model is not None:
            self.names = list(model.feature_names_)
            self.kinds = dict(model.feature_kinds_)
            absent = [str(name) for name in self.names if str(name) not in source.index
                      and self.kinds[name] != "ignore"]
            if self.names and len(absent) == len(self.names):
                raise NaiveBayesError("%s has none of the model's columns (%s)"
                                      % (source.path, _clip(", ".join(absent), 200)))
            if absent:
                self.warnings.append("warning: %s has no column %s; its values count as "
                                     "missing" % (source.path,
                                                  _clip(", ".join(map(repr, absent)), 200)))
            index = {name: source.index[str(name)] for name in self.names
                     if str(name) in source.index}
            self.label = _label_parser(None, model.classes_)
            self.categories = None
        else:
            self.sample = list(islice(self.rows, _SAMPLE_ROWS))
            if not self.sample:
                raise NaiveBayesError("%s has a header but no rows; expected data below it"
                                      % source.path)
            self.kinds = _column_kinds(source, options, self.sample, target, self.warnings)
            self.names = list(self.kinds)
            index = source.index
            labels = [] if target is None else [cells[source.index[target]]
                                                for _, cells in self.sample]
            present = [label for label in labels if label is not None and
                       label not in source.missing]
            _check_target_cells(present, target, source)
            self.label = _label_parser(present)
            self.categories = {name: values for name, values in source.categories.items()
                               if self.kinds.get(name) == "categorical"} or None
        declared = source.categories.get(target) if target is not None else None
        self.classes = list(map(self.label, declared)) if declared else None
        self.columns = [(convert, strict, index.get(name), name) for (convert, strict), name
                        in zip(_converters(source, self.names, self.kinds, index),
                               self.names)]
        self.target_index = None if target is None else source.index[target]

    def raw_rows(self):
        """(line, cells) of every row, the sampled ones first."""
        sample, self.sample = self.sample, []
        return chain(sample, self.rows)

    def batches(self, size):
        """The rows as tables (see convert) of ``size`` rows at most (fewer where rows
        without a label were skipped)."""
        rows = self.raw_rows()
        while True:
            chunk = list(islice(rows, size))
            if not chunk:
                return
            yield self.convert(chunk)

    def table(self):
        """The whole file as one table, with every note and warning."""
        X, y, weights, lines = [], [], [], []
        for batch in self.batches(_BATCH_ROWS):
            X.extend(batch.X)
            lines.extend(batch.lines)
            if y is not None and batch.y is not None:
                y.extend(batch.y)
            weights.extend(batch.sample_weight or [1.0] * len(batch.X))
        return self._table(X, None if self.target is None else y,
                           weights if set(weights) - {1.0} else None, lines,
                           self.warnings + self.notes_after())

    def notes_after(self):
        """The notes that only the whole file tells: rows without a label."""
        if not self.unlabelled:
            return []
        return ["note: skipped %s rows without a label (the first at line %d)"
                % (format(self.unlabelled, ","), self.first_unlabelled)]

    def _table(self, X, y, weights, lines, warnings):
        source = self.source
        return Table(X=X, y=y, sample_weight=weights, names=self.names, kinds=self.kinds,
                     categories=self.categories, classes=self.classes, target=self.target,
                     lines=lines, warnings=warnings, path=source.path,
                     delimiter=source.delimiter, decimal=source.decimal,
                     encoding=source.encoding)

    def convert(self, chunk):
        """The table of some (line, cells) rows: rows without a label skipped (and
        counted), labels parsed, cells converted column by column, by
        comprehensions (a cell costs a few builtin steps); a cell that does not
        convert is an error naming its line and column."""
        source = self.source
        missing = source.missing
        target = self.target_index
        y = None
        if target is not None:
            labels = list(map(itemgetter(target), map(itemgetter(1), chunk)))
            if None in labels or not missing.isdisjoint(labels):
                kept = []
                for line, cells in chunk:
                    label = cells[target]
                    if label is None or label in missing:
                        self.unlabelled += 1
                        if self.first_unlabelled is None:
                            self.first_unlabelled = line
                        continue
                    kept.append((line, cells))
                chunk = kept
                labels = [cells[target] for _, cells in chunk]
            y = labels if self.label is _same_label else list(map(self.label, labels))
        width = source.width
        weights = [cells[width] if len(cells) > width else 1.0 for _, cells in chunk] \
            if source.weighted else [1.0]
        lines = [line for line, _ in chunk]
        if not chunk:
            return self._table([], y, None, lines, [])
        table = list(zip(*[cells for _, cells in chunk]))
        columns = []
        for convert, strict, index, name in self.columns:
            if convert is None:
                columns.append((None,) * len(chunk))
                continue
            values = table[index]
            if convert is _number_cell and not source.numeric_missing:
                # no missing cell reads as a finite number: a column of finite numbers
                # holds none, and _converted tries that first
                numbers = self._finite_numbers(values)
                if numbers is not None:
                    columns.append(numbers)
                    continue
            if not missing.isdisjoint(values):      # (a column without one: as it is)
                values = [None if cell in missing else cell for cell in values]
            if convert is not _Kind.convert_cell:          # ARFF values come typed
                if strict is not None:    # one look at the whole column, not each cell
                    try:
                        text = "".join(values)
                    except TypeError:     # missing (None) or typed values
                        text = "".join([v for v in values if type(v) is str])
                    if "_" in text or not text.isascii():
                        convert = strict
                values = self._converted(values, convert, chunk, index, name)
            columns.append(values)
        rows = list(map(list, zip(*columns))) if columns else [[] for _ in chunk]
        return self._table(rows, y, weights if set(weights) != {1.0} else None, lines, [])

    def _converted(self, values, convert, chunk, index, name):
        """A column's cells (str, None for missing, or typed) converted; an error
        naming the line and column for a cell that does not convert."""
        if convert is _number_cell:
            numbers = self._finite_numbers(values)
            if numbers is not None:
                return numbers
        try:
            return [convert(v) if type(v) is str else v for v in values]
        except _BadValue as error:
            raise self._bad_cell(self._line_of(chunk, index, error.value), name,
                                 error) from None

    @staticmethod
    def _finite_numbers(values):
        """The cells as _number_cell reads them, when every one is a plain ASCII
        number giving a finite float ("_" and other digits are the strict reader's):
        converted by float() in one builtin map; else None (a "nan", "inf", a word
        or a missing cell: read cell by cell, where _number_cell says what each is)."""
        if not _STR.issuperset(map(type, values)):
            return None
        try:
            text = "".join(values)
            if "_" in text or not text.isascii():
                return None
            numbers = list(map(float, values))
        except ValueError:
            return None
        total = sum(numbers)
        return numbers if total - total == 0 else None

    @staticmethod
    def _line_of(chunk, index, value):
        """The line of the first row whose cell ``index`` is ``value``."""
        for line, cells in chunk:
            if cells[index] == value or \
                    (type(cells[index]) is str and cells[index].replace(",", ".") == value):
                return line
        return chunk[0][0]

    def _bad_cell(self, line, name, error):
        """The NaiveBayesError of a cell that does not convert, naming line and column."""
        spell = self.options.spell
        if self.options.model is None:
            fix = "use %s, or %s if it marks a missing value" % (
                spell("categorical", name), spell("missing", error.value))
        else:
            fix = "the model reads the column as %s (use %s if it marks a missing value)" \
                % (self.kinds[name], spell("missing", error.value))
        return NaiveBayesError("%s line %d, column %s: %s is not %s; %s"
                               % (self.source.path, line, _shown(name, 40),
                                  _shown(error.value, 40), error.expected, fix))

    def close(self):
        """Close the file."""
        self.source.close()


def _read_table(path, target, keywords, arff, call):
    """read_csv and read_arff: the whole file as a Table."""
    import csv
    limit = csv.field_size_limit(_LINE_LIMIT)          # a document may be a long cell
    try:
        options = _ReadOptions.from_keywords(call, keywords, csv=not arff)
        reader = _TableReader(path, arff, target, options)
        try:
            return reader.table()
        finally:
            reader.close()
    except NaiveBayesError as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None
    finally:
        csv.field_size_limit(limit)


def read_csv(path, target=None, **options):
    r"""The rows of a CSV file as a Table, read as the command line reads them.

    ``path`` is a file name or an open file (binary or text); ``target`` names the
    label column (None: no labels).  The options are the command line's: delimiter
    (default: detected among , ; tab |), decimal ("." or ",": default "," in a
    ;-separated file), encoding (default: from a byte-order mark, else UTF-8),
    missing (more cells that mean a missing value) or missing_only (only these, and
    empty cells), numeric (the kind of numeric columns: "gaussian", "discretized",
    "kde"), model (a fitted classifier: read its features, with its kinds, for
    predict and evaluate), and one per kind naming columns: categorical=, gaussian=,
    text=, poisson=, discretized=, kde=, ignore= (lists of column names).

    An undeclared column is numeric when every non-missing cell of the first 10,000
    rows is a number, categorical otherwise; dates and text with a different value in
    every row (IDs) are "ignore"d, with a note in table.warnings naming the option
    that keeps them.  Rows without a label are skipped (and counted in a note).

    >>> import io
    >>> text = "outlook;temp;play\nsunny;30,5;yes\nrain;18,0;no\nsunny;27;yes\nrain;21;no\n"
    >>> table = read_csv(io.StringIO(text), target="play")
    >>> table.X
    [['sunny', 30.5], ['rain', 18.0], ['sunny', 27.0], ['rain', 21.0]]
    >>> table.y
    ['yes', 'no', 'yes', 'no']
    >>> table.kinds, table.delimiter, table.decimal, table.lines
    ({'outlook': 'categorical', 'temp': 'gaussian'}, ';', ',', [2, 3, 4, 5])
    >>> model = NaiveBayes(features=table.kinds).fit(table.X, table.y)
    >>> model.predict([["rain", 17.5], ["sunny", 25.0]])
    ['no', 'yes']

    A cell that is not what its column holds is an error naming the line and column:

    >>> try:
    ...     read_csv(io.StringIO("x,y\n1,a\nz,b\n"), target="y", gaussian=["x"])
    ... except NaiveBayesError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    read_csv(): <stream> line 3, column 'x': 'z' is not a number; use categorical=['x'], ...
    """
    return _read_table(path, target, options, False, "read_csv()")


def read_arff(path, target=None, **options):
    r"""The instances of an ARFF file (Weka's format) as a Table, read as Weka reads
    them: the declared kinds (numeric and date attributes are numbers, nominal ones
    categorical with their declared values in table.categories, string ones text),
    instance weights in table.sample_weight.  ``target`` names the class attribute,
    which must be nominal (as in Weka); None, as in Weka's own readers, reads no class
    (the command line takes the last attribute).  Options: encoding, numeric, model,
    and the kind options, as for read_csv.

    >>> import io
    >>> table = read_arff(io.StringIO('''@relation weather
    ... @attribute outlook {sunny, rainy}
    ... @attribute temperature numeric
    ... @attribute play {yes, no}
    ... @data
    ... sunny, 30, no
    ... rainy, 18, yes, {0.5}
    ... '''), target="play")
    >>> table.X, table.y, table.sample_weight
    ([['sunny', 30.0], ['rainy', 18.0]], ['no', 'yes'], [1.0, 0.5])
    >>> table.kinds
    {'outlook': 'categorical', 'temperature': 'gaussian'}
    >>> table.categories, table.classes
    ({'outlook': ['sunny', 'rainy']}, ['yes', 'no'])
    """
    return _read_table(path, target, options, True, "read_arff()")


# ----------------------------------------------------------------------------------
# The command line: CSV and ARFF in, model files and reports out
#
# It only translates: argparse -> library calls -> printing.  Files are streamed; a
# model file is written only after a successful fit, and atomically; an exit status
# of 1 or 2 means that no file was changed.
# ----------------------------------------------------------------------------------


def _same_file(a, b):
    import os
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.abspath(a) == os.path.abspath(b)


def _check_output(output, inputs):
    """-o must not name an input: that would destroy it (usage error, nothing written)."""
    for path in inputs:
        if output not in (None, "-") and path not in (None, "-") and _same_file(output, path):
            raise _Usage("-o %s: that is an input file; expected a new file name"
                         % _quote(output))


class _Progress:
    """How far a command is, on stderr, for work longer than a second: rows done and
    rows per second (fit, predict, evaluate), and the stages the library reports
    through _progress while the command runs (cv's folds, a structure search's
    steps, a model file's items).  By default only on a terminal, where one line is
    rewritten in place; --progress shows it anyway (then a line a second), --quiet
    never."""

    def __init__(self, what, mode=None):
        import time
        self.clock = time.monotonic
        self.start = self.next = self.clock() + 1.0
        self.what = what
        self.shown = 0                    # the width of the line on the terminal
        self.terminal = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        self.active = self.terminal if mode is None else mode
        self.stages = {}                  # stage -> (done, total), outermost first
        self.previous = None

    def __enter__(self):
        """Listen to the library's reports of long work (see _progress)."""
        global _progress_listener
        self.previous = _progress_listener
        if self.active:
            _progress_listener = self.stage
        return self

    def __exit__(self, *exception):
        global _progress_listener
        _progress_listener = self.previous
        self.done()

    def update(self, rows):
        """Show the rows done so far (at most four times a second)."""
        if not self.active:
            return
        now = self.clock()
        if now >= self.next:
            rate = rows / max(now - self.start + 1.0, 1e-9)
            self._show("%s: %s rows, %s rows/s" % (self.what, format(rows, ","),
                                                   format(int(rate), ",")), now)

    def stage(self, stage, done, total):
        """A report of the library's (see _progress): the stage's step, after which
        the stages reported since it (the parts of its previous step) are dropped;
        without a step, the stage and its parts are over."""
        stages = self.stages
        if stage in stages:
            names = list(stages)
            for name in names[names.index(stage) + (done is not None):]:
                del stages[name]
        if done is None:                  # the stage is over
            return
        stages[stage] = done, total
        now = self.clock()
        if now >= self.next:
            parts = [name if done is None else "%s %s" % (name, format(done, ",")) if
                     total is None else "%s %s of %s" % (name, format(done, ","),
                                                         format(total, ","))
                     for name, (done, total) in stages.items()]
            self._show("%s: %s" % (self.what, ", ".join(parts)), now)

    def _show(self, text, now):
        text = _clip(text, 79)
        if self.terminal:
            sys.stderr.write("\r%s%s" % (text, " " * (self.shown - _width(text))))
            self.shown = _width(text)
            self.next = now + 0.25
        else:
            sys.stderr.write(text + "\n")
            self.next = now + 1.0
        sys.stderr.flush()

    def done(self):
        """End the progress line (before the command prints its results)."""
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.shown = 0
        self.stages.clear()


def _model_params(args, parameters):
    """The model parameters set on the command line: those of the registries that
    have an option; a bad value is a usage error naming the option."""
    params = {}
    for name, parameter in parameters.items():
        if parameter.option is None or not hasattr(args, name):
            continue
        value = getattr(args, name)
        if value is None:
            continue
        if type(value) is list and len(parameter.option) > 2:   # nargs: parts joined
            value = tuple(chain.from_iterable(value))
        problem = parameter.check(value)
        if problem is not None:
            raise _Usage("--%s %s: %s" % (name.replace("_", "-"), value,
                                          problem if problem.startswith(name)
                                          else "expected " + problem))
        params[name] = value
    return params


# The options of class weights, the class prior and the decision rules, by parameter.
_DECISION_OPTIONS = {"class_weight": "--class-weight", "class_prior": "--class-prior",
                     "thresholds": "--threshold", "costs": "--costs",
                     "reject_below": "--reject-below", "reject_label": "--reject-label"}


def _decision_params(args, label, cls):
    """The parameters the decision options set ({} when none is given), labels typed
    as the data's (``label``: the reader's parser); a bad value is a usage error
    naming the option."""
    params = {}
    text = getattr(args, "class_weight", None)
    if text is not None:
        params["class_weight"] = text if text == "balanced" else \
            _label_numbers_option(text, "--class-weight", label)
    if args.class_prior is not None:
        if "class_prior" not in cls._parameters:
            raise _Usage("--class-prior: %s %s has no class prior (naive Bayes has one)"
                         % (_article(cls.__name__), cls.__name__))
        params["class_prior"] = args.class_prior if args.class_prior == "uniform" else \
            _label_numbers_option(args.class_prior, "--class-prior", label)
    if args.threshold:
        params["thresholds"] = _label_numbers_option(",".join(args.threshold),
                                                     "--threshold", label)
    if args.costs is not None:
        params["costs"] = _read_costs(args.costs, label)
    if args.reject_below is not None:
        params["reject_below"] = args.reject_below
    if args.reject_label is not None:
        params["reject_label"] = args.reject_label
    for name, value in params.items():
        problem = cls._parameters[name].check(value) if name in cls._parameters else None
        if problem is not None:
            raise _Usage("%s: %s" % (_DECISION_OPTIONS[name], problem if problem.startswith(
                name) else "expected " + problem))
    return params


def _label_numbers_option(text, option, label):
    """LABEL=NUMBER,... as {label: number}."""
    pairs = {}
    for item in text.split(","):
        name, equals, number = item.strip().rpartition("=")
        if not equals or not name:
            raise _Usage("%s %s: expected LABEL=NUMBER, comma-separated" % (option, item))
        try:
            value = _cli_number(number)
        except ValueError:
            raise _Usage("%s %s: %s is not a number" % (option, item, _typed(number))) \
                from None
        key = label(name.strip())
        if key in pairs:
            raise _Usage("%s: %s is given twice" % (option, _typed(name)))
        pairs[key] = value
    return pairs


def _read_costs(path, label):
    """--costs FILE: a cost matrix in a CSV file (, ; tab or |): a header row of the
    predicted labels after a corner cell, then per true label a row of the label and
    its costs; an empty cell on the diagonal costs 0.  Errors name the line and cell."""
    import csv
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise NaiveBayesError("--costs %s: cannot read the file: %s" % (
            path, getattr(error, "strerror", None) or error)) from None
    reader = csv.reader(lines, delimiter=_detected_delimiter(lines[:20]))
    header = None
    costs = {}
    for cells in reader:
        line = reader.line_num
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        where = "%s line %d" % (path, line)
        if header is None:
            if len(cells) < 2:
                raise NaiveBayesError("%s: expected a header row: a corner cell, then the "
                                      "predicted labels" % where)
            header = [label(cell) for cell in cells[1:]]
            if len(set(header)) < len(header):
                raise NaiveBayesError("%s: a predicted label is given twice" % where)
            continue
        if len(cells) != len(header) + 1:
            raise NaiveBayesError("%s has %d cells; expected %d (the true label, then one "
                                  "cost per predicted label)" % (where, len(cells),
                                                                 len(header) + 1))
        truth = label(cells[0])
        if truth in costs:
            raise NaiveBayesError("%s: true label %s is given twice" % (where, _typed(cells[0])))
        row = costs[truth] = {}
        for predicted, cell in zip(header, cells[1:]):
            if not cell and predicted == truth:
                continue                  # the diagonal: 0
            number = _number_or_none(cell)
            if number is None:
                raise NaiveBayesError("%s, column %s: %s; expected a cost (a finite number; "
                                      "only the diagonal may be empty)" % (
                                          where, _typed(predicted), "empty" if not cell
                                          else "%s is not a finite number" % _typed(cell)))
            row[predicted] = number
    if not costs:
        raise NaiveBayesError("--costs %s: no cost matrix (expected a header row of "
                              "predicted labels, then a row per true label)" % path)
    return costs


def _number_or_none(text):
    """A finite number written in a cell (an int when written as one), else None."""
    try:
        number = _cli_number(text)
    except ValueError:
        return None
    return number if isfinite(number) else None


def _check_decision_options(model, classes, params):
    """Decision options that name labels the classes lack (or leave some out) are a
    usage error naming the options, before any work."""
    if not params:
        return
    options = ", ".join(_DECISION_OPTIONS[name] for name in params)
    try:
        model._decision(classes, options)
        _check_class_prior(model.get_params().get("class_prior"), dict.fromkeys(classes, 1),
                           options)
    except NaiveBayesError as error:
        raise _Usage(str(error)) from None


def _batches(iterable, size):
    iterator = iter(iterable)
    while True:
        batch = list(islice(iterator, size))
        if not batch:
            return
        yield batch


def _is_arff(path):
    """An ARFF file, by its suffix (.arff or .arff.gz); anything else is CSV."""
    name = str(path).lower()
    return name.endswith(".arff") or name.endswith(".arff.gz")


def _print_notes(notes):
    """The reader's notes and warnings on stderr, one line each: once the command has
    done its work, so that a command that fails prints only its error."""
    for note in notes:
        sys.stderr.write("%s: %s\n" % (_PROG, _one_line(note)))


def _warn(text):
    sys.stderr.write("%s: warning: %s\n" % (_PROG, text))


def _training_reader(args):
    """The open _TableReader of fit and cv (the ARFF default target: the last
    attribute)."""
    arff = _is_arff(args.data)
    if args.target is None and not arff:
        raise _Usage("--target is required: name the label column")
    numeric = args.numeric or _CLI_MODELS[args.model]._parameters["numeric"].default
    return _TableReader(args.data, arff, args.target, _ReadOptions.from_args(args, numeric),
                        default_target=True)


def _new_model(args, reader):
    """The model that fit and cv fit: --model with the reader's kinds and categories."""
    cls = _CLI_MODELS[args.model]
    allowed = cls._allowed_kinds
    for name, kind in reader.kinds.items():
        if allowed is not None and kind not in allowed:
            how = "--numeric %s" % kind if args.numeric == kind else "--%s" % kind \
                if name in _columns(getattr(args, kind, None)) else "its values"
            fix = "--categorical" if kind == "text" else "--discretized"
            raise _Usage("--model %s takes %s columns; column %s is %s (by %s): use "
                         "%s %s or --ignore %s"
                         % (args.model, ", ".join(allowed), _typed(name), kind, how, fix,
                            _typed(name), _typed(name)))
    return cls(features=reader.kinds, categories=reader.categories,
               **_model_params(args, cls._parameters),
               **_decision_params(args, reader.label, cls))


def _joined(tables):
    """Batches of one file as one batch (for fit's leading batches of zero weights)."""
    first = tables[0]
    X, y, weights, lines = [], [], [], []
    for table in tables:
        X.extend(table.X)
        lines.extend(table.lines)
        if table.y is not None:
            y.extend(table.y)
        weights.extend(table.sample_weight or [1.0] * len(table.X))
    return Table(X=X, y=None if first.y is None else y, sample_weight=weights, lines=lines,
                 path=first.path, names=first.names)


def _fit_batch(model, batch, classes):
    """partial_fit on one batch; a library error restated with its file and line."""
    try:
        model.partial_fit(batch.X, batch.y, classes=classes,
                          sample_weight=batch.sample_weight)
    except NaiveBayesError as error:
        raise batch.at_line(error) from None


def _gc_freezing():
    """(freeze, unfreeze) for the command line's fit: CPython's gc.freeze (3.7+) leaves
    the objects alive now out of later collections until gc.unfreeze; nothing on
    PyPy, which has none, nor when the caller has frozen objects of its own (unfreeze
    would release them too)."""
    if not hasattr(gc, "get_freeze_count") or gc.get_freeze_count():
        return (lambda: None), (lambda: None)
    return gc.freeze, gc.unfreeze


def _cmd_fit(args):
    _check_output(args.output, [args.data])
    reader = _training_reader(args)
    freeze, unfreeze = _gc_freezing()
    try:
        model = _new_model(args, reader)
        progress = args.progress_line
        done = 0
        batches = reader.batches(_BATCH_ROWS)
        balanced = model.get_params()["class_weight"] == "balanced"
        whole = balanced or (isinstance(model, AutoBayes) and model.weights == "cv")
        if whole:                         # class weights need every label first, and
            table = reader.table()        # AutoBayes' own weights every row: the file
            batches = [table] if table.X else []      # in memory
        if balanced:
            model.set_params(class_weight=_balanced_class_weight(
                table.y, table.sample_weight, "fit()") if table.X else None)
        if whole and isinstance(model, AutoBayes) and table.X:
            try:
                model._fit_rows(table.X, table.y, table.sample_weight, reader.classes)
            except NaiveBayesError as error:
                raise table.at_line(error) from None
            progress.update(len(table.X))
            done, batches = len(table.X), []
        # partial_fit refuses a first batch whose every weight is 0 (the model would
        # have no weight); such batches are fitted with the next one instead, which
        # counts them exactly as one fit of the file would.
        waiting = []
        for batch in batches:
            if not batch.X:
                continue
            if not done and batch.sample_weight is not None and not any(batch.sample_weight):
                waiting.append(batch)
                continue
            if waiting:
                batch, waiting = _joined(waiting + [batch]), []
            _fit_batch(model, batch, reader.classes)
            done += len(batch.X)
            progress.update(done)
            # what the model holds so far is not scanned again by the collector,
            # which the counts of a long file would keep busy (30% of the CPU)
            freeze()
        if waiting:
            _fit_batch(model, _joined(waiting), reader.classes)     # refused: no weight
        progress.done()
    finally:
        unfreeze()
        reader.close()
    if not done:
        raise NaiveBayesError("%s has no row with a label; expected labelled rows"
                              % reader.source.path)
    if balanced:
        model.set_params(class_weight="balanced")
    _check_decision_options(model, model.classes_, _decision_params(
        args, reader.label, type(model)))
    _print_notes(reader.warnings + reader.notes_after())
    model.target_ = reader.target
    text = _json_text(model.to_dict())
    staged = _AtomicFile(args.output, None)
    try:
        staged.stream.write(text)
        out = sys.stdout
        out.write("fit %s: %s rows, target %s\n"
                  % (reader.source.path, format(done, ","), _typed(reader.target)))
        out.write(_summary_text(model, args.output))
        if len(model.classes_) == 1:
            _warn("the target has one class (%s); every prediction will be %s"
                  % (_clip(model.classes_[0]), _clip(model.classes_[0])))
        out.write("wrote %s\n" % args.output)
        out.flush()
    except BaseException:
        staged.discard()
        raise
    staged.commit()
    return 0


_FIT_FEATURES_SHOWN = 40  # fit lists this many features; info lists them all


def _summary_text(model, output=None):
    """Classes with counts, then each feature with its kind and what it holds; with
    ``output`` (fit's model file), the first _FIT_FEATURES_SHOWN features only."""
    summary = model.summary()
    lines = []
    classes = summary["classes"]
    width = max(_width(_clip(c)) for c, _ in classes)
    lines.append("classes (%d):" % len(classes))
    for label, count in classes:
        lines.append("  %s %s" % (_left(_clip(label), width), format(count, ",")))
    features = summary["features"]
    lines.append("features (%d):" % len(features))
    width = max([_width(_clip(name)) for name, _, _ in features] + [1])
    shown = features if output is None else features[:_FIT_FEATURES_SHOWN]
    room = max(20, 80 - (2 + width + 1 + 11 + 1))       # lines within 80 columns
    for name, kind, detail in shown:
        lines.append("  %s %-11s %s" % (_left(_clip(name), width), kind, _clip(detail, room)))
    if len(shown) < len(features):
        lines.append("  ... and %s more (%s info %s lists them all)"
                     % (format(len(features) - len(shown), ","), _PROG, _quote(output)))
    if "pairwise counts" in summary:
        lines.append("pairwise counts: %s" % format(summary["pairwise counts"], ","))
    if "distinct rows" in summary:
        lines.append("distinct rows: %s" % format(summary["distinct rows"], ","))
    if "parents" in summary:              # a network's structure
        def named(parents):
            return ", ".join("the class" if p is None else _clip(p) for p in parents) \
                or "none"
        lines.append("parents (the network's structure):")
        width = max(_width(_clip(name)) for name in summary["parents"] if name is not None)
        for name, parents in summary["parents"].items():
            if name is not None:
                lines.append("  %s <- %s" % (_left(_clip(name), width), named(parents)))
        lines.append("  the class <- %s" % named(summary["parents"][None]))
    if output is None and "choice" in summary:           # AutoBayes (info)
        import textwrap
        lines += textwrap.wrap("mixture: " + summary["choice"].replace("mixture ", "", 1),
                               80, subsequent_indent="  ", break_long_words=False)
    if output is None and summary.get("feature weights"):
        weights = summary["feature weights"]
        width = max(_width(_clip(name)) for name in weights)
        lines.append("feature weights (naive Bayes' evidence of each feature times):")
        lines += ["  %s %.4g" % (_left(_clip(name), width), w) for name, w in weights.items()]
    return "\n".join(lines) + "\n"


def _prediction_reader(model, args, target=None):
    """The open _TableReader of a data file for a fitted model (predict, evaluate,
    explain): the model's features with its kinds."""
    return _TableReader(args.data, _is_arff(args.data), target,
                        _ReadOptions.from_args(args, model=model),
                        default_target=target is None and hasattr(args, "target"))


def _load_model(path):
    return _Classifier.load(path)


def _output_dialect(args, source):
    """predict's (delimiter, decimal mark): the options', else the input's."""
    options = _ReadOptions("", True)
    delimiter = source.delimiter if args.output_delimiter is None else \
        options._delimiter(args.output_delimiter, "output_delimiter")
    decimal = args.output_decimal or source.decimal
    if decimal not in (".", ","):
        raise _Usage("--output-decimal %s: expected . or ," % _typed(decimal))
    return delimiter, decimal


def _cmd_predict(args):
    import csv
    _check_output(args.output, [args.model, args.data])
    model = _load_model(args.model)
    reader = _prediction_reader(model, args)
    try:
        decision = _decision_in_place(model, args, reader)
        source = reader.source
        keep = [source.column(name, "keep") for name in _columns(args.keep)]
        delimiter, decimal = _output_dialect(args, source)
        classes = model.classes_
        output = _AtomicFile(args.output, None) if args.output not in (None, "-") \
            else None
    except BaseException:
        reader.close()
        raise
    stream = output.stream if output is not None else sys.stdout
    if decimal == ",":
        def shown(probabilities):
            return [repr(p).replace(".", ",") for p in probabilities]
    else:
        def shown(probabilities):
            return probabilities
    try:
        writer = csv.writer(stream, delimiter=delimiter, lineterminator="\n")
        writer.writerow([source.header[i] for i in keep] + [model.target_ or "prediction"] +
                        ([str(c) for c in classes] if args.proba else []))
        progress = args.progress_line
        done = 0
        for chunk in _batches(reader.raw_rows(), 1000):
            batch = reader.convert(chunk)
            try:
                probabilities = model.predict_proba(batch.X)
            except NaiveBayesError as error:
                raise batch.at_line(error) from None
            labels = [classes[p.index(max(p))] for p in probabilities] \
                if decision is None else decision.labels(probabilities)
            for (_, cells), p, label in zip(chunk, probabilities, labels):
                writer.writerow([cells[i] for i in keep] + [label] +
                                (shown(p) if args.proba else []))
            done += len(batch.X)
            progress.update(done)
        progress.done()
        if output is not None:
            output.commit()
        else:
            sys.stdout.flush()
        _print_notes(reader.warnings)
    except BaseException:
        if output is not None:
            output.discard()
        raise
    finally:
        reader.close()
    return 0


def _decision_in_place(model, args, reader):
    """predict and evaluate: the decision options set on the loaded model (in place of
    its own: --threshold and --costs each replace the model's thresholds or costs),
    and its decision rules (None: the argmax)."""
    params = _decision_params(args, reader.label, type(model))
    for rule, other in (("thresholds", "costs"), ("costs", "thresholds")):
        if rule in params and other not in params:
            model.set_params(**{other: None})        # one rule replaces the other
    model.set_params(**params)
    _check_decision_options(model, model.classes_, params)
    return model._decision(model.classes_, "predict()")


def _cmd_forget(args):
    _check_output(args.output, [args.data])     # -o may be the model itself
    model = _load_model(args.model)
    target = args.target or model.target_
    if target is None and not _is_arff(args.data):
        raise _Usage("--target is required: the model file does not name its target")
    reader = _prediction_reader(model, args, target)
    done = 0
    try:
        for batch in reader.batches(_BATCH_ROWS):
            if not batch.X:
                continue
            try:
                model.forget(batch.X, batch.y, sample_weight=batch.sample_weight)
            except NaiveBayesError as error:
                raise batch.at_line(error) from None
            done += len(batch.X)
    finally:
        reader.close()
    path = reader.source.path
    if not done:
        raise NaiveBayesError("%s has no row with a label; expected labelled rows" % path)
    _print_notes(reader.warnings + reader.notes_after())
    model.save(args.output)
    sys.stdout.write("forget %s: %s rows forgotten\n%swrote %s\n"
                     % (path, format(done, ","), _summary_text(model, args.output),
                        args.output))
    return 0


def _print_report(report, as_json):
    """An EvaluationReport on stdout: str(report), or with --json its to_dict()
    without each row's predictions (cv --predictions writes those)."""
    if as_json:
        import json
        sys.stdout.write(json.dumps(report.to_dict(predictions=False), indent=2,
                                    ensure_ascii=False, allow_nan=False, default=str) + "\n")
    else:
        sys.stdout.write(str(report))


def _cmd_evaluate(args):
    model = _load_model(args.model)
    target = args.target or model.target_
    if target is None and not _is_arff(args.data):
        raise _Usage("--target is required: the model file does not name its target")
    reader = _prediction_reader(model, args, target)
    progress = args.progress_line
    try:
        decision = _decision_in_place(model, args, reader)
        evaluation = _Evaluation(model._fitted().classes())
        for batch in reader.batches(1000):
            try:
                joints, _ = model._joints(batch.X, "evaluate()")
            except NaiveBayesError as error:
                raise batch.at_line(error) from None
            evaluation.add(batch.y, _posteriors(joints), batch.sample_weight, _best(joints))
            progress.update(evaluation.rows)
        progress.done()
    finally:
        reader.close()
    path = reader.source.path
    if not evaluation.rows:
        raise NaiveBayesError("%s has no row with a label; expected labelled rows" % path)
    if not any(evaluation.weights):
        raise NaiveBayesError("%s: every row has weight 0; expected a positive total weight"
                              % path)
    _print_notes(reader.warnings + reader.notes_after())
    report = EvaluationReport(evaluation, decision=decision)
    if not set(evaluation.truths) & set(evaluation.classes):
        truths = dict.fromkeys(evaluation.truths)
        _warn("none of the labels in %s (%s) is a class of the model (%s): is --target "
              "the right column?" % (path, _clip(", ".join(map(str, truths)), 40),
                                     _clip(", ".join(map(str, evaluation.classes)), 40)))
    _print_report(report, args.json)
    return 0


def _cmd_cv(args):
    if args.folds < 2:
        raise _Usage("--folds %d: expected at least 2 folds" % args.folds)
    reader = _training_reader(args)
    try:
        model = _new_model(args, reader)  # a bad option is a usage error before any work
        table = reader.table()
    finally:
        reader.close()
    if len(table.X) < args.folds:
        raise _Usage("--folds %d: %s has only %d labelled rows"
                     % (args.folds, table.path, len(table.X)))
    _check_decision_options(model, _sorted_if_orderable(set(table.y)), _decision_params(
        args, reader.label, type(model)))
    for output in (args.report, args.predictions):
        if output is not None:
            _check_output(output, [args.data])
    if args.report is not None and args.predictions is not None and \
            _same_file(args.report, args.predictions):
        raise _Usage("--predictions %s: that is the --report file; expected another"
                     % _quote(args.predictions))
    weights = None if table.sample_weight is None else \
        _check_weights(table.sample_weight, 0, "cv")
    if weights is not None and not any(weights):
        raise NaiveBayesError("%s: every row has weight 0; expected a positive total weight"
                              % table.path)
    try:
        report = _cross_validate(lambda: _new_model(args, reader), table.X, table.y,
                                 args.folds, args.seed, weights, "cross-validation",
                                 command_line=True)
    except NaiveBayesError as error:
        raise table.at_line(error) from None
    args.progress_line.done()
    _print_notes(table.warnings)
    if args.report is not None:           # the model of all rows, its out-of-fold rows
        model = _new_model(args, reader).fit(table.X, table.y, sample_weight=weights)
        model.target_ = table.target
        order = [report.classes.index(label) for label in model.classes_]
        proba = [[p[k] for k in order] for p in report.predictions]
        _write_atomically(args.report, report_html(
            model, table.X, table.y, proba, "%d-fold cross-validation of %s, target %s "
            "(out-of-fold predictions)" % (args.folds, table.path, table.target)), None)
    if args.predictions is not None:
        _write_atomically(args.predictions, _predictions_csv(table, report), None)
    if not args.json:
        sys.stdout.write("%d-fold stratified cross-validation of %s (seed %d), target %s\n"
                         % (args.folds, table.path, args.seed, _typed(table.target)))
    _print_report(report, args.json)
    for output in (args.report, args.predictions):
        if output is not None:
            sys.stdout.write("wrote %s\n" % output)
    return 0


def _predictions_csv(table, report):
    """cv --predictions: a CSV of every labelled row's out-of-fold prediction, in the
    file's order and dialect: its line, its fold (from 1), the true label, the
    predicted one, and one probability per class."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, delimiter=table.delimiter or ",", lineterminator="\n")
    writer.writerow(["line", "fold", table.target, "predicted"] + list(report.classes))
    comma = table.decimal == ","
    for line, fold, truth, guess, probabilities in zip(
            table.lines, report.fold_of, table.y, report.predicted, report.predictions):
        writer.writerow([line, fold + 1, truth, guess] +
                        [repr(p).replace(".", ",") if comma else repr(p)
                         for p in probabilities])
    return out.getvalue()


def _cmd_report(args):
    """report MODEL [DATA] -o FILE.html: the page of report_html, with the data's
    rows (evaluated when they have the target column)."""
    _check_output(args.output, [args.model, args.data])
    model = _load_model(args.model)
    X = y = proba = None
    if args.data is not None:
        target = args.target or model.target_
        try:
            reader = _prediction_reader(model, args, target)
        except (_Usage, NaiveBayesError):
            if args.target or target is None:
                raise
            reader = _prediction_reader(model, args, None)   # rows without labels:
        try:                                                 # explained, not evaluated
            X, y, proba = [], None if reader.target is None else [], []
            for batch in reader.batches(1000):
                try:
                    proba.extend(model.predict_proba(batch.X))
                except NaiveBayesError as error:
                    raise batch.at_line(error) from None
                X.extend(batch.X)
                if y is not None:
                    y.extend(batch.y)
        finally:
            reader.close()
        _print_notes(reader.warnings + reader.notes_after())
    title = "%s%s" % (args.model, "" if args.data is None else " on " + args.data)
    _write_atomically(args.output, report_html(model, X, y, proba, title), None)
    sys.stdout.write("wrote %s\n" % args.output)
    return 0


def _cmd_explain(args):
    if args.top < 0:
        raise _Usage("--top %d: expected a number >= 0" % args.top)
    model = _load_model(args.model)
    if args.data is None:
        if args.row is not None:
            raise _Usage("--row needs a data file to read the row from")
        return _print_informative(model, args.top)
    if args.row is None:
        raise _Usage("explain MODEL.json DATA.csv needs --row N (the N-th data row, from 1)")
    if args.row < 1:
        raise _Usage("--row %d: rows count from 1 (the first line after the header)"
                     % args.row)
    reader = _prediction_reader(model, args)
    try:
        found = next(islice(reader.raw_rows(), args.row - 1, None), None)
        batch = None if found is None else reader.convert([found])
    finally:
        reader.close()
    path = reader.source.path
    if found is None:
        raise NaiveBayesError("%s has fewer than %d rows" % (path, args.row))
    [row] = batch.X
    try:
        parts = _log_odds_parts(model, row, args.top)
    except NaiveBayesError as error:
        raise batch.at_line(error) from None
    _print_notes(reader.warnings)
    out = sys.stdout
    decided = parts["decision"]
    out.write("%s row %d (line %d): %s %s (P = %.4f)\n"
              % (path, args.row, found[0], "most probable" if decided and decided["changed"]
                 else "predicted", parts["predicted"], parts["probability"]))
    if decided and decided["changed"]:    # a decision rule chose another label
        out.write("decision: %s, by %s\n" % (_clip(decided["predicted"]), {
            "thresholds": "the thresholds (the largest P(c | x) / t_c)",
            "costs": "the costs (the least expected cost)",
            "reject": "reject_below (P = %.4f is below %g)" % (
                decided["probability"], model.reject_below)}[decided["rule"]]))
    if parts["runner_up"] is None:
        out.write("the model has one class; nothing to compare\n")
        return 0
    best, runner = _clip(parts["predicted"], 20), _clip(parts["runner_up"], 20)
    line = "runner-up %s (P = %.4f); contributions to log P(%s)/P(%s):" % (
        runner, parts["runner_probability"], best, runner)
    out.write((line if _width(line) <= 80 else line.replace("; ", ";\n", 1)) + "\n\n")
    items = [(_clip(feature, 20) + separator + _clip(what, 36 - min(20, _width(feature)) - 3),
              value) for feature, separator, what, value in parts["items"]]
    shown = items[:args.top]
    if len(items) > len(shown):
        rest = items[len(shown):]
        shown.append(("%d other parts" % len(rest), math.fsum(v for _, v in rest)))
    _bar_chart(shown, parts["predicted"], parts["runner_up"])
    if parts["missing"]:
        out.write("\nmissing (no contribution): %s\n"
                  % _clip(", ".join(map(str, parts["missing"])), 60))
    return 0


def _bar_chart(items, best, runner, width=20):
    """Two-sided text bars: left for the runner-up, right for the predicted class,
    within 80 columns."""
    finite = [abs(v) for _, v in items if isfinite(v)]
    scale = max(finite) if finite and max(finite) > 0 else 1.0
    label_width = max(_width(label) for label, _ in items)
    width = max(8, min(width, (80 - label_width - 13) // 2))
    out = sys.stdout
    out.write("%s %9s  %s|%s\n" % (_left("", label_width), "",
                                   _right("<- " + _clip(runner, width - 3), width),
                                   " " + _clip(best, width - 4) + " ->"))
    for label, value in items:
        size = width if not isfinite(value) else int(round(abs(value) / scale * width))
        left = "#" * size if value < 0 else ""
        right = "#" * size if value > 0 else ""
        out.write("%s %+9.3f  %s|%s\n" % (_left(label, label_width), value,
                                          _right(left, width), right))


def _print_informative(model, top):
    rows = _informative_rows(model, top)
    out = sys.stdout
    out.write("most informative features (score: log-likelihood ratio in nats)\n")
    if not rows:
        out.write("  (none)\n")
        return 0
    table = [("feature", "favours", "score", "ratio")]
    for feature, value, favoured, score, ratio in rows:
        what = "%s = %s" % (_clip(feature, 20), _clip(value)) if value is not None \
            else _clip(feature, 40)
        table.append((what, _clip(favoured, 16), "%.4f" % score,
                      ("%.2f : 1" % ratio) if ratio < 1e6 else "%.3g : 1" % ratio))
    widths = [max(_width(r[i]) for r in table) for i in range(4)]
    for what, favoured, score, ratio in table:
        out.write("  %s  %s  %s  %s\n" % (_left(what, widths[0]), _left(favoured, widths[1]),
                                          _right(score, widths[2]), ratio))
    return 0


def _cmd_info(args):
    model = _load_model(args.model)
    out = sys.stdout
    name = type(model).__name__
    out.write("%s: %s %s (model file format %d)\n"
              % (args.model, _article(name), name, FORMAT_VERSION))
    if model.target_ is not None:
        out.write("target: %s\n" % model.target_)
    if not model.__sklearn_is_fitted__():
        out.write("not fitted\n")
    else:
        out.write(_summary_text(model))
        out.write(_class_statistics_text(model.summary(per_class=True)))
    params = model.get_params()
    shown = ["%s=%r" % (name, value) for name, value in params.items()
             if name not in ("features", "categories", "tokenizer")]
    import textwrap
    out.write(textwrap.fill("parameters: " + ", ".join(shown), 80, subsequent_indent="  ",
                            break_long_words=False, break_on_hyphens=False) + "\n")
    return 0


def _class_statistics_text(summary):
    """info's per-class statistics of each feature (summary(per_class=True)), one
    line per class within 80 columns."""
    statistics = summary.get("class_statistics")
    if not statistics:
        return ""
    labels = [label for label, _ in summary["classes"]]
    label_width = min(20, max(_width(_clip(label, 20)) for label in labels))

    def count(n):
        return format(n, ",") if type(n) is int else _figure(n)
    counts = [count(c["count"]) for feature in statistics.values()
              for c in feature["classes"].values()]
    count_width = max(map(len, counts))
    room = 80 - 4 - label_width - 2 - count_width - 2
    lines = ["per class: rows with the feature; mean and sd, rows per bin, or top values"]
    for name, feature in statistics.items():
        kind, classes = feature["kind"], feature["classes"]
        head = "%s (%s" % (_clip(name, 40), kind)
        cuts = next(iter(classes.values())).get("cuts")
        if cuts:
            head += ", cut at %s" % ", ".join("%.6g" % cut for cut in cuts)
        lines.append("  " + _clip(head, 77) + ")")
        for label in labels:
            shown = classes[label]
            if not shown["count"]:
                detail = "no values"
            elif "bins" in shown:
                detail = ", ".join(map(count, shown["bins"]))
            elif "top" in shown:
                detail = ", ".join("%s %s" % (_clip(value, 16), count(n))
                                   for value, n in shown["top"])
            elif shown.get("sd") is not None:
                detail = "mean %.4g, sd %.4g" % (shown["mean"], shown["sd"])
            else:
                detail = "mean %.4g" % shown["mean"]
            lines.append("    %s  %s  %s" % (_left(_clip(label, 20), label_width),
                                             _right(count(shown["count"]), count_width),
                                             _clip(detail, room)))
    return "\n".join(lines) + "\n"


def _number_option(text):
    """A number option: an int when written as one (--ddof 1), else a float."""
    return _cli_number(text)


_number_option.__name__ = "number"       # argparse names the type in its messages


def _parser():
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise _Usage("%s (see python %s --help)" % (message, self.prog))

    def command(name, help_text, example):
        sub = commands.add_parser(name, help=help_text, description=help_text,
                                  epilog="example:\n  " + example,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=_COMMANDS[name])
        return sub

    def progress_options(sub):
        sub.add_argument("--progress", action="store_const", const=True, help="show "
                         "how far long work is on stderr even when it is not a terminal")
        sub.add_argument("--quiet", dest="progress", action="store_const", const=False,
                         help="never show how far long work is (the default shows it on "
                         "a terminal)")

    def data_options(sub):
        progress_options(sub)
        sub.add_argument("--delimiter", metavar="CHAR", help="field separator: a "
                         "character, or tab, comma, semicolon, pipe (default: detected)")
        sub.add_argument("--decimal", metavar="MARK", help="decimal mark of numbers: . or "
                         ", (default: , in ;-separated files, else .)")
        sub.add_argument("--encoding", metavar="NAME", help="text encoding, as Python "
                         "names them: latin-1, cp1252, utf-16 ... (default: from the "
                         "byte-order mark, else UTF-8)")
        sub.add_argument("--missing", action="append", metavar="TOKEN",
                         help="another cell that means a missing value (repeatable); "
                         "empty cells, ?, NA, N/A, NaN, NULL, None ... already do")
        sub.add_argument("--missing-only", action="append", metavar="TOKEN",
                         help="only these cells (and empty ones) mean a missing value "
                         "(repeatable)")

    def decision_options(sub, training):
        """Class weights (fit, cv), the class prior and the decision rules: saved in the
        model by fit, in place of the model's for predict and evaluate."""
        if training:
            sub.add_argument("--class-weight", metavar="balanced|LABEL=W,...",
                             help="weigh each class's rows (balanced: n / (K * n_c), as "
                             "scikit-learn)")
        sub.add_argument("--class-prior", metavar="uniform|LABEL=P,...",
                         help="the class prior, in place of the learned one")
        sub.add_argument("--threshold", action="append", metavar="LABEL=T",
                         help="predict the class with the largest P(c | x) / T_c (Spark's "
                         "rule; one per class; repeatable or comma-separated)")
        sub.add_argument("--costs", metavar="FILE.csv", help="predict the least expected "
                         "cost: a CSV cost matrix, a header row of predicted labels, a row "
                         "per true label (Weka's cost-sensitive classifier)")
        sub.add_argument("--reject-below", type=_number_option, metavar="P",
                         help="predict --reject-label when the largest P(c | x) is below P")
        sub.add_argument("--reject-label", metavar="LABEL", help="the label of rows the "
                         "model is unsure of (default unsure)")

    def model_options(sub):
        sub.add_argument("--target", metavar="COL", help="the label column (default for "
                         "ARFF: the last attribute)")
        sub.add_argument("--model", choices=tuple(_CLI_MODELS), default="naive",
                         help="the model family (default naive)")
        parameters = {}                   # naive Bayes' (the widest choices) last
        for cls in reversed(list(_CLI_MODELS.values())):
            parameters.update(cls._parameters)
        for name, parameter in parameters.items():
            if parameter.option is None:
                continue
            kind, text = parameter.option[:2]
            extra = parameter.option[2] if len(parameter.option) > 2 else {}
            option = "--" + name.replace("_", "-")
            if isinstance(kind, tuple):
                sub.add_argument(option, dest=name, choices=kind, help=text)
            elif kind is bool:            # a flag: given means True
                sub.add_argument(option, dest=name, action="store_const", const=True,
                                 help=text)
            elif extra:                   # several values (nargs)
                sub.add_argument(option, dest=name, help=text, type=kind, **extra)
            else:
                sub.add_argument(option, dest=name, help=text, metavar=name.upper().split(
                    "_")[-1], type=_number_option if kind is _cli_number else kind)
        for kind in _KINDS:
            sub.add_argument("--" + kind, action="append", metavar="COLS",
                             help="comma-separated columns to treat as %s" % kind)
        decision_options(sub, True)
        data_options(sub)

    parser = Parser(prog=_PROG, description="Naive Bayes on CSV and ARFF files: fit a "
                    "model, predict, evaluate, cross-validate, explain, report.",
                    epilog="example:\n  python naive_bayes.py cv examples/data/titanic.csv "
                    "--target survived", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True

    sub = command("fit", "fit a model on a CSV or ARFF file and write it as JSON",
                  "python naive_bayes.py fit examples/data/titanic.csv --target survived "
                  "-o titanic.json")
    sub.add_argument("data", metavar="DATA", help="training data: CSV with a header row, "
                     "or ARFF (- for CSV on stdin)")
    sub.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    model_options(sub)

    sub = command("predict", "predict the class of every row of a data file",
                  "python naive_bayes.py predict titanic.json examples/data/titanic.csv --proba")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA")
    sub.add_argument("--proba", action="store_true", help="add one probability column "
                     "per class")
    sub.add_argument("--keep", action="append", metavar="COLS", help="copy these input "
                     "columns (an ID, say) into the output, first")
    sub.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
    sub.add_argument("--output-delimiter", metavar="CHAR", help="field separator of the "
                     "output (default: the input's; for ARFF a comma)")
    sub.add_argument("--output-decimal", metavar="MARK", help="decimal mark of the "
                     "probabilities: . or , (default: the input's)")
    decision_options(sub, False)
    data_options(sub)

    sub = command("evaluate", "accuracy, log loss, per-class scores and confusion matrix",
                  "python naive_bayes.py evaluate titanic.json examples/data/titanic.csv")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    decision_options(sub, False)
    data_options(sub)

    sub = command("cv", "stratified k-fold cross-validation, with the evaluate report",
                  "python naive_bayes.py cv examples/data/titanic.csv --target survived --folds 10")
    sub.add_argument("data", metavar="DATA")
    sub.add_argument("--folds", type=int, default=10, help="number of folds (default 10)")
    sub.add_argument("--seed", type=int, default=0, help="shuffling seed (default 0)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument("--report", metavar="FILE.html", help="also write the HTML report "
                     "of the out-of-fold predictions (see the report command)")
    sub.add_argument("--predictions", metavar="FILE", help="also write every row's "
                     "out-of-fold prediction as CSV: its line, fold, true and predicted "
                     "class, and one probability per class")
    model_options(sub)

    sub = command("explain", "the most informative features, or why one row got its "
                  "prediction", "python naive_bayes.py explain titanic.json "
                  "examples/data/titanic.csv "
                  "--row 3")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA", nargs="?")
    sub.add_argument("--row", type=int, metavar="N", help="the N-th data row, from 1")
    sub.add_argument("--top", type=int, default=10, help="features (or words) to list "
                     "(default 10)")
    data_options(sub)

    sub = command("forget", "remove rows a model learned, exactly (as sa-learn --forget): "
                  "the model then equals one fitted without them",
                  "python naive_bayes.py forget spam.json mistaken.csv -o spam.json")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA", help="the rows to forget, with their labels")
    sub.add_argument("-o", "--output", required=True, metavar="MODEL.json",
                     help="where to write the model (it may be MODEL.json itself)")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    data_options(sub)

    sub = command("report", "one HTML page about a model: its features' plots and, with "
                  "data, the evaluation and explanations of its rows",
                  "python naive_bayes.py report titanic.json examples/data/titanic.csv "
                  "-o titanic.html")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA", nargs="?", help="rows to evaluate (with the "
                     "target column) or explain")
    sub.add_argument("-o", "--output", required=True, metavar="FILE.html")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    data_options(sub)

    sub = command("info", "what a model file holds",
                  "python naive_bayes.py info titanic.json")
    sub.add_argument("model", metavar="MODEL.json")
    progress_options(sub)
    return parser


_COMMANDS = {"fit": _cmd_fit, "predict": _cmd_predict, "evaluate": _cmd_evaluate,
             "cv": _cmd_cv, "explain": _cmd_explain, "forget": _cmd_forget,
             "report": _cmd_report,
             "info": _cmd_info}


def main(argv=None):
    """The command line; returns the exit status: 0 done, 1 bad data, 2 usage error.
    Errors are one line on stderr, never a traceback.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as stderr:
    ...     status = main(["info", "no/such/model.json"])
    >>> status
    1
    >>> print(stderr.getvalue().strip())  # doctest: +ELLIPSIS
    naive_bayes.py info: error: load(no/such/model.json): cannot read the file: No such ...
    """
    import csv
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _Usage as error:
        sys.stderr.write("%s: error: %s\n" % (_PROG, _one_line(error)))
        return 2
    except SystemExit as stop:          # --help and --version
        return stop.code if isinstance(stop.code, int) else 0
    prog = "%s %s" % (_PROG, args.command)
    field_limit = csv.field_size_limit(_LINE_LIMIT)     # a document may be a long cell
    args.progress_line = _Progress(args.command, getattr(args, "progress", None))
    try:
        with args.progress_line:          # ended before any error is printed
            return args.run(args)
    except (_Usage, _OptionError) as error:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(error)))
        return 2
    except NaiveBayesError as error:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(error)))
        return 1
    except BrokenPipeError:
        import os
        try:                            # the reader went away (| head): stop quietly,
            devnull = os.open(os.devnull, os.O_WRONLY)    # and let no flush at exit
            os.dup2(devnull, sys.stdout.fileno())         # complain about the pipe
        except (OSError, ValueError):
            pass
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % prog)
        return 130
    except OSError as error:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(error)))
        return 1
    except Exception as error:            # a bug: still one line, and say so
        sys.stderr.write("%s: internal error (please report it): %s: %s\n"
                         % (prog, type(error).__name__, _one_line(error)))
        return 1
    finally:
        csv.field_size_limit(field_limit)


if __name__ == "__main__":
    sys.exit(main())
