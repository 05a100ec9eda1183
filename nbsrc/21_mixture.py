# -- AutoBayes: the family's models mixed, weighted by cross-validation ---------------
#
# A linear pool: P(c | x) = sum over members m of w_m P_m(c | x), the members being
# models of the families above (by default WAODE, AODE with m-estimates, both
# trained on imputed values, a Bayesian network of at most 2 parents and naive
# Bayes with a weight per feature, each taking a missing value as no evidence),
# each fitted on all the rows, and the weights chosen by the training data only:
# each member's out-of-fold probabilities of the true class in an internal stratified
# cross-validation, then the weights that maximise their mixture's log-likelihood
# (EM, with a Dirichlet prior of a few pseudo-rows per member, so that small data
# sets keep nearly equal weights).  A linear pool of calibrated members is calibrated
# itself and cannot be worse, in log loss, than the best fixed mixture of them on the
# rows it was chosen on; it beat every single member on the 15 Weka data sets
# (README, "Accuracy").  Its probabilities are then tempered around its prior (the
# mixture of nothing known), pi_c (P(c | x) / pi_c)^(1/T), so that T never moves
# the prior (so a near tie between two classes may change side: the prior decides).

class _MixtureStatistics:
    """The statistics of AutoBayes: one statistics object per family of its members
    (two AODE members share one set of AODE counts), all counting the same rows, and
    the mixture's weights and their evaluation, chosen when it was fitted.

    ``made``: what choosing the weights compiled on the way that the mixture's first
    compilation can use ({"cuts": the _CutsMemo of all the rows' cut points, member
    name: (its _member_key, the member compiled from these statistics)}), or None;
    never copied, pickled or written, and dropped whenever the counts change
    (``changes`` counts those changes)."""

    file_fields = ("members", "mixture")
    optional_file_fields = ("text_rows",)
    __slots__ = ("parts", "weights", "evaluation", "temperature", "text_rows",
                 "text_weight", "made", "changes")

    def __init__(self, families=()):
        self.parts = {family: _MODELS[family]._statistics_class() for family in families}
        self.weights = {}                 # member name -> weight (empty: equal weights)
        self.evaluation = {}              # member name or "mixture" -> [log loss, accuracy, rows]
        self.temperature = 1.0            # the mixture's probabilities to the power 1 / T
        # text features (see _text_row): a bounded sample of whole rows, their texts
        # as bags of words, for the internal cross-validation; and the weight of the
        # text factor's log-likelihood in every member's log posterior
        self.text_rows = None
        self.text_weight = 1.0
        self.made = None
        self.changes = 0

    def changed(self):
        """The counts change: what was compiled from them no longer holds."""
        self.made = None
        self.changes += 1

    def __getstate__(self):
        """For pickle: everything but ``made``."""
        return {name: getattr(self, name) for name in self.__slots__ if name != "made"}

    def __setstate__(self, state):
        self.made = None
        self.changes = 0
        for name, value in state.items():
            setattr(self, name, value)

    @property
    def primary(self):
        """The first family's statistics: classes, features and layout are the same in
        every part."""
        return next(iter(self.parts.values()))

    @property
    def class_count(self):
        """The weighted number of rows per class (the parts agree)."""
        return self.primary.class_count

    @class_count.setter
    def class_count(self, counts):
        self.changed()
        for statistics in self.parts.values():
            statistics.class_count = dict(counts)

    @property
    def layout(self):
        """The rows' shape ("sequence" or "mapping")."""
        return self.primary.layout

    @layout.setter
    def layout(self, layout):
        self.changed()
        for statistics in self.parts.values():
            statistics.layout = layout

    @property
    def features(self):
        """{name: feature} of the first part (every part has the same features)."""
        return self.primary.features

    def classes(self):
        """The labels, as the parts order them."""
        return self.primary.classes()

    def names(self):
        """The feature names."""
        return self.primary.names()

    def kinds(self):
        """{name: kind}."""
        return self.primary.kinds()

    def summary(self, params):
        """The features' one-line descriptions."""
        return self.primary.summary(params)

    def class_statistics(self, params):
        """What each feature says of each class (the first part's)."""
        return self.primary.class_statistics(params)

    def count(self, rows, labels, weights, start, fitting):
        """Count a chunk of rows into every part (and, with text features, the rows
        with their bags of words into text_rows)."""
        earlier = None                    # rows counted before a text feature came
        if self.text_rows is None and "text" in fitting.kinds.values() and \
                any(self.class_count.values()):
            earlier = self._held_rows()
        self.changed()
        for statistics in self.parts.values():
            result = statistics.count(rows, labels, weights, start, fitting)
        groups, weight_groups, names = result
        features = [self.features[name] for name in names]
        if any(feature.name == "text" for feature in features):
            reading = _TextReading(fitting.params)
            rounding = _round_to_digits(fitting.params.get("significant_digits"))
            capacity = min(fitting.params.get("row_sample", _ROW_SAMPLE), _TEXT_ROW_SAMPLE)
            if self.text_rows is None:
                self.text_rows = earlier if earlier is not None else \
                    _RowCounts(names, capacity)
            self.text_rows = self._text_rows_in(names)
            self.text_rows.capacity = capacity
            kinds = [feature.name for feature in features]
            for label, group in groups.items():
                self.text_rows.add(label, [_text_row(row, kinds, reading, rounding)
                                           for row in group],
                                   weight_groups[label] if weight_groups else None)
        return result

    def _held_rows(self):
        """text_rows, or when there are none (no text feature yet) a copy of the
        network's rows, which are the same rows (their texts missing), bounded as
        text_rows are; None without a network part."""
        if self.text_rows is not None:
            return self.text_rows
        network = next((part for part in self.parts.values()
                        if isinstance(part, _NetworkStatistics)), None)
        if network is None:
            return None
        rows = network.row_counts.copy()
        rows.names = tuple(network.features)
        rows.capacity = min(rows.capacity or _ROW_SAMPLE, _TEXT_ROW_SAMPLE)
        rows.bound()
        return rows

    def _text_rows_in(self, names):
        """text_rows with their values in the features ``names`` (None: none)."""
        rows = self.text_rows
        width = len(names)
        if rows is None or list(rows.names) == list(names) and all(
                len(row) == width for counted in rows.rows.values() for row in counted):
            return rows
        return _NetworkStatistics._widened(rows, list(rows.names), list(names))

    def text_names(self):
        """The names of the text features."""
        return [name for name, feature in self.features.items() if feature.name == "text"]

    def arrange(self, order, current=None):
        """Every part's features put in ``order`` (see _NaiveStatistics.arrange)."""
        self.changed()
        for statistics in self.parts.values():
            statistics.arrange(order, current)
        self.text_rows = self._text_rows_in(order)

    def declare_classes(self, classes):
        """Every part knows every declared class (and a network its order)."""
        self.changed()
        for statistics in self.parts.values():
            for label in classes:
                statistics.class_count.setdefault(label, 0)
            if hasattr(statistics, "declare_classes"):
                statistics.declare_classes(classes)

    def _twin(self, parts):
        twin = type(self)()
        twin.parts = parts
        twin.weights = dict(self.weights)
        twin.evaluation = {name: list(v) for name, v in self.evaluation.items()}
        twin.temperature = self.temperature
        twin.text_weight = self.text_weight
        return twin

    def skeleton(self):
        """Empty parts with the same features, and the same weights."""
        return self._twin({family: s.skeleton() for family, s in self.parts.items()})

    def copy(self):
        """An equal, independent copy."""
        twin = self._twin({family: s.copy() for family, s in self.parts.items()})
        twin.text_rows = None if self.text_rows is None else self.text_rows.copy()
        return twin

    def conflicts(self, other):
        """What keeps two AutoBayes models apart: their parts' conflicts."""
        if set(self.parts) != set(other.parts):
            return ["their members come from different families (%s and %s)"
                    % (", ".join(self.parts), ", ".join(other.parts))]
        found = []
        for family, statistics in self.parts.items():
            found.extend(statistics.conflicts(other.parts[family]))
        return list(dict.fromkeys(found))

    def absorb(self, other):
        """Add other's counts to every part.  The weights were chosen from each one's
        rows: the merged ones are the two weighted by the models' numbers of rows
        (fit again to choose them from all the rows)."""
        from fractions import Fraction
        # exact: the weights and 1 / T averaged as fractions, so that merges in any
        # order and grouping give the same model ((a + b) + c == a + (b + c)); the
        # model file keeps them as the nearest floats
        mine = Fraction(sum(self.class_count.values()))
        theirs = Fraction(sum(other.class_count.values()))
        total = mine + theirs
        self.changed()
        held = None                       # (my rows, theirs) when either has texts
        if self.text_rows is not None or other.text_rows is not None:
            held = (self._held_rows(), other._held_rows())
        for family, statistics in self.parts.items():
            statistics.absorb(other.parts[family])
        if held is not None and None not in held:
            names = list(self.features)
            self.text_rows = held[0]      # mine, or a copy of my network's rows
            self.text_rows = self._text_rows_in(names)
            self.text_rows.absorb(_NetworkStatistics._widened(held[1], list(held[1].names),
                                                              names))   # a new object
        else:
            self.text_rows = self._text_rows_in(list(self.features))
        if self.text_weight != other.text_weight:     # averaged as the weights are
            self.text_weight = (Fraction(self.text_weight) * mine + Fraction(
                other.text_weight) * theirs) / total if total else 1.0
            self.evaluation = {}
        if self.weights != other.weights and (self.weights or other.weights):
            names = list(dict.fromkeys(list(self.weights) + list(other.weights)))
            self.weights = {name: (Fraction(self.weights.get(name, 0)) * mine +
                                   Fraction(other.weights.get(name, 0)) * theirs) / total
                            if total else 0.0 for name in names}
            self.evaluation = {}
        if self.temperature != other.temperature:     # 1 / T averaged likewise
            self.temperature = total / (mine / Fraction(self.temperature) + theirs /
                                        Fraction(other.temperature)) if total else 1.0
            self.evaluation = {}
        return self

    def deficit(self, other):
        """What other holds beyond every part's statistics (None: nothing)."""
        for family, statistics in self.parts.items():
            problem = statistics.deficit(other.parts[family])
            if problem is not None:
                return problem
        if other.text_rows is not None and self.text_rows is not None:
            names = list(self.features)
            return self._text_rows_in(names).deficit(other._text_rows_in(names),
                                                     self.primary.emptied(other.primary))
        return None

    def subtract(self, other, fitting):
        """Remove other's rows from every part (forget; the weights stay)."""
        problem = self.deficit(other)
        if problem is not None:
            raise _Unlearned(problem)
        names = list(self.features)
        self.changed()
        for family, statistics in self.parts.items():
            statistics.subtract(other.parts[family], fitting)
        if other.text_rows is not None and self.text_rows is not None:
            self.text_rows = self._text_rows_in(names)
            self.text_rows.subtract(other._text_rows_in(names))
            self.text_rows = self._text_rows_in(list(self.features))
            if not self.text_names():
                self.text_rows = None

    def compile(self, params):
        """The compiled mixture."""
        return _MixtureModel(self, params)

    def to_file(self, classes):
        """The model file's "members" (each family's fields) and "mixture" fields."""
        members = []
        for family, statistics in self.parts.items():
            item = {"family": family}
            item.update(statistics.to_file(classes))
            members.append(item)
        data = {"members": members, "mixture": {
            "weights": [[name, float(w)] for name, w in self.weights.items()],
            "evaluation": [[name] + list(v) for name, v in self.evaluation.items()],
            "temperature": float(self.temperature)}}
        if self.text_names() and self.text_rows is not None:
            rows = self._text_rows_in(list(self.features))
            data["mixture"]["text_weight"] = float(self.text_weight)
            data["text_rows"] = rows.to_file(classes, "a value")["row_counts"]
            if rows.threshold is not None:
                data["text_rows"] = {"rows": data["text_rows"], "row_sample": {
                    "rows": rows.capacity, "threshold": rows.threshold}}
        return data

    @classmethod
    def from_file(cls, data, classes, class_count):
        """AutoBayes' statistics from a model file, validated."""
        statistics = cls()
        members = _field(data, "members")
        _expect(type(members) in (list, _LazyItems), "members", members, "a list")
        for n, item in enumerate(members):
            where = "members[%d]" % n
            _expect(type(item) is dict, where, item, "a JSON object")
            family = item.get("family")
            _expect(family in ("NaiveBayes", "AODE", "TAN", "BayesNet") and
                    family not in statistics.parts, where + ".family", family,
                    '"NaiveBayes", "AODE", "TAN" or "BayesNet", each once')
            part_class = _MODELS[family]._statistics_class
            extra = set(item) - {"family"} - set(part_class.file_fields) - set(
                getattr(part_class, "optional_file_fields", ()))
            if extra:
                raise _Invalid("%s has field %r, which a %s part does not have"
                               % (where, sorted(extra)[0], family))
            try:
                statistics.parts[family] = part_class.from_file(item, classes, class_count)
            except _Invalid as error:
                raise _Invalid("%s: %s" % (where, error)) from None
        if not statistics.parts:
            raise _Invalid("members is empty; expected one entry per family of the members")
        statistics.check_parts(classes)
        mixture = _field(data, "mixture")
        _expect(type(mixture) is dict and set(mixture) - {"temperature", "text_weight"} ==
                {"weights", "evaluation"}, "mixture", mixture,
                '{"weights": [...], "evaluation": [...], "temperature": T}')
        statistics.temperature = _file_temperature(mixture.get("temperature", 1.0))
        statistics.text_rows = _file_text_rows(data, statistics, classes, class_count)
        statistics.text_weight = _file_text_weight(mixture.get("text_weight", 1.0))
        if ("text_weight" in mixture) != (statistics.text_rows is not None):
            raise _Invalid("mixture.text_weight and text_rows go together; expected both "
                           "(a model of text features) or neither")
        statistics.weights = _file_mixture_weights(mixture["weights"])
        statistics.evaluation = _file_evaluation(mixture["evaluation"])
        return statistics

    def members_view(self):
        """These statistics as the members see them: every text feature "ignore" (the
        same counts, shared, not copied); themselves without text features."""
        text = set(self.text_names())
        if not text:
            return self
        from copy import copy as shallow
        view = self._twin({})
        for family, statistics in self.parts.items():
            part = shallow(statistics)    # the counts are shared
            part.features = {name: _Ignored() if name in text else feature
                             for name, feature in statistics.features.items()}
            view.parts[family] = part
        return view

    def text_factor(self, params):
        """The compiled text factor: naive Bayes of the text features alone (alpha 1,
        uniform prior, AutoBayes' text parameters), whose joint log-likelihoods are
        the text's log-likelihoods per class up to a constant; None without text."""
        text = set(self.text_names())
        if not text:
            return None
        primary = self.primary
        statistics = _NaiveStatistics()
        statistics.class_count = dict(primary.class_count)
        statistics.layout = primary.layout
        statistics.features = {name: feature if name in text else _Ignored()
                               for name, feature in primary.features.items()}
        factor = NaiveBayes().get_params()
        factor.update({name: params[name] for name in _Text.parameters if name in params})
        factor.update(alpha=1.0, class_prior="uniform", features=None, categories=None)
        return _NaiveStatistics.compile(statistics, NaiveBayes._compiling(factor))

    def check_parts(self, classes):
        """_Invalid unless every part holds the same features (they all count the same
        rows; the first part's are the ones the summary shows)."""
        first = None
        for n, (family, statistics) in enumerate(self.parts.items()):
            features = _NaiveStatistics.to_file(statistics, classes)
            if first is None:
                first = features
            elif features != first:
                raise _Invalid("members[%d] (%s) holds other features than members[0]; "
                               "expected the same features in every part (they count the "
                               "same rows)" % (n, family))

    def check_file_params(self, params):
        """_Invalid unless every member that params.members names can be compiled from
        the parts the file holds (a network's rows serve any member; a member of
        another family needs a part of its own)."""
        rows = any(isinstance(statistics, _NetworkStatistics)
                   for statistics in self.parts.values())
        for name in params["members"]:
            family = _AUTO_MEMBERS[name][0].__name__
            if family not in self.parts and not rows:
                raise _Invalid("params.members names %r, but members holds no %s part nor "
                               "a network's rows to compile it from; expected the "
                               "statistics of every member" % (name, family))

    def extra_summary(self):
        """The weights and their evaluation."""
        return {}

    def memory_estimate(self, params=None):
        """(bytes, what) of every part's growing counts together (the AODE members'
        pairwise counts of bins are estimated as they are counted: _member_model)."""
        parts = [statistics.memory_estimate(params) for statistics in self.parts.values()
                 if hasattr(statistics, "memory_estimate")]
        return sum(size for size, _ in parts), " and ".join(what for _, what in parts)


