# ----------------------------------------------------------------------------------
# Distributions
#
# What one feature tells about the class, as small value classes (river keeps these
# in proba/, apart from its classifiers; statistics.NormalDist is the model).  Each
# distribution is a pair: its statistics (a _Distribution: exact, mergeable counts or
# sums per class label, read from and written to the model file) and its compiled
# form (a _Scorer: per-class log-likelihoods of a value, built once per fitted state,
# with any fast form the fast path uses defined in the same class).  Feature kinds,
# in the next section, read cells and rows into these.
# ----------------------------------------------------------------------------------

_SCALARS = frozenset((int, float, str, bool, tuple, type(None)))


def _copied(value):
    """A copy of statistics: dicts and lists copied all the way down, anything else
    (numbers, strings, tuples) shared, since statistics never change it in place."""
    kind = type(value)
    if kind is dict:
        if _SCALARS.issuperset(map(type, value.values())):
            return dict(value)
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        if _SCALARS.issuperset(map(type, value)):
            return list(value)
        return [_copied(item) for item in value]
    copy = getattr(kind, "__copy__", None)        # e.g. _ValueIds
    return value if copy is None else copy(value)


def _slot_names(cls):
    """Every __slots__ name of cls and its bases, in definition order."""
    names = []
    for base in reversed(cls.__mro__):
        slots = base.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return names


def _top_counts(counts, top=3):
    """{"count": the total, "top": [[key, count]] of the ``top`` largest counts (the
    first of equal ones first)} of a {key: count} dict."""
    largest = sorted(counts.items(), key=lambda item: -item[1])[:top]
    return {"count": _plain(sum(counts.values())),
            "top": [[key, _plain(count)] for key, count in largest]}


class _Distribution:
    """The statistics of one feature, per class label: exact and mergeable.

    The protocol (subclasses fill it in; every method has a docstring there):
      add(label, values, weights)    count one class's values of the feature, as the
                                     feature kind read them (finite floats, counts,
                                     hashable values, lists of words); weights are
                                     exact (ints or Fractions), or None for weight 1
      absorb(other)                  add another's statistics, in place and exactly,
                                     so that merge and partial_fit equal fit
      deficit(other, emptied)        None when other's statistics (rows counted into
                                     an empty twin) can be removed from these; else
                                     what other holds more of, as a phrase naming the
                                     class and the value, word, pair or row; also when
                                     a class in ``emptied`` (whose rows are all being
                                     removed) would keep any statistics
      subtract(other)                remove other's statistics, in place and exactly:
                                     the inverse of absorb, so that forget equals a
                                     fit without those rows; whatever reaches zero (a
                                     class, value, word, pair or row) is removed; it
                                     raises _Unlearned, with nothing changed, where
                                     deficit finds something
      compile(classes, params, shared)   the _Scorer predictions use
      describe(params)               one line for the command line
      class_statistics(classes, params)   {label: {"count": ..., ...}}: what info
                                     shows of each class (None: nothing)
      to_file(classes, what), from_file(feature, where, classes, class_count)
                                     its fields of the model file (``file_fields``)
    Defined here once for all of them, so that no subclass can get them wrong:
    copy() (the same class, statistics copied), empty() (the same class and
    ``settings``, such as declared categories, without counts), holds_nothing() and
    a + b.  A distribution written before forget existed refuses to forget (the
    deficit here), rather than forgetting wrongly.
    """

    __slots__ = ()
    settings = ()                        # slots an empty twin keeps
    file_fields = ()

    def deficit(self, other, emptied):
        """What cannot be removed: here everything, for a distribution that does not
        define how its statistics are removed."""
        return "its statistics (%s) cannot remove rows" % type(self).__name__

    def subtract(self, other):
        """Refuses (see deficit)."""
        raise _Unlearned(self.deficit(other, ()))

    def class_statistics(self, classes, params):
        """What each class's statistics say, for info: here nothing."""
        return None

    def holds_nothing(self):
        """True when there are no statistics to remove (none counted, or all removed):
        an empty twin could have other's statistics removed from it only then."""
        return self.empty().deficit(self, ()) is None

    def empty(self):
        """The same distribution with no counts (declared settings kept)."""
        twin = type(self)()
        for name in self.settings:
            setattr(twin, name, _copied(getattr(self, name)))
        return twin

    def copy(self):
        """An equal, independent distribution of the same class."""
        twin = type(self)()
        for name in _slot_names(type(self)):
            setattr(twin, name, _copied(getattr(self, name)))
        return twin

    def __add__(self, other):
        """The statistics of both training sets (a new distribution)."""
        total = self.copy()
        total.absorb(other)
        return total


