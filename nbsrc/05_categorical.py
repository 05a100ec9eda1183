# -- categorical ------------------------------------------------------------------

class _ValueCounts(_Distribution):
    """Counts N_cjv of one categorical feature per class label and value, and its
    known values S_j (declared ones first, then those seen, in first-seen order):
    P(v | c) = (N_cjv + alpha) / (N_cj + alpha * S_j)."""

    __slots__ = ("counts", "declared", "seen")
    settings = ("declared",)
    file_fields = ("declared", "values", "counts")

    def __init__(self, declared=None):
        self.counts = {}                      # label -> {value: weighted count}
        self.declared = dict.fromkeys(declared or ())   # ordered sets: declared values,
        self.seen = {}                                  # and those seen in training

    def add(self, label, values, weights):
        """Count one class's values (hashable); missing ones are dropped here, after
        counting, which costs one check per distinct value rather than per row."""
        try:
            if weights is None:
                counted = Counter(values)
            else:
                integers, shift = _weight_integers(weights)
                counted = {}
                get = counted.get
                for value, weight in zip(values, integers):
                    counted[value] = get(value, 0) + weight
                counted = {v: _ratio(c, 1 << shift) for v, c in counted.items()}
        except TypeError:
            bad = next(v for v in values if not _hashable(v))
            raise _BadValue(bad, "a hashable value") from None
        counted.pop(None, None)
        if not _STR.issuperset(map(type, counted)):     # (a text is never missing)
            for value in [v for v in counted if _is_missing(v)]:
                del counted[value]
        if self.declared:
            for value in counted:
                if value not in self.declared:
                    raise _BadValue(value, "one of the declared categories %s"
                                    % _shown(list(self.declared)))
        self.seen.update(dict.fromkeys(counted))
        mine = self.counts.get(label)
        if mine is None:
            self.counts[label] = dict(counted)
        else:
            for value, count in counted.items():
                mine[value] = mine.get(value, 0) + count

    def with_absences_as(self, value, class_count):
        """A copy in which every row of a class that lacks this feature counts as
        ``value`` (N_c minus the class's counted rows); these counts when none lacks it."""
        lacking = {label: n - sum(self.counts.get(label, {}).values())
                   for label, n in class_count.items()}
        if not any(lacking.values()):
            return self
        twin = self.copy()
        for label, n in lacking.items():
            if n:
                mine = twin.counts.setdefault(label, {})
                mine[value] = mine.get(value, 0) + n
        twin.seen[value] = None
        return twin

    def absorb(self, other):
        """Add other's counts and known values."""
        self.declared.update(other.declared)
        self.seen.update(other.seen)
        for label, counts in other.counts.items():
            mine = self.counts.get(label)
            if mine is None:
                self.counts[label] = dict(counts)
                continue
            for value, count in counts.items():
                mine[value] = mine.get(value, 0) + count

    def deficit(self, other, emptied):
        """The first value other counted more often in a class than these counts."""
        for label in _labels_to_check(other.counts, emptied):
            problem = _counts_deficit(self.counts.get(label, {}), other.counts.get(label, {}),
                                      label, lambda v: "value %s" % _shown(v), emptied)
            if problem is not None:
                return problem
        return None

    def subtract(self, other):
        """Remove other's counts; a value no class counts any more is no longer seen
        (declared values stay: they are settings)."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, counts in other.counts.items():
            mine = self.counts.get(label)
            if mine is not None:
                _subtract_counts(mine, counts)
                if not mine:
                    del self.counts[label]
        counted = set().union(*self.counts.values())
        self.seen = {value: None for value in self.seen if value in counted}

    def values(self):
        """Known values S_j: the declared ones in their order, then those seen, in the
        canonical order (see _canonical): the same however the rows arrived."""
        seen = [v for v in self.seen if v not in self.declared] if self.declared \
            else list(self.seen)
        types = set(map(type, seen))
        if types <= _STR or types <= _FLOAT_INT:
            seen.sort()                   # the canonical order of strings or numbers
        else:
            seen.sort(key=_canonical)
        return list(self.declared) + seen

    def compile(self, classes, params, shared):
        """The _ValueTable of per-class log-likelihoods for every known value."""
        alpha = params["alpha"]
        values = self.values()
        zeros = (0.0,) * len(classes)
        if not values:                    # never saw a value: no information
            return _NoEvidence(zeros, "categorical")
        columns = []                      # per class: log P(v|c) for v in values, fallback
        for label in classes:
            counts = self.counts.get(label, {})
            columns.append(_log_smoothed(list(map(counts.get, values, repeat(0))) + [0],
                                         sum(counts.values()), alpha, len(values)))
        table = _ValueTable(zip(values, zip(*columns)))
        # an unseen value: alpha / (N_cj + alpha * S_j), the smoothing of a count of 0
        table.fallback = tuple([column[-1] for column in columns])
        table[None] = table.zeros = zeros
        return table

    def describe(self, params):
        """'3 values: a, b, c'."""
        values = self.values()
        if not values:
            return "no values"
        shown = ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")
        return "%d values: %s" % (len(values), shown)

    def class_statistics(self, classes, params):
        """Per class: {"count": N_cj, "top": [[value, N_cjv]] of its 3 most frequent
        values, the first seen first among equal counts}."""
        return {label: _top_counts(self.counts.get(label, {})) for label in classes}

    def to_file(self, classes, what):
        """{"declared": [...], "values": [...], "counts": [per class, per value]}."""
        values = self.values()
        section = {}
        if self.declared:
            section["declared"] = [_encode(v, what) for v in self.declared]
        section["values"] = [_encode(v, what) for v in values]
        section["counts"] = [[_exact_text(self.counts.get(c, {}).get(v, 0)) for v in values]
                             for c in classes]
        return section

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The counts of a feature of the model file, validated."""
        declared = _decode_list(feature.get("declared", []), where + ".declared")
        values = _decode_list(_field(feature, "values", where), where + ".values")
        stats = cls(declared)
        for value in chain(declared, values):
            _expect(_hashable(value) and not _is_missing(value), where + ".values", value,
                    "hashable, non-missing values")
        stats.seen.update(dict.fromkeys(values))
        if len(stats.values()) != len(set(declared) | set(values)) or \
                len(dict.fromkeys(values)) != len(values) or \
                len(dict.fromkeys(declared)) != len(declared):
            raise _Invalid("%s repeats a value; expected distinct values" % where)
        for label, here, row in _class_rows(feature, "counts", where, classes, len(values),
                                            "list of %d counts, one per value"
                                            % len(values)):
            counted = {}
            for value, text in zip(values, row):
                count = _decode_exact(text, here)
                if count:
                    counted[value] = count
            if sum(counted.values()) > class_count[label]:
                raise _Invalid("%s adds up to more than class_count for %r; expected at "
                               "most %s" % (here, label, _exact_text(class_count[label])))
            if counted:
                stats.counts[label] = counted
        if declared:
            for value in values:
                if value not in stats.declared:
                    raise _Invalid("%s.values holds %s, not among the declared categories"
                                   % (where, _shown(value)))
        return stats