def _known_values(statistics):
    """{position: the values some training row holds (a positive count)} of the
    categorical features of statistics (any other value, a declared one included,
    is read as missing: _unknown_as_missing)."""
    known = {}
    for j, feature in enumerate(statistics.features.values()):
        if feature.name == "categorical":
            totals = {}
            for counted in feature.stats.counts.values():
                for value, n in counted.items():
                    totals[value] = totals.get(value, 0) + n
            known[j] = frozenset(v for v, n in totals.items() if n > 0)
    return known


def _unknown_as_missing(known_values, row):
    """The row (positional) with each categorical value outside known_values made
    missing (None); the row itself when there is none, or when a value is odd (the
    members say what is wrong with it)."""
    unknown = None
    try:
        for j, known in known_values.items():
            value = row[j]
            if value not in known and not (value is None or _is_missing(value)):
                unknown = [j] if unknown is None else unknown + [j]
    except (TypeError, IndexError):
        return row
    if unknown is None:
        return row
    row = list(row)
    for j in unknown:
        row[j] = None
    return row


_TEXT_ROW_SAMPLE = 10000          # whole rows with their texts that AutoBayes keeps at most
_TEXT_WEIGHTS = (0.0, 4.0)        # the range of the text factor's weight


def _bag(words):
    """A document read by _TextReading (a list or tuple of words, or a {word: count}
    mapping) as the sorted tuple of its (word, count) pairs: the same for the same
    words, however they came."""
    counts = words if hasattr(words, "items") else Counter(words)
    return tuple(sorted(counts.items()))


