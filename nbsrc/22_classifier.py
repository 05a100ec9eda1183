# ----------------------------------------------------------------------------------
# The classifiers
# ----------------------------------------------------------------------------------

class _Classes(list):
    """classes_: a list, with the shape, ndim and size that scikit-learn's tools
    (cross_val_predict, for one) read off a NumPy array of classes."""

    __slots__ = ()

    @property
    def shape(self):
        """(number of classes,)."""
        return (len(self),)

    @property
    def ndim(self):
        """1."""
        return 1

    @property
    def size(self):
        """The number of classes."""
        return len(self)


class NotFittedError(NaiveBayesError, AttributeError):
    """A model used before fit: a method (predict) or a fitted attribute (classes_,
    class_count_, feature_names_, feature_kinds_, n_features_in_).  An AttributeError
    too, so that hasattr(model, "classes_") is False before fit, as scikit-learn
    expects of fitted attributes, and getattr(model, "classes_", None) is None.  When
    scikit-learn is loaded, the error raised is also its NotFittedError.

    >>> try:
    ...     NaiveBayes().classes_
    ... except NotFittedError as error:
    ...     print(error)
    classes_: this NaiveBayes is not fitted yet; call fit(X, y) first
    """


_NotFittedError = NotFittedError         # the name it had before it was public


def _not_fitted(message, call, attribute=None):
    """The NotFittedError for a model used before fit: when scikit-learn is loaded,
    also its NotFittedError (that scikit-learn's tools catch), without importing it.
    ``attribute``: the fitted attribute asked for (AttributeError's name)."""
    exceptions = sys.modules.get("sklearn.exceptions")
    base = getattr(exceptions, "NotFittedError", None)
    if base is None:
        error = NotFittedError(message, call=call)
    else:
        error_class = _NOT_FITTED_CLASSES.get(base)
        if error_class is None:
            error_class = _NOT_FITTED_CLASSES[base] = type(
                "NotFittedError", (NotFittedError, base), {"__module__": __name__,
                                                           "__doc__": NotFittedError.__doc__})
        error = error_class(message, call=call)
    if attribute is not None:
        error.name = attribute            # as Python's own AttributeError has it
    return error


_NOT_FITTED_CLASSES = {}


class _ModelState:
    """What a classifier has learned (statistics, the label column's name), the
    compiled model built from it, and the lock that guards both.  One object, so
    that predicting (which may build the compiled model) changes no attribute of the
    classifier, as scikit-learn expects."""

    __slots__ = ("statistics", "target", "compiled", "lock", "numpy_labels", "training")

    def __init__(self, statistics=None, target=None):
        import _thread                    # built in: no import cost
        self.statistics = statistics
        self.target = target
        self.compiled = None
        self.lock = _thread.allocate_lock()
        self.numpy_labels = False         # fitted on NumPy or pandas labels
        # (statistics, their class counts, {"sha256": hex}): the fingerprint of the
        # data file the command line fitted these statistics on (see _training_data)
        self.training = None


def _numpy_input(X):
    """True when X is a NumPy array or a pandas object: scikit-learn's convention is
    then NumPy output, and NumPy is surely importable."""
    module = type(X).__module__ or ""
    return module.startswith("numpy") or module.startswith("pandas")


def _as_array(values, numpy_output):
    numpy = _loaded_numpy() if numpy_output else None
    return values if numpy is None else numpy.asarray(values)


_PREDICT_BLOCK = 4096            # rows predicted at a time
_SEQUENCES = frozenset((list, tuple))


def _check_columns(columns, names, call):
    """A DataFrame (or named array) given to a prediction must hold every column the
    model was fitted on: a missing one would silently count as missing values."""
    present = set(columns)
    lacking = [name for name in names if name not in present]
    if lacking:
        raise NaiveBayesError("%s: X has no column %s, which the model was fitted on; "
                              "expected the columns %s (pass None or NaN for a value that "
                              "is missing)" % (call, _shown(lacking[0] if len(lacking) == 1
                                                            else lacking),
                                               _shown(list(names), 200)),
                              call=call, argument="X")


def _warn_unknown_names(unknown, call):
    """One warning for dict rows whose keys the model never saw in training (a typo
    counts as a missing feature, silently, otherwise)."""
    import warnings
    more = " and %d more" % (len(unknown) - 10) if len(unknown) > 10 else ""
    warnings.warn("%s: X has keys the model never saw in training, ignored: %s%s"
                  % (call, _shown(unknown[:10], 200), more), UserWarning, stacklevel=4)


def _value_family(value):
    """The sort of a categorical value, for the warnings about values of another sort
    than training's: "text", "a number" (ints, floats and bools: equal numbers are the
    same value whatever their type) or the type's name."""
    if isinstance(value, str):
        return "text"
    if isinstance(value, (int, float)) or type(value).__name__ in ("Fraction", "Decimal"):
        return "a number"
    return type(value).__name__


def _value_families(statistics):
    """{position: (families, examples, types)} of the categorical features: the sorts
    of value training saw, a few of its values, and the types of its values (a value
    of one of those types is of a sort seen: the quick test)."""
    found = {}
    for j, feature in enumerate(statistics.features.values()):
        seen = getattr(feature.stats, "seen", None)
        if feature.name == "categorical" and seen:
            found[j] = (frozenset(map(_value_family, seen)), list(islice(seen, 3)),
                        frozenset(map(type, seen)) | {type(None)})
    return found


_TYPE_CHECKED_ROWS = 20       # rows of a prediction call whose values' sorts are checked


def _warn_other_sorts(compiled, rows, call):
    """One warning when a categorical feature is given a value of a sort its training
    values never were (a float where training saw numbers written as text): no such
    value matches one seen, so the feature says nothing about the row.  ``rows``: the
    first rows of the call, as given."""
    if compiled.value_families:
        for row in islice(rows, _TYPE_CHECKED_ROWS):
            try:
                values = compiled.positional(row)
            except (_RowError, TypeError, IndexError):
                return                    # the prediction itself will say what is wrong
            if _warned_other_sort(compiled, values, call, 5):
                return


def _warned_other_sort(compiled, values, call, stacklevel=4):
    """Warn (see _warn_other_sorts) for the first value of one positional row that is
    of another sort than its feature's training values; True when it warned
    (``stacklevel``: the caller's frame for the warning)."""
    known = compiled.sorts_checked
    row_types = tuple(map(type, values))
    if row_types in known:                # (one row's types are checked once)
        return False
    by_type = True                        # every value's type one its training saw
    for j, (sorts, examples, types) in compiled.value_families.items():
        value = values[j]
        if type(value) in types:
            continue
        by_type = False                   # (a float NaN is missing, another float not)
        if _is_missing(value) or _value_family(value) in sorts:
            continue
        import warnings
        warnings.warn(
            "%s: feature %r is %s (%s), but its training values were %s (%s): none "
            "matches, so the feature says nothing; give it values of the sort it was "
            "fitted on%s" % (call, compiled.names[j], _shown(value, 30),
                             _value_family(value), " or ".join(sorted(sorts)),
                             _clip(", ".join(map(_shown, examples)), 40),
                             " (fit on numbers: naive_bayes.read_csv reads them)"
                             if sorts == {"text"} and _number(value) is not None
                             else ""), UserWarning, stacklevel=stacklevel)
        return True
    if by_type and len(known) < 64:
        known.add(row_types)
    return False


