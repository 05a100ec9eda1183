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