def _text_row(row, kinds, reading, rounding):
    """A positional row as AutoBayes' text_rows keep it: a network's row (categories,
    numbers as counted, None for missing values and other kinds) with each text value
    as its bag of words (_bag; None when missing)."""
    out = []
    for value, kind in zip(row, kinds):
        if value is None or kind not in ("categorical", "discretized", "text") or \
                (kind != "text" and _is_missing(value)):
            out.append(None)
        elif kind == "text":
            words = reading(value)
            out.append(None if words is None else _bag(words))
        elif kind == "discretized":
            value = float(value)
            if rounding is not None:
                value = rounding(value)
            out.append(0.0 if value == 0 else value)
        else:
            out.append(value)
    return tuple(out)


def _file_text_weight(value):
    """mixture.text_weight of a model file: a number within _TEXT_WEIGHTS."""
    low, high = _TEXT_WEIGHTS
    _expect(type(value) in (int, float) and type(value) is not bool and
            low <= value <= high, "mixture.text_weight", value,
            "a number between %s and %s" % (low, high))
    return float(value)


def _file_text_rows(data, statistics, classes, class_count):
    """AutoBayes' text_rows from a model file (None when it has none), validated: per
    class [[values], weight, number of rows] as a network's row_counts, a text
    feature's value a bag of words ({"tuple": [{"tuple": [word, count > 0]}, ...]},
    the words distinct and sorted) or null, any other feature's what the network's
    rows hold for it; {"rows": ..., "row_sample": {"rows", "threshold"}} when they
    are a sample."""
    value = data.get("text_rows")
    if value is None:
        if statistics.text_names():
            raise _Invalid("text_rows is missing; expected the rows with their texts of "
                           "a model of text features")
        return None
    if not statistics.text_names():
        raise _Invalid("text_rows is present, but no feature is text; expected no "
                       "text_rows")
    sample = None
    if type(value) is dict:
        _expect(set(value) == {"rows", "row_sample"}, "text_rows", value,
                '[rows per class] or {"rows": [...], "row_sample": {...}}')
        value, sample = value["rows"], value["row_sample"]
    fields = {"row_counts": value}
    if sample is not None:
        fields["row_sample"] = sample
    names = list(statistics.features)
    try:
        rows = _RowCounts.from_file(fields, classes, class_count, len(names), names)
    except _Invalid as error:
        raise _Invalid("text_rows: %s" % error) from None
    if sample is not None and rows.capacity > _TEXT_ROW_SAMPLE:
        raise _Invalid("text_rows: row_sample.rows is %d; expected at most %d"
                       % (rows.capacity, _TEXT_ROW_SAMPLE))
    kinds = [statistics.features[name].name for name in names]
    for label, counted in rows.rows.items():
        for row in counted:
            for j, (value, kind) in enumerate(zip(row, kinds)):
                if value is None:
                    continue
                if kind == "text":
                    good = type(value) is tuple and all(
                        type(pair) is tuple and len(pair) == 2 and type(pair[0]) is str and
                        type(pair[1]) in (int, float) and pair[1] > 0 and
                        isfinite(pair[1]) for pair in value) and \
                        list(value) == sorted(value) and \
                        len({pair[0] for pair in value}) == len(value)
                    what = "a bag of words: [word, count > 0] pairs, sorted, each word once"
                else:
                    seen = statistics.features[names[j]].stats.seen \
                        if kind == "categorical" else ()
                    good = kind in ("categorical", "discretized") and (
                        _hashable(value) and value in seen if kind == "categorical"
                        else type(value) is float)
                    what = "a value the feature %s counted" % _shown(names[j])
                if not good:
                    raise _Invalid("text_rows: class %s, a row's value %d is %s; "
                                   "expected %s" % (_shown(label), j, _shown(value, 80),
                                                    what))
    return rows


