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

__all__ = ["NaiveBayes", "CategoricalNB", "GaussianNB", "NaiveBayesError"]
__version__ = "0.1.0"

import math
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import partial
from itertools import chain, islice, repeat
from math import exp, frexp, isfinite, ldexp, log
from numbers import Real
from operator import getitem, is_not, mul, sub

# `fractions` costs a few milliseconds to import; it is needed only to fit Gaussian
# features and is imported there (see _exact_sums).

INF = float("inf")
LOG_2PI = log(2.0 * math.pi)
KINDS = ("categorical", "gaussian", "ignore")
_FLOAT_INT = frozenset((float, int))
_not_none = partial(is_not, None)


class NaiveBayesError(ValueError):
    """Bad input or a bad model file: the message names the call, argument and row."""


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
    """Return (ints, scale) with xs[i] == ints[i] / scale exactly; xs are finite floats.

    Every float is an integer times a power of two, and the smallest nonzero magnitude
    has the finest power, so one shift turns the whole column into integers.  None when
    the column spans too many binades for one float shift (an exact slow path follows).
    """
    smallest = min(filter(None, map(abs, xs)), default=0.0)
    if not smallest:
        return [0] * len(xs), 1
    shift = max(0, 53 - frexp(smallest)[1])
    if frexp(max(map(abs, xs)))[1] + shift > 1024:
        return None
    return list(map(int, map(ldexp, xs, repeat(shift)))), 1 << shift


def _exact_sums(xs, weights=None, weight_scale=1):
    """Return (sum w, sum w*x, sum w*x*x) over finite floats xs, exactly.

    The sums are ints or Fractions, so the statistics do not depend on the order of
    the rows, on how they were split into batches, or on merging: fit, partial_fit
    and merge agree bit for bit.  Exact sums are also the stable way to a variance
    (no cancellation in sum x^2 - (sum x)^2 / n), for any count and any spread of means.
    ``weights`` are integers with the common ``weight_scale`` (see _scaled_integers).
    """
    from fractions import Fraction
    scaled = _scaled_integers(xs)
    if scaled is None:
        ints, scale = list(map(Fraction, xs)), 1
    else:
        ints, scale = scaled
    if weights is None:
        n = len(ints)
        s1 = sum(ints)
        s2 = sum(map(mul, ints, ints))
    else:
        n = _ratio(sum(weights), weight_scale)
        weighted = list(map(mul, weights, ints))
        s1 = sum(weighted)
        s2 = sum(map(mul, weighted, ints))
        scale_1 = scale * weight_scale
    if weights is None:
        return n, Fraction(s1, scale), Fraction(s2, scale * scale)
    return n, Fraction(s1, scale_1), Fraction(s2, scale_1 * scale)


def _float(x):
    """An exact number as a float, inf when it is too large for one."""
    try:
        return float(x)
    except OverflowError:
        return INF


def _number(x):
    """x as a float if it is a real number other than bool, else None."""
    if type(x) is float:
        return x
    if isinstance(x, Real) and not isinstance(x, bool):
        return float(x)
    return None


def _is_missing(value):
    """True for None and float NaN, the two spellings of a missing value."""
    return value is None or (isinstance(value, float) and value != value)


def _orderly(items):
    """items sorted when they are mutually orderable, else in the order given."""
    items = list(items)
    try:
        return sorted(items)
    except TypeError:
        return items


def _logsumexp(values):
    """log(sum(exp(v))) shifted by the maximum, so that nothing overflows."""
    top = max(values)
    if top == -INF:
        return -INF
    return top + log(sum([exp(v - top) for v in values]))


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
        if value != value:
            return self.zeros
        return self.fallback


class _Zeros:
    """Scorer of an ignored feature: every value contributes log 1 = 0 to every class."""

    __slots__ = ("zeros",)

    def __init__(self, zeros):
        self.zeros = zeros

    def __getitem__(self, value):
        return self.zeros