class _ValueTable(dict, _Scorer):
    """Categorical scorer: value -> per-class log P(value | class), one dict lookup.

    A miss returns the Laplace fallback; NaN (which never equals itself, so never hits)
    is a missing value and contributes nothing.
    """

    __slots__ = ("fallback", "zeros")

    def __missing__(self, value):
        """An unseen value's fallback; zeros for a missing one (NaN never hits)."""
        if _is_missing(value):
            return self.zeros
        return self.fallback

    def explain(self, value):
        """'used', 'unseen' (the fallback) or 'missing', with the vector."""
        if _is_missing(value):
            return "missing", self.zeros, None
        vector = self[value]
        return ("used" if value in self else "unseen"), vector, None

    def informative(self, name, classes):
        """Every known value, ranked as nltk ranks it: the log of its largest
        likelihood ratio between two classes, max_c P(v|c) / min_c P(v|c)."""
        return [(name, value, _log_ratio_range(vector), classes[vector.index(max(vector))])
                for value, vector in self.items() if value is not None]

    def table(self, classes):
        """{"kind": "categorical", "probabilities": {label: {value: P}}}."""
        return {"kind": "categorical", "probabilities": {
            label: {value: exp(vector[k]) for value, vector in self.items()
                    if value is not None}
            for k, label in enumerate(classes)}}

    def lookup(self):
        """The table itself: the fast path packs it."""
        return self
