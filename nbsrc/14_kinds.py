# ----------------------------------------------------------------------------------
# Feature kinds
#
# A kind is a thin adapter from one feature's column of row values to a distribution
# of the section above: how values are read and checked (for fitting, and at
# prediction time when they must be transformed), how the command line reads a cell,
# and which model parameters it takes.  The registry _KINDS at the end of the section
# lists them; features=, the model file and the command line's --KIND COLS options
# all read it.  Adding a kind: a distribution class (only if none above fits), an
# adapter, and one line in _KINDS.
# ----------------------------------------------------------------------------------


class _Parameter:
    """A model parameter: its default, and a check returning None when a value is
    fine, else what was expected ("a finite number >= 0") or a whole description
    that starts with the parameter's name ("class_prior sums to 1.1; ...").
    ``option`` is its command-line option's (type or choices, help), or None when
    the command line does not set it; the type bool makes a flag, and a third item
    holds more argparse keywords (nargs: the values' parts are joined in a tuple)."""

    __slots__ = ("default", "check", "option")

    def __init__(self, default, check, option=None):
        self.default = default
        self.check = check
        self.option = option


def _finite_at_least_0(value):
    number = _number(value)
    if number is None or not isfinite(number) or number < 0:
        return "a finite number >= 0"
    return None


_LARGEST_SMOOTHING = 1e300   # the pairwise and network families multiply it by sizes


def _smoothing_check(value):
    """A smoothing parameter of the pairwise and network families: finite, >= 0 and
    at most _LARGEST_SMOOTHING (alpha * K * S must stay a float)."""
    number = _number(value)
    if number is None or not isfinite(number) or not 0 <= number <= _LARGEST_SMOOTHING:
        return "a finite number between 0 and %g" % _LARGEST_SMOOTHING
    return None


def _integer_at_least(smallest, allow_none=False):
    def check(value):
        if value is None and allow_none:
            return None
        if type(value) is not int or value < smallest:
            return "%san integer >= %d" % ("None or " if allow_none else "", smallest)
        return None
    return check


def _one_of(*choices):
    def check(value):
        if not isinstance(value, str) or value not in choices:
            return " or ".join('"%s"' % c for c in choices)
        return None
    return check


def _cli_number(text):
    """A number option: an int when written as one (--ddof 1), else a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _reals(column, fast=False):
    """The non-missing values of a numeric column as floats; _BadValue otherwise.
    fast: a column of plain floats comes back as it is (NaN and infinities included,
    which _scaled_integers rejects by raising) and anything else raises TypeError."""
    if fast:
        types = set(map(type, column))
        if types == _FLOAT:
            return column
        if types == _FLOAT_NONE:
            return [v for v in column if v is not None]
        if types <= _FLOAT_INT:
            return list(map(float, column))
        raise TypeError
    try:
        xs = list(map(float, column)) if _FLOAT_INT.issuperset(map(type, column)) else None
    except OverflowError:                 # an int beyond the float range
        xs = None
    if xs is None:
        xs = []
        for value in column:
            number = _number(value)
            if number is None:
                if _is_missing(value):
                    continue
                raise _BadValue(value, "a real number")
            if not isfinite(number) and number == number:
                raise _BadValue(value, "a finite number")
            xs.append(number)
    if not all(map(isfinite, xs)):
        bad = next((x for x in xs if x == x and not isfinite(x)), None)
        if bad is not None:
            raise _BadValue(bad, "a finite number")
        xs = [x for x in xs if x == x]
    return xs


def _number_cell(cell):
    """A CSV cell of a numeric feature: a finite float, None for "nan"."""
    try:
        number = float(cell)
    except ValueError:
        raise _BadValue(cell, "a number") from None
    if not isfinite(number):
        if number != number:              # nan: a missing value, as in the library
            return None
        raise _BadValue(cell, "a finite number")
    return number


def _count_cell(cell):
    """A CSV cell of a Poisson feature: a non-negative integer."""
    try:
        try:
            return _count_value(int(cell))
        except ValueError:
            number = float(cell)
        return None if number != number else _count_value(number)
    except (ValueError, _BadValue):
        raise _BadValue(cell, "a non-negative integer count") from None


def _aligned(weights, keep):
    """The weights of the rows kept (keep: a list of bools), in weights' own type."""
    if all(keep):
        return weights
    if isinstance(weights, _Weights):
        return weights.subset(keep)
    return list(compress(weights, keep))