def _members_joints(models, rows):
    """[each compiled model's joints(rows)], the same numbers: AODE models that read
    rows into the same keys (twins: see _AODEModel.twin) read each row once and share
    its parents' sums of terms, row by row; the others by their own joints, in
    order (so that a bad row raises what the first model to read it raises)."""
    per_member = [None] * len(models)
    for n, compiled in enumerate(models):
        if per_member[n] is not None:
            continue
        if not isinstance(compiled, _AODEModel):
            per_member[n] = compiled.joints(rows)
            continue
        group = [m for m in range(n, len(models)) if per_member[m] is None and
                 compiled.reads_keys_as(models[m])]
        columns = [[] for _ in group]
        for row in rows:
            keys = compiled.row_keys(row)
            sums = {} if len(group) > 1 else None
            for column, m in zip(columns, group):
                column.append(models[m].joint_of_keys(keys, sums))
        for column, m in zip(columns, group):
            per_member[m] = column
    return per_member


class _MixtureModel:
    """The compiled AutoBayes: every member with a weight compiled, the mixture
    P(c | x) = sum_m w_m P_m(c | x), and as the joint log-likelihood its log tempered
    around the mixture's prior pi (its P(c | x) when nothing is known: _tempered),
    log pi_c + (log P(c | x) - log pi_c) / T, which differs from a joint by one
    constant per row.  A categorical value that no training row holds is read as
    missing (unknown_as_missing), and the members take a missing value as no
    evidence, so that a row with nothing known gets pi exactly, whatever T."""

    def __init__(self, statistics, params):
        self.classes = statistics.classes()
        self.names = statistics.names()
        self.width = len(self.names)
        self.k = len(self.classes)
        self.zeros = (0.0,) * self.k
        members = params["members"]
        weights = _mixture_weights(members, statistics.weights, params["weights"])
        # what choosing the weights compiled from these statistics (then forgotten)
        made, statistics.made = statistics.made or {}, None
        shared = {"cuts": made["cuts"]} if "cuts" in made else {}
        self.text = statistics.text_factor(params)      # None: no text features
        self.text_features = set(statistics.text_names())
        self.text_weight = float(statistics.text_weight)
        statistics = statistics.members_view()
        self.members = []
        held = params                     # the members compiled so far are in use
        for name in members:
            if weights[name] < 1e-3:      # a member that the mixture does not need
                continue
            found = made.get(name)
            compiled = found[1] if found is not None and \
                found[0] == _member_key(name, held) else \
                _member_model(statistics, name, held, shared)
            held = _in_use(held, getattr(compiled, "memory", 0))
            self.members.append((name, weights[name], compiled))
        total = sum(w for _, w, _ in self.members)
        self.members = [(name, w / total, compiled) for name, w, compiled in self.members]
        self.evaluation = statistics.evaluation
        self.temperature = float(statistics.temperature)    # exact after a merge
        self.positional = self.members[0][2].positional
        self.known_values = _known_values(statistics)
        # pi, the mixture's prior: its P(c | x) of a row with nothing known
        nothing = [None] * self.width
        self.prior = self._mixed_probabilities([compiled.joint(nothing)
                                                for _, _, compiled in self.members],
                                               self._text_joint(nothing))
        self.log_prior = [_log(p) for p in self.prior]

    def unknown_as_missing(self, row):
        """The row with each categorical value that no training row holds made
        missing (_unknown_as_missing)."""
        return _unknown_as_missing(self.known_values, row)

    def _mixed_probabilities(self, per_member, text=None):
        """sum_m w_m P_m(c | x) of one row, from each member's joint (P_m times the
        text factor's likelihoods, see _with_text)."""
        mixed = [0.0] * self.k
        for (_, weight, _), joint in zip(self.members, per_member):
            for c, p in enumerate(_with_text(_posterior(joint), text, self.text_weight)):
                mixed[c] += weight * p
        return mixed

    def _text_joint(self, row):
        """The text factor's joint log-likelihoods of one row, or None."""
        return None if self.text is None else self.text.joint(row)

    def joint(self, row):
        """The mixture's log posterior of one row, tempered around the prior."""
        row = self.unknown_as_missing(row)
        return _tempered(self._mixed_probabilities(
            [compiled.joint(row) for _, _, compiled in self.members],
            self._text_joint(row)), self.log_prior, self.temperature)

    def joints(self, rows):
        """The mixture's log posteriors of many rows, tempered around the prior."""
        rows = list(map(self.unknown_as_missing, rows))
        per_member = _members_joints([compiled for _, _, compiled in self.members], rows)
        columns = [_posteriors(joints) for joints in per_member]
        if self.text is not None:
            texts = self.text.joints(rows)
            columns = [[_with_text(p, t, self.text_weight) for p, t in zip(column, texts)]
                       for column in columns]
        out = []
        for n in range(len(rows)):
            mixed = [0.0] * self.k
            for (_, weight, _), probabilities in zip(self.members, columns):
                for c, p in enumerate(probabilities[n]):
                    mixed[c] += weight * p
            out.append(_tempered(mixed, self.log_prior, self.temperature))
        return out

    def leader(self, name=False):
        """The member of the largest weight (the first of equal weights); with
        ``name``, its name."""
        return max(self.members, key=lambda member: member[1])[0 if name else 2]

    def explain(self, row, extra=()):
        """The joint (the tempered log posterior) as the mixture's prior, log pi_c
        (its P(c | x) when nothing is known), plus each feature's part: what knowing
        its value moves the tempered log posterior by, given the values before it in
        column order, (log P(c | x_1..x_j) - log P(c | x_1..x_j-1)) / T (0 for a
        value missing, never seen or ignored), so that the parts add up to the
        joint; a class whose probability falls to 0 gets its -inf at the feature
        after which it stays 0.  "members": each member's weight, its P_m(c | x), its
        share w_m P_m(c | x) / P(c | x) of the mixture, and what its summary says (a
        network's "parents", the weighted naive Bayes' "feature weights");
        "temperature": T.  A text feature's part is what the text factor adds (with
        its "words" and "text_weight"); a member's "probability" is its own, without
        the text factor, its "share" with it."""
        classes = self.classes
        read = self.unknown_as_missing(row)
        members = [compiled for _, _, compiled in self.members]
        shown = self.leader().explain(read, extra)["features"]   # statuses, bins
        texts = {} if self.text is None else {
            f["feature"]: f for f in self.text.explain(read, extra)["features"]
            if f["feature"] in self.text_features}
        known = [None] * self.width
        steps = []                        # (feature, log P(c | the values so far))
        for j in range(self.width):
            if read[j] is not None and not _is_missing(read[j]):
                known[j] = read[j]
                steps.append((j, [_log(p) for p in self._mixed_probabilities(
                    [compiled.joint(known) for compiled in members],
                    self._text_joint(known))]))
        parts = {j: [0.0] * self.k for j, _ in steps}
        for c in range(self.k):
            last, fell = self.log_prior[c], None
            if last == -INF:
                continue                  # the prior's -inf is the joint's
            for n, (j, logs) in enumerate(steps):
                if logs[c] > -INF:
                    parts[j][c] = (logs[c] - last) / self.temperature
                    last = logs[c]
                elif n == 0 or steps[n - 1][1][c] > -INF:
                    fell = j              # falls to 0 here (for now)
            if steps and steps[-1][1][c] == -INF:
                parts[fell][c] = -INF
        features = []
        for j, entry in enumerate(shown):
            value, status = entry["value"], entry["status"]
            if j < self.width:
                value = row[j]
                if read[j] is None and not (value is None or _is_missing(value)):
                    status = "unseen"     # read as missing: no training row holds it
            part = {"feature": entry["feature"], "value": value, "status": status,
                    "log_likelihood": dict(zip(classes, parts.get(j, self.zeros)))}
            if "interval" in entry:
                part["interval"] = entry["interval"]
            if entry["feature"] in texts:     # a text: its words, its weight
                part.update({key: value for key, value in texts[entry["feature"]].items()
                             if key not in part})
                part["status"] = texts[entry["feature"]]["status"]
                part["text_weight"] = self.text_weight
            features.append(part)
        text = self._text_joint(read)
        mixed = self._mixed_probabilities([compiled.joint(read) for compiled in members],
                                          text)
        described = []
        for name, weight, compiled in self.members:
            probabilities = _posterior(compiled.joint(read))      # the member's own
            texted = _with_text(probabilities, text, self.text_weight)
            entry = {"member": name, "weight": weight,
                     "probability": dict(zip(classes, probabilities)),
                     "share": {label: weight * p / total if total > 0 else 0.0
                               for label, p, total in zip(classes, texted, mixed)}}
            if hasattr(compiled, "summary_items"):    # a network's parents, the
                entry.update(compiled.summary_items())   # weighted one's feature weights
            described.append(entry)
        return {"prior": dict(zip(classes, self.log_prior)), "features": features,
                "members": described, "temperature": self.temperature}

    def informative(self):
        """The leading member's ranking, with the text factor's words among it: each
        scored as naive Bayes scores it, times the weight every member gives the
        text's log-likelihood."""
        ranked = self.leader().informative()
        if self.text is None:
            return ranked
        words = [item[:2] + (item[2] * self.text_weight,) + tuple(item[3:])
                 for item in self.text.informative() if item[0] in self.text_features]
        return sorted(ranked + words, key=lambda item: -item[2])

    def tables(self):
        """The leading member's tables."""
        return self.leader().tables()

    def naive_tables(self):
        """The leading member's naive-Bayes view of each feature (the pictures')."""
        leader = self.leader()
        naive = getattr(leader, "naive_tables", None)
        return naive() if naive is not None else leader.tables()

    def summary_items(self):
        """{"members": [[name, weight, out-of-fold log loss, accuracy]], "choice": a
        sentence, "leader": the leading member's name}, and the leading member's
        structure when it has one."""
        rows = [[name, weight] + list(self.evaluation.get(name, [None, None])[:2])
                for name, weight, _ in self.members]
        items = {"members": rows, "choice": _mixture_sentence(rows, self.evaluation,
                                                              self.temperature),
                 "temperature": self.temperature, "leader": self.leader(name=True)}
        if self.text is not None:
            items["text_weight"] = self.text_weight
            columns = ", ".join(map(repr, sorted(self.text_features, key=_canonical)))
            items["choice"] += "; text %s scored by naive Bayes, its log-likelihood " \
                "weighted %.3g in every member" % (columns, self.text_weight)
        leader = self.leader()
        if hasattr(leader, "summary_items"):
            items.update(leader.summary_items())
        return items


