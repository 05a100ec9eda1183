# -- pairwise counts: the statistics of the semi-naive families ----------------------

_PAIR_SHIFT = 32                 # a pair's key: (id of the lower value) << 32 | id
_PAIR_TOKENS = 1 << 17           # the keys of values bound remembers across pairs


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


def _count_keys_in_python(counter, keys):
    """counter[key] += 1 for each key."""
    get = counter.get
    for key in keys:
        counter[key] = get(key, 0) + 1


try:                                      # collections' C helper, where there is one
    from collections import _count_elements as _count_keys
except ImportError:                       # another Python: the same, in Python
    _count_keys = _count_keys_in_python


class _PairLimit(Exception):
    """Pairwise counting passed its limit: (the counts kept, the row of the batch)."""


def _added_counts(mine, items):
    """Add the (key, count) items into the counts mine; returns the keys new to it."""
    get = mine.get
    new = []
    for key, count in items:
        before = get(key)
        if before is None:
            mine[key] = count
            new.append(key)
        else:
            mine[key] = before + count
    return new


class _PairCounts(_Distribution):
    """Exact weighted counts N(c, x_p, x_j) of every two values that occur together
    in a row of class c, features p < j: the statistics a semi-naive family adds to
    naive Bayes' (AODE's one-dependence estimates; the tree and network families'
    conditional tables of a feature given one other).

    A value is the pair (feature position, value as counted: a category, or a number
    before it is cut into bins), numbered on first sight; a pair of numbers a < b is
    one int key a << 32 | b.  Memory: one count per class and pair of values that
    occur together, and at most _PAIR_CELLS counts (all classes) per pair of
    features with a number (of ``numeric``, the positions of discretized features):
    beyond them the pair counts its numbers as keys of the nested grid at the
    finest level that fits (``levels``, {(p, j): level} of the pairs coarsened; see
    _grid_key), both numbers of a pair of two at the same level.
    """

    __slots__ = ("ids", "pairs", "levels", "numeric", "compacted", "slack", "sizes",
                 "sizes_width")
    file_fields = ("pairs",)

    def __init__(self):
        self.ids = _ValueIds()
        self.pairs = {}                  # label -> {pair key: weighted count}
        self.levels = {}                 # (p, j), p < j -> level, below full resolution
        self.numeric = frozenset()       # the feature positions whose values are numbers
        self.compacted = 0               # the number of ids when last renumbered
        # rows that can be counted before a pair with a number could pass
        # _PAIR_CELLS (a row adds at most one count to a pair), or None: unknown
        self.slack = None
        # the number of counts (all classes) of each pair of features (p * width + j
        # for _tables' width, kept in sizes_width), kept up to date as batches are
        # added so that bound need not read every count; None: unknown
        self.sizes = None
        self.sizes_width = 0

    def side_level(self, p, others):
        """The level a number of feature p is counted at before its pairs with the
        features ``others`` are keyed at theirs: the finest of those."""
        levels = self.levels
        return max([levels.get((p, j) if p < j else (j, p), _FULL_RESOLUTION)
                    for j in others if j != p], default=_FULL_RESOLUTION)

    def _tables(self, keys):
        """The pair of features (as p * width + j, p < j) of each pair key."""
        feature_of = [p for p, _ in self.ids.order]
        width = len(feature_of) and max(feature_of) + 1
        low = list(map(feature_of.__getitem__, map(_PAIR_SHIFT.__rrshift__, keys)))
        high = list(map(feature_of.__getitem__, map(0xFFFFFFFF .__and__, keys)))
        return list(map(add, map(mul, map(min, low, high), repeat(width)),
                        map(max, low, high))), width

    def _rekey(self, tables):
        """Key the counts of the pairs of features in ``tables`` ({p * width + j:
        (p, j)}) at their levels, numbers only (of ``numeric``)."""
        order, numeric, levels = self.ids.order, self.numeric, self.levels
        get_id = self.ids.__getitem__
        keyed = {}                        # (id, level) -> id of its key
        self.sizes = None

        def key_id(value_id, level):
            found = keyed.get((value_id, level))
            if found is None:
                p, value = order[value_id]
                found = keyed[value_id, level] = value_id if p not in numeric else \
                    get_id((p, _grid_key(value, level)))
            return found
        for label, counted in self.pairs.items():
            keys = list(counted)
            where, _ = self._tables(keys)
            moved = [(key, tables[t]) for key, t in zip(keys, where) if t in tables]
            counts = [counted.pop(key) for key, _ in moved]
            get = counted.get
            for (key, pair), count in zip(moved, counts):
                level = levels[pair]
                a = key_id(key >> _PAIR_SHIFT, level)
                b = key_id(key & 0xFFFFFFFF, level)
                key = a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a
                counted[key] = get(key, 0) + count

    def _move(self, t, level, owners, held):
        """Key every count of the pair of features t (p * width + j), held under the
        keys ``held`` by the classes numbered ``owners`` (in the order of pairs), at
        ``level``: all taken out, then added back under their keys there; its size
        kept up to date."""
        order, numeric = self.ids.order, self.numeric
        get_id = self.ids.__getitem__
        low = list(map(_PAIR_SHIFT.__rrshift__, held))
        high = list(map(0xFFFFFFFF .__and__, held))
        keyed = {}                        # id -> id of its key
        for i in sorted(set(low).union(high)):
            p, value = order[i]
            keyed[i] = i if p not in numeric else get_id((p, _grid_key(value, level)))
        low = list(map(keyed.__getitem__, low))
        high = list(map(keyed.__getitem__, high))
        keys = list(map(add, map(int.__lshift__, map(min, low, high), repeat(_PAIR_SHIFT)),
                        map(max, low, high)))
        del low, high
        tables = list(self.pairs.values())
        counts = [tables[n].pop(key) for n, key in zip(owners, held)]
        size = 0
        for n, key, count in zip(owners, keys, counts):
            counted = tables[n]
            before = counted.get(key)
            if before is None:
                counted[key] = count
                size += 1
            else:
                counted[key] = before + count
        self.sizes[t] = size

    def _sizes(self, width):
        """{p * width + j: the number of counts (all classes)} of every pair of
        features, from the counts kept up to date when known, else counted anew."""
        if self.sizes is None or self.sizes_width != width:
            sizes = Counter()
            for counted in self.pairs.values():
                _count_keys(sizes, self._tables(list(counted))[0])
            self.sizes, self.sizes_width = dict(sizes), width
        return self.sizes

    def _sized(self, new_keys):
        """Keep the sizes up to date after adding counts under the keys ``new_keys``
        (those no class held before, one per class that now holds it)."""
        if self.sizes is not None:
            found, width = self._tables(new_keys)
            if width != self.sizes_width and new_keys:
                self.sizes = None
                return
            sizes = self.sizes
            get = sizes.get
            for t in found:
                sizes[t] = get(t, 0) + 1

    def bound(self):
        """Move each pair of features with a number holding more than _PAIR_CELLS
        counts (all classes) to the finest level at which it holds at most that many
        (every count already keyed at its pair's level); the ids no pair holds any
        more are then let go (renumbered, when they are as many as those held)."""
        if not self.numeric or (self.slack is not None and self.slack >= 0):
            return                        # no pair can be over: nothing would move
        changed = bool(self.levels)
        width = self._tables([])[1]
        sizes = self._sizes(width)
        over = {}
        numeric = self.numeric
        largest = 0
        for t, size in sizes.items():
            p, j = divmod(t, width)
            if p in numeric or j in numeric:
                largest = max(largest, size)
                if size > _PAIR_CELLS and \
                        self.levels.get((p, j), _FULL_RESOLUTION) > _COARSEST_RESOLUTION:
                    over[t] = (p, j)
        # a pair moved holds at most _PAIR_CELLS: the next rows are checked again
        self.slack = 0 if over else max(0, _PAIR_CELLS - largest)
        if over:
            changed = True
            order = self.ids.order
            cells = {t: ([], []) for t in over}    # per pair: (classes, keys)
            for n, counted in enumerate(self.pairs.values()):
                keys = list(counted)
                found = self._tables(keys)[0]
                mask = list(map(over.__contains__, found))
                for key, t in zip(compress(keys, mask), compress(found, mask)):
                    labels, held = cells[t]
                    labels.append(n)
                    held.append(key)
            tokens = {}                   # level -> {value id: its key's token}
            interned = {}                 # level -> {(p, key): token}

            def distinct(labels, low, high, ids, level):
                """The number of distinct (class, pair of keys) at ``level``."""
                if sum(map(len, tokens.values())) > _PAIR_TOKENS:
                    tokens.clear()        # (the memory of a few pairs' values)
                    interned.clear()
                known = tokens.setdefault(level, {})
                names = interned.setdefault(level, {})
                for i in ids.difference(known):
                    p, value = order[i]
                    known[i] = names.setdefault((p, _grid_key(value, level)),
                                                len(names)) if p in numeric else -1 - i
                a = list(map(known.__getitem__, low))
                b = list(map(known.__getitem__, high))
                return len(set(zip(labels, map(min, a, b), map(max, a, b))))
            for t, pair in over.items():
                labels, held = cells.pop(t)
                low = list(map(_PAIR_SHIFT.__rrshift__, held))
                high = list(map(0xFFFFFFFF .__and__, held))
                level = self.levels[pair] = _fitting_level(
                    len(held), self.levels.get(pair, _FULL_RESOLUTION), _PAIR_CELLS,
                    partial(distinct, labels, low, high, set(low).union(high)))
                del low, high
                self._move(t, level, labels, held)
        if changed and len(self.ids) > 2 * self.compacted + 1024:
            twin = self.renumbered({p: p for p, _ in self.ids.order})
            self.ids, self.pairs = twin.ids, twin.pairs
            self.compacted = len(self.ids)

    def aligned(self, other):
        """(these counts, other's), each pair of features at the coarser of its two
        levels: copies where that changes them."""
        levels = dict(self.levels)
        for pair, level in other.levels.items():
            levels[pair] = min(level, levels.get(pair, _FULL_RESOLUTION))
        return self.at_levels(levels), other.at_levels(levels, self.numeric)

    def at_levels(self, levels, numeric=None):
        """These counts with the pairs of ``levels`` keyed there (a copy when that
        changes them)."""
        numeric = self.numeric if numeric is None else numeric
        if not any(level < self.levels.get(pair, _FULL_RESOLUTION)
                   for pair, level in levels.items()):
            return self
        twin = self.copy()
        twin.levels, twin.numeric = dict(levels), frozenset(numeric)
        width = max(p for p, _ in twin.ids.order) + 1
        twin._rekey({p * width + j: (p, j) for p, j in levels})
        return twin

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
        self.sizes = None                 # (counted anew when next needed)
        if self.slack is not None:
            self.slack -= len(rows)
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
            else:                         # the row's pairs in one call, in the same order
                _count_keys(target, chain.from_iterable(
                    [map((a << _PAIR_SHIFT).__add__, ids[n + 1:])
                     for n, a in enumerate(ids[:-1])]))
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
        """Add other's counts (its value numbers mapped onto these), each pair of
        features at the coarser of the two levels, then bounded."""
        self.numeric = self.numeric | other.numeric
        coarser = {pair: level for pair, level in other.levels.items()
                   if level < self.levels.get(pair, _FULL_RESOLUTION)}
        if coarser:
            self.levels.update(coarser)
            width = max(p for p, _ in self.ids.order) + 1
            self._rekey({p * width + j: (p, j) for p, j in coarser})
        self._absorb(other.at_levels(self.levels, self.numeric))
        self.slack = None
        self.bound()

    def add_keyed(self, label, rows, weights, limit=None):
        """add_ids, each count then keyed at its pair's level (the rows' numbers
        keyed at side_level's), and bounded: the rows are counted apart (their ids
        numbered in these), keyed, then added."""
        if not self.levels:
            self.add_ids(label, rows, weights, limit)
            self.bound()
            return
        counted = _PairCounts()
        counted.ids, counted.levels, counted.numeric = self.ids, self.levels, self.numeric
        kept = self.size()
        try:
            counted.add_ids(label, rows, weights, None if limit is None else
                            max(0, limit - kept))
        except _PairLimit as stop:
            raise _PairLimit(stop.args[0] + kept, stop.args[1]) from None
        width = max(p for p, _ in self.ids.order) + 1
        counted._rekey({p * width + j: (p, j) for p, j in self.levels})
        self._sized(_added_counts(self.pairs.setdefault(label, {}),
                                  counted.pairs.get(label, {}).items()))
        if self.slack is not None:
            self.slack -= len(rows)
        self.bound()

    def _absorb(self, other):
        """Add other's counts, numbering here only the values its pairs hold (in
        other's order of numbers), the sizes kept up to date."""
        used = set()
        for theirs in other.pairs.values():
            keys = list(theirs)
            used.update(map(_PAIR_SHIFT.__rrshift__, keys))
            used.update(map(0xFFFFFFFF .__and__, keys))
        remap = [None] * len(other.ids.order)
        get_id = self.ids.__getitem__
        order = other.ids.order
        for i in sorted(used):
            remap[i] = get_id(order[i])
        new = []
        for label, theirs in other.pairs.items():
            keyed = ((a << _PAIR_SHIFT | b if a < b else b << _PAIR_SHIFT | a, count)
                     for a, b, count in ((remap[key >> _PAIR_SHIFT],
                                          remap[key & 0xFFFFFFFF], count)
                                         for key, count in theirs.items()))
            new.extend(_added_counts(self.pairs.setdefault(label, {}), keyed))
        self._sized(new)

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
        """The first pair of values other counted more often in a class than these
        (both at the coarser level of each pair of features)."""
        mine, other = self.aligned(other)
        return mine.keyed_deficit(mine.keyed_as_mine(other), emptied)

    def keyed_deficit(self, keyed, emptied):
        """deficit of counts keyed by these value numbers (keyed_as_mine)."""
        for label in _labels_to_check(keyed, emptied):
            problem = _counts_deficit(self.pairs.get(label, {}), keyed.get(label, {}),
                                      label, self.pair_name, emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's counts (its value numbers mapped onto these); pairs whose
        count reaches 0 disappear."""
        mine, other = self.aligned(other)
        keyed = mine.keyed_as_mine(other)          # (once: for the check and the removal)
        problem = mine.keyed_deficit(keyed, ())
        if problem is not None:
            raise _Unlearned(problem)
        self.ids, self.pairs, self.levels = mine.ids, mine.pairs, mine.levels
        self.sizes = None
        for label, theirs in keyed.items():
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
        for (p, j), level in self.levels.items():
            if positions.get(p) is not None and positions.get(j) is not None:
                low, high = sorted((positions[p], positions[j]))
                twin.levels[low, high] = level
        twin.numeric = frozenset(positions[p] for p in self.numeric
                                 if positions.get(p) is not None)
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
    def from_file(cls, data, where, classes, class_count, singles, levels=None):
        """The counts of the model file's "pairs" field, validated against the single
        counts they come with: ``singles`` per feature position None (a feature that
        takes no part in pairs) or (its kind, its known values, {label: {value:
        N(c, value)}}, the level of its record); ``levels`` {(p, j): level} of the
        pairs of features coarsened, whose numbers must be keys of that level, and
        known at the coarser of it and their record's.  Each pair of features at most once, each pair of values at
        most once, every value known (a discretized one a float), and per class every
        value u of feature p seen with feature j as often as the rows allow: between
        N(c, u) - (the weight of class c's rows lacking j) and N(c, u), so that a pair
        dropped, repeated, above a single count or of an unknown value is refused."""
        pairs = _field(data, where)
        _expect(type(pairs) in (list, _LazyItems), where, pairs, "a list")
        width = len(singles)
        stats = cls()
        stats.levels = dict(levels or {})
        stats.numeric = frozenset(j for j, single in enumerate(singles)
                                  if single is not None and single[0] == "discretized")
        known_at = {}                     # (position, level) -> its known keys there
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
                level = stats.levels.get((p, j), _FULL_RESOLUTION)
                for position, text, side in ((p, cell[0], 0), (j, cell[1], 1)):
                    value = _decode(text, "%s[%d]" % (at, side))
                    kind, known, _, record_level = singles[position]
                    if kind == "discretized" and level < _FULL_RESOLUTION:
                        if type(value) is not float or not isfinite(value) or \
                                _grid_key(value, level) != value:
                            raise _Invalid("%s[%d] is %s, not a key of the pair's "
                                           "pair_resolution %d; expected the keys of that "
                                           "level" % (at, side, _describe(value), level))
                        coarser = min(level, record_level)
                        found = known_at.get((position, coarser))
                        if found is None:
                            found = known_at[position, coarser] = {
                                _grid_key(x, coarser) for x in known}
                        if _grid_key(value, coarser) not in found:
                            raise _Invalid("%s[%d] is %s, whose key is not among the "
                                           "recorded numbers of feature %d; expected one "
                                           "of them" % (at, side, _describe(value), position))
                    elif not (_hashable(value) and value in known) or \
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
        cut = stats.cut_levels([None if single is None else single[3]
                                for single in singles])
        if cut:                           # checked with each number at its cut level
            view = stats.renumbered({p: p for p, _ in stats.ids.order}, {
                p: partial(_key_at, level) for p, level in cut.items()})
            totals = [{} for _ in classes]
            order = view.ids.order
            for c, label in enumerate(classes):
                mine = totals[c]
                for key, count in view.pairs.get(label, {}).items():
                    a, b = key >> _PAIR_SHIFT, key & 0xFFFFFFFF
                    p, j = order[a][0], order[b][0]
                    for group in ((p, a, j), (j, b, p)):
                        mine[group] = mine.get(group, 0) + count
            singles = [single if j not in cut else (single[0], None, {
                label: _keyed_counts(counted, cut[j]) for label, counted in
                single[2].items()}, cut[j]) for j, single in enumerate(singles)]
            view.check_totals(totals, classes, class_count, singles, where)
        else:
            stats.check_totals(totals, classes, class_count, singles, where)
        return stats

    def cut_levels(self, record_levels):
        """{position: level} of each feature with a number coarsened somewhere: the
        coarser of its record's level (``record_levels`` by position) and its pairs',
        at which its bins are cut and every count of it is read when compiled."""
        cut = {}
        for j, level in enumerate(record_levels):
            if level is None or j not in self.numeric:
                continue
            level = min([level] + [pair_level for pair, pair_level in self.levels.items()
                                   if j in pair])
            if level < _FULL_RESOLUTION:
                cut[j] = level
        return cut

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
                cuts = stats.cut_points(classes)
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


def _key_at(level, value):
    """_grid_key(value, level), for partial."""
    return _grid_key(value, level)


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