def _present_reals(column, weights, fast=False):
    """(values, weights) of the present values of a numeric column as floats, with
    their weights (None: weight 1); see _reals for ``fast``."""
    if weights is None:
        return _reals(column, fast), None
    keep = [not _is_missing(v) for v in column]
    return _reals(list(compress(column, keep)), fast), _aligned(weights, keep)


def _present(values, weights):
    """(values, weights) without the missing values (None), weights aligned."""
    if weights is None:
        return [v for v in values if v is not None], None
    keep = [v is not None for v in values]
    return list(compress(values, keep)), _aligned(weights, keep)


class _Kind:
    """A feature kind: how one feature's values are read into its distribution.

    A kind is a thin adapter.  The statistics live in its distribution (``stats``, a
    _Distribution of the section above); the kind says how one class's column of row
    values becomes the distribution's values, how the command line reads a cell and
    which model parameters it takes.  Adding a kind is one subclass (and one new
    distribution, if none above fits) and one line in _KINDS.

    Class attributes:
      name           in features=, the model file and the command line
      distribution   the _Distribution class it fills (its file_fields are the kind's)
      parameters     {name: _Parameter} of the model parameters it reads
      blocked        True: add() gets blocks of rows; False: each class's whole column
                     in one call (for kinds whose additions cost a merge, such as text)
    Per kind, overridden as needed:
      read(column, weights, params) -> (values, weights)
                     the present values of one class's column as the distribution
                     counts them, and their weights (None for weight 1): the true
                     weights as the caller gave them, ints or floats (a _Weights,
                     whose .scaled form lets the library's distributions sum them
                     exactly; _aligned keeps it when values are dropped); _BadValue
                     for a wrong value
      convert_cell(text)   (staticmethod) a CSV cell as a value of this kind
      shared(kinds, params)   (classmethod) what compiling needs from all the features
                     of the kind at once (the Gaussian var_smoothing epsilon)
      fast_read(column, weights, params) -> (values, weights)
                     optional: read() for the common case by builtins, which may
                     skip its checks when the distribution's add() refuses what they
                     would (a NaN, say) with nothing added; any ValueError, TypeError
                     or OverflowError of either sends the column to read().  It
                     stands for the read() of the class that defines it: a subclass
                     that overrides read() and not fast_read() is read by its read()
                     (_is_current), so a kind's own read() is never bypassed
      read_value(value)    optional: a value at prediction time as the
                     distribution's scorer takes it (None for a missing value), for a
                     kind that transforms its values (log x, say); when a kind defines
                     it, its scorer reads each value through it, and ``transform``
                     says what the distribution is of ("log x"): tables(), the
                     pictures and the descriptions name it
      compile(classes, params, shared)   the _Scorer (by default the distribution's)
    Defined here once for every kind, so that a subclass stays its own class through
    all of them: add, empty, copy, absorb, deficit, subtract, describe,
    class_statistics, to_file and from_file.
    """

    name = None
    distribution = _Nothing
    parameters = {}
    file_fields = ()
    blocked = True
    fast_read = None
    reads_fast = False                    # fast_read is set and as current as read
    transform = None                      # with read_value: what it gives ("log x")
    numeric = False                       # a choice of numeric= and --numeric
    __slots__ = ("stats",)

    def __init_subclass__(cls, **options):
        """A kind's model-file fields are its distribution's; its fast_read is used
        only while it stands for the kind's read (see fast_read above)."""
        super().__init_subclass__(**options)
        cls.file_fields = cls.distribution.file_fields
        cls.reads_fast = cls.fast_read is not None and _is_current(cls, "fast_read",
                                                                   ("read",))

    def __init__(self, stats=None):
        self.stats = self.distribution() if stats is None else stats

    def add(self, label, column, weights, params):
        """Count one class's column of this feature (weights as for read): through
        fast_read when it stands for read, else (and for what it leaves) read."""
        if self.reads_fast:
            try:
                values, read_weights = self.fast_read(column, weights, params)
                if values:
                    self.stats.add(label, values, read_weights)
                return
            except (ValueError, OverflowError, TypeError):
                pass                      # an odd value: read() finds out which
        values, weights = self.read(column, weights, params)
        if values:
            self.stats.add(label, values, weights)

    def read(self, column, weights, params):
        """(values, weights) the distribution counts: here the column as it is."""
        return column, weights

    @staticmethod
    def convert_cell(text):
        """A CSV cell as a value: the text itself."""
        return text

    def twin(self, stats):
        """A feature of the same kind (the same class) holding ``stats``."""
        twin = type(self).__new__(type(self))
        twin.stats = stats
        if hasattr(self, "__dict__"):     # a subclass without __slots__
            twin.__dict__.update(self.__dict__)
        return twin

    def empty(self):
        """The same kind with no counts (declared categories kept)."""
        return self.twin(self.stats.empty())

    def copy(self):
        """An equal, independent copy of the same class."""
        return self.twin(self.stats.copy())

    def absorb(self, other):
        """Add other's statistics, in place (exact: merge equals fit)."""
        self.stats.absorb(other.stats)

    def deficit(self, other, emptied):
        """What other's statistics hold beyond these (see _Distribution.deficit)."""
        return self.stats.deficit(other.stats, emptied)

    def subtract(self, other):
        """Remove other's statistics, in place (exact: forget equals a fit without
        those rows)."""
        self.stats.subtract(other.stats)

    @classmethod
    def shared(cls, features, params, class_count=None):
        """What compiling needs from all the kind's features together (and the class
        counts): nothing."""
        return None

    read_value = None

    def compile(self, classes, params, shared):
        """The scorer of the feature (see _Scorer): the distribution's, reading each
        value through read_value when the kind has one."""
        scorer = self.stats.compile(classes, params, shared)
        return scorer if self.read_value is None else _Converted(scorer, self.read_value)

    def describe(self, params):
        """One line about the fitted feature, for the command line (", of log x" for
        a kind that transforms its values)."""
        text = self.stats.describe(params)
        return text if self.transform is None else "%s, of %s" % (text, self.transform)

    @classmethod
    def table(cls, table):
        """A scorer's table (see _Scorer.table) as the public view of a feature of
        this kind: "kind" is the kind's name; where the distribution's own name
        differs ("gaussian" for a kind that fills _NormalSums), "distribution" keeps
        it, and a kind that transforms its values says of what ("of": "log x")."""
        if cls.name is None:              # undecided: no values, the scorer's table
            return table
        out = {"kind": cls.name}
        own = table.get("kind")
        if own is not None and own != cls.name:
            out["distribution"] = own
        if cls.transform is not None:
            out["of"] = cls.transform
        out.update((key, value) for key, value in table.items() if key != "kind")
        return out

    def class_statistics(self, classes, params):
        """What the feature's statistics say of each class (see _Distribution)."""
        return self.stats.class_statistics(classes, params)

    def to_file(self, classes, what):
        """The feature's fields of the model file (``what`` names its values)."""
        return self.stats.to_file(classes, what)

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The feature from its fields of the model file, validated."""
        return cls(cls.distribution.from_file(feature, where, classes, class_count))


# -- categorical ------------------------------------------------------------------

class _Categorical(_Kind):
    """Any hashable values, counted as they are: P(v | c) = (N_cjv + alpha) / (N_cj +
    alpha * S_j); a value never seen in training gets alpha / (N_cj + alpha * S_j).

    Rows in nltk's style ({word: True}, the absent words left out): a feature whose
    every value seen in training is True counts each training row that lacks it (an
    absent key, None or NaN) as False, so that "absent" is evidence, as nltk's
    NaiveBayesClassifier counts it; at prediction an absent value is still skipped,
    as there.  (Otherwise such a feature would learn nothing: P(True | c) = 1.)"""

    name = "categorical"
    distribution = _ValueCounts
    __slots__ = ()

    @classmethod
    def shared(cls, features, params, class_count=None):
        """The class counts, for the features whose only value is True."""
        return class_count

    def compile(self, classes, params, shared):
        """The scorer; a feature whose only value is True counts its absences as
        False (see the class docstring)."""
        stats = self.stats
        if shared is not None and not stats.declared and len(stats.seen) == 1 and \
                next(iter(stats.seen)) is True:
            stats = stats.with_absences_as(False, shared)
        return stats.compile(classes, params, None)


class _Undecided(_Categorical):
    """A feature whose kind is still to be inferred: no value has been seen yet.

    It scores like a feature with no values (it contributes nothing) and takes its
    kind from the first batch in which it has values; feature_kinds_ calls it
    "gaussian", since all of its (zero) values are numbers.
    """

    name = None
    __slots__ = ()

    def compile(self, classes, params, shared):
        """No values: a scorer that says nothing."""
        return _NoEvidence((0.0,) * len(classes), "gaussian")

    def describe(self, params):
        """'no values yet'."""
        return "no values yet"

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """A feature without a kind, which has no values either."""
        stats = cls.distribution.from_file(feature, where, classes, class_count)
        if stats.values():
            raise _Invalid("%s has values but no kind; expected \"categorical\"" % where)
        return cls(stats)


# -- Gaussian ---------------------------------------------------------------------

class _Gaussian(_Kind):
    """Finite real numbers, normal per class (_NormalSums)."""

    name = "gaussian"
    distribution = _NormalSums
    numeric = True
    parameters = {
        "ddof": _Parameter(0, _finite_at_least_0, (_cli_number, "Gaussian variance divisor "
                                                   "N - ddof (default 0; 1 as R)")),
        "var_smoothing": _Parameter(1e-9, _finite_at_least_0, (
            _cli_number, "added variance, times the feature's own variance (default 1e-9)")),
    }
    convert_cell = staticmethod(_number_cell)
    __slots__ = ()

    def fast_read(self, column, weights, params):
        """Plain floats as they are, unchecked (_NormalSums.add refuses a NaN or an
        infinity, adding nothing); TypeError for anything else."""
        return _present_reals(column, weights, fast=True)

    def read(self, column, weights, params):
        """The present values as floats; _BadValue for anything but a finite number."""
        return _present_reals(column, weights)

    @classmethod
    def shared(cls, features, params, class_count=None):
        """The var_smoothing epsilon of all the kind's features, for a family that
        floors every variance by the largest (params["variance_floor"] "largest":
        GaussianNB, as scikit-learn); None where each feature's floor is its own
        variance's (see _NormalSums.compile)."""
        if params.get("variance_floor") != "largest":
            return None
        return _NormalSums.smoothing([feature.stats for feature in features], params)


