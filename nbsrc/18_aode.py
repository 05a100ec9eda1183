# -- AODE: averaged one-dependence estimators ------------------------------------------

_AODE_KINDS = ("categorical", "discretized", "ignore")
# The memory budget of the pairwise and network families (max_memory=, in MB): what
# they count grows with the number of distinct pairs or rows, and what they compile
# with it, so both are estimated together, as the memory the model takes in use (its
# statistics and its compiled tables at their peak), at about these many bytes per
# item (CPython's dict entries, int keys, lists of terms; measured by tracemalloc on
# CPython 3.11: the estimates are within about 1.3 times the peaks measured), and
# refused before they pass the budget, naming the figure and the fix.
_PAIR_BYTES = 100                # a pairwise count (statistics)
_DENSE_PAIR_BYTES = 130          # compiled, up to _AODE_DENSE_KEYS keys: a count renumbered
_ENTRY_BYTES = 36                # and a parent's term of a key (+ 8 per class)
_SPARSE_PAIR_BYTES = 100         # compiled, more keys: a count renumbered, and per
_SPARSE_KEY_BYTES = 480          # pair of keys its terms both ways and their columns
_SPARSE_CLASS_BYTES = 80         # (+ this per class)
_ROW_BYTES = 200                 # a distinct row of a network (statistics), plus
_CELL_BYTES = 8                  # per feature of it, and per node of its compiled form
_NETWORK_ROW_BYTES = 300         # a distinct row compiled (prepared, scored), plus
_NETWORK_CELL_BYTES = 40         # per node of it
_NODE_PAIR_BYTES = 300           # a scored pair of nodes of the structure search
_TABLE_CELL_BYTES = 40           # a cell of a node's table


def _aode_bytes(pairs, keys, classes, distinct=None, copies=1):
    """Bytes AODE takes in use: ``pairs`` pairwise counts (all classes together;
    ``copies``: 2 when impute=True copies them to fill missing values in) and their
    compiled tables, at most ``distinct`` pair keys (default: pairs); ``keys``: (the
    keys, those that may be parents), as _AODEStatistics.key_counts tells them."""
    keys, parents = keys
    distinct = pairs if distinct is None else distinct
    statistics = copies * pairs * _PAIR_BYTES
    # the compiled counts are keyed by key (a number's bin, not its raw value): at
    # most a count per parent, key and class, however many raw pairs were counted
    compiled = min(pairs, parents * keys * classes)
    if keys > _AODE_DENSE_KEYS:
        return statistics + compiled * _SPARSE_PAIR_BYTES + min(distinct, compiled) * (
            _SPARSE_KEY_BYTES + _SPARSE_CLASS_BYTES * classes)
    return statistics + compiled * _DENSE_PAIR_BYTES + parents * keys * (
        _ENTRY_BYTES + 8 * classes)


def _megabytes(size):
    """Bytes as megabytes: '2,500' or '0.31'."""
    megabytes = size / 1e6
    return format(megabytes, ",.0f") if megabytes >= 10 else "%.2g" % megabytes


class _OverBudget(Exception):
    """An estimate beyond max_memory: the reason, for the caller to name its call."""


def _memory_check(value):
    """max_memory: a number of megabytes > 0."""
    number = _number(value)
    if number is None or type(value) is bool or not number > 0 or not isfinite(number):
        return "a number of megabytes > 0"
    return None


def _within_budget(params, estimate, what, fix):
    """Raise _OverBudget when ``estimate`` (bytes) passes params' max_memory."""
    budget = params.get("max_memory")
    estimate += params.get("_memory_in_use", 0)   # what AutoBayes holds meanwhile
    if budget is not None and estimate > budget * 1e6:
        raise _OverBudget("%s would take about %s MB, beyond max_memory=%s (MB); %s, or "
                          "raise max_memory" % (what, _megabytes(estimate), _shown(budget),
                                                fix))


def _check_memory(params, call, *statistics):
    """NaiveBayesError naming the call when statistics (added up: a model and what
    partial_fit or merge adds to it) would pass params' max_memory in use, their
    compiled tables included."""
    estimates = [part.memory_estimate(params) for part in statistics
                 if part is not None and hasattr(part, "memory_estimate")]
    if not estimates:
        return
    fix = _NETWORK_FIX if "network" in estimates[0][1] else _AODE_FIX
    try:
        _within_budget(params, sum(size for size, _ in estimates), estimates[0][1], fix)
    except _OverBudget as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None


