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


def _mdl_cut_points(values, columns, rows=None, boundaries=False):
    """Weka's MDL cut points of a numeric feature: values sorted and distinct, and
    columns[c][i] the weight of class c at values[i] (a weight w counting as w rows;
    or, with ``rows``, the number of rows at each value, counted as Weka counts them
    in the MDL test's number of possible cuts, its weights elsewhere).

    Exact for whole weights (sums in any order are exact) and for other weights
    whose sums are exact in doubles; otherwise Weka's per-instance sums may differ
    from these in the last bits.  Inside a _CutsMemo's with block, an input already
    cut in it is answered from its memory.  A cut point lies midway between two
    values; with ``boundaries`` (values that are keys of a grid, see _grid_key), at
    the lower value, the boundary of its interval.
    """
    memo = getattr(_CUTS_IN_USE, "memo", None)
    if memo is not None:
        return memo.cut_points(values, columns, rows, boundaries)
    return _mdl_computed_cut_points(values, columns, rows, boundaries)


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

    def cut_points(self, values, columns, rows, boundaries=False):
        """_mdl_computed_cut_points of the input, from memory when it was cut before."""
        cells = len(values) * (len(columns) + 1 + (rows is not None))
        if self.cells + cells > _CUTS_MEMO_CELLS:
            found = self.found.get(self._key(values, columns, rows, boundaries)) if \
                cells <= _CUTS_MEMO_CELLS else None
            return list(found) if found is not None else \
                _mdl_computed_cut_points(values, columns, rows, boundaries)
        key = self._key(values, columns, rows, boundaries)
        found = self.found.get(key)
        if found is None:
            found = self.found[key] = _mdl_computed_cut_points(values, columns, rows,
                                                               boundaries)
            self.cells += cells
        return list(found)

    @staticmethod
    def _key(values, columns, rows, boundaries):
        return (tuple(values), tuple(map(tuple, columns)),
                None if rows is None else tuple(rows), boundaries)


def _mdl_computed_cut_points(values, columns, rows=None, boundaries=False):
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
            todo.append(float(values[b - 1]) if boundaries else
                        (values[b - 1] + values[b]) / 2.0)
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


# -- the nested grid: a record of many distinct numbers, bounded ---------------------
#
# A discretized feature counts each number under its key on a grid of resolution
# ``level``: the least number >= x with ``level`` bits of mantissa after the leading
# one (52: every float, the number itself), and below 0 with no mantissa and an
# exponent a multiple of 2^-level (-11: the keys -1, 0, 1 and the largest float);
# the largest float belongs to every grid, so that a key is never infinite.  The
# grids are nested (each level's grid holds the next coarser one's), so the key at
# level L - 1 of the key at level L is the key of the number at L - 1: a record
# coarsened to a level is the record counted at that level.  A key k stands for the
# numbers of the interval (the grid point below k, k].
#
# A record keeps at most _RECORD_KEYS distinct keys over its classes, and AODE's
# pairwise counts at most _PAIR_CELLS counts per pair of features with a number: when
# counting passes the bound, the record (the pair) moves to the finest level at which
# it fits.  The number of distinct keys only grows with the data and only shrinks
# with the level, so the level reached is the finest at which all the data fits,
# whatever the order, batches and partitions of the rows: one model.  A record of at
# most _RECORD_KEYS distinct numbers (a pair of at most _PAIR_CELLS counts, always so
# with at most that many rows) stays at full resolution, its counts exact as before.
# Forgetting rows keys them at the level reached and subtracts them: the counts stay
# exact at that level, which never becomes finer again.

_FULL_RESOLUTION = 52         # the level of the numbers themselves
_COARSEST_RESOLUTION = -11    # the level of at most 4 keys: -1, 0, 1 and the largest float
_RECORD_KEYS = 10000          # the most distinct keys of a discretized feature's record
_PAIR_CELLS = 10000           # the most counts (all classes) of a pair with a number