class _Unlearned(Exception):
    """Statistics asked to remove more than they hold (see _Distribution.deficit): the
    phrase saying what; the classifier adds the call."""


def _counts_deficit(mine, theirs, label, what, emptied):
    """The deficit of one class's {key: count} (exact counts): None, or a phrase for
    the first key whose count in theirs is more than in mine (``what(key)`` names
    it: "value 'red'"), or, when the class is in ``emptied``, a key that would keep a
    count."""
    get = mine.get
    for key, count in theirs.items():
        have = get(key, 0)
        if count > have:
            if not have:
                return "class %s: %s was never learned" % (_shown(label), what(key))
            return "class %s: %s has a count of %s, less than the %s to forget" % (
                _shown(label), what(key), _plain(have), _plain(count))
    if label in emptied:
        get = theirs.get
        for key, have in mine.items():
            if have != get(key, 0):
                return "class %s: %s would keep a count of %s after all its rows are " \
                    "forgotten" % (_shown(label), what(key), _plain(have - get(key, 0)))
    return None


def _subtract_counts(mine, theirs):
    """mine -= theirs key by key, exactly (theirs has no key beyond mine's); a key
    whose count reaches 0 is removed, as if it had never been counted."""
    for key, count in theirs.items():
        left = mine[key] - count
        if left:
            mine[key] = left
        else:
            del mine[key]


def _labels_to_check(theirs, emptied):
    """The labels whose statistics a deficit looks at: those of the rows to remove,
    then the emptied ones."""
    return list(theirs) + [label for label in emptied if label not in theirs]


def _log_ratio_range(vector):
    """log(max / min) of a vector of log-probabilities (inf when some are 0)."""
    top, bottom = max(vector), min(vector)
    return top - bottom if bottom != -INF else (0.0 if top == -INF else INF)


def _defined_in(cls, name):
    """The class in cls's method resolution order that defines attribute name."""
    return next((base for base in cls.__mro__ if name in base.__dict__), None)


def _is_current(cls, fast, references):
    """True when cls's ``fast`` form is as current as its ``references``: the class
    that defines the fast form defines, or inherits from the class that defines, each
    reference.  A subclass that overrides a reference and not the fast form makes the
    fast form stale (it would compute what the old reference did), and then the
    reference is used."""
    owner = _defined_in(cls, fast)
    return owner is not None and all(
        defined is None or issubclass(owner, defined)
        for defined in [_defined_in(cls, name) for name in references])


class _Scorer:
    """A compiled distribution: per-class log-likelihoods of a value.

    One method is required, the reference every prediction and explanation rests on:
      scorer[value]  -> tuple of per-class log-likelihoods in classes_ order (zeros
                        for a missing value); raise _BadValue for a value of the
                        wrong type.
    The rest have defaults here:
      terms(value)         the same split into terms, each zero probability a term of
                           its own (for counting them, see _joint_with_infinities)
      explain(value)       (status, vector, details or None) for explain(): details
                           is a dict of more entries of the feature's explanation,
                           added to it whole, in the form explain() returns (per-class
                           numbers as {label: number}; see _WordScorer)
      informative(name, classes)   [(feature, value, score, favoured label)]
      table(classes)       the public view of the distribution, for tables()
    and two optional fast forms, which the class defining them must keep equal to
    its scorer[value] (the tests check it for every registered kind):
      lookup()             a _ValueTable (value -> vector) to pack, or None
      quadratic()          per class (constant, mean, scale) with log-likelihood
                           constant - ((x - mean) * scale)^2, or None
    fast_form(name) returns a fast form only when no subclass has overridden the
    reference below the class that defined it: a subclass that changes scorer[value]
    (or what it rests on: ``_references``) and not its fast form is scored value by
    value, never by a stale fast form.
    """

    __slots__ = ()
    _references = ("__getitem__", "__missing__")     # what the fast forms stand for

    def terms(self, value):
        """The log-likelihoods of a value as a list of per-class vectors (one here)."""
        return [self[value]]

    def explain(self, value):
        """(status, per-class log-likelihoods, details) of a value, for explain()."""
        if _is_missing(value):
            return "missing", self.zeros, None
        return "used", self[value], None

    def informative(self, name, classes):
        """[(feature, value, score, favoured label)]: none, unless a scorer ranks."""
        return []

    def lookup(self):
        """A _ValueTable to pack into the fast path, or None (see fast_form)."""
        return None

    def quadratic(self):
        """Per class (constant, mean, scale) of a quadratic log density, or None."""
        return None

    def fast_form(self, name):
        """lookup() or quadratic() when it is as current as scorer[value], else None."""
        if not _is_current(type(self), name, self._references):
            return None
        return getattr(self, name)()


