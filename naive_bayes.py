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
  N_c - ddof) plus var_smoothing times the largest variance of any Gaussian feature.

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
"""

__all__ = ["NaiveBayes", "CategoricalNB", "GaussianNB", "NaiveBayesError", "main"]
__version__ = "0.1.0"

import math
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from itertools import chain, islice, repeat
from math import exp, frexp, isfinite, ldexp, log
from operator import add, getitem, mul, sub, truediv

# Importing the module should cost a bare interpreter little (a few milliseconds), so
# what only some calls need is imported in them: fractions (Gaussian features), numbers
# (values that are neither int nor float), os, json, csv, argparse (files and the
# command line).

INF = float("inf")
_FLOAT_MAX = sys.float_info.max
LOG_2 = log(2.0)
LOG_2PI = log(2.0 * math.pi)
KINDS = ("categorical", "gaussian", "text", "ignore")
_FLOAT_INT = frozenset((float, int))
_FLOAT = frozenset((float,))
_FLOAT_NONE = frozenset((float, type(None)))


class NaiveBayesError(ValueError):
    """Bad input or a bad model file: the message names the call, argument and row.

    >>> NaiveBayes().fit([["a", 1.0], ["b"]], [0, 1])
    Traceback (most recent call last):
    ...
    naive_bayes.NaiveBayesError: fit(): X row 1 has 1 values, expected 2
    """


# ----------------------------------------------------------------------------------
# Numeric helpers
# ----------------------------------------------------------------------------------

def _log(x):
    """Natural log that maps 0 to -inf instead of raising."""
    return log(x) if x > 0 else -INF


def _ratio(numerator, denominator):
    """numerator / denominator exactly: an int when it divides, else a Fraction."""
    if numerator % denominator == 0:
        return numerator // denominator
    from fractions import Fraction
    return Fraction(numerator, denominator)


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
    """An (m, k) pair as a Fraction."""
    from fractions import Fraction
    return Fraction(pair[0], 1 << pair[1])


def _exact_sums(xs, weights=None, weight_shift=0):
    """Return (sum w, sum w*x, sum w*x*x) over finite floats xs, exactly: the count
    an int or Fraction, the sums (m, k) pairs meaning m / 2**k.

    Exact sums make the statistics independent of the order of the rows, of how they
    were split into batches, and of merging: fit, partial_fit and merge agree bit for
    bit.  They are also the stable way to a variance (no cancellation in sum x^2 -
    (sum x)^2 / n), for any count and any spread of means.  ``weights`` are integers,
    each weight being weights[i] / 2**weight_shift (see _check_weights).
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
        n = _ratio(sum(weights), 1 << weight_shift)
        weighted = list(map(mul, weights, ints))
        s1 = _dyadic(sum(weighted), shift + weight_shift)
        s2 = _dyadic(sum(map(mul, weighted, ints)), 2 * shift + weight_shift)
    return n, s1, s2


def _float(x):
    """An exact number as a float, inf when it is too large for one."""
    try:
        return float(x)
    except OverflowError:
        return INF


def _number(x):
    """x as a float if it is a real number other than bool, else None; an int too
    large for a float becomes inf (and is then rejected as not finite)."""
    if type(x) is float:
        return x
    from numbers import Real
    if isinstance(x, Real) and not isinstance(x, bool):
        try:
            return float(x)
        except OverflowError:
            return INF if x > 0 else -INF
    return None


def _log_exact(x):
    """Natural log of an exact non-negative number (int, Fraction, float), -inf at 0.
    Correctly rounded through float when x fits one; from numerator and denominator
    when it does not, so no count or variance is ever too large or too small."""
    if x <= 0:
        return -INF
    try:
        f = float(x)
    except OverflowError:
        f = INF
    if 1e-300 < f < INF:
        return log(f)
    if type(x) is int:
        return log(x)                     # math.log takes ints of any size
    return log(x.numerator) - log(x.denominator)


def _times(alpha, n):
    """alpha * n, exactly when the float product would overflow."""
    product = alpha * n
    if product == INF:
        from fractions import Fraction
        return Fraction(alpha) * n
    return product


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


def _orderly(items):
    """items sorted when they are mutually orderable, else in the order given."""
    items = list(items)
    try:
        return sorted(items)
    except Exception:                     # TypeError, or an odd __lt__ (Decimal NaN)
        return items


class _BadValue(Exception):
    """Raised inside counting and scoring; the caller adds the call, row and feature."""

    def __init__(self, value, expected):
        super().__init__(value, expected)
        self.value = value
        self.expected = expected


# ----------------------------------------------------------------------------------
# Per-feature statistics and likelihoods
#
# One small class per feature kind.  Each keeps sufficient statistics per class label
# (counts, exact sums), can `absorb` another of its kind, and `compile`s them into
# a scorer: scorer[value] is a tuple of per-class log-likelihoods in classes_ order.
# ----------------------------------------------------------------------------------

class _Table(dict):
    """Categorical scorer: value -> per-class log P(value | class), one dict lookup.

    A miss returns the Laplace fallback; NaN (which never equals itself, so never hits)
    is a missing value and contributes nothing.
    """

    __slots__ = ("fallback", "zeros")

    def __missing__(self, value):
        if _is_missing(value):
            return self.zeros
        return self.fallback

    def explain(self, value):
        """(status, per-class log-likelihoods, details or None), for explain()."""
        if _is_missing(value):
            return "missing", self.zeros, None
        vector = self[value]
        return ("used" if value in self else "unseen"), vector, None

    def informative(self, name, classes):
        """(feature, value, log of the largest likelihood ratio, favoured label) for
        every known value: nltk's ranking of a value by max_c P(v|c) / min_c P(v|c)."""
        return [(name, value, _spread(vector), classes[vector.index(max(vector))])
                for value, vector in self.items() if value is not None]


class _Zeros:
    """Scorer of an ignored feature: every value contributes log 1 = 0 to every class."""

    __slots__ = ("zeros",)

    def __init__(self, zeros):
        self.zeros = zeros

    def __getitem__(self, value):
        return self.zeros

    def explain(self, value):
        return "ignored", self.zeros, None

    def informative(self, name, classes):
        return []


class _Categorical:
    """Counts N_cjv of one categorical feature, per class label and value."""

    kind = "categorical"
    __slots__ = ("counts", "declared", "known")

    def __init__(self, declared=None):
        self.counts = {}                      # label -> {value: weighted count}
        self.declared = dict.fromkeys(declared or ())   # ordered sets: declared values,
        self.known = dict(self.declared)                # and all known ones (S_j)

    def add(self, label, column, weights=None, weight_shift=0):
        """Count one class's values of this feature; missing values are skipped."""
        try:
            if weights is None:
                counted = Counter(column)
            else:
                counted = {}
                get = counted.get
                for value, weight in zip(column, weights):
                    counted[value] = get(value, 0) + weight
                counted = {v: _ratio(c, 1 << weight_shift) for v, c in counted.items()}
        except TypeError:
            bad = next(v for v in column if not _hashable(v))
            raise _BadValue(bad, "a hashable value") from None
        for value in [v for v in counted if _is_missing(v)]:
            del counted[value]
        if self.declared:
            for value in counted:
                if value not in self.declared:
                    raise _BadValue(value, "one of the declared categories %s"
                                    % _short(list(self.declared)))
        self.known.update(dict.fromkeys(counted))
        mine = self.counts.get(label)
        if mine is None:
            self.counts[label] = dict(counted)
        else:
            for value, count in counted.items():
                mine[value] = mine.get(value, 0) + count

    def copy(self):
        twin = type(self)(self.declared)
        twin.known = dict(self.known)
        twin.counts = {label: dict(counts) for label, counts in self.counts.items()}
        return twin

    def absorb(self, other):
        """Add the counts of another _Categorical to these, in place."""
        self.declared.update(other.declared)
        self.known.update(other.known)
        for label, counts in other.counts.items():
            mine = self.counts.get(label)
            if mine is None:
                self.counts[label] = dict(counts)
                continue
            for value, count in counts.items():
                mine[value] = mine.get(value, 0) + count

    def values(self):
        """Known values S_j: declared ones first, then those seen, in first-seen order."""
        return list(self.known)

    def compile(self, classes, params, epsilon):
        """The _Table of per-class log-likelihoods for every known value."""
        alpha = params["alpha"]
        values = self.values()
        zeros = (0.0,) * len(classes)
        if not values:                    # never saw a value: no information
            return _Zeros(zeros)
        n_values = len(values)
        columns = []                      # one {value: log P(value|c)} per class
        fallbacks = []
        for label in classes:
            counts = self.counts.get(label, {})
            present = sum(counts.values())
            if not present and not alpha:  # alpha = 0 and no rows: the limit alpha -> 0+
                uniform = -log(n_values)
                columns.append(dict.fromkeys(values, uniform))
                fallbacks.append(uniform)
                continue
            log_denominator = _log_plus(present, _times(alpha, n_values))
            columns.append({v: _log_plus(counts.get(v, 0), alpha) - log_denominator
                            for v in values})
            fallbacks.append(_log(alpha) - log_denominator)
        table = _Table()
        for value in values:
            table[value] = tuple([column[value] for column in columns])
        table[None] = zeros
        table.fallback = tuple(fallbacks)
        table.zeros = zeros
        return table


class _Gaussian:
    """Exact weighted sums (n, sum x, sum x^2) of one Gaussian feature, per class label."""

    kind = "gaussian"
    __slots__ = ("sums",)

    def __init__(self):
        self.sums = {}                        # label -> [n, (m, k), (m, k)], see _dyadic

    def add(self, label, column, weights=None, weight_shift=0):
        """Add one class's values; raise _BadValue for anything but a finite number."""
        try:
            if weights is None:
                xs = _reals(column, fast=True)
                if not xs:
                    return
                sums = _exact_sums(xs)
            else:
                pairs = [(v, w) for v, w in zip(column, weights) if not _is_missing(v)]
                if not pairs:
                    return
                sums = _exact_sums(_reals([v for v, _ in pairs], fast=True),
                                   [w for _, w in pairs], weight_shift)
        except (ValueError, OverflowError, TypeError):
            # a NaN, an infinity or an odd value: the careful path finds out which
            return self.add_checked(label, column, weights, weight_shift)
        self.absorb_sums(label, sums)

    def add_checked(self, label, column, weights, weight_shift):
        if weights is None:
            xs = _reals(column)
            if xs:
                self.absorb_sums(label, _exact_sums(xs))
            return
        pairs = [(v, w) for v, w in zip(column, weights) if not _is_missing(v)]
        xs = _reals([v for v, _ in pairs])
        if xs:
            self.absorb_sums(label, _exact_sums(xs, [w for _, w in pairs], weight_shift))

    def absorb_sums(self, label, sums):
        mine = self.sums.get(label)
        if mine is None:
            self.sums[label] = list(sums)
        else:
            mine[0] += sums[0]
            mine[1] = _dyadic_sum(mine[1], sums[1])
            mine[2] = _dyadic_sum(mine[2], sums[2])

    def copy(self):
        twin = _Gaussian()
        twin.sums = {label: list(sums) for label, sums in self.sums.items()}
        return twin

    def absorb(self, other):
        """Add the sums of another _Gaussian to these, in place (exact, so the order
        of merging does not matter)."""
        for label, sums in other.sums.items():
            self.absorb_sums(label, sums)

    def exact(self, label):
        """(n, sum x, sum x^2) of a class as exact numbers, or None."""
        sums = self.sums.get(label)
        if not sums or not sums[0]:
            return None
        return sums[0], _fraction(sums[1]), _fraction(sums[2])

    def pooled(self):
        """(n, s1, s2) over all classes, as exact numbers."""
        n, s1, s2 = 0, (0, 0), (0, 0)
        for count, a, b in self.sums.values():
            n += count
            s1 = _dyadic_sum(s1, a)
            s2 = _dyadic_sum(s2, b)
        return n, _fraction(s1), _fraction(s2)

    def pooled_variance(self):
        """Population variance (ddof 0) of the feature over all classes, exactly
        (0 without values)."""
        n, s1, s2 = self.pooled()
        if not n:
            return 0
        from fractions import Fraction
        return (s2 - Fraction(s1) * s1 / n) / n

    def moments(self, classes, ddof, epsilon):
        """Per-class (mean, variance), exact, with ddof and the var_smoothing epsilon
        (both exact too) applied.

        A class that never had this feature present borrows the pooled mean and
        variance of all classes (the feature then says nothing about that class).
        None when no class has a value.
        """
        from fractions import Fraction
        pooled = self.pooled()
        if not pooled[0]:
            return None
        ddof = Fraction(ddof)
        result = []
        for label in classes:
            n, s1, s2 = self.exact(label) or pooled
            mean = Fraction(s1) / n               # Fraction: int / int is a float
            m2 = s2 - s1 * mean                   # exact: sum of squared deviations
            variance = m2 / (n - ddof) if n > ddof else 0
            result.append((mean, variance + epsilon))
        return result

    def compile(self, classes, params, epsilon):
        """The scorer of per-class log-densities."""
        moments = self.moments(classes, params["ddof"], epsilon)
        zeros = (0.0,) * len(classes)
        if moments is None:
            return _Zeros(zeros)
        return _GaussianScorer(moments, zeros)


class _GaussianScorer:
    """x -> per-class log N(x; mean, variance), computed directly (never log(pdf)).

    log N = constant - (d * scale)^2 with d = x - mean, constant = -log(2 pi var) / 2
    and scale = 1 / sqrt(2 var), both from log(var) of the exact variance: finite for
    every positive variance, from a subnormal one (where 1 / (2 var) overflows) to
    one beyond the float range (values near 1e308).
    """

    __slots__ = ("means", "scales", "constants", "variances", "log_variances", "zeros",
                 "degenerate")

    def __init__(self, moments, zeros):
        self.means = tuple([float(mean) for mean, _ in moments])
        self.variances = tuple([_float(v) for _, v in moments])
        # A variance under exp(-1419), about 1e-616, is below what floats can express
        # as a width (1 / sqrt(2 var) would overflow): it counts as 0, a point mass.
        self.log_variances = tuple([lv if lv > -1419.0 else -INF
                                    for lv in [_log_exact(v) for _, v in moments]])
        self.scales = tuple([exp(-0.5 * (LOG_2 + lv)) if lv > -INF else 0.0
                             for lv in self.log_variances])
        self.constants = tuple([-0.5 * (LOG_2PI + lv) if lv > -INF else 0.0
                                for lv in self.log_variances])
        self.zeros = zeros
        # a zero variance is a point mass: +inf at the mean, -inf elsewhere
        self.degenerate = any(lv == -INF for lv in self.log_variances)

    def __getitem__(self, x):
        if type(x) is not float:
            if x is None:
                return self.zeros
            number = _number(x)
            if number is None:
                if _is_missing(x):
                    return self.zeros
                raise _BadValue(x, "a real number")
            x = number
        if not isfinite(x):
            if x != x:
                return self.zeros
            raise _BadValue(x, "a finite number")
        # z * z, not z ** 2: float ** overflows with an exception, * gives inf
        z = list(map(mul, map(sub, repeat(x), self.means), self.scales))
        logs = tuple(map(sub, self.constants, map(mul, z, z)))
        if self.degenerate:
            logs = tuple([(INF if x == m else -INF) if lv == -INF else log_n
                          for m, lv, log_n in zip(self.means, self.log_variances, logs)])
        return logs


    def explain(self, value):
        if _is_missing(value):
            return "missing", self.zeros, None
        return "used", self[value], None

    def informative(self, name, classes):
        """The Gaussian feature's class separation, in the units of the categorical
        score: the largest Kullback-Leibler divergence KL(N_a || N_b) over pairs of
        classes, i.e. the average log-likelihood ratio that a value drawn from class a
        gives in favour of a over b; favoured label a."""
        best, favoured = 0.0, classes[0]
        for a, (mean_a, var_a) in enumerate(zip(self.means, self.log_variances)):
            for mean_b, var_b in zip(self.means, self.log_variances):
                divergence = _normal_divergence(mean_a, var_a, mean_b, var_b)
                if divergence > best:
                    best, favoured = divergence, classes[a]
        return [(name, None, best, favoured)]


