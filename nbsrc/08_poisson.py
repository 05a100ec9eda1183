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