class _Categorical:
    """Counts N_cjv of one categorical feature, per class label and value."""

    kind = "categorical"
    __slots__ = ("counts", "declared")

    def __init__(self, declared=None):
        self.counts = {}                      # label -> {value: weighted count}
        self.declared = dict.fromkeys(declared or ())   # an ordered set

    def add(self, label, column, weights=None, weight_scale=1):
        """Count one class's values of this feature; missing values are skipped."""
        if weights is None:
            try:
                counted = Counter(column)
            except TypeError:
                bad = next(v for v in column if not _hashable(v))
                raise _BadValue(bad, "a hashable value") from None
        else:
            counted = {}
            get = counted.get
            try:
                for value, weight in zip(column, weights):
                    counted[value] = get(value, 0) + weight
            except TypeError:
                bad = next(v for v in column if not _hashable(v))
                raise _BadValue(bad, "a hashable value") from None
            counted = {v: _ratio(c, weight_scale) for v, c in counted.items()}
        for value in [v for v in counted if _is_missing(v)]:
            del counted[value]
        if self.declared:
            for value in counted:
                if value not in self.declared:
                    raise _BadValue(value, "one of the declared categories %s"
                                    % _short(list(self.declared)))
        mine = self.counts.get(label)
        if mine is None:
            self.counts[label] = dict(counted)
        else:
            for value, count in counted.items():
                mine[value] = mine.get(value, 0) + count

    def copy(self):
        twin = type(self)(self.declared)
        twin.counts = {label: dict(counts) for label, counts in self.counts.items()}
        return twin

    def absorb(self, other):
        """Add the counts of another _Categorical to these, in place."""
        self.declared.update(other.declared)
        for label, counts in other.counts.items():
            mine = self.counts.get(label)
            if mine is None:
                self.counts[label] = dict(counts)
                continue
            for value, count in counts.items():
                mine[value] = mine.get(value, 0) + count

    def values(self):
        """Known values S_j: declared ones first, then those seen, in first-seen order."""
        known = dict(self.declared)
        for counts in self.counts.values():
            known.update(dict.fromkeys(counts))
        return list(known)

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
            present = float(sum(counts.values()))
            denominator = present + alpha * n_values
            if denominator == 0:          # alpha = 0 and no rows: the limit alpha -> 0+
                uniform = -log(n_values)
                columns.append(dict.fromkeys(values, uniform))
                fallbacks.append(uniform)
                continue
            log_denominator = log(denominator)
            columns.append({v: _log(float(counts.get(v, 0)) + alpha) - log_denominator
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
        self.sums = {}                        # label -> [n, s1, s2]

    def add(self, label, column, weights=None, weight_scale=1):
        """Add one class's values; raise _BadValue for anything but a finite number."""
        if weights is None:
            xs = _reals(column)
            if not xs:
                return
            sums = _exact_sums(xs)
        else:
            pairs = [(v, w) for v, w in zip(column, weights) if not _is_missing(v)]
            if not pairs:
                return
            xs = _reals([v for v, _ in pairs])
            sums = _exact_sums(xs, [w for _, w in pairs], weight_scale)
        mine = self.sums.get(label)
        self.sums[label] = list(sums) if mine is None else [a + b for a, b in zip(mine, sums)]

    def copy(self):
        twin = _Gaussian()
        twin.sums = {label: list(sums) for label, sums in self.sums.items()}
        return twin

    def absorb(self, other):
        """Add the sums of another _Gaussian to these, in place (exact, so the order
        of merging does not matter)."""
        for label, sums in other.sums.items():
            mine = self.sums.get(label)
            if mine is None:
                self.sums[label] = list(sums)
            else:
                self.sums[label] = [a + b for a, b in zip(mine, sums)]

    def pooled(self):
        """(n, s1, s2) over all classes."""
        n = s1 = s2 = 0
        for a, b, c in self.sums.values():
            n += a
            s1 += b
            s2 += c
        return n, s1, s2

    def pooled_variance(self):
        """Population variance of the feature over all classes (0.0 without values)."""
        n, s1, s2 = self.pooled()
        if not n:
            return 0.0
        return _float((s2 - s1 * s1 / n) / n)

    def moments(self, classes, ddof, epsilon):
        """Per-class (mean, variance) with ddof and the var_smoothing epsilon applied.

        A class that never had this feature present borrows the pooled mean and
        variance of all classes (the feature then says nothing about that class).
        None when no class has a value.
        """
        pooled = self.pooled()
        if not pooled[0]:
            return None
        result = []
        for label in classes:
            n, s1, s2 = self.sums.get(label) or pooled
            if not n:
                n, s1, s2 = pooled
            mean = s1 / n
            m2 = s2 - s1 * mean                   # exact: sum of squared deviations
            variance = _float(m2 / (n - ddof)) if n > ddof else 0.0
            result.append((float(mean), variance + epsilon))
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
    and scale = 1 / sqrt(2 var): finite for every positive variance, even a subnormal
    one, where 1 / (2 var) would overflow and 0 * inf give NaN.
    """

    __slots__ = ("means", "scales", "constants", "variances", "zeros", "degenerate")

    def __init__(self, moments, zeros):
        self.means = tuple([mean for mean, _ in moments])
        self.variances = tuple([v for _, v in moments])
        self.scales = tuple([1.0 / (math.sqrt(2.0) * math.sqrt(v)) if 0 < v < INF else 0.0
                             for v in self.variances])
        self.constants = tuple([-0.5 * (LOG_2PI + log(v)) if 0 < v < INF else 0.0
                                for v in self.variances])
        self.zeros = zeros
        # a zero variance is a point mass, an infinite one is flat: both need care
        self.degenerate = not all(0 < v < INF for v in self.variances)

    def __getitem__(self, x):
        if type(x) is not float and type(x) is not int:
            if x is None:
                return self.zeros
            number = _number(x)
            if number is None:
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
            logs = tuple([_degenerate_log_density(x, m, v) if not 0 < v < INF else log_n
                          for m, v, log_n in zip(self.means, self.variances, logs)])
        return logs


def _degenerate_log_density(x, mean, variance):
    """Zero variance: a point mass, +inf at the mean and -inf elsewhere.  Infinite
    variance (the sums overflowed a float): a flat density, -inf everywhere."""
    if variance == 0:
        return INF if x == mean else -INF
    return -INF


class _Ignored:
    """A feature declared "ignore": nothing is counted, nothing is scored."""

    kind = "ignore"
    __slots__ = ()

    def add(self, label, column, weights=None, weight_scale=1):
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


_STATS = {"categorical": _Categorical, "gaussian": _Gaussian, "ignore": _Ignored}


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _reals(column):
    """The non-missing values of a Gaussian column as floats; _BadValue otherwise."""
    if _FLOAT_INT.issuperset(map(type, column)):
        xs = list(map(float, column))
    else:
        xs = []
        for value in column:
            if value is None:
                continue
            number = _number(value)
            if number is None:
                raise _BadValue(value, "a real number")
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
    if not types:
        return None
    if not all(issubclass(t, Real) and not issubclass(t, bool) for t in types):
        return "categorical"
    if any(v == v for column in columns for v in column if v is not None):
        return "gaussian"
    return None                               # only NaN


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

    __slots__ = ("class_count", "features")

    def __init__(self):
        self.class_count = {}    # label -> weighted count, in first-seen order
        self.features = {}       # name -> statistics object, in column order

    def skeleton(self):
        """Empty statistics with the same features, kinds and declared categories."""
        empty = _Counts()
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
        return twin

    def conflicts(self, other):
        """Features whose kinds differ between two sets of statistics."""
        return ["feature %r is %s in one and %s in the other" % (name, mine.kind, theirs.kind)
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


def _normalise(joint):
    """(probabilities, log normaliser) from joint log-likelihoods: max-shifted
    log-sum-exp, so that nothing overflows and the probabilities sum to 1."""
    scores = _posterior_scores(joint)
    top = max(scores)
    exps = [exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps], top + log(total), scores


class _RowError(Exception):
    """A problem with one row; the caller adds the call and the row number."""


class _Compiled:
    """Log-probability tables compiled from _Counts once per fitted state.

    Prediction is then, per row, one lookup per feature (a dict hit for categorical
    features) and a column sum done by builtins: ``map(sum, zip(prior, *vectors))``.
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
        largest = max([g.pooled_variance() for g in gaussians], default=0.0)
        epsilon = params["var_smoothing"] * largest if params["var_smoothing"] else 0.0
        self.epsilon = epsilon
        self.scorers = [counts.features[n].compile(classes, params, epsilon)
                        for n in names]
        self.joint = self._joint_general
        if names and all(type(s) is _GaussianScorer and not s.degenerate
                         for s in self.scorers):
            # All-Gaussian: per class, sum_j c_kj - ((x_j - mean_kj) * scale_kj)^2
            # with the constants c_kj folded into the prior.
            self.gaussian = [
                (prior + sum([s.constants[k] for s in self.scorers]),
                 tuple([s.means[k] for s in self.scorers]),
                 tuple([s.scales[k] for s in self.scorers]))
                for k, prior in enumerate(self.log_prior)]
            self.joint = self._joint_gaussian

    def positional(self, row):
        """The row as a sequence of values in feature order."""
        kind = type(row)
        if kind is list or kind is tuple:
            if len(row) != self.width:
                raise _RowError("has %d values, expected %d" % (len(row), self.width))
            return row
        if kind is dict or isinstance(row, Mapping):
            return list(map(row.get, self.names))
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise _RowError("is %s; expected a sequence or mapping of feature values"
                            % _describe(row))
        tolist = getattr(row, "tolist", None)          # NumPy rows: Python numbers
        return self.positional(tolist() if callable(tolist) else list(row))

    def _joint_general(self, row):
        """Joint log-likelihoods: one scorer lookup per feature, summed per class."""
        try:
            vectors = list(map(getitem, self.scorers, row))
        except (TypeError, _BadValue):
            return self._joint_checked(row)
        joint = list(map(sum, zip(self.log_prior, *vectors)))
        total = sum(joint)
        if total - total == 0:            # all finite: the ordinary case
            return joint
        vectors.append(self.log_prior)
        return _combine(vectors)

    def _joint_gaussian(self, row):
        """All-Gaussian joint log-likelihoods, three builtin maps per class."""
        if not _FLOAT_INT.issuperset(map(type, row)):
            return self._joint_general(row)           # missing or odd values
        joint = []
        for constant, means, scales in self.gaussian:
            z = list(map(mul, map(sub, row, means), scales))
            joint.append(constant - sum(map(mul, z, z)))
        total = sum(joint)
        if total - total == 0:
            return joint
        return self._joint_general(row)               # NaN (missing) or infinity

    def _joint_checked(self, row):
        """The slow path: score feature by feature, naming any bad value."""
        vectors = [self.log_prior]
        for name, scorer, value in zip(self.names, self.scorers, row):
            try:
                vectors.append(scorer[value])
            except _BadValue as error:
                raise _RowError("feature %r is %r; expected %s"
                                % (name, error.value, error.expected)) from None
            except TypeError:
                raise _RowError("feature %r is %s; expected a hashable value"
                                % (name, _describe(value))) from None
        return _combine(vectors)


def _log_prior(classes, class_count, params):
    """log P(c) for each class: smoothed counts, "uniform", or the given class_prior."""
    prior = params["class_prior"]
    if prior is None:
        alpha = params["prior_alpha"]
        counts = [float(class_count[c]) for c in classes]
        total = log(sum(counts) + alpha * len(classes))
        return [_log(count + alpha) - total for count in counts]
    if isinstance(prior, str):            # "uniform"
        return [-log(len(classes))] * len(classes)
    return [_log(float(prior[c])) for c in classes]


def _describe(value):
    """A short description of a value for error messages."""
    text = repr(value)
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
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
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
                   kind in "categorical", "gaussian", "ignore".  Undeclared features are
                   inferred: Gaussian when every non-missing training value is a real
                   number (not bool), categorical otherwise.
    categories     known values per categorical feature ({name: [values]} or a list by
                   position); they count in S_j even if unseen, and any other training
                   value is an error.
    ddof           Gaussian variance divisor N_c - ddof: 0 as scikit-learn, 1 as R and the
                   textbooks.
    var_smoothing  added to every Gaussian variance, times the largest variance (ddof 0,
                   all classes pooled) of any Gaussian feature, as in scikit-learn.

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

    # -- the scikit-learn estimator protocol ------------------------------------

    def get_params(self, deep=True):
        """The constructor parameters, as a dict."""
        return {name: getattr(self, name) for name in _DEFAULTS}

    def set_params(self, **params):
        """Set parameters; smoothing, priors, ddof and var_smoothing apply at once,
        features, categories and tokenizer at the next fit.  Returns self."""
        for name in params:
            if name not in _DEFAULTS:
                raise NaiveBayesError("set_params(): unknown parameter %r; expected one "
                                      "of %s" % (name, ", ".join(_DEFAULTS)))
        merged = dict(self.get_params(), **params)
        _check_params(merged, "set_params()")
        if self._counts is not None:
            _check_class_prior(merged["class_prior"], self._counts, "set_params()")
        for name, value in params.items():
            setattr(self, name, value)
        self._compiled = None
        return self

    def __sklearn_tags__(self):
        """Tags for scikit-learn 1.6 and later (imported only when asked)."""
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(),
                    input_tags=InputTags(allow_nan=True, categorical=True, string=True,
                                         dict=True))

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
        """Class labels, sorted when orderable, else in first-seen order."""
        return self._fitted().classes()

    @property
    def class_count_(self):
        """Weighted number of training rows per class, in classes_ order."""
        counts = self._fitted()
        return [_plain(counts.class_count[c]) for c in counts.classes()]

    @property
    def feature_names_(self):
        """Feature names in column order."""
        return self._fitted().names()

    @property
    def feature_kinds_(self):
        """{feature name: kind}."""
        return self._fitted().kinds()

    # -- fitting ------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Learn from rows X and labels y, forgetting anything learned before.

        X, y and sample_weight may be any iterables (generators included); they are
        read once and no row is kept.  Returns self.
        """
        counts = self._learn(X, y, sample_weight, _Counts(), "fit()")
        self._counts = counts
        self._compiled = None
        return self

    def partial_fit(self, X, y, sample_weight=None):
        """Learn from more rows, adding to what is known (new classes, values and
        features are welcome).  Any batching gives exactly the model of one fit."""
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
        try:
            rows_in = iter(X)
        except TypeError:
            raise NaiveBayesError("%s: X is %s; expected an iterable of rows"
                                  % (call, _describe(X))) from None
        try:
            labels_in = iter(y)
        except TypeError:
            raise NaiveBayesError("%s: y is %s; expected an iterable of labels"
                                  % (call, _describe(y))) from None
        weights_in = None
        if sample_weight is not None:
            try:
                weights_in = iter(sample_weight)
            except TypeError:
                raise NaiveBayesError("%s: sample_weight is %s; expected an iterable of "
                                      "numbers" % (call, _describe(sample_weight))) from None
        size = max(1, len(X)) if isinstance(X, (list, tuple)) else _CHUNK
        start = 0
        while True:
            rows = list(islice(rows_in, size))
            labels = list(islice(labels_in, size))
            weights = None if weights_in is None else list(islice(weights_in, size))
            if len(labels) != len(rows):
                raise NaiveBayesError("%s: X has %d rows but y has %d labels; expected "
                                      "one label per row" % (call, start + len(rows)
                                                             + _rest(rows_in),
                                                             start + len(labels)
                                                             + _rest(labels_in)))
            if weights is not None and len(weights) != len(rows):
                raise NaiveBayesError("%s: X has %d rows but sample_weight has %d "
                                      "weights; expected one weight per row"
                                      % (call, start + len(rows) + _rest(rows_in),
                                         start + len(weights) + _rest(weights_in)))
            if not rows:
                break
            self._count_chunk(counts, rows, labels, weights, start, call, params)
            start += len(rows)
        if start == 0:
            raise NaiveBayesError("%s: X is empty; expected at least one row" % call)
        everything = counts if base is None else base.copy().absorb(counts)
        if not any(everything.class_count.values()):
            raise NaiveBayesError("%s: sample_weight is 0 for every row; expected a "
                                  "positive total weight" % call)
        _check_class_prior(params["class_prior"], everything, call)
        return counts

    def _count_chunk(self, counts, rows, labels, weights, start, call, params):
        """Count one chunk of rows into counts (class counts, then column by column)."""
        _check_labels(labels, start, call)
        scale = 1
        kept = None                       # row numbers, when zero-weight rows are dropped
        if weights is not None:
            weights, scale = _check_weights(weights, start, call)
            if not all(weights):          # weight 0: as if the row were not there
                kept = [i for i, w in enumerate(weights) if w]
                if not kept:
                    return
                rows = [rows[i] for i in kept]
                labels = [labels[i] for i in kept]
                weights = [weights[i] for i in kept]
        rows, names = self._positional_rows(counts, rows, start, call, params, kept)
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
            chunk_counts = {label: _ratio(sum(w), scale)
                            for label, w in weight_groups.items()}
        for label, count in chunk_counts.items():
            counts.class_count[label] = counts.class_count.get(label, 0) + count
        order = list(groups)
        declared = _declared_kinds(params, call)
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
                    stats.add(label, column,
                              weight_groups[label] if weight_groups else None, scale)
            except _BadValue as error:
                i = _locate([row[position] for row in rows], error.value)
                i = i if kept is None else kept[i]
                hint = ""
                if stats.kind == "gaussian" and name not in declared and \
                        self._default_kind is None:
                    hint = (" (the feature was inferred Gaussian%s; declare it with "
                            "features={%r: \"categorical\"})"
                            % ("" if inferred else " from earlier rows", name))
                raise NaiveBayesError("%s: X row %d, feature %r is %s; expected %s%s"
                                      % (call, start + i, name, _describe(error.value),
                                         error.expected, hint)) from None

    def _positional_rows(self, counts, rows, start, call, params, kept=None):
        """The chunk's rows as sequences in feature order; new features registered.
        kept maps positions in rows to row numbers in the chunk (None: the same)."""
        def number(i):
            return start + (i if kept is None else kept[i])

        types = set(map(type, rows))
        if types <= {list, tuple}:
            layout = "sequence"
        elif types <= {dict}:
            layout = "mapping"
        else:
            layout = "mapping" if isinstance(rows[0], Mapping) else "sequence"
            for i, row in enumerate(rows):
                if isinstance(row, (str, bytes)) or not (
                        isinstance(row, Mapping) or hasattr(row, "__len__")):
                    raise NaiveBayesError("%s: X row %d is %s; expected a sequence or "
                                          "mapping of feature values"
                                          % (call, number(i), _describe(row)))
                if isinstance(row, Mapping) != (layout == "mapping"):
                    raise NaiveBayesError("%s: X row %d is a %s but row %d is a %s; "
                                          "expected rows of one shape"
                                          % (call, number(i), type(row).__name__,
                                             number(0), type(rows[0]).__name__))
            if layout == "sequence":
                rows = [row.tolist() if hasattr(row, "tolist") else list(row)
                        for row in rows]
        declared = _declared_kinds(params, call)
        if layout == "mapping":
            new = [name for name in chain(declared, dict.fromkeys(chain.from_iterable(rows)))
                   if name not in counts.features]
            for name in new:
                counts.features[name] = self._new_stats(name, params, call)
            names = list(counts.features)
            return [list(map(row.get, names)) for row in rows], names
        if not counts.features:
            width = len(rows[0])
            names = list(range(width))
            if declared and not set(declared) <= set(names):
                if len(declared) != width:
                    raise NaiveBayesError(
                        "%s: features= names %d features but X row %d has %d values; "
                        "expected a name for every column, or positions 0..%d as names"
                        % (call, len(declared), number(0), width, width - 1))
                names = list(declared)
            for name in names:
                counts.features[name] = self._new_stats(name, params, call)
        width = len(counts.features)
        if set(map(len, rows)) != {width}:
            i = next(i for i, row in enumerate(rows) if len(row) != width)
            raise NaiveBayesError("%s: X row %d has %d values, expected %d"
                                  % (call, number(i), len(rows[i]), width))
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
        """Per-row joint log-likelihoods, and the compiled model that made them."""
        compiled = self._model(call)
        positional = compiled.positional
        joint = compiled.joint
        out = []
        append = out.append
        i = -1
        try:
            for i, row in enumerate(X):
                append(joint(positional(row)))
        except _RowError as error:
            raise NaiveBayesError("%s: X row %d %s" % (call, i, error)) from None
        except TypeError:
            if i == -1 and not hasattr(X, "__iter__"):
                raise NaiveBayesError("%s: X is %s; expected an iterable of rows"
                                      % (call, _describe(X))) from None
            raise
        return out, compiled

    def _joint_one(self, x, call):
        compiled = self._model(call)
        try:
            return compiled.joint(compiled.positional(x)), compiled
        except _RowError as error:
            raise NaiveBayesError("%s: x %s" % (call, error)) from None

    def predict_joint_log_proba(self, X):
        """log P(c) + sum_j log P(x_j | c) per row, columns in classes_ order."""
        joints, _ = self._joints(X, "predict_joint_log_proba()")
        return [list(joint) for joint in joints]

    def predict_log_proba(self, X):
        """log P(c | x) per row, columns in classes_ order."""
        joints, _ = self._joints(X, "predict_log_proba()")
        out = []
        for joint in joints:
            _, normaliser, scores = _normalise(joint)
            out.append([s - normaliser for s in scores])
        return out

    def predict_proba(self, X):
        """P(c | x) per row, columns in classes_ order; every row sums to 1."""
        joints, _ = self._joints(X, "predict_proba()")
        return [_normalise(joint)[0] for joint in joints]

    def predict(self, X):
        """The most probable class of each row (ties go to the earlier class)."""
        joints, compiled = self._joints(X, "predict()")
        classes = compiled.classes
        out = []
        for joint in joints:
            scores = _posterior_scores(joint)
            out.append(classes[scores.index(max(scores))])
        return out

    def predict_one(self, x):
        """The most probable class of one row."""
        joint, compiled = self._joint_one(x, "predict_one()")
        scores = _posterior_scores(joint)
        return compiled.classes[scores.index(max(scores))]

    def predict_proba_one(self, x):
        """{label: P(label | x)} for one row."""
        joint, compiled = self._joint_one(x, "predict_proba_one()")
        return dict(zip(compiled.classes, _normalise(joint)[0]))

    def score(self, X, y, sample_weight=None):
        """Accuracy: the (weighted) fraction of rows whose prediction equals y."""
        X = list(X) if not isinstance(X, (list, tuple)) else X
        predicted = self.predict(X)
        truth = list(y)
        if len(truth) != len(predicted):
            raise NaiveBayesError("score(): X has %d rows but y has %d labels; expected "
                                  "one label per row" % (len(predicted), len(truth)))
        hits = [p == t for p, t in zip(predicted, truth)]
        if sample_weight is None:
            return sum(hits) / len(hits) if hits else 0.0
        weights = list(sample_weight)
        if len(weights) != len(hits):
            raise NaiveBayesError("score(): sample_weight has %d weights for %d rows"
                                  % (len(weights), len(hits)))
        weights, _ = _check_weights(weights, 0, "score()")
        total = sum(weights)
        return sum(w for w, hit in zip(weights, hits) if hit) / total if total else 0.0


class CategoricalNB(NaiveBayes):
    """Naive Bayes with every feature categorical, whatever its type (numbers too)."""

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

def _rest(iterator):
    """How many items an iterator still holds (used for error messages only)."""
    return sum(1 for _ in iterator)


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
    """(integer weights, scale) with weights[i] == integers[i] / scale, exactly."""
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
        return list(map(int, floats)), 1
    scaled = _scaled_integers(floats)
    if scaled is None:                    # weights spanning > 900 binades
        from fractions import Fraction
        return list(map(Fraction, floats)), 1
    return scaled


def _check_class_prior(prior, counts, call):
    """A {label: p} class_prior must name exactly the classes seen in training."""
    if prior is None or isinstance(prior, str):
        return
    known = set(counts.class_count)
    unknown = [label for label in prior if label not in known]
    if unknown:
        raise NaiveBayesError("%s: class_prior names %s, not among the classes %s"
                              % (call, _short(unknown), _short(counts.classes())))
    absent = [label for label in counts.classes() if label not in prior]
    if absent:
        raise NaiveBayesError("%s: class_prior has no probability for class %s; expected "
                              "one for every class" % (call, _short(absent)))
