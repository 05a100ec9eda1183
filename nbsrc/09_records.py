# -- records of values: the statistics of MDL bins and kernel densities -------------

class _ValueRecord(_Distribution):
    """Exact value -> weight counts of one numeric feature per class label: the one
    record from which MDL bins and kernel densities are computed, so that parameters
    (the bins' alpha, the bandwidth) can change after fitting and fit, partial_fit and
    merge agree exactly."""

    __slots__ = ("counts",)
    file_fields = ("records",)

    def __init__(self):
        self.counts = {}                  # label -> {value: weighted count}

    def add(self, label, values, weights):
        """Count one class's values (finite floats)."""
        if weights is None:
            counted = Counter(values)
        else:
            integers, shift = _weight_integers(weights)
            counted = {}
            for x, weight in zip(values, integers):
                counted[x] = counted.get(x, 0) + weight
            counted = {x: _ratio(c, 1 << shift) for x, c in counted.items() if c}
        if -0.0 in counted:              # -0.0 == 0.0: one value, written as 0.0
            counted = {(0.0 if x == 0 else x): c for x, c in counted.items()}
        self.add_counts(label, counted)

    def add_counts(self, label, counted):
        """Add {value: count} to a class's record."""
        mine = self.counts.get(label)
        if mine is None:
            if counted:
                self.counts[label] = dict(counted)
            return
        get = mine.get
        for value, count in counted.items():
            mine[value] = get(value, 0) + count

    def absorb(self, other):
        """Add other's records."""
        for label, counted in other.counts.items():
            self.add_counts(label, counted)

    def deficit(self, other, emptied):
        """The first value other recorded more often in a class than these records."""
        for label in _labels_to_check(other.counts, emptied):
            problem = _counts_deficit(self.counts.get(label, {}), other.counts.get(label, {}),
                                      label, lambda x: "value %r" % x, emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's records; values whose count reaches 0 disappear."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, counted in other.counts.items():
            mine = self.counts.get(label)
            if mine is not None:
                _subtract_counts(mine, counted)
                if not mine:
                    del self.counts[label]

    def weight_columns(self, classes):
        """(values, per-class weight columns) over every value of any class, sorted."""
        values = sorted(set().union(*self.counts.values()))
        return values, [list(map(self.counts.get(label, {}).get, values, repeat(0)))
                        for label in classes]

    def describe(self, params):
        """'1,234 distinct values recorded'."""
        n = len(set().union(*self.counts.values()))   # a value of two classes once
        return "%s distinct values recorded" % format(n, ",") if n else "no values"

    def class_statistics(self, classes, params):
        """Per class: {"count": n, "mean": m, "sd": s} of the recorded values, s^2 the
        sum of squared deviations over n - ddof (None where undefined)."""
        ddof = params.get("ddof", 0)
        result = {}
        for label in classes:
            counted = self.counts.get(label, {})
            n = sum(counted.values())
            mean = math.fsum(x * float(c) for x, c in counted.items()) / n if n else None
            sd = math.sqrt(math.fsum(float(c) * (x - mean) ** 2 for x, c in counted.items())
                           / float(n - ddof)) if n and n > ddof else None
            result[label] = {"count": _plain(n), "mean": mean, "sd": sd}
        return result

    def to_file(self, classes, what):
        """{"records": [[values in increasing order, their counts] per class]}."""
        # per class two parallel lists: a loader then holds two flat lists of a class,
        # not a small list per value
        records = []
        for label in classes:
            counted = self.counts.get(label, {})
            values = sorted(counted)
            records.append([values, [_exact_text(counted[x]) for x in values]])
        return {"records": records}

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The records of a feature of the model file, validated."""
        stats = cls()
        for label, here, (values, counts) in _class_rows(
                feature, "records", where, classes, 2,
                "[[values in increasing order], [their counts]]"):
            _expect(type(values) is list and type(counts) is list and
                    len(values) == len(counts), here, [values, counts],
                    "two lists of equal length: values and their counts")
            _expect(set(map(type, values)) <= _FLOAT and all(map(isfinite, values)) and
                    all(map(lt, values, values[1:])), here + "[0]", values,
                    "finite floats in increasing order")
            if not _INT.issuperset(map(type, counts)):
                counts = [_decode_exact(c, "%s[1][%d]" % (here, i))
                          for i, c in enumerate(counts)]
            elif any(c.bit_length() > 3.33 * _MAX_DIGITS for c in counts):
                counts = [_decode_exact(c, here + "[1]") for c in counts]      # refuses
            _expect(not counts or min(counts) > 0, here + "[1]", counts, "positive counts")
            if sum(counts) > class_count[label]:
                raise _Invalid("%s adds up to more than class_count for %s"
                               % (here, _shown(label)))
            if values:
                stats.counts[label] = dict(zip(values, counts))
        return stats
