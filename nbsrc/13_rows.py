# -- rows: the statistics of the network families -----------------------------------
#
# The rows are bounded by a sample once there are more distinct rows than a model's
# row_sample: the distinct rows of smallest hash (a bottom-k sketch).  A row's hash is
# a function of its values alone (each known value with its feature's name, in the
# order of the names: not of the rows' order, their batching, their columns' order,
# nor of other rows), so the sample is the same set however the rows arrive, and the
# sample of two merged models is the sample of their union: merge the two samples,
# keep the rows of smallest hash.  Every row kept has its exact weight, the weight of
# all its occurrences (a row of hash below the threshold has never been left out).

def _stable_text(value):
    """A text of a value that is the same on every run, machine and Python version,
    and equal for values that are equal as dictionary keys (1, 1.0 and True)."""
    if value is None:
        return "-"
    kind = type(value)
    if kind is str:
        return "s" + repr(value)
    if kind is tuple:
        return "t(" + ",".join(map(_stable_text, value)) + ")"
    if kind is bytes:
        return "b" + value.hex()
    from numbers import Number
    if isinstance(value, Number) and not isinstance(value, complex):
        try:
            number = float(value)
        except OverflowError:
            return "n" + repr(int(value)) if value == int(value) else "n" + repr(value)
        if number == value:
            return "n" + repr(number)
        return "n" + repr(value)
    return "o" + kind.__module__ + "." + kind.__qualname__ + ":" + _shown(value, 200)


def _row_hash(names, row):
    """The row's 64-bit hash: its known values with their features' names, sorted."""
    from hashlib import blake2b
    text = "\x1f".join(sorted(_stable_text(name) + "=" + _stable_text(value)
                              for name, value in zip(names, row) if value is not None))
    return int.from_bytes(blake2b(text.encode("utf-8", "surrogatepass"),
                                  digest_size=8).digest(), "big")


_ROW_SAMPLE = 50000       # row_sample's default: the most distinct rows kept


def _add_counted(table, counted):
    """Add the (key, (weight, rows)) pairs of ``counted`` into ``table``, a dict
    {key: [weight, rows]} (a key met again adds to both)."""
    for key, (weight, n) in counted:
        cell = table.get(key)
        if cell is None:
            table[key] = [weight, n]
        else:
            cell[0] += weight
            cell[1] += n