def _normal_divergence(mean_a, log_var_a, mean_b, log_var_b):
    """KL(N(mean_a, var_a) || N(mean_b, var_b)) in nats, from log variances; inf for
    a point mass that differs from the other distribution."""
    if log_var_a == -INF or log_var_b == -INF:
        return 0.0 if (mean_a, log_var_a) == (mean_b, log_var_b) else INF
    try:
        d = (mean_a - mean_b) * exp(-0.5 * log_var_b)
        ratio = exp(log_var_a - log_var_b)
    except OverflowError:                 # variances too far apart for a float
        return INF
    return 0.5 * (log_var_b - log_var_a + ratio + d * d - 1.0)


def _spread(vector):
    """log(max / min) of a vector of log-probabilities (inf when some are 0)."""
    top, bottom = max(vector), min(vector)
    return top - bottom if bottom != -INF else (0.0 if top == -INF else INF)


class _Ignored:
    """A feature declared "ignore": nothing is counted, nothing is scored."""

    kind = "ignore"
    __slots__ = ()

    def add(self, label, column, weights=None, weight_shift=0):
        pass

    def copy(self):
        return self

    def absorb(self, other):
        pass

    def compile(self, classes, params, epsilon):
        return _Zeros((0.0,) * len(classes))


class _Pending(_Categorical):
    """A feature whose kind is still to be inferred: no value has been seen yet.

    It scores like a categorical feature with no known values (it contributes
    nothing) and takes its kind from the first batch in which it has values.
    """

    kind = None


class _Text:
    """Word counts of one text feature, per class label: in how many documents each
    word occurs (for the Bernoulli model), how often it occurs (multinomial), and how
    many documents there are.  Both kinds of count are kept, so text_model, max_words
    and min_word_count can change after fitting."""

    kind = "text"
    __slots__ = ("documents", "terms", "present")

    def __init__(self):
        self.documents = {}           # label -> {word: weighted number of documents}
        self.terms = {}               # label -> {word: weighted number of occurrences}
        self.present = {}             # label -> weighted number of documents

    def add(self, label, column, weights=None, weight_shift=0):
        """Count one class's documents, already split into words (None: missing)."""
        if weights is None:
            docs = [words for words in column if words is not None]
            if not docs:
                return
            present = len(docs)
            terms = Counter(chain.from_iterable(docs))
            documents = Counter(chain.from_iterable(map(set, docs)))
        else:
            present, terms, documents = 0, {}, {}
            for words, weight in zip(column, weights):
                if words is None:
                    continue
                present += weight
                for word, count in Counter(words).items():
                    terms[word] = terms.get(word, 0) + weight * count
                    documents[word] = documents.get(word, 0) + weight
            scale = 1 << weight_shift
            present = _ratio(present, scale)
            terms = {w: _ratio(c, scale) for w, c in terms.items()}
            documents = {w: _ratio(c, scale) for w, c in documents.items()}
        self.absorb_counts(label, present, terms, documents)

    def absorb_counts(self, label, present, terms, documents):
        self.present[label] = self.present.get(label, 0) + present
        for mine, theirs in ((self.terms, terms), (self.documents, documents)):
            counts = mine.get(label)
            if counts is None:
                mine[label] = dict(theirs)
                continue
            get = counts.get
            for word, count in theirs.items():
                counts[word] = get(word, 0) + count

    def copy(self):
        twin = _Text()
        twin.absorb(self)
        return twin

    def absorb(self, other):
        for label, present in other.present.items():
            self.absorb_counts(label, present, other.terms.get(label, {}),
                               other.documents.get(label, {}))

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

    def compile(self, classes, params, epsilon):
        return _TextScorer(self, classes, params)


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


_STR = frozenset((str,))


def _log_column(counts, alpha, log_denominator):
    """[log(count + alpha) - log_denominator for each count], by builtin maps when the
    counts are small ints, else exactly (fractional weights, huge counts)."""
    if alpha > 0 and _INT.issuperset(map(type, counts)) and max(counts, default=0) < 2 ** 52:
        return list(map(sub, map(log, map(add, counts, repeat(alpha))),
                        repeat(log_denominator)))
    return [_log_plus(count, alpha) - log_denominator for count in counts]


_INT = frozenset((int,))


class _Lost:
    """The tokenizer of a model loaded from a file: the model was trained with a custom
    tokenizer, which a file cannot hold.  Words (lists of strings) still work."""

    def __call__(self, text):
        raise _BadValue(text, "a list of words: the model's own tokenizer could not be "
                        "saved in its file; give it again with set_params(tokenizer=...)")

    def __repr__(self):
        return "<custom tokenizer, not saved>"


_LOST = _Lost()