def _warn_numbers_as_text(statistics, fitting, call):
    """One warning for inferred categorical features whose every training value is a
    number written as text ("5.1", as csv.DictReader gives them): each number became
    a category of its own; naming the columns and both fixes.  (Not for CategoricalNB,
    whose features are categories by choice, nor for codes with leading zeros.)"""
    if fitting.default_kind is not None:   # CategoricalNB: categories by choice
        return
    import re
    code = re.compile(r"[+-]?0\d").match          # "007", a code rather than a number
    found = []
    for name, feature in statistics.features.items():
        seen = getattr(feature.stats, "seen", None)
        if feature.name != "categorical" or name in fitting.kinds or not seen or \
                not _STR.issuperset(map(type, seen)) or any(map(code, seen)):
            continue
        try:
            if all(map(isfinite, map(float, seen))):
                found.append(name)
        except ValueError:
            continue
    if found:
        import warnings
        names = ", ".join(map(repr, found[:10])) + (" and %d more" % (len(found) - 10)
                                                    if len(found) > 10 else "")
        warnings.warn(
            "%s: %s %s %s numbers written as text (%s): read as categories, each number "
            "a value of its own; for numbers, convert them (float()) or read the file "
            "with naive_bayes.read_csv; to keep them as categories, declare features={%s}"
            % (call, "feature" if len(found) == 1 else "features", names,
               "holds" if len(found) == 1 else "hold",
               _shown(next(iter(statistics.features[found[0]].stats.seen))),
               ", ".join("%r: \"categorical\"" % name for name in found)),
            UserWarning, stacklevel=4)


def _label_name(y, current):
    """The name of the label column: a pandas Series' name, else what it was."""
    name = getattr(y, "name", None) if hasattr(y, "to_numpy") else None
    return name if isinstance(name, str) else current


def _check_discrete_labels(class_count, call):
    """Refuse a target that looks continuous: more than 10 labels, all real numbers,
    some of them not whole (a satisfaction score, a price): a class per value is not
    what was meant."""
    labels = list(class_count)
    if len(labels) <= 10:
        return
    numbers = [_number(label) for label in labels if not isinstance(label, bool)]
    if len(numbers) == len(labels) and None not in numbers and \
            any(not float(n).is_integer() for n in numbers if isfinite(n)):
        raise NaiveBayesError(
            "%s: y looks continuous (%d distinct numbers such as %s); expected class "
            "labels: cut the numbers into classes first (or give them as strings to "
            "make each value a class)" % (call, len(labels), _shown(labels[:3])),
            call=call, argument="y")


def _check_classes_argument(classes, known, call):
    """partial_fit's classes= as an ordered set of labels, or None."""
    if classes is None:
        return None
    if isinstance(classes, (str, bytes, Mapping)):
        raise NaiveBayesError("%s: classes=%s; expected a list of labels"
                              % (call, _shown(classes)), call=call, argument="classes")
    try:
        labels = list(classes)
        declared = dict.fromkeys(labels)
    except TypeError:
        raise NaiveBayesError("%s: classes=%s; expected a list of hashable labels"
                              % (call, _shown(classes)), call=call,
                              argument="classes") from None
    if not declared or any(_is_missing(label) for label in declared):
        raise NaiveBayesError("%s: classes=%s; expected a non-empty list of labels"
                              % (call, _shown(classes)), call=call, argument="classes")
    if known is not None:
        missing = [label for label in known if label not in declared]
        if missing:
            raise NaiveBayesError("%s: classes= leaves out %s, which the model already "
                                  "knows" % (call, _shown(missing)), call=call,
                                  argument="classes")
    return declared


# The most the rows may weigh together: the models compute with floats of the exact
# sums (N log N and the like), so a thousandth of the float range is kept as room
_WEIGHT_LIMIT = 1e305


def _check_total_weight(class_count, call, what):
    """NaiveBayesError when the rows weigh more than _WEIGHT_LIMIT together."""
    total = sum(class_count.values())
    if total > _WEIGHT_LIMIT:
        raise NaiveBayesError(
            "%s: %s adds up to %s over the rows, beyond the %s the models compute with; "
            "expected smaller weights (scale sample_weight or class_weight down: only "
            "their ratios matter)" % (call, what, "%.3g" % total if total < 1e308 else
                                      "more than 1e308", "%g" % _WEIGHT_LIMIT),
            call=call, argument="sample_weight")


# Parameters two models may differ in and still merge (the merged model takes the
# first one's): the memory budget says nothing about the data.
_MERGE_FREE = ("max_memory",)