def _pair_limit(params, keys, classes, copies=1, in_use=0):
    """The most pairwise counts AODE may keep within params' max_memory (None: no
    budget), ``in_use`` bytes being taken already (the model partial_fit adds to)."""
    budget = params.get("max_memory")
    if budget is None:
        return None
    fixed = _aode_bytes(0, keys, classes)
    per_count = _aode_bytes(1, keys, classes, copies=copies) - fixed
    in_use += params.get("_memory_in_use", 0)
    room = budget * 1e6 - in_use - fixed
    if not isfinite(room):                # a budget beyond the float range: none
        return None
    return max(0, int(room // per_count))


def _pairs_over_budget(params, stop, keys, classes, label, copies=1):
    """The _OverBudget of counting stopped by _pair_limit (a _PairLimit)."""
    estimate = _aode_bytes(stop.args[0], keys, classes, copies=copies) + params.get(
        "_memory_in_use", 0)
    return _OverBudget(
        "AODE's pairwise counts and compiled tables would take more than %s MB "
        "(counting stopped at %s pairwise counts, at row %d of class %s), beyond "
        "max_memory=%s (MB); %s, or raise max_memory"
        % (_megabytes(estimate), format(stop.args[0], ","), stop.args[1] + 1,
           _shown(label), _shown(params.get("max_memory")), _AODE_FIX))


_MEMORY_PARAMETER = _Parameter(2000, _memory_check, (
    _cli_number, "AODE, TAN, BayesNet, KDB and auto: the most memory, in MB, their counts and "
    "compiled tables may take by estimate (default 2000); beyond it the fit or the first "
    "prediction is refused", {"metavar": "MB"}))
_ROW_SAMPLE_PARAMETER = _Parameter(_ROW_SAMPLE, _integer_at_least(1), (
    int, "tan, bayesnet, kdb and auto: the most distinct rows the statistics keep (default "
    "50000); beyond it, the deterministic sample of the rows of smallest hash",
    {"metavar": "ROWS"}))
_AODE_FIX = "use fewer features, ignore some, or round numbers with significant_digits="
_NETWORK_FIX = ("ignore features with many distinct values (identifiers), or round numbers "
                "with significant_digits=")
_AODE_WEIGHTINGS = ("mutual-information",)     # weighting= (None: equal weights)
_AODE_SMALL = 1e-6     # weka.core.Utils.SMALL: below it a mutual-information term, or
# the weight of a feature's present values (imputing its mean), counts as zero


def _aode_weighting_check(value):
    if value is None or (isinstance(value, str) and value in _AODE_WEIGHTINGS):
        return None
    return "None or " + " or ".join('"%s"' % w for w in _AODE_WEIGHTINGS)


def _aode_impute_check(value):
    return None if type(value) is bool or value == "fit" and type(value) is str else \
        'True, False or "fit"'


def _presence_counts(pairs, feature_of, width):
    """From one class's pair counts {a << 32 | b: N(c, a, b)} (value ids a < b, each
    of a feature in feature_of), ({a * width + j: sum_v N(c, a, v) over feature j's
    values v}: the rows with value a and feature j present, and {p * width + j (p <
    j): sum_{u, v} N(c, u, v)}: the rows with features p and j both present).  Whole
    counts are added up by the C counter, each key repeated count times, when that is
    not much more work than a loop over the keys."""
    keys = list(pairs)
    counts = list(pairs.values())
    low = list(map(_PAIR_SHIFT.__rrshift__, keys))
    high = list(map(0xFFFFFFFF .__and__, keys))
    low_feature = list(map(feature_of.__getitem__, low))
    high_feature = list(map(feature_of.__getitem__, high))
    with_feature = map(add, map(mul, low, repeat(width)), high_feature)
    with_feature = chain(with_feature, map(add, map(mul, high, repeat(width)), low_feature))
    both = map(add, map(mul, map(min, low_feature, high_feature), repeat(width)),
               map(max, low_feature, high_feature))
    sums = []
    for grouped, times in ((with_feature, counts + counts), (both, counts)):
        counter = {}
        if _INT.issuperset(map(type, counts)) and sum(counts) <= 8 * len(counts):
            _count_keys(counter, chain.from_iterable(map(repeat, grouped, times)))
        else:
            get = counter.get
            for key, count in zip(grouped, times):
                counter[key] = get(key, 0) + count
        sums.append(counter)
    return sums[0], sums[1]


class _AODEStatistics(_NaiveStatistics):
    """The sufficient statistics of AODE: those of naive Bayes (class counts, each
    feature's counts or record of values) and the pairwise class-conditional counts
    N(c, x_p, x_j) of every two features p < j (a _PairCounts), weighted and exact.

    Memory: one count per class and pair of values that occur together, at most
    K * V^2 / 2 for V distinct values of all features together (20 features of 8
    values, 3 classes: 38,400 counts); numbers are counted as they are (bins are cut
    when the model is compiled), so continuous features are best rounded with
    significant_digits.  A fit whose counts would pass max_memory (about 100 bytes
    each: 20 million counts at the default 2000 MB) is refused (see _check_memory).
    """

    file_fields = ("features", "pairs")
    optional_file_fields = ("pair_resolution",)   # written only when pairs are coarsened
    __slots__ = ("pair_counts", "bins_seen")

    def __init__(self):
        super().__init__()
        self.pair_counts = _PairCounts()
        self.bins_seen = {}      # feature position -> (its distinct numbers, bins) when cut

    def copy(self):
        """An equal, independent copy."""
        twin = super().copy()
        twin.pair_counts = self.pair_counts.copy()
        return twin

    def absorb(self, other):
        """Add other's statistics, pair counts included (other's feature positions
        renumbered to these by name: rows as mappings may hold other names)."""
        super().absorb(other)
        theirs = other.pair_counts
        position = {name: j for j, name in enumerate(self.features)}
        moved = {j: position[name] for j, name in enumerate(other.features)}
        if any(j != k for j, k in moved.items()):
            theirs = theirs.renumbered(moved)
        self.pair_counts.absorb(theirs)
        return self

    def reordered(self, before):
        """The pairs' feature positions renumbered from the names ``before``."""
        position = {name: j for j, name in enumerate(self.features)}
        self.pair_counts = self.pair_counts.renumbered(
            {j: position[name] for j, name in enumerate(before)})

    def deficit(self, other):
        """What other holds beyond these statistics, pair counts included."""
        problem = super().deficit(other)
        if problem is None:
            problem = self.pair_counts.deficit(other.pair_counts, self.emptied(other))
        return problem

    def remove(self, other):
        """Remove other's statistics, pair counts included (their feature positions
        are these: other counted into a skeleton of these)."""
        super().remove(other)
        self.pair_counts.subtract(other.pair_counts)

    def settle(self, other, fitting):
        """As naive Bayes settles; pairs renumbered when features are dropped, and
        their values counted as numbers when a feature becomes numeric."""
        names = list(self.features)
        changed = super().settle(other, fitting)
        if list(self.features) != names or changed:
            position = {name: j for j, name in enumerate(self.features)}
            number = _counted_number(fitting.params)
            self.pair_counts = self.pair_counts.renumbered(
                {j: position.get(name) for j, name in enumerate(names)},
                {j: number for j, name in enumerate(names) if name in changed})
            self.pair_counts.numeric = frozenset(
                j for j, feature in enumerate(self.features.values())
                if feature.name == "discretized")
            self.pair_counts.slack = None
            self.pair_counts.bound()
        return changed

    def count(self, rows, labels, weights, start, fitting):
        """Count as naive Bayes does, then the pairs of every row's present values of
        its categorical and discretized features (numbers as counted, rounded with
        significant_digits when it is set, and keyed at their pairs' finest level),
        _PAIR_ROWS rows at a time, each time bounded (see _PairCounts.bound)."""
        groups, weight_groups, names = super().count(rows, labels, weights, start, fitting)
        features = [self.features[name] for name in names]
        used = [j for j, stats in enumerate(features) if stats.name in
                ("categorical", "discretized")]
        rounding = [_round_to_digits(fitting.params.get("significant_digits"))
                    if features[j].name == "discretized" else None for j in range(len(names))]
        pair_counts = self.pair_counts
        numeric = frozenset(j for j in used if features[j].name == "discretized")
        if numeric != pair_counts.numeric:    # other pairs to bound: their sizes unknown
            pair_counts.numeric, pair_counts.slack = numeric, None
        get_id = pair_counts.ids.__getitem__
        classes = max(1, len(self.class_count))
        copies = self.copies(fitting.params)
        for label, group in groups.items():
            weight_group = weight_groups[label] if weight_groups else None
            for first in range(0, len(group), _PAIR_ROWS):
                levels = [pair_counts.side_level(j, used) if j in pair_counts.numeric
                          else None for j in range(len(names))]
                id_rows = []
                for row in group[first:first + _PAIR_ROWS]:
                    ids = []
                    for j in used:
                        value = row[j]
                        if value is None or _is_missing(value):
                            continue
                        if rounding[j] is not None or features[j].name == "discretized":
                            value = float(value)
                            if rounding[j] is not None:
                                value = rounding[j](value)
                            if value == 0:
                                value = 0.0          # -0.0 and 0.0: one value
                            elif levels[j] < _FULL_RESOLUTION:
                                value = _grid_key(value, levels[j])
                        ids.append(get_id((j, value)))
                    ids.sort()
                    id_rows.append(ids)
                # the budget is checked as the pairs are counted, before they take the
                # memory: a row of thousands of features has millions of pairs
                keys = self.key_counts()
                limit = _pair_limit(fitting.params, keys, classes, copies, fitting.in_use)
                try:
                    pair_counts.add_keyed(label, id_rows, None if weight_group is None
                                          else weight_group[first:first + _PAIR_ROWS],
                                          limit)
                except _PairLimit as stop:
                    stop = _PairLimit(stop.args[0], stop.args[1] + first)
                    error = _pairs_over_budget(fitting.params, stop, keys, classes, label,
                                               copies)
                    raise NaiveBayesError("%s: %s" % (fitting.call, error),
                                          call=fitting.call, argument="max_memory") from None
        _check_memory(fitting.params, fitting.call, self)
        return groups, weight_groups, names

    def harmonized(self):
        """These statistics with every count of a number at its cut level (see
        _PairCounts.cut_levels): its record and all its pairs keyed there, so that
        its bins, cut from the record, hold whole keys of every pair; these
        statistics themselves when nothing is coarsened."""
        names = self.names()
        cut = self.pair_counts.cut_levels([
            self.features[name].stats.level if self.features[name].name == "discretized"
            else None for name in names])
        if not cut:
            return self
        twin = self.copy()
        for j, level in cut.items():
            twin.features[names[j]].stats.coarsen(level)
        twin.pair_counts = self.pair_counts.renumbered(
            {p: p for p, _ in self.pair_counts.ids.order},
            {p: partial(_key_at, level) for p, level in cut.items()})
        return twin

    def compile(self, params):
        """The compiled AODE model."""
        return _AODEModel(self, params)

    def _replacements(self):
        """Each feature's replacement of a missing value (see imputed), from the
        counts as they are."""
        return [self._replacement(self.features[name]) for name in self.names()]

    @staticmethod
    def _replacement(feature):
        """A categorical feature's mode (weighted, all classes; ties to the first value
        in values() order), a number's weighted mean (0.0 when its values weigh 1e-6
        or less); None for another kind or a feature without values."""
        if feature.name not in ("categorical", "discretized"):
            return None
        totals = Counter()
        for values in feature.stats.counts.values():
            totals.update(values)
        if feature.name == "categorical":
            values = feature.stats.values()
            if not values:
                return None
            most = max(totals.get(v, 0) for v in values)
            return next(v for v in values if totals.get(v, 0) == most)
        weight = sum(totals.values())
        if not weight > _AODE_SMALL:
            return 0.0
        values = list(totals)
        _, weighted, _ = _exact_sums(values, [totals[x] for x in values])
        # a coarsened record: the key of the mean of its keys
        return _grid_key(_float(_fraction(weighted) / weight) + 0.0,     # not -0.0
                         feature.stats.level)

    def lacks_values(self):
        """True when some row lacks the value of a categorical or discretized feature."""
        return any(sum(feature.stats.counts.get(label, {}).values()) != n
                   for feature in self.features.values()
                   if feature.name in ("categorical", "discretized")
                   for label, n in self.class_count.items())

    def impute_values(self):
        """Give every missing value of a categorical or discretized feature its
        replacement, in these statistics' own value counts (N(c, replacement) +=
        N_c - sum_v N(c, v)); the pairwise counts are left as they are.  Returns
        (the value counts as they were, per feature position: {label: {value:
        count}}, the replacements)."""
        counted = {}
        replacements = []
        for j, name in enumerate(self.names()):
            feature = self.features[name]
            replacement = self._replacement(feature)
            replacements.append(replacement)
            if feature.name not in ("categorical", "discretized"):
                continue
            counts = feature.stats.counts
            counted[j] = {label: dict(values) for label, values in counts.items()}
            if replacement is None:
                continue
            for label, n in self.class_count.items():
                lacking = n - sum(counts.get(label, {}).values())
                if lacking:
                    mine = counts.setdefault(label, {})
                    mine[replacement] = mine.get(replacement, 0) + lacking
        return counted, replacements

    def imputed(self):
        """(statistics, replacements): a copy of these statistics as if every missing
        value of a categorical or discretized feature had been replaced before it was
        counted, as Weka's ReplaceMissingValues replaces it, and the replacement of
        each feature (None: nothing to replace it with, or an unused feature).

        A categorical feature's replacement is its mode (weighted, all classes; ties
        to the first value in values() order, the declared order first), a number's
        the weighted mean of its present values (0.0 when they weigh 1e-6 or less),
        counted as one more value before the bins are cut.  Nothing is replaced while
        counting (the mean is known only at the end, and the statistics must stay
        exact and mergeable); every count of a missing value follows from the counts:
          N(c, j missing)            = N_c - sum_v N(c, v)
          N(c, x_p, j missing)       = N(c, x_p) - sum_v N(c, x_p, v)
          N(c, p missing, j missing) = N_c - N_cp - N_cj + sum_{u, v} N(c, u, v)
        and each goes to the replacement's count.  Without a missing value these
        statistics themselves are returned (nothing to replace, nothing to copy).
        """
        if not self.lacks_values():
            return self, self._replacements()
        twin = self.copy()
        names = twin.names()
        counted, replacements = twin.impute_values()
        pair_counts = twin.pair_counts
        pair_counts.sizes = None          # counts are added below, directly
        get_id = pair_counts.ids.__getitem__
        filled = {j: get_id((j, value)) for j, value in enumerate(replacements)
                  if value is not None}
        used = sorted(counted)
        width = len(names)
        for label, n in self.class_count.items():
            mine = pair_counts.pairs.setdefault(label, {})
            ids = {p: [get_id((p, value)) for value in counted[p].get(label, {})]
                   for p in used}             # numbered before feature_of is read
            feature_of = [j for j, _ in pair_counts.ids.order]
            with_feature, both = _presence_counts(mine, feature_of, width)
            added = {}
            get = added.get
            present = {}
            for p in used:
                values = counted[p].get(label, {})
                present[p] = sum(values.values())
                kids, counts = ids[p], list(values.values())
                base = list(map(mul, kids, repeat(width)))
                for j, b in filled.items():
                    if j == p:
                        continue      # x_p present, j missing: N(c, x_p) - sum_v N(c, x_p, v)
                    lacking = list(map(sub, counts, map(with_feature.get, map(
                        add, base, repeat(j)), repeat(0))))
                    keep = list(map(bool, lacking))
                    if not any(keep):
                        continue
                    lacking = list(compress(lacking, keep))
                    near = list(compress(kids, keep))
                    keys = map(add, map(int.__lshift__, map(min, near, repeat(b)),
                                        repeat(_PAIR_SHIFT)), map(max, near, repeat(b)))
                    for key, count in zip(keys, lacking):
                        added[key] = get(key, 0) + count
            for p, a in filled.items():   # both missing
                for j, b in filled.items():
                    if p < j:
                        lacking = n - present[p] - present[j] + both.get(
                            p * width + j, 0)
                        if lacking:
                            key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                            added[key] = get(key, 0) + lacking
            get = mine.get
            for key, count in added.items():
                mine[key] = get(key, 0) + count
        return twin, replacements

    def to_file(self, classes):
        """The model file's "features" and "pairs" fields, and "pair_resolution" when a
        pair of features is coarsened: [[p, j, level], ...]."""
        data = super().to_file(classes)
        data.update(self.pair_counts.to_file(classes))
        if self.pair_counts.levels:
            data["pair_resolution"] = [[p, j, level] for (p, j), level in
                                       sorted(self.pair_counts.levels.items())]
        return data

    @classmethod
    def from_file(cls, data, classes, class_count):
        """AODE's statistics from a model file, validated."""
        statistics = super().from_file(data, classes, class_count)
        singles = []                      # what the pairs are checked against
        for feature in statistics.features.values():
            if feature.name == "categorical":
                singles.append((feature.name, dict.fromkeys(feature.stats.values()),
                                feature.stats.counts, None))
            elif feature.name == "discretized":
                singles.append((feature.name, set().union(*feature.stats.counts.values()),
                                feature.stats.counts, feature.stats.level))
            else:
                singles.append(None)
        levels = cls._pair_levels(data.get("pair_resolution"), singles)
        statistics.pair_counts = _PairCounts.from_file(data, "pairs", classes, class_count,
                                                       singles, levels)
        return statistics

    @staticmethod
    def _pair_levels(entries, singles):
        """{(p, j): level} of the model file's "pair_resolution", validated: each pair
        of features with a discretized one at most once, a level below full."""
        if entries is None:
            return {}
        _expect(type(entries) is list and entries, "pair_resolution", entries,
                "a non-empty list of [p, j, level]")
        levels = {}
        for n, entry in enumerate(entries):
            here = "pair_resolution[%d]" % n
            _expect(type(entry) is list and len(entry) == 3 and
                    all(type(x) is int for x in entry) and
                    0 <= entry[0] < entry[1] < len(singles) and
                    _COARSEST_RESOLUTION <= entry[2] < _FULL_RESOLUTION, here, entry,
                    "[feature position p, feature position j > p, a level from %d to %d]"
                    % (_COARSEST_RESOLUTION, _FULL_RESOLUTION - 1))
            p, j, level = entry
            if not any(singles[x] is not None and singles[x][0] == "discretized"
                       for x in (p, j)):
                raise _Invalid("%s pairs features %d and %d, neither discretized; expected "
                               "a pair with a discretized feature" % (here, p, j))
            if (p, j) in levels:
                raise _Invalid("%s gives features %d and %d again; expected each pair "
                               "once" % (here, p, j))
            levels[p, j] = level
        return levels

    def extra_summary(self):
        """{"pairwise counts": how many are kept}."""
        return {"pairwise counts": self.pair_counts.size()}

    def key_counts(self):
        """(keys, parents) of the compiled model, as far as the counts tell: every
        categorical value counted in a pair and each categorical feature's unseen
        value; a number's bins, since the compiled model keys a number by its bin (the
        MDL cut points of its record, cut again whenever the record has grown by a
        quarter since they were last cut: the bins change slowly, and an estimate
        needs no more), at most its distinct numbers.  Every key may be a parent."""
        names = self.names()
        per_feature = Counter(p for p, _ in self.pair_counts.ids.order)
        classes = None
        for p, found in per_feature.items():
            feature = self.features[names[p]] if p < len(names) else None
            if feature is None or feature.name != "discretized":
                continue
            seen = self.bins_seen.get(p)
            if seen is None or found > seen[0] + seen[0] // 4:
                if classes is None:
                    classes = self.classes()
                seen = self.bins_seen[p] = (found,
                                            len(feature.stats.cut_points(classes)) + 1)
            per_feature[p] = min(found, seen[1])
        parents = sum(per_feature.values())
        return parents + sum(feature.name == "categorical"
                             for feature in self.features.values()), parents

    def copies(self, params):
        """2 when the compiled model fills missing values in a copy of the counts
        (impute=True, and some value is missing), else 1."""
        return 2 if params.get("impute") and self.lacks_values() else 1

    def memory_estimate(self, params=None):
        """(bytes, what) of the memory that grows beyond naive Bayes' in use: the
        pairwise counts and the tables compiled from them (see _aode_bytes)."""
        pairs = self.pair_counts.size()
        estimate = _aode_bytes(pairs, self.key_counts(), max(1, len(self.class_count)),
                               copies=self.copies(params or {}))
        return estimate, "AODE's pairwise counts (%s) and compiled tables" % format(pairs, ",")


_AODE_DENSE_KEYS = 2048        # keys up to which a parent's child terms are a full list
_PAIR_ROWS = 20000             # the rows of a class whose pairs are counted, then bounded


class _ParentTerms:
    """A parent key's child terms by key number, in the sparse form: the term of a
    key that occurs with the parent, else the term of a count of 0 of its feature."""

    __slots__ = ("model", "parent", "shifted")

    def __init__(self, model, parent):
        self.model = model
        self.parent = parent
        self.shifted = parent << _PAIR_SHIFT

    def __getitem__(self, key):
        term = self.model.sparse_terms.get(self.shifted | key)
        if term is None:
            return self.model.sparse_default(self.parent, self.model.feature_of[key], key)
        return term


def _dyadic_scaled(column):
    """(ints, scale) with column[i] == ints[i] / scale exactly and scale a power of 2,
    for counts that are ints and Fractions of power-of-2 denominators (what weights
    given as floats sum to); None for anything else."""
    from fractions import Fraction
    if not {int, Fraction}.issuperset(map(type, column)):
        return None
    denominators = {n.denominator for n in column if type(n) is not int}
    if any(d & (d - 1) for d in denominators):
        return None
    scale = max(denominators, default=1)
    return [n * scale if type(n) is int else n.numerator * (scale // n.denominator)
            for n in column], scale


def _scaled_log_terms(scaled, accumulate, starts, ends, pseudo, alpha_sizes):
    """_AODEModel._terms' logs log((n + a) / (N + a S)) of counts given as (ints,
    scale), N the sum over each count's segment, by builtins: the totals summed
    exactly as ints, each count and total rounded once to a float (an int rounded,
    then divided by a power of 2: the float of the exact fraction), as _log_smoothed
    rounds them, so the same numbers; None when a float would overflow (or a sum
    of floats does)."""
    ints, scale = scaled
    prefix = list(accumulate(ints, initial=0))
    totals = map(sub, map(prefix.__getitem__, ends), map(prefix.__getitem__, starts))
    try:
        divisor = float(scale)
        counts = map(truediv, map(float, ints), repeat(divisor))
        sums = map(truediv, map(float, totals), repeat(divisor))
        logs = list(map(sub, map(log, map(add, counts, pseudo)),
                        map(log, map(add, sums, alpha_sizes))))
    except OverflowError:
        return None
    return logs if all(map(isfinite, logs)) else None     # a float sum beyond the range


class _KeyReader:
    """A pair table's key numbers of a whole row by builtins: each categorical value
    looked up in its feature's {value: key number}, each number's bin found by
    bisection and added to its feature's first key number (a feature's keys are
    numbered consecutively, its bins in order), in feature order, as row_keys finds
    them; a missing value takes its replacement's key (impute=True) or none, a
    categorical value never seen its feature's unseen key.  A row with an odd value
    (of the wrong kind, infinite, unhashable) returns None: row_keys reads it (and
    names what is wrong)."""

    def __init__(self, table, replacements):
        self.width = table.width
        used = [j for j in range(table.width) if table.key_of[j] is not False]
        categorical = [j for j in used if table.key_of[j] is None]
        binned = [j for j in used if table.key_of[j] is not None]
        self.pick_categorical = _picker(categorical, table.width) if categorical else None
        self.pick_binned = _picker(binned, table.width) if binned else None
        self.categorical, self.binned = categorical, binned
        self.indexes = [{} for _ in categorical]
        place = {j: n for n, j in enumerate(categorical)}
        for (j, key), kid in table.kid.items():
            if j in place:
                self.indexes[place[j]][key] = kid
        self.unseen = [table.unseen[j] for j in categorical]
        self.firsts = [table.kid[j, 0] for j in binned]
        self.cuts = [table.key_of[j].cuts for j in binned]
        # a missing value's key: its replacement's, as row_keys reads the filled row
        # (-1: none, the feature is left out of the row's keys)
        fills = replacements or [None] * table.width
        self.fill_categorical = [-1 if fills[j] is None else table.kid.get(
            (j, fills[j]), table.unseen[j]) for j in categorical]
        self.fill_binned = []
        for j, first, cuts in zip(binned, self.firsts, self.cuts):
            if fills[j] is None:
                self.fill_binned.append(-1)
                continue
            number = _number(fills[j])        # (None: row_keys says what is wrong)
            self.fill_binned.append(None if number is None or not isfinite(number)
                                    else first + bisect_left(cuts, number))
        order = categorical + binned      # feature j's key: at order.index(j)
        self.order = None if order == used else \
            itemgetter(*[order.index(j) for j in used]) if len(used) > 1 else None

    def keys(self, row):
        """The row's key numbers, or None."""
        if len(row) != self.width:
            return None
        dropped = False
        try:
            keys = []
            if self.categorical:
                pick = self.pick_categorical
                values = row if pick is None else pick(row)
                keys = list(map(dict.get, self.indexes, values))
                if None in keys:          # missing or unseen
                    for n, kid in enumerate(keys):
                        if kid is None:
                            value = values[n]
                            keys[n] = self.fill_categorical[n] if value is None or \
                                _is_missing(value) else self.unseen[n]
                            dropped = dropped or keys[n] < 0
            if self.binned:
                pick = self.pick_binned
                numbers = row if pick is None else pick(row)
                filled = {}
                if not _FLOAT_INT.issuperset(map(type, numbers)) or \
                        sum(numbers) - sum(numbers) != 0:
                    numbers = list(numbers)
                    for n, value in enumerate(numbers):
                        if type(value) in _FLOAT_INT and value - value == 0:
                            continue
                        if not (value is None or _is_missing(value)):
                            return None   # of the wrong kind, or infinite
                        fill = self.fill_binned[n]
                        if fill is None:
                            return None
                        filled[n] = fill
                        numbers[n] = 0.0
                        dropped = dropped or fill < 0
                bins = list(map(add, self.firsts, map(bisect_left, self.cuts,
                                                      map(float, numbers))))
                for n, fill in filled.items():
                    bins[n] = fill
                keys += bins
        except (TypeError, OverflowError):          # unhashable, or an int beyond floats
            return None
        if self.order is not None:
            keys = list(self.order(keys))
        return [kid for kid in keys if kid >= 0] if dropped else keys


class _AODEModel(_PairTable):
    """The compiled AODE model: the pair tables (see _PairTable) and the averaging.

    Every feature in turn is a super-parent: for a row x,
        P(c, x) ~ sum over qualifying parents p of w_p P(c, x_p) prod_{j != p} P(x_j | c, x_p)
                  / sum of their w_p
    with equal weights w_p (the mean), or with weighting="mutual-information" each
    feature's mutual information with the class (see _mutual_information; equal
    weights again when a row's parents' weights are all 0).  Each probability is one
    smoothed estimate (n + a) / (d + a v) over v outcomes (see pseudo_count):
        P(c, x_p)       = (N(c, x_p) + a) / (N_p + a K S_p)            v = K S_p
        P(x_j | c, x_p) = (N(c, x_p, x_j) + a) / (N_j(c, x_p) + a S_j)  v = S_j
    with a = alpha (estimate="laplace") or a = m / v (estimate="m": Weka's m-estimate
    (n + m/v) / (d + m)), the sum in log space (a log-sum-exp), so that any number
    of features gives finite probabilities.  A parent qualifies when its value is
    present and seen at least frequency_limit times (weighted, all classes together;
    at 0 a declared value never seen qualifies too); when none does, the row is
    scored by naive Bayes with the prior (N_c + a) / (N + a K), v = K, and the
    likelihoods (N(c, x_j) + a) / (N_cj + a S_j).  Numbers are cut into bins by the
    discretized kind's MDL cut points.  With impute=True the model is compiled from
    the statistics with every missing value replaced (see _AODEStatistics.imputed)
    and a row's missing values take the same replacements (with impute="fit" they
    are left out, as without imputation).

    Per qualifying parent key, a list holds every child key's per-class -log P(x_j |
    c, x_p), built on first use by builtins over all children at once and packed into
    ints as _Packed packs them: a row costs one builtin sum per parent.
    """

    def __init__(self, statistics, params):
        classes = statistics.classes()
        estimate, what = statistics.memory_estimate(params)
        _within_budget(params, estimate, what, _AODE_FIX)
        self.memory = estimate            # bytes in use, by estimate
        self.replacements = None          # per feature: what fills a missing value
        statistics = statistics.harmonized()
        if params["impute"]:
            statistics, self.replacements = statistics.imputed()
            if params["impute"] == "fit":     # replaced in training only
                self.replacements = None
        super().__init__(statistics, classes)
        self.alpha = params["alpha"]
        self.estimate = params["estimate"]
        self.m = params["m"]
        self.limit = params["frequency_limit"]
        k = self.k
        # per feature and per key number: the pseudo-count a of a child term and
        # a * S_j; per feature the parent term's a (over K S_p outcomes)
        self.feature_pseudo = [self.pseudo_count(size) for size in self.sizes]
        self.feature_alpha_size = [a * size for a, size in
                                   zip(self.feature_pseudo, self.sizes)]
        self.parent_pseudo = [self.pseudo_count(k * size) for size in self.sizes]
        self.key_pseudo = [self.feature_pseudo[j] for j in self.feature_of]
        self.alpha_size = [self.feature_alpha_size[j] for j in self.feature_of]
        self.smoothed = self.estimate == "hdp" or \
            (self.alpha if self.estimate == "laplace" else self.m) > 0
        # the builtin forms of the terms add a * S_j as a float; beyond the float
        # range (alpha near 1e308) every term goes through _log_smoothed, exactly
        self.float_sums = self.smoothed and all(map(isfinite, self.feature_alpha_size))
        self.segment_start = [self.segments[j][0] for j in self.feature_of]
        self.segment_end = [self.segments[j][1] for j in self.feature_of]
        # the same per feature that has keys (a total and its log once per feature),
        # and each key's place among those features
        keyed = sorted(self.segments, key=self.segments.get)
        self.feature_starts = [self.segments[j][0] for j in keyed]
        self.feature_ends = [self.segments[j][1] for j in keyed]
        self.feature_alpha_sizes = [self.feature_alpha_size[j] for j in keyed]
        place = {j: n for n, j in enumerate(keyed)}
        self.feature_place = [place[j] for j in self.feature_of]
        self.accumulate = accumulate
        class_count = [statistics.class_count[c] for c in classes]
        self.log_prior = tuple(_log_smoothed(class_count, sum(class_count),
                                             self.pseudo_count(k), k))
        # Packed: -log P in fixed point, K 64-bit fields per int (see _Packed); with
        # a > 0 every term is above a / (N + a K max S) (the smallest a, over the most
        # outcomes), so whether they all fit is known now
        bits = 63 - 11 - (self.width + 1).bit_length()
        most = k * max(self.sizes + [1])
        if self.estimate == "hdp":
            smallest = self._hierarchical_levels(class_count)
        else:
            smallest = _log_smoothed([0], sum(class_count), self.pseudo_count(most),
                                     most)[0] if self.smoothed else -INF
        self.scale = float(2 ** bits) if bits >= 30 and smallest > -2047 else None
        if self.scale is not None:
            import struct
            self.unpack = struct.Struct("<%dQ" % k).unpack
            self.pack = struct.Struct("<%dQ" % k).pack
            self.pack_error = struct.error
        self.zero = 0 if self.scale is not None else self.zeros
        no_counts = [0] * k
        self.fallback = self._terms(None, list(map(list, zip(*[
            self.single.get(kid, no_counts) for kid in range(len(self.key_list))]))) or
            [[] for _ in range(k)])
        self.entries = {}                 # parent key number -> (base, child terms)
        self.built = {}                   # the same, of the keys built (see twin)
        self.parent_of = {}               # key number -> (feature, entry) or None
        self.key_reader = None            # the _KeyReader, made on first use
        # child terms per parent key: a list over every key number when there are few
        # (builtins over all keys at once), else only the keys that occur with the
        # parent and one term per feature for the others (memory linear in the counts:
        # a list per parent would be quadratic in the keys, as with ID-like columns)
        self.sparse = len(self.key_list) > _AODE_DENSE_KEYS
        self.no_counts = [0] * k
        self.rows = sum(class_count)
        self.single_total = [sum(column) for column in zip(*self.single.values())] or [0]
        self.weights = self._mutual_information() \
            if params["weighting"] == "mutual-information" else None
        if self.sparse:
            self._sparse_tables()

    def pseudo_count(self, outcomes):
        """The a of (n + a) / (d + a * outcomes): alpha (Lidstone's, Laplace's at 1),
        or m / outcomes (the m-estimate (n + m/v) / (d + m) is Lidstone's with alpha
        = m / v), so that both run through the one formula, _log_smoothed."""
        if self.estimate == "hdp":        # the prior's: Laplace's (N_c + 1) / (N + K)
            return 1.0
        return self.alpha if self.estimate == "laplace" else self.m / outcomes

    def _hierarchical_levels(self, class_count):
        """The "hdp" estimate's levels (see _Hierarchy, whose formulas they follow):
        per key number P_0(x_j) = (N(x_j) + 1) / (N_j + S_j) over the rows where
        feature j is present; per feature theta1 and per class and key number
        P_1(x_j | c) = (N(c, x_j) + theta1 P_0(x_j)) / (N_j(c) + theta1); per ordered
        pair of features (p, j) theta2, of P_2(x_j | c, x_p) = (N(c, x_p, x_j) +
        theta2 P_1(x_j | c)) / (N_j(c, x_p) + theta2); each theta chosen by
        leave-one-out as _Hierarchy chooses it (_concentration), a left-out row
        weighing 1 (the cell's whole weight when it holds less).  Returns a lower
        bound of every log term, for the packed form."""
        k, width = self.k, self.width
        feature_of, sizes = self.feature_of, self.sizes
        by_class = [[0] * k for _ in range(width)]           # N_j(c)
        for kid, counts in self.single.items():
            mine = by_class[feature_of[kid]]
            for c in range(k):
                mine[c] += counts[c]
        present = [float(n) for n in self.present]
        by_class = [[float(n) for n in row] for row in by_class]
        frequency = [float(self.frequency.get(kid, 0)) for kid in range(len(self.key_list))]
        self.level0 = [(n + 1.0) / (present[j] + sizes[j]) for n, j in
                       zip(frequency, feature_of)]
        # a theta no cell chose (a pair of features never present together): the
        # smallest, which any would give (no cells: every theta fits as well)
        self.theta_floors = [_concentration_bounds(size)[0] for size in sizes]
        cells = defaultdict(lambda: ([], [], [], []))        # feature -> LOO lists
        for kid, counts in sorted(self.single.items()):
            j = feature_of[kid]
            for c, weight in enumerate(counts):
                if weight:
                    weight = float(weight)
                    r = min(1.0, weight)
                    lists = cells[j]
                    lists[0].append(weight)
                    lists[1].append(weight - r)
                    lists[2].append(by_class[j][c] - r)
                    lists[3].append((frequency[kid] - r + 1.0) / (present[j] - r + sizes[j]))
        self.theta1 = [_concentration(*cells[j], size=sizes[j])[0] if j in cells
                       else self.theta_floors[j] for j in range(width)]
        no_counts = [0] * k
        self.level1 = [[(float(self.single.get(kid, no_counts)[c]) + self.theta1[j] *
                         self.level0[kid]) / (by_class[j][c] + self.theta1[j])
                        for kid, j in enumerate(feature_of)] for c in range(k)]
        # level 2: every pair count in both directions, grouped by (parent, child
        # feature); N_j(c, x_p) summed exactly
        totals = [defaultdict(int) for _ in range(k)]         # (x_p, j) -> N_j(c, x_p)
        for c, flat in enumerate(self.pairs):
            mine = totals[c]
            for key, n in flat.items():
                a, b = key >> _PAIR_SHIFT, key & 0xFFFFFFFF
                mine[a, feature_of[b]] += n
                mine[b, feature_of[a]] += n
        cells = defaultdict(lambda: ([], [], [], []))        # (p, j) -> LOO lists
        for c, flat in enumerate(self.pairs):
            for key in sorted(flat):
                weight = float(flat[key])
                if not weight:
                    continue
                r = min(1.0, weight)
                a, b = key >> _PAIR_SHIFT, key & 0xFFFFFFFF
                for parent, child in ((a, b), (b, a)):
                    j = feature_of[child]
                    theta = self.theta1[j]
                    lower = (frequency[child] - r + 1.0) / (present[j] - r + sizes[j])
                    lists = cells[feature_of[parent], j]
                    lists[0].append(weight)
                    lists[1].append(weight - r)
                    lists[2].append(float(totals[c][parent, j]) - r)
                    lists[3].append((float(self.single[child][c]) - r + theta * lower) /
                                    (by_class[j][c] - r + theta))
        self.theta2 = {pair: _concentration(*lists, sizes[pair[1]])[0]
                       for pair, lists in sorted(cells.items())}
        self.level1_logs = [_logs(column) for column in self.level1]
        # every term is at least theta / (N + theta) >= 1 / (N + 1) times the level
        # above's (theta >= 1), the top's at least 1 / (N + S), the parent's class
        # share 1 / (N + K)
        rows = float(sum(class_count)) + max(sizes + [k]) + 1.0
        return -4 * log(rows)

    def _hierarchical_terms(self, p, counts):
        """_terms of the "hdp" estimate: per key number log P_2(key | c, x_p) (for p
        None, naive Bayes' log P_1(key | c)), by builtins over all keys."""
        if p is None:
            return self._pack(self.level1_logs)
        thetas = [self.theta2.get((p, j), self.theta_floors[j]) for j in self.feature_of]
        columns = []
        for c, column in enumerate(counts):
            prefix = list(self.accumulate(column, initial=0))
            totals = map(float, map(sub, map(prefix.__getitem__, self.segment_end),
                                    map(prefix.__getitem__, self.segment_start)))
            columns.append(_logs(map(truediv, map(add, map(float, column), map(
                mul, thetas, self.level1[c])), map(add, totals, thetas))))
        terms = self._pack(columns)
        start, end = self.segments.get(p, (0, 0))
        terms[start:end] = [self.zero] * (end - start)
        return terms

    def _hierarchical_base(self, p, kid):
        """The "hdp" parent term log P(c, x_p) = log P(c) + log P_1(x_p | c), P(c) =
        (N_p(c) + 1) / (N_p + K) over the rows where feature p is present, packed."""
        k = self.k
        start, end = self.segments[p]
        by_class = [0] * k
        for key in range(start, end):
            counts = self.single.get(key)
            if counts is not None:
                for c in range(k):
                    by_class[c] += counts[c]
        total = float(self.present[p]) + k
        return self._pack([[log((float(n) + 1.0) / total) + self.level1_logs[c][kid]]
                           for c, n in enumerate(by_class)])[0]

    def _mutual_information(self):
        """Per feature, its weight as a super-parent: the mutual information with the
        class, sum over classes c (outer) and the feature's keys v (inner) of
        P(c, v) log2(P(c, v) / (P(c) P(v))), with P(c, v) = N(c, v) / N_j, P(c) =
        N_cj / N_j and P(v) = N(v) / N_j over the N_j rows where the feature is
        present (weighted); a term is 0 where P(c, v) or P(c) P(v) is below 1e-6, as
        in Weka's WAODE (whose rows all count 1 and are never missing).  Never below
        0 (a rounding below is clamped)."""
        weights = []
        log_2 = log(2.0)
        for j in range(self.width):
            start, end = self.segments.get(j, (0, 0))
            kids = [kid for kid in range(start, end) if kid in self.frequency]
            total = _float(self.present[j])
            if self.key_of[j] is False or not total > 0:
                weights.append(0.0)
                continue
            counts = [self.single[kid] for kid in kids]
            value_share = [_float(self.frequency[kid]) / total for kid in kids]
            information = 0.0
            for c in range(self.k):
                joint = [_float(n[c]) / total for n in counts]
                class_share = _float(sum([n[c] for n in counts])) / total
                for p, q in zip(joint, map(mul, repeat(class_share), value_share)):
                    if p >= _AODE_SMALL and q >= _AODE_SMALL:
                        information += p * (log(p / q) / log_2)
            weights.append(max(information, 0.0))
        return weights

    def _pack(self, columns):
        """Per-class columns of log P as one list of terms: packed ints (-log P in
        fixed point, class c in bits 64c..64c+63) or tuples."""
        if self.scale is None:
            return list(zip(*columns))
        scale = -self.scale
        if len(columns) > 1:              # every field in [0, 2^64): its bytes, joined
            fields = [list(map(round, map(mul, column, repeat(scale)))) for column in columns]
            try:
                return list(map(int.from_bytes, map(self.pack, *fields), repeat("little")))
            except self.pack_error:       # a field out of range: added as it is
                pass
        packed = None
        for c, column in enumerate(columns):
            fields = map(round, map(mul, column, repeat(scale)))
            if c:
                fields = map(int.__lshift__, fields, repeat(64 * c))
            packed = list(fields) if packed is None else list(map(add, packed, fields))
        return packed

    def _terms(self, p, counts):
        """Per key number, its term log((n + a) / (total + a * S_j)) from per-class
        columns of counts n = N(c, x_p, key) (or N(c, key) for naive Bayes, p None),
        total being its feature's N_j(c, x_p): by builtins over all keys (the
        "hdp" estimate's: _hierarchical_terms)."""
        if self.estimate == "hdp":
            return self._hierarchical_terms(p, counts)
        columns = []
        for column in counts:
            whole = _INT.issuperset(map(type, column))
            logs = None
            if self.float_sums and not whole:       # fractional weights: ints scaled
                scaled = _dyadic_scaled(column)
                if scaled is not None:
                    logs = _scaled_log_terms(scaled, self.accumulate, self.segment_start,
                                             self.segment_end, self.key_pseudo,
                                             self.alpha_size)
            if logs is not None:
                columns.append(logs)
                continue
            prefix = list(self.accumulate(column, initial=0))
            if self.float_sums and whole and prefix[-1] < 2 ** 52:
                # log(N_j + a S_j) once per feature, then read by each of its keys
                totals = map(sub, map(prefix.__getitem__, self.feature_ends),
                             map(prefix.__getitem__, self.feature_starts))
                feature_logs = list(map(log, map(add, totals, self.feature_alpha_sizes)))
                logs = list(map(sub, map(log, map(add, column, self.key_pseudo)),
                                map(feature_logs.__getitem__, self.feature_place)))
            else:                         # a = 0, or weights of other denominators
                totals = list(map(sub, map(prefix.__getitem__, self.segment_end),
                                  map(prefix.__getitem__, self.segment_start)))
                logs = [_log_smoothed([n], total, a, size)[0] for n, total, a, size in
                        zip(column, totals, self.key_pseudo,
                            map(self.sizes.__getitem__, self.feature_of))]
            columns.append(logs)
        terms = self._pack(columns)
        if p is not None:                 # the parent is not its own child
            start, end = self.segments.get(p, (0, 0))
            terms[start:end] = [self.zero] * (end - start)
        return terms

    def entry(self, p, kid):
        """(parent term, child terms by key number) of a qualifying parent key, built
        on first use; None when the key does not qualify."""
        found = self.entries.get(kid, 0)
        if found != 0:
            return found
        entry = None
        if self.sparse:                   # the sparse tables, built at once
            base = self.bases.get(kid)
            if base is not None:
                entry = (base, _ParentTerms(self, kid))
            self.entries[kid] = entry
            return entry
        if self.frequency.get(kid, 0) >= self.limit:
            entry = self.built.get(kid)
            if entry is None:
                k = self.k
                base = self._pack([[_log_smoothed([n], self.present[p], self.parent_pseudo[p],
                                                  k * self.sizes[p])[0]]
                                   for n in self.single.get(kid, [0] * k)])[0] \
                    if self.estimate != "hdp" else self._hierarchical_base(p, kid)
                entry = self.built[kid] = (base, self._terms(p, self.pair_column(kid)))
        self.entries[kid] = entry
        return entry

    def twin(self, statistics, params):
        """The model these statistics compile to with params, which differ from this
        model's in frequency_limit and weighting at most, sharing this model's tables
        and the parent keys' terms built (by either: neither setting enters a term,
        only which parents count and how much); None for the sparse form (its
        parents' terms are built at once, for the qualifying ones)."""
        if self.sparse or params["impute"]:
            return None
        estimate, what = statistics.memory_estimate(params)
        _within_budget(params, estimate, what, _AODE_FIX)
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.memory = estimate
        twin.limit = params["frequency_limit"]
        twin.entries = {}
        twin.parent_of = {}
        twin.key_reader = None
        twin.weights = self._mutual_information() \
            if params["weighting"] == "mutual-information" else None
        return twin

    def _sparse_tables(self):
        """The sparse form of every parent's child terms, built at once by builtins
        over the pair counts, by the same arithmetic as _terms (term for term, so both
        forms give the same numbers), in time and memory linear in the number of
        pairwise counts: ``sparse_terms`` {parent << 32 | child: term} for every two
        keys that occur together, ``sparse_totals`` per class {parent * width +
        feature: N_j(c, x_p)} (None when no feature is ever missing: N_j(c, x_p) is
        then N(c, x_p)), and ``bases`` {qualifying parent: its term log P(c, x_p)}."""
        k, width = self.k, self.width
        feature_of, fas = self.feature_of, self.feature_alpha_size
        pair_keys = list(set().union(*self.pairs))
        low = list(map(_PAIR_SHIFT.__rrshift__, pair_keys))
        high = list(map(0xFFFFFFFF .__and__, pair_keys))
        parents, children = low + high, high + low        # each pair in both directions
        child_features = list(map(feature_of.__getitem__, children))
        child_pseudo = list(map(self.feature_pseudo.__getitem__, child_features))
        child_sizes = list(map(fas.__getitem__, child_features))
        complete = sum(self.single_total) == 0 or all(
            present == self.rows for present in self.present)
        groups = None if complete else list(map(add, map(mul, parents, repeat(width)),
                                                child_features))
        columns, self.sparse_totals = [], None if complete else []
        for c, flat in enumerate(self.pairs):
            counts = list(map(flat.get, pair_keys, repeat(0)))
            counts = counts + counts
            if complete:                  # every row with x_p has every feature present
                single = [self.single.get(kid, self.no_counts)[c]
                          for kid in range(len(self.key_list))]
                totals = list(map(single.__getitem__, parents))
            else:
                by_group = {}
                get = by_group.get
                for group, n in zip(groups, counts):
                    by_group[group] = get(group, 0) + n
                self.sparse_totals.append(by_group)
                totals = list(map(by_group.__getitem__, groups))
            if self.estimate == "hdp":    # (n + theta P_1(x_j | c)) / (total + theta)
                thetas = [self.theta2.get(pair, self.theta_floors[pair[1]]) for pair in zip(
                    map(feature_of.__getitem__, parents), child_features)]
                columns.append(_logs(map(truediv, map(add, map(float, counts), map(
                    mul, thetas, map(self.level1[c].__getitem__, children))), map(
                        add, map(float, totals), thetas))))
            elif self.float_sums and _INT.issuperset(map(type, counts)) and \
                    max(totals, default=0) < 2 ** 52:
                columns.append(list(map(sub, map(log, map(add, counts, child_pseudo)),
                                        map(log, map(add, totals, child_sizes)))))
            else:                         # a = 0, or fractional weights
                columns.append([_log_smoothed([n], total, a, self.sizes[j])[0]
                                for n, total, a, j in zip(counts, totals, child_pseudo,
                                                          child_features)])
        self.sparse_terms = dict(zip(map(add, map(int.__lshift__, parents,
                                                  repeat(_PAIR_SHIFT)), children),
                                     self._pack(columns))) if pair_keys else {}
        self.sparse_defaults = {}
        # the parent terms log P(c, x_p), feature by feature (one shared total each);
        # at frequency_limit 0 a declared value never seen qualifies too
        self.bases = {}
        qualifying = defaultdict(list)
        for kid, (j, key) in enumerate(self.key_list):
            if key is not _UNSEEN and self.frequency.get(kid, 0) >= self.limit:
                qualifying[j].append(kid)
        for p, kids in qualifying.items():
            if self.estimate == "hdp":
                self.bases.update((kid, self._hierarchical_base(p, kid)) for kid in kids)
                continue
            counts = [self.single.get(kid, self.no_counts) for kid in kids]
            terms = self._pack([_log_smoothed(list(column), self.present[p],
                                              self.parent_pseudo[p], k * self.sizes[p])
                                for column in zip(*counts)])
            self.bases.update(zip(kids, terms))

    def sparse_default(self, parent, j, key=None):
        """The term of a count of 0 of feature j given a parent key (built on first use;
        "hdp": of the key itself, computed each time, as the dense form computes it)."""
        if self.estimate == "hdp" and j != self.feature_of[parent]:
            totals = [self.single.get(parent, self.no_counts)[c] for c in range(self.k)] \
                if self.sparse_totals is None else \
                [by_group.get(parent * self.width + j, 0) for by_group in self.sparse_totals]
            theta = self.theta2.get((self.feature_of[parent], j), self.theta_floors[j])
            return self._pack([[log((0.0 + theta * self.level1[c][key]) /
                                    (float(total) + theta))]
                               for c, total in enumerate(totals)])[0]
        group = parent * self.width + j
        term = self.sparse_defaults.get(group)
        if term is None:
            if j == self.feature_of[parent]:
                term = self.zero          # the parent is not its own child
            else:
                totals = [self.single.get(parent, self.no_counts)[c] for c in range(self.k)] \
                    if self.sparse_totals is None else \
                    [by_group.get(group, 0) for by_group in self.sparse_totals]
                a, alpha_size = self.feature_pseudo[j], self.feature_alpha_size[j]
                term = self._pack([[log(0 + a) - log(total + alpha_size)]
                                   if self.float_sums and type(total) is int and
                                   total < 2 ** 52
                                   else _log_smoothed([0], total, a, self.sizes[j])
                                   for total in totals])[0]
            self.sparse_defaults[group] = term
        return term

    positional = _NaiveModel.positional

    def row_keys(self, row):
        """The key numbers of the row's present, used features (see _PairTable);
        with impute=True, of the row with its missing values replaced."""
        reader = self.key_reader
        if reader is None:
            reader = self.key_reader = _KeyReader(self, self.replacements)
        keys = reader.keys(row)
        return keys if keys is not None else super().row_keys(self.filled(row))

    def filled(self, row):
        """The row with every missing value replaced (impute=True), else the row."""
        if self.replacements is None:
            return row
        return [value if fill is None or not (value is None or _is_missing(value))
                else fill for value, fill in zip(row, self.replacements)]

    def parents(self, keys):
        """([(parent feature, entry)], their weights, or None for equal weights) of a
        row's qualifying parents; with mutual-information weights those of weight 0
        are left out, unless all are 0 (then every one counts, equally)."""
        # (parent feature, entry) or None per key number, as the loop over the keys
        # finds them, kept: a row's parents are then one builtin lookup per key
        known = self.parent_of
        found = list(map(known.get, keys, repeat(False)))
        if False in found:
            for n, kid in enumerate(keys):
                if found[n] is False:
                    j, key = self.key_list[kid]
                    entry = self.entry(j, kid) if key is not _UNSEEN else None
                    found[n] = known[kid] = None if entry is None else (j, entry)
        found = list(filter(None, found))
        if self.weights is None:
            return found, None
        weights = list(map(self.weights.__getitem__, map(itemgetter(0), found)))
        if not any(weights):
            return found, None
        kept = [w > 0 for w in weights]
        return list(compress(found, kept)), list(compress(weights, kept))

    def joint(self, row):
        """log of the (weighted) mean over parents of P(c, x_p) prod P(x_j | c, x_p),
        per class."""
        return self.joint_of_keys(self.row_keys(row))

    def joint_of_keys(self, keys, sums=None):
        """joint of a row given its key numbers (row_keys); ``sums``, a dict kept for
        one row, shares each parent's sum of terms with a twin that reads the row
        alike (the same entries, see twin)."""
        parents, weights = self.parents(keys)
        if not parents:
            terms = list(map(self.fallback.__getitem__, keys))
            if self.scale is not None:
                return list(map(add, self.log_prior, self.unpacked(sum(terms))))
            return self._combined([[self.log_prior] + terms])
        if self.scale is not None:        # one builtin sum per parent
            width = 8 * self.k
            fields = None
            if sums:                      # a twin's, by entry (kept: the ids hold)
                ids = list(map(id, map(itemgetter(1), parents)))
                fields = list(map(sums.get, ids))
                if None in fields:
                    fields = None
            if fields is None:
                fields = [self.unpack(sum(map(terms.__getitem__, keys), base).to_bytes(
                    width, "little")) for _, (base, terms) in parents]
                if sums is not None:
                    sums.update(zip(map(id, map(itemgetter(1), parents)), fields))
            shift = log(len(fields)) if weights is None else log(math.fsum(weights))
            scale = self.scale
            joint = []
            for column in zip(*fields):   # per class: exp((low - f) / scale) by builtins
                low = min(column)
                shares = list(map(exp, map(truediv, map(sub, repeat(low), column),
                                           repeat(scale))))
                if weights is not None:
                    shares = list(map(mul, weights, shares))
                joint.append(-low / scale - shift + log(math.fsum(shares)))
            return joint
        return self._combined([[base] + list(map(terms.__getitem__, keys))
                               for _, (base, terms) in parents], weights)

    def _combined(self, parents, weights=None):
        """The tuple form: per parent the sum of its terms, then the log of the
        (weighted) mean over parents; with zero probabilities (a = 0) each class
        counts them as naive Bayes does, by its best parent, when every class is
        impossible."""
        sums = [list(map(sum, zip(*vectors))) for vectors in parents]
        if weights is None:
            joint = [_log_sum_exp([s[c] for s in sums]) - log(len(sums))
                     for c in range(self.k)]
        else:
            logs, total = list(map(log, weights)), log(math.fsum(weights))
            joint = [_log_sum_exp([s[c] + w for s, w in zip(sums, logs)]) - total
                     for c in range(self.k)]
        if max(joint) > -INF:
            return joint
        best = [max(_zeros_and_rest(vectors, c) for vectors in parents)
                for c in range(self.k)]
        top = max(order for order, _ in best)
        joint = _InfiniteJoint([-INF] * self.k)
        joint.effective = [rest if order == top else -INF for order, rest in best]
        return joint

    def joints(self, rows):
        """Joint log-likelihoods of many rows, one by one."""
        return list(map(self.joint, rows))

    def reads_keys_as(self, other):
        """Whether other reads every row into the same key numbers (a twin, or this)."""
        return isinstance(other, _AODEModel) and other.kid is self.kid and \
            other.replacements is self.replacements

    def unpacked(self, term):
        """A term as a tuple of per-class log P."""
        if self.scale is None:
            return term
        return tuple([-field / self.scale for field in
                      self.unpack(term.to_bytes(8 * self.k, "little"))])

    def explain(self, row, extra=()):
        """The parts of one row's joint log-likelihood: each parent's share of the
        class's score, and per feature its share-weighted log-likelihoods; the prior
        holds the super-parent terms log P(c, x_p) (share-weighted) and the
        averaging's correction, so that prior + features = joint, exactly as for naive
        Bayes.  With parent weights w_p (of sum W) the shares are w_p P_p(c, x) / W
        P(c, x), and the correction sum_p share_p (log(w_p / W) - log share_p)."""
        classes, k = self.classes, self.k
        keys = self.row_keys(row)
        filled = self.filled(row)
        parents, weights = self.parents(keys)
        if parents:
            parts = [(p, self.unpacked(base), [self.unpacked(terms[key]) for key in keys])
                     for p, (base, terms) in parents]
        else:
            parts = [(None, self.log_prior, [self.unpacked(self.fallback[key])
                                             for key in keys])]
        sums = [list(map(sum, zip(base, *terms))) for _, base, terms in parts]
        joint = self.joint(row)
        m = len(parts)
        if weights is None:
            log_weights, fractions = [-log(m)] * m, [1.0 / m] * m
        else:
            total = math.fsum(weights)
            log_weights = [log(w) - log(total) for w in weights]
            fractions = [w / total for w in weights]
        shares = [[exp(s[c] - joint[c] + lw) if joint[c] > -INF else fraction
                   for c in range(k)] for s, lw, fraction in zip(sums, log_weights,
                                                                 fractions)]
        position = {self.key_list[kid][0]: n for n, kid in enumerate(keys)}
        prior = []
        contribution = [[0.0] * k for _ in keys]
        for c in range(k):
            own = 0.0
            for w, (_, base, terms) in zip(shares, parts):
                if not w[c]:              # a parent with no share (a zero probability)
                    continue              # adds nothing, not 0 * -inf
                own += w[c] * base[c]
                for n, term in enumerate(terms):
                    contribution[n][c] += w[c] * term[c]
            entropy = -sum(w[c] * log(w[c]) for w in shares if w[c] > 0)
            correction = -log(m) if weights is None else \
                math.fsum([w[c] * lw for w, lw in zip(shares, log_weights)])
            prior.append(own + entropy + correction)
        features = []
        for j, (name, value, used) in enumerate(zip(self.names, row, filled)):
            n = position.get(j)
            status = "ignored" if self.key_of[j] is False else "missing" if n is None \
                else ("unseen" if self.key_list[keys[n]][1] is _UNSEEN else "used")
            entry = {"feature": name, "value": value, "status": status,
                     "log_likelihood": dict(zip(classes, contribution[n] if n is not None
                                                else self.zeros))}
            if used is not value:         # impute=True: a missing value replaced
                entry["imputed"] = used
            if n is not None and self.key_of[j]:
                entry["interval"] = self.key_of[j].name(self.key_list[keys[n]][1])
            features.append(entry)
        for name, value in extra:
            features.append({"feature": name, "value": value, "status": "ignored",
                             "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, prior)), "features": features,
                "parents": [{"feature": self.names[p], "value": filled[p],
                             "share": dict(zip(classes, w))}
                            for (p, _, _), w in zip(parts, shares) if p is not None]}

    def _naive_tables(self):
        """Per feature {key: per-class log P(x_j | c)}, naive Bayes' view."""
        tables = [{} for _ in self.names]
        for (j, key), term in zip(self.key_list, self.fallback):
            if key is not _UNSEEN:
                tables[j][key] = self.unpacked(term)
        return tables

    def informative(self):
        """Categorical values and bins ranked as naive Bayes ranks them (AODE's
        dependencies are not in this ranking)."""
        ranked = []
        for j, table in enumerate(self._naive_tables()):
            for key, vector in table.items():
                value = key if self.key_of[j] is None else self.key_of[j].name(key)
                ranked.append((self.names[j], value, _log_ratio_range(vector),
                               self.classes[vector.index(max(vector))]))
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def tables(self):
        """Each feature's naive-Bayes view, P(x_j | c), as naive Bayes tables it."""
        out = {}
        for j, vectors in enumerate(self._naive_tables()):
            name, key_of = self.names[j], self.key_of[j]
            if key_of is False:
                out[name] = {"kind": "ignore"}
            elif key_of is None:
                out[name] = {"kind": "categorical", "probabilities": {
                    label: {v: exp(vector[c]) for v, vector in vectors.items()}
                    for c, label in enumerate(self.classes)}}
            else:
                out[name] = {"kind": "discretized", "cuts": list(key_of.cuts),
                             "probabilities": {
                                 label: [exp(vectors[b][c]) for b in range(len(vectors))]
                                 for c, label in enumerate(self.classes)}}
        return out