class _TextScorer:
    """A document -> per-class log-likelihood, in time that grows with its words.

    Bernoulli: log P(d|c) = sum over the vocabulary of log(1 - p_cw), the base, plus
    log p_cw - log(1 - p_cw) for each distinct vocabulary word of d.  Multinomial:
    the sum of log p_cw over the vocabulary words of d, repeats included.  Words
    outside the vocabulary are ignored."""

    __slots__ = ("table", "_log_p", "_columns", "base", "bernoulli", "tokenizer", "zeros",
                 "dense")

    def __init__(self, stats, classes, params):
        alpha = params["alpha"]
        self.bernoulli = params["text_model"] == "bernoulli"
        self.tokenizer = params["tokenizer"]
        self.zeros = zeros = (0.0,) * len(classes)
        vocabulary = stats.vocabulary(params)
        size = len(vocabulary)
        # A class that never had this feature present borrows the counts of all classes
        # (the feature then says nothing about it), as a Gaussian feature does.
        pooled = _Text()
        if any(not stats.present.get(label) for label in classes):
            for label in list(stats.present):
                pooled.absorb_counts(None, stats.present[label], stats.terms.get(label, {}),
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
                if not n and not alpha:           # no documents, alpha = 0: the limit
                    present_columns.append([-LOG_2] * size)
                    absent_columns.append([-LOG_2] * size)
                    continue
                denominator = _log_plus(n, _times(alpha, 2))
                present_columns.append(_log_column(counts, alpha, denominator))
                absent_columns.append(_log_column(list(map(sub, repeat(n), counts)), alpha,
                                                  denominator))
            else:
                counts = list(map(source.terms.get(label, {}).get, vocabulary, repeat(0)))
                total = sum(counts)
                if not total and not alpha:
                    present_columns.append([-log(size or 1)] * size)
                    continue
                present_columns.append(_log_column(
                    counts, alpha, _log_plus(total, _times(alpha, size))))
        self._log_p, self._columns = None, (vocabulary, present_columns)
        self.dense = False
        if not self.bernoulli:
            self.table, self.base = self.log_p, zeros
            return
        # p of 0 or 1 (only with alpha = 0) would make the sparse form inf - inf: such
        # models score every vocabulary word, densely
        self.dense = any(-INF in column for column in present_columns + absent_columns)
        if self.dense:
            self.table = dict(zip(vocabulary, zip(*absent_columns))) if size else {}
            self.base = None
            return
        deltas = [list(map(sub, p, q)) for p, q in zip(present_columns, absent_columns)]
        self.table = dict(zip(vocabulary, zip(*deltas))) if size else {}
        self.base = tuple([sum(column) for column in absent_columns])

    @property
    def log_p(self):
        """{word: per-class log P(word | c)}, built on first use (the Bernoulli scorer
        itself needs only the differences log p - log(1 - p))."""
        if self._log_p is None:
            vocabulary, columns = self._columns
            self._log_p = dict(zip(vocabulary, zip(*columns))) if vocabulary else {}
            self._columns = None
        return self._log_p

    def __getitem__(self, value):
        words = _words(value, self.tokenizer)
        if words is None:
            return self.zeros
        if not self.bernoulli:
            return tuple(map(sum, zip(self.base, *filter(None, map(self.table.get, words)))))
        if self.dense:
            present = set(words)
            return tuple(map(sum, zip(self.zeros, *[self.log_p[w] if w in present
                                                    else self.table[w]
                                                    for w in self.log_p])))
        return tuple(map(sum, zip(self.base, *filter(None, map(self.table.get, set(words))))))

    def terms(self, value):
        """The document's log-likelihood as separate per-class terms, one per word
        (per vocabulary word for a dense Bernoulli model, per occurrence for a
        multinomial one): with alpha = 0 each zero probability then counts as one
        (see _combine)."""
        words = _words(value, self.tokenizer)
        if words is None:
            return [self.zeros]
        if not self.bernoulli:
            return [self.table[w] for w in words if w in self.table] or [self.zeros]
        if self.dense:
            present = set(words)
            return [self.log_p[w] if w in present else self.table[w] for w in self.log_p] \
                or [self.zeros]
        return [self.base] + [self.table[w] for w in set(words) if w in self.table]

    def explain(self, value):
        """(status, log-likelihoods, {"words": {word: per-class part}, "baseline": ...})."""
        words = _words(value, self.tokenizer)
        if words is None:
            return "missing", self.zeros, None
        vector = self[value]
        if self.bernoulli and not self.dense:
            parts = {w: self.table[w] for w in dict.fromkeys(words) if w in self.table}
            baseline = self.base
        elif self.bernoulli:
            parts = {w: self.log_p[w] for w in dict.fromkeys(words) if w in self.log_p}
            baseline = tuple(map(sub, vector, map(sum, zip(self.zeros, *parts.values()))))
        else:
            counted = Counter(w for w in words if w in self.table)
            parts = {w: tuple([c * v for v in self.table[w]]) for w, c in counted.items()}
            baseline = self.zeros
        return "used", vector, {"words": parts, "baseline": baseline}

    def informative(self, name, classes):
        """Each vocabulary word, scored like a categorical value: the log of the
        largest ratio of its probability between two classes."""
        return [(name, word, _spread(vector), classes[vector.index(max(vector))])
                for word, vector in self.log_p.items()]


_STATS = {"categorical": _Categorical, "gaussian": _Gaussian, "ignore": _Ignored,
          "text": _Text}


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _reals(column, fast=False):
    """The non-missing values of a Gaussian column as floats; _BadValue otherwise.
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


def _short(items, limit=8):
    """repr of a list, shortened for error messages."""
    if len(items) <= limit:
        return repr(items)
    return repr(items[:limit])[:-1] + ", ...]"


def _infer_kind(columns):
    """The kind of a feature from its values: "gaussian" when every non-missing value
    is a real number (not bool), "categorical" otherwise, None when all are missing."""
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
        return "gaussian"
    return None                               # every value is missing


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
# What a model learns: class counts and per-feature statistics
# ----------------------------------------------------------------------------------

class _Counts:
    """Sufficient statistics of a fitted model.  Fitting is counting into one of these;
    partial_fit and merge add two of them; the model file stores one."""

    __slots__ = ("class_count", "features", "layout")

    def __init__(self):
        self.class_count = {}    # label -> weighted count, in first-seen order
        self.features = {}       # name -> statistics object, in column order
        self.layout = None       # the training rows: "sequence" or "mapping"

    def skeleton(self):
        """Empty statistics with the same features, kinds and declared categories."""
        empty = _Counts()
        empty.layout = self.layout
        for name, stats in self.features.items():
            if isinstance(stats, _Categorical):
                empty.features[name] = type(stats)(stats.declared)
            else:
                empty.features[name] = type(stats)()
        return empty

    def copy(self):
        twin = _Counts()
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
                         % (_short(list(self.features)), _short(list(other.features))))
        return found + ["feature %r is %s in one and %s in the other"
                        % (name, mine.kind, theirs.kind)
                        for name, mine in self.features.items()
                        for theirs in [other.features.get(name)]
                        if theirs is not None and None not in (mine.kind, theirs.kind)
                        and mine.kind != theirs.kind]

    def absorb(self, other):
        """Add other's statistics to these, in place.  Counts and sums are exact, so
        absorbing is commutative and associative: merge and partial_fit equal fit."""
        for label, count in other.class_count.items():
            self.class_count[label] = self.class_count.get(label, 0) + count
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is None or (mine.kind is None and theirs.kind is not None):
                self.features[name] = theirs.copy()     # new, or a pending kind decided
            elif theirs.kind is not None:
                mine.absorb(theirs)
        self.layout = self.layout or other.layout
        return self

    def classes(self):
        return _orderly(self.class_count)

    def names(self):
        return list(self.features)

    def kinds(self):
        return {name: stats.kind or "gaussian" for name, stats in self.features.items()}


# ----------------------------------------------------------------------------------
# Compiled model: the fast path from a row to per-class joint log-likelihoods
# ----------------------------------------------------------------------------------

class _Degenerate(list):
    """Joint log-likelihoods that hold an infinity (see _combine), with the finite
    scores that decide the posterior in `.effective`."""

    __slots__ = ("effective",)


def _combine(vectors):
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
        orders.append(order)
        finite.append(total)
    top = max(orders)
    joint = _Degenerate([f if o == 0 else (INF if o > 0 else -INF)
                         for o, f in zip(orders, finite)])
    joint.effective = [f if o == top else -INF for o, f in zip(orders, finite)]
    return joint


def _posterior_scores(joint):
    """The joint log-likelihoods that the posterior normalises (see _combine)."""
    top = max(joint)
    if top - top == 0:                    # finite: the ordinary case
        return joint
    return joint.effective


_BLOCK = 4096            # rows predicted at a time
_SEQUENCES = frozenset((list, tuple))


def _all_finite(joints):
    """True when no joint log-likelihood of any row is infinite (or NaN)."""
    total = sum(map(sum, joints))
    return total - total == 0


def _normalise_all(joints, logs=False):
    """Probabilities (or log-probabilities) of many rows, normalised column by column
    with builtins: the same arithmetic as _normalise, row for row, without a Python
    loop over the rows.  Rows with an infinity go through _normalise."""
    if not joints:
        return []
    if not _all_finite(joints):
        return [_normalise(joint)[1] if logs else _probabilities(joint) for joint in joints]
    columns = list(zip(*joints))
    tops = list(map(max, joints))
    shifted = [list(map(sub, column, tops)) for column in columns]
    exps = [list(map(exp, column)) for column in shifted]
    totals = list(map(sum, zip(*exps)))
    if logs:
        log_totals = list(map(log, totals))
        return list(map(list, zip(*[map(sub, column, log_totals) for column in shifted])))
    return list(map(list, zip(*[map(truediv, column, totals) for column in exps])))


def _probabilities(joint):
    """P(c | x) from joint log-likelihoods: max-shifted exponentials, normalised."""
    scores = _posterior_scores(joint)
    top = max(scores)
    exps = [exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _normalise(joint):
    """(probabilities, log probabilities) from joint log-likelihoods: max-shifted
    log-sum-exp, so that nothing overflows and the probabilities sum to 1.  The
    shift comes first, (s - top) - log(total), so that large joints lose no digits."""
    scores = _posterior_scores(joint)
    top = max(scores)
    shifted = [s - top for s in scores]
    exps = [exp(s) for s in shifted]
    total = sum(exps)
    log_total = log(total)
    return [e / total for e in exps], [s - log_total for s in shifted]


class _RowError(Exception):
    """A problem with one row; the caller adds the call and the row number."""


class _Unusual(Exception):
    """A row the fast path does not handle (missing or odd values): score it slowly."""


class _Packed:
    """Categorical tables whose entries pack all K per-class log-probabilities into
    one Python int, so that one builtin sum() adds every feature for every class.

    Each class has a 64-bit field holding -log P as a fixed-point number with `bits`
    fractional bits (every categorical log-probability and log-prior is <= 0, so the
    fields are non-negative and never borrow from each other).  Integer addition is
    exact: the sum does not depend on the order of the features, and the only
    rounding is 2^-(bits+1) per term (about 1e-15) and the final conversion to float.
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
                twin = _Table((value, pack(vector)) for value, vector in table.items())
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
        self.unpack = struct.Struct("=%dQ" % len(log_prior)).unpack   # native order
        self.negative_scales = (-1.0 / scale,) * len(log_prior)
        return self

    def joint(self, values):
        """log P(c) + sum_j log P(x_j | c) over the categorical values of one row."""
        total = sum(map(_getitem, self.tables, values), self.prior)
        return list(map(mul, self.unpack(total.to_bytes(self.width, sys.byteorder)),
                        self.negative_scales))

    def joints(self, rows):
        """The same for many rows, with no Python-level loop over them: the sums of
        all rows become one array of 64-bit fields, scaled by one map."""
        from array import array
        totals = map(sum, map(map, repeat(_getitem), repeat(self.tables), rows),
                     repeat(self.prior))
        fields = array("Q", b"".join(map(int.to_bytes, totals, repeat(self.width),
                                         repeat(sys.byteorder))))
        flat = list(map(mul, fields, repeat(self.negative_scales[0])))
        per_row = len(self.negative_scales)
        return list(map(list, zip(*[iter(flat)] * per_row)))


_getitem = dict.__getitem__       # a table lookup (with __missing__ for misses) in C


def _picker(positions, width):
    """A function taking the values at positions out of a row (the row itself when
    positions are all of them)."""
    if list(positions) == list(range(width)):
        return None
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        position = positions[0]
        return lambda row: (row[position],)
    from operator import itemgetter
    return itemgetter(*positions)


class _Compiled:
    """Log-probability tables compiled from _Counts once per fitted state.

    The fast path, per row: categorical features are one dict lookup each in packed
    tables (see _Packed) added by one builtin sum(); Gaussian features are three
    builtin maps per class; anything else (a zero variance, alpha = 0) is one tuple
    per feature, added by map(sum, zip(...)).  A row the fast path cannot take (a
    missing Gaussian value, a bad value, an infinity) is scored feature by feature
    in _joint_checked, which also names what is wrong.
    """

    def __init__(self, counts, params):
        classes = counts.classes()
        names = counts.names()
        self.classes = classes
        self.names = names
        self.width = len(names)
        self.zeros = (0.0,) * len(classes)
        self.log_prior = tuple(_log_prior(classes, counts.class_count, params))
        gaussians = [s for s in counts.features.values() if isinstance(s, _Gaussian)]
        largest = max([g.pooled_variance() for g in gaussians], default=0)
        epsilon = 0
        if params["var_smoothing"] and largest:
            from fractions import Fraction          # exact, like the variances
            epsilon = Fraction(params["var_smoothing"]) * largest
        self.scorers = scorers = [counts.features[n].compile(classes, params, epsilon)
                                  for n in names]
        categorical = [j for j, s in enumerate(scorers) if type(s) is _Table]
        gaussian = [j for j, s in enumerate(scorers)
                    if type(s) is _GaussianScorer and not s.degenerate]
        self.packed = None
        if categorical:
            self.packed = _Packed.build([scorers[j] for j in categorical], self.log_prior)
            if self.packed is None:       # alpha = 0: the tuple path below
                categorical = []
        self.pick_categorical = _picker(categorical, self.width)
        self.pick_gaussian = _picker(gaussian, self.width)
        # Gaussian: per class, sum_j c_kj - ((x_j - mean_kj) * scale_kj)^2, with the
        # constants c_kj summed once here (and the log-prior too, when no packed
        # categorical tables carry it).
        prior = self.log_prior if self.packed is None else self.zeros
        self.gaussian = [(prior[k] + sum([scorers[j].constants[k] for j in gaussian]),
                          tuple([scorers[j].means[k] for j in gaussian]),
                          tuple([scorers[j].scales[k] for j in gaussian]))
                         for k in range(len(classes))] if gaussian else None
        others = [j for j, s in enumerate(scorers) if j not in categorical and
                  j not in gaussian and type(s) is not _Zeros]
        self.others = [scorers[j] for j in others]
        self.pick_others = _picker(others, self.width)
        # Whole batches of all-categorical rows need no Python-level loop at all.
        self.only_packed = self.packed is not None and self.pick_categorical is None

    def positional(self, row):
        """The row as a sequence of values in feature order."""
        kind = type(row)
        if kind is list or kind is tuple:
            if len(row) != self.width:
                raise _RowError("has %d values, expected %d" % (len(row), self.width))
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
        try:
            if self.gaussian is not None:
                pick = self.pick_gaussian
                values = row if pick is None else pick(row)
                if not _FLOAT_INT.issuperset(map(type, values)):
                    raise _Unusual                    # missing or odd values
                joint = []
                for constant, means, scales in self.gaussian:
                    z = list(map(mul, map(sub, values, means), scales))
                    joint.append(constant - sum(map(mul, z, z)))
                if self.packed is not None:
                    pick = self.pick_categorical
                    joint = list(map(add, self.packed.joint(row if pick is None
                                                            else pick(row)), joint))
            elif self.packed is not None:
                pick = self.pick_categorical
                joint = self.packed.joint(row if pick is None else pick(row))
            else:
                joint = list(self.log_prior)
            if self.others:
                pick = self.pick_others
                vectors = map(getitem, self.others, row if pick is None else pick(row))
                joint = list(map(sum, zip(joint, *vectors)))
        except (_Unusual, TypeError, _BadValue, OverflowError):
            return self._joint_checked(row)
        total = sum(joint)
        if total - total == 0:            # all finite: the ordinary case
            return joint
        return self._joint_checked(row)   # NaN (a missing value), or an infinity

    def joints(self, rows):
        """Joint log-likelihoods of many rows in feature order."""
        if self.only_packed:
            try:
                return self.packed.joints(rows)
            except TypeError:             # an unhashable value: found row by row
                pass
        return list(map(self.joint, rows))

    def _joint_checked(self, row):
        """The slow path: score feature by feature, naming any bad value."""
        vectors = [self.log_prior]
        for name, scorer, value in zip(self.names, self.scorers, row):
            try:
                vector = scorer[value]
                if type(scorer) is _TextScorer and -INF in vector:
                    vectors.extend(scorer.terms(value))    # each zero word counts
                else:
                    vectors.append(vector)
            except _BadValue as error:
                raise _RowError("feature %r is %s; expected %s"
                                % (name, _short_value(error.value), error.expected)) from None
            except TypeError:
                raise _RowError("feature %r is %s; expected a hashable value"
                                % (name, _describe(value))) from None
        joint = list(map(sum, zip(*vectors)))
        total = sum(joint)
        if total - total == 0:
            return joint
        return _combine(vectors)


def _log_prior(classes, class_count, params):
    """log P(c) for each class: smoothed counts, "uniform", or the given class_prior."""
    prior = params["class_prior"]
    if prior is None:
        alpha = params["prior_alpha"]
        total = _log_plus(sum(class_count.values()), _times(alpha, len(classes)))
        return [_log_plus(class_count[c], alpha) - total for c in classes]
    if isinstance(prior, str):            # "uniform"
        return [-log(len(classes))] * len(classes)
    return [_log(float(prior[c])) for c in classes]


def _short_value(value):
    """repr of a value, cut for an error message."""
    try:
        text = repr(value)
    except Exception:
        return "<unprintable>"
    return text if len(text) <= 60 else text[:57] + "..."


def _describe(value):
    """A short description of a value for error messages (on one line)."""
    try:
        text = repr(value)
    except Exception:                     # an odd __repr__, or an int of 5,000 digits
        text = "<unprintable>"
    if len(text) > 60:
        text = text[:57] + "..."
    return "%s %s" % (type(value).__name__, text)


# ----------------------------------------------------------------------------------
# Parameters
# ----------------------------------------------------------------------------------

_DEFAULTS = {
    "alpha": 1.0, "prior_alpha": 0.0, "class_prior": None, "features": None,
    "categories": None, "ddof": 0, "var_smoothing": 1e-9, "text_model": "bernoulli",
    "max_words": None, "min_word_count": 1, "tokenizer": None,
}
_CHUNK = 10000            # rows counted at a time when X is not a list or tuple


def _check_params(params, call):
    """Raise NaiveBayesError for the first parameter that is out of its domain."""
    for name in ("alpha", "prior_alpha", "ddof", "var_smoothing"):
        value = params[name]
        number = _number(value)
        if number is None or not isfinite(number) or number < 0:
            raise NaiveBayesError("%s: %s=%r; expected a finite number >= 0"
                                  % (call, name, value))
    prior = params["class_prior"]
    if prior is not None and prior != "uniform":
        if not isinstance(prior, Mapping) or not prior:
            raise NaiveBayesError("%s: class_prior=%r; expected None, \"uniform\" or a "
                                  "non-empty {label: probability} dict" % (call, prior))
        for label, p in prior.items():
            number = _number(p)
            if number is None or not 0 <= number <= 1:
                raise NaiveBayesError("%s: class_prior[%r] is %r; expected a probability "
                                      "between 0 and 1" % (call, label, p))
        total = math.fsum(map(float, prior.values()))
        if abs(total - 1.0) > 1e-9:
            raise NaiveBayesError("%s: class_prior sums to %r; expected probabilities "
                                  "that sum to 1" % (call, total))
    kinds = _declared_kinds(params, call)
    categories = _declared_categories(params, call)
    for name in categories:
        if kinds.get(name, "categorical") != "categorical":
            raise NaiveBayesError("%s: categories declares values for feature %r, which "
                                  "features= declares %r; expected a categorical feature"
                                  % (call, name, kinds[name]))
    if params["text_model"] not in ("bernoulli", "multinomial"):
        raise NaiveBayesError("%s: text_model=%r; expected \"bernoulli\" or "
                              "\"multinomial\"" % (call, params["text_model"]))
    for name, smallest, allow_none in (("max_words", 1, True), ("min_word_count", 1, False)):
        value = params[name]
        if value is None and allow_none:
            continue
        if type(value) is not int or value < smallest:
            raise NaiveBayesError("%s: %s=%r; expected %san integer >= %d"
                                  % (call, name, value, "None or " if allow_none else "",
                                     smallest))
    if params["tokenizer"] is not None and not callable(params["tokenizer"]):
        raise NaiveBayesError("%s: tokenizer=%r; expected None or a callable"
                              % (call, params["tokenizer"]))


def _declared_kinds(params, call):
    """{feature name: kind} from the features parameter (positions name a list)."""
    features = params["features"]
    if features is None:
        return {}
    if isinstance(features, Mapping):
        kinds = dict(features)
    elif isinstance(features, (list, tuple)):
        kinds = dict(enumerate(features))
    else:
        raise NaiveBayesError("%s: features=%r; expected None, a {name: kind} dict or a "
                              "list of kinds" % (call, features))
    for name, kind in kinds.items():
        if kind not in KINDS:
            raise NaiveBayesError("%s: features[%r] is %r; expected one of %s"
                                  % (call, name, kind, ", ".join(map(repr, KINDS))))
    return kinds


def _declared_categories(params, call):
    """{feature name: [values]} from the categories parameter."""
    categories = params["categories"]
    if categories is None:
        return {}
    if isinstance(categories, Mapping):
        items = list(categories.items())
    elif isinstance(categories, (list, tuple)):
        items = list(enumerate(categories))
    else:
        raise NaiveBayesError("%s: categories=%r; expected None, a {name: [values]} dict "
                              "or a list of value lists" % (call, categories))
    declared = {}
    for name, values in items:
        if values is None:
            continue
        if isinstance(values, (str, bytes, Mapping)) or not (
                hasattr(values, "__iter__") and hasattr(values, "__len__")):
            raise NaiveBayesError("%s: categories[%r] is %r; expected a list of values"
                                  % (call, name, values))
        values = list(values)
        for value in values:
            if not _hashable(value) or _is_missing(value):
                raise NaiveBayesError("%s: categories[%r] holds %s; expected hashable, "
                                      "non-missing values" % (call, name, _describe(value)))
        declared[name] = values
    return declared


# ----------------------------------------------------------------------------------
# The classifier
# ----------------------------------------------------------------------------------

class NaiveBayes:
    """Naive Bayes over categorical and Gaussian features, alone or mixed in one model.

    Parameters (all can be changed with set_params; alpha, prior_alpha, class_prior,
    ddof and var_smoothing take effect at once, even on a loaded model, because the
    model keeps counts rather than probabilities):

    alpha          Lidstone smoothing of categorical likelihoods (1 = Laplace, 0 = MLE).
    prior_alpha    smoothing of the class prior: (N_c + prior_alpha) / (N + K*prior_alpha).
    class_prior    None (learned), "uniform", or {label: probability} (overrides
                   prior_alpha).
    features       None to infer each feature's kind, or {name: kind} / [kind, ...] with
                   kind in "categorical", "gaussian", "text", "ignore".  Undeclared
                   features are inferred: Gaussian when every non-missing training value
                   is a real number (not bool), categorical otherwise (text is never
                   inferred: declare it).
    categories     known values per categorical feature ({name: [values]} or a list by
                   position); they count in S_j even if unseen, and any other training
                   value is an error.
    ddof           Gaussian variance divisor N_c - ddof: 0 as scikit-learn, 1 as R and the
                   textbooks.
    var_smoothing  added to every Gaussian variance, times the largest variance (ddof 0,
                   all classes pooled) of any Gaussian feature, as in scikit-learn.
    text_model     "bernoulli" (set-of-words: each vocabulary word present or absent) or
                   "multinomial" (bag-of-words: word counts), for text features.
    max_words      keep the k most frequent training words (None: all), frequency being
                   documents (Bernoulli) or occurrences (multinomial); ties alphabetical.
    min_word_count drop words rarer than this.
    tokenizer      None (lowercase, then scikit-learn CountVectorizer's default pattern)
                   or a callable from a string to a list of words; a text value may also
                   be a list of words already split.

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
    - Gaussian: a class with no values of a feature uses the pooled mean and variance
      of all classes; a class variance with N_c - ddof <= 0 counts as 0.  Statistics
      are exact sums, so fit, partial_fit in any batches and merge agree exactly.
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

    >>> model = NaiveBayes().fit([["red", 1.0], ["red", 1.2], ["blue", 3.1],
    ...                          ["blue", 2.9]], ["a", "a", "b", "b"])
    >>> model.feature_kinds_
    {0: 'categorical', 1: 'gaussian'}
    >>> model.predict([["red", 1.1], [None, 3.0], ["green", None]])
    ['a', 'b', 'a']
    """

    _default_kind = None          # CategoricalNB and GaussianNB fix the kind
    _estimator_type = "classifier"    # scikit-learn before 1.6

    def __init__(self, alpha=1.0, prior_alpha=0.0, class_prior=None, features=None,
                 categories=None, ddof=0, var_smoothing=1e-9, text_model="bernoulli",
                 max_words=None, min_word_count=1, tokenizer=None):
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
        _check_params(self.get_params(), "%s()" % type(self).__name__)
        self._counts = None
        self._compiled = None
        self._target = None       # the label column's name, when the command line knows it

    # -- the scikit-learn estimator protocol ------------------------------------

    def get_params(self, deep=True):
        """The constructor parameters, as a dict.

        >>> NaiveBayes(alpha=0.5).get_params()["alpha"]
        0.5
        """
        return {name: getattr(self, name) for name in _DEFAULTS}

    def set_params(self, **params):
        """Set parameters.  Smoothing, priors, ddof, var_smoothing, the text model, the
        vocabulary limits and the tokenizer (used to split documents to predict) apply
        at once, even to a fitted or loaded model, because it keeps counts rather than
        probabilities; features and categories apply at the next fit.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> round(model.predict_proba_one(["b"])[1], 4)      # (1/3 * 2/3) / (2/3 * 1/4 + 1/3 * 2/3)
        0.5714
        >>> round(model.set_params(alpha=0).predict_proba_one(["b"])[1], 4)
        1.0
        """
        for name in params:
            if name not in _DEFAULTS:
                raise NaiveBayesError("set_params(): unknown parameter %r; expected one "
                                      "of %s" % (name, ", ".join(_DEFAULTS)))
        merged = dict(self.get_params(), **params)
        _check_params(merged, "set_params()")
        if self._counts is not None:
            _check_class_prior(merged["class_prior"], self._counts.class_count,
                               "set_params()")
        for name, value in params.items():
            setattr(self, name, value)
        self._compiled = None
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

    def __repr__(self):
        changed = ["%s=%r" % (name, getattr(self, name)) for name, default in
                   _DEFAULTS.items() if getattr(self, name) is not default
                   and getattr(self, name) != default]
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_compiled"] = None         # rebuilt on demand
        return state

    # -- fitted attributes --------------------------------------------------------

    def _fitted(self):
        if self._counts is None:
            raise AttributeError("this %s is not fitted yet; call fit(X, y) first"
                                 % type(self).__name__)
        return self._counts

    @property
    def classes_(self):
        """Class labels, sorted when orderable, else in first-seen order.

        >>> NaiveBayes().fit([["a"], ["b"]], ["yes", "no"]).classes_
        ['no', 'yes']
        """
        return self._fitted().classes()

    @property
    def class_count_(self):
        """Weighted number of training rows per class, in classes_ order.

        >>> NaiveBayes().fit([["a"], ["b"], ["c"]], [1, 0, 1], sample_weight=[2, 1, 0.5]).class_count_
        [1, 2.5]
        """
        counts = self._fitted()
        return [_plain(counts.class_count[c]) for c in counts.classes()]

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
        counts = self._learn(X, y, sample_weight, _Counts(), "fit()")
        self._counts = counts
        self._compiled = None
        return self

    def partial_fit(self, X, y, sample_weight=None):
        """Learn from more rows, adding to what is known (new classes, values and
        features are welcome).  Counts and sums are exact, so any batching gives
        exactly the model of one fit, provided each feature's kind is the same in
        every batch (declare it with features= if a batch could make it look
        otherwise).  A failed call leaves the model as it was.

        >>> model = CategoricalNB().partial_fit([["a"]], [0]).partial_fit([["b"]], [1])
        >>> model.classes_, model.predict([["b"]])
        ([0, 1], [1])
        """
        base = self._counts
        batch = base.skeleton() if base is not None else _Counts()
        batch = self._learn(X, y, sample_weight, batch, "partial_fit()", base)
        if base is None:
            self._counts = batch
        else:
            base.absorb(batch)
        self._compiled = None
        return self

    def _learn(self, X, y, sample_weight, counts, call, base=None):
        """Count X, y into counts, chunk by chunk; raise before anything is kept."""
        params = self.get_params()
        X = _rows_of(X, call)
        rows_in = _iterate(X, "X", "an iterable of rows", call)
        labels_in = _iterate(y, "y", "an iterable of labels", call)
        weights_in = None if sample_weight is None else _iterate(
            sample_weight, "sample_weight", "an iterable of numbers", call)
        size = max(1, len(X)) if hasattr(X, "__len__") and hasattr(X, "__getitem__") \
            else _CHUNK
        seen = set()                      # feature names that some row holds
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
                           _count_text(start + len(items), iterator), what))
            if not rows:
                break
            self._count_chunk(counts, rows, labels, weights, start, call, params, seen)
            start += len(rows)
        if start == 0:
            raise NaiveBayesError("%s: X is empty; expected at least one row" % call)
        class_count = dict(base.class_count) if base is not None else {}
        for label, count in counts.class_count.items():
            class_count[label] = class_count.get(label, 0) + count
        if not any(class_count.values()):
            raise NaiveBayesError("%s: sample_weight is 0 for every row; expected a "
                                  "positive total weight" % call)
        _check_class_prior(params["class_prior"], class_count, call)
        if base is None:
            _check_declared_names(params, counts, seen, call)
        return counts

    def _count_chunk(self, counts, rows, labels, weights, start, call, params, seen):
        """Count one chunk of rows into counts (class counts, then column by column)."""
        _check_labels(labels, start, call)
        shift = 0
        if weights is not None:
            weights, shift = _check_weights(weights, start, call)
        rows, names = self._positional_rows(counts, rows, start, call, params, seen)
        kept = None                       # row numbers, when zero-weight rows are dropped
        if weights is not None and not all(weights):
            kept = [i for i, w in enumerate(weights) if w]   # weight 0: no row at all
            rows = [rows[i] for i in kept]
            labels = [labels[i] for i in kept]
            weights = [weights[i] for i in kept]
        groups = defaultdict(list)
        if weights is None:
            for row, label in zip(rows, labels):
                groups[label].append(row)
            chunk_counts = Counter(labels)
            weight_groups = None
        else:
            weight_groups = defaultdict(list)
            for row, label, weight in zip(rows, labels, weights):
                groups[label].append(row)
                weight_groups[label].append(weight)
            chunk_counts = {label: _ratio(sum(w), 1 << shift)
                            for label, w in weight_groups.items()}
        for label, count in chunk_counts.items():
            counts.class_count[label] = counts.class_count.get(label, 0) + count
        order = list(groups)
        declared = _declared_kinds(params, call)
        tokenizer = params["tokenizer"]
        transposed = [zip(*groups[label]) for label in order]
        for position, (name, columns) in enumerate(zip(names, zip(*transposed))):
            stats = counts.features[name]
            inferred = False
            if stats.kind is None:
                kind = _infer_kind(columns)
                if kind is None:
                    continue              # still no value: the kind stays open
                stats = counts.features[name] = _STATS[kind]()
                inferred = True
            try:
                for label, column in zip(order, columns):
                    if stats.kind == "text":
                        column = [_words(value, tokenizer) for value in column]
                    stats.add(label, column,
                              weight_groups[label] if weight_groups else None, shift)
            except _BadValue as error:
                i = _locate([row[position] for row in rows], error.value)
                i = i if kept is None else kept[i]
                hint = ""
                if error.expected == "a real number" and name not in declared and \
                        self._default_kind is None:
                    hint = (" (the feature was inferred Gaussian%s; declare it with "
                            "features={%r: \"categorical\"})"
                            % ("" if inferred else " from earlier rows", name))
                raise NaiveBayesError("%s: X row %d, feature %r is %s; expected %s%s"
                                      % (call, start + i, name, _describe(error.value),
                                         error.expected, hint)) from None

    def _positional_rows(self, counts, rows, start, call, params, seen):
        """The chunk's rows as sequences in feature order; new features registered,
        and the names that rows hold added to seen."""
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
                    raise NaiveBayesError("%s: X row %d is %s; expected a sequence or "
                                          "mapping of feature values"
                                          % (call, start + i, _describe(row)))
                if isinstance(row, Mapping) != (layout == "mapping"):
                    raise NaiveBayesError("%s: X row %d is a %s but row %d is a %s; "
                                          "expected rows of one shape"
                                          % (call, start + i, type(row).__name__,
                                             start, type(rows[0]).__name__))
            if layout == "sequence":
                rows = [row.tolist() if hasattr(row, "tolist") else list(row)
                        for row in rows]
        if counts.layout is None:
            counts.layout = layout
        elif counts.layout != layout:
            raise NaiveBayesError("%s: X row %d is a %s, but the model was fitted on %s; "
                                  "expected rows of one shape"
                                  % (call, start, type(rows[0]).__name__,
                                     "mappings" if counts.layout == "mapping"
                                     else "sequences (lists or tuples)"))
        declared = _declared_kinds(params, call)
        if layout == "mapping":
            for option in ("features", "categories"):
                if isinstance(params[option], (list, tuple)):
                    raise NaiveBayesError(
                        "%s: %s= is a list by position, but X row %d is a mapping; "
                        "expected %s as a {name: ...} dict" % (call, option, start, option))
            try:
                present = dict.fromkeys(chain.from_iterable(rows))
            except TypeError:
                i = next(i for i, row in enumerate(rows) if not all(map(_hashable, row)))
                raise NaiveBayesError("%s: X row %d has a key that is not hashable; "
                                      "expected feature names" % (call, start + i)) from None
            seen.update(present)
            for name in chain(declared, present):
                if name not in counts.features:
                    counts.features[name] = self._new_stats(name, params, call)
            names = list(counts.features)
            return [list(map(row.get, names)) for row in rows], names
        if not counts.features:
            width = len(rows[0])
            names = _sequence_names(params, width, start, call)
            for name in names:
                counts.features[name] = self._new_stats(name, params, call)
        seen.update(counts.features)
        width = len(counts.features)
        if set(map(len, rows)) != {width}:
            i = next(i for i, row in enumerate(rows) if len(row) != width)
            raise NaiveBayesError("%s: X row %d has %d values, expected %d"
                                  % (call, start + i, len(rows[i]), width))
        return rows, list(counts.features)

    def _new_stats(self, name, params, call):
        """Empty statistics for a feature seen for the first time."""
        kind = _declared_kinds(params, call).get(name)
        categories = _declared_categories(params, call).get(name)
        if kind is None:
            kind = "categorical" if categories is not None else self._default_kind
        if kind is None:
            return _Pending()
        if kind == "categorical":
            return _Categorical(categories)
        return _STATS[kind]()

    # -- prediction -----------------------------------------------------------------

    def _model(self, call):
        """The compiled model, built on first use after each change."""
        compiled = self._compiled
        if compiled is None:
            if self._counts is None:
                raise NaiveBayesError("%s: this %s is not fitted yet; call fit(X, y) "
                                      "first" % (call, type(self).__name__))
            compiled = self._compiled = _Compiled(self._counts, self.get_params())
        return compiled

    def _joints(self, X, call):
        """Per-row joint log-likelihoods, and the compiled model that made them.

        Rows come in blocks; a block of lists or tuples of the right width (checked
        by builtins) goes to compiled.joints whole, anything else row by row.
        """
        compiled = self._model(call)
        rows = _iterate(_rows_of(X, call), "X", "an iterable of rows", call)
        width = {compiled.width}
        out = []
        start = 0
        while True:
            block = list(islice(rows, _BLOCK))
            if not block:
                return out, compiled
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
                        raise NaiveBayesError("%s: X row %d %s" % (call, start + i, error)) \
                            from None
                raise
            start += len(block)

    def _joint_one(self, x, call):
        compiled = self._model(call)
        try:
            return compiled.joint(compiled.positional(x)), compiled
        except _RowError as error:
            raise NaiveBayesError("%s: x %s" % (call, error)) from None

    def predict_joint_log_proba(self, X):
        """log P(c) + sum_j log P(x_j | c) per row, columns in classes_ order.

        >>> model = CategoricalNB(alpha=0).fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(math.exp(v), 4) for v in row] for row in model.predict_joint_log_proba([["a"]])]
        [[0.6667, 0.0]]
        """
        joints, _ = self._joints(X, "predict_joint_log_proba()")
        if _Degenerate in set(map(type, joints)):
            return [list(joint) for joint in joints]
        return joints

    def predict_log_proba(self, X):
        """log P(c | x) per row, columns in classes_ order.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(v, 4) for v in row] for row in model.predict_log_proba([["b"]])]
        [[-0.8473, -0.5596]]
        """
        joints, _ = self._joints(X, "predict_log_proba()")
        return _normalise_all(joints, logs=True)

    def predict_proba(self, X):
        """P(c | x) per row, columns in classes_ order; every row sums to 1.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(p, 4) for p in row] for row in model.predict_proba([["a"], [None]])]
        [[0.8182, 0.1818], [0.6667, 0.3333]]
        """
        joints, _ = self._joints(X, "predict_proba()")
        return _normalise_all(joints)

    def predict(self, X):
        """The most probable class of each row (ties go to the earlier class).

        >>> GaussianNB().fit([[1.0], [1.5], [4.0], [4.5]], list("aabb")).predict([[1.2], [3.9]])
        ['a', 'b']
        """
        return self._predict(X, "predict()")

    def _predict(self, X, call):
        joints, compiled = self._joints(X, call)
        if not _all_finite(joints):
            joints = list(map(_posterior_scores, joints))
        return list(map(compiled.classes.__getitem__,
                        map(list.index, joints, map(max, joints))))

    def predict_one(self, x):
        """The most probable class of one row.

        >>> CategoricalNB().fit([["a"], ["b"]], ["p", "q"]).predict_one(["b"])
        'q'
        """
        joint, compiled = self._joint_one(x, "predict_one()")
        scores = _posterior_scores(joint)
        return compiled.classes[scores.index(max(scores))]

    def predict_proba_one(self, x):
        """{label: P(label | x)} for one row.

        >>> proba = CategoricalNB().fit([["a"], ["b"]], ["p", "q"]).predict_proba_one({0: "b"})
        >>> {label: round(p, 4) for label, p in proba.items()}
        {'p': 0.3333, 'q': 0.6667}
        """
        joint, compiled = self._joint_one(x, "predict_proba_one()")
        return dict(zip(compiled.classes, _probabilities(joint)))

    def score(self, X, y, sample_weight=None):
        """Accuracy: the (weighted) fraction of rows whose prediction equals y.

        >>> CategoricalNB().fit([["a"], ["b"]], [0, 1]).score([["a"], ["b"], ["a"]], [0, 1, 1])
        0.6666666666666666
        """
        truth = list(_iterate(y, "y", "an iterable of labels", "score()"))
        predicted = self._predict(X, "score()")
        if len(truth) != len(predicted):
            raise NaiveBayesError("score(): X has %d rows but y has %d labels; expected "
                                  "one label per row" % (len(predicted), len(truth)))
        if not predicted:
            raise NaiveBayesError("score(): X is empty; expected at least one row")
        hits = [p == t for p, t in zip(predicted, truth)]
        if sample_weight is None:
            return sum(hits) / len(hits)
        weights = list(_iterate(sample_weight, "sample_weight", "an iterable of numbers",
                                "score()"))
        if len(weights) != len(hits):
            raise NaiveBayesError("score(): sample_weight has %d weights for %d rows"
                                  % (len(weights), len(hits)))
        weights, _ = _check_weights(weights, 0, "score()")
        total = sum(weights)
        if not total:
            raise NaiveBayesError("score(): sample_weight is 0 for every row; expected a "
                                  "positive total weight")
        return sum(w for w, hit in zip(weights, hits) if hit) / total

    # -- explanations -----------------------------------------------------------------

    def explain(self, x):
        """How one row's joint log-likelihood is made up, feature by feature.

        Returns {"prior": {label: log P(c)}, "features": [{"feature", "value",
        "status", "log_likelihood": {label: log P(value | c)}}, ...]}, where status is
        "used", "unseen" (the Laplace fallback), "missing" or "ignored" (a feature
        declared "ignore" or never seen in training); missing and ignored features
        contribute 0.  The prior plus all contributions is the joint log-likelihood.

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
        try:
            row = compiled.positional(x)
        except _RowError as error:
            raise NaiveBayesError("explain(): x %s" % error) from None
        classes = compiled.classes
        features = []
        for name, scorer, value in zip(compiled.names, compiled.scorers, row):
            try:
                status, vector, details = scorer.explain(value)
            except _BadValue as error:
                raise NaiveBayesError("explain(): x feature %r is %s; expected %s"
                                      % (name, _short_value(error.value),
                                         error.expected)) from None
            except TypeError:
                raise NaiveBayesError("explain(): x feature %r is %s; expected a "
                                      "hashable value" % (name, _describe(value))) from None
            entry = {"feature": name, "value": value, "status": status,
                     "log_likelihood": dict(zip(classes, vector))}
            if details:                   # text: each word's part, and the baseline
                entry["words"] = {word: dict(zip(classes, part))
                                  for word, part in details["words"].items()}
                entry["baseline"] = dict(zip(classes, details["baseline"]))
            features.append(entry)
        if isinstance(x, Mapping):
            known = set(compiled.names)
            for name, value in x.items():
                if name not in known:
                    features.append({"feature": name, "value": value, "status": "ignored",
                                     "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, compiled.log_prior)), "features": features}

    def most_informative_features(self, n=10):
        """The n (feature, value, score, favoured_label) tuples that best separate the
        classes, most informative first; printing them is the command line's job.

        Categorical: every known value, scored as nltk does by the largest likelihood
        ratio between two classes, log(max_c P(v|c) / min_c P(v|c)), favouring the
        class where it is most likely.  Gaussian (value None): the largest
        Kullback-Leibler divergence KL(N_a || N_b) between two classes' normals, the
        average log-likelihood ratio a value from class a gives for a over b.  Both
        scores are in nats of log-likelihood ratio, so one ranking holds both kinds.

        >>> model = CategoricalNB().fit([["a", "x"], ["b", "x"], ["a", "y"]], [1, 2, 1])
        >>> [(f, v, round(s, 3), c) for f, v, s, c in model.most_informative_features(2)]
        [(0, 'b', 0.981, 2), (0, 'a', 0.811, 1)]
        """
        compiled = self._model("most_informative_features()")
        if type(n) is not int or n < 0:
            raise NaiveBayesError("most_informative_features(): n=%r; expected an "
                                  "integer >= 0" % (n,))
        ranked = []
        for name, scorer in zip(compiled.names, compiled.scorers):
            ranked.extend(scorer.informative(name, compiled.classes))
        ranked.sort(key=lambda item: -item[2])
        return ranked[:n]

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
        if not isinstance(other, NaiveBayes):
            raise NaiveBayesError("merge(): other is %s; expected a naive Bayes model"
                                  % _describe(other))
        differences = _param_differences(self.get_params(), other.get_params())
        if type(self) is not type(other):
            differences.insert(0, "the models are a %s and a %s"
                               % (type(self).__name__, type(other).__name__))
        mine, theirs = self._counts, other._counts
        if mine is not None and theirs is not None:
            differences.extend(mine.conflicts(theirs))
        if differences:
            raise NaiveBayesError("merge(): the models differ: %s; expected models with "
                                  "the same parameters and feature kinds"
                                  % "; ".join(differences))
        merged = type(self)(**self.get_params())
        merged._target = self._target if self._target is not None else other._target
        if mine is not None or theirs is not None:
            counts = (mine or theirs).copy()
            if mine is not None and theirs is not None:
                counts.absorb(theirs)
            _check_class_prior(self.class_prior, counts.class_count, "merge()")
            merged._counts = counts
        return merged

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
        return _model_to_dict(self)

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
        _write_atomically(path, _json_text(self.to_dict()), "save()")

    @classmethod
    def load(cls, path):
        """Read a model written by save(); CategoricalNB and GaussianNB load back as
        what they were.  Never runs code; an invalid file raises NaiveBayesError.

        >>> NaiveBayes.load("no/such/model.json")
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: load(no/such/model.json): cannot read the file: No such file or directory
        """
        import os
        call = "load(%s)" % os.fspath(path)
        return _model_from_dict(cls, _read_json(path, call), call)


class CategoricalNB(NaiveBayes):
    """Naive Bayes with every feature categorical, whatever its type (numbers too):
    scikit-learn's CategoricalNB, without the ordinal encoding.

    >>> CategoricalNB().fit([[1, 10], [2, 20]], ["x", "y"]).feature_kinds_
    {0: 'categorical', 1: 'categorical'}
    """

    _default_kind = "categorical"


class GaussianNB(NaiveBayes):
    """Naive Bayes with every feature Gaussian.

    >>> model = GaussianNB().fit([[1.0], [1.2], [3.0], [3.2]], [0, 0, 1, 1])
    >>> model.predict([[1.1], [2.9]])
    [0, 1]
    """

    _default_kind = "gaussian"


# ----------------------------------------------------------------------------------
# Input checks shared by fit, partial_fit and score
# ----------------------------------------------------------------------------------

def _plain(count):
    """A count as an int when integral, else a float."""
    if type(count) is int:
        return count
    return int(count) if count == int(count) else float(count)


def _check_labels(labels, start, call):
    try:
        distinct = set(labels)
    except TypeError:
        i = next(i for i, label in enumerate(labels) if not _hashable(label))
        raise NaiveBayesError("%s: y row %d is %s; expected a hashable label"
                              % (call, start + i, _describe(labels[i]))) from None
    if None in distinct or any(_is_missing(label) for label in distinct):
        i = next(i for i, label in enumerate(labels) if _is_missing(label))
        raise NaiveBayesError("%s: y row %d is missing (%r); expected a label"
                              % (call, start + i, labels[i]))


def _check_weights(weights, start, call):
    """(integer weights, shift) with weights[i] == integers[i] / 2**shift, exactly."""
    if not _FLOAT_INT.issuperset(map(type, weights)):
        numbers = list(map(_number, weights))
        if None in numbers:
            i = numbers.index(None)
            raise NaiveBayesError("%s: sample_weight row %d is %s; expected a finite "
                                  "number >= 0" % (call, start + i, _describe(weights[i])))
        weights = numbers
    floats = list(map(float, weights))
    if not all(map(isfinite, floats)) or min(floats) < 0:
        i = next(i for i, w in enumerate(floats) if not (isfinite(w) and w >= 0))
        raise NaiveBayesError("%s: sample_weight row %d is %r; expected a finite number "
                              ">= 0" % (call, start + i, weights[i]))
    if all(map(float.is_integer, floats)):
        return list(map(int, floats)), 0
    scaled = _scaled_integers(floats)
    if scaled is None:                    # weights spanning > 900 binades
        from fractions import Fraction
        return list(map(Fraction, floats)), 0
    return scaled


def _check_class_prior(prior, class_count, call):
    """A {label: p} class_prior must name exactly the classes seen in training."""
    if prior is None or isinstance(prior, str):
        return
    classes = _orderly(class_count)
    unknown = [label for label in prior if label not in class_count]
    if unknown:
        raise NaiveBayesError("%s: class_prior names %s, not among the classes %s"
                              % (call, _short(unknown), _short(classes)))
    absent = [label for label in classes if label not in prior]
    if absent:
        raise NaiveBayesError("%s: class_prior has no probability for class %s; expected "
                              "one for every class" % (call, _short(absent)))


def _rows_of(X, call):
    """X as an iterable of rows: a pandas DataFrame gives dicts by column name;
    unordered collections are refused (their rows would pair with the wrong labels)."""
    if hasattr(X, "columns") and hasattr(X, "itertuples"):
        columns = list(X.columns)
        return [dict(zip(columns, values)) for values in X.itertuples(index=False, name=None)]
    if isinstance(X, (Mapping, set, frozenset, str, bytes)):
        raise NaiveBayesError("%s: X is %s; expected an ordered iterable of rows (a list, "
                              "tuple, generator, array or DataFrame)" % (call, _describe(X)))
    return X


def _iterate(values, name, expected, call):
    """iter(values), refusing what cannot be iterated or has no order."""
    if isinstance(values, (Mapping, set, frozenset, str, bytes)) or values is None:
        raise NaiveBayesError("%s: %s is %s; expected %s" % (call, name, _describe(values),
                                                             expected))
    if hasattr(values, "columns") and hasattr(values, "itertuples"):
        raise NaiveBayesError("%s: %s is a DataFrame; expected one column (a Series)"
                              % (call, name))
    try:
        return iter(values)
    except TypeError:
        raise NaiveBayesError("%s: %s is %s; expected %s" % (call, name, _describe(values),
                                                             expected)) from None


def _count_text(counted, iterator, limit=100000):
    """How many items there were: counted plus what the iterator still holds, read
    up to a limit so that an endless iterator cannot hang an error message."""
    extra = sum(1 for _ in islice(iterator, limit)) if iterator is not None else 0
    return ("at least %d" if extra == limit else "%d") % (counted + extra)


def _sequence_names(params, width, start, call):
    """Feature names for sequence rows: positions 0..width-1, or the names of a
    features= dict that names every column in order with names that are not ints."""
    declared = _declared_kinds(params, call)
    categories = _declared_categories(params, call)
    names = list(range(width))
    if declared and not all(type(name) is int for name in declared):
        if any(type(name) is int for name in declared) or len(declared) != width:
            raise NaiveBayesError(
                "%s: features= names %s but X row %d has %d values; expected positions "
                "0..%d, or a name for every column in order"
                % (call, _short(list(declared)), start, width, width - 1))
        names = list(declared)
    for option, keys in (("features", declared), ("categories", categories)):
        outside = [name for name in keys if name not in names]
        if outside:
            raise NaiveBayesError("%s: %s= names %s, but X row %d has %d values; expected "
                                  "positions 0..%d%s"
                                  % (call, option, _short(outside), start, width, width - 1,
                                     "" if names[:1] == [0] else
                                     " or the names %s" % _short(names)))
    return names


def _check_declared_names(params, counts, seen, call):
    """A name in features= or categories= that no training row holds, while a row holds
    a name much like it, is a typo.  (A declared feature that is simply absent, say in
    one part of data trained in parts, is fine: it has no values yet.)"""
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
                                      "mean %r?" % (call, option, name, held[close[0]]))


def _param_differences(mine, theirs):
    """Human-readable differences between two parameter dicts.  Tokenizers are the
    same when identical, or functions with the same code (a function shipped to
    Spark executors and back is a copy)."""
    return ["%s is %r in one and %r in the other" % (name, mine[name], theirs[name])
            for name in _DEFAULTS
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


# ----------------------------------------------------------------------------------
# The model file: versioned JSON of counts and sums
#
# Counts and sums, not probabilities, so that parameters can change after loading and
# models can be merged and updated.  Labels, values and names are written as JSON
# scalars, never as object keys (which JSON turns into strings), so 1, "1", 1.0 and
# True come back as what they were; a tuple is {"tuple": [...]} and an infinite float
# {"float": "inf"}.  Counts and sums are exact: an int, or a fraction "p/q".
# ----------------------------------------------------------------------------------

FORMAT = "naive_bayes"
FORMAT_VERSION = 1
_PARAM_NUMBERS = ("alpha", "prior_alpha", "ddof", "var_smoothing", "max_words",
                  "min_word_count")


def _encode(value, what, call="to_dict()"):
    """A label, value or name as JSON data."""
    if value is None or value is True or value is False:
        return value
    kind = type(value)
    if kind is int and value.bit_length() > 13000:      # JSON text would refuse it
        raise NaiveBayesError("%s: %s is an int of more than 3,900 digits, too long for "
                              "the model file" % (call, what))
    if kind is str or kind is int:
        return value
    if kind.__module__ == "numpy" and hasattr(value, "item"):
        return _encode(value.item(), what, call)        # NumPy scalars: Python's
    if kind is float:
        return value if isfinite(value) else {"float": repr(value)}
    if kind is tuple:
        return {"tuple": [_encode(v, what, call) for v in value]}
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    from numbers import Real
    if isinstance(value, int) or (isinstance(value, Real) and
                                  getattr(value, "is_integer", None) is None and
                                  hasattr(value, "__index__")):
        return int(value)
    if isinstance(value, Real):
        return _encode(float(value), what, call)
    raise NaiveBayesError("%s: %s is %s; the model file holds str, int, float, bool, None "
                          "and tuples of them" % (call, what, _describe(value)))


def _exact_text(number):
    """An exact count or sum as JSON: an int, or "p/q"."""
    if type(number) is int:
        return number
    if number.denominator == 1:
        return number.numerator
    return "%d/%d" % (number.numerator, number.denominator)


def _model_to_dict(model):
    params = model.get_params()
    encoded = {}
    for name in _DEFAULTS:
        value = params[name]
        if name in _PARAM_NUMBERS:
            encoded[name] = value if value is None or type(value) is int else float(value)
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
        else:
            encoded[name] = value
    data = {"format": FORMAT, "format_version": FORMAT_VERSION,
            "model": _model_name(type(model)), "params": encoded,
            "target": model._target, "rows": None, "classes": [], "class_count": [],
            "features": []}
    counts = model._counts
    if counts is None:
        return data
    data["rows"] = counts.layout
    classes = counts.classes()
    data["classes"] = [_encode(c, "a class label") for c in classes]
    data["class_count"] = [_exact_text(counts.class_count[c]) for c in classes]
    for name, stats in counts.features.items():
        feature = {"name": _encode(name, "a feature name"), "kind": stats.kind}
        if isinstance(stats, _Categorical):
            values = stats.values()
            what = "a value of feature %r" % (name,)
            if stats.declared:
                feature["declared"] = [_encode(v, what) for v in stats.declared]
            feature["values"] = [_encode(v, what) for v in values]
            feature["counts"] = [[_exact_text(stats.counts.get(c, {}).get(v, 0))
                                  for v in values] for c in classes]
        elif isinstance(stats, _Gaussian):
            feature["sums"] = [[_exact_text(x) for x in stats.exact(c) or (0, 0, 0)]
                               for c in classes]
        elif isinstance(stats, _Text):
            words = sorted(set().union(*stats.terms.values()) if stats.terms else ())
            index = {word: i for i, word in enumerate(words)}
            feature["words"] = words
            feature["documents"] = [_exact_text(stats.present.get(c, 0)) for c in classes]
            for field, counts in (("word_documents", stats.documents),
                                  ("word_counts", stats.terms)):
                feature[field] = [[[index[w], _exact_text(n)]
                                   for w, n in sorted(counts.get(c, {}).items())]
                                  for c in classes]
        data["features"].append(feature)
    return data


def _encode_by_name(value, encode, what):
    """features= and categories=: a list by position, or {"by_name": [[name, x]]}."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {"by_name": [[_encode(name, "a %s name" % what), encode(x)]
                            for name, x in value.items()]}
    return [encode(x) for x in value]


