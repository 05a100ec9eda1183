# ----------------------------------------------------------------------------------
# Input checks: parameters, rows, labels and weights
# ----------------------------------------------------------------------------------

_CHUNK = 10000            # rows counted at a time when X is not a list or tuple
_COUNT_BLOCK = 512        # rows of one class whose values are added feature by feature,
_COUNT_VALUES = 10240     # or more rows when they hold fewer values than this


def _check_class_prior_value(prior):
    if prior is None or prior == "uniform":
        return None
    if not isinstance(prior, Mapping) or not prior:
        return 'None, "uniform" or a non-empty {label: probability} dict'
    for label, p in prior.items():
        number = _number(p)
        if number is None or not 0 <= number <= 1:
            return "class_prior[%s] is %s; expected a probability between 0 and 1" \
                % (_shown(label), _shown(p))
    total = math.fsum(map(float, prior.values()))
    if abs(total - 1.0) > 1e-9:
        return "class_prior sums to %r; expected probabilities that sum to 1" % total
    return None


def _by_name(value, what):
    """A features= or categories= value as {name: item}: a dict, or a list by position;
    None when it is neither."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return dict(enumerate(value))
    return None


def _check_features(features):
    kinds = _by_name(features, "features")
    if kinds is None:
        return "None, a {name: kind} dict or a list of kinds"
    for name, kind in kinds.items():
        if not isinstance(kind, str) or kind not in _KINDS:
            return "features[%s] is %s; expected one of %s" % (
                _shown(name), _shown(kind), ", ".join(map(repr, _KINDS)))
    return None


def _check_categories(categories):
    items = _by_name(categories, "categories")
    if items is None:
        return "None, a {name: [values]} dict or a list of value lists"
    for name, values in items.items():
        if values is None:
            continue
        if isinstance(values, (str, bytes, Mapping)) or not (
                hasattr(values, "__iter__") and hasattr(values, "__len__")):
            return "categories[%s] is %s; expected a list of values" % (
                _shown(name), _shown(values))
        for value in values:
            if not _hashable(value) or _is_missing(value):
                return "categories[%s] holds %s; expected hashable, non-missing values" % (
                    _shown(name), _describe(value))
    return None


# The parameters every classifier has; each feature kind adds its own (see _Kind).
_BASE_PARAMETERS = {
    "alpha": _Parameter(1.0, _finite_at_least_0, (
        _cli_number, "smoothing of categorical likelihoods (default 1, Laplace)")),
    "prior_alpha": _Parameter(0.0, _finite_at_least_0, (
        _cli_number, "smoothing of the class prior (default 0)")),
    "class_prior": _Parameter(None, _check_class_prior_value),
    "features": _Parameter(None, _check_features),
    "categories": _Parameter(None, _check_categories),
}


def _label_numbers(value, what, check, expected):
    """The check of a {label: number} parameter: None when value is None or every
    number passes check, else what is wrong with the first that does not."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        return "None or a {label: %s} dict" % expected
    for label, number in value.items():
        real = _number(number)
        if real is None or not check(real):
            return "%s[%s] is %s; expected %s" % (what, _shown(label), _shown(number), expected)
    return None


def _check_class_weight(value):
    if isinstance(value, str):
        return None if value == "balanced" else 'None, "balanced" or a {label: weight} dict'
    return _label_numbers(value, "class_weight", lambda w: isfinite(w) and w >= 0,
                          "a finite number >= 0")


def _check_thresholds(value):
    problem = _label_numbers(value, "thresholds", lambda t: isfinite(t) and t > 0,
                             "a finite number > 0")
    if problem is None and value is not None and not value:
        return "None or a non-empty {label: threshold} dict"
    return problem


def _check_costs(value):
    if value is None:
        return None
    if not isinstance(value, Mapping) or not value:
        return "None or a {true label: {predicted label: cost}} dict"
    for truth, row in value.items():
        if not isinstance(row, Mapping):
            return "costs[%s] is %s; expected a {predicted label: cost} dict" % (
                _shown(truth), _describe(row))
        problem = _label_numbers(row, "costs[%s]" % _shown(truth), isfinite,
                                 "a finite number")
        if problem is not None:
            return problem
    return None


