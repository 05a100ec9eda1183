# AutoBayes' possible members: (classifier, its own settings); the shared ones
# (features, categories, numeric, significant_digits) are AutoBayes'.
_AUTO_MEMBERS = {
    "waode": (AODE, {"weighting": "mutual-information", "estimate": "m", "frequency_limit": 0,
                     "impute": "fit"}),
    "aode": (AODE, {"estimate": "m", "impute": "fit"}),
    "bayesnet": (BayesNet, {"max_parents": 2, "missing": "skip"}),
    "bayesnet3": (BayesNet, {"max_parents": 3, "missing": "skip"}),
    "tan": (TAN, {"missing": "skip"}),
    "kdb": (KDB, {"k": "select", "estimate": "hdp", "missing": "skip"}),
    "kdb2": (KDB, {"k": 2, "estimate": "hdp", "missing": "skip"}),
    "naive": (NaiveBayes, {"numeric": "discretized"}),
    "weighted": (NaiveBayes, {"numeric": "discretized"}),
    "correlated": (NaiveBayes, {"numeric": "discretized"}),
    "tree": (NaiveBayes, {"numeric": "discretized"}),
}


# The work of AutoBayes' internal cross-validation, in units of about a quarter of a
# microsecond of CPU (measured on CPython 3.11): per fold, 2 x rows x nodes^2 (the
# structure search scores every pair of nodes over the rows, twice over; AODE counts
# the pairs of values of every row) + nodes^3 (the search scans every pair of nodes
# at each of its about nodes steps).  At most this many over all folds (about 50 s):
# beyond it the rows are sampled (_auto_sample), and when even the smallest sample
# would pass it the fit is refused before the work (_check_auto_work).
_AUTO_WORK = 200000000
_AUTO_SMALLEST_SAMPLE = 1000      # rows the cross-validation keeps at least


def _auto_fold_work(rows, nodes):
    """The work units of one fold of AutoBayes' cross-validation (see _AUTO_WORK)."""
    return 2 * rows * nodes * nodes + nodes ** 3


def _auto_sample(width, folds=5):
    """The most rows AutoBayes cross-validates its members on to choose their weights:
    5,000, fewer for wide data so that the work stays within _AUTO_WORK (1,099 rows
    of 130 features), never fewer than 1,000."""
    nodes = width + 1
    rows = (_AUTO_WORK // max(1, folds) - nodes ** 3) // (2 * nodes * nodes)
    return max(_AUTO_SMALLEST_SAMPLE, min(5000, rows))


def _check_auto_work(rows, nodes, folds, call):
    """NaiveBayesError before the cross-validation when its work would pass
    _AUTO_WORK, naming the figures and the fixes."""
    work = folds * _auto_fold_work(rows, nodes)
    if work > _AUTO_WORK:
        raise NaiveBayesError(
            "%s: AutoBayes' internal cross-validation (%d folds of %s rows x %s features) "
            "would take about %s s of CPU, beyond the %s s it allows itself; use fewer "
            "features or ignore some, or fix the weights with weights=\"uniform\" or a "
            "{member: weight} dict (no cross-validation)"
            % (call, folds, format(rows, ","), format(nodes - 1, ","),
               format(work * 2.5e-7, ",.0f"), format(_AUTO_WORK * 2.5e-7, ",.0f")),
            call=call, argument="weights")


def _held_bytes(statistics):
    """The bytes of the distinct rows that AutoBayes' statistics keep."""
    rows = next((part for part in statistics.parts.values()
                 if isinstance(part, _NetworkStatistics)), None)
    if rows is None:
        return 0
    return rows.row_counts.size() * (_ROW_BYTES + _CELL_BYTES * len(rows.features))


def _in_use(params, taken):
    """params with ``taken`` more bytes counted as in use against max_memory (what
    AutoBayes holds while it compiles a member)."""
    return dict(params, _memory_in_use=params.get("_memory_in_use", 0) + taken)


def _aode_statistics_of_rows(rows, impute, params=None):
    """(AODE's statistics, the replacements of missing values or None) of the rows a
    network's statistics keep, as AODE would have counted them, but for numbers:
    each number is counted as the smallest value of its MDL bin (the bins cut as
    AODE cuts them, after the imputation with impute=True), so that the pairwise
    counts hold pairs of bins rather than of raw values.  AODE's compiled model reads
    every number through its bin, so it compiles to the same model: the same counts
    per pair of keys, exactly, in memory that grows with the bins, not the values.
    With impute=True the missing values are first replaced as Weka's
    ReplaceMissingValues replaces them (see _AODEStatistics.imputed), row by row."""
    aode = _AODEStatistics()
    aode.class_count = dict(rows.class_count)
    aode.layout = rows.layout
    aode.features = {name: feature.copy() for name, feature in rows.features.items()}
    replacements = None
    if impute:
        replacements = aode.impute_values()[1] if aode.lacks_values() else \
            aode._replacements()
    classes = aode.classes()
    names = aode.names()
    readers = []                          # per feature: None (the value), bins, or False
    for name in names:
        feature = aode.features[name]
        if feature.name == "categorical":
            readers.append(None)
        elif feature.name == "discretized":
            values, _ = feature.stats.weight_columns(classes)
            cuts = feature.stats.cut_points(classes)
            smallest = {}
            for value in values:          # in increasing order
                smallest.setdefault(bisect_left(cuts, value), value)
            readers.append((cuts, smallest))
        else:
            readers.append(False)
    get_id = aode.pair_counts.ids.__getitem__
    used = [(j, reader) for j, reader in enumerate(readers) if reader is not False]
    for label, counted in rows.row_counts.rows.items():
        id_rows, weights = [], []
        for row, (weight, _) in counted.items():
            if not weight:
                continue
            ids = []
            for j, reader in used:
                value = row[j] if j < len(row) else None
                if value is None:
                    if replacements is None or replacements[j] is None:
                        continue
                    value = replacements[j]
                if reader is not None:
                    cuts, smallest = reader
                    value = smallest[bisect_left(cuts, value)]
                ids.append(get_id((j, value)))
            ids.sort()
            id_rows.append(ids)
            weights.append(weight)
        if id_rows:
            limit = _pair_limit(params or {}, aode.key_counts(), len(classes))
            try:
                aode.pair_counts.add_ids(label, id_rows, weights, limit)
            except _PairLimit as stop:
                raise _pairs_over_budget(params, stop, aode.key_counts(), len(classes),
                                         label) from None
    return aode, replacements


def _member_model(statistics, name, params, shared):
    """AutoBayes' member ``name`` compiled from its statistics (a _MixtureStatistics):
    a network or naive Bayes from the rows that the network statistics keep, AODE
    from the pairwise counts of their bins (_aode_statistics_of_rows; ``shared``
    keeps them for the next AODE member of the same statistics, and the MDL cut
    points that the members find alike: a _CutsMemo).  A model file that kept AODE's
    own counts compiles its AODE members from them."""
    memo = shared.get("cuts")
    if memo is None:
        memo = shared["cuts"] = _CutsMemo()
    with memo:
        return _member_compiled(statistics, name, params, shared)


def _member_compiled(statistics, name, params, shared):
    """_member_model's work, the cut points memo open."""
    cls, member_params = _member_parameters(name, params)
    member_params = cls._compiling(member_params)
    part = statistics.parts.get(cls.__name__)
    if part is not None:
        return part.compile(member_params)
    rows = next((part for part in statistics.parts.values()
                 if isinstance(part, _NetworkStatistics)), None)
    if rows is None:
        raise NaiveBayesError("AutoBayes: member %r needs statistics this model did not "
                              "keep; fit it again" % name)
    if cls._statistics_class is _NetworkStatistics:
        return rows.compile(member_params)
    if name == "weighted":
        return _WeightedNaiveModel(rows, member_params)
    if name == "correlated":
        return _CorrelatedModel(rows, member_params)
    if name == "tree":
        return _TreeModel(rows, member_params)
    if cls._statistics_class is _NaiveStatistics:
        return _NaiveStatistics.compile(rows, member_params)
    filled = member_params.get("impute") is True    # replaced at prediction too
    impute = bool(member_params.get("impute"))
    found = shared.get(impute)
    if found is None:
        found = shared[impute] = _aode_statistics_of_rows(rows, impute, member_params)
    aode, replacements = found
    # the other AODE member's counts, when they are kept meanwhile, are in use too
    others = sum(_PAIR_BYTES * found[0].pair_counts.size()
                 for key, found in shared.items() if key in (False, True) and key != impute)
    member_params = dict(_in_use(member_params, others), impute=False)
    # the other AODE member of the same counts and estimates shares its tables
    same = ("aode", impute, member_params["alpha"], member_params["estimate"],
            member_params["m"])
    first = shared.get(same)
    compiled = first.twin(aode, member_params) if first is not None else None
    if compiled is None:
        compiled = shared[same] = _AODEModel(aode, member_params)
    compiled.replacements = replacements if filled else None
    return compiled


def _check_members(value):
    """The check of members=: a non-empty list of distinct names of AutoBayes' members."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value or \
            len(set(value)) != len(value) or any(name not in _AUTO_MEMBERS for name in value):
        return "a non-empty list of distinct names among %s" % ", ".join(
            map(repr, _AUTO_MEMBERS))
    return None


def _check_mixture_weights(value):
    """The check of weights=: "cv", "uniform" or {member: weight >= 0}, some positive,
    the names AutoBayes' members (that they are among members=, one of them weighing
    more than 0, is checked with it by _check_params)."""
    if value in ("cv", "uniform"):
        return None
    if isinstance(value, Mapping) and value and all(
            isinstance(name, str) and name in _AUTO_MEMBERS and _number(w) is not None and
            isfinite(_number(w)) and _number(w) >= 0 for name, w in value.items()) and \
            sum(map(_number, value.values())) > 0:
        return None
    return '"cv", "uniform" or a {member: weight >= 0} dict with a positive weight, ' \
        'its members among %s' % ", ".join(map(repr, _AUTO_MEMBERS))


def _member_parameters(name, params):
    """(class, parameters) of one AutoBayes member: its own settings (_AUTO_MEMBERS) and
    AutoBayes' shared ones (features, categories, numeric, significant_digits)."""
    cls, own = _AUTO_MEMBERS[name]
    member = cls().get_params()
    member.update(own)
    for shared in ("features", "categories", "numeric", "significant_digits", "max_memory",
                   "row_sample"):
        if shared in cls._parameters:
            member[shared] = params[shared]
    if "_memory_in_use" in params:
        member["_memory_in_use"] = params["_memory_in_use"]
    return cls, member


