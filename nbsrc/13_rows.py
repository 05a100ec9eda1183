# -- rows: the statistics of the network families -----------------------------------

class _RowCounts(_Distribution):
    """Every distinct row of a class, with its exact weight and its number of rows: the
    statistics of the network families, whose structure search needs counts of any
    set of features (the data to recount them, not a table per set).  A row is the
    tuple of its values of the features the family uses (a category, a number as
    counted, None for a missing value).  Memory: one entry per distinct row and
    class, at most one per training row (round numbers with significant_digits to
    keep it smaller)."""

    __slots__ = ("rows",)
    file_fields = ("row_counts",)

    def __init__(self):
        self.rows = {}                    # label -> {row tuple: [weight, number of rows]}

    def add(self, label, values, weights):
        """Count one class's rows (tuples); weights exact, or None for weight 1."""
        mine = self.rows.setdefault(label, {})
        if weights is None:
            counted = Counter(values)
            for row, n in counted.items():
                cell = mine.get(row)
                if cell is None:
                    mine[row] = [n, n]
                else:
                    cell[0] += n
                    cell[1] += n
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
        for row, (weight, n) in counted.items():
            weight = _ratio(weight, 1 << shift)
            cell = mine.get(row)
            if cell is None:
                mine[row] = [weight, n]
            else:
                cell[0] += weight
                cell[1] += n

    def absorb(self, other):
        """Add other's rows."""
        for label, theirs in other.rows.items():
            mine = self.rows.setdefault(label, {})
            for row, (weight, n) in theirs.items():
                cell = mine.get(row)
                if cell is None:
                    mine[row] = [weight, n]
                else:
                    cell[0] += weight
                    cell[1] += n

    def deficit(self, other, emptied):
        """The first row other holds more weight or more rows of than these (rows
        already in the same features); a row's weight and its number of rows must
        reach 0 together: the structure search counts rows, so forgetting part of a
        row's weight, or a weight without its rows, is refused."""
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
        """Remove other's rows; a row whose count reaches 0 disappears."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, theirs in other.rows.items():
            mine = self.rows.get(label)
            if mine is None:
                continue
            for row, (weight, n) in theirs.items():
                cell = mine[row]
                if n == cell[1]:
                    del mine[row]
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
    def from_file(cls, data, classes, class_count, width):
        """The rows of the model file's "row_counts" field, validated (``width``: the
        number of values in a row)."""
        per_class = _field(data, "row_counts")
        _expect(type(per_class) in (list, _LazyItems), "row_counts", per_class,
                "one list of rows per class")
        stats = cls()
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
                mine[row] = [weight, item[2]]
                total += weight
            # every row counted is one of these (missing values as null), so their
            # weights are the class's count, which the prior is computed from
            if total != class_count[label]:
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
