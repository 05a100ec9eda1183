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
                       steps=_WEIGHT_STEPS, start=None):
    """The weights 0 <= w <= _WEIGHT_MAX minimising -sum_i v_i log P(y_i | x_i) +
    penalty/2 |w|^2,
    P(c | x_i) ~ exp(prior_c + sum_j w_j columns[j][c][i]): ``columns`` per feature and
    class the rows' log-likelihoods, ``truth`` each row's class, ``row_weights`` v_i.

    Projected Newton from w = 1 (naive Bayes), or from ``start`` (weights near the
    minimum, such as those of more rows of the same data: fewer steps reach it; each
    clamped to the bounds): on the weights that are free (above 0,
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

    def gradient_at(w, probabilities):
        """(the gradient of the loss at w, each feature's mean log-likelihood per row
        under P(c | x_i))."""
        means = []
        for per_class in columns:         # summed class by class, in order
            mean = list(map(mul, per_class[0], probabilities[0]))
            for column, p in zip(per_class[1:], probabilities[1:]):
                mean = list(map(add, mean, map(mul, column, p)))
            means.append(mean)
        gradient = [fsum(map(mul, row_weights, map(sub, means[j], true[j])))
                    + penalty * w[j] for j in range(width)]
        return gradient, means

    # each feature's log-likelihood of each row's true class
    true = [list(map(getitem, zip(*columns[j]), truth)) for j in range(width)]

    def hessian_of(free, probabilities, means, floor):
        """The Hessian of the loss, the entries of the free features only (the others
        are not read: a feature held at a bound takes no part in the step; each entry
        is computed as for the whole matrix, so the same numbers), from the (row,
        class) cells whose v_i P(c | x_i) is above floor times the largest."""
        weighted = [list(map(mul, row_weights, column)) for column in probabilities]
        # each feature's classes end to end in one list, one product per pair, and
        # only the (row, class) cells whose v_i P(c | x_i) is not negligible (the
        # Hessian only steers the steps: the loss and the gradient are exact)
        cells = list(chain.from_iterable(weighted))
        floor *= max(cells)
        kept = [x > floor for x in cells]
        cells = list(compress(cells, kept))
        flat = {j: list(compress(chain.from_iterable(columns[j]), kept)) for j in free}
        products = {j: list(map(mul, cells, flat[j])) for j in free}
        spread = {j: list(map(mul, row_weights, means[j])) for j in free}
        hessian = [[0.0] * width for _ in range(width)]
        for n, j in enumerate(free):
            for m in (free[:n + 1] if full else (j,)):
                value = sum(map(mul, products[j], flat[m])) - sum(map(mul, spread[j], means[m]))
                hessian[j][m] = hessian[m][j] = value + (penalty if j == m else 0.0)
        return hessian

    def newton_step(free, gradient, means, floor):
        """(w, loss, probabilities) after a projected Newton step from w, with the
        Hessian's cells of v_i P(c | x_i) above floor times the largest, cut back
        until the loss falls as Armijo asks; None if it does not (or the step is not
        finite)."""
        hessian = hessian_of(free, probabilities, means, floor)
        solved = _solve_positive([[hessian[j][m] for m in free] for j in free],
                                 [-gradient[j] for j in free]) if full else \
            [-gradient[j] / hessian[j][j] for j in free]
        if not all(map(isfinite, solved)):
            return None
        direction = [0.0] * width
        for j, d in zip(free, solved):
            direction[j] = d
        t = 1.0
        for _ in range(30):                 # cut back until Armijo's decrease
            trial = [min(_WEIGHT_MAX, max(0.0, x + t * d)) for x, d in zip(w, direction)]
            trial_loss, trial_probabilities = posterior(trial)
            if trial_loss <= loss + 1e-4 * fsum(map(mul, gradient, map(sub, trial, w))):
                return trial, trial_loss, trial_probabilities
            t /= 2.0
        return None

    full = width <= _WEIGHT_FULL_HESSIAN        # else its diagonal: steps stay cheap

    w = [1.0] * width if start is None else \
        [min(_WEIGHT_MAX, max(0.0, float(x))) for x in start]
    loss, probabilities = posterior(w)
    for _ in range(steps):
        gradient, means = gradient_at(w, probabilities)
        free = [j for j in range(width) if (w[j] > 0 or gradient[j] < 0) and (
            w[j] < _WEIGHT_MAX or gradient[j] > 0)]
        if not free:
            break
        # a step steered by the Hessian of the cells that weigh 1e-4 of the most
        # (a few of them when the classes are many and most rows sure of theirs:
        # 2-6 times faster on 19 classes), else by the whole Hessian as before
        stepped = newton_step(free, gradient, means, 1e-4) or \
            newton_step(free, gradient, means, 1e-12)
        if stepped is None:
            break
        trial, trial_loss, trial_probabilities = stepped
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


_PLAIN_KINDS = frozenset((bool, int, float, str))


def _row_sort_key(row):
    """_canonical_row(row) of a row of the statistics' values, by builtins when its
    values are booleans, numbers and strings without a NaN (each then keys as
    (its kind's rank, itself), as _canonical keys it)."""
    if type(row) is tuple and _PLAIN_KINDS.issuperset(map(type, row)) and \
            all(map(eq, row, row)):
        return (0,) + tuple(zip(map(_CANONICAL_RANKS.__getitem__, map(type, row)), row))
    return _canonical_row(row)


class _WeightedNaiveModel:
    """Naive Bayes on MDL bins with one learned weight per feature (see the comment
    above): the tables of _NaiveModel, P(c | x) ~ P(c) prod_j P(x_j | c)^(w_j), the
    weights learned when the model is compiled from the distinct rows a network's
    statistics keep (in a canonical order; on a stratified sample when there are
    more than _WEIGHT_ROWS, or than _HESSIAN_WORK / (features^2 x classes) but at
    least 500, for the Hessian's sake), so that they are a function of the statistics: the same
    however the rows arrived, and learned again after partial_fit or merge.  An
    AutoBayes member ("weighted").  ``start`` ({feature: weight}) and ``steps``: where
    the Newton steps start and how many at most (see _attribute_weights; AutoBayes'
    internal cross-validation starts its folds from the weights of all the rows)."""

    def __init__(self, rows, params, start=None, steps=_WEIGHT_STEPS):
        self.base = base = _NaiveStatistics.compile(rows, params)
        self.classes, self.names, self.width = base.classes, base.names, base.width
        self.zeros = base.zeros
        self.positional = base.positional
        classes = self.classes
        training = [(values, classes.index(label), weight)
                    for label, counted in rows.row_counts.rows.items()
                    if label in classes
                    for values, (weight, _) in counted.items() if weight]
        # the rows' weights as floats; beyond the float range (weights near 1e308
        # add up to more) over the largest, as _attribute_weights scales them anyway
        largest = max((weight for _, _, weight in training), default=1)
        if largest > _FLOAT_MAX_EXACT:
            from fractions import Fraction
            training = [(values, c, float(Fraction(weight) / largest))
                        for values, c, weight in training]
        else:
            training = [(values, c, float(weight)) for values, c, weight in training]
        training.sort(key=lambda item: (item[1], _row_sort_key(item[0])))
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
            cells = [values[j] if j < len(values) else None for values, _, _ in training]
            if type(scorer) is _BinScorer and _FLOAT.issuperset(map(type, cells)) and \
                    all(map(isfinite, cells)):    # scorer[x] by builtins: its bin's vector
                vectors = list(map(scorer.vectors.__getitem__,
                                   map(bisect_left, repeat(scorer.cuts), cells)))
            else:
                vectors = list(map(scorer.__getitem__, cells))
            columns.append([list(column) for column in zip(*vectors)] if vectors else
                           [[] for _ in classes])
        finite = all(isfinite(x) for x in base.log_prior) and all(
            isfinite(sum(column)) for per_class in columns for column in per_class)
        if start is not None:
            start = [start.get(self.names[j], 1.0) for j in used]
        learned = _attribute_weights(columns, base.log_prior,
                                     [c for _, c, _ in training],
                                     [v for _, _, v in training], steps=steps,
                                     start=start) if finite else [1.0] * len(used)
        self.weights = [1.0] * self.width
        for j, w in zip(used, learned):
            self.weights[j] = w

    def joint(self, row):
        """Per class, log P(c) + sum_j w_j log P(x_j | c)."""
        vectors = [self.base.log_prior]
        for name, scorer, value, w in zip(self.names, self.base.scorers, row, self.weights):
            try:
                vector = scorer[value]
            except (_BadValue, TypeError) as error:
                raise _value_error(name, value, error) from None
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
