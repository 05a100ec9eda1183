# -- Bayesian networks: TAN and hill climbing, as Weka's BayesNet ----------------------
#
# The class and every feature are nodes of a directed acyclic graph; each node has a
# table P(x | its parents), and P(c, x) is the product of every node's entry.  Both
# families learn the graph from the counts by Weka's BAYES score (a Dirichlet(1/2)
# prior on every cell of a node's table, parents fixed): TAN grows a tree over the
# features on top of naive Bayes, hill climbing adds and deletes arcs while the score
# improves.  They are Weka 3.6's BayesNet with the TAN or HillClimber search and the
# SimpleEstimator, including what BayesNet does to the data first: numbers cut into
# Fayyad and Irani's MDL bins (supervised Discretize), then every missing value
# replaced by its feature's most frequent bin or value (ReplaceMissingValues, after
# the discretization), at fit and at prediction.  The structure decides by strict
# comparisons of doubles, so the scores are summed as Weka sums them, term by term in
# its order with its own log-gamma function, and exact ties go the way Weka's scans
# go: the same structure, hence the same probabilities.  A third family, KDB (not
# Weka's), chooses its graph on the same data by mutual information (_kdb_structure)
# and, selective, its features and k by leave-one-out (_kdb_selection); every
# family's tables are one estimate of three (_node_table: Weka's SimpleEstimator by
# default, the m-estimate, or hierarchical smoothing).

_COEFFICIENTS_A = (8.11614167470508450300E-4, -5.95061904284301438324E-4,
                   7.93650340457716943945E-4, -2.77777777730099687205E-3,
                   8.33333333333331927722E-2)
_COEFFICIENTS_B = (-1.37825152569120859100E3, -3.88016315134637840924E4,
                   -3.31612992738871184744E5, -1.16237097492762307383E6,
                   -1.72173700820839662146E6, -8.53555664245765465627E5)
_COEFFICIENTS_C = (-3.51815701436523470549E2, -1.70642106651881159223E4,
                   -2.20528590553854454839E5, -1.13933444367982507207E6,
                   -2.53252307177582951285E6, -2.01889141433532773231E6)


def _horner(x, coefficients, leading_one=False):
    """coefficients[0] x^n + ... + coefficients[n] by Horner's rule (with an implied
    leading 1: x^(n+1) + coefficients[0] x^n + ...), in Cephes' order of operations."""
    value = x + coefficients[0] if leading_one else coefficients[0]
    for c in coefficients[1:]:
        value = value * x + c
    return value


def _weka_ln_gamma(x):
    """ln Gamma(x) for x > 0 as Weka computes it (weka.core.Statistics.lnGamma, a port
    of Cephes' lgam) on a correctly rounded log, as Java's Math.log is: shifted into
    [2, 3) and a rational approximation below 13, Stirling's series above.  Its last
    bits differ from math.lgamma's, and they decide near-ties between structures."""
    if x < 13.0:
        z = 1.0
        while x >= 3.0:
            x -= 1.0
            z *= x
        while x < 2.0:
            z /= x
            x += 1.0
        if x == 2.0:
            return _mdl_log(z, True)
        x -= 2.0
        return _mdl_log(z, True) + x * _horner(x, _COEFFICIENTS_B) / _horner(
            x, _COEFFICIENTS_C, True)
    q = (x - 0.5) * _mdl_log(x, True) - x + 0.91893853320467274178
    if x > 1.0e8:
        return q
    p = 1.0 / (x * x)
    if x >= 1000.0:
        return q + ((7.9365079365079365079365e-4 * p - 2.7777777777777777777778e-3) * p
                    + 0.0833333333333333333333) / x
    return q + _horner(p, _COEFFICIENTS_A) / x


_HALF_TABLE_SIZE = 1 << 12       # ln Gamma(k / 2) kept for k below this, for good
_HALF_LN_GAMMA = [math.nan]      # _weka_ln_gamma(k / 2) for k = 1, 2, ...: filled as
# far as asked, never beyond _HALF_TABLE_SIZE entries, whatever the weights (a larger
# argument is computed when it occurs and cached for one search only: _HalfLnGamma)


def _half_ln_gamma(largest):
    """The permanent table of ln Gamma(k / 2) filled up to k = largest (up to
    _HALF_TABLE_SIZE - 1 when largest is beyond it): the small arguments of the
    structure score of whole counts, whose prior is 1/2 per cell."""
    table = _HALF_LN_GAMMA
    largest = min(largest, _HALF_TABLE_SIZE - 1)
    while len(table) <= largest:
        table.append(_weka_ln_gamma(len(table) / 2.0))
    return table


_HALF_CACHE_SIZE = 1 << 16       # entries a search's cache of larger arguments keeps


class _HalfLnGamma:
    """Weka's ln Gamma(k / 2) of any whole k >= 1, for one structure search: from the
    permanent table below _HALF_TABLE_SIZE (filled as far as asked), else computed
    by the same function (so the same bits) and cached in this object only, emptied
    when it passes _HALF_CACHE_SIZE entries.  Time and memory grow with the distinct
    counts that occur, not with their size: a row of weight 10^12 costs what a row
    of weight 1 costs."""

    __slots__ = ("large",)

    def __init__(self):
        self.large = {}

    def __call__(self, k):
        """ln Gamma(k / 2)."""
        if k < _HALF_TABLE_SIZE:
            table = _HALF_LN_GAMMA
            return table[k] if k < len(table) else _half_ln_gamma(k)[k]
        found = self.large.get(k)
        if found is None:
            if len(self.large) >= _HALF_CACHE_SIZE:
                self.large.clear()
            found = self.large[k] = _weka_ln_gamma(k / 2.0)
        return found

    @staticmethod
    def odd(largest):
        """[ln Gamma(1/2 + n) for n = 0 .. largest], or None when that passes the
        permanent table."""
        if 2 * largest + 1 >= _HALF_TABLE_SIZE:
            return None
        return _half_ln_gamma(2 * largest + 1)[1:2 * largest + 2:2]


_DENSE_CELLS = 1 << 20     # a node's table this large or smaller is scored cell by cell

# Weka adds a node's score term by term into one double, every cell of its table
# included, so for a table of millions of mostly empty cells the last bits (and, after
# millions of roundings, more than the last bits) come from the empty cells.  The
# helpers below give the double that such a running sum reaches exactly, in steps that
# grow with the binades it passes rather than with the number of additions: a value y
# strictly inside a binade (spacing u) rounds an exact sum y + e with |e| < u/2 to y,
# so shifting the input of an addition by a multiple t of u shifts its result by t.

_TINY_SUM = ldexp(1.0, -1000)    # a running sum this close to 0 is stepped, never shifted
_HUGE_SUM = ldexp(1.0, 1000)     # nor one this far from it (or infinite)