def _grid_key(x, level):
    """The key of a finite float x at a resolution level: the least number >= x of
    the level's grid (x itself at full resolution, 0.0 for -0.0)."""
    if level >= _FULL_RESOLUTION or x == 0:
        return x + 0.0 if x == 0 else x
    mantissa, exponent = frexp(x)         # x = mantissa 2^exponent, 1/2 <= |mantissa| < 1
    if level >= 0:                        # the mantissa rounded up to level + 1 bits
        try:
            return ldexp(math.ceil(ldexp(mantissa, level + 1)), exponent - level - 1)
        except OverflowError:             # above the grid's largest finite point
            return _FLOAT_MAX
    step = 1 << -level                    # powers of 2 whose exponent is a multiple
    if x > 0:                             # of step: the least one >= x
        power = exponent - 1 if mantissa == 0.5 else exponent
        power = -(-power // step) * step
        return ldexp(1.0, power) if power <= 1023 else _FLOAT_MAX
    power = (exponent - 1) // step * step  # -(the largest one <= -x), or 0
    return -ldexp(1.0, power) if power >= -1074 else 0.0


def _fitting_level(size, level, bound, distinct):
    """The finest level at or below ``level`` at which a record of ``size`` distinct
    values at ``level`` takes at most ``bound`` distinct values, distinct(level)
    being their number once coarsened to a level (the coarsest level when none
    fits): the number only shrinks with the level, so the levels 1, 2, 4, ... below
    are tried until one fits, then the ones between them by bisection (a record
    that grew past its bound mostly fits one level below)."""
    if size <= bound:
        return level
    high, step = level - 1, 1             # the answer is at most high
    while True:
        low = max(level - step, _COARSEST_RESOLUTION)
        if low == _COARSEST_RESOLUTION or distinct(low) <= bound:
            break
        high, step = low - 1, 2 * step
    while low < high:                     # the answer is in [low, high]
        middle = (low + high + 1) // 2
        if distinct(middle) <= bound:
            low = middle
        else:
            high = middle - 1
    return low


def _keyed_counts(counted, level):
    """{value: count} as {key at level: count}."""
    keyed = {}
    get = keyed.get
    for value, count in counted.items():
        key = _grid_key(value, level)
        keyed[key] = get(key, 0) + count
    return keyed


class _MDLBins(_ValueRecord):
    """A numeric feature cut into bins by Fayyad and Irani's MDL criterion (the cut
    points of Weka's supervised Discretize, recomputed from the record of values
    whenever it changes), then categorical over the bins with alpha smoothing:
    P(bin b | c) = (N_cb + alpha) / (N_cj + alpha * number of bins).

    The record keeps at most _RECORD_KEYS distinct numbers, exactly; beyond them it
    counts keys of the nested grid at the finest ``level`` that fits (see
    _grid_key), and a cut point is then a boundary of the grid between two keys (the
    lower key), as a bin must hold whole keys; at full resolution it is the midpoint
    between two values, as Weka's."""

    __slots__ = ("level",)
    settings = ("level",)                 # an empty twin counts at the same level
    file_fields = ("records", "resolution")

    def __init__(self):
        super().__init__()
        self.level = _FULL_RESOLUTION

    def add_counts(self, label, counted):
        """Add {value: count} to a class's record, keyed at the record's level, then
        coarsen the record while it holds more than _RECORD_KEYS keys."""
        if self.level < _FULL_RESOLUTION:
            counted = _keyed_counts(counted, self.level)
        super().add_counts(label, counted)
        self.bound()

    def bound(self):
        """Move the record to the finest level at which it holds at most _RECORD_KEYS
        distinct keys over its classes."""
        keys = set().union(*self.counts.values())
        if len(keys) > _RECORD_KEYS:
            self.coarsen(_fitting_level(len(keys), self.level, _RECORD_KEYS, lambda level:
                                        len({_grid_key(key, level) for key in keys})))

    def coarsen(self, level):
        """Key every count at ``level`` (when coarser than the record's)."""
        if level < self.level:
            self.level = level
            self.counts = {label: _keyed_counts(counted, level)
                           for label, counted in self.counts.items()}

    def absorb(self, other):
        """Add other's records, both at the coarser of the two levels."""
        self.coarsen(other.level)
        super().absorb(other)

    def at_level(self, level):
        """These records at ``level`` (a coarsened copy when coarser than theirs)."""
        if level >= self.level:
            return self
        twin = self.copy()
        twin.coarsen(level)
        return twin

    def deficit(self, other, emptied):
        """The first key other recorded more often in a class, both at the coarser
        of the two levels."""
        level = min(self.level, other.level)
        return _ValueRecord.deficit(self.at_level(level), other.at_level(level), emptied)

    def subtract(self, other):
        """Remove other's records, keyed at the coarser of the two levels (which these
        records keep)."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        self.coarsen(other.level)
        super().subtract(other.at_level(self.level))

    def cut_points(self, classes):
        """The MDL cut points of the record: midpoints between values at full
        resolution, the lower key's boundary between keys below it."""
        values, columns = self.weight_columns(classes)
        return _mdl_cut_points(values, columns,
                               boundaries=self.level < _FULL_RESOLUTION) if values else []

    def cuts(self, classes):
        """The MDL cut points of the record (bin b holds cuts[b-1] < x <= cuts[b])."""
        return self.cut_points(classes)

    def class_statistics(self, classes, params):
        """Per class: {"count": n, "bins": [its weight in each bin], "cuts": the cut
        points (the same for every class)}."""
        values, columns = self.weight_columns(classes)
        cuts = self.cut_points(classes)
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
        cuts = self.cut_points(classes)
        bins = [[0] * (len(cuts) + 1) for _ in classes]
        for i, value in enumerate(values):
            b = bisect_left(cuts, value)      # bin b holds cuts[b-1] < x <= cuts[b]
            for k, column in enumerate(columns):
                if column[i]:
                    bins[k][b] += column[i]
        logs = [_log_smoothed(counts, sum(counts), params["alpha"], len(counts))
                for counts in bins]
        return _BinScorer(cuts, list(zip(*logs)), zeros)

    def to_file(self, classes, what):
        """{"records": [[keys in increasing order, their counts] per class]}, and
        "resolution": the level, when the record is coarsened."""
        data = super().to_file(classes, what)
        if self.level < _FULL_RESOLUTION:
            data["resolution"] = self.level
        return data

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The records of a feature of the model file, validated: with "resolution",
        every value a key of that level."""
        stats = super().from_file(feature, where, classes, class_count)
        if "resolution" in feature:
            level = feature["resolution"]
            here = where + ".resolution"
            _expect(type(level) is int and
                    _COARSEST_RESOLUTION <= level < _FULL_RESOLUTION, here, level,
                    "an integer from %d to %d" % (_COARSEST_RESOLUTION,
                                                  _FULL_RESOLUTION - 1))
            for label, counted in stats.counts.items():
                odd = next((x for x in counted if _grid_key(x, level) != x), None)
                if odd is not None:
                    raise _Invalid("%s is %d, but the records hold %r, not a key of that "
                                   "level; expected the keys of resolution %d"
                                   % (here, level, odd, level))
            stats.level = level
        return stats


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
