# ----------------------------------------------------------------------------------
# Model families: what a model learns (statistics) and what it predicts with (the
# compiled model)
#
# A family is a pair of classes.  The statistics count rows (fit, partial_fit), add
# up (merge), and read and write their part of the model file; compile(params) turns
# them into a compiled model, built once per fitted state, whose joints(rows) gives
# per-class joint log-likelihoods, the one quantity every prediction is made from
# (as scikit-learn's _joint_log_likelihood feeds every prediction).  The classifiers,
# explain, the model file and the command line use only this interface, so they work
# alike for every family.  Adding a family: a statistics class (a subclass of
# _NaiveStatistics, adding what the family counts: AODE adds a _PairCounts), a
# compiled-model class (a semi-naive family builds on _PairTable, as _AODEModel
# does), a public class naming them (a subclass of _Classifier with its
# _statistics_class, _allowed_kinds, _parameters and _command_name), and one entry in
# the registry _MODELS after the classifiers.
#
# statistics:  classes(), names(), kinds(), class_count, layout
#              count(rows, labels, weights, start, fitting)   (raises NaiveBayesError)
#              skeleton(), copy(), absorb(other), conflicts(other)
#              compile(params) -> compiled model
#              to_file(classes) -> {field: ...}; from_file(data, classes, class_count)
#              summary(params) -> [(name, kind, description)]
# compiled:    classes, names, width, log_prior
#              positional(row) -> values in feature order (raises _RowError)
#              joint(row), joints(rows) -> per-class joint log-likelihoods
#              explain(row) -> the dict explain() returns
#              informative() -> [(feature, value, score, favoured label)]
#              tables() -> {feature: table}
# ----------------------------------------------------------------------------------


def _order_hint(names):
    """What a row of the wrong width is told when the features have names: ": the
    features, in order: ...; ..." (the first 8), and how to match values by name (a
    file's columns may be in another order); "" for features known by position."""
    names = list(names)
    if names == list(range(len(names))):
        return ""
    return ": the features, in order: %s; a dict per row, or read_csv(path, " \
        "model=model) for a file, matches values to features by name" % (
            ", ".join(map(_clip, names[:8])) +
            (", ... (%d in all)" % len(names) if len(names) > 8 else ""))


class _Fitting:
    """What one call of fit or partial_fit counts with: its name, the parameters and
    declarations read once, and the feature names that some row holds."""

    __slots__ = ("call", "params", "kinds", "categories", "default_kind", "numeric", "seen",
                 "allowed", "model", "in_use", "columns")

    def __init__(self, call, params, default_kind, allowed=None, model=None, kind_map=None):
        self.call = call
        self.model = model
        self.params = params
        self.kinds, self.categories = _declarations(params)
        if kind_map:                      # a family that reads some kinds as others
            self.kinds = {name: kind_map.get(kind, kind) for name, kind in self.kinds.items()}
        self.default_kind = default_kind
        self.numeric = params.get("numeric", "gaussian")
        self.seen = set()
        self.allowed = allowed            # the kinds the family can use (None: all)
        self.in_use = 0                   # bytes of the model partial_fit adds to (the
        # memory budget's share already taken: see _check_memory)
        self.columns = ()                 # a DataFrame's columns, in its order

    def new_feature(self, name):
        """Empty statistics for a feature seen for the first time."""
        kind = self.kinds.get(name)
        categories = self.categories.get(name)
        if kind is None:
            kind = "categorical" if categories is not None else self.default_kind
        if kind is None:
            return _Undecided()
        self.check_kind(name, kind)
        if kind == "categorical":
            return _Categorical(_ValueCounts(categories))
        return _KINDS[kind]()

    def check_kind(self, name, kind):
        """Refuse a kind the family cannot use, naming the fix."""
        if self.allowed is not None and kind not in self.allowed:
            raise NaiveBayesError(
                "%s: feature %r is %s; this model takes %s features (declare it with "
                "features={%r: \"discretized\"} or \"ignore\")"
                % (self.call, name, kind, ", ".join(self.allowed), name), call=self.call)


