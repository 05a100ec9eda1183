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
        classes pooled) of any of these distributions; exact.  GaussianNB's floor, as
        scikit-learn's, is that of all its features; NaiveBayes' each feature's own
        (see compile)."""
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
        """The _NormalScorer of the classes' moments, each variance floored by the
        epsilon ``shared`` (scikit-learn's: var_smoothing times the largest variance
        of any Gaussian feature) or, when it is None, by var_smoothing times this
        feature's own variance: a feature of huge values (a numeric code) cannot then
        flatten the others' densities."""
        if shared is None:
            shared = self.smoothing([self], params)
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


class _NormalScorer(_NumberScorer):
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

    def at(self, x):
        """Per class log N(x; mean, variance) of a finite float x."""
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