def _tempered(mixed, log_prior, temperature):
    """log pi_c + (log p_c - log pi_c) / T per class: the mixture's probabilities p
    tempered around its prior pi (given as logs), so that tempering moves a
    prediction towards or away from the prior and never moves the prior itself; a
    class of p or pi 0 gets -inf.  At T = 1, log p."""
    if temperature == 1.0:
        return [_log(p) for p in mixed]
    return [lp + (log(p) - lp) / temperature if p > 0 and lp > -INF else -INF
            for p, lp in zip(mixed, log_prior)]


def _with_text(probabilities, text, weight):
    """A member's P(c | x) times the text factor's likelihoods to the power ``weight``,
    normalised: softmax(log P(c | x) + weight * log L(text | c)) (``text``: the
    factor's joint log-likelihoods; None: the probabilities as they are)."""
    if text is None or not weight:
        return probabilities
    text = _deciding_scores(text)         # an infinity counted (_joint_with_infinities)
    return _posterior([_log(p) + weight * t if p > 0 else -INF
                       for p, t in zip(probabilities, text)])


def _golden_section(loss, lo, hi, steps):
    """The middle of the interval [lo, hi] narrowed ``steps`` times by golden-section
    search towards a minimum of ``loss`` (a tie keeps the lower half): deterministic,
    one evaluation of loss per step."""
    ratio = (sqrt(5.0) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    loss_a, loss_b = loss(a), loss(b)
    for _ in range(steps):
        if loss_a <= loss_b:
            hi, b, loss_b = b, a, loss_a
            a = hi - ratio * (hi - lo)
            loss_a = loss(a)
        else:
            lo, a, loss_a = a, b, loss_b
            b = lo + ratio * (hi - lo)
            loss_b = loss(b)
    return (lo + hi) / 2


def _text_weight(probabilities, texts, truth, row_weights, weights, prior=2.0):
    """The text factor's weight, between 0 and 4, that gives the out-of-fold rows the
    least log loss (weighted) when the members' probabilities (``probabilities``:
    per member, per row, per class; ``weights`` theirs) are each multiplied by the
    text's likelihoods (``texts``: per row, the factor's joint log-likelihoods) to
    that power (_with_text), plus ``prior`` pseudo-rows' worth of (weight - 1)^2
    pulling it towards naive Bayes' 1.  Golden-section search: deterministic."""
    # P'_m(t | x) = 1 / (1 + sum_{c != t} exp((log P_m(c) - log P_m(t)) + weight *
    # (T_c - T_t))): the differences of every (row, member) pair whose P_m(t) > 0,
    # flat, so that each evaluation is a few builtin maps
    gaps, slopes, spans, shares, rows_of = [], [], [], [], []
    for n, (t, text) in enumerate(zip(truth, texts)):
        for w, column in zip(weights, probabilities):
            row = column[n]
            if w <= 0 or row[t] <= 0:
                continue
            top = log(row[t])
            begin = len(gaps)
            for c, p in enumerate(row):
                if c != t and p > 0:
                    gaps.append(log(p) - top)
                    slopes.append(text[c] - text[t])
            spans.append((begin, len(gaps)))
            shares.append(w)
            rows_of.append(n)

    def loss(weight):
        terms = list(map(exp, map(min, map(add, gaps, map(mul, slopes, repeat(weight))),
                                  repeat(700.0))))
        mixed = [0.0] * len(truth)
        for (a, b), w, n in zip(spans, shares, rows_of):
            mixed[n] += w / (1.0 + sum(terms[a:b]))
        return prior * (weight - 1.0) ** 2 - sum(
            v * log(max(m, 1e-300)) for v, m in zip(row_weights, mixed))
    best = _golden_section(loss, _TEXT_WEIGHTS[0], _TEXT_WEIGHTS[1], 30)
    return round(best, 6) if loss(best) < loss(1.0) else 1.0


def _text_scores(statistics, params, rows, classes):
    """The text factor's joint log-likelihoods of ``rows`` (model rows), per row in
    the order of ``classes`` (0 for a class the statistics lack); [] without text."""
    factor = statistics.text_factor(params)
    if factor is None:
        return []
    joints = factor.joints([factor.positional(row) for row in rows])
    index = [factor.classes.index(c) if c in factor.classes else None for c in classes]
    return [[joint[i] if i is not None else 0.0 for i in index] for joint in joints]


def _texted(probabilities, texts, truth, weight):
    """(probabilities, likelihoods of the true class, hits) of every member with the
    text factor to the power ``weight`` (see _with_text), from the members' own."""
    out, likelihoods, hits = [], [], []
    for column in probabilities:
        rows = [_with_text(p, t, weight) for p, t in zip(column, texts)]
        out.append(rows)
        likelihoods.append([max(row[t], 1e-300) for row, t in zip(rows, truth)])
        hits.append([max(range(len(row)), key=row.__getitem__) == t
                     for row, t in zip(rows, truth)])
    return out, likelihoods, hits


def _file_temperature(value):
    """mixture.temperature of a model file: a number within _TEMPERATURES, the range
    fit chooses T in (a merge's T lies between its models')."""
    low, high = _TEMPERATURES
    _expect(type(value) in (int, float) and type(value) is not bool and
            low <= value <= high, "mixture.temperature", value,
            "a number between %s and %s" % (low, high))
    return float(value)


def _file_mixture_weights(value):
    """mixture.weights of a model file: {member: weight} from [[member name, weight],
    ...], the names distinct among AutoBayes' members, each weight in [0, 1] and their
    sum at most 1 (fit's weights sum to 1; a merge with a model whose weights were
    not chosen to less); empty: weights not chosen."""
    _expect(type(value) is list, "mixture.weights", value,
            "a list of [member name, weight] pairs")
    weights = {}
    for i, pair in enumerate(value):
        where = "mixture.weights[%d]" % i
        _expect(type(pair) is list and len(pair) == 2 and type(pair[0]) is str and
                pair[0] in _AUTO_MEMBERS and pair[0] not in weights and
                type(pair[1]) in (int, float) and 0 <= pair[1] <= 1, where, pair,
                "[member name, weight between 0 and 1], each member once (members: %s)"
                % ", ".join(_AUTO_MEMBERS))
        weights[pair[0]] = float(pair[1])
    _expect(math.fsum(weights.values()) <= 1 + 1e-9, "mixture.weights", value,
            "weights that add up to at most 1")
    return weights


def _file_evaluation(value):
    """mixture.evaluation of a model file: {member or "mixture": [log loss, accuracy,
    rows]} from [[name, log loss, accuracy, rows], ...], the names distinct among
    AutoBayes' members and "mixture", the log loss a finite number >= 0, the accuracy
    in [0, 1], the rows a whole number >= 1."""
    _expect(type(value) is list, "mixture.evaluation", value,
            "a list of [name, log loss, accuracy, rows]")
    evaluation = {}
    for i, item in enumerate(value):
        _expect(type(item) is list and len(item) == 4 and type(item[0]) is str and
                (item[0] in _AUTO_MEMBERS or item[0] == "mixture") and
                item[0] not in evaluation and
                all(type(v) in (int, float) for v in item[1:3]) and
                isfinite(item[1]) and item[1] >= 0 and 0 <= item[2] <= 1 and
                type(item[3]) is int and item[3] >= 1, "mixture.evaluation[%d]" % i, item,
                "[member name or \"mixture\", log loss >= 0, accuracy between 0 and 1, "
                "rows >= 1], each name once")
        evaluation[item[0]] = list(item[1:])
    return evaluation


def _mixture_sentence(rows, evaluation, temperature=1.0):
    """'mixture 0.41 waode, 0.33 bayesnet, ... chosen by 5-fold cross-validation on
    300 rows: log loss 0.31, accuracy 0.88 (best member waode: 0.33, 0.87)'."""
    shares = ", ".join("%.2f %s" % (weight, name) for name, weight, _, _ in
                       sorted(rows, key=lambda row: -row[1]))
    mixture = evaluation.get("mixture")
    if not mixture:
        return "mixture %s (weights not chosen from the data)" % shares
    scored = [(v[0], name) for name, v in evaluation.items() if name != "mixture"]
    best = min(scored)[1] if scored else None
    text = "mixture %s, weights chosen by cross-validation on %s rows: log loss %.3g, " \
        "accuracy %.3g" % (shares, format(int(mixture[2]), ","), mixture[0], mixture[1])
    if temperature != 1.0:
        text += ", probabilities tempered by T = %.3g" % temperature
    if best is not None:
        text += " (best single member %s: %.3g, %.3g)" % (best, evaluation[best][0],
                                                          evaluation[best][1])
    return text


def _mixture_weights(members, chosen, setting):
    """{member: weight} as the weights parameter says: "cv" the ones chosen at fit
    (equal ones until then), "uniform" equal ones, or a {member: weight} dict."""
    if isinstance(setting, Mapping):      # scaled by the largest first: no overflow
        given = [float(_number(setting.get(name, 0))) for name in members]
        largest = max(given)
        total = math.fsum(w / largest for w in given)
        return {name: w / largest / total for name, w in zip(members, given)}
    if setting == "cv" and chosen and sum(chosen.get(name, 0) for name in members) > 0:
        total = sum(chosen.get(name, 0) for name in members)
        return {name: float(chosen.get(name, 0) / total) for name in members}
    return {name: 1.0 / len(members) for name in members}


_TEMPERATURES = (0.25, 4.0)       # the range of the mixture's temperature T


def _temperature(probabilities, truth, row_weights, class_priors, prior=2.0):
    """The T, between 1/4 and 4, whose probabilities tempered around each row's
    class prior pi (_tempered: pi_c (p_c / pi_c)^(1/T), normalised) give the
    out-of-fold rows the least log loss (weighted), plus ``prior`` pseudo-rows' worth
    of (log T)^2 pulling it towards 1: naive Bayes' products of correlated factors
    are over-confident (T > 1 softens them towards the prior).  Golden-section search
    on log T: deterministic."""
    rows = []
    for row, t, v, pi in zip(probabilities, truth, row_weights, class_priors):
        if row[t] > 0 and pi[t] > 0:
            logs = [_log(q) for q in pi]
            rows.append((logs, [_log(p) - q if p > 0 and q > -INF else -INF
                                for p, q in zip(row, logs)], t, v))
    if not rows:
        return 1.0

    def loss(log_t):
        inverse = exp(-log_t)
        total = prior * log_t * log_t
        for logs, moved, t, v in rows:
            scaled = [q + x * inverse for q, x in zip(logs, moved)]
            total -= v * (scaled[t] - _log_sum_exp(scaled))
        return total
    best = _golden_section(loss, log(_TEMPERATURES[0]), log(_TEMPERATURES[1]), 40)
    return round(exp(best), 6) if loss(best) < loss(0.0) else 1.0


def _em_weights(likelihoods, row_weights, prior, steps=100):
    """The linear pool's weights w maximising sum_i v_i log sum_m w_m L[m][i] + prior
    sum_m log w_m (the data's weights v, a Dirichlet prior of ``prior`` pseudo-rows per
    member), by EM from equal weights: deterministic, and a member that never helps
    fades towards 0."""
    count = len(likelihoods)
    weights = [1.0 / count] * count
    rows = len(row_weights)
    for _ in range(steps):
        # by builtins over the rows, each number as the loop over rows computes it:
        # a row's mixture summed over the members in order, each member's total
        # added to row by row from the prior (reduce: no compensated sum)
        mixed = list(map(sum, zip(*[list(map(mul, repeat(w, rows), column))
                                    for w, column in zip(weights, likelihoods)])))
        scored = [x > 0 for x in mixed]
        if all(scored):                   # (as a rule: every row scored)
            kept, kept_weights, kept_columns = mixed, row_weights, likelihoods
        else:
            kept = list(compress(mixed, scored))
            kept_weights = list(compress(row_weights, scored))
            kept_columns = [list(compress(column, scored)) for column in likelihoods]
        totals = [reduce(add, map(truediv, map(mul, map(mul, kept_weights, repeat(w)),
                                               column), kept), prior)
                  for w, column in zip(weights, kept_columns)]
        total = sum(totals)
        weights = [t / total for t in totals]
    return weights
