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


# Floats and exact numbers.

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


# Records and bandwidths.

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


# Cells and their evaluation.
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


# One class's sources.

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


# The builder: cells over the whole line for one class.

class _KdeCellBuilder:
    """Cuts the real line into cells for one class's sources, each within the error
    budget (the method and its bounds: the docstring of _KernelDensities)."""

    __slots__ = ("sources", "last_bound")

    def __init__(self, sources):
        self.sources = sources
        self.last_bound = None

    # -- Taylor cell ------------------------------------------------------------------
    def taylor_cell(self, start, end, kept):
        """The Taylor cell over [start, end] from the sources in the index ranges
        ``kept``, or None when its a-posteriori bound (a) exceeds _KDE_CELL_ERROR."""
        sources = self.sources
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
        self.last_bound = bound
        return _kde_taylor_cell(centre, 1.0 / half_width, mean, inverse_bandwidth,
                                top + sources.log_scale, coefficients)

    def growth(self):
        """The next cell's width over this one's after a success: the bound scales as
        width**_KDE_TERMS, so (budget / bound)**(1/_KDE_TERMS), damped and capped."""
        factor = (_KDE_CELL_ERROR / max(self.last_bound, 1e-300)) ** (1.0 / _KDE_TERMS)
        return min(max(0.8 * factor, 1.25), 1e3)

    # -- near the data ----------------------------------------------------------------
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
                at = cell_end
                width = 0.5

    # -- one-sided walk ---------------------------------------------------------------
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
        mirrored = []
        mirror.right_side_cells(last - edge - 1, -end, -start, mirrored)
        for cell_start, cell_end, cell in reversed(mirrored):
            cells.append((-cell_end, -cell_start, _kde_mirrored_cell(cell)))

    # -- gaps -------------------------------------------------------------------------
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
                return

    # -- dense ------------------------------------------------------------------------
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
            else:                            # rebuilt from the raw sources
                if first_failed is None:
                    first_failed = node
        if first_failed is not None:
            self.near_cells(edges[first_failed], edges[cell_count], cells)
        return edges[cell_count]

    # -- all --------------------------------------------------------------------------
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


# The per-feature object.

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


class _KdeScorer(_NumberScorer):
    """x -> per-class log f_c(x) of the kernel density estimates."""

    __slots__ = ("zeros", "feature", "records")

    def __init__(self, feature, records, zeros):
        self.feature = feature
        self.records = records
        self.zeros = zeros

    def at(self, x):
        """Per class log f_c(x) of a finite float x."""
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
