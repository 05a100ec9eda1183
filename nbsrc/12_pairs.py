# -- pairwise counts: the statistics of the semi-naive families ----------------------

_PAIR_SHIFT = 32                 # a pair's key: (id of the lower value) << 32 | id


class _ValueIds(dict):
    """(feature position, value) -> small int, assigned on first sight; .order is
    the reverse list (not .items, which pickle calls as dict's).  Pair counts are
    keyed by two of these ids in one int."""

    __slots__ = ("order",)

    def __init__(self):
        super().__init__()
        self.order = []

    def __missing__(self, item):
        """The next number, for an item seen for the first time."""
        new = self[item] = len(self.order)
        self.order.append(item)
        return new

    def __copy__(self):
        """An independent copy."""
        twin = _ValueIds()
        twin.update(self)
        twin.order = list(self.order)
        return twin


def _count_keys(counter, keys):
    """counter[key] += 1 for each key (collections' C helper where there is one)."""
    try:
        from collections import _count_elements
    except ImportError:                   # another Python: the same, in Python
        get = counter.get
        for key in keys:
            counter[key] = get(key, 0) + 1
        return
    _count_elements(counter, keys)


class _PairLimit(Exception):
    """Pairwise counting passed its limit: (the counts kept, the row of the batch)."""


class _PairCounts(_Distribution):
    """Exact weighted counts N(c, x_p, x_j) of every two values that occur together
    in a row of class c, features p < j: the statistics a semi-naive family adds to
    naive Bayes' (AODE's one-dependence estimates; the tree and network families'
    conditional tables of a feature given one other).

    A value is the pair (feature position, value as counted: a category, or a number
    before it is cut into bins), numbered on first sight; a pair of numbers a < b is
    one int key a << 32 | b.  Memory: one count per class and pair of values that
    occur together, at most K * V^2 / 2 for V distinct values of all features.
    """

    __slots__ = ("ids", "pairs")
    file_fields = ("pairs",)

    def __init__(self):
        self.ids = _ValueIds()
        self.pairs = {}                  # label -> {pair key: weighted count}

    def add(self, label, values, weights):
        """Count the pairs of one class's rows, each row a list of its present values
        as (feature position, value) items; weights exact, or None for weight 1."""
        get_id = self.ids.__getitem__
        self.add_ids(label, [sorted(map(get_id, row)) for row in values], weights)

    def add_ids(self, label, rows, weights, limit=None):
        """Count the pairs of one class's rows given as sorted lists of value ids;
        with a ``limit``, _PairLimit as soon as the counts kept (every class's, and
        those collected for weights other than 1) pass it: a row whose pairs could
        pass it is counted value by value, each step checked, so that the memory
        passes the limit by one value's pairs at most."""
        mine = self.pairs.setdefault(label, {})
        integers, shift = (repeat(1), 0) if weights is None else _weight_integers(weights)
        # rows of weight 1 are counted directly; any other weight collects its rows'
        # pairs first, then adds them times the weight
        by_weight = {}
        kept = self.size()
        for row, (ids, weight) in enumerate(zip(rows, integers)):
            target = mine if weight == 1 and not shift else by_weight.setdefault(weight, {})
            before = len(target)
            if limit is not None and kept + len(ids) * (len(ids) - 1) // 2 > limit:
                for n, a in enumerate(ids[:-1]):
                    _count_keys(target, map((a << _PAIR_SHIFT).__add__, ids[n + 1:]))
                    if kept + len(target) - before > limit:
                        raise _PairLimit(kept + len(target) - before, row)
            else:
                for n, a in enumerate(ids[:-1]):
                    _count_keys(target, map((a << _PAIR_SHIFT).__add__, ids[n + 1:]))
            kept += len(target) - before
        for weight, counted in by_weight.items():
            get = mine.get
            for key, n in counted.items():
                mine[key] = get(key, 0) + _ratio(n * weight, 1 << shift)

    def size(self, label=None):
        """The number of counts kept (of one class, or of all)."""
        if label is not None:
            return len(self.pairs.get(label, ()))
        return sum(map(len, self.pairs.values()))

    def absorb(self, other):
        """Add other's counts (its value numbers mapped onto these)."""
        remap = [self.ids[item] for item in other.ids.order]
        for label, theirs in other.pairs.items():
            mine = self.pairs.setdefault(label, {})
            get = mine.get
            for key, count in theirs.items():
                a, b = remap[key >> _PAIR_SHIFT], remap[key & 0xFFFFFFFF]
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                mine[key] = get(key, 0) + count

    def keyed_as_mine(self, other):
        """other's counts {label: {pair key: count}} keyed by these value numbers (None
        for a pair whose values these statistics never numbered)."""
        ids = [dict.get(self.ids, item) for item in other.ids.order]
        keyed = {}
        for label, theirs in other.pairs.items():
            mine = keyed[label] = {}
            for key, count in theirs.items():
                a, b = ids[key >> _PAIR_SHIFT], ids[key & 0xFFFFFFFF]
                if a is None or b is None:
                    mine[None] = count
                    continue
                mine[a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a] = count
        return keyed

    def pair_name(self, key):
        """A pair key as words: 'the pair (feature 0 = 'a', feature 2 = 'x')'."""
        if key is None:
            return "a pair of values never seen together"
        (p, v), (j, u) = self.ids.order[key >> _PAIR_SHIFT], self.ids.order[key & 0xFFFFFFFF]
        return "the pair (feature %d = %s, feature %d = %s)" % (p, _shown(v), j, _shown(u))

    def deficit(self, other, emptied):
        """The first pair of values other counted more often in a class than these."""
        keyed = self.keyed_as_mine(other)
        for label in _labels_to_check(keyed, emptied):
            problem = _counts_deficit(self.pairs.get(label, {}), keyed.get(label, {}),
                                      label, self.pair_name, emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's counts (its value numbers mapped onto these); pairs whose
        count reaches 0 disappear."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, theirs in self.keyed_as_mine(other).items():
            mine = self.pairs.get(label)
            if mine is not None:
                _subtract_counts(mine, theirs)
                if not mine:
                    del self.pairs[label]

    def renumbered(self, positions, convert=None):
        """The same counts with feature positions renumbered ({old: new}), values of
        the positions in ``convert`` ({old: function}) counted anew, and only the
        values that some pair still holds numbered."""
        twin = _PairCounts()
        get_id = twin.ids.__getitem__
        items = self.ids.order
        convert = convert or {}
        for label, counted in self.pairs.items():
            mine = twin.pairs[label] = {}
            for key, count in counted.items():
                (p, v), (j, u) = items[key >> _PAIR_SHIFT], items[key & 0xFFFFFFFF]
                v = convert[p](v) if p in convert else v
                u = convert[j](u) if j in convert else u
                a, b = get_id((positions[p], v)), get_id((positions[j], u))
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                mine[key] = mine.get(key, 0) + count
        return twin

    def to_file(self, classes, what="a value"):
        """{"pairs": [[p, j, [[value of p, value of j, [count per class]], ...]], ...]}."""
        by_pair = defaultdict(dict)             # (p, j) -> {(v, u): [count per class]}
        items = self.ids.order
        for k, label in enumerate(classes):
            for key, count in self.pairs.get(label, {}).items():
                (p, v), (j, u) = items[key >> _PAIR_SHIFT], items[key & 0xFFFFFFFF]
                if p > j:
                    (p, v), (j, u) = (j, u), (p, v)
                cell = by_pair[p, j].setdefault((v, u), [0] * len(classes))
                cell[k] = count

        def order(cell):
            return _canonical(cell[0][0]), _canonical(cell[0][1])
        return {"pairs": [[p, j, [[_encode(v, what), _encode(u, what),
                                   [_exact_text(c) for c in counts]]
                                  for (v, u), counts in sorted(cells.items(), key=order)]]
                          for (p, j), cells in sorted(by_pair.items())]}

    @classmethod
    def from_file(cls, data, where, classes, class_count, singles):
        """The counts of the model file's "pairs" field, validated against the single
        counts they come with: ``singles`` per feature position None (a feature that
        takes no part in pairs) or (its kind, its known values, {label: {value:
        N(c, value)}}).  Each pair of features at most once, each pair of values at
        most once, every value known (a discretized one a float), and per class every
        value u of feature p seen with feature j as often as the rows allow: between
        N(c, u) - (the weight of class c's rows lacking j) and N(c, u), so that a pair
        dropped, repeated, above a single count or of an unknown value is refused."""
        pairs = _field(data, where)
        _expect(type(pairs) in (list, _LazyItems), where, pairs, "a list")
        width = len(singles)
        stats = cls()
        get_id = stats.ids.__getitem__
        seen = set()
        totals = [{} for _ in classes]    # per class {(p, id of u, j): sum_v N(c, u, v)}
        for n, entry in enumerate(pairs):
            here = "%s[%d]" % (where, n)
            _expect(type(entry) is list and len(entry) == 3 and type(entry[0]) is int and
                    type(entry[1]) is int and 0 <= entry[0] < entry[1] < width and
                    type(entry[2]) is list, here, entry,
                    "[feature position p, feature position j > p, [[value, value, "
                    "[count per class]], ...]]")
            p, j, cells = entry
            if (p, j) in seen:
                raise _Invalid("%s pairs features %d and %d again; expected each pair of "
                               "features once" % (here, p, j))
            seen.add((p, j))
            for position in (p, j):
                if singles[position] is None:
                    raise _Invalid("%s pairs feature %d, which is neither categorical nor "
                                   "discretized; expected pairs of those features only"
                                   % (here, position))
            cell_ids = set()
            for i, cell in enumerate(cells):
                at = "%s[2][%d]" % (here, i)
                _expect(type(cell) is list and len(cell) == 3 and type(cell[2]) is list
                        and len(cell[2]) == len(classes), at, cell,
                        "[value, value, [one count per class (%d)]]" % len(classes))
                ids = []
                for position, text, side in ((p, cell[0], 0), (j, cell[1], 1)):
                    value = _decode(text, "%s[%d]" % (at, side))
                    kind, known, _ = singles[position]
                    if not (_hashable(value) and value in known) or \
                            (kind == "discretized" and type(value) is not float):
                        raise _Invalid("%s[%d] is %s, not a value of feature %d; expected "
                                       "one of its %s" % (at, side, _describe(value), position,
                                                          "values" if kind == "categorical"
                                                          else "recorded numbers"))
                    ids.append(get_id((position, value)))
                a, b = ids
                if (a, b) in cell_ids:
                    raise _Invalid("%s repeats the pair of values %s, %s; expected each "
                                   "once" % (at, _shown(cell[0]), _shown(cell[1])))
                cell_ids.add((a, b))
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                for c, (label, text) in enumerate(zip(classes, cell[2])):
                    count = _decode_exact(text, "%s[2][%d]" % (at, c))
                    if count:
                        stats.pairs.setdefault(label, {})[key] = count
                        mine = totals[c]
                        for group in ((p, ids[0], j), (j, ids[1], p)):
                            mine[group] = mine.get(group, 0) + count
        stats.check_totals(totals, classes, class_count, singles, where)
        return stats

    def check_totals(self, totals, classes, class_count, singles, where):
        """_Invalid unless each value u of each feature p is seen with every other
        feature j of pairs, in class c, as often as the single counts allow: N(c, u) -
        lacking(c, j) <= sum_v N(c, u, v) <= N(c, u), with lacking(c, j) the weight of
        class c's rows without a value of j (0 when j is never missing: the sum is then
        N(c, u) exactly, and a pair of values left out of the file shows).  ``totals``:
        per class {(p, id of u, j): sum_v N(c, u, v)}."""
        paired = [j for j, single in enumerate(singles) if single is not None]
        ids = self.ids
        for c, label in enumerate(classes):
            counts = {j: singles[j][2].get(label, {}) for j in paired}
            lacking = {j: class_count[label] - sum(counts[j].values()) for j in paired}
            by_lacking = sorted(lacking.values())
            seen_with = Counter()         # (p, id of u): the features j it must meet
            for (p, value_id, j), total in totals[c].items():
                value = ids.order[value_id][1]
                single = counts[p].get(value, 0)
                if not single - lacking[j] <= total <= single:
                    raise _Invalid(
                        "%s: in class %s, value %s of feature %d is seen with feature %d "
                        "%s times, but its count is %s and %s of the class's rows lack "
                        "feature %d; expected between %s and %s" % (
                            where, _shown(label), _shown(value), p, j, _shown(_plain(total)),
                            _shown(_plain(single)), _shown(_plain(lacking[j])), j,
                            _shown(_plain(max(single - lacking[j], 0))),
                            _shown(_plain(single))))
                if lacking[j] < single:
                    seen_with[p, value_id] += 1
            for p in paired:
                for value, single in counts[p].items():
                    # the features j that every row with value u must meet at least once
                    needed = bisect_left(by_lacking, single) - (lacking[p] < single)
                    value_id = dict.get(ids, (p, value))
                    if seen_with[p, value_id] < needed:
                        j = next(j for j in paired if j != p and lacking[j] < single and
                                 (p, value_id, j) not in totals[c])
                        raise _Invalid(
                            "%s: in class %s, value %s of feature %d is never seen with "
                            "feature %d, but its count is %s and only %s of the class's "
                            "rows lack feature %d; expected the pairs of its rows"
                            % (where, _shown(label), _shown(value), p, j,
                               _shown(_plain(single)), _shown(_plain(lacking[j])), j))


class _Unseen:
    """The key of a categorical value never seen in training (the pair tables')."""

    def __repr__(self):
        """'<unseen>'."""
        return "<unseen>"


_UNSEEN = _Unseen()


class _PairTable:
    """Pairwise counts compiled for prediction: what a semi-naive family's compiled
    model builds on (AODE's is one; a tree or network family would read its
    conditional tables from the same numbers).

    A feature's value, or its bin, is a key; every (feature, key), and each
    categorical feature's "unseen value", has a number, consecutive within a feature.
    Built from a family's statistics (class_count, features, pair_counts) once per
    fitted state:
      key_of[j]     None (the value is the key), a _BinKeys (a number's bin), or False
                    (the feature is not used: neither categorical nor discretized)
      kid           (feature, key) -> key number;  key_list: number -> (feature, key)
      unseen[j]     the number of feature j's unseen value (None for bins, unused)
      sizes[j]      S_j, the feature's number of keys (at least 1)
      segments      feature -> (first, last + 1) of its key numbers
      single        key number -> [N(c, key) per class];  frequency: its total N(key)
      present[j]    N_j, the weighted number of rows with feature j present
      pairs         per class, {a << 32 | b: N(c, key a, key b)} with a < b key numbers
    """

    def __init__(self, statistics, classes):
        self.classes = classes
        self.names = names = statistics.names()
        self.width = len(names)
        k = self.k = len(classes)
        self.zeros = (0.0,) * k
        self.key_of = []
        self.kid = {}
        self.unseen = []
        self.key_list = []
        single = {}
        sizes = []
        for j, name in enumerate(names):
            _progress("feature", j + 1, len(names))
            feature = statistics.features[name]
            stats = feature.stats
            if feature.name == "categorical":
                self.key_of.append(None)
                keys = stats.values()
            elif feature.name == "discretized":
                values, columns = stats.weight_columns(classes)
                cuts = _mdl_cut_points(values, columns) if values else []
                self.key_of.append(_BinKeys(cuts, bisect_left))
                keys = list(range(len(cuts) + 1))
            else:
                self.key_of.append(False)
                keys = []
            for key in keys:
                self.kid[j, key] = len(self.key_list)
                self.key_list.append((j, key))
            self.unseen.append(None)
            if self.key_of[j] is None:
                self.unseen[j] = len(self.key_list)
                self.key_list.append((j, _UNSEEN))
            sizes.append(max(len(keys), 1))
            if feature.name == "categorical":
                for c, label in enumerate(classes):
                    for value, count in stats.counts.get(label, {}).items():
                        single.setdefault(self.kid[j, value], [0] * k)[c] += count
            elif feature.name == "discretized":
                for i, value in enumerate(values):
                    counts = single.setdefault(self.kid[j, bisect_left(cuts, value)],
                                               [0] * k)
                    for c, column in enumerate(columns):
                        counts[c] += column[i]
        _progress("feature")
        self.sizes = sizes
        self.feature_of = feature_of = [j for j, _ in self.key_list]
        ends = {}
        for n, j in enumerate(feature_of):
            ends[j] = (ends.get(j, (n, n))[0], n + 1)
        self.segments = ends
        self.single = single
        self.frequency = {kid: sum(counts) for kid, counts in single.items()}
        self.present = [0] * self.width
        for kid, frequency in self.frequency.items():
            self.present[feature_of[kid]] += frequency
        self.pairs = self._numbered_pairs(statistics.pair_counts, classes)
        self.neighbour_index = None

    def _numbered_pairs(self, pair_counts, classes):
        """The pair counts re-keyed by key numbers: one flat dict per class."""
        remap = [self.kid.get((j, self.key(j, value))) if self.key_of[j] is not False
                 else None for j, value in pair_counts.ids.order]
        pairs = []
        for c, label in enumerate(classes):
            _progress("pair counts, class", c + 1, len(classes))
            counted = pair_counts.pairs.get(label, {})
            keys = list(counted)
            a = list(map(remap.__getitem__, map(_PAIR_SHIFT.__rrshift__, keys)))
            b = list(map(remap.__getitem__, map(0xFFFFFFFF .__and__, keys)))
            counts = list(counted.values())
            if None in a or None in b:    # a feature the model does not use
                kept = [x is not None and y is not None for x, y in zip(a, b)]
                a, b = list(compress(a, kept)), list(compress(b, kept))
                counts = list(compress(counts, kept))
            # by builtins: (lower << 32) | higher; bins may map several values to one
            keys = list(map(add, map(int.__lshift__, map(min, a, b), repeat(_PAIR_SHIFT)),
                            map(max, a, b)))
            flat = dict(zip(keys, counts))
            if len(flat) < len(keys):     # several values in one bin: add them up
                if _INT.issuperset(map(type, counts)) and sum(counts) < 8 * len(counts):
                    flat = {}             # whole counts: counted by the C helper
                    _count_keys(flat, chain.from_iterable(map(repeat, keys, counts)))
                else:
                    flat = {}
                    get = flat.get
                    for key, count in zip(keys, counts):
                        flat[key] = get(key, 0) + count
            pairs.append(flat)
        _progress("pair counts, class")
        return pairs

    def key(self, j, value):
        """The key of feature j's value: the value itself, or its bin."""
        key_of = self.key_of[j]
        return value if key_of is None else key_of(value)

    def row_keys(self, row):
        """The key numbers of the row's present, used features (a categorical value
        never seen in training: its feature's "unseen" number); _RowError for a value
        of the wrong kind."""
        keys = []
        for j, value in enumerate(row):
            if self.key_of[j] is False or value is None or _is_missing(value):
                continue
            try:
                kid = self.kid.get((j, self.key(j, value)), self.unseen[j])
            except (_BadValue, TypeError) as error:
                raise _value_error(self.names[j], value, error) from None
            keys.append(kid)
        return keys

    def neighbours(self, kid):
        """{key number b: [N(c, kid, b) per class]} of the keys that occur with kid in
        some row: the sparse form of pair_column, in memory linear in the counts (an
        index of every key's neighbours, built on first use)."""
        index = self.neighbour_index
        if index is None:
            index = defaultdict(dict)
            no_counts = [0] * self.k
            for c, flat in enumerate(self.pairs):
                for key, count in flat.items():
                    a, b = key >> _PAIR_SHIFT, key & 0xFFFFFFFF
                    index[a].setdefault(b, list(no_counts))[c] = count
                    index[b].setdefault(a, list(no_counts))[c] = count
            self.neighbour_index = index
        return index.get(kid, {})

    def pair_column(self, kid):
        """Per class, N(c, kid, b) for every key number b (0 at b = kid)."""
        # the pair keys of kid and every key number b: (lower << 32) | higher
        pair_keys = list(map(add, map(int.__lshift__, range(kid), repeat(_PAIR_SHIFT)),
                             repeat(kid)))
        pair_keys.append(-1)
        pair_keys.extend(map(add, repeat(kid << _PAIR_SHIFT),
                             range(kid + 1, len(self.key_list))))
        return [list(map(flat.get, pair_keys, repeat(0))) for flat in self.pairs]


def _counted_number(params):
    """How the pairwise and network families count a number: as a float, rounded
    to significant_digits when that is set, -0.0 as 0.0."""
    rounding = _round_to_digits(params.get("significant_digits"))

    def counted(value):
        value = float(value)
        if rounding is not None:
            value = rounding(value)
        return 0.0 if value == 0 else value
    return counted


def _zeros_and_rest(vectors, c):
    """(-(number of zero probabilities), sum of the other log terms) of class c."""
    terms = [vector[c] for vector in vectors]
    return -terms.count(-INF), sum([t for t in terms if t != -INF])
