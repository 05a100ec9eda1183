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
    # (n + alpha <= total + alpha * size: a log P is never above 0, even where the two
    # logs are of exact numbers beyond the float range, each rounded on its own)
    return [x if x <= 0 else 0.0 for x in [_log_plus(n, alpha) - denominator
                                           for n in counts]]


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


def _summed_joint(vectors, add=fsum):
    """Per class, the sum (add) of the per-feature vectors' terms; when some term is
    infinite, _joint_with_infinities' counted joint instead."""
    joint = list(map(add, zip(*vectors)))
    total = sum(joint)
    if total - total == 0:
        return joint
    return _joint_with_infinities(vectors)


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


# -- hierarchical smoothing: each table shrunk towards its parent's, level by level --
#
# A conditional table P(x | p_1 .. p_L) of counts split L ways is smoothed towards
# the same table with one parent fewer, recursively, down to P(x) (Petitjean,
# Buntine, Webb and Zaidi 2018, "Accurate parameter estimation for Bayesian network
# classifiers using hierarchical Dirichlet processes", Machine Learning 107):
#
#     P_0(x)             = (N(x) + 1) / (N + |X|)                     (Laplace at the top)
#     P_l(x | p_1 .. p_l) = (N(x, p_1 .. p_l) + theta_l P_(l-1)(x | p_1 .. p_(l-1)))
#                           / (N(p_1 .. p_l) + theta_l)
#
# with one concentration theta_l per level of a table.  Petitjean et al. sample the
# concentrations by Gibbs sampling (and tie them across the configurations of a
# level in blocks); here each theta_l is the one number in [|X|, 10^6 |X|] that
# maximises the leave-one-out log-likelihood of the training rows at that level,
# chosen level by level from the top (theta_1 first: the levels below a level do
# not depend on it).  Leaving a row out removes it from its cell at every level of
# its path; the rows of one cell share their path, so the objective is a sum over
# the occurring cells (_leave_one_out_terms), a deterministic function of the
# counts: the same whatever the order, batching or merging of the rows.

_CONCENTRATION_RANGE = (0.0, 6.0)     # log10 of theta / |X| (the pseudo-count per value
# of a uniform level above): theta from |X| to 10^6 |X|.  The floor of one pseudo-count
# per value is Laplace's; leave-one-out alone (theta down to 1e-2) gave sharper tables
# and a worse log loss on Weka's data sets (docs/accuracy.md)
_CONCENTRATION_GRID = 13              # grid points over it (every half decade) first,
_GOLDEN_STEPS = 20                    # then golden-section steps around the best: the
# bracket of one decade shrinks to 10^-4.2 of a decade (a relative 1.5e-4 in theta)
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def _concentration_bounds(size):
    """(smallest, largest) theta of a table of ``size`` values: |X| and 10^6 |X|."""
    return tuple(size * 10.0 ** bound for bound in _CONCENTRATION_RANGE)


def _leave_one_out_fit(theta, weights, counts, totals, lower):
    """sum_i w_i log((a_i + theta q_i) / (b_i + theta)), summed exactly rounded
    (fsum: the same whatever the order of the cells): the leave-one-out
    log-likelihood of one level at theta, cell i holding weight w_i, a_i its count
    and b_i its configuration's count with one row left out, q_i the level above's
    probability of its value with that row left out too."""
    numerators = list(map(add, counts, map(mul, lower, repeat(theta))))
    denominators = list(map(add, totals, repeat(theta)))
    try:
        return fsum(map(mul, weights, map(log, map(truediv, numerators, denominators))))
    except ValueError:                    # a ratio below the smallest float (a row of
        pass                              # weight 1e200 beside rows of weight 1)
    return fsum(map(mul, weights, map(sub, _logs(numerators), map(log, denominators))))


def _concentration(weights, counts, totals, lower, size):
    """(theta, its leave-one-out log-likelihood): the theta in [|X|, 10^6 |X|]
    (|X| = size) that maximises _leave_one_out_fit, found on log10 theta by a grid of
    every half decade, then golden-section steps in the interval around the grid's
    best; the best point evaluated, the smaller theta of equal ones (with no cells
    every theta gives 0: the smallest).  Deterministic: the same numbers give the
    same theta."""
    smallest, largest = _concentration_bounds(size)

    def theta_of(t):                      # (10^log10(x) may round beyond x)
        return min(max(10.0 ** t, smallest), largest)

    def fit(t):
        return _leave_one_out_fit(theta_of(t), weights, counts, totals, lower)
    low, high = math.log10(smallest), math.log10(largest)
    step = (high - low) / (_CONCENTRATION_GRID - 1)
    grid = [low + i * step for i in range(_CONCENTRATION_GRID)]
    values = [fit(t) for t in grid]
    best = values.index(max(values))
    best_t, best_value = grid[best], values[best]
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = fit(c), fit(d)
    for _ in range(_GOLDEN_STEPS):
        for t, value in ((c, fc), (d, fd)):
            if value > best_value or (value == best_value and t < best_t):
                best_t, best_value = t, value
        if fc >= fd:                      # the maximum is in [a, d]
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = fit(c)
        else:                             # in [c, b]
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = fit(d)
    for t, value in ((c, fc), (d, fd)):
        if value > best_value or (value == best_value and t < best_t):
            best_t, best_value = t, value
    return theta_of(best_t), best_value


