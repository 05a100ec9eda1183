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
#
# Two refinements of the rows' likelihoods the weights are learned on:
#
# - Leave-one-out.  A training row's own count is inside the tables it is scored by,
#   so its likelihood of its own class is too high, most for rare values, and the
#   weights learned on it overrate the features of many values.  Each row's own class
#   is scored without one row: (n - u + alpha) / (D - u) for (n + alpha) / D, u = 1,
#   or the row's weight when it weighs less (so that a row of weight 3 is three rows
#   of weight 1, as sample weights are; exact from the counts; numbers' bins stay
#   those cut on all rows).
# - Value groups.  From _GROUPING_ROWS rows, the values of each categorical feature
#   are grouped as Khiops groups them (MODL, Boulle 2005: the partition of the values
#   whose class counts are the most probable a posteriori, by greedy merges, among
#   those on the merges' path), and a value's likelihood is its group's,
#   P(v | c) = P(g | c) P(v | g) (P(v | g) the same in every class), so that rare
#   values borrow their group's counts and a feature whose values all fall in one
#   group says nothing.  Measured on the benchmark's suites (docs/accuracy.md), both
#   lower the member's log loss on data of 100 rows or more; on smaller data MODL's
#   prior puts every value in one group, so the groups start from _GROUPING_ROWS.

_WEIGHT_ROWS = 5000        # rows the weights are learned on at most (a stratified sample)
_WEIGHT_PENALTY = 1.0      # lambda: a standard normal prior on each weight
_WEIGHT_MAX = 100.0        # the most a feature's evidence counts (separable data: w -> inf)
_WEIGHT_STEPS = 20         # Newton steps at most (a handful suffice: see _attribute_weights)
_WEIGHT_FULL_HESSIAN = 150  # features beyond which Newton steps use the Hessian's diagonal
_HESSIAN_WORK = 10 ** 7    # fewer rows (not below 500) when features^2 x classes x rows is more
_GROUPING_ROWS = 100       # training rows from which categorical values are grouped
_GROUPED_VALUES = 200      # values a feature may have to be grouped (values^3 / 6 steps)


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


def _cell_key(scorer, value):
    """The cell of a value in a categorical table or bins (None: missing)."""
    if value is None or _is_missing(value):
        return None
    if type(scorer) is _BinScorer:
        return bisect_left(scorer.cuts, _number(value))
    return value


def _cell_counts(scorers, training, k):
    """{feature: {cell: per-class weights}} of the training rows (values, class,
    weight, ...), for the categorical tables and bins among ``scorers`` ({feature:
    scorer})."""
    found = {}
    for j, scorer in scorers.items():
        if type(scorer) not in (_ValueTable, _BinScorer):
            continue
        cells = found[j] = {}
        for values, c, weight, _ in training:
            key = _cell_key(scorer, values[j] if j < len(values) else None)
            if key is not None:
                per = cells.get(key)
                if per is None:
                    per = cells[key] = [0.0] * k
                per[c] += weight
    return found


def _partition_logs(size):
    """[log B(size, i) for i = 0..size], B(V, i) the number of partitions of V values
    into at most i groups: the sum of the Stirling numbers of the second kind
    S(V, 1..i) (exact integers; log(B(V, 0)) = -inf)."""
    row = [1] + [0] * size                # S(n, i), n = 0
    for n in range(1, size + 1):
        row = [0] + [i * row[i] + row[i - 1] for i in range(1, n + 1)] + [0] * (size - n)
    logs, total = [-INF], 0
    for i in range(1, size + 1):
        total += row[i]
        logs.append(log(total))
    return logs


def _group_cost(counts):
    """A group's part of the MODL cost: log C(n + k - 1, k - 1) (its class
    distribution) + log(n! / prod_c n_c!) (its rows' classes given it), of its
    per-class weights n_c, n = sum_c n_c, k classes (lgamma: weights need not be
    whole)."""
    k = len(counts)
    return lgamma(sum(counts) + k) - lgamma(k) - sum(lgamma(n + 1.0) for n in counts)


def _modl_groups(cells, limit=_GROUPED_VALUES):
    """{value: group number} of one categorical feature's values, ``cells`` {value:
    per-class weights}, as MODL groups them.  A partition's cost is log V +
    log B(V, I) + the sum of its groups' _group_cost (minus the log of its prior and
    likelihood, up to a constant).  The values, in canonical order, start alone; the
    two groups whose merge lowers the cost most (the first pair of equal ones) merge,
    until one group is left; of the partitions on that path, the first of the lowest
    cost (as Khiops, without its post-optimisation).  None when the values are fewer
    than 2 or more than ``limit``.  A merge changes the cost by log B(V, I - 1) -
    log B(V, I) (the same for every pair) + the merged group's part - the two
    groups' parts, so the pairs' changes are kept and only the new group's are
    computed after a merge: values^2 group costs in all."""
    values = sorted(cells, key=_canonical)
    size = len(values)
    if size < 2 or size > limit:
        return None
    partition = _partition_logs(size)
    members = {g: [value] for g, value in enumerate(values)}
    counts = {g: cells[value] for g, value in enumerate(values)}
    parts = {g: _group_cost(counts[g]) for g in counts}
    changes = {(a, b): _group_cost(list(map(add, counts[a], counts[b]))) - parts[a] - parts[b]
               for a in range(size) for b in range(a + 1, size)}
    cost = sum(parts.values()) + partition[size]
    best, best_members = cost, list(members.values())
    fresh = size
    while len(members) > 1:
        change, pair = min((change, pair) for pair, change in changes.items())
        a, b = pair
        cost += change + partition[len(members) - 1] - partition[len(members)]
        merged = list(map(add, counts.pop(a), counts.pop(b)))
        joined = members.pop(a) + members.pop(b)
        del parts[a], parts[b]
        del changes[pair]
        for g in counts:
            del changes[(g, a) if g < a else (a, g)], changes[(g, b) if g < b else (b, g)]
        part = _group_cost(merged)
        for g in counts:
            changes[(g, fresh)] = _group_cost(list(map(add, counts[g], merged))) - \
                parts[g] - part
        members[fresh], counts[fresh], parts[fresh] = joined, merged, part
        fresh += 1
        if cost < best:
            best, best_members = cost, list(members.values())
    return {value: g for g, group in enumerate(best_members) for value in group}