class _NumberScorer(_Scorer):
    """A scorer of real numbers (normal densities, MDL bins, kernel densities):
    scorer[x] reads x here, once for all of them (a finite float as it is, an int as
    a float, zeros for a missing value, _BadValue for anything else), and ``at(x)``,
    the one method a subclass defines, gives the per-class log-likelihoods of the
    finite float x."""

    __slots__ = ()
    _references = _Scorer._references + ("at",)

    def __getitem__(self, x):
        """Per class log-likelihoods of the number x; zeros for a missing x."""
        if type(x) is not float or not isfinite(x):
            x = _finite_or_missing(x)
            if x is None:
                return self.zeros
        return self.at(x)


class _NoEvidence(_Scorer):
    """Scorer of a feature that says nothing (ignored, or no values yet): every value
    contributes log 1 = 0 to every class."""

    __slots__ = ("zeros", "kind")

    def __init__(self, zeros, kind):
        self.zeros = zeros
        self.kind = kind

    def __getitem__(self, value):
        """Zeros, whatever the value."""
        return self.zeros

    def explain(self, value):
        """Always "ignored": the feature contributes nothing."""
        return "ignored", self.zeros, None

    def table(self, classes):
        """An empty table of the kind."""
        if self.kind == "gaussian":
            return {"kind": "gaussian", "mean": {}, "variance": {}}
        return {"kind": self.kind}


class _DensityScorer(_Scorer):
    """x -> per class log_density(x, *parameters of the class): the scorer of a
    distribution whose log density is a function of the value and a few numbers per
    class (a new distribution needs no scorer class of its own)."""

    __slots__ = ("zeros", "log_density", "parameters")

    def __init__(self, log_density, parameters):
        self.log_density = log_density
        self.parameters = [tuple(p) for p in parameters]
        self.zeros = (0.0,) * len(self.parameters)

    def __getitem__(self, value):
        """Per class log_density(value, *parameters); zeros for a missing value."""
        if value is None or _is_missing(value):
            return self.zeros
        return tuple([self.log_density(value, *p) for p in self.parameters])

    def table(self, classes):
        """{"parameters": {label: [its parameters]}}."""
        return {"parameters": dict(zip(classes, map(list, self.parameters)))}


class _Converted(_Scorer):
    """A scorer that reads each value first (a kind's read_value, such as log x)."""

    __slots__ = ("zeros", "scorer", "read_value")

    def __init__(self, scorer, read_value):
        self.scorer = scorer
        self.read_value = read_value
        self.zeros = scorer.zeros

    def __getitem__(self, value):
        """The inner scorer's log-likelihoods of the value as read."""
        if value is None or _is_missing(value):
            return self.zeros
        return self.scorer[self.read_value(value)]

    def terms(self, value):
        """The inner scorer's terms of the value as read."""
        if value is None or _is_missing(value):
            return [self.zeros]
        return self.scorer.terms(self.read_value(value))

    def explain(self, value):
        """The inner scorer's explanation of the value as read."""
        if value is None or _is_missing(value):
            return "missing", self.zeros, None
        return self.scorer.explain(self.read_value(value))

    def informative(self, name, classes):
        """The inner scorer's ranking."""
        return self.scorer.informative(name, classes)

    def table(self, classes):
        """The inner scorer's table."""
        return self.scorer.table(classes)


class _Nothing(_Distribution):
    """No statistics at all: the distribution of an ignored feature."""

    __slots__ = ()

    def add(self, label, values, weights):
        """Nothing is counted."""

    def absorb(self, other):
        """Nothing to add."""

    def deficit(self, other, emptied):
        """Nothing is missing."""
        return None

    def subtract(self, other):
        """Nothing to remove."""

    def compile(self, classes, params, shared):
        """A scorer that says nothing."""
        return _NoEvidence((0.0,) * len(classes), "ignore")

    def describe(self, params):
        """Not used."""
        return "not used"

    def to_file(self, classes, what):
        """No fields."""
        return {}

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """Nothing to read."""
        return cls()