class AutoBayes(_Classifier):
    """The setting to use when you do not want to choose: a mixture of the family's
    best models, weighted by what the training data says.

    P(c | x) = sum over members m of w_m P_m(c | x).  The members (members=) are, by
    default, WAODE (AODE with mutual-information weights, m-estimates and no frequency
    limit) and AODE with m-estimates, both trained on missing values imputed as
    Weka's ReplaceMissingValues imputes them (impute="fit"), a Bayesian network found
    by hill climbing with at most 2 parents per node (missing="skip"), and
    "weighted": naive Bayes with one weight w_j >= 0
    per feature, P(c | x) ~ P(c) prod_j P(x_j | c)^(w_j), the weights maximising the
    rows' conditional log-likelihood less (1/2) sum_j w_j^2 (WANBIA: Zaidi,
    Cerquides, Carman and Webb 2013), each row scored with itself left out of the
    tables, so that features repeating one another share
    the evidence they would count twice and features that do not help fade
    (summary()["feature weights"] when it leads the mixture), and from 100 rows
    the values of each categorical feature grouped as Khiops groups them (MODL),
    a value's likelihood its group's; numbers are cut into
    MDL bins in these four.  And "correlated": the numbers of each class modelled
    together, a multivariate Student t per class (the normal-inverse-Wishart
    posterior predictive: Bayesian quadratic discriminant analysis, each class's
    covariance pulled towards the pooled one by a prior worth as many rows as
    there are numbers; a number never negative and skewed to the right read as
    log(1 + x)), with naive Bayes' terms for the features that are not numbers; it
    sees a crab's measures growing together, or a ratio of two numbers,
    where the binned members see each number alone (without numbers it would be
    naive Bayes, and it takes no part).  And "tree": one classification tree
    (entropy gain, best first, at most 16 leaves, its leaves' P(c) smoothed towards
    their parents'), for the rules over several features at once that the others,
    adding evidence feature by feature, hold only in part (a churn when three
    charges together pass a mark; summary()["tree splits"] when it leads).  And
    "kdb2": k-dependence Bayes with k=2 ("hdp" tables, missing="skip", on MDL bins
    as the first four), each feature given the class and two other features, for
    values that go together in threes; it takes part from 100 cross-validated rows
    on (_MEMBER_ROWS: when fit chooses the weights with fewer, its weight is 0, its
    tables too thin to weigh).
    fit chooses the weights (weights="cv"): each member's probabilities of the true
    class of every row
    in an internal stratified cross-validation (folds=, seeded, on the rows in a
    canonical order, so that their order does not matter; on a stratified sample of
    5,000 rows when there are more, fewer for wide data: 1,099 rows of 130 features;
    with at most _AUTO_LOO_ROWS = 150 rows, whatever folds= says, leave-one-out: each
    row scored by the members of all the other rows, its copies alike), then the
    weights maximising their mixture's log-likelihood, with a prior of
    _WEIGHT_PRIOR = 1 pseudo-row per member pulling them together (EM), and one
    temperature T (between 1/4 and 4, with a prior of 2 pseudo-rows on log T pulling
    it towards 1) by which the mixture's
    probabilities are tempered around its prior pi (what it predicts when nothing is
    known: the members' priors mixed), pi_c (P(c | x) / pi_c)^(1/T) normalised,
    where the same out-of-fold rows say the mixture is over- or under-confident (T
    never moves the prior; where the mixture is near a tie between two classes, the
    prior may decide it); then every member is fitted on all the rows.
    The folds share what all the rows give: numbers cut into all the rows' MDL bins
    (and AODE's missing values replaced, in training, by all the rows' means and
    modes), each fold's counts being all the rows' less the fold's, the weighted
    member's Newton steps (one per fold) starting from its weights on all the rows,
    and, where a network's structure search costs more than about 0.1 s of CPU or
    in leave-one-out, the structure (and selective kDB's selection) found on all the
    rows (the fold's tables its own); the bins and the
    structure have seen the held-out rows, so the figures of summary()["choice"]
    lean to the optimistic side.
    summary()["choice"] says what it chose and why; explain() gives the prior, what
    each value adds (in column order, given the values before it), the temperature
    and each member's weight, probabilities and share of the mixture.

    Missing values and values never seen in training are no evidence: a missing value
    contributes nothing to any member (AODE's members impute it in training only,
    the correlated member's t is the marginal of the numbers known,
    the network reads each node given the parents it knows, the tree sends the row
    down both sides of a split, weighed as the training rows went), a categorical value
    that no training row holds (declared or not) is read as missing, so a row with
    nothing known gets the prior pi, whatever T, and a value never seen is never
    read as another (a child of a country never seen reads its table without the
    country).

    Other members: "tan" (TAN), "bayesnet3" (at most 3 parents), "naive" (naive Bayes
    on MDL bins) and "kdb" (selective kDB, "hdp" tables, missing values as no
    evidence).  weights="uniform" or {member: weight} fixes the weights instead.
    class_weight weighs the rows once, from all of fit's rows, for the members and the
    internal cross-validation alike; the decision rules are NaiveBayes'.

    Text features (features={name: "text"}, NaiveBayes' text parameters): the members
    see them as ignored; naive Bayes of the text features alone (alpha 1) scores
    them, and each member's P_m(c | x) is multiplied by its likelihoods to a weight
    between 0 and 4, normalised, before the mixing (_with_text).  fit chooses that
    weight on the same out-of-fold rows (by the mixture's log loss, with a prior of 2
    pseudo-rows on (weight - 1)^2), then the members' weights with it; the folds read
    a bounded sample of whole rows with their texts as bags of words (text_rows: at
    most 10,000 distinct rows, those of smallest hash beyond), kept exactly as the
    network's rows are.  summary()["text_weight"] is the weight.

    Statistics: the class and value counts, exact, and the distinct rows with their
    exact weights as a Bayesian network keeps them: at most row_sample (default
    50,000) distinct rows, beyond it the deterministic sample of the rows of
    smallest hash (see TAN), the same whatever the rows' order, batching or merge;
    every member compiles from them, the AODE members from the pairwise counts of
    their bins, which give exactly the model of AODE fitted on the same rows.  fit
    reads X once and keeps no row; the weights are chosen from the rows the
    statistics keep.  partial_fit and merge update the statistics exactly and keep
    the weights chosen at fit (a merge averages two models' weights by their
    numbers of rows); choose_weights() chooses them again from all the rows held,
    as fit would (the command line's fit streams its file so).

    >>> X = [["sunny", "hot"], ["sunny", "hot"], ["rain", "mild"], ["rain", "cool"],
    ...      ["overcast", "cool"], ["sunny", "mild"], ["rain", "mild"], ["overcast", "hot"]]
    >>> model = AutoBayes().fit(X, ["no", "no", "yes", "no", "yes", "no", "yes", "yes"])
    >>> model.predict_one(["overcast", "mild"])
    'yes'
    >>> [name for name, *_ in model.summary()["members"]]
    ['waode', 'aode', 'bayesnet', 'weighted', 'tree']
    """

    _statistics_class = _MixtureStatistics
    _allowed_kinds = _NETWORK_KINDS + ("text",)    # text: the text factor (_with_text)
    # numbers are binned whatever kind they are declared (read_csv's kinds say
    # gaussian): AutoBayes' members condition on bins
    _kind_map = {"gaussian": "discretized", "kde": "discretized", "poisson": "discretized"}
    # a merge averages the weights that a fit chooses by cross-validation
    _merge_is_fit = False
    _command_name = "auto"
    _parameters = _classifier_parameters(
        "discretized", _NETWORK_KINDS + ("text",),
        without=("alpha", "prior_alpha", "class_prior"),
        extra={"members": _Parameter(("waode", "aode", "bayesnet", "weighted",
                                      "correlated", "tree", "kdb2"), _check_members),
               "weights": _Parameter("cv", _check_mixture_weights),
               "folds": _Parameter(5, _integer_at_least(2)),
               "max_memory": _MEMORY_PARAMETER,
               "row_sample": _ROW_SAMPLE_PARAMETER})

    def __init__(self, members=("waode", "aode", "bayesnet", "weighted", "correlated",
                                "tree", "kdb2"), weights="cv",
                 folds=5, features=None, categories=None, text_model="multinomial",
                 max_words=None, min_word_count=1, tokenizer=None, complement_norm=False,
                 ngram_range=(1, 1), stop_words=None, numeric="discretized",
                 significant_digits=None, max_memory=2000, row_sample=_ROW_SAMPLE,
                 class_weight=None, thresholds=None, costs=None, reject_below=None,
                 reject_label="unsure"):
        self.members = members
        self.weights = weights
        self.folds = folds
        self.features = features
        self.categories = categories
        self.text_model = text_model
        self.max_words = max_words
        self.min_word_count = min_word_count
        self.tokenizer = tokenizer
        self.complement_norm = complement_norm
        self.ngram_range = ngram_range
        self.stop_words = stop_words
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.max_memory = max_memory
        self.row_sample = row_sample
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()

    def _new_statistics(self):
        """Empty statistics: the rows, as a Bayesian network keeps them, from which
        every member compiles (see _member_model)."""
        return _MixtureStatistics(("BayesNet",))

    def fit(self, X, y, sample_weight=None, progress=False):
        """Fit every member on all the rows and, with weights="cv", choose the
        mixture's weights by cross-validation (see the class docstring).
        ``progress`` as for NaiveBayes.fit: its steps include the folds.

        >>> model = AutoBayes(folds=2).fit([["a"], ["a"], ["b"], ["b"]] * 3, [0, 0, 1, 1] * 3)
        >>> model.predict([["a"], ["b"]])
        [0, 1]
        """
        with _listening(progress, "fit()"):
            return self._fit_rows(X, y, sample_weight)

    def _fit_rows(self, X, y, sample_weight=None, classes=None):
        """fit, with the classes declared in their order (an ARFF file's, for the
        command line).  X is read once and not kept: the weights are chosen from the
        rows the statistics keep (_cv_rows)."""
        _check_params(self._parameters, self.get_params(), "fit()")
        class_weight = self.class_weight  # once, from all the rows: the folds share it
        if class_weight is not None:
            y = _labels_of(y, "fit()")
            y = list(_iterate(y, "y", "an iterable of labels", "fit()"))
            if sample_weight is not None:
                if _as_numpy(sample_weight, "sample_weight", "fit()") is not None:
                    sample_weight = _as_numpy(sample_weight, "sample_weight",
                                              "fit()").tolist()
                sample_weight = list(_iterate(sample_weight, "sample_weight",
                                              "an iterable of numbers", "fit()"))
            if sample_weight is None or len(sample_weight) == len(y):
                if class_weight == "balanced":
                    class_weight = _balanced_class_weight(y, sample_weight, "fit()")
                class_weight = {label: _number(w) for label, w in class_weight.items()}
                sample_weight = _class_weighted(y, sample_weight, class_weight, 0, "fit()")
        statistics = self._learn(X, y, sample_weight, self._new_statistics(), "fit()",
                                 classes=classes, class_weighted=True)
        if self.weights == "cv":
            self._choose_weights(statistics, "fit()")
        with self._state.lock:
            self._state.statistics = statistics
            self._state.compiled = None
            self._state.target = _label_name(y, self._state.target)
            self._state.numpy_labels = False
        return self

    def choose_weights(self):
        """Choose the mixture's weights and temperature again, by the internal
        cross-validation fit runs (weights="cv"), from the rows the model holds now:
        for a model trained with partial_fit or merged from parts (a merge averages
        the parts' weights), such as the command line's fit and the Spark example do.
        The same rows give the same weights however they came (one fit, batches,
        merged parts in any order).  Returns self; a failed call changes nothing.

        >>> X, y = [["a"], ["a"], ["b"], ["b"]] * 3, [0, 0, 1, 1] * 3
        >>> model = AutoBayes(folds=2).partial_fit(X[:6], y[:6]).partial_fit(X[6:], y[6:])
        >>> model.choose_weights().to_dict() == AutoBayes(folds=2).fit(X, y).to_dict()
        True
        """
        call = "choose_weights()"
        _check_params(self._parameters, self.get_params(), call)
        if self.weights != "cv":
            raise NaiveBayesError(
                '%s: weights=%s fixes the weights; expected weights="cv" (the default) '
                "to choose them by cross-validation" % (call, _shown(self.weights)),
                call=call, argument="weights")
        with self._state.lock:
            statistics = self._state.statistics
        if statistics is None:
            raise _not_fitted("%s: this AutoBayes is not fitted yet; call fit(X, y) or "
                              "partial_fit first" % call, call)
        chosen = statistics.skeleton()
        chosen.parts = statistics.parts   # the same counts: only the weights differ
        changes = statistics.changes
        chosen.text_rows = statistics.text_rows
        self._choose_weights(chosen, call)
        with self._state.lock:
            if self._state.statistics is statistics:
                statistics.weights = chosen.weights
                statistics.evaluation = chosen.evaluation
                statistics.temperature = chosen.temperature
                if statistics.changes == changes:     # (no partial_fit meanwhile)
                    statistics.made = chosen.made
                statistics.text_weight = chosen.text_weight
                self._state.compiled = None
        return self

    def _choose_weights(self, statistics, call, limit=5000):
        """statistics.weights, .evaluation and .temperature from an internal stratified
        cross-validation on the rows the statistics keep (_cv_rows: each distinct
        row as many times as it was counted, in a canonical order of their values, so
        that neither the rows' order nor their form, lists or dicts in any key order,
        matters; a stratified sample of _auto_sample(width) rows when there are more:
        three weights need no more, and the members themselves are fitted on every
        row).

        The work done once for every fold: the rows' numbers cut into the MDL bins of
        all the rows, and AODE's missing values replaced by all the rows' replacements
        (_binned_rows); each fold's rows counted once (_fold_parts) and a fold's
        training statistics made as all the rows' less the fold's
        (_training_statistics, the one seam between the folds and the counts: with
        at most _AUTO_LOO_ROWS rows, a held-out part of one row, leave-one-out's); the weighted member and,
        where a search costs more than _FOLD_SEARCH_WORK, the network members
        compiled on all the rows first (_whole_members): the folds' Newton steps
        start from the weights found there, their networks keep the structure found
        there, and the mixture's first compilation takes them as they are (made).
        The held-out rows are scored by _fold_members' models.  Nothing is changed
        unless it succeeds."""
        if len(statistics.class_count) < 2:
            return
        nodes = 1 + sum(kind in ("categorical", "discretized")
                        for kind in statistics.kinds().values())
        sample = _auto_sample(nodes - 1, self.folds)
        X, y, sample_weight = _cv_rows(statistics, sample)
        folds = min(self.folds, len(X))
        if folds < 2:
            return
        if len(X) > sample:
            kept = _stratified_sample(y, sample, 0)
            X = [X[i] for i in kept]
            y = [y[i] for i in kept]
            if sample_weight is not None:
                sample_weight = [sample_weight[i] for i in kept]
        folds = min(folds, len(X))
        _check_auto_work(len(X), nodes, folds, call)
        loo = _loo_groups(X, y) if len(X) <= _AUTO_LOO_ROWS else None
        if loo is not None:               # a fold per distinct row, one copy held out
            fold_of = [-1] * len(X)
            for fold, group in enumerate(loo):
                fold_of[group[0]] = fold
            folds = len(loo)
        else:
            fold_of = _stratified_folds(y, folds, 0)
        params = self.get_params()
        names = _weighed_members(self.members, statistics, len(X))
        # held meanwhile: the fit's rows, the folds' and their training set's
        held = _in_use(params, 3 * _held_bytes(statistics))
        made = {"cuts": _CutsMemo()}      # kept for the mixture's first compilation
        with made["cuts"]:
            start, structures = _whole_members(
                statistics.members_view(), names, held, made, call,
                search=loo is not None or _auto_fold_work(len(X), nodes) > _FOLD_SEARCH_WORK,
                tree=loo is not None)
            raw = X
            X, imputed, replacements, declared = _binned_rows(
                self, statistics, X, _aode_imputes(names, params))
        correlated = _fold_moments(statistics, raw, y, sample_weight, fold_of, folds) \
            if "correlated" in names else None
        trees = _fold_tree_items(statistics, raw, y, sample_weight, fold_of) \
            if "tree" in names else None
        number_set = set(_number_positions(statistics))
        parts = _fold_parts(declared, X, imputed, y, sample_weight, fold_of, folds, call,
                            list(statistics.features))
        whole = None                      # the statistics of all the rows: the folds'
        if loo is not None:               # (the folds count one copy of each row)
            whole = _fold_parts(declared, X, imputed, y, sample_weight, [0] * len(X), 1,
                                call, list(statistics.features))[0][1]
            parts = [(group, part) for group, (_, part) in zip(loo, parts)]
        for _, part in parts if loo is None else ():
            if part is not None:
                whole = part.copy() if whole is None else whole.absorb(part)
        if whole is None:
            return
        # in use meanwhile: the members of all the rows compiled, and the pairwise
        # counts of all the rows, a fold's and a training set's
        aode = whole.parts.get("AODE")
        held = _in_use(held, sum(getattr(compiled, "memory", 0) for key, found in
                                 made.items() if key != "cuts" for compiled in found[1:]) +
                       (3 * _PAIR_BYTES * aode.pair_counts.size() if aode is not None else 0))
        fitting = _Fitting(call, declared.get_params(), declared._default_kind,
                           declared._allowed_kinds, kind_map=declared._kind_map)
        stride = max(1, -(-len(X) // limit))          # score at most about limit rows
        classes = statistics.classes()
        likelihoods = [[] for _ in names]
        hits = [[] for _ in names]
        probabilities = [[] for _ in names]
        priors = [[] for _ in names]      # each member's P(c) (of nothing known), per row
        scored = []
        texts = []                        # the text factor's scores (text features)
        for fold, (members, part) in enumerate(parts):
            _progress("choosing the weights, fold", fold + 1, folds)
            held_out = [i for i in members if i % stride == 0 and (
                sample_weight is None or sample_weight[i])]     # weight 0: nothing to score
            if not held_out:
                continue
            training = _training_statistics(whole, part, fitting)
            if not training.class_count:
                continue
            scored.extend(held_out)
            known = _known_values(training)       # as the mixture reads rows
            texts.extend(_text_scores(training, params, [X[i] for i in held_out],
                                      classes))
            moments = None
            if correlated is not None:
                numbers, logged, centres, whole_moments, fold_moments = correlated
                moments = (numbers, logged, centres,
                           _moments_less(whole_moments, fold_moments[fold]))
            models = _fold_members(training.members_view(), names, held, start,
                                   structures, replacements, call, moments,
                                   None if trees is None else trees(fold))
            for m, compiled in enumerate(models):
                nothing = dict(zip(compiled.classes, _posterior(
                    compiled.joint([None] * compiled.width))))
                priors[m].extend([[nothing.get(c, 0.0) for c in classes]] * len(held_out))
            rows = [_unknown_as_missing(known, models[0].positional(X[i]))
                    for i in held_out]
            # the correlated and tree members read the numbers as they are, not
            # their bins; the others the binned rows
            plain = {j: values for j, values in known.items() if j not in number_set}
            binned = [m for m, name in enumerate(names) if name not in _RAW_MEMBERS]
            per_member = [None] * len(models)
            for m, joints in zip(binned, _members_joints([models[m] for m in binned],
                                                         rows)):
                per_member[m] = joints
            for m, name in enumerate(names):
                if name in _RAW_MEMBERS:
                    per_member[m] = models[m].joints([_unknown_as_missing(
                        plain, models[m].positional(raw[i])) for i in held_out])
            for m, (compiled, joints) in enumerate(zip(models, per_member)):
                for i, joint in zip(held_out, joints):
                    posterior = dict(zip(compiled.classes, _posterior(joint)))
                    full = [posterior.get(c, 0.0) for c in classes]
                    probabilities[m].append(full)
                    truth = posterior.get(y[i], 0.0)
                    likelihoods[m].append(max(truth, 1e-300))
                    hits[m].append(max(range(len(full)), key=full.__getitem__) ==
                                   classes.index(y[i]) if y[i] in classes else False)
        _progress("choosing the weights, fold")
        if not scored:
            return
        row_weights = [1.0 if sample_weight is None else float(sample_weight[i])
                       for i in scored]
        if sum(row_weights) > 1e300:      # weights near 1e308: sums of them overflow
            largest = max(row_weights)
            row_weights = [v / largest for v in row_weights]
        total = sum(row_weights) or 1.0
        weights = _em_weights(likelihoods, row_weights, prior=_WEIGHT_PRIOR)
        text_weight = 1.0
        if texts:                         # the text factor's weight, then the members'
            truth = [classes.index(y[i]) for i in scored]
            text_weight = _text_weight(probabilities, texts, truth, row_weights, weights)
            probabilities, likelihoods, hits = _texted(probabilities, texts, truth,
                                                       text_weight)
            weights = _em_weights(likelihoods, row_weights, prior=_WEIGHT_PRIOR)

        def scores(columns, correct):
            loss = -sum(v * log(max(p, 1e-15)) for v, p in zip(row_weights, columns))
            return [loss / total, sum(v for v, hit in zip(row_weights, correct) if hit)
                    / total, len(scored)]
        evaluation = {name: scores(likelihoods[m], hits[m]) for m, name in enumerate(names)}
        mixed = [[sum(w * probabilities[m][n][c] for m, w in enumerate(weights))
                  for c in range(len(classes))] for n in range(len(scored))]
        class_priors = [[sum(w * priors[m][n][c] for m, w in enumerate(weights))
                         for c in range(len(classes))] for n in range(len(scored))]
        truth = [classes.index(y[i]) for i in scored]
        temperature = _temperature(mixed, truth, row_weights, class_priors)
        mixed = [_posterior(_tempered(row, [_log(p) for p in pi], temperature))
                 for row, pi in zip(mixed, class_priors)]
        evaluation["mixture"] = scores(
            [row[t] for row, t in zip(mixed, truth)],
            [max(range(len(row)), key=row.__getitem__) == t for row, t in zip(mixed, truth)])
        statistics.weights = dict(zip(names, weights))
        statistics.weights.update((name, 0.0) for name in self.members if name not in names)
        statistics.evaluation = evaluation
        statistics.temperature = temperature
        statistics.made = made
        statistics.text_weight = text_weight


# The members that AutoBayes' internal cross-validation gives the rows as they are
# (numbers, not their bins)
_RAW_MEMBERS = ("correlated", "tree")

# Newton steps at most of a fold's weighted member, from the weights of all the rows
# (one comes close: the folds' rows are most of them)
_FOLD_WEIGHT_STEPS = 1
# The work (as _auto_fold_work counts it: about 0.1 s of CPU) beyond which a fold's
# network members keep the structure searched on all the rows rather than search
# their own (their tables are the fold's)
_FOLD_SEARCH_WORK = 400000


# At most this many rows cross-validated: leave-one-out rather than folds= folds
_AUTO_LOO_ROWS = 150

# The prior on the members' weights, in pseudo-rows per member (a Dirichlet prior of
# 1 + _WEIGHT_PRIOR, see _em_weights): it pulls the weights towards equal ones, which
# on folds of a few dozen rows is worth more than the pick of one member.  Of 0.5, 1,
# 1.5, 2 and 4, measured on Weka's 18 sets and the ten real sets of benchmarks/
# (docs/accuracy.md), 1 gave the highest mean accuracy on the 18 and on their 14 of
# at least 100 rows, and a lower log loss than 2 on the 14 and on the ten
_WEIGHT_PRIOR = 1.0

# Members that take part in the mixture only from this many cross-validated rows:
# with fewer, their weight is 0.  kDB with k=2 conditions every feature on the class
# and two parents; on Weka's 18 sets its out-of-fold probabilities on fewer than 100
# rows (the weather files, contact-lenses, labor) raised the mixture's log loss
# (each weather file's by 0.03 to 0.04), while on the sets of 100 rows or more it
# raised the mean accuracy from 0.8995 to 0.9004 (soybean 0.942 to 0.954) and lowered
# the log loss from 0.2446 to 0.2436 (docs/accuracy.md).
_MEMBER_ROWS = {"kdb2": 100}


def _weighed_members(members, statistics, rows):
    """The members that the cross-validation of ``rows`` rows weighs (the others get
    weight 0), in the order given: all of them but the correlated member when no
    feature is a number (it is naive Bayes then, the weighted member's start), then
    the members of _MEMBER_ROWS below their rows, while more than one is left."""
    names = list(members)
    left_out = [name for name in names if name == "correlated"
                and not _number_positions(statistics)]
    left_out += [name for name in names if rows < _MEMBER_ROWS.get(name, 0)]
    for name in left_out:
        if len(names) > 1:
            names.remove(name)
    return names


def _loo_groups(X, y):
    """The rows of AutoBayes' leave-one-out, grouped: [[the indices of one distinct
    row]] (_cv_rows gives a distinct row's copies as one object, its label and
    weight alike), in the order of their first rows.  Leaving out any copy of a row
    gives the same model, which scores each of them."""
    groups = {}
    for i, row in enumerate(X):
        groups.setdefault((id(row), y[i]), []).append(i)
    return list(groups.values())


def _given_structure(score, nodes, root, params):
    """No search: the structure params["_parents"] gives (a fold's network members
    in AutoBayes' internal cross-validation, see _fold_members)."""
    return [list(parents) for parents in params["_parents"]]


_STRUCTURE_SEARCHES["given"] = _given_structure


def _budgeted(work, call, *args):
    """work(*args), an _OverBudget raised as the NaiveBayesError of the call."""
    try:
        return work(*args)
    except _OverBudget as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None


def _member_key(name, params):
    """What AutoBayes' member ``name`` is compiled with under AutoBayes' params (its
    parameters, without the memory in use): a member compiled with an equal key
    from the same statistics is the same model."""
    _, member = _member_parameters(name, params)
    member.pop("_memory_in_use", None)
    return member


def _whole_members(statistics, names, params, made, call, search, tree=False):
    """(the weighted member's weights on all the rows, {network member: its structure
    on all the rows}): the members of all the rows that the folds start from,
    compiled from the statistics (the mixture's own members: kept in ``made`` for
    its first compilation, under their _member_key).  The weighted member when it
    is among ``names``; the network members with ``search`` (see
    _FOLD_SEARCH_WORK), and the tree with ``search`` and ``tree`` (leave-one-out:
    its splits kept by every fold, {"tree": its nodes} among the structures)."""
    start, structures = None, {}
    for name in names:
        cls = _AUTO_MEMBERS[name][0]
        network = cls._statistics_class is _NetworkStatistics
        if name != "weighted" and not ((network or name == "tree" and tree) and search):
            continue
        compiled = _budgeted(_member_model, call, statistics, name, params,
                             {"cuts": made["cuts"]})
        made[name] = (_member_key(name, params), compiled)
        if name == "weighted":
            start = dict(zip(compiled.names, compiled.weights))
        elif name == "tree":
            structures[name] = compiled.nodes
        else:
            structures[name] = compiled.parents
    return start, structures


def _aode_imputes(names, params):
    """Whether AutoBayes' members ``names`` include AODE members and every one of them
    imputes (AutoBayes' own do): the folds then count AODE's pairs of the rows
    imputed once (see _fold_members)."""
    aode = [name for name in names if _AUTO_MEMBERS[name][0] is AODE]
    return bool(aode) and all(_member_parameters(name, params)[1].get("impute")
                              for name in aode)


def _fold_parts(declared, X, imputed, y, sample_weight, fold_of, folds, call, order):
    """[(the rows of fold f, their statistics)] of the internal cross-validation: the
    rows counted by ``declared`` (AutoBayes on the binned rows) as a network counts
    them, and with ``imputed`` (the rows imputed) AODE's pairwise counts of those
    under "AODE"; None for a fold whose rows all weigh 0 (it counts nothing).  Every
    part's features in ``order`` (the model's: the members' ties go as the model's)."""
    parts = []
    for fold in range(folds):
        members = [i for i, f in enumerate(fold_of) if f == fold]
        part = None
        if members and (sample_weight is None or any(sample_weight[i] for i in members)):
            labels = [y[i] for i in members]
            weights = None if sample_weight is None else [sample_weight[i] for i in members]
            part = declared._learn([X[i] for i in members], labels, weights,
                                   declared._new_statistics(), call, check_names=False,
                                   class_weighted=True)
            if imputed is not None:
                part.parts["AODE"] = declared._learn(
                    [imputed[i] for i in members], labels, weights,
                    _MixtureStatistics(("AODE",)), call, check_names=False,
                    class_weighted=True).parts["AODE"]
            part.arrange(order)
        parts.append((members, part))
    return parts


def _fold_moments(statistics, X, y, sample_weight, fold_of, folds):
    """(number positions, those read as log(1 + x), centres, all the rows' moments,
    [each fold's moments]) of the rows X as they are (numbers, not bins): what the
    correlated member of each fold is compiled from (_number_moments; a fold's
    training moments are all the rows' less the fold's, _moments_less; which numbers
    are read as log(1 + x) is decided once, on all the rows, as the bins are)."""
    numbers = _number_positions(statistics)
    names = list(statistics.features)
    mapping = statistics.layout == "mapping"
    items = []
    for i, row in enumerate(X):
        values = [row.get(names[j]) for j in numbers] if mapping else \
            [row[j] if j < len(row) else None for j in numbers]
        items.append((y[i], list(map(_plain_number, values)),
                      1.0 if sample_weight is None else sample_weight[i]))
    logged = _logged_numbers(items)
    items = _logged_items(items, logged)
    largest = max((weight for _, _, weight in items), default=1)
    centres, whole = _number_moments(items, largest=largest)
    parts = [[] for _ in range(folds)]
    for item, fold in zip(items, fold_of):
        if fold >= 0:
            parts[fold].append(item)
    return numbers, logged, centres, whole, [_number_moments(part, centres, largest)[1]
                                             for part in parts]


def _fold_tree_items(statistics, X, y, sample_weight, fold_of):
    """A function of a fold giving what the fold's tree member grows on: (the
    positions of the numbers, [(label, positional values, weight, 1)] of the rows X as
    they are (numbers, not bins) that the fold does not hold out)."""
    names = list(statistics.features)
    mapping = statistics.layout == "mapping"
    items = []
    for i, row in enumerate(X):
        values = tuple(row.get(name) for name in names) if mapping else tuple(row)
        items.append((y[i], values, 1.0 if sample_weight is None else sample_weight[i],
                      1))

    numbers = _number_positions(statistics)

    def of_fold(fold):
        return numbers, [item for item, at in zip(items, fold_of) if at != fold]
    return of_fold


def _binned_rows(model, statistics, X, impute):
    """(the cross-validation's rows with every number replaced by its MDL bin, the
    same with every missing value replaced as AODE's impute=True replaces it (when
    ``impute``, else None), the replacements per feature position, and a classifier
    that counts them: AutoBayes with the statistics' kinds, the binned features
    categorical, their values the bins 0 .. len(cuts)).

    The bins are cut once, on all the rows' counts (the cut points naive Bayes and
    the network find there), and every fold counts and predicts its rows in them,
    so that a fold's counts are those of all the rows less the fold's, exactly, and
    no fold cuts its own; a missing value's replacement is likewise all the rows'
    (a categorical feature's mode, the bin of a number's mean: see
    _AODEStatistics._replacement).  Both have seen the held-out rows (the bins their
    labels too), which the folds' scores hardly notice (docs/accuracy.md measures
    it)."""
    classes = statistics.classes()
    names = statistics.names()
    cuts = {name: feature.stats.cut_points(classes)
            for name, feature in statistics.features.items()
            if feature.name == "discretized"}
    # (a feature still undecided, every value missing, stays undecided: declared
    # gaussian it would be a discretized node in the folds' networks, not in the
    # whole's structure they are given)
    kinds = {name: kind for name, kind in statistics.kinds().items()
             if statistics.features[name].name is not None}
    categories = _by_name(model.categories, "categories")
    for name, found in cuts.items():
        kinds[name] = "categorical"
        categories[name] = list(range(len(found) + 1))
    declared = type(model)(**dict(model.get_params(), features=kinds,
                                  categories=categories))
    replacements = None
    if impute:
        replacements = []
        for name in names:
            value = _AODEStatistics._replacement(statistics.features[name])
            if value is not None and name in cuts:
                value = bisect_left(cuts[name], value)
            replacements.append(value)
    mapping = statistics.layout == "mapping"
    at = [(name if mapping else j, cuts[name]) for j, name in enumerate(names)
          if name in cuts]
    fills = [] if replacements is None else [
        (name if mapping else j, value) for j, (name, value) in
        enumerate(zip(names, replacements)) if value is not None]
    binned, imputed = [], []
    made = {}                             # _cv_rows repeats a row as one object
    for row in X:
        found = made.get(id(row))
        if found is None:
            plain = dict(row) if mapping else list(row)
            for j, points in at:
                value = plain.get(j) if mapping else plain[j]
                if value is not None:
                    plain[j] = bisect_left(points, value)
            filled = None
            if replacements is not None:
                filled = dict(plain) if mapping else list(plain)
                for j, value in fills:
                    if (filled.get(j) if mapping else filled[j]) is None:
                        filled[j] = value
            found = made[id(row)] = plain, filled
        binned.append(found[0])
        imputed.append(found[1])
    return binned, imputed if impute else None, replacements, declared


def _training_statistics(whole, held_out, fitting):
    """The statistics of the rows a fold trains on: those of all the rows less the
    held-out part's (``held_out``: its rows counted apart; None: nothing held out),
    by forget's exact subtraction, so the same counts as the other folds' rows
    counted together.  The one place where a training set is made: a held-out part
    of one row gives leave-one-out's."""
    training = whole.copy()
    if held_out is not None:
        training.subtract(held_out, fitting)
    return training


def _fold_members(training, names, params, start, structures, replacements, call,
                  moments=None, tree_items=None):
    """AutoBayes' members ``names`` compiled from a fold's training statistics
    (_MixtureStatistics of the binned rows: a network's rows, and under "AODE" the
    pairwise counts of the rows imputed with ``replacements``, when AODE's members
    impute): a network member searched on the rows, or with the structure
    ``structures`` gives it ({member: each node's parents}), its tables the rows';
    the AODE members from the counts (sharing their tables; a held-out row's
    missing values take the replacements); the weighted member's Newton steps
    started from ``start`` ({feature: its weight on all the rows}; None: from 1), at
    most _FOLD_WEIGHT_STEPS of them; the correlated member from ``moments`` ((number
    positions, those read as log(1 + x), centres, the training rows'
    _number_moments) of the rows before binning); the tree member from
    ``tree_items`` ((number positions, the fold's training rows before binning):
    _fold_tree_items), grown, or with the splits ``structures`` gives it."""
    shared = {}
    models = []
    aode = training.parts.get("AODE")
    for name in names:
        cls, member = _member_parameters(name, params)
        member = cls._compiling(member)
        if name == "weighted" and start is not None:
            rows = next(part for part in training.parts.values()
                        if isinstance(part, _NetworkStatistics))
            models.append(_WeightedNaiveModel(rows, member, start=start,
                                              steps=_FOLD_WEIGHT_STEPS))
        elif name == "correlated" and moments is not None:
            rows = next(part for part in training.parts.values()
                        if isinstance(part, _NetworkStatistics))
            numbers, logged, centres, found = moments
            models.append(_CorrelatedModel(rows, member, moments=(centres, found),
                                           numbers=numbers, logged=logged))
        elif name == "tree" and tree_items is not None:
            rows = next(part for part in training.parts.values()
                        if isinstance(part, _NetworkStatistics))
            models.append(_TreeModel(rows, member, items=tree_items[1],
                                     numbers=tree_items[0], splits=structures.get(name)))
        elif name in structures:
            member = dict(member, structure_search="given", _parents=structures[name])
            if member.get("k") == "select":       # (the structure holds the selection)
                member["k"] = member["max_k"]
            rows = next(part for part in training.parts.values()
                        if isinstance(part, _NetworkStatistics))
            models.append(_budgeted(_NetworkModel, call, rows, member))
        elif cls is AODE and aode is not None:
            filled = member.get("impute") is True     # replaced at prediction too
            member["impute"] = False      # (the counts are of imputed rows)
            same = (member["alpha"], member["estimate"], member["m"])
            first = shared.get(same)
            compiled = first.twin(aode, member) if first is not None else None
            if compiled is None:
                compiled = shared[same] = _budgeted(_AODEModel, call, aode, member)
            compiled.replacements = replacements if filled else None
            models.append(compiled)
        else:
            models.append(_budgeted(_member_model, call, training, name, params, shared))
    return models


def _cv_rows(statistics, sample):
    """(X, y, sample_weight or None) of AutoBayes' internal cross-validation: the rows
    its statistics keep (a network's distinct rows), each as many times as it was
    counted (its weight shared equally among them), in a canonical order: by label,
    then by the sorted texts of the row's known values (not their columns: lists and
    dicts in any key order give the same order), then by the row's hash.  Beyond 20
    times ``sample`` rows, each distinct row is taken in proportion (the running
    total's floor at a fixed rate, so that about 20 x sample remain and every class
    keeps its share), before the stratified sample.  Rows are positional, or
    {name: value} when the model's rows are mappings."""
    part = next(part for part in statistics.parts.values()
                if isinstance(part, _NetworkStatistics))
    counts = part.row_counts
    names = list(part.features)
    width = len(names)
    text = [j for j, name in enumerate(names) if part.features[name].name == "text"]
    if text and statistics.text_rows is not None:   # whole rows, texts as bags of words
        counts = statistics._text_rows_in(names)
    items = []
    for label, counted in counts.rows.items():
        for row, (weight, n) in counted.items():
            if len(row) < width:
                row = row + (None,) * (width - len(row))
            key = tuple(sorted(_stable_text(v) for v in row if v is not None))
            items.append(((_canonical_value(label), key), label, row, weight, n))
    items.sort(key=itemgetter(0))
    # the row's hash only where the label and the texts tie (as a rule nowhere)
    start = 0
    for end in range(1, len(items) + 1):
        if end == len(items) or items[end][0] != items[start][0]:
            if end - start > 1:
                items[start:end] = sorted(items[start:end],
                                          key=lambda item: _row_hash(names, item[2]))
            start = end
    total = sum(item[4] for item in items)
    rate = min(1.0, 20.0 * sample / total) if total else 1.0
    mapping = part.layout == "mapping"
    X, y, weights = [], [], []
    unit = True
    running = 0
    for _, label, row, weight, n in items:
        if rate < 1.0:                    # taken in proportion: a weight of 1 each
            before = int(running * rate)
            running += n
            copies, each = int(running * rate) - before, 1
        else:
            copies, each = n, 1 if weight == n else float(weight) / n
        if not copies:
            continue
        unit = unit and each == 1
        if counts is not part.row_counts:
            row = tuple(dict(v) if j in text and v is not None else v
                        for j, v in enumerate(row))
        shown = dict(zip(names, row)) if mapping else list(row)
        X.extend([shown] * copies)
        y.extend([label] * copies)
        weights.extend([each] * copies)
    return X, y, (None if unit else weights)


# The registry of classifiers: what a model file's "model" field names; those with a
# _command_name are the command line's --model choices.
_MODELS = {cls.__name__: cls for cls in (NaiveBayes, CategoricalNB, GaussianNB, AODE, TAN,
                                         BayesNet, KDB, AutoBayes)}


def _cli_models():
    """{--model name: classifier} of the registered classifiers that have one."""
    return {cls._command_name: cls for cls in _MODELS.values() if cls._command_name}