def _grouped_table(scorer, cells, groups, alpha):
    """(the table, {value: its group's per-class weights}, {value: log P(v | g)}): a
    categorical table in which a value's log-likelihood is log P(g | c) + log P(v | g),
    each Lidstone-smoothed, P(g | c) = (n_gc + alpha) / (n_c + alpha I) over the I
    groups and P(v | g) = (n_v + alpha) / (n_g + alpha |g|) the same in every class;
    a value the table knows but no row holds, or one never seen: alpha / (n_c +
    alpha I), as an empty group."""
    size = max(groups.values()) + 1
    k = len(scorer.zeros)
    by_group = [[0.0] * k for _ in range(size)]
    values_in = [0] * size
    for value, g in groups.items():
        by_group[g] = list(map(add, by_group[g], cells[value]))
        values_in[g] += 1
    known = [sum(column) for column in zip(*by_group)]
    logs = [[log((n + alpha) / (total + alpha * size)) for n, total in zip(counts, known)]
            for counts in by_group]
    table = _ValueTable()
    table.fallback = tuple(log(alpha / (total + alpha * size)) for total in known)
    within = {}
    for value in scorer:
        g = groups.get(value)
        if g is None:
            if value is not None:
                table[value] = table.fallback
            continue
        within[value] = log((sum(cells[value]) + alpha) /
                            (sum(by_group[g]) + alpha * values_in[g]))
        table[value] = tuple(x + within[value] for x in logs[g])
    table[None] = table.zeros = scorer.zeros
    return table, {value: by_group[g] for value, g in groups.items()}, within