def _check_reject_below(value):
    if value is None:
        return None
    number = _number(value)
    if number is None or not 0 <= number <= 1:
        return "None or a probability between 0 and 1"
    return None


def _check_reject_label(value):
    if not _hashable(value) or (value is not None and _is_missing(value)):
        return "a hashable label (not NaN)"
    return None


# Class weights and decision rules: every classifier has them, after its own parameters
# (see _Decision).  Their defaults are left out of the model file, which is then the
# file of a model without them, byte for byte.
_DECISION_PARAMETERS = {
    "class_weight": _Parameter(None, _check_class_weight),
    "thresholds": _Parameter(None, _check_thresholds),
    "costs": _Parameter(None, _check_costs),
    "reject_below": _Parameter(None, _check_reject_below),
    "reject_label": _Parameter("unsure", _check_reject_label),
}


def _numeric_parameter(default, kinds):
    """The numeric= parameter: the kind given to inferred numeric features (one of
    the numeric kinds among ``kinds``)."""
    numeric = [name for name in kinds if _KINDS[name].convert_cell is _number_cell]
    return _Parameter(default, _one_of(*numeric), (
        tuple(numeric), "the kind of numeric columns not declared otherwise (default %s)"
        % default))


def _check_params(parameters, params, call):
    """Raise NaiveBayesError for the first parameter that is out of its domain, then
    for declarations that contradict each other."""
    _check_domains(parameters, params, call)
    kinds = _by_name(params["features"], "features")
    for name in _by_name(params["categories"], "categories"):
        if kinds.get(name, "categorical") != "categorical":
            raise NaiveBayesError("%s: categories declares values for feature %r, which "
                                  "features= declares %r; expected a categorical feature"
                                  % (call, name, kinds[name]), call=call)
    if params.get("thresholds") is not None and params.get("costs") is not None:
        raise NaiveBayesError("%s: thresholds and costs are both set; expected one decision "
                              "rule (set the other to None)" % call, call=call)
    if "members" in params:               # AutoBayes
        _check_weighted_members(params, call)


def _check_domains(parameters, params, call):
    """Raise NaiveBayesError naming the first parameter that is out of its domain."""
    for name, parameter in parameters.items():
        problem = parameter.check(params[name])
        if problem is not None:
            if not problem.startswith(name):
                problem = "%s=%s; expected %s" % (name, _shown(params[name]), problem)
            raise NaiveBayesError("%s: %s" % (call, problem), call=call)


# Decision rules: from P(c | x) to a label other than the argmax.  They read the
# posteriors (never joints: with point masses those are infinite) and change no
# probability.  Float rounding can tie, or swap, two scores that differ in the last
# bits (p_a / t and p_b / t for neighbouring p_a, p_b; sums of products); scores that
# close are compared again exactly, as Fractions of the floats, so that the rules are
# exact functions of the probabilities: equal thresholds, or the 0-1 loss, give the
# argmax with its ties.
_NEAR = 1e-12             # relative closeness below which scores are compared exactly