def _model_name(cls):
    for known in cls.__mro__:
        if known.__name__ in ("NaiveBayes", "CategoricalNB", "GaussianNB") and \
                known.__module__ == __name__:
            return known.__name__
    return "NaiveBayes"


def _json_text(data):
    """JSON text of a model: one top-level field per line, one feature per line."""
    import json

    def dump(value):
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    lines = ["{"]
    fields = [key for key in data if key != "features"]
    for key in fields:
        lines.append(" %s: %s," % (dump(key), dump(data[key])))
    features = [dump(feature) for feature in data.get("features", [])]
    lines.append(' "features": [' + ("" if features else "]"))
    for i, feature in enumerate(features):
        lines.append("  " + feature + ("," if i < len(features) - 1 else ""))
    if features:
        lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _write_atomically(path, text, call):
    """Write text to path through a temporary file in the same folder and a rename."""
    import os
    import tempfile
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(
            prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    except OSError as error:
        raise NaiveBayesError("%s: cannot write %s: %s"
                              % (call, path, error.strerror or error)) from error
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise NaiveBayesError("%s: cannot write %s: %s"
                                  % (call, path, error.strerror or error)) from error
        raise


def _umask():
    """The process umask (read by setting it and setting it back)."""
    import os
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _read_json(path, call):
    """Parse a JSON file, turning every failure into one NaiveBayesError."""
    import json
    try:
        with open(path, encoding="utf-8-sig") as stream:
            text = stream.read()
    except OSError as error:
        raise NaiveBayesError("%s: cannot read the file: %s"
                              % (call, error.strerror or error)) from error
    except UnicodeDecodeError as error:
        raise NaiveBayesError("%s: not UTF-8 text (%s)" % (call, error.reason)) from error
    if not text.strip():
        raise NaiveBayesError("%s: the file is empty; expected a model file" % call)

    def no_constants(name):
        raise ValueError("%s is not allowed" % name)
    try:
        return json.loads(text, parse_constant=no_constants)
    except RecursionError:
        raise NaiveBayesError("%s: not a model file: nested too deeply" % call) from None
    except ValueError as error:
        raise NaiveBayesError("%s: not a model file: invalid JSON (%s)" % (call, error)) \
            from None


class _Invalid(Exception):
    """A model-file field that does not validate: (where, what is wrong)."""


def _model_from_dict(cls, data, call):
    try:
        return _build_model(cls, data)
    except _Invalid as error:
        raise NaiveBayesError("%s: %s" % (call, error)) from None
    except RecursionError:
        raise NaiveBayesError("%s: nested too deeply to be a model file" % call) from None


def _field(data, key, where="the model"):
    if key not in data:
        raise _Invalid("%s has no %r field" % (where, key))
    return data[key]


def _expect(condition, where, value, expected):
    if not condition:
        raise _Invalid("%s is %s; expected %s" % (where, _describe(value), expected))


_FIELDS = ("format", "format_version", "model", "params", "target", "rows", "classes",
           "class_count", "features")
_FEATURE_FIELDS = {"categorical": {"name", "kind", "declared", "values", "counts"},
                   None: {"name", "kind", "declared", "values", "counts"},
                   "gaussian": {"name", "kind", "sums"}, "ignore": {"name", "kind"},
                   "text": {"name", "kind", "words", "documents", "word_documents",
                            "word_counts"}}


def _build_model(cls, data):
    _expect(type(data) is dict, "the model", data, "a JSON object")
    for key in data:
        if key not in _FIELDS:
            raise _Invalid("the model has an unknown field %r; expected only %s"
                           % (key, ", ".join(_FIELDS)))
    _expect(_field(data, "format") == FORMAT, "format", data["format"], repr(FORMAT))
    version = _field(data, "format_version")
    _expect(type(version) is int and version >= 1, "format_version", version,
            "a positive integer")
    if version > FORMAT_VERSION:
        raise _Invalid("format_version is %d, written by a newer naive_bayes.py; this one "
                       "reads format_version %d" % (version, FORMAT_VERSION))
    name = _field(data, "model")
    stored = {"NaiveBayes": NaiveBayes, "CategoricalNB": CategoricalNB,
              "GaussianNB": GaussianNB}.get(name) if type(name) is str else None
    _expect(stored is not None, "model", name, '"NaiveBayes", "CategoricalNB" or "GaussianNB"')
    if issubclass(stored, cls):
        target_class = stored             # NaiveBayes.load gives what was saved
    elif issubclass(cls, stored) and cls.__module__ != __name__:
        target_class = cls                # a user's subclass of the stored class
    else:
        raise _Invalid("the file holds a %s, not a %s" % (name, cls.__name__))
    params = _decode_params(_field(data, "params"))
    try:
        model = target_class(**params)
    except NaiveBayesError as error:
        raise _Invalid("params: %s" % str(error).split(": ", 1)[-1]) from None
    target = _field(data, "target")
    _expect(target is None or type(target) is str, "target", target, "a string or null")
    model._target = target
    classes = _decode_list(_field(data, "classes"), "classes")
    class_count = _field(data, "class_count")
    features = _field(data, "features")
    _expect(type(class_count) is list and len(class_count) == len(classes), "class_count",
            class_count, "a list of %d counts, one per class" % len(classes))
    _expect(type(features) is list, "features", features, "a list")
    if not classes:
        _expect(not features, "features", features, "an empty list for a model with no classes")
        return model
    counts = _Counts()
    counts.layout = _field(data, "rows")
    _expect(counts.layout in (None, "sequence", "mapping"), "rows", counts.layout,
            '"sequence", "mapping" or null')
    for i, label in enumerate(classes):
        _expect(_hashable(label) and not _is_missing(label), "classes[%d]" % i, label,
                "a label")
        if label in counts.class_count:
            raise _Invalid("classes[%d] is %r again; expected distinct labels" % (i, label))
        count = _decode_exact(class_count[i], "class_count[%d]" % i)
        _expect(count > 0, "class_count[%d]" % i, class_count[i], "a positive count")
        counts.class_count[label] = count
    for j, feature in enumerate(features):
        where = "features[%d]" % j
        _expect(type(feature) is dict, where, feature, "a JSON object")
        name = _decode(_field(feature, "name", where), where + ".name")
        _expect(_hashable(name) and name is not None, where + ".name", name,
                "a hashable feature name")
        if name in counts.features:
            raise _Invalid("%s.name is %r again; expected distinct names" % (where, name))
        counts.features[name] = _decode_feature(feature, where, classes, counts.class_count)
    _check_class_prior_file(model.class_prior, counts)
    _check_kinds_file(model, counts)
    model._counts = counts
    return model


def _check_kinds_file(model, counts):
    """The stored kinds must be what the model class and params would have made."""
    fixed = model._default_kind
    declared = _declared_kinds(model.get_params(), "params")
    categories = _declared_categories(model.get_params(), "params")
    for name, stats in counts.features.items():
        if stats.kind is None:
            continue
        if name in declared and declared[name] != stats.kind:
            raise _Invalid("params.features declares %r %s, but the file holds it as %s"
                           % (name, declared[name], stats.kind))
        if fixed and name not in declared and stats.kind != fixed:
            raise _Invalid("feature %r is %s, but a %s holds only %s features"
                           % (name, stats.kind, type(model).__name__, fixed))
        if name in categories and list(dict.fromkeys(categories[name])) != \
                list(getattr(stats, "declared", ())):
            raise _Invalid("params.categories for %r differs from the feature's declared "
                           "values" % (name,))


def _check_class_prior_file(prior, counts):
    try:
        _check_class_prior(prior, counts.class_count, "params")
    except NaiveBayesError as error:
        raise _Invalid(str(error)) from None


def _decode_feature(feature, where, classes, class_count):
    kind = _field(feature, "kind", where)
    _expect(kind is None or kind in KINDS, where + ".kind", kind,
            "one of %s or null" % ", ".join(map(repr, KINDS)))
    extra = set(feature) - _FEATURE_FIELDS[kind]
    if extra:
        raise _Invalid("%s has field %r, which a %s feature does not have"
                       % (where, sorted(extra)[0], kind or "pending"))
    if kind in (None, "categorical"):
        declared = _decode_list(feature.get("declared", []), where + ".declared")
        values = _decode_list(_field(feature, "values", where), where + ".values")
        stats = _Categorical(declared) if kind else _Pending(declared)
        for i, value in enumerate(chain(declared, values)):
            _expect(_hashable(value) and not _is_missing(value), where + ".values", value,
                    "hashable, non-missing values")
        stats.known.update(dict.fromkeys(values))
        if len(stats.known) != len(set(declared) | set(values)) or \
                len(dict.fromkeys(values)) != len(values) or \
                len(dict.fromkeys(declared)) != len(declared):
            raise _Invalid("%s repeats a value; expected distinct values" % where)
        if kind is None and (values or declared):
            raise _Invalid("%s has values but no kind; expected \"categorical\"" % where)
        table = _field(feature, "counts", where)
        _expect(type(table) is list and len(table) == len(classes), where + ".counts",
                table, "one list of counts per class (%d)" % len(classes))
        for k, (label, row) in enumerate(zip(classes, table)):
            here = "%s.counts[%d]" % (where, k)
            _expect(type(row) is list and len(row) == len(values), here, row,
                    "one count per value (%d)" % len(values))
            counted = {}
            for value, text in zip(values, row):
                count = _decode_exact(text, here)
                if count:
                    counted[value] = count
            if sum(counted.values()) > class_count[label]:
                raise _Invalid("%s adds up to more than class_count for %r; expected at "
                               "most %s" % (here, label, class_count[label]))
            if counted:
                stats.counts[label] = counted
        if declared:
            for value in values:
                if value not in stats.declared:
                    raise _Invalid("%s.values holds %r, not among the declared categories"
                                   % (where, value))
        return stats
    if kind == "gaussian":
        stats = _Gaussian()
        sums = _field(feature, "sums", where)
        _expect(type(sums) is list and len(sums) == len(classes), where + ".sums", sums,
                "one [n, sum, sum of squares] per class (%d)" % len(classes))
        for k, (label, triple) in enumerate(zip(classes, sums)):
            here = "%s.sums[%d]" % (where, k)
            _expect(type(triple) is list and len(triple) == 3, here, triple,
                    "[n, sum, sum of squares]")
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
            if abs(s1) > abs(n) * _FLOAT_MAX:
                raise _Invalid("%s: the mean is beyond the float range" % here)
            for x in (s1, s2):
                if type(x) is not int and x.denominator & (x.denominator - 1):
                    raise _Invalid("%s holds %s; expected sums of floats, whose "
                                   "denominators are powers of 2" % (here, _exact_text(x)))
            stats.sums[label] = [n, _dyadic(s1), _dyadic(s2)]
        return stats
    if kind == "text":
        return _decode_text(feature, where, classes, class_count)
    return _Ignored()


def _decode_text(feature, where, classes, class_count):
    words = _field(feature, "words", where)
    _expect(type(words) is list and set(map(type, words)) <= _STR, where + ".words", words,
            "a list of strings")
    if len(set(words)) != len(words):
        raise _Invalid("%s.words repeats a word; expected distinct words" % where)
    documents = _field(feature, "documents", where)
    _expect(type(documents) is list and len(documents) == len(classes), where + ".documents",
            documents, "one count per class (%d)" % len(classes))
    stats = _Text()
    for k, label in enumerate(classes):
        present = _decode_exact(documents[k], "%s.documents[%d]" % (where, k))
        if present > class_count[label]:
            raise _Invalid("%s.documents[%d] is more than class_count for %r"
                           % (where, k, label))
        per_field = []
        for field in ("word_documents", "word_counts"):
            table = _field(feature, field, where)
            _expect(type(table) is list and len(table) == len(classes), where + "." + field,
                    table, "one list per class (%d)" % len(classes))
            here = "%s.%s[%d]" % (where, field, k)
            _expect(type(table[k]) is list, here, table[k], "a list of [word index, count]")
            counts = {}
            for pair in table[k]:
                _expect(type(pair) is list and len(pair) == 2 and type(pair[0]) is int and
                        0 <= pair[0] < len(words), here, pair,
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
            if n > present or n > word_counts.get(word, 0):
                raise _Invalid("%s: word %r is in more documents than there are, or than "
                               "it occurs" % (where, word))
        if present or word_counts:
            stats.present[label] = present
            stats.documents[label] = word_documents
            stats.terms[label] = word_counts
    return stats


def _decode(obj, where):
    """A label, value or name from JSON data (see _encode)."""
    if obj is None or obj is True or obj is False:
        return obj
    kind = type(obj)
    if kind is str or kind is int:
        return obj
    if kind is float and isfinite(obj):
        return obj
    if kind is dict and len(obj) == 1:
        if type(obj.get("tuple")) is list:
            return tuple([_decode(v, where) for v in obj["tuple"]])
        if obj.get("float") in ("inf", "-inf"):
            return float(obj["float"])
    raise _Invalid("%s is %s; expected a string, number, true, false, null or "
                   "{\"tuple\": [...]}" % (where, _describe(obj)))


def _decode_list(obj, where):
    _expect(type(obj) is list, where, obj, "a list")
    return [_decode(item, "%s[%d]" % (where, i)) for i, item in enumerate(obj)]


def _decode_exact(obj, where, signed=False):
    """An exact count or sum: an int, a finite float, or "p/q"."""
    from fractions import Fraction
    kind = type(obj)
    if kind is int:
        number = obj
    elif kind is float and isfinite(obj):
        number = _ratio(*obj.as_integer_ratio())
    elif kind is str and _is_fraction_text(obj):
        numerator, denominator = obj.split("/")
        try:
            number = _ratio(int(numerator), int(denominator))
        except (ValueError, ZeroDivisionError):
            raise _Invalid("%s is %r; expected an int or a fraction \"p/q\" with q > 0"
                           % (where, obj)) from None
    else:
        raise _Invalid("%s is %s; expected an exact count (an int or \"p/q\")"
                       % (where, _describe(obj)))
    if not signed and number < 0:
        raise _Invalid("%s is %s; expected a count >= 0" % (where, obj))
    return number if type(number) is int else Fraction(number)


def _is_fraction_text(text):
    numerator, slash, denominator = text.partition("/")
    return (slash == "/" and denominator.isdigit() and denominator.isascii() and
            (numerator[1:] if numerator[:1] == "-" else numerator).isdigit() and
            numerator.lstrip("-").isascii())


def _decode_params(params):
    _expect(type(params) is dict, "params", params, "a JSON object")
    unknown = [name for name in params if name not in _DEFAULTS]
    if unknown:
        raise _Invalid("params has unknown field %r; expected only %s"
                       % (unknown[0], ", ".join(_DEFAULTS)))
    absent = [name for name in _DEFAULTS if name not in params]
    if absent:
        raise _Invalid("params has no %r field" % absent[0])
    decoded = {}
    for name, value in params.items():
        where = "params." + name
        if name in _PARAM_NUMBERS:
            _expect(value is None or (type(value) in (int, float)), where, value, "a number")
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
            value = None if value is None else _LOST
        decoded[name] = value
    return decoded


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
# The command line: CSV in, model files and reports out
#
# It only translates: argparse -> library calls -> printing.  Files are streamed; a
# model file is written only after a successful fit, and atomically.
# ----------------------------------------------------------------------------------

_SAMPLE_ROWS = 10000      # rows read to decide which columns are numeric
_BATCH_ROWS = 2000        # rows per partial_fit call: bounds the memory of a fit


class _Usage(Exception):
    """A command-line mistake: exit status 2."""


class _CsvSource:
    """The rows of one CSV file, read once, with line numbers and missing values."""

    def __init__(self, path, delimiter=",", missing=("?",), training=False):
        import csv
        self.path = path
        self.training = training          # fit and cv: hints name --categorical
        self.missing = frozenset(missing) | {""}
        try:
            self.stream = (open(sys.stdin.fileno(), encoding="utf-8-sig", newline="",
                                closefd=False) if path == "-" else
                           open(path, encoding="utf-8-sig", newline=""))
        except OSError as error:
            raise NaiveBayesError("cannot read %s: %s"
                                  % (path, error.strerror or error)) from None
        try:
            self.reader = csv.reader(self.stream, delimiter=delimiter, strict=True)
        except TypeError as error:
            raise _Usage("--delimiter %r: %s" % (delimiter, error)) from None
        header = self._next()
        if header is None:
            raise NaiveBayesError("%s is empty; expected a header row" % path)
        if len(set(header)) != len(header):
            repeated = next(name for name in header if header.count(name) > 1)
            raise NaiveBayesError("%s line 1: column %r appears twice; expected distinct "
                                  "column names" % (path, repeated))
        self.header = header

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
            except UnicodeDecodeError:
                raise NaiveBayesError("%s line %s: not UTF-8 text"
                                      % (self.path, self._bad_utf8_line())) from None
            if cells:                     # a blank line is not a row
                return cells

    def _bad_utf8_line(self):
        """The first line of the file that is not UTF-8 (read again, bytes only)."""
        if self.path == "-":
            return "?"
        with open(self.path, "rb") as raw:
            for number, line in enumerate(raw, 1):
                try:
                    line.decode("utf-8")
                except UnicodeDecodeError:
                    return number
        return "?"

    def rows(self):
        """(line number, cells) for every data row; ragged rows are errors."""
        width = len(self.header)
        while True:
            cells = self._next()
            if cells is None:
                return
            if len(cells) != width:
                raise NaiveBayesError("%s line %d: %d cells, expected %d as in the header"
                                      % (self.path, self.start, len(cells), width))
            yield self.start, cells

    def column(self, name, option):
        """Index of a column named on the command line."""
        try:
            return self.header.index(name)
        except ValueError:
            raise _Usage("%s: no column %r in %s; the columns are %s"
                         % (option, name, self.path, ", ".join(self.header))) from None

    def close(self):
        if self.path != "-":
            self.stream.close()


def _number_or_none(cell):
    """A CSV cell as a float (nan and inf included), or None when it is not one."""
    try:
        return float(cell)
    except ValueError:
        return None


class _Progress:
    """Rows done and rows per second on stderr, for work longer than a second, and
    only on a terminal (never when stderr is piped or redirected)."""

    def __init__(self, what):
        import time
        self.clock = time.monotonic
        self.start = self.next = self.clock() + 1.0
        self.what = what
        self.shown = False
        self.active = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()

    def update(self, rows):
        if not self.active:
            return
        now = self.clock()
        if now >= self.next:
            rate = rows / max(now - self.start + 1.0, 1e-9)
            sys.stderr.write("\r%s: %s rows, %s rows/s " % (self.what, format(rows, ","),
                                                             format(int(rate), ",")))
            sys.stderr.flush()
            self.shown = True
            self.next = now + 0.25

    def done(self):
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _columns(option):
    """Column names from a comma-separated option value (or several uses of it)."""
    names = []
    for value in option or ():
        names.extend(name.strip() for name in value.split(",") if name.strip())
    return names


def _column_kinds(source, args, sample):
    """{column: kind} for every column but the target: the --categorical, --gaussian
    and --ignore options first; then Gaussian when every non-missing cell of the
    sample parses as a number, else categorical."""
    declared = {}
    for option, kind in (("--categorical", "categorical"), ("--gaussian", "gaussian"),
                         ("--text", "text"), ("--ignore", "ignore")):
        for name in _columns(getattr(args, option[2:])):
            source.column(name, option)
            if name == args.target:
                raise _Usage("%s %s: that is the target column" % (option, name))
            if declared.get(name, kind) != kind:
                raise _Usage("%s %s: the column is also declared %s"
                             % (option, name, declared[name]))
            declared[name] = kind
    kinds = {}
    for index, name in enumerate(source.header):
        if name == args.target:
            continue
        if name in declared:
            kinds[name] = declared[name]
            continue
        cells = [cells[index] for _, cells in sample if cells[index] not in source.missing]
        numeric = bool(cells) and all(_number_or_none(cell) is not None for cell in cells)
        kinds[name] = "gaussian" if numeric else "categorical"
    return kinds


def _converters(source, names, kinds, indexes):
    """One function per feature turning a cell (or an absent column) into a value."""
    missing = source.missing
    converters = []
    for name, index in zip(names, indexes):
        kind = kinds[name]
        if index is None or kind == "ignore":
            converters.append(None)
        elif kind == "gaussian":
            converters.append(_gaussian_cell(source, name, missing))
        else:
            converters.append(lambda cell, missing=missing: None if cell in missing else cell)
    return converters


def _gaussian_cell(source, name, missing):
    def convert(cell):
        if cell in missing:
            return None
        number = _number_or_none(cell)
        if number is None:
            raise _BadValue(cell, "a number")
        if not isfinite(number):
            if number != number:          # nan: a missing value, as in the library
                return None
            raise _BadValue(cell, "a finite number")
        return number
    convert.column = name
    return convert


def _feature_rows(source, rows, converters, indexes, target_index, labels, line_numbers):
    """Convert (line, cells) rows to feature lists, appending labels and line numbers."""
    out = []
    pairs = list(zip(converters, indexes))
    for line, cells in rows:
        row = []
        for convert, index in pairs:
            if convert is None:
                row.append(None)
                continue
            try:
                row.append(convert(cells[index]))
            except _BadValue as error:
                fix = ("use --categorical %s, or --missing %s if it marks a missing value"
                       % (_quote(convert.column), _quote(error.value)) if source.training
                       else "the model treats the column as Gaussian (use --missing %s "
                       "if it marks a missing value)" % _quote(error.value))
                raise NaiveBayesError("%s line %d, column %r: %r is not %s; %s"
                                      % (source.path, line, convert.column, error.value,
                                         error.expected, fix)) from None
        if target_index is not None:
            label = cells[target_index]
            if label in source.missing:
                raise NaiveBayesError("%s line %d: the target %r is missing; expected a "
                                      "label" % (source.path, line,
                                                 source.header[target_index]))
            labels.append(label)
        line_numbers.append(line)
        out.append(row)
    return out


def _batches(iterable, size):
    iterator = iter(iterable)
    while True:
        batch = list(islice(iterator, size))
        if not batch:
            return
        yield batch


def _model_params(args):
    """The model parameters from the options; a bad value is a usage error."""
    params = {"alpha": args.alpha, "prior_alpha": args.prior_alpha, "ddof": args.ddof,
              "var_smoothing": args.var_smoothing}
    for name, value in params.items():
        if not (isfinite(value) and value >= 0):
            raise _Usage("--%s %s: expected a finite number >= 0"
                         % (name.replace("_", "-"), value))
    if args.max_words is not None and args.max_words < 1:
        raise _Usage("--max-words %d: expected a number >= 1" % args.max_words)
    params.update(text_model=args.text_model, max_words=args.max_words)
    return params


def _open_training_data(args):
    """(source, sample rows, kinds, feature names, indexes, target index)."""
    source = _CsvSource(args.data, args.delimiter, args.missing or ("?",), training=True)
    target_index = source.column(args.target, "--target")
    rows = source.rows()
    sample = list(islice(rows, _SAMPLE_ROWS))
    if not sample:
        raise NaiveBayesError("%s has a header but no rows; expected data below it"
                              % source.path)
    kinds = _column_kinds(source, args, sample)
    names = list(kinds)
    indexes = [source.column(name, "") for name in names]
    return source, chain(sample, rows), kinds, names, indexes, target_index


def _fit_csv(args, model, source, rows, kinds, names, indexes, target_index):
    """Stream the rows into model.partial_fit; returns the number of rows."""
    converters = _converters(source, names, kinds, indexes)
    progress = _Progress("fit")
    done = 0
    for batch in _batches(rows, _BATCH_ROWS):
        labels, lines = [], []
        X = _feature_rows(source, batch, converters, indexes, target_index, labels, lines)
        model.partial_fit(X, labels)
        done += len(X)
        progress.update(done)
    progress.done()
    return done


def _cmd_fit(args):
    source, rows, kinds, names, indexes, target_index = _open_training_data(args)
    model = NaiveBayes(features=kinds, **_model_params(args))
    try:
        n_rows = _fit_csv(args, model, source, rows, kinds, names, indexes, target_index)
    finally:
        source.close()
    model._target = args.target
    model.save(args.output)
    out = sys.stdout
    out.write("fit %s: %s rows, target %r\n" % (source.path, format(n_rows, ","),
                                                args.target))
    out.write(_describe_model(model))
    if len(model.classes_) == 1:
        sys.stderr.write("naive_bayes fit: warning: the target has one class (%r); every "
                         "prediction will be %r\n" % (model.classes_[0], model.classes_[0]))
    out.write("wrote %s\n" % args.output)
    return 0


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


def _describe_model(model):
    """Classes with counts, then each feature with its kind and what it holds."""
    from fractions import Fraction
    lines = []
    counts = model._counts
    classes = counts.classes()
    width = max(_width(c) for c in classes)
    lines.append("classes (%d):" % len(classes))
    for label, count in zip(classes, model.class_count_):
        lines.append("  %s %s" % (_left(label, width), format(count, ",")))
    lines.append("features (%d):" % len(counts.features))
    width = max([_width(name) for name in counts.features] + [1])
    for name, stats in counts.features.items():
        kind = stats.kind or "gaussian"
        if isinstance(stats, _Categorical):
            values = stats.values()
            shown = ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")
            detail = "%d values: %s" % (len(values), shown) if values else "no values"
        elif isinstance(stats, _Gaussian):
            n, s1, s2 = stats.pooled()
            detail = ("mean %.6g, standard deviation %.6g"
                      % (_float(Fraction(s1) / n), math.sqrt(_float(stats.pooled_variance())))
                      if n else "no values")
        elif isinstance(stats, _Text):
            documents = sum(stats.present.values())
            detail = "%s documents, %s words in the vocabulary (%s)" % (
                format(_plain(documents), ","),
                format(len(stats.vocabulary(model.get_params())), ","), model.text_model)
        else:
            detail = "not used"
        lines.append("  %s %-11s %s" % (_left(name, width), kind, detail))
    return "\n".join(lines) + "\n"


def _prediction_rows(model, source):
    """(names, indexes, converters) to turn a CSV's rows into the model's rows."""
    names = model.feature_names_
    kinds = model.feature_kinds_
    header = {name: i for i, name in enumerate(source.header)}
    indexes = [header.get(str(name)) for name in names]
    absent = [str(name) for name, index in zip(names, indexes)
              if index is None and kinds[name] != "ignore"]
    if names and len(absent) == len(names):
        raise NaiveBayesError("%s has none of the model's columns (%s)"
                              % (source.path, ", ".join(map(str, names))))
    if absent:
        sys.stderr.write("naive_bayes: warning: %s has no column %s; its values count as "
                         "missing\n" % (source.path, ", ".join(map(repr, absent))))
    return names, indexes, _converters(source, names, kinds, indexes)


def _cmd_predict(args):
    import csv
    model = NaiveBayes.load(args.model)
    source = _CsvSource(args.data, args.delimiter, args.missing or ("?",))
    names, indexes, converters = _prediction_rows(model, source)
    classes = model.classes_
    target = model._target or "prediction"
    output = _Output(args.output)
    try:
        writer = csv.writer(output.stream, lineterminator="\n")
        writer.writerow([target] + ([str(c) for c in classes] if args.proba else []))
        progress = _Progress("predict")
        done = 0
        for batch in _batches(source.rows(), 1000):
            X = _feature_rows(source, batch, converters, indexes, None, [], [])
            try:
                probabilities = model.predict_proba(X)
            except NaiveBayesError as error:
                raise _at_line(error, source, batch) from None
            for p in probabilities:
                best = classes[p.index(max(p))]
                writer.writerow([best] + (p if args.proba else []))
            done += len(X)
            progress.update(done)
        progress.done()
        output.commit()
    finally:
        output.close()
        source.close()
    return 0


def _at_line(error, source, batch):
    """A library error about "X row i" of a batch, restated as a file and line."""
    text = str(error)
    marker = "X row "
    if marker in text:
        rest = text.split(marker, 1)[1]
        number = rest.split(" ", 1)[0]
        if number.isdigit() and int(number) < len(batch):
            return NaiveBayesError("%s line %d%s" % (source.path, batch[int(number)][0],
                                                     rest[len(number):]))
    return NaiveBayesError("%s: %s" % (source.path, text))


class _Output:
    """stdout, or a file written through a temporary file and renamed on success."""

    def __init__(self, path):
        self.path = path
        self.temporary = None
        if path in (None, "-"):
            self.stream = sys.stdout
            return
        import os
        import tempfile
        folder = os.path.dirname(os.path.abspath(path))
        try:
            handle, self.temporary = tempfile.mkstemp(
                prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
        except OSError as error:
            raise NaiveBayesError("cannot write %s: %s"
                                  % (path, error.strerror or error)) from None
        self.stream = os.fdopen(handle, "w", encoding="utf-8", newline="")

    def commit(self):
        import os
        if self.temporary:
            self.stream.close()
            os.chmod(self.temporary, 0o666 & ~_umask())
            os.replace(self.temporary, self.path)
            self.temporary = None
        else:
            self.stream.flush()

    def close(self):
        import os
        if self.temporary:
            self.stream.close()
            try:
                os.unlink(self.temporary)
            except OSError:
                pass


class _Tally:
    """Accumulates predictions against the truth for evaluate and cv."""

    def __init__(self, classes):
        self.classes = [str(c) for c in classes]
        self.confusion = {}          # (true, predicted) -> count
        self.truths = Counter()
        self.log_loss = 0.0
        self.rows = 0

    def add(self, truth, probabilities):
        predicted = self.classes[probabilities.index(max(probabilities))]
        self.confusion[truth, predicted] = self.confusion.get((truth, predicted), 0) + 1
        self.truths[truth] += 1
        try:
            p = probabilities[self.classes.index(truth)]
        except ValueError:
            p = 0.0                  # a label the model never saw
        self.log_loss -= log(min(max(p, 1e-15), 1.0))
        self.rows += 1

    def report(self):
        """The report as plain data (what --json prints)."""
        # the labels that occur in the truth or the predictions, as scikit-learn's
        # precision_recall_fscore_support and confusion_matrix use them
        predicted = {p for _, p in self.confusion}
        labels = [c for c in self.classes if c in self.truths or c in predicted] + \
            [t for t in self.truths if t not in self.classes]
        per_class = {}
        for label in labels:
            tp = self.confusion.get((label, label), 0)
            predicted = sum(n for (_, p), n in self.confusion.items() if p == label)
            support = self.truths.get(label, 0)
            precision = tp / predicted if predicted else 0.0
            recall = tp / support if support else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            per_class[label] = {"precision": precision, "recall": recall, "f1": f1,
                                "support": support}
        total = sum(self.truths.values())
        averages = {}
        for name, weight in (("macro avg", lambda s: 1.0 / len(labels)),
                             ("weighted avg", lambda s: s / total if total else 0.0)):
            averages[name] = {metric: sum(weight(c["support"]) * c[metric]
                                          for c in per_class.values())
                              for metric in ("precision", "recall", "f1")}
            averages[name]["support"] = total
        correct = sum(self.confusion.get((label, label), 0) for label in labels)
        return {"rows": self.rows, "accuracy": correct / self.rows if self.rows else 0.0,
                "log_loss": self.log_loss / self.rows if self.rows else 0.0,
                "classes": per_class, "averages": averages, "labels": labels,
                "confusion_matrix": [[self.confusion.get((t, p), 0) for p in labels]
                                     for t in labels]}


def _report_text(report):
    """The report as aligned text tables."""
    labels = report["labels"]
    width = max([_width(label) for label in labels] + [len("weighted avg")])
    lines = ["rows      %s" % format(report["rows"], ","),
             "accuracy  %.4f" % report["accuracy"],
             "log loss  %.4f" % report["log_loss"], ""]
    lines.append("%s  precision  recall  f1-score  support" % _left("", width))
    rows = list(report["classes"].items()) + list(report["averages"].items())
    for i, (label, metrics) in enumerate(rows):
        if i == len(report["classes"]):
            lines.append("")
        lines.append("%s  %9.4f  %6.4f  %8.4f  %7d"
                     % (_left(label, width), metrics["precision"], metrics["recall"],
                        metrics["f1"], metrics["support"]))
    lines.append("")
    lines.append("confusion matrix (rows: true class, columns: predicted)")
    cell = max([_width(label) for label in labels] +
               [len(str(n)) for row in report["confusion_matrix"] for n in row])
    lines.append(_left("", width) + "  " + "  ".join(_right(label, cell) for label in labels))
    for label, row in zip(labels, report["confusion_matrix"]):
        lines.append(_left(label, width) + "  " + "  ".join(_right(n, cell) for n in row))
    return "\n".join(lines) + "\n"


def _print_report(report, as_json):
    if as_json:
        import json
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(_report_text(report))


def _cmd_evaluate(args):
    model = NaiveBayes.load(args.model)
    source = _CsvSource(args.data, args.delimiter, args.missing or ("?",))
    target = args.target or model._target
    if target is None:
        raise _Usage("--target is required: the model file does not name its target")
    target_index = source.column(target, "--target")
    names, indexes, converters = _prediction_rows(model, source)
    tally = _Tally(model.classes_)
    progress = _Progress("evaluate")
    try:
        for batch in _batches(source.rows(), 1000):
            labels = []
            X = _feature_rows(source, batch, converters, indexes, target_index, labels, [])
            try:
                probabilities = model.predict_proba(X)
            except NaiveBayesError as error:
                raise _at_line(error, source, batch) from None
            for label, p in zip(labels, probabilities):
                tally.add(label, p)
            progress.update(tally.rows)
        progress.done()
    finally:
        source.close()
    if not tally.rows:
        raise NaiveBayesError("%s has a header but no rows; expected data below it"
                              % source.path)
    _print_report(tally.report(), args.json)
    return 0


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
    for label in sorted(by_class):
        members = by_class[label]
        rng.shuffle(members)
        for i in members:
            assignment[i] = position % folds
            position += 1
    return assignment


def _cmd_cv(args):
    if args.folds < 2:
        raise _Usage("--folds %d: expected at least 2 folds" % args.folds)
    source, rows, kinds, names, indexes, target_index = _open_training_data(args)
    converters = _converters(source, names, kinds, indexes)
    labels, lines = [], []
    try:
        X = _feature_rows(source, rows, converters, indexes, target_index, labels, lines)
    finally:
        source.close()
    if len(X) < args.folds:
        raise _Usage("--folds %d: %s has only %d rows" % (args.folds, source.path, len(X)))
    fold_of = _stratified_folds(labels, args.folds, args.seed)
    params = dict(_model_params(args), features=kinds)
    # One model per fold, then each training set is the merge of the other folds'
    # models: exact, and cheaper than refitting (k-1)/k of the data k times.
    parts = []
    for fold in range(args.folds):
        members = [i for i, f in enumerate(fold_of) if f == fold]
        part = NaiveBayes(**params)
        if members:
            part.fit([X[i] for i in members], [labels[i] for i in members])
        parts.append((members, part))
    tally = None
    fold_accuracy = []
    classes = sorted(set(labels))
    tally = _Tally(classes)
    for fold, (members, _) in enumerate(parts):
        training = NaiveBayes(**params)
        for other, (_, part) in enumerate(parts):
            if other != fold and part._counts is not None:
                training = training.merge(part)
        try:
            probabilities = training.predict_proba([X[i] for i in members])
        except NaiveBayesError as error:
            raise NaiveBayesError("%s: %s" % (source.path, error)) from None
        order = [str(c) for c in training.classes_]
        hits = 0
        for i, p in zip(members, probabilities):
            full = [p[order.index(c)] if c in order else 0.0 for c in tally.classes]
            tally.add(labels[i], full)
            hits += order[p.index(max(p))] == labels[i]
        fold_accuracy.append(hits / len(members))
    report = tally.report()
    report["folds"] = args.folds
    report["seed"] = args.seed
    report["fold_accuracy"] = fold_accuracy
    if not args.json:
        mean = sum(fold_accuracy) / len(fold_accuracy)
        spread = math.sqrt(sum((a - mean) ** 2 for a in fold_accuracy) / len(fold_accuracy))
        sys.stdout.write("%d-fold stratified cross-validation of %s (seed %d), target %r\n"
                         "fold accuracy %.4f +- %.4f (min %.4f, max %.4f)\n\n"
                         % (args.folds, source.path, args.seed, args.target, mean, spread,
                            min(fold_accuracy), max(fold_accuracy)))
    _print_report(report, args.json)
    return 0


def _cmd_explain(args):
    if args.top < 0:
        raise _Usage("--top %d: expected a number >= 0" % args.top)
    model = NaiveBayes.load(args.model)
    if args.data is None:
        if args.row is not None:
            raise _Usage("--row needs a DATA.csv to read the row from")
        return _print_informative(model, args.top)
    if args.row is None:
        raise _Usage("explain MODEL.json DATA.csv needs --row N (the N-th data row, from 1)")
    if args.row < 1:
        raise _Usage("--row %d: rows count from 1 (the first line after the header)"
                     % args.row)
    source = _CsvSource(args.data, args.delimiter, args.missing or ("?",))
    names, indexes, converters = _prediction_rows(model, source)
    try:
        found = next(islice(source.rows(), args.row - 1, None), None)
    finally:
        source.close()
    if found is None:
        raise NaiveBayesError("%s has fewer than %d rows" % (source.path, args.row))
    [row] = _feature_rows(source, [found], converters, indexes, None, [], [])
    try:
        parts = model.explain(row)
        probabilities = model.predict_proba_one(row)
    except NaiveBayesError as error:
        raise _at_line(error, source, [found]) from None
    ranked = sorted(probabilities, key=lambda c: -probabilities[c])
    best = ranked[0]
    out = sys.stdout
    out.write("%s row %d (line %d): predicted %s (P = %.4f)\n"
              % (source.path, args.row, found[0], best, probabilities[best]))
    if len(ranked) < 2:
        out.write("the model has one class; nothing to compare\n")
        return 0
    runner = ranked[1]
    out.write("runner-up %s (P = %.4f); contributions to log P(%s)/P(%s):\n\n"
              % (runner, probabilities[runner], best, runner))
    items = [("prior", parts["prior"][best] - parts["prior"][runner])]
    for entry in parts["features"]:
        if entry["status"] not in ("used", "unseen"):
            continue
        if "words" in entry:              # a text feature: the words that mattered
            items.extend(_word_items(entry, best, runner))
            continue
        ll = entry["log_likelihood"]
        note = " (unseen)" if entry["status"] == "unseen" else ""
        items.append(("%s = %s%s" % (entry["feature"], _clip(entry["value"]), note),
                      ll[best] - ll[runner]))
    items.sort(key=lambda item: -abs(item[1]) if item[1] == item[1] else 0)
    _bar_chart(items, best, runner)
    missing = [str(e["feature"]) for e in parts["features"] if e["status"] == "missing"]
    if missing:
        out.write("\nmissing (no contribution): %s\n" % ", ".join(missing))
    return 0


def _word_items(entry, best, runner, shown=10):
    """A text feature's part of the log-odds: its most influential words, the rest of
    its words together, and the baseline (every vocabulary word absent)."""
    name = entry["feature"]
    words = sorted(((word, ll[best] - ll[runner]) for word, ll in entry["words"].items()),
                   key=lambda item: -abs(item[1]))
    items = [("%s: %s" % (name, _clip(word)), value) for word, value in words[:shown]]
    rest = words[shown:]
    if rest:
        items.append(("%s: %d other words" % (name, len(rest)),
                      math.fsum(value for _, value in rest)))
    baseline = entry["baseline"][best] - entry["baseline"][runner]
    if baseline:
        items.append(("%s: no word present (baseline)" % name, baseline))
    return items


def _clip(value, width=30):
    """A value for a one-line label: newlines folded, long text cut."""
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _bar_chart(items, best, runner, width=24):
    """Two-sided text bars: left for the runner-up, right for the predicted class."""
    finite = [abs(v) for _, v in items if isfinite(v)]
    scale = max(finite) if finite and max(finite) > 0 else 1.0
    label_width = max(_width(label) for label, _ in items)
    out = sys.stdout
    out.write("%s %9s  %s|%s\n" % (_left("", label_width), "",
                                   _right("<- " + str(runner), width), " " + str(best) + " ->"))
    for label, value in items:
        size = width if not isfinite(value) else int(round(abs(value) / scale * width))
        left = "#" * size if value < 0 else ""
        right = "#" * size if value > 0 else ""
        out.write("%s %+9.3f  %s|%s\n" % (_left(label, label_width), value,
                                          _right(left, width), right))


def _print_informative(model, top):
    ranked = model.most_informative_features(top)
    out = sys.stdout
    out.write("most informative features (score: log-likelihood ratio in nats)\n")
    if not ranked:
        out.write("  (none)\n")
        return 0
    rows = []
    for feature, value, score, favoured in ranked:
        what = "%s = %s" % (feature, value) if value is not None else "%s (gaussian)" % feature
        ratio = ("%.2f : 1" % math.exp(score)) if score < 700 else "inf : 1"
        rows.append((what, str(favoured), "%.4f" % score, ratio))
    rows.insert(0, ("feature", "favours", "score", "ratio"))
    widths = [max(_width(r[i]) for r in rows) for i in range(4)]
    for what, favoured, score, ratio in rows:
        out.write("  %s  %s  %s  %s\n" % (_left(what, widths[0]), _left(favoured, widths[1]),
                                          _right(score, widths[2]), ratio))
    return 0


def _cmd_info(args):
    model = NaiveBayes.load(args.model)
    out = sys.stdout
    out.write("%s: a %s (model file format %d)\n" % (args.model, type(model).__name__,
                                                     FORMAT_VERSION))
    if model._target is not None:
        out.write("target: %s\n" % model._target)
    if model._counts is None:
        out.write("not fitted\n")
    else:
        out.write(_describe_model(model))
    params = model.get_params()
    shown = ["%s=%r" % (name, params[name]) for name in
             ("alpha", "prior_alpha", "class_prior", "ddof", "var_smoothing")]
    out.write("parameters: %s\n" % ", ".join(shown))
    return 0


def _cli_number(text):
    """A number option: an int when written as one (--ddof 1), else a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _parser():
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise _Usage("%s (see %s --help)" % (message, self.prog))

    def command(name, help_text, example):
        sub = commands.add_parser(name, help=help_text, description=help_text,
                                  epilog="example:\n  " + example,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=globals()["_cmd_" + name])
        return sub

    def csv_options(sub):
        sub.add_argument("--delimiter", default=",", help="field separator (default ,)")
        sub.add_argument("--missing", action="append", metavar="TOKEN",
                         help="a cell that means a missing value (repeatable; default ?; "
                              "an empty cell is always missing)")

    def model_options(sub):
        sub.add_argument("--target", required=True, metavar="COL", help="the label column")
        sub.add_argument("--alpha", type=_cli_number, default=1.0,
                         help="smoothing of categorical likelihoods (default 1, Laplace)")
        sub.add_argument("--prior-alpha", type=_cli_number, default=0.0,
                         help="smoothing of the class prior (default 0)")
        sub.add_argument("--ddof", type=_cli_number, default=0,
                         help="Gaussian variance divisor N - ddof (default 0; 1 as R)")
        sub.add_argument("--var-smoothing", type=_cli_number, default=1e-9,
                         help="added variance, times the largest variance (default 1e-9)")
        for kind in ("categorical", "gaussian", "text", "ignore"):
            sub.add_argument("--" + kind, action="append", metavar="COLS",
                             help="comma-separated columns to treat as %s" % kind)
        sub.add_argument("--text-model", choices=("bernoulli", "multinomial"),
                         default="bernoulli", help="for --text columns: set-of-words "
                         "(bernoulli, the default) or bag-of-words (multinomial)")
        sub.add_argument("--max-words", type=int, metavar="K",
                         help="for --text columns: keep the K most frequent words")
        csv_options(sub)

    parser = Parser(prog="naive_bayes", description="Naive Bayes on CSV files: fit a "
                    "model, predict, evaluate, cross-validate, explain.",
                    epilog="example:\n  python naive_bayes.py cv examples/data/titanic.csv "
                    "--target survived", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True

    sub = command("fit", "fit a model on a CSV file and write it as JSON",
                  "python naive_bayes.py fit titanic.csv --target survived -o titanic.json")
    sub.add_argument("data", metavar="DATA.csv", help="training data with a header row "
                     "(- for stdin)")
    sub.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    model_options(sub)

    sub = command("predict", "predict the class of every row of a CSV file",
                  "python naive_bayes.py predict titanic.json titanic.csv --proba")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA.csv")
    sub.add_argument("--proba", action="store_true", help="add one probability column "
                     "per class")
    sub.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
    csv_options(sub)

    sub = command("evaluate", "accuracy, log loss, per-class scores and confusion matrix",
                  "python naive_bayes.py evaluate titanic.json titanic.csv")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA.csv")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    csv_options(sub)

    sub = command("cv", "stratified k-fold cross-validation, with the evaluate report",
                  "python naive_bayes.py cv titanic.csv --target survived --folds 10")
    sub.add_argument("data", metavar="DATA.csv")
    sub.add_argument("--folds", type=int, default=10, help="number of folds (default 10)")
    sub.add_argument("--seed", type=int, default=0, help="shuffling seed (default 0)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    model_options(sub)

    sub = command("explain", "the most informative features, or why one row got its "
                  "prediction", "python naive_bayes.py explain titanic.json titanic.csv "
                  "--row 3")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA.csv", nargs="?")
    sub.add_argument("--row", type=int, metavar="N", help="the N-th data row, from 1")
    sub.add_argument("--top", type=int, default=10, help="features to list (default 10)")
    csv_options(sub)

    sub = command("info", "what a model file holds",
                  "python naive_bayes.py info titanic.json")
    sub.add_argument("model", metavar="MODEL.json")
    return parser


def main(argv=None):
    """The command line; returns the exit status: 0 done, 1 bad data, 2 usage error.
    Errors are one line on stderr, never a traceback.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as stderr:
    ...     status = main(["info", "no/such/model.json"])
    >>> status, stderr.getvalue().strip()
    (1, 'naive_bayes info: error: load(no/such/model.json): cannot read the file: No such file or directory')
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except _Usage as error:
        sys.stderr.write("naive_bayes: error: %s\n" % _one_line(error))
        return 2
    except SystemExit as stop:          # --help and --version
        return stop.code if isinstance(stop.code, int) else 0
    prog = "naive_bayes %s" % args.command
    try:
        return args.run(args)
    except _Usage as error:
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


def _one_line(error):
    """An error message on one line (a column name may hold a newline)."""
    return " ".join(str(error).splitlines()) or type(error).__name__


def _quote(text):
    """A value as it would be typed on a shell command line."""
    import shlex
    return shlex.quote(str(text))


if __name__ == "__main__":
    sys.exit(main())