# -- ignore -------------------------------------------------------------------------

class _Ignored(_Kind):
    """A feature declared "ignore": nothing is counted, nothing is scored."""

    name = "ignore"
    distribution = _Nothing
    convert_cell = staticmethod(lambda text: None)
    __slots__ = ()

    def read(self, column, weights, params):
        """Nothing is read."""
        return [], None


# -- text -----------------------------------------------------------------------------

def _callable_or_none(value):
    """The check of tokenizer=: None or a callable."""
    return None if value is None or callable(value) else "None or a callable"


def _true_or_false(value):
    """The check of a yes-or-no parameter (complement_norm=)."""
    return None if value is True or value is False else "True or False"


def _ngram_range_check(value):
    """The check of ngram_range=: (min_n, max_n), integers, 1 <= min_n <= max_n."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and \
            all(type(n) is int for n in value) and 1 <= value[0] <= value[1]:
        return None
    return "(min_n, max_n): two integers with 1 <= min_n <= max_n"


def _stop_words_check(value):
    """The check of stop_words=: None, "english" or a list of words."""
    if value is None or (isinstance(value, str) and value == "english"):
        return None
    if isinstance(value, (list, tuple, set, frozenset)) and _STR.issuperset(map(type, value)):
        return None
    return 'None, "english" or a list of words (strings)'


def _ngram_option(text):
    """--ngram-range: "1,2" (or the two numbers as two words): the integers."""
    return tuple(int(part) for part in text.replace(",", " ").split())


_ngram_option.__name__ = "ngram range"   # argparse names the type in its messages


def _stop_words_option(text):
    """--stop-words: english, or a file of stop words (one per line; empty lines and
    lines starting with # are skipped)."""
    if text == "english":
        return text
    try:
        with open(text, encoding="utf-8-sig") as handle:
            return [line.strip() for line in handle
                    if line.strip() and not line.lstrip().startswith("#")]
    except (OSError, UnicodeDecodeError) as error:
        import argparse
        raise argparse.ArgumentTypeError("%s: expected english or a readable UTF-8 file "
                                         "of stop words (%s)" % (text, _one_line(error)))


class _Text(_Kind):
    """Documents (strings, tokenized, or lists of words, with stop words dropped and
    n-grams formed; or {word: count} mappings, weighted bags already made), as word
    counts per class (_WordCounts): multinomial bag-of-words, Bernoulli set-of-words
    or complement naive Bayes."""

    name = "text"
    distribution = _WordCounts
    parameters = {
        "text_model": _Parameter("multinomial", _one_of("multinomial", "bernoulli",
                                                        "complement"), (
            ("multinomial", "bernoulli", "complement"), "for --text columns: bag-of-words "
            "(multinomial, the default), set-of-words (bernoulli) or complement naive "
            "Bayes (complement)")),
        "max_words": _Parameter(None, _integer_at_least(1, allow_none=True), (
            int, "for --text columns: keep the K most frequent words")),
        "min_word_count": _Parameter(1, _integer_at_least(1), (
            int, "for --text columns: drop words seen fewer times (default 1)")),
        "tokenizer": _Parameter(None, _callable_or_none),
        "complement_norm": _Parameter(False, _true_or_false, (
            bool, "for --text-model complement: normalise its weights (scikit-learn's "
            "ComplementNB norm=True)")),
        "ngram_range": _Parameter((1, 1), _ngram_range_check, (
            _ngram_option, "for --text columns: MIN,MAX: the words and word n-grams of "
            "MIN to MAX words (default 1,1: words)", {"nargs": "+"})),
        "stop_words": _Parameter(None, _stop_words_check, (
            _stop_words_option, "for --text columns: english (scikit-learn's 318 words) "
            "or a file of stop words, one per line, dropped before n-grams are formed")),
    }
    blocked = False                       # one merge of word counts per class and call
    __slots__ = ()

    def read(self, column, weights, params):
        """The present documents as lists of words or {word: count} dicts (see
        _TextReading)."""
        return _present(list(map(_TextReading(params), column)), weights)


# -- Poisson counts -----------------------------------------------------------------

class _Poisson(_Kind):
    """Non-negative integer counts, Poisson per class (_PoissonSums)."""

    name = "poisson"
    distribution = _PoissonSums
    convert_cell = staticmethod(_count_cell)
    __slots__ = ()

    def read(self, column, weights, params):
        """The present counts as ints; _BadValue for anything else."""
        if weights is None and _INT.issuperset(map(type, column)) and \
                min(column, default=0) >= 0 and max(column, default=0) <= _FLOAT_MAX:
            return column, None
        return _present(list(map(_count_value, column)), weights)


# -- numbers kept as a record of their values: discretized and kde -------------------

class _Recorded(_Kind):
    """Finite real numbers counted value by value (a _ValueRecord); with
    significant_digits, values are rounded before they are counted, which bounds the
    record's size."""

    distribution = _ValueRecord
    numeric = True
    parameters = {
        "significant_digits": _Parameter(None, _integer_at_least(1, allow_none=True), (
            int, "discretized and kde columns: round values to this many significant "
            "digits before counting them (default: keep them exactly)")),
    }
    convert_cell = staticmethod(_number_cell)
    __slots__ = ()

    def read(self, column, weights, params):
        """The present values as floats, rounded when significant_digits says so."""
        values, weights = _present_reals(column, weights)
        rounding = _round_to_digits(params.get("significant_digits"))
        if rounding is not None:
            values = list(map(rounding, values))
        return values, weights


class _Discretized(_Recorded):
    """Numbers cut into bins by Fayyad and Irani's MDL criterion (_MDLBins)."""

    name = "discretized"
    distribution = _MDLBins
    __slots__ = ()


def _bandwidth_parameter(value):
    """The check of bandwidth=: "scott", "silverman" or a number > 0."""
    if value in ("scott", "silverman"):
        return None
    number = _number(value)
    if isinstance(value, str) or number is None or not isfinite(number) or number <= 0:
        return '"scott", "silverman" or a number > 0'
    return None


def _bandwidth_option(text):
    """--bandwidth: scott, silverman or a number."""
    return text if text in ("scott", "silverman") else _cli_number(text)


class _Kde(_Recorded):
    """Numbers modelled by a kernel density estimate per class (_KernelDensity)."""

    name = "kde"
    distribution = _KernelDensity
    parameters = dict(_Recorded.parameters, bandwidth=_Parameter(
        "scott", _bandwidth_parameter, (_bandwidth_option, "kde columns: scott, silverman "
                                        "(as scipy computes them) or a number, the kernel's "
                                        "standard deviation (default scott)")))
    __slots__ = ()


# The registry of feature kinds: the one list that features=, the model file and the
# command line's --KIND COLS options read.
_KINDS = {kind.name: kind for kind in (_Categorical, _Gaussian, _Text, _Ignored, _Poisson,
                                       _Discretized, _Kde)}


def _infer_kind(columns, numeric):
    """The kind of a feature from its values: ``numeric`` (a kind name) when every
    non-missing value is a real number (not bool), "categorical" otherwise, None when
    all are missing."""
    types = set()
    for column in columns:
        types.update(map(type, column))
    types.discard(type(None))
    from numbers import Real
    odd = {t for t in types if not issubclass(t, Real) or issubclass(t, bool)}
    if odd and any(not _is_missing(v) for column in columns for v in column
                   if type(v) in odd):
        return "categorical"
    if any(not _is_missing(v) for column in columns for v in column):
        return numeric
    return None                               # every value is missing