class _Decision:
    """The decision rules of a model, checked against its classes: ``labels`` maps rows
    of P(c | x) (columns in classes order) to labels.

    - reject_below r: a row whose largest probability is below r gets reject_label;
      this is looked at first, on the probabilities themselves.
    - thresholds {c: t_c > 0}, one per class: the class maximising P(c | x) / t_c
      (Spark's rule; ties to the earlier class).
    - costs {i: {j: C_ij}}: the class j minimising sum_i P(i | x) C_ij, the expected
      cost of predicting j when the truth is i (Weka's CostSensitiveClassifier with
      -M, minimizeExpectedCost); every class has a row and every off-diagonal entry,
      a diagonal one left out costs 0; ties to the earlier class.
    - neither: the argmax.

    >>> rule = _Decision(["a", "b"], {"thresholds": {"a": 0.8, "b": 0.2}, "costs": None,
    ...                               "reject_below": None, "reject_label": "unsure"}, "predict()")
    >>> rule.labels([[0.7, 0.3], [0.9, 0.1]])            # 0.7/0.8 < 0.3/0.2; 1.125 > 0.5
    ['b', 'a']
    """

    __slots__ = ("classes", "rule", "thresholds", "costs", "reject_below", "reject_label")

    def __init__(self, classes, params, call):
        _check_domains({name: _DECISION_PARAMETERS[name] for name in
                        ("thresholds", "costs", "reject_below", "reject_label")}, params, call)
        self.classes = list(classes)
        thresholds, costs = params["thresholds"], params["costs"]
        if thresholds is not None and costs is not None:
            raise NaiveBayesError("%s: thresholds and costs are both set; expected one "
                                  "decision rule (set the other to None)" % call, call=call)
        self.rule = "thresholds" if thresholds is not None else \
            "costs" if costs is not None else None
        self.thresholds = self.costs = None
        if thresholds is not None:
            self._check_labels("thresholds", thresholds, call)
            self.thresholds = [float(_number(thresholds[c])) for c in self.classes]
        if costs is not None:
            self._check_labels("costs", costs, call)
            for truth, row in costs.items():
                self._check_labels("costs[%s]" % _shown(truth), row, call, every=False)
            rows = []
            for truth in self.classes:
                row = costs[truth]
                absent = [c for c in self.classes if c not in row and c != truth]
                if absent:
                    raise NaiveBayesError("%s: costs[%s] has no cost for predicting %s; "
                                          "expected one for every other class (0 may be "
                                          "left out on the diagonal only)"
                                          % (call, _shown(truth), _shown(absent[0])),
                                          call=call)
                rows.append([float(_number(row.get(c, 0))) for c in self.classes])
            self.costs = [list(column) for column in zip(*rows)]   # by predicted class
        self.reject_below = None if params["reject_below"] is None else \
            float(_number(params["reject_below"]))
        self.reject_label = params["reject_label"]
        if self.reject_below is not None and self.reject_label in self.classes:
            raise NaiveBayesError("%s: reject_label %s is a class; expected a label the "
                                  "model never predicts otherwise" % (
                                      call, _shown(self.reject_label)), call=call)

    def _check_labels(self, what, mapping, call, every=True):
        """A {label: x} mapping names only classes, and (every) every class."""
        known = set(self.classes)
        unknown = [label for label in mapping if label not in known]
        if unknown:
            raise NaiveBayesError("%s: %s names %s, not among the classes %s" % (
                call, what, _shown(unknown[0]), _shown(self.classes)), call=call)
        absent = [label for label in self.classes if label not in mapping]
        if every and absent:
            raise NaiveBayesError("%s: %s has no entry for class %s; expected one for "
                                  "every class" % (call, what, _shown(absent[0])), call=call)

    def index(self, p):
        """The index of the class the rules choose for one row, or None to reject."""
        if self.reject_below is not None and max(p) < self.reject_below:
            return None
        if self.thresholds is not None:
            scores = list(map(truediv, p, self.thresholds))
            return _exact_best(scores, max(scores) * _NEAR, lambda k, Fraction: (
                Fraction(p[k]) / Fraction(self.thresholds[k])))
        if self.costs is not None:
            try:
                scores = [-math.fsum(map(mul, p, column)) for column in self.costs]
                scale = max(math.fsum(map(abs, map(mul, p, column))) for column in self.costs)
            except OverflowError:         # costs near the float range: all exactly
                scores, scale = [0.0] * len(self.costs), INF
            return _exact_best(scores, scale * _NEAR, lambda k, Fraction: -sum(
                map(mul, map(Fraction, p), map(Fraction, self.costs[k]))))
        return p.index(max(p))

    def labels(self, posteriors):
        """The labels of rows of P(c | x)."""
        classes, reject = self.classes, self.reject_label
        out = []
        for p in posteriors:
            k = self.index(p)
            out.append(reject if k is None else classes[k])
        return out

    def explain(self, p):
        """What the rules did to one row: {"rule", "argmax", "predicted", "changed",
        "probability"}, rule being the one that chose ("reject", "thresholds", "costs",
        or "argmax" when none did)."""
        argmax = p.index(max(p))
        k = self.index(p)
        predicted = self.reject_label if k is None else self.classes[k]
        return {"rule": "reject" if k is None else self.rule or "argmax",
                "argmax": self.classes[argmax], "predicted": predicted,
                "changed": k != argmax, "probability": p[argmax]}