class _Classifier:
    """What NaiveBayes and AODE share: the scikit-learn estimator protocol, fitting by
    counting into the family's statistics, every prediction from the compiled model's
    joint log-likelihoods, explanations, merging and the model file.

    Thread safety: predictions may run in many threads at once.  fit, partial_fit,
    merge's inputs and set_params may run beside them: an update changes the model
    under a lock, and the compiled model that predictions use is built under the same
    lock from a consistent state, so a prediction that overlaps an update sees the
    model before or after it, and every prediction that starts after the update
    returns sees the new model.
    """

    _statistics_class = _NaiveStatistics  # the model family (see "Model families")
    _parameters = {}                      # name -> _Parameter, in __init__ order
    _default_kind = None                  # CategoricalNB and GaussianNB fix the kind
    _allowed_kinds = None                 # the kinds the family can use (None: all)
    _command_name = None                  # its name for the command line's --model
    _kind_map = None                      # kinds the family reads as others: {kind: kind}
    _structure_search = None              # a network family's (_STRUCTURE_SEARCHES)
    # Gaussian variances floored by var_smoothing times each feature's own variance
    # ("own"), or times the largest of any Gaussian feature ("largest": scikit-learn's)
    _variance_floor = "own"
    # merge(a, b) is the model of fitting both training sets (cross_validate relies on it)
    _merge_is_fit = True
    _estimator_type = "classifier"        # scikit-learn before 1.6

    def __init_subclass__(cls, **options):
        """A family of Bayesian networks declares its structure search (one of
        _STRUCTURE_SEARCHES): a family that forgets it fails here, when it is defined."""
        super().__init_subclass__(**options)
        if issubclass(cls._statistics_class, _NetworkStatistics) and \
                cls._structure_search not in _STRUCTURE_SEARCHES:
            raise TypeError("%s: a family of Bayesian networks declares _structure_search, "
                            "one of %s" % (cls.__name__, ", ".join(map(repr,
                                                                    _STRUCTURE_SEARCHES))))

    def _new_statistics(self):
        """Empty statistics of the model's family."""
        return self._statistics_class()

    @classmethod
    def _compiling(cls, params):
        """What the compiled model is built with: the parameters, and what the family
        declares ("variance_floor"; "structure_search", a network family's search)."""
        params = dict(params, variance_floor=cls._variance_floor)
        if cls._structure_search is not None:
            params["structure_search"] = cls._structure_search
        return params

    def _start(self):
        """The state of a new, unfitted model (parameters are checked when used, as
        scikit-learn wants)."""
        self._state = _ModelState()

    # -- the scikit-learn estimator protocol ------------------------------------

    def get_params(self, deep=True):
        """The constructor parameters, as a dict.

        >>> NaiveBayes(alpha=0.5).get_params()["alpha"]
        0.5
        """
        return {name: getattr(self, name) for name in self._parameters}

    def set_params(self, **params):
        """Set parameters.  Smoothing, priors and the other parameters that shape
        probabilities rather than counts take effect at once, even on a fitted or
        loaded model, because it keeps counts rather than probabilities; features and
        categories apply at the next fit.  Values are checked when the model is next
        used (as scikit-learn wants), with an error naming the parameter.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> round(model.predict_proba_one(["b"])[1], 4)      # (1/3 * 2/3) / (2/3 * 1/4 + 1/3 * 2/3)
        0.5714
        >>> round(model.set_params(alpha=0).predict_proba_one(["b"])[1], 4)
        1.0
        """
        for name in params:
            if name not in self._parameters:
                raise NaiveBayesError("set_params(): unknown parameter %r; expected one "
                                      "of %s" % (name, ", ".join(self._parameters)),
                                      call="set_params()")
        with self._state.lock:
            for name, value in params.items():
                setattr(self, name, value)
            self._state.compiled = None
        return self

    def __sklearn_tags__(self):
        """Tags for scikit-learn 1.6 and later.  scikit-learn is not a dependency: it
        is imported here, when scikit-learn itself asks for the tags."""
        import importlib
        tags = importlib.import_module("sklearn.utils")
        return tags.Tags(estimator_type="classifier",
                         target_tags=tags.TargetTags(required=True),
                         classifier_tags=tags.ClassifierTags(),
                         input_tags=tags.InputTags(allow_nan=True, categorical=True,
                                                   string=True, dict=True))

    def __sklearn_is_fitted__(self):
        """True once fitted (scikit-learn's check_is_fitted asks)."""
        return self._state.statistics is not None

    def __repr__(self):
        """The class and the parameters that differ from their defaults."""
        changed = ["%s=%r" % (name, getattr(self, name))
                   for name, parameter in self._parameters.items()
                   if getattr(self, name) is not parameter.default
                   and getattr(self, name) != parameter.default]
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))

    def __getstate__(self):
        """For pickle: the parameters and the statistics, not the compiled model."""
        state = dict(self.__dict__)
        learned = state.pop("_state")         # the compiled model is rebuilt on demand
        state["_learned"] = (learned.statistics, learned.target, learned.numpy_labels,
                             self._training_data())
        return state

    def __setstate__(self, state):
        """From pickle: a fresh state around the statistics."""
        state = dict(state)
        learned = state.pop("_learned", (None, None, False))
        statistics, target, numpy_labels = learned[:3]
        self.__dict__.update(state)
        self._state = _ModelState(statistics, target)
        self._state.numpy_labels = numpy_labels
        self._record_training_data(learned[3] if len(learned) > 3 else None)

    def _training_data(self):
        """The fingerprint of the data file the model was fitted on, {"sha256": the
        SHA-256 of its bytes as read}, which the command line's fit records and the
        model file keeps; None when it is unknown, or when the model has learned or
        forgotten rows since (a new fit, partial_fit, forget: its statistics or class
        counts are no longer those it was recorded with; a merge keeps none)."""
        record = self._state.training
        if record is None:
            return None
        statistics, counts, data = record
        if self._state.statistics is not statistics or statistics.class_count != counts:
            return None
        return data

    def _record_training_data(self, data):
        """Remember the fingerprint of the data file of the statistics the model holds
        now (None: forget it)."""
        statistics = self._state.statistics
        self._state.training = None if data is None or statistics is None else (
            statistics, dict(statistics.class_count), dict(data))

    # -- fitted attributes --------------------------------------------------------

    def _fitted(self, call=None, attribute=None):
        """The statistics; NotFittedError (a NaiveBayesError and an AttributeError)
        before fit, naming the call or the fitted attribute asked for."""
        statistics = self._state.statistics
        if statistics is None:
            where = call if call is not None else attribute
            raise _not_fitted("%sthis %s is not fitted yet; call fit(X, y) first"
                              % ("" if where is None else where + ": ", type(self).__name__),
                              call, attribute)
        return statistics

    @property
    def classes_(self):
        """Class labels, sorted when orderable, else in first-seen order: a list (with
        the .shape scikit-learn's tools read), or a NumPy array when the labels given to
        fit were a NumPy array or pandas Series, as scikit-learn's tools require.

        >>> NaiveBayes().fit([["a"], ["b"]], ["yes", "no"]).classes_
        ['no', 'yes']
        """
        classes = self._fitted(attribute="classes_").classes()
        numpy = _loaded_numpy() if self._state.numpy_labels else None
        if numpy is not None:             # scikit-learn's tools index and compare it
            labels = numpy.asarray(classes)
            return labels if labels.ndim == 1 else numpy.asarray(classes, dtype=object)
        return _Classes(classes)

    @property
    def class_count_(self):
        """Weighted number of training rows per class, in classes_ order.

        >>> model = NaiveBayes().fit([["a"], ["b"], ["c"]], [1, 0, 1], sample_weight=[2, 1, 0.5])
        >>> model.class_count_
        [1, 2.5]
        """
        statistics = self._fitted(attribute="class_count_")
        return [_plain(statistics.class_count[c]) for c in statistics.classes()]

    @property
    def feature_names_(self):
        """Feature names in column order: positions for sequence rows, keys (in
        first-seen order) for mappings.

        >>> NaiveBayes().fit([["a", 1.0]], [0]).feature_names_
        [0, 1]
        """
        return self._fitted(attribute="feature_names_").names()

    @property
    def feature_kinds_(self):
        """{feature name: kind}.  A feature that has had no values yet counts as
        "gaussian" (all of its zero values are numbers); it contributes nothing, and
        its first values decide its kind.

        >>> NaiveBayes().fit([{"city": "Oslo", "temp": -3.5}], ["cold"]).feature_kinds_
        {'city': 'categorical', 'temp': 'gaussian'}
        """
        return self._fitted(attribute="feature_kinds_").kinds()

    @property
    def n_features_in_(self):
        """The number of features (scikit-learn's name for len(feature_names_))."""
        return len(self._fitted(attribute="n_features_in_").names())

    @property
    def target_(self):
        """The name of the label column, when known (a pandas Series' name, or the
        command line's --target); it is kept in the model file.  Settable."""
        return self._state.target

    @target_.setter
    def target_(self, name):
        """Set the label column's name."""
        self._state.target = name

    @property
    def training_data_(self):
        """The fingerprint of the data file the model was fitted on, {"sha256": the
        SHA-256 of the file's bytes}, when known: the command line's fit records it
        (a Table's sha256 is the same), and evaluate and report on that file then say
        that they are in-sample.  None before fit, and once the model has learned or
        forgotten rows since (fit, partial_fit, forget; a merge keeps none).
        Settable, on a fitted model, as a dict {"sha256": 64 hexadecimal digits} or None."""
        return self._training_data()

    @training_data_.setter
    def training_data_(self, data):
        """Record the fingerprint of the data the model holds now was fitted on."""
        if data is not None:
            digest = data.get("sha256") if isinstance(data, Mapping) else None
            if not (isinstance(data, Mapping) and list(data) == ["sha256"] and
                    type(digest) is str and len(digest) == 64 and
                    not digest.strip("0123456789abcdef")):
                raise NaiveBayesError("training_data_ is %s; expected {'sha256': 64 "
                                      "lower-case hexadecimal digits} or None"
                                      % _describe(data), argument="training_data_")
            self._fitted(attribute="training_data_")
        self._record_training_data(data)

    # -- fitting ------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None, progress=False):
        """Learn from rows X and labels y, forgetting anything learned before.

        X, y and sample_weight may be any iterables (generators, NumPy arrays,
        a pandas DataFrame for X); they are read once and no row is kept.  Feature
        kinds are inferred from all rows of a list, or from the first 10,000 rows of
        a generator.  Returns self.

        ``progress``: True shows each step of the work on stderr (the rows counted,
        AutoBayes' folds; on a terminal one line rewritten in place), False nothing,
        and a callable is called with each step, a ProgressStep.  A family whose
        model is searched or tabled when first used (TAN's and BayesNet's
        structures, AODE's pair tables) reports that work in the call that first
        uses it: evaluate and cross_validate take progress= too.  The listener is
        the calling thread's, and the one before it is back when fit returns or
        raises.

        >>> model = NaiveBayes().fit([["red", 2.5], ["blue", 0.4]], ["apple", "plum"])
        >>> model.classes_, model.feature_kinds_
        (['apple', 'plum'], {0: 'categorical', 1: 'gaussian'})
        """
        with _listening(progress, "fit()"):
            statistics = self._learn(X, y, sample_weight, self._new_statistics(), "fit()")
        with self._state.lock:
            self._state.statistics = statistics
            self._state.compiled = None
            self._state.target = _label_name(y, self._state.target)
            self._state.numpy_labels = _numpy_input(y)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Learn from more rows, adding to what is known (new classes, values and
        features are welcome).  Counts and sums are exact, so any batching gives
        exactly the model of one fit, provided each feature's kind is the same in
        every batch (declare it with features= if a batch could make it look
        otherwise).  ``classes``, as in scikit-learn, lists every label there will
        be: labels outside it are errors, and those not yet seen get a count of 0.
        A failed call leaves the model as it was.

        >>> model = CategoricalNB().partial_fit([["a"]], [0]).partial_fit([["b"]], [1])
        >>> model.classes_, model.predict([["b"]])
        ([0, 1], [1])
        """
        with self._state.lock:
            base = self._state.statistics
            batch = base.skeleton() if base is not None else self._new_statistics()
            known = dict(base.class_count) if base is not None else None
        batch = self._learn(X, y, sample_weight, batch, "partial_fit()", known, classes,
                            base=base)
        _check_memory(self.get_params(), "partial_fit()", base, batch)
        with self._state.lock:
            if self._state.statistics is None:
                self._state.statistics = batch
                self._state.numpy_labels = _numpy_input(y)
            else:
                self._state.statistics.absorb(batch)
                if list(batch.features) != list(self._state.statistics.features):
                    # the batch brought names: it holds every one, in the order
                    # _mapping_order gives mappings
                    self._state.statistics.arrange(list(batch.features))
            self._state.compiled = None
            self._state.target = _label_name(y, self._state.target)
        return self

    def _learn(self, X, y, sample_weight, statistics, call, known=None, classes=None,
               check_names=True, class_weighted=False, base=None):
        """Count X, y into statistics, chunk by chunk; raise before anything is kept.
        ``known``: the class counts of the model that partial_fit adds to (``base``:
        its statistics, whose memory the budget counts as taken);
        ``check_names``: look for misspelt names in features= and categories=;
        ``class_weighted``: sample_weight already holds the class weights."""
        params = self.get_params()
        _check_params(self._parameters, params, call)
        class_weight = None if class_weighted else params["class_weight"]
        if class_weight == "balanced":
            y, sample_weight = self._balanced(y, sample_weight, call)
            class_weight = _balanced_class_weight(y, sample_weight, call)
        elif class_weight is not None:
            class_weight = {label: _number(w) for label, w in class_weight.items()}
        # NumPy input: a row of the wrong width is also told in scikit-learn's words
        fitting = _Fitting(call, params, self._default_kind, self._allowed_kinds,
                           type(self).__name__ if _numpy_input(X) else None,
                           kind_map=self._kind_map)
        if base is not None and hasattr(base, "memory_estimate"):
            fitting.in_use = base.memory_estimate(params)[0]
        declared_classes = _check_classes_argument(classes, known, call)
        if hasattr(X, "columns") and hasattr(X, "itertuples"):     # a DataFrame's order
            fitting.columns = list(X.columns)
        X = _rows_of(X, call)
        rows_in = _iterate(X, "X", "an iterable of rows", call)
        labels_in = _iterate(_labels_of(y, call), "y", "an iterable of labels", call)
        if sample_weight is not None and _as_numpy(sample_weight, "sample_weight",
                                                   call) is not None:
            sample_weight = _as_numpy(sample_weight, "sample_weight", call).tolist()
        weights_in = None if sample_weight is None else _iterate(
            sample_weight, "sample_weight", "an iterable of numbers", call)
        total = len(X) if hasattr(X, "__len__") and hasattr(X, "__getitem__") else None
        size = _CHUNK if total is None else max(1, total)
        # fit's rows are a step of its progress; partial_fit's batches are the caller's
        # (the command line shows their rows itself)
        counting = call == "fit()"
        start = 0
        while True:
            rows = list(islice(rows_in, size))
            labels = list(islice(labels_in, size))
            weights = None if weights_in is None else list(islice(weights_in, size))
            for other, items, iterator, what in (
                    ("y", labels, labels_in, "labels"),
                    ("sample_weight", weights, weights_in, "weights")):
                if items is not None and len(items) != len(rows):
                    raise NaiveBayesError(
                        "%s: X has %s rows but %s has %s %s; expected one per row"
                        % (call, _count_text(start + len(rows), rows_in), other,
                           _count_text(start + len(items), iterator), what),
                        call=call, argument=other)
            if not rows:
                break
            if class_weight is not None:
                weights = _class_weighted(labels, weights, class_weight, start, call)
            if declared_classes is not None:
                for i, label in enumerate(labels):
                    if label not in declared_classes:
                        raise _row_error(call, "y", start + i, "is %s, not among classes=%s"
                                         % (_shown(label), _shown(list(declared_classes))))
            statistics.count(rows, labels, weights, start, fitting)
            start += len(rows)
            if counting:
                _progress("counting rows", start, total)
        if counting:
            _progress("counting rows")
        if start == 0:
            raise NaiveBayesError("%s: X is empty; expected at least one row" % call,
                                  call=call, argument="X")
        for label in declared_classes or ():
            statistics.class_count.setdefault(label, 0)
        if declared_classes is not None and hasattr(statistics, "declare_classes"):
            statistics.declare_classes(declared_classes)
        class_count = dict(known or {})
        for label, count in statistics.class_count.items():
            class_count[label] = class_count.get(label, 0) + count
        if not any(class_count.values()):
            raise NaiveBayesError("%s: sample_weight %sis zero for every row; expected a "
                                  "positive total weight" % (call, "" if class_weight is None
                                                             else "times class_weight "),
                                  call=call, argument="sample_weight")
        _check_total_weight(class_count, call, "sample_weight" if class_weight is None
                            else "sample_weight times class_weight")
        _check_class_prior(params.get("class_prior"), class_count, call)
        _check_discrete_labels(class_count, call)
        if known is None and check_names:
            _check_declared_names(params, fitting.seen, call, whole=call == "fit()")
            _warn_numbers_as_text(statistics, fitting, call)
        return statistics

    def _balanced(self, y, sample_weight, call):
        """(labels, weights) as lists, for class_weight="balanced", whose weights need
        every label first: only fit has them all."""
        if call != "fit()":
            raise NaiveBayesError(
                '%s: class_weight="balanced" weighs the rows by the class counts of one '
                "whole fit, which %s cannot know; expected fit(), or a {label: weight} "
                "class_weight (n / (K * n_c) from all the labels)" % (call, call[:-2]),
                call=call, argument="class_weight")
        labels = list(_iterate(_labels_of(y, call), "y", "an iterable of labels", call))
        if sample_weight is not None:
            sample_weight = list(_iterate(sample_weight, "sample_weight",
                                          "an iterable of numbers", call))
        return labels, sample_weight

    # -- prediction -----------------------------------------------------------------

    def _model(self, call):
        """The compiled model, built on first use after each change."""
        compiled = self._state.compiled
        if compiled is not None:
            return compiled
        with self._state.lock:
            compiled = self._state.compiled
            if compiled is None:
                if self._state.statistics is None:
                    raise _not_fitted("%s: this %s is not fitted yet; call fit(X, y) first"
                                      % (call, type(self).__name__), call)
                params = self._compiling(self.get_params())
                _check_params(self._parameters, params, call)
                _check_class_prior(params.get("class_prior"), self._state.statistics.class_count,
                                   call)
                try:
                    compiled = self._state.statistics.compile(params)
                except _OverBudget as error:
                    raise NaiveBayesError("%s: %s" % (call, error), call=call) from None
                compiled.value_families = _value_families(self._state.statistics)
                compiled.sorts_checked = set()       # rows' types found of known sorts
                self._state.compiled = compiled
        return compiled

    def _joints(self, X, call, report=None):
        """Per-row joint log-likelihoods, and the compiled model that made them.

        Rows come in blocks; a block of lists or tuples of the right width (checked
        by builtins) goes to compiled.joints whole, anything else row by row.
        ``report``: a stage for _progress, told the rows done after each block.
        """
        compiled = self._model(call)
        if hasattr(X, "columns") and hasattr(X, "itertuples") and \
                self._state.statistics.layout == "mapping":
            _check_columns(X.columns, compiled.names, call)
        rows = _iterate(_rows_of(X, call), "X", "an iterable of rows", call)
        total = len(X) if report is not None and hasattr(X, "__len__") else None
        width = {compiled.width}
        out = []
        start = 0
        unknown = None
        while True:
            block = list(islice(rows, _PREDICT_BLOCK))
            if not block:
                if report is not None:
                    _progress(report)
                if unknown:
                    _warn_unknown_names(unknown, call)
                return out, compiled
            if start == 0:
                _warn_other_sorts(compiled, block, call)
            if unknown is None and block and type(block[0]) is dict:
                known = set(compiled.names)
                unknown = [name for name in dict.fromkeys(chain.from_iterable(block))
                           if name not in known]
            try:
                if set(map(type, block)) <= _SEQUENCES and set(map(len, block)) == width:
                    out.extend(compiled.joints(block))
                else:
                    out.extend(map(compiled.joint, map(compiled.positional, block)))
            except _RowError:             # find the row, for the message
                for i, row in enumerate(block):
                    try:
                        compiled.joint(compiled.positional(row))
                    except _RowError as error:
                        raise _row_error(call, "X", start + i,
                                         self._reason(error, _numpy_input(X))) from None
                raise
            start += len(block)
            if report is not None:
                _progress(report, start, total)

    def _reason(self, error, numpy_input=False):
        """A _RowError's text; a row of the wrong width is also told the features in
        their order and how to match values by name (a file's columns may be in
        another order), or, for NumPy input, in scikit-learn's words."""
        if error.width is None:
            return str(error)
        if numpy_input:
            return "%s (X has %d features, but %s is expecting %d features as input)" % (
                error, error.width, type(self).__name__, self._model("").width)
        return str(error) + _order_hint(self._model("").names)

    def _joint_one(self, x, call):
        """One row's joint log-likelihoods and the compiled model."""
        compiled = self._state.compiled
        if compiled is None:
            compiled = self._model(call)
        try:
            values = compiled.positional(x)
            if compiled.value_families:
                _warned_other_sort(compiled, values, call)
            return compiled.joint(values), compiled
        except _RowError as error:
            reason = self._reason(error, _numpy_input(x))
            raise NaiveBayesError("%s: x%s" % (call, reason if reason.startswith(",")
                                               else " " + reason),
                                  call=call, argument="x", reason=reason) from None

    def predict_joint_log_proba(self, X):
        """log P(c) + sum_j log P(x_j | c) per row, columns in classes_ order.

        >>> model = CategoricalNB(alpha=0).fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(math.exp(v), 4) for v in row] for row in model.predict_joint_log_proba([["a"]])]
        [[0.6667, 0.0]]
        """
        joints, _ = self._joints(X, "predict_joint_log_proba()")
        if _InfiniteJoint in set(map(type, joints)):
            joints = [list(joint) for joint in joints]
        return _as_array(joints, _numpy_input(X))

    def predict_log_proba(self, X):
        """log P(c | x) per row, columns in classes_ order.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(v, 4) for v in row] for row in model.predict_log_proba([["b"]])]
        [[-0.8473, -0.5596]]
        """
        joints, _ = self._joints(X, "predict_log_proba()")
        return _as_array(_posteriors(joints, logs=True), _numpy_input(X))

    def predict_proba(self, X):
        """P(c | x) per row, columns in classes_ order; every row sums to 1.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> [[round(p, 4) for p in row] for row in model.predict_proba([["a"], [None]])]
        [[0.8182, 0.1818], [0.6667, 0.3333]]
        """
        joints, _ = self._joints(X, "predict_proba()")
        return _as_array(_posteriors(joints), _numpy_input(X))

    def predict(self, X):
        """The most probable class of each row (ties go to the earlier class), or the
        class the decision rules choose (thresholds, costs, reject_below).

        >>> GaussianNB().fit([[1.0], [1.5], [4.0], [4.5]], list("aabb")).predict([[1.2], [3.9]])
        ['a', 'b']
        """
        labels = self._predict(X, "predict()")
        if _numpy_input(X) and self.reject_below is not None and \
                len(set(map(type, labels))) > 1:  # the reject label beside classes of
            numpy = _loaded_numpy()               # another type: as they are
            return numpy.array(labels + [None], dtype=object)[:-1]
        return _as_array(labels, _numpy_input(X))

    def _predict(self, X, call):
        """The predicted labels of the rows of X."""
        joints, compiled = self._joints(X, call)
        decision = self._decision(compiled.classes, call)
        if decision is not None:
            return decision.labels(_posteriors(joints))
        return list(map(compiled.classes.__getitem__, _best(joints)))

    def _decision(self, classes, call):
        """The decision rules set, checked against the classes (a _Decision), or None
        when none is set: predict is the argmax."""
        if self.thresholds is None and self.costs is None and self.reject_below is None:
            return None
        return _Decision(classes, self.get_params(), call)

    def predict_one(self, x):
        """The most probable class of one row, or the decision rules' choice.

        >>> CategoricalNB().fit([["a"], ["b"]], ["p", "q"]).predict_one(["b"])
        'q'
        """
        joint, compiled = self._joint_one(x, "predict_one()")
        decision = self._decision(compiled.classes, "predict_one()")
        if decision is not None:
            return decision.labels([_posterior(joint)])[0]
        return compiled.classes[_best([joint])[0]]

    def predict_proba_one(self, x):
        """{label: P(label | x)} for one row.

        >>> proba = CategoricalNB().fit([["a"], ["b"]], ["p", "q"]).predict_proba_one({0: "b"})
        >>> {label: round(p, 4) for label, p in proba.items()}
        {'p': 0.3333, 'q': 0.6667}
        """
        joint, compiled = self._joint_one(x, "predict_proba_one()")
        return dict(zip(compiled.classes, _posterior(joint)))

    def score(self, X, y, sample_weight=None):
        """Accuracy: the (weighted) fraction of rows whose prediction (predict's, the
        decision rules' when set: a rejected row counts as wrong) equals y.

        >>> CategoricalNB().fit([["a"], ["b"]], [0, 1]).score([["a"], ["b"], ["a"]], [0, 1, 1])
        0.6666666666666666
        """
        truth = list(_iterate(y, "y", "an iterable of labels", "score()"))
        predicted = self._predict(X, "score()")
        if len(truth) != len(predicted):
            raise NaiveBayesError("score(): X has %d rows but y has %d labels; expected "
                                  "one label per row" % (len(predicted), len(truth)),
                                  call="score()", argument="y")
        if not predicted:
            raise NaiveBayesError("score(): X is empty; expected at least one row",
                                  call="score()", argument="X")
        hits = [p == t for p, t in zip(predicted, truth)]
        if sample_weight is None:
            return sum(hits) / len(hits)
        weights = list(_iterate(sample_weight, "sample_weight", "an iterable of numbers",
                                "score()"))
        if len(weights) != len(hits):
            raise NaiveBayesError("score(): sample_weight has %d weights for %d rows"
                                  % (len(weights), len(hits)), call="score()",
                                  argument="sample_weight")
        weights, shift = _check_weights(weights, 0, "score()").scaled
        total = sum(weights)
        if not total:
            raise NaiveBayesError("score(): sample_weight is zero for every row; expected a "
                                  "positive total weight", call="score()",
                                  argument="sample_weight")
        hit = sum(w for w, hit in zip(weights, hits) if hit)
        if type(hit) is int and type(total) is int:
            return hit / total            # correctly rounded
        from fractions import Fraction    # weights spanning > 900 binades
        return float(Fraction(hit) / total)

    # -- what the model learned, and explanations ------------------------------------

    def explain(self, x):
        """How one row's joint log-likelihood is made up, feature by feature.

        Returns {"prior": {label: log P(c)}, "features": [{"feature", "value",
        "status", "log_likelihood": {label: log P(value | c)}}, ...]}, where status is
        "used", "unseen" (the Laplace fallback), "missing" or "ignored" (a feature
        declared "ignore" or never seen in training); missing and ignored features
        contribute 0.  The prior plus all contributions is the joint log-likelihood
        (where some are infinite, a point-mass density +inf or a zero probability
        -inf, they are counted rather than added, as predict_joint_log_proba counts
        them: the finite sum when the counts cancel, else +inf or -inf).  With a
        decision rule set (thresholds, costs, reject_below), "decision" says what it
        did: {"rule": "thresholds", "costs", "reject" or "argmax" (none changed the
        label), "argmax": the most probable class, "predicted": predict's label,
        "changed": whether they differ, "probability": the argmax's P(c | x)}.

        >>> model = CategoricalNB().fit([["a", "x"], ["b", "x"], ["a", "y"]], [1, 2, 1])
        >>> parts = model.explain({0: "a", 1: "z", 2: "?"})
        >>> [(f["feature"], f["status"]) for f in parts["features"]]
        [(0, 'used'), (1, 'unseen'), (2, 'ignored')]
        >>> joint = [parts["prior"][c] + sum(f["log_likelihood"][c] for f in parts["features"])
        ...          for c in model.classes_]
        >>> all(abs(a - b) < 1e-12 for a, b in zip(joint, model.predict_joint_log_proba(
        ...     [{0: "a", 1: "z", 2: "?"}])[0]))
        True
        """
        compiled = self._model("explain()")
        decision = self._decision(compiled.classes, "explain()")
        extra = []
        if isinstance(x, Mapping):
            known = set(compiled.names)
            extra = [(name, value) for name, value in x.items() if name not in known]
        try:
            parts = compiled.explain(compiled.positional(x), extra)
        except _RowError as error:
            reason = str(error)
            raise NaiveBayesError("explain(): x%s" % (reason if reason.startswith(",")
                                                      else " " + reason),
                                  call="explain()", argument="x", reason=reason) from None
        if decision is not None:
            joint, _ = self._joint_one(x, "explain()")
            parts["decision"] = decision.explain(_posterior(joint))
        return parts

    def most_informative_features(self, n=10):
        """The n (feature, value, score, favoured_label) tuples that best separate the
        classes, most informative first; printing them is the command line's job.

        Categorical: every known value, scored as nltk does by the largest likelihood
        ratio between two classes, log(max_c P(v|c) / min_c P(v|c)), favouring the
        class where it is most likely.  Gaussian and Poisson (value None): the largest
        Kullback-Leibler divergence KL(P_a || P_b) between two classes' distributions,
        the average log-likelihood ratio a value from class a gives for a over b.  All
        scores are in nats of log-likelihood ratio, so one ranking holds every kind.

        >>> model = CategoricalNB().fit([["a", "x"], ["b", "x"], ["a", "y"]], [1, 2, 1])
        >>> [(f, v, round(s, 3), c) for f, v, s, c in model.most_informative_features(2)]
        [(0, 'b', 0.981, 2), (0, 'a', 0.811, 1)]
        """
        compiled = self._model("most_informative_features()")
        if type(n) is not int or n < 0:
            raise NaiveBayesError("most_informative_features(): n=%r; expected an "
                                  "integer >= 0" % (n,), call="most_informative_features()")
        return compiled.informative()[:n]

    def tables(self):
        """The fitted conditional distributions, {feature name: table}: the public view
        of what the model learned (R naivebayes' tables(); scikit-learn's theta_, var_
        and feature_log_prob_).  Labels are as in classes_; see the README for each
        kind's table.

        >>> model = CategoricalNB().fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> table = model.tables()[0]["probabilities"][0]   # (2 + 1) / (2 + 2), (0 + 1) / (2 + 2)
        >>> {value: round(p, 12) for value, p in table.items()}
        {'a': 0.75, 'b': 0.25}
        """
        return self._model("tables()").tables()

    def summary(self, per_class=False):
        """What the model holds, as plain data: {"classes": [[label, count]],
        "features": [[name, kind, description]], "target": name or None}, and for AODE
        "pairwise counts", the number of pairwise counts kept.

        With per_class=True, also "class_statistics": {name: {"kind": kind, "classes":
        {label: statistics}}} (and "of": "log x" for a kind that transforms its
        values), what each feature's statistics say of each class, as R's
        and Weka's summaries show them (info prints them): "count", the class's
        weight of rows where the feature is present (documents for text); with "mean"
        and "sd" (gaussian and kde: the deviation with the model's ddof, without
        var_smoothing; poisson: the mean only), "bins" and "cuts" (discretized: the
        class's weight in each MDL bin), or "top" ([[value, count]] of the class's 3
        most frequent values, or words).

        >>> NaiveBayes().fit([["a", 1.0], ["b", 3.0]], ["x", "y"]).summary()["features"]
        [[0, 'categorical', '2 values: a, b'], [1, 'gaussian', 'mean 2, standard deviation 1']]
        """
        statistics = self._fitted("summary()")
        params = self.get_params()
        summary = {"classes": [[label, count] for label, count in
                               zip(statistics.classes(), self.class_count_)],
                   "features": [list(item) for item in statistics.summary(params)],
                   "target": self._state.target}
        if per_class:
            summary["class_statistics"] = statistics.class_statistics(params)
        extra = getattr(statistics, "extra_summary", None)
        summary.update(extra() if extra else {})
        compiled = self._model("summary()")
        if hasattr(compiled, "summary_items"):    # what compiling found (a structure)
            summary.update(compiled.summary_items())
        return summary

    # -- pictures (see "Pictures") ----------------------------------------------------

    def plot(self, feature=None, width=540, height=300):
        """An SVG document (text) of a feature's class-conditional distributions, one
        series per class: densities (gaussian, kde), probabilities at 0, 1, 2 ...
        (poisson), bars per bin between the cut points (discretized), per value
        (categorical: the likeliest values, the rest summed as "other") or per word
        (text: the words that most favour each class); more than 8 classes make the
        bars a heat map.  AODE and the networks draw naive Bayes' view, P(x_j | c).
        Without a feature: the model's structure, which feature depends on which.

        >>> model = NaiveBayes().fit([[1.0], [2.0], [6.0], [7.0]], ["lo", "lo", "hi", "hi"])
        >>> svg = model.plot(0)
        >>> svg.startswith("<svg") and 'data-label="hi"' in svg and svg.endswith("</svg>")
        True
        """
        if feature is None:
            self._model("plot()")
            return _svg_structure(self).text
        tables = _picture_tables(self, "plot()")
        return _svg_plot(self, feature, tables, width, height).text

    def _repr_html_(self):
        """The notebook view: classes, and per feature a small plot; None before fit
        (the notebook shows repr() instead)."""
        return None if self._state.statistics is None else _notebook_html(self).text

    def _repr_svg_(self):
        """One picture where one fits (the structure of AODE, TAN and BayesNet, the
        plot of a one-feature model); else None, as before fit."""
        if self._state.statistics is None:
            return None
        svg = _notebook_svg(self)
        return None if svg is None else svg.text

    # -- combining models -------------------------------------------------------------

    def merge(self, other):
        """A new model equal to one fitted on the training data of both; neither
        input changes.  Counts and sums are exact, so merge is commutative and
        associative and agrees bit for bit with fit and partial_fit.  (Labels that
        cannot be sorted keep first-seen order, self's first, as a fit on self's data
        followed by other's would; that order breaks ties.)

        >>> a = NaiveBayes().fit([["x", 1.0], ["y", 2.0]], ["p", "q"])
        >>> b = NaiveBayes().fit([["x", 1.5], ["z", 3.0]], ["p", "r"])
        >>> both = NaiveBayes().fit([["x", 1.0], ["y", 2.0], ["x", 1.5], ["z", 3.0]],
        ...                         ["p", "q", "p", "r"])
        >>> a.merge(b).predict_proba([["x", 1.2]]) == both.predict_proba([["x", 1.2]])
        True
        """
        if not isinstance(other, _Classifier) or \
                other._statistics_class is not self._statistics_class:
            raise NaiveBayesError("merge(): other is %s; expected a %s model"
                                  % (_describe(other), type(self).__name__), call="merge()")
        differences = _param_differences(
            [name for name in self._parameters if name not in _MERGE_FREE],
            self.get_params(), other.get_params())
        if type(self) is not type(other):
            differences.insert(0, "the models are a %s and a %s"
                               % (type(self).__name__, type(other).__name__))
        with self._state.lock:
            mine = self._state.statistics.copy() if self._state.statistics is not None else None
        with other._state.lock:
            theirs = other._state.statistics.copy() if other._state.statistics is not None else None
        if mine is not None and theirs is not None:
            differences.extend(mine.conflicts(theirs))
        if differences:
            raise NaiveBayesError("merge(): the models differ: %s; expected models with "
                                  "the same parameters and feature kinds"
                                  % "; ".join(differences), call="merge()")
        if self.class_weight == "balanced" and mine is not None and theirs is not None:
            raise NaiveBayesError('merge(): class_weight="balanced" weighed each model\'s rows '
                                  "by its own class counts, so their sum is not the balanced "
                                  "model of both; expected fit() on all the rows, or a "
                                  "{label: weight} class_weight", call="merge()")
        merged = type(self)(**self.get_params())
        merged._state.target = (self._state.target if self._state.target is not None
                                else other._state.target)
        if mine is not None or theirs is not None:
            statistics = mine or theirs
            if mine is not None and theirs is not None:
                names = set(mine.features)
                statistics.absorb(theirs)
                if statistics.layout == "mapping" and names != set(theirs.features):
                    # each held names the other lacks: the order of mappings, whichever
                    # model is merged into which
                    statistics.arrange(_mapping_order(statistics.features))
            _check_class_prior(self.get_params().get("class_prior"),
                               statistics.class_count, "merge()")
            _check_memory(self.get_params(), "merge()", statistics)
            _check_total_weight(statistics.class_count, "merge()", "the two models' rows")
            merged._state.statistics = statistics
        return merged

    def forget(self, X, y, sample_weight=None):
        """Remove rows that were learned (by fit, partial_fit or merge), exactly: the
        model then equals, count for count, one fitted without them (sa-learn
        --forget for a spam filter, or a user's data withdrawn).  Returns self.

        The rows are read and checked as partial_fit reads them (the model's current
        parameters), counted, and the counts taken away: ``sample_weight`` removes
        that much of each row's weight (a row learned with weight 2 and forgotten
        with weight 0.5 is left with 1.5; TAN and BayesNet, which also count rows,
        refuse part of a row's weight).  Whatever reaches zero disappears: classes,
        values, words, pairs, rows, and features that only those rows had values of
        (see the README for what statistics cannot tell back).  Removing more than
        was learned of any class, value, word, pair or row, a feature or class never
        learned, or every row the model holds, raises NaiveBayesError and changes
        nothing.  Statistics are counts and sums, not rows, so rows never learned
        are refused where the counts show it, not always.

        >>> X, y = [["red"], ["red"], ["blue"]], ["a", "a", "b"]
        >>> model = CategoricalNB().fit(X + [["green"]], y + ["a"]).forget([["green"]], ["a"])
        >>> model.to_dict() == CategoricalNB().fit(X, y).to_dict()
        True
        >>> model.forget([["blue"]], ["a"])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: forget(): feature 0: class 'a': value 'blue' was never ...
        """
        call = "forget()"
        with self._state.lock:
            base = self._fitted(call)
            batch = base.skeleton()
            known = dict(base.class_count)
        try:
            batch = self._learn(X, y, sample_weight, batch, call, known)
        except NaiveBayesError:
            # a label never learned also fails partial_fit's check of a class_prior:
            # say what is wrong for forget
            unknown = [label for label in batch.class_count if label not in known]
            if unknown:
                raise NaiveBayesError("%s: class %s was never learned; expected rows that "
                                      "the model learned (nothing was forgotten)"
                                      % (call, _shown(unknown[0])), call=call) from None
            raise
        fitting = _Fitting(call, self.get_params(), self._default_kind, self._allowed_kinds)
        with self._state.lock:
            statistics = self._state.statistics
            problem = statistics.deficit(batch)
            if problem is not None:
                raise NaiveBayesError("%s: %s; expected rows that the model learned (nothing "
                                      "was forgotten)" % (call, problem), call=call)
            left = {label: count - batch.class_count.get(label, 0)
                    for label, count in statistics.class_count.items()}
            if not any(left.values()):
                raise NaiveBayesError("%s: these are all the rows the model learned; "
                                      "expected some to be left (fit a new model instead; "
                                      "nothing was forgotten)" % call, call=call)
            _check_class_prior(fitting.params.get("class_prior"),
                               {label: count for label, count in left.items()
                                if count or not batch.class_count.get(label)}, call)
            statistics.subtract(batch, fitting)
            self._state.compiled = None
        return self

    # -- the model file ---------------------------------------------------------------

    def to_dict(self):
        """The model as plain JSON-ready data: counts, sums and parameters (see the
        README for the format).  An unfitted model gives its parameters only.

        >>> model = CategoricalNB().fit([["a"], ["b"]], [1, 0])
        >>> data = model.to_dict()
        >>> data["format"], data["format_version"], data["classes"], data["class_count"]
        ('naive_bayes', 1, [0, 1], [1, 1])
        >>> NaiveBayes.from_dict(data).predict([["a"]])
        [1]
        """
        with self._state.lock:
            return _model_to_dict(self, self._state.statistics)

    @classmethod
    def from_dict(cls, data):
        """The model that to_dict() described.  Validates everything and never runs
        code; any problem raises NaiveBayesError naming the field.

        >>> data = CategoricalNB().fit([["a"]], [0]).to_dict()
        >>> data["class_count"] = [-1]
        >>> NaiveBayes.from_dict(data)
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: from_dict(): class_count[0] is -1; expected a count >= 0
        """
        return _model_from_dict(cls, data, "from_dict()")

    def save(self, path):
        """Write the model to path as JSON, atomically: a temporary file in the same
        folder is renamed over path, so an existing file is never half-written.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "model.json")
        >>> GaussianNB().fit([[1.0], [3.0]], ["low", "high"]).save(path)
        >>> NaiveBayes.load(path).predict([[1.2]])
        ['low']
        """
        path = _checked_path(path, "save()")
        # parameters that set_params made invalid: a file load would refuse
        _check_params(self._parameters, self.get_params(), "save()")
        _write_atomically(path, _json_text(self.to_dict()), "save(%s)" % _path_text(path))

    @classmethod
    def load(cls, path):
        """Read a model written by save(); it loads back as the class it was saved as
        (NaiveBayes.load reads any model file).  Never runs code; an invalid file
        raises NaiveBayesError.

        >>> NaiveBayes.load("no/such/model.json")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        naive_bayes.NaiveBayesError: load(no/such/model.json): cannot read the file: No such ...
        """
        path = _checked_path(path, "load()")
        return _load_file(cls, path, "load(%s)" % _path_text(path))