def _mapping_order(names, columns=()):
    """The order of the features of rows that are mappings: a DataFrame's ``columns``
    in its order, then every other name sorted (as scikit-learn's DictVectorizer
    sorts them; names Python cannot compare with one another by their type, then
    value: _canonical).  A function of the names alone, not of the order of the
    rows' keys, of the rows, of the batches or of features=, so that the structure
    searches, whose ties follow the features' order, learn one model from the same
    rows whatever their form."""
    names = list(names)
    present = set(names)
    first = [name for name in dict.fromkeys(columns) if name in present]
    placed = set(first)
    return first + sorted((name for name in names if name not in placed), key=_canonical)


class _NaiveStatistics:
    """Sufficient statistics of a naive Bayes model: class counts and one statistics
    object per feature.  Fitting is counting into one of these; partial_fit and merge
    add two of them; the model file stores one."""

    file_fields = ("features",)           # its fields in the model file
    __slots__ = ("class_count", "features", "layout")

    def __init__(self):
        self.class_count = {}    # label -> weighted count, in first-seen order
        self.features = {}       # name -> statistics object (a _Kind), in column order
        self.layout = None       # the training rows: "sequence" or "mapping"

    def skeleton(self):
        """Empty statistics with the same features, kinds and declared categories."""
        empty = type(self)()
        empty.layout = self.layout
        empty.features = {name: stats.empty() for name, stats in self.features.items()}
        return empty

    def copy(self):
        """An equal, independent copy."""
        twin = type(self)()
        twin.class_count = dict(self.class_count)
        twin.features = {name: stats.copy() for name, stats in self.features.items()}
        twin.layout = self.layout
        return twin

    def conflicts(self, other):
        """What keeps two sets of statistics apart: row shapes, feature kinds."""
        found = []
        if None not in (self.layout, other.layout) and self.layout != other.layout:
            found.append("one was fitted on %s rows, the other on %s rows"
                         % (self.layout, other.layout))
        elif self.layout == "sequence" and list(self.features) != list(other.features):
            found.append("their rows hold different columns (%s and %s)"
                         % (_shown(list(self.features)), _shown(list(other.features))))
        return found + ["feature %r is %s in one and %s in the other"
                        % (name, mine.name, theirs.name)
                        for name, mine in self.features.items()
                        for theirs in [other.features.get(name)]
                        if theirs is not None and None not in (mine.name, theirs.name)
                        and mine.name != theirs.name]

    def absorb(self, other):
        """Add other's statistics to these, in place.  Counts and sums are exact, so
        absorbing is commutative and associative: merge and partial_fit equal fit."""
        for label, count in other.class_count.items():
            self.class_count[label] = self.class_count.get(label, 0) + count
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is None or (mine.name is None and theirs.name is not None):
                self.features[name] = theirs.copy()     # new, or an undecided kind decided
            elif theirs.name is not None:
                mine.absorb(theirs)
        self.layout = self.layout or other.layout
        return self

    def arrange(self, order, current=None):
        """Put the features in ``order`` (the same names), the statistics that hold
        positions (AODE's pairs, a network's rows) renumbered with them (reordered).
        ``current``: the order those statistics are in now (default: the features')."""
        current = list(self.features) if current is None else current
        if list(order) == current:
            if list(self.features) != current:
                self.features = {name: self.features[name] for name in order}
            return
        self.features = {name: self.features[name] for name in order}
        self.reordered(current)

    def reordered(self, before):
        """Renumber what holds feature positions, from the names ``before`` to the
        features' order (nothing here: naive Bayes' statistics are by name)."""

    # -- forgetting: the inverse of absorb ------------------------------------------

    def emptied(self, other):
        """The labels whose every row other's statistics would remove."""
        return {label for label, count in other.class_count.items()
                if count and count == self.class_count.get(label)}

    def deficit(self, other):
        """None when other's statistics (rows counted into a skeleton of these) can be
        removed from these; else what other holds beyond them, as a phrase naming the
        class, the feature and the value, word, pair or row.  Statistics are counts
        and sums, not rows: this finds every removal that would leave a count, a sum
        or a record below zero or inconsistent, not every set of rows that differs
        from those learned."""
        for label, count in other.class_count.items():
            have = self.class_count.get(label)
            if have is None and count:
                return "class %s was never learned" % _shown(label)
            if count > (have or 0):
                return "class %s has a total weight of %s, less than the %s to forget" % (
                    _shown(label), _plain(have), _plain(count))
        emptied = self.emptied(other)
        for name, mine in self.features.items():
            theirs = other.features.get(name)
            if theirs is None or theirs.name is None or \
                    (theirs.name != mine.name and theirs.stats.holds_nothing()):
                theirs = mine.empty()     # nothing to take away, but from emptied classes
            elif theirs.name != mine.name:
                return "feature %s: %s values, which the model never learned (it holds " \
                    "the feature as %s)" % (_shown(name), theirs.name, mine.name or
                                            "a feature without values")
            problem = mine.deficit(theirs, emptied)
            if problem is not None:
                return "feature %s: %s" % (_shown(name), problem)
        for name, theirs in other.features.items():
            if name not in self.features and theirs.name is not None and \
                    not theirs.stats.holds_nothing():
                return "feature %s was never learned" % _shown(name)
        return None

    def subtract(self, other, fitting):
        """Remove other's statistics (rows counted into a skeleton of these), in place
        and exactly: the statistics of a fit without those rows.  Raises _Unlearned,
        with nothing changed, when deficit finds something."""
        problem = self.deficit(other)
        if problem is not None:
            raise _Unlearned(problem)
        self.remove(other)
        self.settle(other, fitting)
        return self

    def remove(self, other):
        """The removal itself (deficit found nothing): class counts, then features;
        a class whose count reaches 0 disappears."""
        for label, count in other.class_count.items():
            if count:
                left = self.class_count[label] - count
                if left:
                    self.class_count[label] = left
                else:
                    del self.class_count[label]
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is not None and theirs.name is not None and theirs.name == mine.name:
                mine.subtract(theirs)

    def settle(self, other, fitting):
        """The features whose values other's rows took away, as a fit without those
        rows would have them; returns {name: kind} of those whose kind changed.

        A feature whose kind was inferred (not declared, nor fixed by the class)
        and that other's rows alone had values of has no kind again with sequence
        rows, and is no longer known with mapping rows unless features= declares it
        (a remaining row may have held it without a value, which statistics do not
        record).  One inferred categorical because other's rows held words beside
        numbers takes the numeric kind again, its values recounted exactly."""
        changed = {}
        for name, theirs in other.features.items():
            mine = self.features.get(name)
            if mine is None or mine.name is None or theirs.name != mine.name or \
                    name in fitting.kinds or theirs.stats.holds_nothing():
                continue                  # (a declared feature stays as it is)
            inferred = name not in fitting.categories and fitting.default_kind is None
            if not mine.stats.holds_nothing():
                kind = _infer_kind([list(mine.stats.seen)], fitting.numeric) \
                    if inferred and mine.name == "categorical" else None
                if kind not in (None, "categorical"):
                    fitting.check_kind(name, kind)
                    feature = self.features[name] = _KINDS[kind]()
                    for label, counts in mine.stats.counts.items():
                        if counts:
                            feature.add(label, list(counts), list(counts.values()),
                                        fitting.params)
                    changed[name] = kind
            elif self.layout == "mapping":
                del self.features[name]
            elif inferred:
                self.features[name] = _Undecided()
        return changed

    def classes(self):
        """The labels, sorted when orderable, else in first-seen order."""
        return _sorted_if_orderable(self.class_count)

    def names(self):
        """The feature names, in column order."""
        return list(self.features)

    def kinds(self):
        """{name: kind name} (an undecided feature counts as gaussian)."""
        return {name: stats.name or "gaussian" for name, stats in self.features.items()}

    # -- counting -------------------------------------------------------------------

    def count(self, rows, labels, weights, start, fitting):
        """Count one chunk of rows: class counts, then feature by feature, one class's
        column at a time.  Raises NaiveBayesError naming the row; the caller throws
        the statistics away then, so a failed call changes no model."""
        call = fitting.call
        _check_labels(labels, start, call)
        if weights is not None:
            weights = _check_weights(weights, start, call)
        rows, names = self.positional_rows(rows, start, fitting)
        kept = None                       # row numbers, when zero-weight rows are dropped
        if weights is not None and not all(weights):
            kept = [i for i, w in enumerate(weights) if w]   # weight 0: no row at all
            rows = [rows[i] for i in kept]
            labels = [labels[i] for i in kept]
            weights = weights.subset(list(map(bool, weights)))
        groups = defaultdict(list)
        weight_groups = None
        if weights is None:
            for row, label in zip(rows, labels):
                groups[label].append(row)
            chunk_counts = Counter(labels)
        else:
            positions = defaultdict(list)
            for i, (row, label) in enumerate(zip(rows, labels)):
                groups[label].append(row)
                positions[label].append(i)
            integers, shift = weights.scaled
            weight_groups = {}
            for label, where in positions.items():
                group = weight_groups[label] = _Weights(map(weights.__getitem__, where))
                group.scaled = list(map(integers.__getitem__, where)), shift
            chunk_counts = {label: _ratio(sum(w.scaled[0]), 1 << shift)
                            for label, w in weight_groups.items()}
        for label, count in chunk_counts.items():
            self.class_count[label] = self.class_count.get(label, 0) + count
        order = list(groups)
        inferred = set()
        size = max(_COUNT_BLOCK, _COUNT_VALUES // max(1, len(names)))
        default = fitting.default_kind or fitting.numeric
        # Kinds still open are inferred from every value of the chunk (_infer_kind).
        # Walking each such column through all the rows costs as much as the counting
        # (the rows are scattered in memory), so the kind is read from each class's
        # first block and, when that says "number", confirmed block by block in the
        # counting below, where the block is in the cache: a word in a later block
        # (or a value the numeric kind refuses, where the whole chunk says
        # categorical) counts the feature again as categorical from its whole columns.
        # Either way the kind is the one _infer_kind gives for the whole chunk.
        tentative = set()                 # positions whose numeric kind is unconfirmed
        heads = [groups[label][:size] for label in order]
        for position, name in enumerate(names):
            if self.features[name].name is None:
                kind = _infer_kind([list(map(itemgetter(position), head)) for head in heads],
                                   default)
                if kind is not None and kind != "categorical" and \
                        any(len(groups[label]) > size for label in order):
                    if fitting.allowed is None or kind in fitting.allowed:
                        tentative.add(position)
                    else:
                        kind = None       # refused unless the whole chunk says otherwise
                if kind is None:
                    kind = _infer_kind([list(map(itemgetter(position), groups[label]))
                                        for label in order], default)
                if kind is not None:
                    fitting.check_kind(name, kind)
                    self.features[name] = _KINDS[kind]()
                    inferred.add(name)

        def recount(position, name):
            """Count a tentatively numeric feature again from its whole columns, as the
            kind of the whole chunk says, when that is not the numeric kind."""
            tentative.discard(position)
            kind = _infer_kind([list(map(itemgetter(position), groups[label]))
                                for label in order], default)
            if kind != "categorical":
                return False
            fitting.check_kind(name, kind)
            self.features[name] = _KINDS[kind]()
            recounted.add(position)
            add(position, name,
                [list(map(itemgetter(position), groups[label])) for label in order],
                [weight_groups[label] if weight_groups else None for label in order])
            return True

        recounted = set()

        def add(position, name, columns, weights):
            """Add one feature's columns (one per label in order); name the row of a
            bad value."""
            stats = self.features[name]
            try:
                for label, column, weight in zip(order, columns, weights):
                    if column:
                        stats.add(label, column, weight, fitting.params)
            except _BadValue as error:
                if position in tentative and recount(position, name):
                    return
                i = _locate([row[position] for row in rows], error.value)
                i = i if kept is None else kept[i]
                hint = ""
                if error.expected == "a real number" and name not in fitting.kinds and \
                        fitting.default_kind is None:
                    hint = (" (the feature was inferred %s%s; declare it with "
                            "features={%r: \"categorical\"})"
                            % (stats.name, "" if name in inferred else " from earlier rows",
                               name))
                raise _row_error(call, "X", start + i, ", feature %r is %s; expected %s%s"
                                 % (name, _describe(error.value), error.expected, hint)
                                 ) from None

        # Features whose kind wants whole columns (text: one merge of word counts)...
        whole = {position for position, name in enumerate(names)
                 if self.features[name].name is not None and not self.features[name].blocked}
        for position in sorted(whole):
            add(position, names[position],
                [list(map(itemgetter(position), groups[label])) for label in order],
                [weight_groups[label] if weight_groups else None for label in order])
        # ...then block by block of each class's rows, the other features of a block
        # together: the block's values stay in the processor's cache (twice as fast as
        # whole columns at 100,000 rows).
        for first in range(0, max(map(len, groups.values()), default=0), size):
            blocks = [groups[label][first:first + size] for label in order]
            weight_blocks = [weight_groups[label].part(first, first + size)
                             if weight_groups else None for label in order]
            transposed = [zip(*block) if block else repeat(()) for block in blocks]
            for position, (name, columns) in enumerate(zip(names, zip(*transposed))):
                if self.features[name].name is None or position in whole or \
                        position in recounted:
                    continue
                if first and position in tentative and \
                        not _PLAIN_REALS.issuperset(chain.from_iterable(map(
                            map, repeat(type), columns))) and \
                        _infer_kind(columns, default) == "categorical" and \
                        recount(position, name):
                    continue
                add(position, name, columns, weight_blocks)
        # add and recount call each other: a cycle that would keep the chunk's rows
        # and these statistics alive until the garbage collector finds it
        add = recount = None
        return groups, weight_groups, names

    def positional_rows(self, rows, start, fitting):
        """The chunk's rows as sequences in feature order; new features registered,
        and the names that rows hold added to fitting.seen."""
        call = fitting.call
        types = set(map(type, rows))
        if types <= {list, tuple}:
            layout = "sequence"
        elif types <= {dict}:
            layout = "mapping"
        else:
            layout = "mapping" if isinstance(rows[0], Mapping) else "sequence"
            for i, row in enumerate(rows):
                if isinstance(row, (str, bytes)) or not (isinstance(row, Mapping) or (
                        hasattr(row, "__len__") and hasattr(row, "__getitem__"))):
                    raise _row_error(call, "X", start + i, "is %s; expected a sequence or "
                                     "mapping of feature values" % _describe(row))
                if isinstance(row, Mapping) != (layout == "mapping"):
                    raise _row_error(call, "X", start + i, "is a %s but row %d is a %s; "
                                     "expected rows of one shape"
                                     % (type(row).__name__, start, type(rows[0]).__name__))
            if layout == "sequence":
                rows = [row.tolist() if hasattr(row, "tolist") else list(row)
                        for row in rows]
        if self.layout is None:
            self.layout = layout
        elif self.layout != layout:
            raise _row_error(call, "X", start, "is a %s, but the model was fitted on %s; "
                             "expected rows of one shape"
                             % (type(rows[0]).__name__, "mappings" if self.layout ==
                                "mapping" else "sequences (lists or tuples)"))
        if layout == "mapping":
            for option in ("features", "categories"):
                if isinstance(fitting.params[option], (list, tuple)):
                    raise NaiveBayesError(
                        "%s: %s= is a list by position, but X row %d is a mapping; "
                        "expected %s as a {name: ...} dict" % (call, option, start, option),
                        call=call)
            try:
                present = dict.fromkeys(chain.from_iterable(rows))
            except TypeError:
                i = next(i for i, row in enumerate(rows) if not all(map(_hashable, row)))
                raise _row_error(call, "X", start + i, "has a key that is not hashable; "
                                 "expected feature names") from None
            fitting.seen.update(present)
            before = list(self.features)
            for name in chain(fitting.kinds, present):
                if name not in self.features:
                    self.features[name] = fitting.new_feature(name)
            if len(self.features) > len(before):     # new names: the order of mappings
                self.arrange(_mapping_order(self.features, fitting.columns),
                             before + [n for n in self.features if n not in before])
            names = list(self.features)
            return [list(map(row.get, names)) for row in rows], names
        if not self.features:
            width = len(rows[0])
            for name in _sequence_names(fitting.kinds, fitting.categories, width, start,
                                        call):
                self.features[name] = fitting.new_feature(name)
        fitting.seen.update(self.features)
        width = len(self.features)
        if set(map(len, rows)) != {width}:
            i = next(i for i, row in enumerate(rows) if len(row) != width)
            raise _row_error(call, "X", start + i, "has %d values, expected %d%s" % (
                len(rows[i]), width, _order_hint(self.features) if fitting.model is None
                else " (X has %d features, but %s is expecting %d features as input)"
                % (len(rows[i]), fitting.model, width)))
        return rows, list(self.features)

    # -- the compiled model, the model file, a summary ------------------------------

    def compile(self, params):
        """The compiled naive Bayes model."""
        return _NaiveModel(self, params)

    def to_file(self, classes):
        """The model file's "features" field."""
        features = []
        for name, stats in self.features.items():
            feature = {"name": _encode(name, "a feature name"), "kind": stats.name}
            feature.update(stats.to_file(classes, "a value of feature %s" % _shown(name)))
            features.append(feature)
        return {"features": features}

    @classmethod
    def from_file(cls, data, classes, class_count):
        """The statistics of a model file's "features" field, validated."""
        statistics = cls()
        features = _field(data, "features")
        _expect(type(features) in (list, _LazyItems), "features", features, "a list")
        for j, feature in enumerate(features):
            if not classes:
                raise _Invalid("features holds a feature, but the model has no classes; "
                               "expected an empty list")
            where = "features[%d]" % j
            _expect(type(feature) is dict, where, feature, "a JSON object")
            name = _decode(_field(feature, "name", where), where + ".name")
            _expect(_hashable(name) and name is not None, where + ".name", name,
                    "a hashable feature name")
            if name in statistics.features:
                raise _Invalid("%s.name is %s again; expected distinct names"
                               % (where, _shown(name)))
            kind = _field(feature, "kind", where)
            _expect(kind is None or (type(kind) is str and kind in _KINDS), where + ".kind",
                    kind, "one of %s or null" % ", ".join(map(repr, _KINDS)))
            kind_class = _KINDS[kind] if kind is not None else _Undecided
            extra = set(feature) - {"name", "kind"} - set(kind_class.file_fields)
            if extra:
                raise _Invalid("%s has field %r, which a %s feature does not have"
                               % (where, sorted(extra)[0], kind or "undecided"))
            statistics.features[name] = kind_class.from_file(feature, where, classes,
                                                             class_count)
        return statistics

    def summary(self, params):
        """[(name, kind, one-line description)] of the features, for the command line."""
        return [(name, stats.name or "gaussian", stats.describe(params))
                for name, stats in self.features.items()]

    def class_statistics(self, params):
        """{name: {"kind": kind, "classes": {label: statistics}}} of every feature whose
        kind describes its classes (see _Distribution.class_statistics)."""
        classes = self.classes()
        result = {}
        for name, feature in self.features.items():
            statistics = feature.class_statistics(classes, params) if feature.name else None
            if statistics is not None:
                result[name] = {"kind": feature.name, "classes": statistics}
                if feature.transform is not None:       # statistics of log x, say
                    result[name]["of"] = feature.transform
        return result