def _exact_best(scores, tolerance, exact):
    """The index of the largest score, the earlier on ties; scores within tolerance of
    the largest are compared again by exact(k, Fraction)."""
    top = max(scores)
    near = [k for k, s in enumerate(scores) if s == top or top - s <= tolerance]
    if len(near) == 1:
        return near[0]
    from fractions import Fraction
    values = [exact(k, Fraction) for k in near]
    return near[values.index(max(values))]


def _declarations(params):
    """({name: kind} from features=, {name: [values]} from categories=): read once per
    call of fit or partial_fit."""
    kinds = _by_name(params["features"], "features")
    categories = {name: list(values) for name, values in
                  _by_name(params["categories"], "categories").items() if values is not None}
    return kinds, categories


def _check_labels(labels, start, call):
    try:
        distinct = set(labels)
    except TypeError:
        i = next(i for i, label in enumerate(labels) if not _hashable(label))
        raise _row_error(call, "y", start + i, "is %s; expected a hashable label"
                         % _describe(labels[i])) from None
    if None in distinct or any(_is_missing(label) for label in distinct):
        i = next(i for i, label in enumerate(labels) if _is_missing(label))
        raise _row_error(call, "y", start + i, "is missing (%s); expected a label"
                         % _shown(labels[i]))


def _check_weights(weights, start, call):
    """The weights as a _Weights: ints where integral, else floats, with their scaled
    integer form; NaiveBayesError naming a bad one."""
    if not _FLOAT.issuperset(map(type, weights)):
        numbers = list(map(_number, weights))
        if None in numbers:
            i = numbers.index(None)
            raise _row_error(call, "sample_weight", start + i, "is %s; expected a finite "
                             "number >= 0" % _describe(weights[i]))
        floats = numbers
    else:
        floats = weights
    if not all(map(isfinite, floats)) or min(floats) < 0:
        i = next(i for i, w in enumerate(floats) if not (isfinite(w) and w >= 0))
        raise _row_error(call, "sample_weight", start + i, "is %s; expected a finite "
                         "number >= 0" % _describe(weights[i]))
    checked = _Weights(int(w) if w.is_integer() else w for w in floats)
    checked.scaled = _weight_integers(floats)
    return checked


def _check_class_prior(prior, class_count, call):
    """A {label: p} class_prior must name exactly the classes seen in training."""
    if prior is None or isinstance(prior, str):
        return
    classes = _sorted_if_orderable(class_count)
    unknown = [label for label in prior if label not in class_count]
    if unknown:
        raise NaiveBayesError("%s: class_prior names %s, not among the classes %s"
                              % (call, _shown(unknown), _shown(classes)), call=call)
    absent = [label for label in classes if label not in prior]
    if absent:
        raise NaiveBayesError("%s: class_prior has no probability for class %s; expected "
                              "one for every class" % (call, _shown(absent)), call=call)


def _balanced_class_weight(labels, weights, call):
    """class_weight="balanced": {label: W / (K * W_c)}, W_c the weight of class c's rows
    (their number when weights is None), W the total and K the number of classes of
    positive weight, correctly rounded to floats (scikit-learn's compute_class_weight
    with sample_weight; its bincount rounds the sums, these are exact).

    >>> _balanced_class_weight(["a", "a", "a", "b"], None, "fit()")
    {'a': 0.6666666666666666, 'b': 2.0}
    """
    _check_labels(labels, 0, call)
    if weights is None:
        totals = Counter(labels)
    else:
        integers, _ = _check_weights(weights, 0, call).scaled    # exact: w = i / 2**shift
        totals = Counter()
        for label, weight in zip(labels, integers):
            totals[label] += weight
    totals = {label: total for label, total in totals.items() if total}
    total = sum(totals.values())
    return {label: total / (len(totals) * count) for label, count in totals.items()}


def _class_weighted(labels, weights, class_weight, start, call):
    """Each row's weight times its class's weight (1 for a class class_weight does
    not name), as floats: scikit-learn's sample_weight * class_weight[y]."""
    _check_labels(labels, start, call)
    factors = [class_weight.get(label, 1.0) for label in labels]
    if weights is None:
        return factors
    weighted = list(map(mul, _check_weights(weights, start, call), factors))
    if not all(map(isfinite, weighted)):
        i = next(i for i, w in enumerate(weighted) if not isfinite(w))
        raise _row_error(call, "sample_weight", start + i, "is %s, times class_weight[%s] "
                         "= %s beyond the float range; expected a finite product"
                         % (_shown(weights[i]), _shown(labels[i]), _shown(factors[i])))
    return weighted