class _RowCounts(_Distribution):
    """Every distinct row of a class, with its exact weight and its number of rows: the
    statistics of the network families, whose structure search needs counts of any
    set of features (the data to recount them, not a table per set).  A row is the
    tuple of its values of the features the family uses (a category, a number as
    counted, None for a missing value), in the order of ``names``.

    Memory: one entry per distinct row and class, at most ``capacity`` (row_sample)
    of them: beyond it, the rows of smallest hash (_row_hash) that fit, every other
    row left out for good (``threshold``: the hash of the first one left out; a row
    of that hash or more is not kept).  While nothing was left out (threshold None)
    the rows are every row counted."""

    __slots__ = ("rows", "names", "capacity", "threshold", "hashes")
    file_fields = ("row_counts",)

    def __init__(self, names=(), capacity=None):
        self.rows = {}                    # label -> {row tuple: [weight, number of rows]}
        self.names = tuple(names)         # the features' names, in the rows' order
        self.capacity = capacity          # the most distinct rows kept (None: all)
        self.threshold = None             # the hash of the first row left out
        self.hashes = None                # row -> hash, once rows were left out

    def sampled(self):
        """Whether rows were left out (the rows are then a sample)."""
        return self.threshold is not None

    def _hash(self, row):
        hashes = self.hashes
        found = hashes.get(row)
        if found is None:
            found = hashes[row] = _row_hash(self.names, row)
        return found

    def _admitted(self, counted):
        """The rows of ``counted`` ({row: cell}) that the sample keeps: all while
        nothing was left out, else those whose hash is below the threshold."""
        if self.threshold is None:
            return counted
        threshold = self.threshold
        hashes = self.hashes
        names = self.names
        kept = {}
        for row, cell in counted.items():
            found = hashes.get(row)
            if found is None:
                found = _row_hash(names, row)
                if found >= threshold:
                    continue
                hashes[row] = found
            kept[row] = cell
        return kept

    def bound(self):
        """Leave out the rows of largest hash while more than ``capacity`` distinct
        rows are kept (a row held by several classes is kept or left out whole)."""
        capacity = self.capacity
        if capacity is None or self.size() <= capacity:
            return
        if self.hashes is None:
            self.hashes = {}
        entries = Counter()
        for counted in self.rows.values():
            entries.update(counted.keys())
        order = sorted(entries, key=self._hash)
        kept = 0
        cut = len(order)
        for n, row in enumerate(order):
            kept += entries[row]
            if kept > capacity:
                cut = n
                break
        left_out = order[cut:]
        if not left_out:
            return
        first = self.hashes[left_out[0]]
        self.threshold = first if self.threshold is None else min(self.threshold, first)
        self._drop(set(left_out))

    def _drop(self, rows):
        """Forget ``rows`` (a set) in every class, and their hashes."""
        for label in list(self.rows):
            counted = self.rows[label]
            for row in rows.intersection(counted):
                del counted[row]
            if not counted:
                del self.rows[label]
        for row in rows:
            self.hashes.pop(row, None)

    def below(self, threshold):
        """Forget the rows whose hash is ``threshold`` or more."""
        if self.hashes is None:
            self.hashes = {}
        above = {row for counted in self.rows.values() for row in counted
                 if self._hash(row) >= threshold}
        self.threshold = threshold if self.threshold is None else \
            min(self.threshold, threshold)
        self._drop(above)

    def kept_part(self, other):
        """other's rows that these keep (those of hash below the threshold): other as
        it is while nothing was left out."""
        if self.threshold is None:
            return other
        if self.hashes is None:
            self.hashes = {}
        part = _RowCounts(other.names, other.capacity)
        threshold = self.threshold
        hashes = self.hashes
        for label, counted in other.rows.items():
            mine = {}
            for row, cell in counted.items():
                found = hashes.get(row)
                if found is None:
                    found = _row_hash(self.names, row)
                    if found >= threshold:        # never kept: its hash is not either
                        continue
                    hashes[row] = found
                mine[row] = cell
            if mine:
                part.rows[label] = mine
        return part

    def copy(self):
        """An equal, independent copy."""
        twin = _RowCounts(self.names, self.capacity)
        twin.rows = {label: {row: list(cell) for row, cell in counted.items()}
                     for label, counted in self.rows.items()}
        twin.threshold = self.threshold
        twin.hashes = None if self.hashes is None else dict(self.hashes)
        return twin

    def add(self, label, values, weights):
        """Count one class's rows (tuples); weights exact, or None for weight 1."""
        mine = self.rows.setdefault(label, {})
        if weights is None:
            counted = Counter(values)
            for row, n in self._admitted(counted).items():
                cell = mine.get(row)
                if cell is None:
                    mine[row] = [n, n]
                else:
                    cell[0] += n
                    cell[1] += n
            if not mine:
                del self.rows[label]
            self.bound()
            return
        integers, shift = _weight_integers(weights)
        counted = {}
        for row, weight in zip(values, integers):
            cell = counted.get(row)
            if cell is None:
                counted[row] = [weight, 1]
            else:
                cell[0] += weight
                cell[1] += 1
        for row, (weight, n) in self._admitted(counted).items():
            weight = _ratio(weight, 1 << shift)
            cell = mine.get(row)
            if cell is None:
                mine[row] = [weight, n]
            else:
                cell[0] += weight
                cell[1] += n
        if not mine:
            del self.rows[label]
        self.bound()

    def absorb(self, other):
        """Add other's rows (in the same names): the sample of the union when either
        left rows out, the rows of smallest hash of both."""
        if other.threshold is not None:
            if self.hashes is None:
                self.hashes = {}
            if other.hashes:
                self.hashes.update(other.hashes)
            self.below(other.threshold)
        other = self.kept_part(other)
        if self.capacity is None:
            self.capacity = other.capacity
        for label, theirs in other.rows.items():
            _add_counted(self.rows.setdefault(label, {}), theirs.items())
        self.bound()

    def deficit(self, other, emptied):
        """The first row other holds more weight or more rows of than these (rows
        already in the same features); a row's weight and its number of rows must
        reach 0 together: the structure search counts rows, so forgetting part of a
        row's weight, or a weight without its rows, is refused.  Of a sample, only
        the rows it keeps are forgotten (the others were never kept)."""
        other = self.kept_part(other)
        for label in _labels_to_check(other.rows, emptied):
            mine, theirs = self.rows.get(label, {}), other.rows.get(label, {})
            for row, (weight, n) in theirs.items():
                have = mine.get(row, (0, 0))
                if weight > have[0] or n > have[1]:
                    return "class %s: row %s has a weight of %s in %d rows, less than the " \
                        "%s in %d rows to forget" % (_shown(label), _shown(row),
                                                     _plain(have[0]), have[1],
                                                     _plain(weight), n)
                if (weight == have[0]) != (n == have[1]):
                    return "class %s: row %s would keep %s of its weight in %d rows (this " \
                        "model also counts rows: forget a row with the weight it was " \
                        "learned with)" % (_shown(label), _shown(row),
                                           _plain(have[0] - weight), have[1] - n)
            if label in emptied:
                for row, (weight, n) in mine.items():
                    if row not in theirs or theirs[row][1] != n:
                        return "class %s: row %s would be kept after all its rows are " \
                            "forgotten" % (_shown(label), _shown(row))
        return None

    def subtract(self, other):
        """Remove other's rows; a row whose count reaches 0 disappears.  A sample keeps
        its threshold: the rows left are those of the remaining data below it."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        other = self.kept_part(other)
        for label, theirs in other.rows.items():
            mine = self.rows.get(label)
            if mine is None:
                continue
            for row, (weight, n) in theirs.items():
                cell = mine[row]
                if n == cell[1]:
                    del mine[row]
                    if self.hashes is not None and not any(
                            row in counted for counted in self.rows.values()):
                        self.hashes.pop(row, None)
                else:
                    mine[row] = [cell[0] - weight, cell[1] - n]
            if not mine:
                del self.rows[label]

    def size(self):
        """The number of distinct rows kept (over all classes)."""
        return sum(map(len, self.rows.values()))

    def to_file(self, classes, what="a value"):
        """{"row_counts": per class [[[values], weight, number of rows], ...]}, rows
        in the canonical order of their values."""
        def order(item):
            return tuple(map(_canonical, item[0]))
        return {"row_counts": [
            [[[_encode(v, what) for v in row], _exact_text(weight), n]
             for row, (weight, n) in sorted(self.rows.get(label, {}).items(), key=order)]
            for label in classes]}

    @classmethod
    def from_file(cls, data, classes, class_count, width, names=()):
        """The rows of the model file's "row_counts" field, validated (``width``: the
        number of values in a row, ``names`` the features'), and its "row_sample"
        field when the rows are a sample: {"rows": the most distinct rows kept,
        "threshold": the hash of the first row left out}, every row's hash below it
        and the classes' rows weighing at most their counts."""
        per_class = _field(data, "row_counts")
        _expect(type(per_class) in (list, _LazyItems), "row_counts", per_class,
                "one list of rows per class")
        stats = cls(names)
        sample = data.get("row_sample")
        if sample is not None:
            _expect(type(sample) is dict and set(sample) == {"rows", "threshold"} and
                    type(sample["rows"]) is int and sample["rows"] >= 1 and
                    type(sample["threshold"]) is int and
                    0 <= sample["threshold"] < 1 << 64, "row_sample", sample,
                    '{"rows": an integer >= 1, "threshold": an integer in [0, 2^64)}')
            stats.capacity = sample["rows"]
            stats.threshold = sample["threshold"]
            stats.hashes = {}
        count = 0
        for k, rows in enumerate(per_class):
            here = "row_counts[%d]" % k
            _expect(k < len(classes) and type(rows) is list, here, rows,
                    "one list of [[values], weight, number of rows] per class (%d)"
                    % len(classes))
            label = classes[k]
            mine = {}
            total = 0
            for i, item in enumerate(rows):
                at = "%s[%d]" % (here, i)
                _expect(type(item) is list and len(item) == 3 and type(item[0]) is list and
                        len(item[0]) == width and type(item[2]) is int and item[2] > 0, at,
                        item, "[[%d values], weight, number of rows > 0]" % width)
                row = tuple(_decode(v, at) for v in item[0])
                for value in row:
                    _expect(value is None or (_hashable(value) and not _is_missing(value)),
                            at, value, "hashable values or null")
                weight = _decode_exact(item[1], at + "[1]")
                _expect(weight > 0, at + "[1]", item[1], "a weight > 0")
                if row in mine:
                    raise _Invalid("%s repeats a row; expected distinct rows" % at)
                if sample is not None and stats._hash(row) >= stats.threshold:
                    raise _Invalid("%s: the row's hash is not below row_sample's "
                                   "threshold; expected only rows the sample keeps" % at)
                mine[row] = [weight, item[2]]
                total += weight
            # every row counted is one of these (missing values as null), so their
            # weights are the class's count, which the prior is computed from
            if total > class_count[label] if sample is not None else \
                    total != class_count[label]:
                raise _Invalid("%s: the rows of class %s weigh %s in all, but class_count[%d] "
                               "is %s; expected the same (every row the model counted is "
                               "in row_counts)" % (here, _shown(label), _shown(_plain(total)), k,
                                                   _shown(_plain(class_count[label]))))
            if mine:
                stats.rows[label] = mine
            count += 1
        _expect(count == len(classes), "row_counts", count, "one list per class (%d)"
                % len(classes))
        return stats