def _leave_one_out(column, cells, scorer, values, training, alpha, within=None):
    """Each training row's log-likelihood of its own class in ``column`` (per class,
    per row), scored with one row left out (u = min(1, the row's weight), the fourth
    of its ``training`` item): (n - u + alpha) / (D - u) in place of (n + alpha) / D,
    n the cell's count in that class (``cells``), D the table's denominator, found
    from its entry, so that the smoothing is the table's own; ``within``: a grouped
    table's log P(v | g), the same in every class (kept as it is)."""
    for i, value in enumerate(values):
        key = _cell_key(scorer, value)
        if key is None:
            continue
        _, c, _, unit = training[i]
        n = cells[key][c]
        offset = within[key] if within else 0.0
        top = n - unit + alpha
        bottom = (n + alpha) / exp(column[c][i] - offset) - unit
        if top > 0 and bottom > 0:
            column[c][i] = log(top / bottom) + offset


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
        # (values, class, weight, the weight left out of the tables when it is scored)
        training = [(values, classes.index(label), weight, number)
                    for label, counted in rows.row_counts.rows.items()
                    if label in classes
                    for values, (weight, number) in counted.items() if weight]
        number = sum(item[3] for item in training)
        # the rows' weights as floats; beyond the float range (weights near 1e308
        # add up to more) over the largest, as _attribute_weights scales them anyway,
        # and the rows then not left out of their tables (the counts are not floats)
        largest = max((weight for _, _, weight, _ in training), default=1)
        exact = largest <= _FLOAT_MAX_EXACT and params["alpha"] > 0
        if largest > _FLOAT_MAX_EXACT:
            from fractions import Fraction
            training = [(values, c, float(Fraction(weight) / largest), None)
                        for values, c, weight, _ in training]
        else:
            training = [(values, c, float(weight), min(1.0, float(weight)))
                        for values, c, weight, _ in training]
        training.sort(key=lambda item: (item[1], _row_sort_key(item[0])))
        used = [j for j, scorer in enumerate(base.scorers)
                if not isinstance(scorer, _NoEvidence)]
        cells = _cell_counts({j: base.scorers[j] for j in used}, training,
                             len(classes)) if exact else {}
        within = {}
        if number >= _GROUPING_ROWS:
            for j in cells:
                groups = type(base.scorers[j]) is _ValueTable and _modl_groups(cells[j])
                if groups:
                    base.scorers[j], cells[j], within[j] = _grouped_table(
                        base.scorers[j], cells[j], groups, params["alpha"])
        size = max(500, min(_WEIGHT_ROWS, _HESSIAN_WORK // max(1, len(used) ** 2
                                                               * len(classes))))
        if len(training) > size:
            kept = _stratified_sample([item[1] for item in training], size, 0)
            training = [training[n] for n in kept]
        columns = []
        for j in used:
            scorer = base.scorers[j]
            values = [values[j] if j < len(values) else None for values, _, _, _ in training]
            if type(scorer) is _BinScorer and _FLOAT.issuperset(map(type, values)) and \
                    all(map(isfinite, values)):    # scorer[x] by builtins: its bin's vector
                vectors = list(map(scorer.vectors.__getitem__,
                                   map(bisect_left, repeat(scorer.cuts), values)))
            else:
                vectors = list(map(scorer.__getitem__, values))
            column = [list(column) for column in zip(*vectors)] if vectors else \
                [[] for _ in classes]
            if j in cells:
                _leave_one_out(column, cells[j], scorer, values, training, params["alpha"],
                               within.get(j))
            columns.append(column)
        finite = all(isfinite(x) for x in base.log_prior) and all(
            isfinite(sum(column)) for per_class in columns for column in per_class)
        if start is not None:
            start = [start.get(self.names[j], 1.0) for j in used]
        learned = _attribute_weights(columns, base.log_prior,
                                     [c for _, c, _, _ in training],
                                     [v for _, _, v, _ in training], steps=steps,
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
        return _summed_joint(vectors)

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


# -- Correlated numbers: one multivariate Student t per class ------------------------
#
# Naive Bayes multiplies one density per number, as if the numbers of a class were
# independent; where they move together (a crab's five measures, which all grow
# with its size) it counts the same evidence five times and misses what their
# ratios say.  The complete conditional Gaussian network (Perez, Larranaga and Inza
# 2006, "Supervised classification with conditional Gaussian networks: increasing
# the structure complexity from naive Bayes") keeps every correlation: the numbers
# of class c are multivariate normal, mean mu_c and covariance Sigma_c.  Here
# both are unknown and get the conjugate normal-inverse-Wishart prior, so that
# P(x | c) is the posterior predictive, a multivariate Student t (Bayesian QDA:
# Srivastava, Gupta and Frigyik 2007):
#
#   prior:      mu0 the mean of all the rows, kappa0 = 1;  Psi0 = m Sigma0,
#               nu0 = d + 1 + m, so that E[Sigma_c] = Sigma0 (worth m rows, m = d);
#               Sigma0 the pooled within-class covariance, its off-diagonal
#               entries shrunk by gamma = d / (d + N) towards 0
#   posterior:  kappa = 1 + n_c, nu = nu0 + n_c, mu = (mu0 + n_c xbar_c) / kappa,
#               Psi = Psi0 + n_c S_c + (n_c / kappa) (xbar_c - mu0)(xbar_c - mu0)'
#   P(x | c) =  t_dof(x; mu, Psi (kappa + 1) / (kappa dof)),  dof = nu - d + 1
#
# (d numbers, N rows, n_c of class c, S_c their covariance).  With few rows per
# number a class's covariance stays near the pooled one (linear discriminant
# analysis); with many it is the class's own (quadratic).  A missing number is
# marginalised out (a t's marginal is the t of the sub-block, same dof), so it is no
# evidence; the features that are not numbers are naive Bayes' (as the weighted
# member's).  A number that is never negative and skewed to the right (incomes,
# counts, durations: a skewness above 1, and less after) is read as log(1 + x), whose
# bell is nearer its shape; the factor 1 / (1 + x) of that change is the same for
# every class, so the posterior needs no more.  A number that the numbers before it
# in the row determine, the same way in every class (a charge computed from minutes:
# a residual variance within the classes within 1e-4 of its variance of 0, and the
# class means as near the relation) is read as missing: in the direction it adds,
# the prior's shrunk covariance outweighs the data's, by a share that differs with
# each class's rows, and would be evidence for the larger class where there is none.
# A number that the others fix within each class but shifted by the class is evidence
# itself, and kept; with the numbers that determine it missing, it is evidence again.  The statistics are sums per class (weights, first and second moments
# about a fixed centre, pairwise where values are missing): a fold's are all the
# rows' less its own, which is how AutoBayes cross-validates the member.

_NUMBER_KINDS = frozenset(("discretized", "gaussian", "kde"))
_CORRELATED_PATTERNS = 256        # missing-value patterns whose factors are kept
# A number whose variance within the classes the numbers before it in the row explain
# but for this fraction, and the same way in every class, is left out of the t (read
# as missing: see _determined_numbers)
_DETERMINED = 1e-4
_LOG_PI = log(math.pi)


def _lgamma_step(a, h):
    """lgamma(a + h) - lgamma(a), without the cancellation of two huge lgammas when
    a is (a t of rows weighing 1e300 has that many degrees of freedom)."""
    if a < 1e7:
        return lgamma(a + h) - lgamma(a)
    return h * log(a) + h * (h - 1.0) / (2.0 * a)


def _number_positions(statistics):
    """The positions of the features whose values are numbers (discretized,
    gaussian or kde) in the statistics' order."""
    return [j for j, feature in enumerate(statistics.features.values())
            if feature.name in _NUMBER_KINDS]


def _logged_numbers(items):
    """The positions (among the numbers of items (label, [number or None], weight))
    to read as log(1 + x): those whose known values are never negative, take at
    least 3 values, and have a weighted skewness above 1 that log(1 + x) lowers
    (in absolute value)."""
    logged = []
    for j in range(len(items[0][1]) if items else 0):
        known = [(x[j], float(w)) for _, x, w in items if x[j] is not None and w]
        if not known or min(v for v, _ in known) < 0 or len({v for v, _ in known}) < 3:
            continue
        skew = _skewness(known)
        if skew > 1.0 and abs(_skewness([(math.log1p(v), w) for v, w in known])) < skew:
            logged.append(j)
    return logged


def _skewness(known):
    """The weighted skewness of [(value, weight)] (0 without spread).  When a cube
    times the weights could leave the float range, values and weights are first
    divided by powers of 2 (exactly; the skewness does not change)."""
    largest = max((abs(v) for v, _ in known), default=0.0)
    weights = fsum(w for _, w in known)
    if largest and weights and 3 * frexp(largest)[1] + frexp(weights)[1] > 960:
        value_scale = 2.0 ** -math.frexp(largest)[1]
        weight_scale = 2.0 ** -math.frexp(weights)[1]
        known = [(v * value_scale, w * weight_scale) for v, w in known]
    total = fsum(w for _, w in known)
    mean = fsum(v * w for v, w in known) / total
    second = fsum((v - mean) ** 2 * w for v, w in known) / total
    third = fsum((v - mean) ** 3 * w for v, w in known) / total
    return third / second ** 1.5 if second > 0 else 0.0


def _logged_items(items, logged):
    """items with the numbers at positions ``logged`` read as log(1 + x)."""
    if not logged:
        return items
    out = []
    for label, numbers, weight in items:
        numbers = list(numbers)
        for j in logged:
            if numbers[j] is not None:
                numbers[j] = math.log1p(max(numbers[j], 0.0))
        out.append((label, numbers, weight))
    return out


# The correlated and tree members read a number beyond +-_NUMBER_BOUND as the bound:
# the correlated member's sums of squares and products then stay in the float range
_NUMBER_BOUND = 1e100


def _plain_number(value):
    """A finite number as a float, within +-_NUMBER_BOUND; None for a missing,
    infinite or odd value (in training the rows were checked; at prediction
    _CorrelatedModel asks naive Bayes' scorer what is odd about a value first)."""
    if value is None or type(value) is str:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if -_NUMBER_BOUND <= value <= _NUMBER_BOUND:
        return value
    return None if value != value or value in (INF, -INF) else \
        _NUMBER_BOUND if value > 0 else -_NUMBER_BOUND


def _number_moments(items, centres=None, largest=None):
    """(centres, {label: [n, per-number known weight, first sums, lower triangle of
    second sums, pairwise part or None]}) of items
    (label, [number or None], weight), about ``centres`` ({label: [value]}; None:
    each class's weighted means of these items).  The pairwise part, when some
    number is missing: per number j, the weights of the rows where j and k are
    both known (k <= j), then the first sums of j over the rows where k is known
    (every k), so that a covariance is that of the rows where both are known,
    about their own means, whatever the centres.  Weights beyond 1e100 (``largest``:
    the largest of all the rows', this part's when None) count over the largest,
    so that their sums stay in the float range."""
    if largest is None:
        largest = max((weight for _, _, weight in items), default=1)
    by_class = {}
    for label, numbers, weight in items:
        if weight:
            weight = float(weight / largest) if largest > 1e100 else float(weight)
            by_class.setdefault(label, []).append((numbers, weight))
    if centres is None:
        centres = {}
        for label, found in by_class.items():
            centre = []
            for j in range(len(found[0][0])):
                known = [(x[j], w) for x, w in found if x[j] is not None]
                total = fsum(w for _, w in known)
                centre.append(fsum(v * w for v, w in known) / total if total else 0.0)
            centres[label] = centre
    moments = {}
    for label, found in by_class.items():
        centre = centres.get(label) or [0.0] * len(found[0][0])
        w = [weight for _, weight in found]
        columns, weighted, known = [], [], []
        gaps = False
        for j, c in enumerate(centre):
            column = [0.0 if x[j] is None else x[j] - c for x, _ in found]
            columns.append(column)
            weighted.append(list(map(mul, w, column)))
            mask = [0.0 if x[j] is None else 1.0 for x, _ in found]
            gaps = gaps or 0.0 in mask
            known.append(mask)
        n = fsum(w)
        first = [fsum(column) for column in weighted]
        second = [[fsum(map(mul, weighted[j], columns[k])) for k in range(j + 1)]
                  for j in range(len(centre))]
        if gaps:                          # per pair of numbers both known: weights
            masks = [list(map(mul, w, mask)) for mask in known]   # and first sums
            pairs = [[fsum(map(mul, masks[j], known[k])) for k in range(j + 1)] +
                     [fsum(map(mul, weighted[j], known[k])) for k in range(len(centre))]
                     for j in range(len(centre))]
            each = [row[j] for j, row in enumerate(pairs)]
        else:
            pairs, each = None, [n] * len(centre)
        moments[label] = [n, each, first, second, pairs]
    return centres, moments


def _pairs_of(n, first):
    """The pairwise part of _number_moments when every number is known: per number
    j, the weights of the pairs (k <= j), n each, then the first sums of j over the
    rows where k is known (every k), its first sum."""
    return [[n] * (j + 1) + [s] * len(first) for j, s in enumerate(first)]


def _moments_less(whole, part):
    """The moments of all the rows less a part's (_number_moments about the same
    centres): a fold's training set."""
    out = {}
    for label, (n, each, first, second, pairs) in whole.items():
        found = part.get(label)
        if found is None:
            out[label] = [n, each, first, second, pairs]
            continue
        n2, each2, first2, second2, pairs2 = found
        if pairs is None and pairs2 is None:
            less_pairs = None
        else:
            full = _pairs_of(n, first) if pairs is None else pairs
            full2 = _pairs_of(n2, first2) if pairs2 is None else pairs2
            less_pairs = [list(map(sub, a, b)) for a, b in zip(full, full2)]
        out[label] = [n - n2, list(map(sub, each, each2)), list(map(sub, first, first2)),
                      [list(map(sub, a, b)) for a, b in zip(second, second2)], less_pairs]
    return out


def _cholesky(matrix):
    """The lower-triangular L of L L' = matrix (lists of rows), or None when the
    matrix is not positive definite."""
    size = len(matrix)
    lower = [[0.0] * size for _ in range(size)]
    for i in range(size):
        row = lower[i]
        for j in range(i + 1):
            other = lower[j]
            s = matrix[i][j] - fsum(map(mul, row[:j], other[:j]))
            if i == j:
                if not s > 0:
                    return None
                row[i] = sqrt(s)
            else:
                row[j] = s / other[j]
    return lower


def _inverse_lower(lower):
    """The inverse of a lower-triangular matrix, as the rows of its lower triangle."""
    size = len(lower)
    inverse = []
    for i in range(size):
        row = [0.0] * (i + 1)
        row[i] = 1.0 / lower[i][i]
        for j in range(i):
            row[j] = -fsum(lower[i][k] * inverse[k][j] for k in range(j, i)) / lower[i][i]
        inverse.append(row)
    return inverse


def _determined_numbers(pooled, gaps, ratio):
    """The positions of the numbers that the numbers before them determine, the same
    way in every class: the residual variance of their regression on those, within
    the classes (``pooled``, by an incremental Cholesky factor), within ratio times
    the number's variance of 0, and the class means (``gaps``: (share, mean less the
    overall mean) per class) no further off that regression than the rows are, so
    that a number that the others fix within each class but shifted by the class is
    kept (it is evidence).  A number with no variance is kept (the floor takes it);
    so is one whose residual is below that (a covariance of pairwise-complete rows
    that is not positive definite: no sign of a determined number).  Neither, nor a
    shifted one, is a regressor of the numbers after it: it adds no direction within
    the classes."""
    kept, lower, determined = [], [], set()
    for j, row in enumerate(pooled):
        variance = row[j]
        if not variance > 0:
            continue
        w = []
        for i, k in enumerate(kept):      # solve lower w = pooled[kept][j]
            w.append((pooled[k][j] - fsum(map(mul, lower[i][:i], w))) / lower[i][i])
        residual = variance - fsum(map(mul, w, w))
        if abs(residual) <= ratio * variance:
            beta = [0.0] * len(kept)      # the regression: solve lower' beta = w
            for i in reversed(range(len(kept))):
                beta[i] = (w[i] - fsum(lower[l][i] * beta[l]
                                       for l in range(i + 1, len(kept)))) / lower[i][i]
            off = fsum(share * (gap[j] - fsum(b * gap[k] for b, k in zip(beta, kept))) ** 2
                       for share, gap in gaps)
            if off <= max(residual, 0.0) + 1e-12 * variance:
                determined.add(j)
        elif residual > 0:
            kept.append(j)
            lower.append(w + [sqrt(residual)])
    return frozenset(determined)


def _on_naive_base(member, rows, params):
    """An AutoBayes member built on naive Bayes (on MDL bins) compiled from a
    network's rows, which reads, checks and explains the rows for it: member.base,
    and its classes, names, width, zeros and positional."""
    member.base = base = _NaiveStatistics.compile(rows, params)
    member.classes, member.names, member.width = base.classes, base.names, base.width
    member.zeros = base.zeros
    member.positional = base.positional


class _CorrelatedModel:
    """An AutoBayes member ("correlated"): naive Bayes (on MDL bins, as the weighted
    member's tables) for the features that are not numbers, and for the numbers
    one multivariate Student t per class (see the comment above), compiled from
    the distinct rows a network's statistics keep, or from the moments, number
    positions and the positions among them read as log(1 + x) given (AutoBayes'
    internal cross-validation)."""

    def __init__(self, rows, params, moments=None, numbers=None, logged=None):
        _on_naive_base(self, rows, params)
        if numbers is None:
            numbers = _number_positions(rows)
        self.numbers = numbers
        if moments is None:
            items = [(label, [_plain_number(values[j]) if j < len(values) else None
                              for j in numbers], weight)
                     for label, counted in rows.row_counts.rows.items()
                     for values, (weight, _) in counted.items()]
            items.sort(key=lambda item: (_canonical_value(item[0]),
                                         [(x is None, x) for x in item[1]]))
            logged = _logged_numbers(items)
            moments = _number_moments(_logged_items(items, logged))
        self.logged = frozenset(logged or ())
        self._compile(*moments)
        self.patterns, self.undetermined = {}, {}

    def _compile(self, centres, moments):
        """Each class's t: self.means, self.scales (scale matrices), self.dofs.  With
        missing values each entry counts the rows that know it: a number's mean and
        the mean of all the rows weigh the rows where it is known (n_j), a pair's
        covariance the rows where both are (n_jk), in the scale matrix's entry
        (m Sigma0_jk + n_jk S_jk + n_jk / (1 + n_jk) gap_j gap_k) g(n_jj, n_kk),
        g the geometric mean of (2 + n) / ((1 + n) (m + 2 + n)) for the two numbers,
        so that a number a class never shows gets the prior's wide bell there, and
        complete rows give the formulas above exactly."""
        d = len(self.numbers)
        classes = self.classes
        means, covariances, counts, knowns, pairs_known = {}, {}, {}, {}, {}
        for label in classes:
            found = moments.get(label)
            if found is None or found[0] <= 0 or not d:
                continue
            n, each, first, second, pairs = found
            centre = centres[label]
            shift = [s / k if k > 0 else 0.0 for s, k in zip(first, each)]
            means[label] = [c + s for c, s in zip(centre, shift)]
            matrix = [[0.0] * d for _ in range(d)]
            weights = [[n] * d for _ in range(d)]
            for j in range(d):
                for k in range(j + 1):
                    if pairs is None:
                        known, a, b = n, shift[j], shift[k]
                    else:                 # about the mean of the rows where both are
                        known = pairs[j][k]
                        a = pairs[j][j + 1 + k] / known if known > 0 else 0.0
                        b = pairs[k][k + 1 + j] / known if known > 0 else 0.0
                    value = second[j][k] / known - a * b if known > 0 else 0.0
                    matrix[j][k] = matrix[k][j] = value
                    weights[j][k] = weights[k][j] = max(known, 0.0)
                if matrix[j][j] < 0:
                    matrix[j][j] = 0.0
            covariances[label], counts[label] = matrix, n
            knowns[label], pairs_known[label] = [weights[j][j] for j in range(d)], weights
        self.means, self.scales, self.dofs = {}, {}, {}
        self.determined, self.pooled, self.gaps = frozenset(), None, ()
        total = fsum(counts.values())
        if not counts or not total > 0:
            return

        def pooled_over(value, weight):
            """The weighted mean over the classes, 0.0 when no class weighs."""
            weights = [weight(c) for c in counts]
            return fsum(w * value(c) for c, w in zip(counts, weights)) / fsum(weights) \
                if fsum(weights) > 0 else 0.0
        pooled = [[pooled_over(lambda c: covariances[c][j][k],
                               lambda c: pairs_known[c][j][k]) for k in range(d)]
                  for j in range(d)]
        overall = [pooled_over(lambda c: means[c][j], lambda c: knowns[c][j])
                   for j in range(d)]
        diagonal = [pooled[j][j] for j in range(d)]
        floor = max(1e-9 * max(diagonal), 1e-300) if max(diagonal) > 0 else 1.0
        shrink = 1.0 - d / (d + total)
        prior = [[max(diagonal[j], floor) if j == k else shrink * pooled[j][k]
                  for k in range(d)] for j in range(d)]
        self.pooled = pooled
        self.gaps = [(counts[c] / total, [x - o for x, o in zip(means[c], overall)])
                     for c in counts]
        self.determined = _determined_numbers(pooled, self.gaps, _DETERMINED)
        m = float(d)
        for label in counts:
            n, mean, known, weights = counts[label], means[label], knowns[label], \
                pairs_known[label]
            centre = [(o + k * x) / (1.0 + k) for o, x, k in zip(overall, mean, known)]
            gap = [x - o if k > 0 else 0.0 for x, o, k in zip(mean, overall, known)]
            factor = [sqrt((2.0 + k) / ((1.0 + k) * (m + 2.0 + k))) for k in known]
            covariance = covariances[label]
            matrix = [[(m * prior[j][k] + weights[j][k] * covariance[j][k] +
                        weights[j][k] / (1.0 + weights[j][k]) * gap[j] * gap[k]) *
                       factor[j] * factor[k] for k in range(d)] for j in range(d)]
            self.means[label], self.scales[label] = centre, matrix
            self.dofs[label] = m + 2.0 + n

    def _undetermined(self, observed):
        """The indices into observed (positions among self.numbers) of the numbers
        that the others observed before them do not determine (_determined_numbers):
        a number whose determiners are missing from the row is evidence again."""
        found = self.undetermined.get(observed)
        if found is None:
            dropped = _determined_numbers(
                [[self.pooled[j][k] for k in observed] for j in observed],
                [(share, [gap[j] for j in observed]) for share, gap in self.gaps],
                _DETERMINED)
            found = tuple(i for i in range(len(observed)) if i not in dropped)
            if len(self.undetermined) < _CORRELATED_PATTERNS:
                self.undetermined[observed] = found
        return found

    def _factors(self, observed):
        """Per class (mean, inverse of the Cholesky factor, its log-determinant part,
        dof) of the numbers observed (positions among self.numbers), or None for
        a class without numbers."""
        found = self.patterns.get(observed)
        if found is not None:
            return found
        factors = []
        for label in self.classes:
            matrix = self.scales.get(label)
            if matrix is None:
                factors.append(None)
                continue
            sub = [[matrix[j][k] for k in observed] for j in observed]
            lower = _cholesky(sub)
            jitter = 1e-10
            while lower is None and jitter < 1e10:
                scale = max(sub[j][j] for j in range(len(sub))) or 1.0
                lower = _cholesky([[v + (jitter * scale if j == k else 0.0)
                                    for k, v in enumerate(row)] for j, row in enumerate(sub)])
                jitter *= 100.0
            if lower is None:
                factors.append(None)
                continue
            mean = self.means[label]
            factors.append(([mean[j] for j in observed], _inverse_lower(lower),
                            fsum(log(lower[i][i]) for i in range(len(observed))),
                            self.dofs[label]))
        if len(self.patterns) < _CORRELATED_PATTERNS:
            self.patterns[observed] = factors
        return factors

    def _numbers_joint(self, row):
        """Per class, log P(the row's numbers | c): the t of those known (0 when
        none is)."""
        observed, values = [], []
        for position, j in enumerate(self.numbers):
            value = row[j] if j < len(row) else None
            if value is not None and (type(value) is not float and type(value) is not int
                                      or value - value != 0):
                if not _is_missing(value):
                    try:                  # what the naive scorer says of an odd value
                        self.base.scorers[j][value]
                    except (_BadValue, TypeError) as error:
                        raise _value_error(self.names[j], value, error) from None
            value = _plain_number(value)
            if value is not None:
                if position in self.logged:
                    value = math.log1p(max(value, 0.0))
                observed.append(position)
                values.append(value)
        if self.pooled is not None:
            kept = self._undetermined(tuple(observed))
            if len(kept) < len(observed):
                values = [values[i] for i in kept]
                observed = [observed[i] for i in kept]
        if not values:
            return self.zeros
        p = len(values)
        joint = []
        for factor in self._factors(tuple(observed)):
            if factor is None:
                joint.append(0.0)
                continue
            mean, inverse, half_log_det, dof = factor
            residual = [x - u for x, u in zip(values, mean)]
            q = sum([z * z for z in [sum(map(mul, row, residual)) for row in inverse]])
            if not q < INF:               # beyond the float range: density 0
                joint.append(-INF)
                continue
            joint.append(_lgamma_step(dof / 2.0, p / 2.0) -
                         p / 2.0 * (log(dof) + _LOG_PI) - half_log_det -
                         (dof + p) / 2.0 * math.log1p(q / dof))
        return joint

    def joint(self, row):
        """Per class, log P(c) + naive Bayes' terms of the features that are not
        numbers + log P(numbers | c)."""
        vectors = [self.base.log_prior, self._numbers_joint(row)]
        numbers = set(self.numbers)
        for j, (name, scorer, value) in enumerate(zip(self.names, self.base.scorers, row)):
            if j in numbers:
                continue
            try:
                vectors.append(scorer[value])
            except (_BadValue, TypeError) as error:
                raise _value_error(name, value, error) from None
        return _summed_joint(vectors)

    def joints(self, rows):
        """Joint log-likelihoods of many rows."""
        return list(map(self.joint, rows))

    def explain(self, row, extra=()):
        """Naive Bayes' parts for the features that are not numbers; for the numbers,
        the chain rule in column order: each number's part is log P(x_1..x_j | c) -
        log P(x_1..x_j-1 | c) (0 for a missing one), so that the parts add up."""
        parts = self.base.explain(row, extra)
        numbers = set(self.numbers)
        known = list(row) + [None] * (self.width - len(row))
        partial_row = [None] * self.width
        last = list(self.zeros)
        for j, entry in enumerate(parts["features"][:self.width]):
            if j not in numbers:
                continue
            entry.pop("interval", None)
            if _plain_number(known[j]) is None:
                entry["log_likelihood"] = dict(zip(self.classes, self.zeros))
                continue
            partial_row[j] = known[j]
            now = self._numbers_joint(partial_row)
            entry["log_likelihood"] = dict(zip(self.classes, map(sub, now, last)))
            last = now
        return parts

    def informative(self):
        """Naive Bayes' ranking of the features that are not numbers."""
        numbers = {self.names[j] for j in self.numbers}
        return [item for item in self.base.informative() if item[0] not in numbers]

    def tables(self):
        """Naive Bayes' tables of the features that are not numbers; for each number
        its mean and scale per class (the t's, the square root of its scale matrix's
        diagonal entry; of log(1 + x) when it is read so)."""
        tables = self.base.tables()
        for position, j in enumerate(self.numbers):
            name = self.names[j]
            tables[name] = {"kind": "correlated", "log(1 + x)": position in self.logged,
                            "mean": {c: self.means[c][position] for c in self.means},
                            "scale": {c: sqrt(self.scales[c][position][position])
                                      for c in self.scales}}
        return tables

    def naive_tables(self):
        """The naive Bayes tables (the pictures draw them)."""
        return self.base.tables()

    def summary_items(self):
        """{"correlated numbers": their names, "read as log(1 + x)": those read so,
        "determined by the others": those left out of the t}."""
        return {"correlated numbers": [self.names[j] for j in self.numbers],
                "read as log(1 + x)": [self.names[self.numbers[p]]
                                       for p in sorted(self.logged)],
                "determined by the others": [self.names[self.numbers[p]]
                                             for p in sorted(self.determined)]}


# -- The tree member: one classification tree, its leaves smoothed -----------------
#
# Naive Bayes and its networks add up evidence one feature (or one small family) at a
# time; a rule such as "churn when the day's, evening's and night's charges together
# pass 75" or "when a fourth call to customer service comes with few minutes" is an
# interaction no member holds.  A classification tree holds it, and the mixture
# weighs it by what the held-out rows say (near 0 where the others know better).
#
# Grown best first on the rows a network's statistics keep (every distinct row with
# its weight, which counts as that many rows): the split of a
# leaf is the test, "x_j < t" for a number (t among at most _TREE_CUTS weighted
# quantiles of its values, midway between two values) or "x_j = v" for a category,
# that most raises the log-likelihood of the leaf's rows that know x_j,
# G = f(parent) - f(left) - f(right) with f(n) = n log n - sum_c n_c log n_c; the
# leaf of the largest G is split next, while G passes (k - 1)/2 log N + log(tests
# of the feature) (a BIC penalty: a split's k - 1 parameters and its choice among
# the tests), each side keeps at least _TREE_MIN_LEAF rows' weight, and there are
# fewer than _TREE_LEAVES leaves.  Equal gains go to the earlier leaf, feature and
# test, the rows being taken in a canonical order of their values (the same rows
# give the same tree, however they came).
#
# Missing values are not evidence (C4.5): a row that lacks the tested value goes
# down both sides, its weight shared as the rows that know it are, in training
# and at prediction, so a row with nothing known gets the tree's mean leaf: the
# prior's estimate.  A node's P(c) is (n_c + m P_parent(c)) / (n + m), m =
# _TREE_SMOOTHING, from the root's Laplace (n_c + 1) / (n + k).

_TREE_LEAVES = 16          # leaves at most
_TREE_MIN_LEAF = 10.0      # rows' weight each side of a split keeps at least
_TREE_CUTS = 32            # thresholds a number is tested at, at most
_TREE_SMOOTHING = 2.0      # pseudo-rows of the parent's P(c) in a node's


def _entropy_mass(counts):
    """n log n - sum_c n_c log n_c of per-class weights (n their sum): n times the
    entropy of their distribution, in nats."""
    total = sum(counts)
    if total <= 0:
        return 0.0
    return total * log(total) - sum([n * log(n) for n in counts if n > 0])


def _tree_thresholds(known):
    """The thresholds a number is tested at: midway between consecutive distinct
    values of ``known`` ([(value, weight)]), at most _TREE_CUTS of them, at the
    weighted quantiles i / (_TREE_CUTS + 1) when there are more."""
    weights = defaultdict(float)
    for value, weight in known:
        weights[value] += weight
    values = sorted(weights)
    gaps = list(range(len(values) - 1))   # a threshold after values[i]
    if len(gaps) > _TREE_CUTS:
        total = fsum(weights.values())
        cumulative = list(accumulate(weights[v] for v in values))
        chosen = []
        for i in range(1, _TREE_CUTS + 1):
            at = min(bisect_left(cumulative, total * i / (_TREE_CUTS + 1)), len(gaps) - 1)
            if not chosen or at > chosen[-1]:
                chosen.append(at)
        gaps = chosen
    return [_midway(values[i], values[i + 1]) for i in gaps]


def _midway(a, b):
    """The number halfway between a < b (a / 2 + b / 2 when b - a overflows)."""
    gap = b - a
    return a + gap / 2.0 if isfinite(gap) else a / 2.0 + b / 2.0


def _tree_weights(items):
    """The weights of items [(class, values, weight, rows)]: a row of weight w counts
    as w rows, as everywhere; divided by the largest when their sum would overflow."""
    weights = [float(item[2]) for item in items]
    if isfinite(fsum(weights) * 1e3):      # (and n log n of their sum)
        return weights
    largest = max(weights)
    return [w / largest for w in weights]


def _tree_smoothed(counts, parent):
    """A node's P(c) from its per-class weights: (n_c + 1) / (n + k) at the root
    (``parent`` None), else (n_c + m P_parent(c)) / (n + m), m = _TREE_SMOOTHING."""
    n = fsum(counts)
    if parent is None:
        return [(x + 1.0) / (n + len(counts)) for x in counts]
    return [(x + _TREE_SMOOTHING * p) / (n + _TREE_SMOOTHING) for x, p in zip(counts, parent)]


class _TreeModel:
    """An AutoBayes member ("tree"): one classification tree (see the comment above),
    grown on the distinct rows a network's statistics keep, or on ``items`` given
    ([(label, positional values, weight, rows)], in an order of their values alone)
    with the positions of the numbers among them (AutoBayes' internal
    cross-validation, whose statistics hold bins);
    naive Bayes (on MDL bins) reads and checks the rows, and explains them.  With
    ``splits`` (the nodes of a tree grown on all the rows: leave-one-out), the
    splits are kept, their shares and P(c) the items'."""

    def __init__(self, rows, params, items=None, numbers=None, splits=None):
        _on_naive_base(self, rows, params)
        if numbers is None:
            numbers = _number_positions(rows)
        numbers = set(numbers)
        self.kinds = kinds = [
            "number" if j in numbers else
            "categorical" if feature.name == "categorical" else None
            for j, feature in enumerate(rows.features.values())]
        canonical = items is not None     # (AutoBayes' folds: in _cv_rows' order)
        if items is None:
            items = [(label, values, weight, count)
                     for label, counted in rows.row_counts.rows.items()
                     for values, (weight, count) in counted.items()]
        index = {label: c for c, label in enumerate(self.classes)}
        width = len(kinds)
        items = [(index[label], tuple(values) + (None,) * (width - len(values)), weight,
                  count) for label, values, weight, count in items
                 if label in index and weight > 0]
        if not canonical:                 # the same rows, the same tree
            items.sort(key=lambda item: (item[0], tuple(map(_canonical_value, item[1]))))
        self.nodes = self._grow(items) if splits is None else self._refitted(items, splits)
        self.memory = _ROW_BYTES * len(self.nodes)

    def _grow(self, items):
        """The tree's nodes, the root first: a leaf is (None, [P(c)]), a split
        (feature position, test, left node, right node, the left side's share of
        the rows that know the value), the test a threshold (a number's side is
        "x < t") or a category (its side "x = v")."""
        k = len(self.classes)
        labels = [item[0] for item in items]
        if not items:
            return [(None, [1.0 / k] * k)]
        weights = _tree_weights(items)
        rows = fsum(weights)
        columns = []                      # per feature: (tests, code of every row)
        for j, kind in enumerate(self.kinds):
            values = [item[1][j] for item in items]
            if kind == "number":
                numbers = [_plain_number(v) for v in values]
                tests = _tree_thresholds([(x, w) for x, w in zip(numbers, weights)
                                          if x is not None])
                codes = [None if x is None else bisect_right(tests, x) for x in numbers]
            elif kind == "categorical":
                # a category is a value as naive Bayes' tables key it (1 and True
                # alike), its tests in the canonical order of the values
                found = {}
                for v in values:
                    if not _is_missing(v):
                        found.setdefault(v, v)
                tests = sorted(found, key=_canonical_value)
                at = {v: i for i, v in enumerate(tests)}
                codes = [None if _is_missing(v) else at[v] for v in values]
            else:
                tests, codes = [], []
            # each row's cell of the feature's histogram: its bin (the last one
            # for a missing value) times k plus its class
            bins = len(tests) + 1 if kind == "number" else len(tests)
            cells = [(bins if code is None else code) * k + c
                     for code, c in zip(codes, labels)] if tests else []
            columns.append((tests, codes, bins, cells))
        log_rows = log(max(rows, 1.0))

        def best_split(members):
            """(gain less penalty, feature, test index, left share) of the best
            split of a leaf's members ([row], [weight]), or None."""
            best = None
            rows, weights = members
            for j, (tests, _, bins, cells) in enumerate(columns):
                if not tests:
                    continue
                number = self.kinds[j] == "number"
                flat = [0.0] * ((bins + 1) * k)
                for cell, w in zip(map(cells.__getitem__, rows), weights):
                    flat[cell] += w
                hist = [flat[b * k:b * k + k] for b in range(bins)]
                known = [fsum(column) for column in zip(*hist)]
                known_total = fsum(known)
                if known_total < 2 * _TREE_MIN_LEAF:
                    continue
                whole = _entropy_mass(known)
                penalty = (k - 1) / 2.0 * log_rows + log(len(tests))
                if number:
                    left = [0.0] * k
                    sides = []
                    for b in range(bins - 1):
                        left = [a + n for a, n in zip(left, hist[b])]
                        sides.append((b, left))
                else:
                    sides = [(b, hist[b]) for b in range(bins)]
                for b, side in sides:
                    weight = fsum(side)
                    if weight < _TREE_MIN_LEAF or known_total - weight < _TREE_MIN_LEAF:
                        continue
                    other = [n - s for n, s in zip(known, side)]
                    gain = whole - _entropy_mass(side) - _entropy_mass(other) - penalty
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, j, b, weight / known_total)
            return best

        def distribution(members, parent):
            counts = [0.0] * k
            for i, w in zip(*members):
                counts[labels[i]] += w
            return _tree_smoothed(counts, parent)

        root = (list(range(len(items))), weights)
        nodes = [None]
        # open leaves: [node index, members, P(c), best split]
        leaves = [[0, root, distribution(root, None), best_split(root)]]
        while len(leaves) < _TREE_LEAVES:
            splittable = [leaf for leaf in leaves if leaf[3] is not None]
            if not splittable:
                break
            leaf = max(splittable, key=lambda leaf: leaf[3][0])  # the first of equals
            leaves.remove(leaf)
            at, members, probabilities, (_, j, b, share) = leaf
            tests, codes, _, _ = columns[j]
            number = self.kinds[j] == "number"
            left, right = ([], []), ([], [])
            for i, w in zip(*members):
                code = codes[i]
                if code is None:
                    left[0].append(i)
                    left[1].append(w * share)
                    right[0].append(i)
                    right[1].append(w * (1.0 - share))
                else:
                    side = left if ((code <= b) if number else (code == b)) else right
                    side[0].append(i)
                    side[1].append(w)
            sides = []
            for part in (left, right):
                nodes.append(None)
                sides.append(len(nodes) - 1)
                found = distribution(part, probabilities)
                leaves.append([len(nodes) - 1, part, found, best_split(part)])
            nodes[at] = (j, tests[b], sides[0], sides[1], share)
        for at, _, probabilities, _ in leaves:
            nodes[at] = (None, probabilities)
        return nodes

    def _refitted(self, items, splits):
        """The tree of ``splits`` (nodes as _grow makes them) with each split's share
        and each node's P(c) those of ``items``."""
        k = len(self.classes)
        nodes = [None] * len(splits)
        stack = [(0, list(zip(items, _tree_weights(items))) if items else [], None)]
        while stack:
            at, members, parent = stack.pop()
            counts = [0.0] * k
            for item, w in members:
                counts[item[0]] += w
            probabilities = _tree_smoothed(counts, parent)
            node = splits[at]
            if node[0] is None:
                nodes[at] = (None, probabilities)
                continue
            j, test, left, right, share = node
            lefts, rights, lacking = [], [], []
            for item, w in members:
                side = self._side(j, test, item[1][j])
                (lacking if side is None else lefts if side else rights).append((item, w))
            known_left = fsum(w for _, w in lefts)
            known = known_left + fsum(w for _, w in rights)
            if known > 0:
                share = known_left / known
            lefts += [(item, w * share) for item, w in lacking]
            rights += [(item, w * (1.0 - share)) for item, w in lacking]
            nodes[at] = (j, test, left, right, share)
            stack.append((left, lefts, probabilities))
            stack.append((right, rights, probabilities))
        return nodes

    def _side(self, j, test, value):
        """True for the left side of feature j's split at ``test`` (x < t, x = v),
        False for the right, None for a value missing."""
        if self.kinds[j] == "number":
            x = _plain_number(value)
            return None if x is None else x < test
        return None if value is None or _is_missing(value) else value == test

    def probabilities(self, row):
        """P(c | x) of a positional row: its leaves' P(c), each weighed by the share
        of the row that reaches it (a missing value sends it down both sides)."""
        k = len(self.classes)
        out = [0.0] * k
        stack = [(0, 1.0)]
        nodes = self.nodes
        while stack:
            at, share = stack.pop()
            node = nodes[at]
            if node[0] is None:
                for c, p in enumerate(node[1]):
                    out[c] += share * p
                continue
            j, test, left, right, left_share = node
            side = self._side(j, test, row[j] if j < len(row) else None)
            if side is None:
                stack.append((left, share * left_share))
                stack.append((right, share * (1.0 - left_share)))
            else:
                stack.append((left if side else right, share))
        return out

    def joint(self, row):
        """Per class, log P(c | x) (a joint up to a constant per row); the row's
        values are checked as naive Bayes checks them."""
        for name, scorer, value in zip(self.names, self.base.scorers, row):
            try:
                scorer[value]
            except (_BadValue, TypeError) as error:
                raise _value_error(name, value, error) from None
        return [_log(p) for p in self.probabilities(row)]

    def joints(self, rows):
        """Joint log-likelihoods of many rows."""
        return list(map(self.joint, rows))

    def explain(self, row, extra=()):
        """Naive Bayes' explanation of the row (the mixture shows its features)."""
        return self.base.explain(row, extra)

    def informative(self):
        """Naive Bayes' ranking of the features."""
        return self.base.informative()

    def tables(self):
        """Naive Bayes' tables."""
        return self.base.tables()

    def naive_tables(self):
        """Naive Bayes' tables (the pictures draw them)."""
        return self.base.tables()

    def summary_items(self):
        """{"tree": its nodes as lines, each side of a split ("x < t", "x >= t", "x =
        v", "x != v") followed by what lies there, indented by its depth, a leaf
        as its most probable class and that class's P; "tree leaves": their
        number}."""
        lines = []
        stack = [(0, 0, None)]
        while stack:
            at, depth, test = stack.pop()
            node = self.nodes[at]
            indent = "  " * depth
            if test is not None:
                lines.append(indent + test)
                indent += "  "
            if node[0] is None:
                c = max(range(len(node[1])), key=node[1].__getitem__)
                lines.append(indent + "%s (%.3f)" % (_shown(self.classes[c]), node[1][c]))
                continue
            j, value, left, right, _ = node
            name = _shown(self.names[j]) if not isinstance(self.names[j], str) else \
                self.names[j]
            sides = ("%s < %.6g" % (name, value), "%s >= %.6g" % (name, value)) \
                if self.kinds[j] == "number" else \
                ("%s = %s" % (name, _shown(value)), "%s != %s" % (name, _shown(value)))
            inner = depth if test is None else depth + 1
            stack.append((right, inner, sides[1]))
            stack.append((left, inner, sides[0]))
        return {"tree": lines, "tree leaves": sum(node[0] is None for node in self.nodes)}