def _rows_of(X, call):
    """X as an iterable of rows: a pandas DataFrame gives dicts by column name, a
    NumPy array lists of Python values; unordered collections are refused (their rows
    would pair with the wrong labels), and so are what scikit-learn refuses: sparse
    matrices, 1-D or complex arrays, arrays without features."""
    if hasattr(X, "columns") and hasattr(X, "itertuples"):
        columns = list(X.columns)
        return [dict(zip(columns, values)) for values in X.itertuples(index=False, name=None)]
    if isinstance(X, (Mapping, set, frozenset, str, bytes)):
        raise NaiveBayesError("%s: X is %s; expected an ordered iterable of rows (a list, "
                              "tuple, generator, array or DataFrame)" % (call, _describe(X)),
                              call=call, argument="X")
    array = _as_numpy(X, "X", call)
    if array is None:
        return X
    if array.ndim != 2:
        raise NaiveBayesError("%s: X is a %d-D array; expected 2-D rows (Reshape your "
                              "data either using array.reshape(-1, 1) if your data has a "
                              "single feature or array.reshape(1, -1) if it contains a "
                              "single sample.)" % (call, array.ndim), call=call,
                              argument="X")
    if array.shape[1] == 0 and array.shape[0]:
        raise NaiveBayesError("%s: X has no features; expected at least one (0 feature(s) "
                              "(shape=(%d, 0)) while a minimum of 1 is required.)"
                              % (call, array.shape[0]), call=call, argument="X")
    if array.dtype.kind == "c":
        raise NaiveBayesError("%s: X holds complex numbers; expected real ones (Complex "
                              "data not supported)" % call, call=call, argument="X")
    return array.tolist()                 # Python numbers, one conversion for all rows


def _loaded_numpy():
    """NumPy if the program has imported it, else None.  This file never imports it:
    NumPy arrays are only read from, and given back for, NumPy or pandas input, so
    NumPy is loaded whenever it is needed."""
    return sys.modules.get("numpy")


def _as_numpy(values, name, call):
    """values as a NumPy array when they are one (or a scipy sparse matrix, refused,
    or an object with __array__ and nothing else); None for any other iterable."""
    module = type(values).__module__ or ""
    if module.startswith("scipy.sparse") or hasattr(values, "tocsr"):
        raise NaiveBayesError("%s: %s is a sparse matrix; expected dense rows (sparse input "
                              "is not supported: use %s.toarray())" % (call, name, name),
                              call=call, argument=name)
    if module.startswith("numpy") and hasattr(values, "ndim"):
        return values
    numpy = _loaded_numpy()
    if numpy is not None and hasattr(values, "__array__") and not hasattr(values, "__iter__"):
        return numpy.asarray(values)      # it is an array in all but name
    return None


def _labels_of(y, call):
    """y as an iterable of labels.  NumPy input follows scikit-learn: a column
    vector is raveled (with its DataConversionWarning), and non-integer floats are a
    continuous target, not labels."""
    if y is None:
        raise NaiveBayesError("%s: y is None; expected labels (this classifier requires y "
                              "to be passed, but the target y is None)" % call, call=call,
                              argument="y")
    array = _as_numpy(y, "y", call)
    if array is None:
        return y
    if array.ndim == 2 and array.shape[1] == 1:
        import warnings
        exceptions = sys.modules.get("sklearn.exceptions")
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                      "change the shape of y to (n_samples, ), for example using ravel().",
                      getattr(exceptions, "DataConversionWarning", UserWarning), stacklevel=3)
        array = array.ravel()
    if array.ndim != 1:
        raise NaiveBayesError("%s: y is a %d-D array; expected one label per row (y should "
                              "be a 1d array)" % (call, array.ndim), call=call, argument="y")
    if array.dtype.kind in "fc":
        numpy = _loaded_numpy()           # an array was given: NumPy is loaded
        finite = numpy.isfinite(array) | numpy.isnan(array)
        if not (finite.all() and numpy.all(array[~numpy.isnan(array)] % 1 == 0)):
            raise NaiveBayesError("%s: y holds non-integer numbers; expected class labels "
                                  "(Unknown label type: continuous)" % call, call=call,
                                  argument="y")
    return array.tolist()


