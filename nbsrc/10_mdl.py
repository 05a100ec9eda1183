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
    from these in the last bits.  Inside a _CutsMemo's with block, an input already
    cut in it is answered from its memory.
    """
    memo = getattr(_CUTS_IN_USE, "memo", None)
    if memo is not None:
        return memo.cut_points(values, columns, rows)
    return _mdl_computed_cut_points(values, columns, rows)


_CUTS_IN_USE = threading.local()      # .memo: this thread's open _CutsMemo, or None
_CUTS_MEMO_CELLS = 1 << 20            # the most values and weights a _CutsMemo keeps


class _CutsMemo:
    """The cut points of the inputs already cut, for as long as one compilation needs
    them: AutoBayes compiles several members from the same rows, and each cuts the
    same numbers into the same MDL bins (the network and the weighted naive Bayes
    from the rows, both AODE members from the same imputed counts).  Keyed by the
    whole input (values, weights per class, rows), compared by equality: an equal
    input gives the same cut points, bit for bit, as the search is a function of it
    (equal numbers of any type convert to the same floats).  Keeps at most
    _CUTS_MEMO_CELLS values and weights in all, in use while it is open (with
    memo: ...), in this thread only; the inputs beyond that are cut as without it."""

    __slots__ = ("found", "cells", "outer")

    def __init__(self):
        self.found = {}
        self.cells = 0
        self.outer = []

    def __enter__(self):
        self.outer.append(getattr(_CUTS_IN_USE, "memo", None))
        _CUTS_IN_USE.memo = self
        return self

    def __exit__(self, *error):
        _CUTS_IN_USE.memo = self.outer.pop()

    def cut_points(self, values, columns, rows):
        """_mdl_computed_cut_points of the input, from memory when it was cut before."""
        cells = len(values) * (len(columns) + 1 + (rows is not None))
        if self.cells + cells > _CUTS_MEMO_CELLS:
            found = self.found.get(self._key(values, columns, rows)) if cells <= \
                _CUTS_MEMO_CELLS else None
            return list(found) if found is not None else \
                _mdl_computed_cut_points(values, columns, rows)
        key = self._key(values, columns, rows)
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = _mdl_computed_cut_points(values, columns, rows)
            self.cells += cells
        return list(found)

    @staticmethod
    def _key(values, columns, rows):
        return (tuple(values), tuple(map(tuple, columns)),
                None if rows is None else tuple(rows))


def _mdl_computed_cut_points(values, columns, rows=None):
    """_mdl_cut_points, computed."""
    n = len(values)
    if n < 2:
        return []
    columns = _mdl_within_doubles(columns)
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


_MDL_LARGEST = 2 ** 900   # the most weight whose x log x sums stay within doubles


def _mdl_within_doubles(columns):
    """The columns of weights, scaled down by a power of 2 (as floats) when they add
    up beyond _MDL_LARGEST: Weka's sums in doubles would overflow (weights near 1e308
    or exact counts beyond the float range).  The entropies do not change with the
    scale, and the MDL threshold, (log2(N - 1) + delta) / N, is below 1e-268 either
    way: the same cuts as the weights themselves give."""
    total = sum(chain.from_iterable(columns))
    if total <= _MDL_LARGEST:
        return columns
    from fractions import Fraction
    divisor = 1 << (int(total).bit_length() - 900)
    return [[float(Fraction(x) / divisor) for x in column] for column in columns]


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


class _BinScorer(_NumberScorer):
    """x -> per-class log P(bin of x | c): bin i holds cuts[i-1] < x <= cuts[i]."""

    __slots__ = ("zeros", "cuts", "vectors", "find")

    def __init__(self, cuts, vectors, zeros):
        self.cuts = cuts
        self.vectors = vectors
        self.zeros = zeros
        self.find = bisect_left

    def at(self, x):
        """Per class log P(bin of x | c) of a finite float x."""
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