class _Hierarchy:
    """One node's table P(x | p_1 .. p_L) smoothed level by level (see above), from
    its cells: {configuration * |X| + x: weight} at the deepest level, the
    configuration mixed radix over ``sizes`` (the parents' sizes in the hierarchy's
    order, the first most significant), the weights exact (ints or Fractions).

    A weight of w counts as w rows (scikit-learn's meaning of sample weights, so a
    row of weight 2 is the row twice): leaving a row out takes a weight of 1 out of
    its cell (the cell's whole weight when it holds less), at its own level and at
    every level above.  Level l's counts are the deepest ones summed over the
    parents after the l-th.  ``thetas[l]`` is level l's concentration (None at the
    top, which is Laplace's), ``fits[l]`` its leave-one-out log-likelihood
    (concentrations=False: the counts alone, no thetas).  Memory: the occurring
    cells of every level, and the vectors of the occurring configurations asked for.
    """

    __slots__ = ("sizes", "size", "counts", "totals", "thetas", "fits", "vectors",
                 "scale")

    def __init__(self, cells, sizes, size, concentrations=True):
        from fractions import Fraction
        self.sizes = list(sizes)
        self.size = size
        depth = len(self.sizes)
        exact = [None] * (depth + 1)
        exact[depth] = cells
        for level in range(depth, 0, -1):             # sum over the last parent
            above = {}
            divisor = self.sizes[level - 1]
            for cell, weight in exact[level].items():
                configuration, x = divmod(cell, size)
                key = configuration // divisor * size + x
                above[key] = above.get(key, 0) + weight
            exact[level - 1] = above
        whole = sum(exact[0].values())
        # counts beyond the float range are scaled down by a power of 2 (the
        # estimates of such counts are their proportions, whatever the scale)
        self.scale = max(0, int(whole).bit_length() - 900)
        divisor = Fraction(1 << self.scale)

        def as_float(weight):
            return float(weight) if not self.scale else float(Fraction(weight) / divisor)
        self.counts = []                  # level -> {cell: weight} as floats
        self.totals = []                  # level -> {configuration: weight}
        for level in range(depth + 1):
            totals = {}
            for cell, weight in exact[level].items():
                configuration = cell // size
                totals[configuration] = totals.get(configuration, 0) + weight
            self.counts.append({cell: as_float(weight) for cell, weight in exact[level].items()})
            self.totals.append({configuration: as_float(weight)
                                for configuration, weight in totals.items()})
        self.thetas = [None]
        self.fits = [None]
        self.vectors = [{} for _ in range(depth + 1)]
        for level in range(1, depth + 1 if concentrations else 1):
            weights, counts, totals, lower = self.leave_one_out_terms(level)
            theta, fit = _concentration(weights, counts, totals, lower, self.size)
            self.thetas.append(theta)
            self.fits.append(fit)

    def leave_one_out_terms(self, level):
        """(weights, counts, totals, lower) of _leave_one_out_fit at a level: per
        occurring cell its weight W, W - r and its configuration's count - r (r =
        min(1, W): one row), and the levels above's probability of its value with r
        removed at each (the thetas above this level known)."""
        size, sizes = self.size, self.sizes
        weights, counts, totals, lower = [], [], [], []
        mine = self.totals[level]
        for cell, weight in self.counts[level].items():
            removed = min(1.0, weight)
            configuration, x = divmod(cell, size)
            weights.append(weight)
            counts.append(weight - removed)
            totals.append(mine[configuration] - removed)
            lower.append(self.left_out(level - 1, configuration // sizes[level - 1], x,
                                       removed))
        return weights, counts, totals, lower

    def left_out(self, level, configuration, x, removed, through=None):
        """P_level(x | configuration) with ``removed`` weight taken out of the row's
        cell at every level up to ``through`` (default: all) and none below it."""
        size, sizes = self.size, self.sizes
        path = [configuration]
        for l in range(level, 0, -1):
            path.append(path[-1] // sizes[l - 1])
        path.reverse()                    # path[l]: the configuration at level l
        through = level if through is None else through
        r = removed
        p = (self.counts[0].get(x, 0.0) - r + 1.0) / (self.totals[0].get(0, 0.0) - r + size)
        for l in range(1, level + 1):
            r = removed if l <= through else 0.0
            theta = self.thetas[l]
            p = (self.counts[l].get(path[l] * size + x, 0.0) - r + theta * p) / (
                self.totals[l].get(path[l], 0.0) - r + theta)
        return p

    def vector(self, level, configuration):
        """[P_level(x | configuration) for each x]: a configuration that never
        occurs gives the level above's vector (its counts are all 0)."""
        found = self.vectors[level].get(configuration)
        if found is not None:
            return found
        size = self.size
        if level == 0:
            counts = self.counts[0]
            total = self.totals[0].get(0, 0.0) + size
            found = [(counts.get(x, 0.0) + 1.0) / total for x in range(size)]
        else:
            upper = self.vector(level - 1, configuration // self.sizes[level - 1])
            total = self.totals[level].get(configuration)
            if not total:
                return upper
            theta = self.thetas[level]
            counts = self.counts[level]
            start = configuration * size
            found = [(counts.get(start + x, 0.0) + theta * p) / (total + theta)
                     for x, p in enumerate(upper)]
        self.vectors[level][configuration] = found
        return found