def _iterate(values, name, expected, call):
    """iter(values), refusing what cannot be iterated or has no order."""
    if isinstance(values, (Mapping, set, frozenset, str, bytes)) or values is None:
        raise NaiveBayesError("%s: %s is %s; expected %s" % (call, name, _describe(values),
                                                             expected), call=call,
                              argument=name)
    if hasattr(values, "columns") and hasattr(values, "itertuples"):
        raise NaiveBayesError("%s: %s is a DataFrame; expected one column (a Series)"
                              % (call, name), call=call, argument=name)
    try:
        return iter(values)
    except TypeError:
        raise NaiveBayesError("%s: %s is %s; expected %s" % (call, name, _describe(values),
                                                             expected), call=call,
                              argument=name) from None


def _count_text(counted, iterator, limit=100000):
    """How many items there were: counted plus what the iterator still holds, read
    up to a limit so that an endless iterator cannot hang an error message."""
    extra = sum(1 for _ in islice(iterator, limit)) if iterator is not None else 0
    return ("at least %d" if extra == limit else "%d") % (counted + extra)


def _sequence_names(declared, categories, width, start, call):
    """Feature names for sequence rows: positions 0..width-1, or the names of a
    features= dict that names every column in order with names that are not ints."""
    names = list(range(width))
    if declared and not all(type(name) is int for name in declared):
        if any(type(name) is int for name in declared) or len(declared) != width:
            raise NaiveBayesError(
                "%s: features= names %s but X row %d has %d values; expected positions "
                "0..%d, or a name for every column in order"
                % (call, _shown(list(declared)), start, width, width - 1), call=call)
        names = list(declared)
    known = set(names)
    for option, keys in (("features", declared), ("categories", categories)):
        outside = [name for name in keys if name not in known]
        if outside:
            raise NaiveBayesError("%s: %s= names %s, but X row %d has %d values; expected "
                                  "positions 0..%d%s"
                                  % (call, option, _shown(outside), start, width, width - 1,
                                     "" if names[:1] == [0] else
                                     " or the names %s" % _shown(names)), call=call)
    return names


def _check_declared_names(params, seen, call):
    """A name in features= or categories= that no training row holds, while a row holds
    a name much like it, is a typo.  (A declared feature that is simply absent, say in
    one part of data trained in parts, is fine: it has no values yet.)"""
    unheld = [name for option in ("features", "categories")
              if isinstance(params[option], Mapping)
              for name in params[option] if name not in seen]
    if not unheld:
        return
    import difflib
    held = {str(name): name for name in seen}
    for option in ("features", "categories"):
        value = params[option]
        if not isinstance(value, Mapping):
            continue
        for name in value:
            if name in seen:
                continue
            close = difflib.get_close_matches(str(name), list(held), n=1, cutoff=0.75)
            if close:
                raise NaiveBayesError("%s: %s= names %r, which no row of X holds; did you "
                                      "mean %r?" % (call, option, name, held[close[0]]),
                                      call=call)


def _param_differences(names, mine, theirs):
    """Human-readable differences between two parameter dicts.  Tokenizers are the
    same when identical, or functions with the same code (a function shipped to
    Spark executors and back is a copy)."""
    return ["%s is %r in one and %r in the other" % (name, mine[name], theirs[name])
            for name in names
            if not (mine[name] is theirs[name] or _same_function(mine[name], theirs[name]) or
                    (not callable(mine[name]) and mine[name] == theirs[name]))]


def _same_function(a, b):
    """Two plain functions with the same code, defaults and closure values."""
    try:
        return (a.__code__ == b.__code__ and a.__defaults__ == b.__defaults__ and
                [c.cell_contents for c in a.__closure__ or ()] ==
                [c.cell_contents for c in b.__closure__ or ()])
    except (AttributeError, ValueError):
        return False


def _locate(values, bad):
    """Index of the first of values that is (or equals) the offending value."""
    for i, value in enumerate(values):
        if value is bad:
            return i
    for i, value in enumerate(values):
        try:
            if type(value) is type(bad) and value == bad:
                return i
        except Exception:                 # an odd __eq__: keep looking
            continue
    return 0