def _add_repeatedly(total, term, times, trace=None):
    """total + term + term + ... (``times`` additions, each rounded to a double, as a
    running double adds them): exact.  After one addition total -> s = total + d, the
    next ones are s + d, s + 2d, ... while those stay strictly inside s's binade, d is
    a multiple of its spacing u and the first addition's rounding error is not u/2 (a
    tie, rounded to even): each exact sum is then the first one shifted by a multiple
    of u.  So a stretch of additions is one step, and the steps are as many as the
    binades passed.  ``trace`` (a list) gets, per stretch of results, (first, last,
    spacing, low, high), the spacing doubled for a tie, or None for a result that is
    not strictly inside a binade (0, tiny or on a binade's edge)."""
    if trace is None and times <= _SHORT_RUN:
        for _ in range(times):
            total += term
        return total
    while times > 0:
        sum_ = total + term
        if sum_ == total:                 # the term is lost: so it is every time after
            if trace is not None:
                trace.append(_trace_entry(total, term, sum_))
            return total
        size = abs(sum_)
        if not (_TINY_SUM <= size < _HUGE_SUM and abs(total) >= _TINY_SUM):
            if trace is not None:
                trace.append(None)
            total, times = sum_, times - 1
            continue
        exponent = frexp(size)[1]
        spacing = ldexp(1.0, exponent - 53)
        step = sum_ - total               # exact when total is within a factor 2 of sum_
        virtual = sum_ - total            # the rounding error of total + term (two-sum)
        error = (total - (sum_ - virtual)) + (term - virtual)
        if times == 1 or step % spacing or abs(error) * 2 == spacing or (
                total > 0) != (sum_ > 0) or not 0.5 * size <= abs(total) <= 2.0 * size:
            if trace is not None:
                trace.append(_trace_entry(total, term, sum_))
            total, times = sum_, times - 1
            continue
        top, bottom = ldexp(1.0, exponent), ldexp(1.0, exponent - 1)
        if not bottom < size < top:
            if trace is not None:
                trace.append(None)
            total, times = sum_, times - 1
            continue
        # the results sum_ + i step, i = 0 .. stretch - 1, stay strictly inside
        room = (top - size) if (step > 0) == (sum_ > 0) else (size - bottom)
        stretch = min(times, (int(room / spacing) - 1) // int(abs(step) / spacing) + 1)
        last = sum_ + (stretch - 1) * step        # on the grid, inside the binade: exact
        if trace is not None:
            low, high = (bottom, top) if sum_ > 0 else (-top, -bottom)
            trace.append((sum_, last, spacing, low, high))
        total, times = last, times - stretch
    return total


def _trace_entry(total, term, sum_):
    """The trace entry of one addition total + term = sum_ (see _add_repeatedly)."""
    size = abs(sum_)
    if not _TINY_SUM <= size < _HUGE_SUM:
        return None
    exponent = frexp(size)[1]
    spacing = ldexp(1.0, exponent - 53)
    top, bottom = ldexp(1.0, exponent), ldexp(1.0, exponent - 1)
    if not bottom < size < top:
        return None
    virtual = sum_ - total
    error = (total - (sum_ - virtual)) + (term - virtual)
    if abs(error) * 2 == spacing:         # a tie: its parity must be kept too
        spacing *= 2
    return (sum_, sum_, spacing, bottom, top) if sum_ > 0 else \
        (sum_, sum_, spacing, -top, -bottom)


_SHORT_RUN = 16           # a run of at most this many additions is added one by one


def _add_block(total, block, trace=None):
    """total after adding a block's terms, [(term, times), ...] in order."""
    for term, times in block:
        total = _add_repeatedly(total, term, times, trace)
    return total


_BLOCK_PERIODS = 8        # the longest period of blocks looked for before stepping on
_BLOCK_BUDGET = 100000    # the most blocks one table's score adds one by one


def _add_blocks(total, block, times, budget=None):
    """total after adding a block's terms ``times`` times over: exact.  A block that
    brings total back to a value it had before repeats from there (a cycle, often a
    fixed point); otherwise, when p blocks move total by delta, a multiple of the
    spacing of every result they rounded (twice that of a tie), each further p blocks
    move it by delta again for as long as every result, shifted, stays strictly inside
    its binade: those periods are one step.  ``budget`` (a list of one count) is
    lowered by the blocks added one by one; below 0, the sum stops there."""
    if times <= _BLOCK_PERIODS:
        for _ in range(times):
            total = _add_block(total, block)
        return total
    while times > 0:
        if budget is not None:
            if budget[0] < 0:
                return total
            budget[0] -= min(times, _BLOCK_PERIODS)
        start = total
        seen = {total: 0}
        states = [total]
        trace = []
        done = 0
        jumped = False
        while done < min(times, _BLOCK_PERIODS):
            total = _add_block(total, block, trace)
            done += 1
            states.append(total)
            first = seen.get(total)
            if first is not None:          # states[first:done] repeat from here on
                return states[first + (times - done) % (done - first)]
            seen[total] = done
            if None in trace or done == times or (start > 0) != (total > 0) or \
                    not 0.5 * abs(total) <= abs(start) <= 2.0 * abs(total):
                continue
            delta = total - start          # exact: within a factor 2 (Sterbenz)
            spacing = max(entry[2] for entry in trace)
            if delta % spacing:
                continue
            # the further periods that keep every result strictly inside its binade,
            # in whole units of the finest spacing (every gap below is a multiple of it,
            # and each is exact: a value and its binade's edge are within a factor 2)
            finest = min(entry[2] for entry in trace) / 2
            moves = int(abs(delta) / finest)
            periods = (times - done) // done
            for first_result, last_result, _, low, high in trace:
                for result in (first_result, last_result):
                    gap = int(((high - result) if delta > 0 else (result - low)) / finest)
                    periods = min(periods, (gap - 1) // moves)
            if periods > 0:
                total += periods * delta          # a shifted result: on its grid, exact
                times -= done + periods * done
                jumped = True
                break
        if not jumped:
            times -= done
    return total


class _NetworkScores:
    """Weka's BAYES score of a node given its ordered parents, for any node and parent
    list, from the distinct rows (values as node indices, weight) of the data, each
    weight a whole number of ``unit``s; scores are cached.

    The score is the sum over parent configurations j (mixed radix, the first parent
    most significant) of sum_v lnG(1/2 + n_jv) - lnG(n_j + |V|/2) - |V| lnG(1/2) +
    lnG(|V|/2).  Weka adds each term to one running double, in that order, empty
    configurations and empty cells included (they add 0 only in exact arithmetic),
    and the structure search decides by strict comparisons of these doubles: so every
    score is that running double, bit for bit.  A table of at most _DENSE_CELLS cells
    is scored term by term (by builtins: the terms in order, then one left-to-right
    reduce, which rounds after each addition as the running double does); a larger
    one (features with thousands of values, such as identifiers) from its occurring
    cells, the runs of empty cells and configurations between them added in few
    steps by _add_repeatedly and _add_blocks, which reach the same double: time
    linear in the rows and the binades the sum passes, not in the cells.  Only a
    table whose empty runs would take more than _BLOCK_BUDGET steps (none seen) is
    summed exactly rounded instead (fsum of the occurring cells' lnG(1/2 + n) -
    lnG(1/2) and configurations' lnG(|V|/2) - lnG(n_j + |V|/2), equal in exact
    arithmetic).  The counts are summed as whole numbers, so a score is the same
    whatever the order of the rows.
    """

    def __init__(self, rows, cardinality, unit=1):
        self.cardinality = cardinality
        self.unit = unit
        self.columns = [list(column) for column in zip(*[values for values, _ in rows])]
        if not self.columns:
            self.columns = [[] for _ in cardinality]
        self.weights = [n for _, n in rows]
        self.total = sum(self.weights)
        self.cache = {}
        # each parent list's configuration per row, shared by every node scored given
        # it (TAN and hill climbing score each node given the class and each other
        # node: one pass over the rows per score instead of two); at most about two
        # copies of the columns are kept
        self.configurations = {}
        self.configuration_room = 2 * (len(cardinality) + 1)
        self.half_ln_gamma = _HalfLnGamma()   # this search's lnG of larger counts
        self.fractional = {}              # lgamma(n / unit + 1/2), bounded (see _score)

    def __call__(self, node, parents):
        """The score of node given parents (a list), cached."""
        key = node, tuple(parents)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._score(node, parents)
        return found

    def cell_counts(self, node, parents):
        """{cell: whole-number count} of the occurring cells, cell = configuration *
        |V| + value."""
        cells = self.configuration(tuple(parents))
        column = self.columns[node]
        cells = column if cells is None else list(map(
            add, map(mul, cells, repeat(self.cardinality[node])), column))
        counts = Counter()
        weights = self.weights
        if self.total == len(weights):            # every distinct row weighs one unit
            _count_keys(counts, cells)
        elif self.total <= 8 * len(weights):      # a few units each: repeated, in C
            _count_keys(counts, chain.from_iterable(map(repeat, cells, weights)))
        else:
            get = counts.get
            for cell, n in zip(cells, weights):
                counts[cell] = get(cell, 0) + n
        return counts

    def configuration(self, parents):
        """Per row, the configuration number of a tuple of parents (mixed radix, the
        first parent most significant; None for no parents), built from its prefix's
        and cached: the same whole numbers as building it parent by parent."""
        if not parents:
            return None
        if len(parents) == 1:
            return self.columns[parents[0]]
        found = self.configurations.get(parents)
        if found is None:
            prefix = self.configuration(parents[:-1])
            last = parents[-1]
            found = list(map(add, map(mul, prefix, repeat(self.cardinality[last])),
                             self.columns[last]))
            if len(self.configurations) >= self.configuration_room:
                self.configurations.clear()
            self.configurations[parents] = found
        return found

    def _score(self, node, parents):
        size = self.cardinality[node]
        configurations = 1
        for p in parents:
            configurations *= self.cardinality[p]
        counts = self.cell_counts(node, parents)
        unit = self.unit
        exact = unit == 1
        if exact:                         # Weka's lnGamma of whole counts
            half_ln_gamma = self.half_ln_gamma

            def of_count(n):                      # lnG(1/2 + n)
                return half_ln_gamma(2 * n + 1)

            def of_total(n):                      # lnG(n + |V|/2)
                return half_ln_gamma(2 * n + size)
            empty_terms = (-(size * half_ln_gamma(1)), half_ln_gamma(size))
        else:
            # weights that are not whole numbers: Weka's search has no counterpart
            # (it counts rows whatever their weights), so the library's lgamma
            # serves; Weka's own, whose log is correctly rounded, costs a Decimal log
            # a call.  The cache is this search's, bounded
            half = size / 2.0
            cached = self.fractional

            def of_count(n):
                found = cached.get(n)
                if found is None:
                    if len(cached) >= _HALF_CACHE_SIZE:
                        cached.clear()
                    found = cached[n] = lgamma(n / unit + 0.5)
                return found

            def of_total(n):
                return lgamma(n / unit + half)
            empty_terms = (-(size * lgamma(0.5)), lgamma(size / 2.0))
        if configurations * size > _DENSE_CELLS:
            found = self._ordered_score(counts, size, configurations, of_count, of_total,
                                        empty_terms)
            if found is not None:
                return found
            return self._exact_sum_score(counts, size, of_count, of_total, empty_terms)
        dense = [0] * (configurations * size)
        for cell, n in counts.items():
            dense[cell] = n
        odd = _HalfLnGamma.odd(max(dense)) if exact else None
        if odd is not None:                       # odd[n] = lnG(1/2 + n)
            cell_terms = list(map(odd.__getitem__, dense))
        else:
            cell_terms = list(map(of_count, dense))
        totals = list(map(sum, zip(*[iter(dense)] * size)))
        columns = [cell_terms[v::size] for v in range(size)]
        if exact and 2 * max(totals) + size < _HALF_TABLE_SIZE:   # lnG(n + |V|/2), tabled
            table = _half_ln_gamma(2 * max(totals) + size)
            columns.append(list(map(neg, map(table.__getitem__, map(
                add, map(mul, totals, repeat(2)), repeat(size))))))
        else:
            columns.append(list(map(neg, map(of_total, totals))))
        columns.append(repeat(empty_terms[0]))
        columns.append(repeat(empty_terms[1]))
        # score += each term in Weka's order (subtracting x is adding -x, exactly)
        return reduce(add, chain.from_iterable(zip(*columns)), 0.0)

    @staticmethod
    def _ordered_score(counts, size, configurations, of_count, of_total, empty_terms):
        """The score of a table in Weka's order from its occurring cells alone: the
        runs of empty configurations, and of empty cells within a configuration, added
        by _add_blocks and _add_repeatedly (the same double as adding every term; time
        grows with the occurring cells and the binades the sum passes).  None when the
        runs of empty configurations take more than _BLOCK_BUDGET steps."""
        at_zero = of_count(0)
        prior_terms = list(empty_terms)           # -|V| lnG(1/2), lnG(|V|/2)
        empty = [(at_zero, size), (-of_total(0), 1)] + [(t, 1) for t in prior_terms]
        occurring = defaultdict(dict)             # configuration -> {value: count}
        for cell, n in counts.items():
            if n:
                j, v = divmod(cell, size)
                occurring[j][v] = n
        budget = [_BLOCK_BUDGET]
        total = 0.0
        previous = -1
        for j in sorted(occurring):
            total = _add_blocks(total, empty, j - previous - 1, budget)
            cells = occurring[j]
            last = -1
            for v in sorted(cells):
                total = _add_repeatedly(total, at_zero, v - last - 1)
                total += of_count(cells[v])
                last = v
            total = _add_repeatedly(total, at_zero, size - last - 1)
            total += -of_total(sum(cells.values()))
            for term in prior_terms:
                total += term
            previous = j
        total = _add_blocks(total, empty, configurations - previous - 1, budget)
        return None if budget[0] < 0 else total

    @staticmethod
    def _exact_sum_score(counts, size, of_count, of_total, empty_terms):
        """The score from the occurring cells (see the class docstring)."""
        at_zero = of_count(0)
        totals = Counter()
        terms = []
        for cell, n in counts.items():
            if n:
                terms.append(of_count(n) - at_zero)
                totals[cell // size] += n
        for n in totals.values():
            terms.append(empty_terms[1] - of_total(n))
        return fsum(terms)


def _tan_structure(score, nodes, root, params):
    """Weka's TAN search: naive Bayes (the class ``root`` a parent of every feature)
    plus a tree over the features, grown greedily from the strongest link, each
    ordered pair (a, b) weighed by gain(a, b) = score(a | class, b) - score(a | class)
    and the first of equal ones taken (a, then b, in index order); the first link is
    taken whatever its gain, each later one has exactly one end in the tree.  Each
    link (a, b) is then oriented as Weka orients it: b gets parent a when b has no
    feature parent yet, else a gets parent b."""
    parents = [[root] if i != root else [] for i in range(nodes)]
    features = [i for i in range(nodes) if i != root]
    if nodes <= 2:
        return parents
    base = {a: score(a, [root]) for a in features}
    gain = {}
    for n, a in enumerate(features):
        _progress("scoring pairs, feature", n + 1, len(features))
        gain.update(((a, b), score(a, [root, b]) - base[a]) for b in features if a != b)
    _progress("scoring pairs, feature")
    linked = [False] * nodes
    links = []
    for step in range(nodes - 2):
        best, best_gain = None, 0.0
        for a in features:
            for b in features:
                if a == b or (step and linked[a] == linked[b]):
                    continue
                if best is None or gain[a, b] > best_gain:
                    best, best_gain = (a, b), gain[a, b]
        links.append(best)
        linked[best[0]] = linked[best[1]] = True
    has_parent = [False] * nodes
    for a, b in links:
        child, parent = (b, a) if not has_parent[b] else (a, b)
        parents[child].append(parent)
        has_parent[child] = True
    return parents


def _descendants(children, start):
    """The nodes a directed path leads to from start (start included)."""
    seen, todo = {start}, [start]
    while todo:
        for child in children[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _hill_climbing_structure(score, nodes, root, params):
    """Weka's HillClimber search with its defaults (from naive Bayes, no arc
    reversal): repeatedly the best of every arc addition (heads in index order, then
    tails; only heads with fewer than params["max_parents"] parents, the class
    counting as one; none that closes a cycle) and every arc deletion (nodes in index
    order, parents in their order), by the change of the head's score, the first of
    equal ones; stop when the best change is not positive."""
    max_parents = params["max_parents"]
    parents = [[root] if i != root else [] for i in range(nodes)]
    added = [[None] * nodes for _ in range(nodes)]        # [head][tail]: score change
    deleted = [[None] * nodes for _ in range(nodes)]

    def update(head):
        """The score changes of every move into head."""
        mine = parents[head]
        base = score(head, mine)
        for tail in range(nodes):
            if tail == head:
                continue
            if tail not in mine:
                if len(mine) < max_parents:
                    added[head][tail] = score(head, mine + [tail]) - base
            else:
                deleted[head][tail] = score(head, [p for p in mine if p != tail]) - base

    for node in range(nodes):
        _progress("scoring nodes", node + 1, nodes)
        update(node)
    _progress("scoring nodes")
    step = 0
    while True:
        step += 1
        _progress("structure search, step", step)
        best, best_change = None, -1e100
        children = [[] for _ in parents]
        for child, mine in enumerate(parents):
            for p in mine:
                children[p].append(child)
        for head in range(nodes):
            if len(parents[head]) >= max_parents:
                continue
            below = _descendants(children, head)   # an arc from one would close a cycle
            for tail in range(nodes):
                if tail == head or tail in parents[head] or tail in below:
                    continue
                if added[head][tail] > best_change:
                    best, best_change = (True, head, tail), added[head][tail]
        for head in range(nodes):
            for tail in parents[head]:
                if deleted[head][tail] > best_change:
                    best, best_change = (False, head, tail), deleted[head][tail]
        if best is None or not best_change > 0:
            _progress("structure search, step")
            return parents
        add_arc, head, tail = best
        if add_arc:
            parents[head].append(tail)
        else:
            parents[head].remove(tail)
        update(head)


def _kdb_informations(score, nodes, root, pairs=True):
    """(I(X_i; C) of each feature, {(i, j): I(X_i; X_j | C)} of every two), in nats,
    from the search's counts of the rows: I(X_i; C) = sum n(c, x) / N log(N n(c, x)
    / (n(c) n(x))), I(X_i; X_j | C) = sum n(c, x_i, x_j) / N log(n(c) n(c, x_i,
    x_j) / (n(c, x_i) n(c, x_j))), each summed exactly rounded (fsum), so that
    equal counts give equal numbers whatever the rows' order (pairs=False: the
    first alone, None for the second)."""
    sizes = score.cardinality
    features = [i for i in range(nodes) if i != root]
    by_class = {i: score.cell_counts(i, [root]) for i in features}     # c * |X_i| + x
    class_counts = Counter()
    for cell, n in score.cell_counts(root, []).items():
        class_counts[cell] += n
    total = sum(class_counts.values())
    mutual = [0.0] * nodes
    if not total:
        return mutual, {(i, j): 0.0 for i in features for j in features} if pairs else None
    for i in features:
        values = Counter()
        for cell, n in by_class[i].items():
            values[cell % sizes[i]] += n
        mutual[i] = fsum([n / total * log(total * n / (class_counts[cell // sizes[i]] *
                                                       values[cell % sizes[i]]))
                          for cell, n in by_class[i].items() if n])
    if not pairs:
        return mutual, None
    conditional = {}
    for step, j in enumerate(features):
        _progress("scoring pairs, feature", step + 1, len(features))
        for i in features:
            if i <= j:
                continue
            size_i, size_j = sizes[i], sizes[j]
            terms = []
            for cell, n in score.cell_counts(i, [root, j]).items():
                if not n:
                    continue
                configuration, x = divmod(cell, size_i)
                c, v = divmod(configuration, size_j)
                terms.append(n / total * log(class_counts[c] * n / (
                    by_class[i][c * size_i + x] * by_class[j][c * size_j + v])))
            conditional[i, j] = conditional[j, i] = fsum(terms)
    _progress("scoring pairs, feature")
    return mutual, conditional


_TIED_INFORMATION = 1e-12     # informations this close (nats) are equal: see _tie_ranks


def _tie_ranks(scores):
    """{key: rank} of the scores ({key: number}), the largest rank 0, where scores
    within _TIED_INFORMATION of the next larger one share its rank: informations
    equal in exact arithmetic come out of different sums a few ulps apart (3/5 log
    5/4 against 2/5 log 5/4 + 1/5 log 5/4), and must tie, so that the column order
    breaks them as documented."""
    ranks, rank, last = {}, -1, None
    for key, value in sorted(scores.items(), key=lambda item: -item[1]):
        if last is None or last - value > _TIED_INFORMATION:
            rank += 1
        ranks[key], last = rank, value
    return ranks


def _kdb_order(mutual, nodes, root):
    """The features by mutual information with the class, the largest first (ties,
    within _TIED_INFORMATION: column order)."""
    features = [i for i in range(nodes) if i != root]
    rank = _tie_ranks({i: mutual[i] for i in features})
    return sorted(features, key=lambda i: (rank[i], i))


def _kdb_structure(score, nodes, root, params):
    """The k-dependence Bayesian classifier's structure (Sahami 1996): the features
    taken in the order of their mutual information with the class, I(X_i; C) (the
    largest first, ties in column order), each with the class and at most k of the
    features before it as parents: those of largest conditional mutual information
    I(X_i; X_j | C), in that order (ties in column order); parents[i] is [class, the
    chosen features, the most informative first].  k is params["k"], or
    params["max_k"] for k="select" (the selection then keeps a prefix of each)."""
    k = params["k"]
    k = params["max_k"] if k == "select" else k
    parents = [[root] if i != root else [] for i in range(nodes)]
    if not k:                             # naive Bayes
        return parents
    mutual, conditional = _kdb_informations(score, nodes, root)
    order = _kdb_order(mutual, nodes, root)
    for position, i in enumerate(order):
        rank = _tie_ranks({j: conditional[i, j] for j in order[:position]})
        earlier = sorted(order[:position], key=lambda j: (rank[j], j))
        parents[i].extend(earlier[:k])
    return parents


# The structure searches, by the name a network family declares (its classifier's
# _structure_search): search(score, nodes, root, params) -> each node's parents.
_STRUCTURE_SEARCHES = {"tan": _tan_structure, "hill climbing": _hill_climbing_structure,
                       "kdb": _kdb_structure}

_NETWORK_KINDS = ("categorical", "discretized", "ignore")

# What a network does with a missing value and with a value never seen in training
# (its missing= parameter):
#   "mode"  Weka's BayesNet: the value counts as its feature's most frequent bin or
#           value (ReplaceMissingValues, after the bins), at fit and at prediction.
#   "skip"  no evidence: at fit each node's table counts the rows where the node and
#           its parents are known; at prediction a node whose value is missing or
#           never seen (no training row of positive weight holds it, declared or
#           not) contributes nothing, and a node with such a parent is read from its
#           table without that parent, counted the same way from the rows the
#           statistics keep (_NetworkModel.table_given), so that the prediction is
#           the network's with the unknown values left out: a row with nothing known
#           gets the class prior.  The structure search (and selective kDB's
#           selection) still scores the rows with Weka's fill, so that both
#           policies find the same structure.
_NETWORK_MISSING = ("mode", "skip")
_ROW_KINDS = ("categorical", "discretized")       # the kinds whose values rows hold


class _NetworkStatistics(_NaiveStatistics):
    """The sufficient statistics of the network families: those of naive Bayes and
    every distinct row of the features they use (a _RowCounts), weighted and exact,
    and the order of the classes as first declared (partial_fit's classes=, an ARFF
    file's declaration), which the structure search sums its scores in, as Weka does.

    Memory: one entry per distinct row and class, at most row_sample of them (beyond
    it the deterministic sample of _RowCounts: the distinct rows of smallest hash,
    each with its exact weight; the model file's "row_sample" field then gives the
    threshold); numbers are kept as counted (their bins are cut when the model is
    compiled).
    """

    file_fields = ("features", "row_counts", "class_order")
    optional_file_fields = ("row_sample",)    # written only when rows were left out
    __slots__ = ("row_counts", "class_order")

    def __init__(self):
        super().__init__()
        self.row_counts = _RowCounts()
        self.class_order = []

    def copy(self):
        """An equal, independent copy."""
        twin = super().copy()
        twin.row_counts = self.row_counts.copy()
        twin.class_order = list(self.class_order)
        return twin

    def skeleton(self):
        """Empty statistics with the same features and class order."""
        empty = super().skeleton()
        empty.class_order = list(self.class_order)
        return empty

    def declare_classes(self, classes):
        """Remember the order of the classes the first time they are declared."""
        if not self.class_order:
            self.class_order = list(classes)

    def absorb(self, other):
        """Add other's statistics: rows placed by feature name, as the features are."""
        mine = list(self.features)
        super().absorb(other)
        names = list(self.features)
        if names != mine:             # new features: every row of mine gets them
            self.row_counts = self._widened(self.row_counts, mine, names)
        theirs = self._widened(other.row_counts, list(other.features), names)
        self.row_counts.absorb(theirs)
        self.class_order = self.class_order or list(other.class_order)
        return self

    def reordered(self, before):
        """The rows' values put in the features' order, from the names ``before``."""
        self.row_counts = self._widened(self.row_counts, before, list(self.features))

    def _rows_as_mine(self, other):
        """other's rows, and these, in these features (rows counted before a mapping
        row brought a new feature lack its value)."""
        names = list(self.features)
        mine = self.row_counts
        if any(len(row) != len(names) for counted in mine.rows.values() for row in counted):
            mine = self._widened(mine, names, names)
        return mine, self._widened(other.row_counts, list(other.features), names)

    def deficit(self, other):
        """What other holds beyond these statistics, rows included."""
        problem = super().deficit(other)
        if problem is None:
            mine, theirs = self._rows_as_mine(other)
            problem = mine.deficit(theirs, self.emptied(other))
        return problem

    def remove(self, other):
        """Remove other's statistics, rows included."""
        self.row_counts, theirs = self._rows_as_mine(other)
        super().remove(other)
        self.row_counts.subtract(theirs)

    def settle(self, other, fitting):
        """As naive Bayes settles; rows narrowed to the features left (their values
        counted as numbers where a feature became numeric), and classes no longer
        held left out of the class order."""
        names = list(self.features)
        changed = super().settle(other, fitting)
        if changed:
            number = _counted_number(fitting.params)
            self.row_counts = self._widened(self.row_counts, names, names, {
                j: number for j, name in enumerate(names) if name in changed})
        if list(self.features) != names:
            self.row_counts = self._widened(self.row_counts, names, list(self.features))
        self.class_order = [label for label in self.class_order
                            if label in self.class_count]
        return changed

    @staticmethod
    def _widened(row_counts, names, wanted, convert=None):
        """Row counts whose rows hold the values of ``wanted`` names (None for one they
        lack), from rows that hold those of ``names`` (``convert``: {position in
        names: function} for values to count anew)."""
        position = {name: i for i, name in enumerate(names)}
        where = [position.get(name) for name in wanted]
        widened = _RowCounts(wanted, row_counts.capacity)
        # a row's hash is of its known values and their names: the same widened
        hashes = None if row_counts.hashes is None or convert else {}
        old_hashes = row_counts.hashes
        for label, rows in row_counts.rows.items():
            mine = widened.rows[label] = {}
            for row, (weight, n) in rows.items():
                old = row
                if convert:
                    row = tuple([convert[j](v) if j in convert and v is not None else v
                                 for j, v in enumerate(row)])
                new = tuple([None if i is None or i >= len(row) else row[i] for i in where])
                if hashes is not None and old in old_hashes:
                    hashes[new] = old_hashes[old]
                cell = mine.get(new)
                if cell is None:
                    mine[new] = [weight, n]
                else:
                    cell[0] += weight
                    cell[1] += n
        widened.hashes = hashes
        if row_counts.threshold is not None:
            if hashes is None:            # values counted anew: hashed anew
                widened.hashes = {}
            widened.below(row_counts.threshold)
        return widened

    def count(self, rows, labels, weights, start, fitting):
        """Count as naive Bayes does, then every row's values of its categorical and
        discretized features (numbers as counted, rounded with significant_digits when
        it is set; None for a missing value or another kind)."""
        groups, weight_groups, names = super().count(rows, labels, weights, start, fitting)
        features = [self.features[name] for name in names]
        kinds = [feature.name for feature in features]
        rounding = _round_to_digits(fitting.params.get("significant_digits"))
        width = len(self.features)
        self.row_counts.names = tuple(self.features)
        self.row_counts.capacity = fitting.params.get("row_sample", _ROW_SAMPLE)
        for label, group in groups.items():
            values = []
            for row in group:
                out = [None] * width
                for j, kind in enumerate(kinds):
                    value = row[j]
                    if value is None or kind not in ("categorical", "discretized") or \
                            _is_missing(value):
                        continue
                    if kind == "discretized":
                        value = float(value)
                        if rounding is not None:
                            value = rounding(value)
                        if value == 0:
                            value = 0.0          # -0.0 and 0.0: one value
                    out[j] = value
                values.append(tuple(out))
            self.row_counts.add(label, values, weight_groups[label] if weight_groups
                                else None)
        _check_memory(fitting.params, fitting.call, self)
        return groups, weight_groups, names

    def compile(self, params):
        """The compiled network (its structure searched now)."""
        return _NetworkModel(self, params)

    def to_file(self, classes):
        """The model file's "features", "row_counts" and "class_order" fields."""
        data = super().to_file(classes)
        width = len(self.features)
        rows = self.row_counts
        if any(len(row) != width for counted in rows.rows.values() for row in counted):
            rows = self._widened(rows, list(self.features), list(self.features))
        data.update(rows.to_file(classes))
        data["class_order"] = [_encode(label, "a class label") for label in
                               self.class_order]
        if rows.threshold is not None:
            data["row_sample"] = {"rows": rows.capacity, "threshold": rows.threshold}
        return data

    @classmethod
    def from_file(cls, data, classes, class_count):
        """The network statistics of a model file, validated."""
        statistics = super().from_file(data, classes, class_count)
        statistics.row_counts = _RowCounts.from_file(data, classes, class_count,
                                                     len(statistics.features),
                                                     list(statistics.features))
        statistics.check_rows(classes)
        order = _field(data, "class_order")
        order = _decode_list(list(order) if type(order) is _LazyItems else order,
                             "class_order")
        for label in order:
            _expect(_hashable(label) and label in class_count, "class_order", label,
                    "labels among the classes")
        if len(set(order)) != len(order):
            raise _Invalid("class_order repeats a label; expected distinct labels")
        statistics.class_order = order
        return statistics

    def check_rows(self, classes):
        """_Invalid unless the rows are the features' values, as counting makes them: a
        categorical feature's values, a discretized one's floats, None (missing) for
        any value of another kind, and per class the weights of the rows holding each
        value adding up to the feature's count of it (its counts or record).  The
        network's tables are read from the rows, the summary and the naive members of
        AutoBayes from the features: a file where they disagree is refused."""
        features = list(self.features.values())
        for k, label in enumerate(classes):
            counted = self.row_counts.rows.get(label, {})
            weights = [weight for weight, _ in counted.values()]
            columns = list(zip(*counted)) or [()] * len(features)
            for j, (feature, column) in enumerate(zip(features, columns)):
                kind = feature.name
                present = [(value, weight) for value, weight in zip(column, weights)
                           if value is not None]
                odd = next((value for value, _ in present if kind not in _ROW_KINDS or
                            (kind == "discretized" and type(value) is not float)), None)
                if odd is not None:
                    raise _Invalid("row_counts[%d] holds %s for features[%d], which is %s; "
                                   "expected %s" % (k, _describe(odd), j, kind or "undecided",
                                                    "a float or null" if kind in _ROW_KINDS
                                                    else "null"))
                if kind not in _ROW_KINDS:
                    continue
                sums = {}
                get = sums.get
                level = getattr(feature.stats, "level", _FULL_RESOLUTION)
                for value, weight in present:
                    if level < _FULL_RESOLUTION:    # the rows' numbers, at the record's
                        value = _grid_key(value, level)
                    sums[value] = get(value, 0) + weight
                counts = feature.stats.counts.get(label, {})
                if self.row_counts.sampled():     # a sample: at most the counts
                    value = next((v for v in sums if sums[v] > counts.get(v, 0)), None)
                    if value is not None:
                        raise _Invalid(
                            "row_counts[%d]: the sampled rows of class %s with value %s of "
                            "features[%d] weigh %s in all, more than the feature counts "
                            "(%s); expected at most the counts" % (
                                k, _shown(label), _shown(value), j,
                                _shown(_plain(sums[value])),
                                _shown(_plain(counts.get(value, 0)))))
                elif sums != counts:
                    value = next(chain((v for v in sums if sums[v] != counts.get(v)),
                                       (v for v in counts if v not in sums)))
                    raise _Invalid("row_counts[%d]: the rows of class %s with value %s of "
                                   "features[%d] weigh %s in all, but the feature counts %s; "
                                   "expected the same" % (
                                       k, _shown(label), _shown(value), j,
                                       _shown(_plain(sums.get(value, 0))),
                                       _shown(_plain(counts.get(value, 0)))))

    def extra_summary(self):
        """{"distinct rows": how many are kept} (and "row sample" when they are a
        sample: how many distinct rows it may keep)."""
        if self.row_counts.sampled():
            return {"distinct rows": self.row_counts.size(),
                    "row sample": "the %s distinct rows of smallest hash (row_sample)"
                    % format(self.row_counts.capacity, ",")}
        return {"distinct rows": self.row_counts.size()}

    def memory_estimate(self, params=None):
        """(bytes, what) of the memory that grows beyond naive Bayes' in use: the
        distinct rows, and what compiling takes: the rows as nodes, and the
        structure search's scores of every pair of nodes (the nodes' tables are
        estimated once the structure is known: _NetworkModel)."""
        rows = self.row_counts.size()
        nodes = 1 + sum(feature.name in ("categorical", "discretized")
                        for feature in self.features.values())
        return (_network_bytes(rows, len(self.features), nodes),
                "the network's distinct rows (%s) and structure search (%s nodes)"
                % (format(rows, ","), format(nodes, ",")))


def _network_bytes(rows, width, nodes):
    """Bytes a network takes in use before its tables: ``rows`` distinct rows of
    ``width`` features kept, compiled as ``nodes`` nodes, and the search's scores of
    every pair of nodes."""
    return rows * (_ROW_BYTES + _CELL_BYTES * width + _NETWORK_ROW_BYTES +
                   _NETWORK_CELL_BYTES * nodes) + nodes * nodes * _NODE_PAIR_BYTES


_DENSE_TABLE = 1 << 16    # a node's table this large or smaller is kept whole


class _SparseCells(dict):
    """A node's table of log P(value | configuration) by cell, for a table too large
    to keep whole: the cells whose count is not 0; ``defaults``, per configuration
    that occurs in training, the entry of a value of count 0 in it; any other cell is
    in a configuration that never occurs, whose entry is ``empty`` (1/|V|, the
    estimate from no counts)."""

    __slots__ = ("size", "empty", "defaults")

    def __init__(self, size, empty):
        super().__init__()
        self.size = size
        self.empty = empty
        self.defaults = {}

    def __missing__(self, cell):
        """The entry of a value of count 0."""
        default = self.defaults.get(cell // self.size)
        return self.empty[cell % self.size] if default is None else default

    def rows(self):
        """(configuration, [entry of each value]) of the occurring configurations, in
        configuration order."""
        size = self.size
        return [(j, [self[j * size + v] for v in range(size)])
                for j in sorted(self.defaults)]


class _NodeVectors(dict):
    """One node's terms for every class at once: the key (the node's value, then its
    parents' values but the class's) -> per class (classes_ order) log P(value |
    parents), filled as keys occur (a table holds no more entries than it has cells,
    and most are never asked for)."""

    __slots__ = ("model", "node", "positions")

    def __init__(self, model, node):
        super().__init__()
        self.model = model
        self.node = node
        root = model.root
        # where each parent's value is: in the key (its place), or the class (None)
        own = 0 if node != root else None
        features = [p for p in model.parents[node] if p != root]
        self.positions = [None if p == root else features.index(p) + (own is not None)
                          for p in model.parents[node]]

    def __missing__(self, key):
        """The terms of a key, as node_terms computes them."""
        model = self.model
        node = self.node
        size = model.cardinality[node]
        table = model.cpts[node]
        sizes = [model.cardinality[p] for p in model.parents[node]]
        vector = []
        for c in model.class_index:
            j = 0
            for where, parent_size in zip(self.positions, sizes):
                j = j * parent_size + (c if where is None else key[where])
            vector.append(table[j * size + (c if node == model.root else key[0])])
        vector = tuple(vector)
        self[key] = vector
        return vector


class _NetworkFast:
    """A network's joint log-likelihoods of whole rows with one dict lookup per node:
    every node's terms for all classes at once (_NodeVectors), keyed by the values of
    the row that the node's table reads, then added per class in node order, as
    joint adds them (so the same numbers).  A row with a missing, unseen or odd value,
    or an infinite term, returns None: joint scores it (and names what is wrong)."""

    def __init__(self, model):
        used = model.used
        self.categorical = [n for n, j in enumerate(used) if j not in model.cuts]
        self.binned = [n for n, j in enumerate(used) if j in model.cuts]
        self.pick_categorical = _picker([used[n] for n in self.categorical], model.width)
        self.pick_binned = _picker([used[n] for n in self.binned], model.width)
        self.indexes = [model.index[used[n]] for n in self.categorical]
        if model.missing == "skip":       # a value never seen: joint reads the row
            self.indexes = [{v: i for v, i in index.items() if i in model.seen[n]}
                            for index, n in zip(self.indexes, self.categorical)]
        self.cuts = [model.cuts[used[n]] for n in self.binned]
        # (a bin no training row holds, with missing="skip": joint reads every row)
        self.off = model.missing == "skip" and any(
            len(model.seen[n]) < model.cardinality[n] for n in self.binned)
        order = self.categorical + self.binned          # node n's value: order.index(n)
        self.node_order = None if order == list(range(len(used))) else \
            itemgetter(*[order.index(n) for n in range(len(used))])
        root = model.root
        self.keys = []
        for node, parents in enumerate(model.parents):
            key = ([] if node == root else [node]) + [p for p in parents if p != root]
            # (itemgetter of one place gives the value, not a tuple: the place twice)
            self.keys.append(itemgetter(*key, *key) if len(key) == 1 else
                             itemgetter(*key) if key else _no_key)
        self.vectors = [_NodeVectors(model, node) for node in range(len(model.parents))]

    def joint(self, row):
        """Per-class joint log-likelihoods of one row (in feature order), or None."""
        if self.off:
            return None
        try:
            values = []
            if self.categorical:
                pick = self.pick_categorical
                values = list(map(dict.get, self.indexes, row if pick is None else pick(row)))
                if None in values:
                    return None           # missing, unseen
            if self.cuts:
                pick = self.pick_binned
                numbers = row if pick is None else pick(row)
                if not _FLOAT_INT.issuperset(map(type, numbers)):
                    return None
                total = sum(numbers)
                if total - total != 0:
                    return None           # NaN or infinite
                values += map(bisect_left, self.cuts, map(float, numbers))   # as _number
            if self.node_order is not None:
                values = list(self.node_order(values))
        except (TypeError, OverflowError):          # unhashable, or an int beyond floats
            return None
        joint = list(map(sum, zip(*map(getitem, self.vectors,
                                       [key(values) for key in self.keys]))))
        total = sum(joint)
        return joint if total - total == 0 else None


def _no_key(values):
    """The key of a node that reads no value of the row (the class without parents)."""
    return ()


_SCORED_ROWS = 2 ** 900    # the most weight the structure search scores as it is


def _within_scores(scored, unit):
    """The search's (values, weight in units) rows, the weights scaled down by a power
    of 2 when they add up beyond _SCORED_ROWS rows (weights near 1e308, or a file's
    exact counts beyond the float range): the BAYES score of such counts is beyond
    doubles (lgamma(1e308) overflows), and its prior of 1/2 per cell is negligible
    after the scaling as before."""
    total = sum(n for _, n in scored)
    if total <= _SCORED_ROWS * unit:
        return scored
    shift = (total // unit).bit_length() - _SCORED_ROWS.bit_length()
    return [(values, n >> shift) for values, n in scored if n >> shift]


def _node_table(counts, sizes, size, estimate, alpha, m, first=None):
    """(table, concentrations): one node's log P(value | configuration), flat at
    configuration * size + value (mixed radix over the parents' ``sizes``, the first
    most significant), from ``counts`` {configuration: {value: weight}} of
    the occurring configurations, by an estimate:

    - "laplace": (alpha + w(j, x)) / (alpha |X| + w(j)), Weka's SimpleEstimator, in
      doubles as it computes them;
    - "m": the m-estimate (w(j, x) + m / |X|) / (w(j) + m), the same formula with
      alpha = m / |X|;
    - "hdp": hierarchical smoothing (_Hierarchy): the table shrunk towards the same
      table without its last parent, and so on to P(x), the parent at position
      ``first`` (the class) conditioned on first, the others in their order; the
      concentrations are then [theta_1, ..., theta_L] (None otherwise).

    A list of every cell when the table has at most _DENSE_TABLE cells, else a
    _SparseCells of the occurring configurations (the others give what an empty
    configuration gives: 1 / |X|, or for "hdp" the level above's): the same numbers
    either way."""
    if estimate == "hdp":
        return _hierarchical_table(counts, sizes, size, first)
    from fractions import Fraction
    alpha = Fraction(alpha) if estimate == "laplace" else Fraction(m) / size
    configurations = 1
    for parent_size in sizes:
        configurations *= parent_size

    def entry(n, total):
        """log((alpha + n) / total) in doubles as Weka's estimator computes it
        (total the float of alpha |X| + w(j)); a total beyond the float range
        (alpha near 1e308, or such weights) is kept exact, the ratio rounded."""
        if not total:
            return -log(size)
        if type(total) is float:
            if type(n) is int:        # float(alpha + n) of exact ints: the same rounding
                return _log((numerator + n * denominator) / denominator / total)
            return _log(float(alpha + n) / total)
        return _log(float((alpha + n) / total))

    def as_float(total):
        """The float of an exact total, or the total itself beyond the float range."""
        return float(total) if total <= _FLOAT_MAX else Fraction(total)

    def total_of(weight):
        """as_float(alpha |X| + weight), of exact ints for a whole weight (int / int
        rounds once, as float() of the Fraction does)."""
        if type(weight) is int:
            top = numerator * size + weight * denominator
            if top <= _FLOAT_MAX_EXACT * denominator:
                return top / denominator
        return as_float(alpha * size + weight)
    numerator, denominator = alpha.as_integer_ratio()
    empty = [entry(0, as_float(alpha * size))] * size
    if configurations * size <= _DENSE_TABLE:
        table = []
        for j in range(configurations):
            config = counts.get(j)
            if config is None:
                table.extend(empty)
                continue
            total = total_of(sum(config.values()))
            table.extend([entry(config.get(v, 0), total) for v in range(size)])
        return table, None
    table = _SparseCells(size, empty)
    for j, config in counts.items():
        total = total_of(sum(config.values()))
        table.defaults[j] = entry(0, total)
        for v, n in config.items():
            if n:
                table[j * size + v] = entry(n, total)
    return table, None


def _hierarchical_table(counts, sizes, size, first):
    """_node_table's "hdp" table: the _Hierarchy of the counts, its parents in the
    hierarchy's order (the one at ``first`` first, the others in their order), read
    back in the table's."""
    order = ([first] if first is not None else []) + [i for i in range(len(sizes))
                                                      if i != first]
    ordered = [sizes[i] for i in order]
    if order == list(range(len(sizes))):
        to_hierarchy = None
    else:
        def to_hierarchy(j):
            """A configuration of the table's order, in the hierarchy's."""
            digits = []
            for parent_size in reversed(sizes):
                j, digit = divmod(j, parent_size)
                digits.append(digit)
            digits.reverse()
            h = 0
            for i in order:
                h = h * sizes[i] + digits[i]
            return h
    cells = {}
    for j, config in counts.items():
        h = (j if to_hierarchy is None else to_hierarchy(j)) * size
        for v, weight in config.items():
            cells[h + v] = weight
    hierarchy = _Hierarchy(cells, ordered, size)
    depth = len(sizes)
    configurations = 1
    for parent_size in sizes:
        configurations *= parent_size
    if configurations * size > _DENSE_TABLE:
        return _BackoffCells(size, hierarchy, to_hierarchy, counts), hierarchy.thetas[1:]
    table = []
    vector = hierarchy.vector
    for j in range(configurations):
        table.extend(_logs(vector(depth, j if to_hierarchy is None else to_hierarchy(j))))
    return table, hierarchy.thetas[1:]


class _BackoffCells(_SparseCells):
    """A large "hdp" table: any cell read from its _Hierarchy (a configuration that
    never occurs backs off to the level above); ``defaults`` holds the occurring
    configurations (as keys, for rows())."""

    __slots__ = ("hierarchy", "to_hierarchy")

    def __init__(self, size, hierarchy, to_hierarchy, occurring):
        super().__init__(size, None)
        self.hierarchy = hierarchy
        self.to_hierarchy = to_hierarchy
        self.defaults = dict.fromkeys(sorted(occurring))

    def __missing__(self, cell):
        """log P of a cell."""
        j, v = divmod(cell, self.size)
        if self.to_hierarchy is not None:
            j = self.to_hierarchy(j)
        return _logs([self.hierarchy.vector(len(self.hierarchy.sizes), j)[v]])[0]


_SELECTION_PSEUDO = 1e-9     # the least pseudo-count of the leave-one-out selection


def _selection_bytes(rows, classes, max_k):
    """Bytes selective kDB's leave-one-out takes beyond the network: per distinct
    row and class, the joint log-likelihood of each k (doubles in arrays) and a
    node's lists of the levels being computed (floats in lists)."""
    return rows * max(1, classes) * (8 * (max_k + 1) + 40 * (max_k + 6))


def _kdb_selection(model, prepared, order, max_k):
    """(s, k) of selective kDB (Martinez, Webb, Chen and Zaidi 2016): of the models
    that keep the first s features of ``order`` (the others left out: no evidence)
    and the first k <= max_k parents of each besides the class, the one whose
    leave-one-out predictions of the training rows have the least squared error of
    the true class's probability, sum over rows of w (1 - P(y | x))^2 (the square
    of their root mean squared error, as Martinez et al.'s); ties to the smaller k,
    then the fewer features.

    Leaving a row out is exact, from the counts: a weight of w counts as w rows
    (scikit-learn's meaning, as everywhere), so a row's share r = min(1, W) of its
    distinct row (of weight W) is taken out of the class's count and, for the class
    the row holds, of its cell of each feature's table (for another class those
    cells hold other rows); the "hdp" estimate keeps its concentrations (those of
    all the rows) and takes r out of its top level, P(x), whatever the class.  A
    distinct row of weight W adds W times its squared error.  Every sum is exactly
    rounded over the rows in the order of their values, so the choice is a
    function of the counts."""
    from array import array
    cardinality, root, k_classes = model.cardinality, model.root, len(model.class_values)
    estimate = model.estimate
    rows = sorted((values, weight) for values, (weight, _) in prepared.items() if weight)
    if not rows or not order:
        return 0, 0
    weights = [float(weight) for _, weight in rows]
    shares = [min(1.0, w) for w in weights]           # one row: a weight of 1
    truth = [values[root] for values, _ in rows]
    classes = list(range(k_classes))
    pairs = len(rows) * k_classes               # (row, class) at row * K + class
    # r at levels that hold the class (the row's own class only) and at the top
    removed = [r if c == y else 0.0 for r, y in zip(shares, truth) for c in classes]
    removed_top = [r for r in shares for _ in classes]
    hypotheses = classes * len(rows)
    truth_index = [row * k_classes + y for row, y in enumerate(truth)]
    # the class node: (N(c) - r [c = y] + a) / (N - r + a K)
    # (a pseudo-count of 0, alpha = 0 or m = 0, is taken as 1e-9: a row alone in
    # its cell then has a finite loss)
    a = max(_SELECTION_PSEUDO, {"laplace": model.alpha, "m": model.m / k_classes,
                                "hdp": 1.0}[estimate])
    class_totals = [0] * k_classes
    for values, weight in rows:
        class_totals[values[root]] += weight
    whole = float(sum(class_totals))
    class_totals = [float(n) for n in class_totals]
    prior = list(map(log, map(truediv, map(add, map(sub, map(
        class_totals.__getitem__, hypotheses), removed), repeat(a)), map(add, map(
            sub, repeat(whole), removed_top), repeat(a * k_classes)))))
    joints = [array("d", prior) for _ in range(max_k + 1)]

    def squared_error(joint):
        """sum over rows of w (1 - P(y | x))^2, P from the joints of every class."""
        columns = [joint[c::k_classes] for c in classes]
        top = list(map(max, *columns)) if k_classes > 1 else list(columns[0])
        mass = list(map(exp, map(sub, columns[0], top)))
        for column in columns[1:]:
            mass = list(map(add, mass, map(exp, map(sub, column, top))))
        chance = map(truediv, map(exp, map(sub, map(joint.__getitem__, truth_index), top)),
                     mass)
        miss = list(map(sub, repeat(1.0), chance))
        return fsum(map(mul, weights, map(mul, miss, miss)))

    first = squared_error(joints[0])
    best = (first, 0, 0)                         # (error, k, s): the least wins
    for s, node in enumerate(order, 1):
        _progress("selecting features, feature", s, len(order))
        size = cardinality[node]
        parents = model.parents[node][1:]
        depth = 1 + len(parents)
        cells = {}
        for values, weight in rows:
            h = values[root]
            for p in parents:
                h = h * cardinality[p] + values[p]
            key = h * size + values[node]
            cells[key] = cells.get(key, 0) + weight
        hierarchy = _Hierarchy(cells, [k_classes] + [cardinality[p] for p in parents],
                               size, estimate == "hdp")
        x = [values[node] for values, _ in rows for _ in classes]
        configuration = hypotheses
        if estimate == "hdp":             # P_0(x) with the row left out
            counts = hierarchy.counts[0]
            top = hierarchy.totals[0].get(0, 0.0)
            chance = list(map(truediv, map(add, map(sub, map(counts.get, x, repeat(0.0)),
                                                    removed_top), repeat(1.0)),
                              map(add, map(sub, repeat(top), removed_top), repeat(size))))
        terms = []                                # log P at level 1 (class), 2, ...
        for level in range(1, depth + 1):
            if level > 1:
                parent = parents[level - 2]
                configuration = list(map(add, map(mul, configuration, repeat(
                    cardinality[parent])), [values[parent] for values, _ in rows
                                            for _ in classes]))
            counts = hierarchy.counts[level]
            found = map(sub, map(counts.get, map(add, map(mul, configuration, repeat(size)),
                                                 x), repeat(0.0)), removed)
            totals = map(sub, map(hierarchy.totals[level].get, configuration,
                                  repeat(0.0)), removed)
            if estimate == "hdp":
                theta = hierarchy.thetas[level]
                chance = list(map(truediv, map(add, found, map(mul, chance, repeat(theta))),
                                  map(add, totals, repeat(theta))))
            else:
                pseudo = max(_SELECTION_PSEUDO, model.alpha if estimate == "laplace"
                             else model.m / size)
                chance = list(map(truediv, map(add, found, repeat(pseudo)),
                                  map(add, totals, repeat(pseudo * size))))
            terms.append(_logs(chance))
        del hierarchy, cells
        for k in range(max_k + 1):
            joint = joints[k] = array("d", map(add, joints[k], terms[min(k, depth - 1)]))
            error = squared_error(joint)
            if (error, k, s) < best:
                best = (error, k, s)
    _progress("selecting features, feature")
    return best[2], best[1]


class _NetworkModel:
    """The compiled network: the data as BayesNet sees it (bins and filled-in values),
    the structure its search finds, and every node's table of log P(x | parents).

    The nodes are the categorical and discretized features in column order, then the
    class (Weka's ARFF files put the class last).  A row's joint log-likelihood of
    class c is the sum over the nodes of log P(node's value | its parents' values),
    the class node taking the value c; P(x | j) = (alpha + w(j, x)) / (alpha |X| +
    w(j)) from the weighted counts (SimpleEstimator; estimate="m" and "hdp": see
    _node_table); the search uses a prior of 1/2 per cell whatever alpha is (as
    Weka).  Selective kDB's features left out (``dropped``) get no parents and a
    table of log 1: no evidence.  The search and the bins weigh rows as the
    tables do, so that a weight of 2 is a row counted twice (scikit-learn's meaning;
    Weka's search and its MDL test count rows whatever their weights: the same with
    unit weights, Weka's own data).  A missing value, or a value never seen in
    training, counts as its feature's most frequent bin or value (weighted; the first
    of equal ones), or with missing="skip" says nothing (see _NETWORK_MISSING).
    """

    def __init__(self, statistics, params):
        self.classes = classes = statistics.classes()
        self.names = names = statistics.names()
        self.width = len(names)
        estimate, what = statistics.memory_estimate(params)
        _within_budget(params, estimate, what, _NETWORK_FIX)
        self.k = len(classes)
        self.zeros = (0.0,) * self.k
        self.alpha = params["alpha"]
        self.estimate = params.get("estimate", "laplace")
        self.m = params.get("m", 1.0)
        # the family's declared search (a KeyError for a family that declares none)
        self.search = params["structure_search"]
        search = _STRUCTURE_SEARCHES[self.search]
        order = [c for c in statistics.class_order if c in statistics.class_count]
        self.class_values = order + [c for c in classes if c not in order]
        self.class_index = [self.class_values.index(c) for c in classes]
        kinds = [statistics.features[name].name for name in names]
        self.used = used = [j for j, kind in enumerate(kinds) if kind in
                            ("categorical", "discretized")]
        rows = statistics.row_counts.rows
        self.cuts, self.index, self.values = {}, {}, {}
        for n, j in enumerate(used):
            _progress("feature", n + 1, len(used))
            if kinds[j] == "categorical":
                self.values[j] = statistics.features[names[j]].stats.values()
                self.index[j] = {v: i for i, v in enumerate(self.values[j])}
            else:
                self.cuts[j] = self._cut_points(rows, j)
        _progress("feature")
        self.cardinality = [max(1, len(self.values[j])) if j in self.values else
                            len(self.cuts[j]) + 1 for j in used] + [len(self.class_values)]
        # per class, each used feature's node values of its rows (None: missing),
        # by builtins over the columns: the values _index gives, row by row
        node_columns = {label: self._node_columns(counted) for label, counted in rows.items()}
        self.modes = self._modes_of_columns(rows, node_columns)
        self.missing = params.get("missing", "mode")
        skip = self.missing == "skip"     # missing values kept as None (_NETWORK_MISSING)
        prepared = {}                     # values as node indices -> [weight, rows]
        for label, counted in rows.items():
            c = self.class_values.index(label)
            columns = [column if skip or None not in column else
                       [mode if v is None else v for v in column]
                       for column, mode in zip(node_columns[label], self.modes)]
            keys = zip(*columns, repeat(c)) if columns else repeat((c,))
            _add_counted(prepared, zip(keys, counted.values()))
        self.prepared = prepared
        self.fast = None                  # the _NetworkFast, made on first use
        from fractions import Fraction
        unit = _common_denominator(weight for weight, _ in prepared.values())
        searched = self._mode_filled(prepared) if skip else prepared
        scored = [(values, weight * unit if type(weight) is int else
                   int(Fraction(weight) * unit))
                  for values, (weight, _) in searched.items() if weight]
        score = _NetworkScores(_within_scores(scored, unit), self.cardinality, unit)
        nodes = len(used) + 1
        self.root = root = nodes - 1
        self.parents = search(score, nodes, root, params)
        self.selection = None             # selective kDB: (features kept, k)
        self.dropped = set()              # the features it leaves out (no evidence)
        if params.get("k") == "select":
            order = _kdb_order(_kdb_informations(score, nodes, root, False)[0], nodes, root)
        del score                         # the search's scores are no longer needed
        if params.get("k") == "select":
            # a feature has at most nodes - 2 parents besides the class: a larger k
            # gives the same model (and the selection's ties go to the smaller k)
            max_k = min(params["max_k"], max(0, nodes - 2))
            _within_budget(params, estimate + _selection_bytes(len(prepared), self.k,
                                                               max_k),
                           "selective kDB's leave-one-out (%s)" % what, _NETWORK_FIX)
            # (missing="skip": the rows as the search scored them, Weka's fill, so
            # that both policies select alike)
            self.selection = features, k = _kdb_selection(self, searched, order, max_k)
            self.dropped = set(order[features:])
            for i in order:
                self.parents[i] = self.parents[i][:1 + k] if i not in self.dropped else []
        del searched
        self.memory = estimate + self._tables_bytes(len(prepared))   # bytes, by estimate
        _within_budget(params, self.memory, "the network's tables (its structure found, "
                       "%s)" % what, _NETWORK_FIX)
        tables = [self._table(node, self.parents[node], prepared) if node not in self.dropped
                  else ([0.0] * self.cardinality[node], None) for node in range(nodes)]
        self.cpts = [table for table, _ in tables]
        self.concentrations = [thetas for _, thetas in tables]   # "hdp": per level
        # missing="skip": each feature node's values seen in training (a positive
        # weight), and the tables of a node given a part of its parents (table_given)
        self.seen = self._seen_values(prepared) if skip else None
        self.backoff = {}

    def _mode_filled(self, prepared):
        """The prepared rows with every missing value (None) counted as its feature's
        most frequent bin or value, as Weka fills them (what the search scores under
        missing="skip" too: see _NETWORK_MISSING)."""
        filled = {}
        modes = self.modes + [None]
        _add_counted(filled, ((tuple([mode if v is None else v for v, mode in zip(values, modes)])
                               if None in values else values, cell)
                              for values, cell in prepared.items()))
        return filled

    def _seen_values(self, prepared):
        """Per feature node, the set of its value indices that rows of positive
        weight hold."""
        seen = [set() for _ in self.used]
        for values, (weight, _) in prepared.items():
            if weight:
                for mine, value in zip(seen, values):
                    if value is not None:
                        mine.add(value)
        return seen

    def _tables_bytes(self, rows):
        """The estimate of every node's table: its cells kept whole (at most
        _DENSE_TABLE), else at most one per row and node (_SparseCells); with
        missing="skip", and every table of the node given a part of its parents."""
        cells = 0
        for node, parents in enumerate(self.parents):
            subsets = [parents]
            if self.missing == "skip":
                subsets = [[p for n, p in enumerate(parents) if mask >> n & 1]
                           for mask in range(1 << len(parents))]
            for chosen in subsets:
                size = self.cardinality[node]
                for p in chosen:
                    size *= self.cardinality[p]
                cells += size if size <= _DENSE_TABLE else 3 * min(size, rows)
        return cells * _TABLE_CELL_BYTES

    def _cut_points(self, rows, j):
        """Feature j's MDL cut points, as Weka's Discretize finds them, from the class
        weights per value (values of weight 0 left out)."""
        weights = {}
        for label, counted in rows.items():
            c = self.class_values.index(label)
            for row, (weight, _) in counted.items():
                value = row[j] if j < len(row) else None
                if value is not None and weight:
                    weights.setdefault(value, [0] * len(self.class_values))[c] += weight
        values = sorted(weights)
        if not values:
            return []
        return _mdl_cut_points(values, [list(column) for column in
                                        zip(*[weights[v] for v in values])])

    def _node_columns(self, counted):
        """Per used feature, the node values (_index) of the rows of one class (None
        for a missing value), in the rows' order."""
        width = self.width
        full = [row if len(row) == width else tuple(row[:width]) + (None,) * (width - len(row))
                for row in counted]
        columns = list(zip(*full)) if full else [()] * width
        out = []
        for j in self.used:
            column = columns[j]
            cuts = self.cuts.get(j)
            if cuts is None:
                out.append(list(map(self.index[j].get, column)))
            elif None in column:
                out.append([None if v is None else bisect_left(cuts, v) for v in column])
            else:
                out.append(list(map(bisect_left, repeat(cuts), column)))
        return out

    def _modes_of_columns(self, rows, node_columns):
        """Each used feature's most frequent node value (weighted, after the bins; the
        first of equal ones; 0 when every value is missing), from the rows' node
        values (node_columns: per class, _node_columns); the sums are exact."""
        totals = [[0] * size for size in self.cardinality[:-1]]
        for label, counted in rows.items():
            weights = [weight for weight, _ in counted.values()]
            ones = _INT.issuperset(map(type, weights)) and all(w == 1 for w in weights)
            for mine, column in zip(totals, node_columns[label]):
                if ones:                  # unit weights: counted by the C helper
                    counts = Counter()
                    _count_keys(counts, column)
                    for index, n in counts.items():
                        if index is not None:
                            mine[index] += n
                    continue
                for index, weight in zip(column, weights):
                    if index is not None:
                        mine[index] += weight
        return [column.index(max(column)) if column else 0 for column in totals]

    def _table(self, node, parents, prepared):
        """(node's table, its concentrations or None): log P(value | configuration)
        of a node given ``parents`` (a list, in the table's order), from the weighted
        counts of the rows, by the model's estimate (_node_table): the rows where
        the node and those parents are known (every row, but with missing="skip")."""
        cardinality = self.cardinality
        counts = {}                       # configuration -> {value: weight}
        skip = self.missing == "skip"
        for values, (weight, _) in prepared.items():
            if skip and (values[node] is None or None in [values[p] for p in parents]):
                continue                  # a row that does not say
            j = 0
            for p in parents:
                j = j * cardinality[p] + values[p]
            config = counts.get(j)
            if config is None:
                config = counts[j] = {}
            v = values[node]
            config[v] = config.get(v, 0) + weight
        first = parents.index(self.root) if self.root in parents else None
        return _node_table(counts, [cardinality[p] for p in parents], cardinality[node],
                           self.estimate, self.alpha, self.m, first)

    positional = _NaiveModel.positional

    def prepared_row(self, row):
        """(node values without the class, statuses) of a row; _RowError for a value of
        the wrong kind.  A missing or unseen value is its feature's most frequent one,
        or None with missing="skip" (a value that no training row of positive weight
        holds, declared or not, is unseen then)."""
        out, statuses = [], []
        skip = self.missing == "skip"
        for n, j in enumerate(self.used):
            value = row[j]
            if value is None or _is_missing(value):
                out.append(None if skip else self.modes[n])
                statuses.append("missing")
                continue
            try:
                if j in self.cuts:
                    number = _number(value)
                    if number is None or not isfinite(number):
                        raise _BadValue(value, "a real number" if number is None
                                        else "a finite number")
                    index = bisect_left(self.cuts[j], number)
                else:
                    index = self.index[j].get(value)
            except (_BadValue, TypeError) as error:
                raise _value_error(self.names[j], value, error) from None
            if index is None or skip and index not in self.seen[n]:
                out.append(None if skip else self.modes[n])
                statuses.append("unseen")
            else:
                out.append(index)
                statuses.append("used")
        return out, statuses

    def known_parents(self, values):
        """Per node, the parents whose values are known (values: prepared_row's,
        None for an unknown one; the class is known)."""
        return [[p for p in parents if p == self.root or values[p] is not None]
                for parents in self.parents]

    def table_given(self, node, parents):
        """Node's table given a part of its parents (missing="skip"), counted from
        the prepared rows when first asked for (_table: the rows where the node and
        those parents are known), then kept."""
        key = node, tuple(parents)
        table = self.backoff.get(key)
        if table is None:
            table = self.backoff[key] = self._table(node, list(parents), self.prepared)[0]
        return table

    def node_terms(self, values):
        """Per class (classes_ order), each node's log P(value | parents); with
        missing="skip", 0 for a node whose value is unknown, and a node with an
        unknown parent read from its table without that parent (_NETWORK_MISSING)."""
        if None in values:
            return self._terms_of_known(values)
        terms = []
        values = values + [0]
        root = self.root
        for c in self.class_index:
            values[root] = c
            mine = []
            for node, parents in enumerate(self.parents):
                j = 0
                for p in parents:
                    j = j * self.cardinality[p] + values[p]
                mine.append(self.cpts[node][j * self.cardinality[node] + values[node]])
            terms.append(mine)
        return terms

    def _terms_of_known(self, values):
        """node_terms of a row with unknown values (None: missing="skip")."""
        known = self.known_parents(values)
        tables = [self.cpts[node] if len(mine) == len(parents) else
                  self.table_given(node, mine)
                  for node, (parents, mine) in enumerate(zip(self.parents, known))]
        terms = []
        values = values + [0]
        root = self.root
        for c in self.class_index:
            values[root] = c
            mine = []
            for node, parents in enumerate(known):
                if values[node] is None:
                    mine.append(0.0)      # an unknown value says nothing
                    continue
                j = 0
                for p in parents:
                    j = j * self.cardinality[p] + values[p]
                mine.append(tables[node][j * self.cardinality[node] + values[node]])
            terms.append(mine)
        return terms

    def joint(self, row):
        """Per class, the sum of every node's log P(value | parents)."""
        values, _ = self.prepared_row(row)
        joint = [sum(terms) for terms in self.node_terms(values)]
        total = sum(joint)
        if total - total == 0:
            return joint
        return _joint_with_infinities([list(column) for column in
                                       zip(*self.node_terms(values))])

    def joints(self, rows):
        """Joint log-likelihoods of many rows: by the fast form where a row allows it
        (the same numbers as joint: the same terms added in the same order)."""
        fast = self.fast
        if fast is None:
            fast = self.fast = _NetworkFast(self)
        joint = self.joint
        return [fast.joint(row) or joint(row) for row in rows]

    def parent_names(self, node, parents=None):
        """A node's parents (or those given) as feature names, None for the class."""
        return [None if p == self.root else self.names[self.used[p]]
                for p in (self.parents[node] if parents is None else parents)]

    def explain(self, row, extra=()):
        """The joint log-likelihood split into the class node's term (the prior) and
        each feature node's term; a missing or unseen value contributes the term of
        the value it counts as (its feature's most frequent one, in "counted_as"),
        or nothing with missing="skip" ("parents" then names the parents each term
        was read given)."""
        classes = self.classes
        values, statuses = self.prepared_row(row)
        terms = self.node_terms(values)
        known = self.known_parents(values)
        node_of = {j: n for n, j in enumerate(self.used)}
        features = []
        for j, (name, value) in enumerate(zip(self.names, row)):
            n = node_of.get(j)
            if n is None or n in self.dropped:     # (selective kDB's: no evidence)
                features.append({"feature": name, "value": value, "status": "ignored",
                                 "log_likelihood": dict.fromkeys(classes, 0.0)})
                continue
            entry = {"feature": name, "value": value, "status": statuses[n],
                     "log_likelihood": dict(zip(classes, [t[n] for t in terms])),
                     "parents": self.parent_names(n, known[n])}
            if values[n] is None:         # missing="skip": says nothing
                pass
            elif statuses[n] != "used":
                entry["counted_as"] = self.node_value(n, values[n])
            elif j in self.cuts:
                entry["interval"] = _BinKeys(self.cuts[j], bisect_left).name(values[n])
            features.append(entry)
        for name, value in extra:
            features.append({"feature": name, "value": value, "status": "ignored",
                             "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, [t[self.root] for t in terms])),
                "features": features,
                "class_parents": self.parent_names(self.root, known[self.root])}

    def node_value(self, n, index):
        """Node n's value index as a value: a known value, or a bin's interval."""
        j = self.used[n]
        if j in self.cuts:
            return _BinKeys(self.cuts[j], bisect_left).name(index)
        return self.values[j][index] if self.values[j] else None

    def informative(self):
        """Values and bins ranked as naive Bayes ranks them (the log of their largest
        likelihood ratio between two classes, from the counts), the network's arcs
        aside."""
        ranked = []
        for n, j in enumerate(self.used):
            if n in self.dropped:
                continue
            table = self._naive(n)
            for index, vector in enumerate(table):
                ranked.append((self.names[j], self.node_value(n, index),
                               _log_ratio_range(vector),
                               self.classes[vector.index(max(vector))]))
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def _naive(self, n):
        """Per value of node n, per class log P(value | c) of its own counts."""
        size = self.cardinality[n]
        counts = [[0] * size for _ in self.classes]
        position = {c: k for k, c in enumerate(self.class_index)}
        for values, (weight, _) in self.prepared.items():
            if values[n] is not None:     # (missing="skip": the rows that say)
                counts[position[values[self.root]]][values[n]] += weight
        columns = [_log_smoothed(column, sum(column), self.alpha, size) for column in counts]
        return [tuple(column[v] for column in columns) for v in range(size)]

    def tables(self):
        """Per feature node its parents and table {parents' values: {value: P}}, the
        class node's under the key None; ignored features (and those selective kDB
        leaves out) {"kind": "ignore"}; with estimate="hdp", "concentrations": the
        theta of each level below the top (the class, then each other parent)."""
        out = {}
        node_of = {j: n for n, j in enumerate(self.used)}
        for j, name in enumerate(self.names):
            n = node_of.get(j)
            if n is None or n in self.dropped:
                out[name] = {"kind": "ignore"}
                continue
            table = {"kind": "discretized" if j in self.cuts else "categorical",
                     "parents": self.parent_names(n), "probabilities": self._cpt(n)}
            if j in self.cuts:
                table["cuts"] = list(self.cuts[j])
            if self.concentrations[n] is not None:
                table["concentrations"] = list(self.concentrations[n])
            out[name] = table
        out[None] = {"kind": "class", "parents": self.parent_names(self.root),
                     "probabilities": self._cpt(self.root)}
        if self.concentrations[self.root] is not None:
            out[None]["concentrations"] = list(self.concentrations[self.root])
        return out

    def naive_tables(self):
        """Each feature's naive-Bayes view, P(x_j | c) of its own counts, as naive
        Bayes tables it (the pictures draw it)."""
        out = {}
        node_of = {j: n for n, j in enumerate(self.used)}
        for j, name in enumerate(self.names):
            n = node_of.get(j)
            if n is None or n in self.dropped:
                out[name] = {"kind": "ignore"}
                continue
            vectors = [[exp(t) for t in vector] for vector in self._naive(n)]
            if j in self.cuts:
                out[name] = {"kind": "discretized", "cuts": list(self.cuts[j]),
                             "probabilities": {label: [p[c] for p in vectors]
                                               for c, label in enumerate(self.classes)}}
            else:
                out[name] = {"kind": "categorical", "probabilities": {
                    label: {self.node_value(n, v): p[c] for v, p in enumerate(vectors)}
                    for c, label in enumerate(self.classes)}}
        return out

    def _cpt(self, node):
        """{parents' values (a tuple: labels for the class, values or bin intervals
        for features): {value: P}} of a node."""
        def value_of(n, index):
            return self.class_values[index] if n == self.root else self.node_value(n, index)
        parents = self.parents[node]
        size = self.cardinality[node]
        table = self.cpts[node]
        if isinstance(table, _SparseCells):
            rows = table.rows()
        else:
            rows = enumerate(table[j:j + size] for j in range(0, len(table), size))
        cpt = {}
        for j, row in rows:
            key, rest = [], j
            for p in reversed(parents):
                rest, index = divmod(rest, self.cardinality[p])
                key.append(value_of(p, index))
            cpt[tuple(reversed(key))] = {value_of(node, v): exp(t) for v, t in
                                         enumerate(row)}
        return cpt

    def summary_items(self):
        """{"parents": {feature: [parents]}, None for the class; the class node's
        parents under the key None}; selective kDB's choice under "selected":
        {"features": s, "k": k, "left out": [the features it leaves out]}."""
        parents = {self.names[j]: self.parent_names(n) for n, j in enumerate(self.used)}
        parents[None] = self.parent_names(self.root)
        if self.selection is None:
            return {"parents": parents}
        return {"parents": parents, "selected": {
            "features": self.selection[0], "k": self.selection[1],
            "left out": [self.names[j] for n, j in enumerate(self.used) if n in self.dropped]}}
