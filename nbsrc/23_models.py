# The order of the parameters in the constructors (the order of the public contract).
_PARAMETER_ORDER = ("members", "weights", "folds", "max_parents", "k", "max_k", "alpha",
                    "prior_alpha", "class_prior", "frequency_limit", "features", "categories",
                    "ddof", "var_smoothing", "text_model", "max_words", "min_word_count",
                    "tokenizer", "complement_norm", "ngram_range", "stop_words", "numeric",
                    "bandwidth", "significant_digits")


def _classifier_parameters(numeric_default, kinds, extra=None, without=()):
    """The parameters of a classifier: the base ones (but those it does without),
    numeric=, those of the feature kinds it can use and its own (extra), in
    _PARAMETER_ORDER; then the class weights and decision rules."""
    parameters = {name: p for name, p in _BASE_PARAMETERS.items() if name not in without}
    for kind in kinds:
        parameters.update(_KINDS[kind].parameters)
    parameters["numeric"] = _numeric_parameter(numeric_default, kinds)
    parameters.update(extra or {})
    order = {name: i for i, name in enumerate(_PARAMETER_ORDER)}
    parameters = dict(sorted(parameters.items(), key=lambda item: order.get(item[0], 99)))
    parameters.update(_DECISION_PARAMETERS)           # last, on every classifier
    return parameters


class NaiveBayes(_Classifier):
    """Naive Bayes over categorical, Gaussian, text and count features, alone or
    mixed in one model.

    Parameters (all can be changed with set_params; those that shape probabilities
    take effect at once, even on a loaded model, because the model keeps counts
    rather than probabilities; they are checked when the model is used):

    alpha          Lidstone smoothing of categorical, word, count and bin likelihoods
                   (1 = Laplace, 0 = MLE).
    prior_alpha    smoothing of the class prior: (N_c + prior_alpha) / (N + K*prior_alpha).
    class_prior    None (learned), "uniform", or {label: probability} (overrides
                   prior_alpha).
    features       None to infer each feature's kind, or {name: kind} / [kind, ...] with
                   kind in "categorical", "gaussian", "text", "poisson", "discretized",
                   "kde", "ignore".  Undeclared features are inferred: numeric= when
                   every non-missing training value is a real number (not bool),
                   categorical otherwise (text and counts are never inferred: declare
                   them).
    categories     known values per categorical feature ({name: [values]} or a list by
                   position); they count in S_j even if unseen, and any other training
                   value is an error.
    ddof           Gaussian variance divisor N_c - ddof: 0 as scikit-learn, 1 as R and the
                   textbooks.
    var_smoothing  added to every Gaussian variance, times that feature's own variance
                   (ddof 0, all classes pooled), so that a column of huge numbers (a
                   numeric code) cannot flatten the others; GaussianNB adds it times
                   the largest variance of any feature, as scikit-learn does.
    text_model     "multinomial" (bag-of-words: word counts), "bernoulli" (set-of-words:
                   each vocabulary word present or absent) or "complement" (complement
                   naive Bayes, Rennie et al. 2003: scikit-learn's ComplementNB; no
                   learned prior is added to its scores, a class_prior given is), for
                   text features.
    max_words      keep the k most frequent training words (None: all), frequency being
                   documents (Bernoulli) or occurrences (multinomial, complement); ties
                   alphabetical.
    min_word_count drop words rarer than this.
    tokenizer      None (lowercase, then scikit-learn CountVectorizer's default pattern)
                   or a callable from a string to a list of words; a text value may also
                   be a list of words already split, or a {word: count} mapping with
                   real counts >= 0 (TF-IDF weights, say), taken as it is.
    complement_norm   complement weights normalised (ComplementNB's norm=True).
    ngram_range    (min_n, max_n): the n-grams of min_n to max_n words, joined by a
                   space, after stop words are dropped, as CountVectorizer forms them.
    stop_words     None, "english" (scikit-learn's 318 words) or a list of words to
                   drop (not lowercased, as in CountVectorizer).
    numeric        the kind of inferred numeric features: "gaussian", "discretized" or
                   "kde".
    class_weight   None, "balanced" or {label: weight}: each row's weight times its
                   class's weight (1 for a class not named), as scikit-learn's
                   class_weight; it changes the counts, and so the model.
    thresholds     {label: t > 0}, one per class: predict the class maximising
                   P(c | x) / t_c (Spark's rule).
    costs          {true label: {predicted label: cost}}: predict the class of least
                   expected cost, sum_i P(i | x) cost[i][j].
    reject_below   a probability: predict reject_label when the largest P(c | x) is
                   below it.
    reject_label   what predict says then (default "unsure"; never a class).

    Policies:

    - Rows are sequences (features named 0, 1, ..., in column order) or mappings
      (named by key).  The features of dict rows are in sorted order of their names,
      as scikit-learn's DictVectorizer orders them (names that Python cannot compare
      with one another: by type, numbers before text, then value), whatever the order
      of the keys, of the rows, of the batches and of features=; a DataFrame's are its
      columns in its order (new names that a later batch of dicts or a merge brings
      put the features in sorted order again).  The order matters where ties do: a
      network's search breaks its ties by it (Weka's attribute order), and sums add in
      it.  So the same rows as lists, as dicts in any key order or as a DataFrame, in
      any order, give one model.  A sequence row holds the values of
      ``feature_names_`` in order.
    - Missing values (None, float NaN, an absent key) are skipped when fitting and
      contribute nothing when predicting.  A feature name never seen in training is
      ignored at predict time.
    - A categorical value never seen in training gets the Laplace fallback
      alpha / (N_cj + alpha * S_j) for every class.  When a class has no rows with
      the feature and alpha = 0, its likelihood is the limit 1 / S_j.
    - Gaussian (and Poisson): a class with no values of a feature uses the pooled
      distribution of all classes; a class variance with N_c - ddof <= 0 counts as 0.
      Statistics are exact sums, so fit, partial_fit in any batches and merge agree
      exactly.
    - Zero probabilities (alpha = 0) and zero variances (var_smoothing = 0) give
      log-likelihoods of -inf and +inf (a point mass at the class mean).  They are
      counted rather than added: classes are ranked first by (number of +inf terms -
      number of -inf terms), then by the sum of the finite terms; this is the limit of
      a tiny epsilon in place of each zero.  So no NaN is ever returned, and when
      every class has probability zero the decision falls to the remaining evidence.
    - ``classes_`` is sorted when the labels are mutually orderable, else in first-seen
      order; ties in predict go to the earlier class in ``classes_``.
    - Weights: sample_weight w counts a row w times (a weight of 2 equals the row
      twice, a weight of 0 as if the row were absent); weights must be finite, >= 0.
    - Labels and categorical values are compared as Python compares them: 1, 1.0 and
      True are one value.
    - Every error the caller can cause raises NaiveBayesError naming the call, the
      argument and the row (rows count from 0, like Python indexes); a failed fit or
      partial_fit leaves the model as it was.
    - NumPy or pandas input gives NumPy output from predict and the predict_*proba
      methods, as in scikit-learn; lists otherwise.
    - Class weights (every classifier): class_weight multiplies each row's
      sample_weight, as floats (scikit-learn's sample_weight * class_weight[y]), so a
      model equals the fit with those sample weights, bit for bit, and class_count_
      holds the weighted counts; a weight of 0 drops the class's rows.  "balanced" is
      W / (K * W_c), W_c the weight of class c's rows (their number without
      sample_weight), W the total and K the number of classes of positive weight
      (scikit-learn's compute_class_weight given the sample_weight, as its
      LogisticRegression calls it), correctly rounded from exact sums.  It needs
      every label at once: fit computes it from its rows; partial_fit and forget
      refuse it, and so does merge (each model's rows were weighed by its own
      counts): give a {label: weight} mapping instead, which all of them take
      (forget then removes each row's weight times its class's).
    - Decision rules (every classifier): thresholds, costs and reject_below change
      predict, predict_one and score (accuracy of predict: a rejected row counts as
      wrong), never a probability.  reject_below is looked at first, on the
      probabilities; then thresholds or costs (one of them; both set is an error)
      choose among the classes; ties go to the earlier class, and scores closer than
      rounding can tell are compared exactly, so equal thresholds and the 0-1 loss
      give the argmax.  thresholds names every class, each > 0 (Spark also allows one
      0, meaning "that class whenever possible": use a tiny threshold).  costs has a
      row per true class and a cost for every other class (a diagonal entry left out
      costs 0; costs may be negative).  reject_label is not a class.  Labels the
      classes lack, or classes left out, are errors when predict is next called; the
      values themselves are checked at fit too.  explain() says what a rule did.

    >>> model = NaiveBayes().fit([["red", 1.0], ["red", 1.2], ["blue", 3.1],
    ...                          ["blue", 2.9]], ["a", "a", "b", "b"])
    >>> model.feature_kinds_
    {0: 'categorical', 1: 'gaussian'}
    >>> model.predict([["red", 1.1], [None, 3.0], ["green", None]])
    ['a', 'b', 'a']
    """

    _parameters = _classifier_parameters("gaussian", _KINDS)
    _command_name = "naive"

    def __init__(self, alpha=1.0, prior_alpha=0.0, class_prior=None, features=None,
                 categories=None, ddof=0, var_smoothing=1e-9, text_model="multinomial",
                 max_words=None, min_word_count=1, tokenizer=None, complement_norm=False,
                 ngram_range=(1, 1), stop_words=None, numeric="gaussian",
                 bandwidth="scott", significant_digits=None, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.alpha = alpha
        self.prior_alpha = prior_alpha
        self.class_prior = class_prior
        self.features = features
        self.categories = categories
        self.ddof = ddof
        self.var_smoothing = var_smoothing
        self.text_model = text_model
        self.max_words = max_words
        self.min_word_count = min_word_count
        self.tokenizer = tokenizer
        self.complement_norm = complement_norm
        self.ngram_range = ngram_range
        self.stop_words = stop_words
        self.numeric = numeric
        self.bandwidth = bandwidth
        self.significant_digits = significant_digits
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


class CategoricalNB(NaiveBayes):
    """Naive Bayes with every feature categorical, whatever its type (numbers too):
    scikit-learn's CategoricalNB, without the ordinal encoding.

    >>> CategoricalNB().fit([[1, 10], [2, 20]], ["x", "y"]).feature_kinds_
    {0: 'categorical', 1: 'categorical'}
    """

    _default_kind = "categorical"
    _command_name = None


class GaussianNB(NaiveBayes):
    """Naive Bayes with every feature Gaussian.

    >>> model = GaussianNB().fit([[1.0], [1.2], [3.0], [3.2]], [0, 0, 1, 1])
    >>> model.predict([[1.1], [2.9]])
    [0, 1]
    """

    _default_kind = "gaussian"
    _command_name = None
    _variance_floor = "largest"           # scikit-learn's var_smoothing, exactly


_ESTIMATES = ("laplace", "m", "hdp")     # estimate= of AODE and the networks


def _estimate_parameter(default):
    """The estimate= parameter of AODE and the networks, with its default."""
    return _Parameter(default, _one_of(*_ESTIMATES), (
        _ESTIMATES, "aode, tan, bayesnet, kdb: the tables' estimate: laplace (alpha "
        "smoothing, default), m (the m-estimate (n + m/v) / (d + m), Weka's AODE -M) or "
        "hdp (hierarchical: each table shrunk towards the one with a parent fewer)"))


_M_PARAMETER = _Parameter(1.0, _smoothing_check, (
    _cli_number, "aode, tan, bayesnet, kdb: the weight m of the m-estimate (default 1)"))


class AODE(_Classifier):
    """Averaged one-dependence estimators (Webb, Boughton and Wang 2005; the
    semi-naive Bayes of the watermelon book, section 7.5): each feature may depend on
    one other feature besides the class.  Every feature in turn is a super-parent:

        P(c, x) ~ mean over qualifying parents p of P(c, x_p) prod_{j != p} P(x_j | c, x_p)
        P(c, x_p)       = (N(c, x_p) + alpha) / (N_p + alpha * K * S_p)
        P(x_j | c, x_p) = (N(c, x_p, x_j) + alpha) / (N_j(c, x_p) + alpha * S_j)

    where N_p counts the rows with feature p present and N_j(c, x_p) the class-c rows
    with x_p where feature j is present; S_j is the number of known values (declared
    in categories, else seen) or bins.  A parent qualifies when its value is present
    and seen at least frequency_limit times in training (weighted, all classes
    together; at frequency_limit=0 every present value, a declared value never seen
    included); when none qualifies, the row is scored by naive Bayes with the prior
    (N_c + alpha) / (N + alpha * K) and P(x_j | c) = (N(c, x_j) + alpha) / (N_cj +
    alpha * S_j).  At alpha = 1 this is Weka's weka.classifiers.bayes.AODE -F
    frequency_limit, but computed in log space (the mean over parents a log-sum-exp),
    so that any number of features gives finite, normalised probabilities.

    Parameters: alpha, frequency_limit, features and categories as above (class_weight
    and the decision rules as NaiveBayes'); numeric: inferred numbers are
    "discretized" (Fayyad and Irani's MDL bins, as Weka's supervised Discretize; cut
    when the model is compiled); significant_digits rounds numbers before they are
    counted.  Features may be "categorical", "discretized" or
    "ignore"; other kinds are refused with the fix (declare them "discretized").
    Three more, independent of each other and of the above:

    - estimate="m": Weka's m-estimate (AODE -M, m = -W) in all four probabilities:
      (n + m / v) / (d + m) with the n and d of the formulas above and v their number
      of outcomes (K * S_p for P(c, x_p), S_j for P(x_j | c, x_p) and P(x_j | c), K
      for the prior), i.e. Lidstone's formula with alpha = m / v; alpha has no role
      then.  m >= 0 may be any number (Weka's is an integer).
    - weighting="mutual-information": the weighted AODE of Jiang and Zhang (2006),
      Weka's WAODE: parent p's product has the weight I_p = sum over classes c and
      values v of P(c, v) log2(P(c, v) / (P(c) P(v))) (a term 0 where P(c, v) or P(c)
      P(v) is below 1e-6, as in Weka), the class score sum_p I_p P_p / sum_p I_p over
      the row's qualifying parents.  When those weights are all 0 (every feature
      independent of the class in the counts, one class only, no bins), equal
      weights: plain AODE (where Weka's WAODE answers NaN).  Weka's WAODE takes no
      missing values and counts every row once; here the probabilities of I_p are
      the weighted counts over the rows where feature p is present (sample weights
      honoured), so that it gives an answer wherever AODE does, and Weka's WAODE is
      AODE(weighting="mutual-information", estimate="m", frequency_limit=0) on
      categorical data without missing values and with unit weights.
    - impute=True: Weka's ReplaceMissingValues before everything else: a missing
      categorical value becomes the feature's weighted mode (ties to the first value
      in the declared order, then the seen ones in sorted order), a missing number
      the weighted mean of the present ones (0.0 when they weigh 1e-6 or less),
      counted before the bins are cut; the same replacements fill missing values at
      prediction time.  The statistics still keep only what was seen (exact and
      mergeable): the replaced counts are derived from them when the model is
      compiled.  explain() marks such a feature "used" with its "imputed" value.
      impute="fit" replaces them in training only: a missing value at prediction
      contributes nothing, as without imputation (AutoBayes' AODE members).

    Statistics are exact weighted counts: class and value counts and the pairwise
    counts N(c, x_p, x_j), about K * V^2 / 2 numbers for V distinct values of all
    features together; fit, partial_fit in any batches and merge agree exactly.

    max_memory (megabytes, default 2000) bounds, by estimate, the memory the model
    takes in use: the pairwise counts and the tables compiled from them together
    (about 230 bytes a count, 850 beyond 2,048 values and bins, within a factor 2 of
    the peaks measured).  A fit, partial_fit or merge that would pass it is refused,
    naming the figure and the fix, before the memory is taken (the pairs are checked
    as they are counted), and so is the first prediction of a model whose budget was
    lowered since; compiling takes time and memory linear in the counts (features of
    thousands of values, such as identifiers, keep only the terms of the pairs that
    occur).  It says nothing about the data: models that differ only in it merge.

    The watermelon book's numbers (data set 3.0, Laplace smoothing):

    >>> X = [r.split() for r in ("青绿 蜷缩 浊响 清晰 凹陷 硬滑", "乌黑 蜷缩 沉闷 清晰 凹陷 硬滑",
    ...      "乌黑 蜷缩 浊响 清晰 凹陷 硬滑", "青绿 蜷缩 沉闷 清晰 凹陷 硬滑", "浅白 蜷缩 浊响 清晰 凹陷 硬滑",
    ...      "青绿 稍蜷 浊响 清晰 稍凹 软粘", "乌黑 稍蜷 浊响 稍糊 稍凹 软粘", "乌黑 稍蜷 浊响 清晰 稍凹 硬滑",
    ...      "乌黑 稍蜷 沉闷 稍糊 稍凹 硬滑", "青绿 硬挺 清脆 清晰 平坦 软粘", "浅白 硬挺 清脆 模糊 平坦 硬滑",
    ...      "浅白 蜷缩 浊响 模糊 平坦 软粘", "青绿 稍蜷 浊响 稍糊 凹陷 硬滑", "浅白 稍蜷 沉闷 稍糊 凹陷 硬滑",
    ...      "乌黑 稍蜷 浊响 清晰 稍凹 软粘", "浅白 蜷缩 浊响 模糊 平坦 硬滑", "青绿 蜷缩 沉闷 稍糊 稍凹 硬滑")]
    >>> y = ["是"] * 8 + ["否"] * 9
    >>> model = AODE().fit(X, y)
    >>> model.predict_one(X[0])
    '是'
    """

    _statistics_class = _AODEStatistics
    _allowed_kinds = _AODE_KINDS
    _command_name = "aode"
    _parameters = _classifier_parameters(
        "discretized", _AODE_KINDS, without=("prior_alpha", "class_prior"), extra={
            "alpha": _Parameter(1.0, _smoothing_check, _BASE_PARAMETERS["alpha"].option),
            "frequency_limit": _Parameter(1, _finite_at_least_0, (
                _cli_number, "AODE: a parent's value must be seen this many times in "
                "training (default 1; 0: every present value is a parent)")),
            "estimate": _estimate_parameter("laplace"),
            "m": _M_PARAMETER,
            "weighting": _Parameter(None, _aode_weighting_check, (
                _AODE_WEIGHTINGS, "AODE: weigh each super-parent by its mutual "
                "information with the class (Weka's WAODE; default: equal weights)")),
            "impute": _Parameter(False, _aode_impute_check, (
                bool, "AODE: replace missing values by the training mean or mode "
                "before discretization (Weka's ReplaceMissingValues)")),
            "max_memory": _MEMORY_PARAMETER})

    def __init__(self, alpha=1.0, frequency_limit=1, features=None, categories=None,
                 numeric="discretized", significant_digits=None, estimate="laplace",
                 m=1.0, weighting=None, impute=False, max_memory=2000, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.alpha = alpha
        self.frequency_limit = frequency_limit
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.estimate = estimate
        self.m = m
        self.weighting = weighting
        self.impute = impute
        self.max_memory = max_memory
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


def _network_parameters(extra=None, alpha=0.5, missing=True):
    """The parameters of the network families: alpha (default 1/2, Weka's, or
    ``alpha``), the kinds they take, their own (extra), the estimate of their
    tables with the m-estimate's m, and (with ``missing``) missing=: "mode" by
    default, Weka's policy, or "skip" (see _NETWORK_MISSING)."""
    parameters = {"alpha": _Parameter(alpha, _smoothing_check, (
        _cli_number, "smoothing of categorical likelihoods (default 1, Laplace; 0.5 for "
        "--model tan and bayesnet)"))}
    parameters.update(extra or {})
    parameters["estimate"] = _estimate_parameter("laplace")
    parameters["m"] = _M_PARAMETER
    if missing:
        # (no command-line option: --missing names the cells that are missing)
        parameters["missing"] = _Parameter("mode", _one_of(*_NETWORK_MISSING))
    parameters["max_memory"] = _MEMORY_PARAMETER
    parameters["row_sample"] = _ROW_SAMPLE_PARAMETER
    return _classifier_parameters("discretized", _NETWORK_KINDS,
                                  without=("prior_alpha", "class_prior"), extra=parameters)


class TAN(_Classifier):
    """Tree-augmented naive Bayes (Friedman, Geiger and Goldszmidt 1997): every feature
    has the class and at most one other feature as parents, the tree chosen as Weka's
    TAN search chooses it (each ordered pair weighed by its gain in Weka's BAYES score,
    the tree grown greedily from the strongest link, arcs oriented by Weka's rule),
    then P(x | parents) = (alpha + w(j, x)) / (alpha |X| + w(j)).  Equal to Weka
    3.6's weka.classifiers.bayes.BayesNet -Q
    weka.classifiers.bayes.net.search.local.TAN -- -S BAYES -E
    weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A alpha, including what it
    does to the data: numbers cut into MDL bins (Weka's supervised Discretize), then a
    missing value counted as its feature's most frequent bin or value, at fit and at
    prediction (missing="mode", the default).

    Parameters (class_weight and the decision rules as NaiveBayes'): alpha (the
    tables' smoothing; Weka reads -A as a 32-bit float, so pass
    alpha=0.10000000149011612 to reproduce -A 0.1; the search uses 1/2 whatever alpha
    is, as Weka's does), features, categories, numeric and significant_digits as
    AODE's.  Features may be "categorical", "discretized" or "ignore".

    Ties: the search compares doubles, as Weka's does, and they are Weka's doubles
    bit for bit: each node's score added term by term in Weka's order (configuration
    by configuration of its parents, the first parent most significant, value by
    value, every cell of the table counted, empty ones included) with Weka's lnGamma,
    and each pair's gain the difference of two such sums.  So pairs whose gains are
    equal in exact arithmetic (copied columns, identifiers, a few rows) are decided by
    the last bits of those sums, then by the scan order: the first pair (a, then b, in
    node order) of the largest gain, a later pair only when strictly larger.  The
    nodes are the columns in their order, then the class; the cells of a node are its
    values in order: declared ones first (categories=, an ARFF file's declaration,
    including values no row holds), then the others sorted; the class node's values
    are the classes declared to partial_fit(classes=...) (an ARFF file's), then the
    others in classes_ order.  Dict rows give the nodes in sorted order of their
    names, a DataFrame in the order of its columns (see NaiveBayes' policies), so that
    the same rows give the same network whatever their form.  Given Weka's
    declarations (its data's column, value and class order), the structure is Weka's.

    Missing values and values never seen in training (missing=): "mode" (the
    default, Weka's BayesNet) counts them as their feature's most frequent bin or
    value, at fit and at prediction (a value never seen likewise); "skip" takes them
    as no evidence: each node's table counts the rows where the node and its parents
    are known, a node whose value is missing or never seen (by a training row of
    positive weight, declared or not) contributes nothing, and a node with such a
    parent is read from its table without that parent, counted from the same rows
    (so a row with nothing known gets the class prior, and a value never seen is
    never read as another); the structure search fills the mode either way.
    AutoBayes' network uses "skip".

    Statistics: class counts, each feature's counts or record of values, and every
    distinct row's weight and number of rows, exact; merge and partial_fit give the
    counts of one fit, and the structure is searched again from them when the model
    is next used.  The search, the bins and the tables weigh rows alike, a weight of
    2 being the row twice (scikit-learn's meaning; Weka's search counts rows whatever
    their weights, which is the same with unit weights, Weka's own data); a class the
    training data never saw keeps alpha-only counts.

    Memory and time: the statistics hold one entry per distinct row, at most
    row_sample (default 50,000): beyond it, the deterministic sample of the distinct
    rows of smallest hash, each with its exact weight (a function of the rows'
    values alone, so that any order, batching or merge keeps the same rows; the
    class and value counts stay exact, and the network is learned from the
    sample; forgetting from a sample forgets the rows it keeps); compiling
    searches the structure (time: the pairs of nodes times the rows) and builds each
    node's table, kept whole up to 65,536 cells and beyond that as the cells that
    occur (the same numbers: features of thousands of values, such as identifiers,
    cost what occurs, not the product of their sizes).  max_memory (megabytes,
    default 2000) bounds both by estimate (a distinct row about 500 bytes and 48 per
    feature, kept and compiled; the search about 300 bytes per pair of nodes; the
    tables, once the structure is known, 40 bytes a cell): beyond it the fit, or the
    first prediction of a model whose budget was lowered, is refused, naming the
    figure and the fix.

    >>> X = [["sunny", "hot"], ["sunny", "hot"], ["rain", "mild"], ["rain", "cool"],
    ...      ["overcast", "cool"], ["sunny", "mild"], ["rain", "mild"], ["overcast", "hot"]]
    >>> model = TAN().fit(X, ["no", "no", "yes", "no", "yes", "no", "yes", "yes"])
    >>> model.summary()["parents"]        # None: the class; 1 is the root of the tree
    {0: [None, 1], 1: [None], None: []}
    >>> model.predict_one(["overcast", "mild"])
    'yes'
    """

    _statistics_class = _NetworkStatistics
    _structure_search = "tan"
    _allowed_kinds = _NETWORK_KINDS
    _command_name = "tan"
    _parameters = _network_parameters()

    def __init__(self, alpha=0.5, features=None, categories=None, numeric="discretized",
                 significant_digits=None, estimate="laplace", m=1.0, missing="mode",
                 max_memory=2000,
                 row_sample=_ROW_SAMPLE, class_weight=None, thresholds=None, costs=None,
                 reject_below=None, reject_label="unsure"):
        self.alpha = alpha
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.estimate = estimate
        self.m = m
        self.missing = missing
        self.max_memory = max_memory
        self.row_sample = row_sample
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


class BayesNet(_Classifier):
    """A Bayesian network classifier whose structure Weka's HillClimber search finds:
    from naive Bayes, the best arc addition or deletion by Weka's BAYES score, again
    and again while the score improves, at most max_parents parents per node (the class
    counted; the class itself may get parents, and a feature may lose the class), no
    cycle, no arc reversal (Weka's default); then P(x | parents) = (alpha + w(j, x)) /
    (alpha |X| + w(j)).  Equal to Weka 3.6's weka.classifiers.bayes.BayesNet -Q
    weka.classifiers.bayes.net.search.local.HillClimber -- -P max_parents -S BAYES -E
    weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A alpha, with its treatment
    of numbers and missing values (see TAN, whose parameters, statistics and policies
    it shares).

    Ties as in TAN (Weka's doubles, bit for bit): each step takes the largest change of
    the head's score among the arc additions (heads in node order, then tails in node
    order) and then the deletions (heads in node order, then their parents in the
    order they were added), a later move only when its change is strictly larger; the
    search stops when the best change is not positive.

    >>> X = [["a", "x"], ["a", "x"], ["b", "y"], ["b", "y"], ["a", "y"], ["b", "x"]]
    >>> model = BayesNet(max_parents=2).fit(X, [1, 1, 0, 0, 1, 0])
    >>> sorted(model.predict_proba_one(["a", "x"]).items())[1][1] > 0.5
    True
    """

    _statistics_class = _NetworkStatistics
    _structure_search = "hill climbing"
    _allowed_kinds = _NETWORK_KINDS
    _command_name = "bayesnet"
    _parameters = _network_parameters({
        "max_parents": _Parameter(2, _integer_at_least(1), (
            int, "bayesnet: at most this many parents per node, the class counted "
            "(default 2)"))})

    def __init__(self, max_parents=2, alpha=0.5, features=None, categories=None,
                 numeric="discretized", significant_digits=None, estimate="laplace", m=1.0,
                 missing="mode", max_memory=2000, row_sample=_ROW_SAMPLE, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.max_parents = max_parents
        self.alpha = alpha
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.estimate = estimate
        self.m = m
        self.missing = missing
        self.max_memory = max_memory
        self.row_sample = row_sample
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()


_KDB_MAX_K = 3            # KDB(k="select"): the largest k tried


def _kdb_k_check(value):
    """k of KDB: a whole number >= 0, or "select"."""
    if value == "select" or (type(value) is int and value >= 0):
        return None
    return 'an integer >= 0 or "select"'


def _k_option(text):
    """--k: an integer, or select."""
    return text if text == "select" else int(text)


_k_option.__name__ = "k"                 # argparse names the type in its messages


class KDB(_Classifier):
    """The k-dependence Bayesian classifier (Sahami 1996), and selective kDB
    (Martinez, Webb, Chen and Zaidi 2016): every feature has the class and at most
    k other features as parents.

    The structure, from the counts of the rows as the networks see them (numbers cut
    into MDL bins, a missing or unseen value counted as its feature's most frequent
    bin or value, as TAN's and BayesNet's): the features are taken in the order of
    their mutual information with the class I(X_i; C), the largest first; each gets
    as parents the class and the k features before it with the largest conditional
    mutual information I(X_i; X_j | C), in that order (ties, of either, in column
    order).  k=0 is naive Bayes on the networks' data; k=1 a tree-like network
    chosen by information rather than by Weka's score.

    k="select" (selective kDB): the structure for k = max_k (default 3), then, of
    the models that keep the first s features in that order (the others left out:
    they contribute no evidence) and the first k' <= max_k parents of each besides
    the class, the one whose leave-one-out predictions of the training rows have
    the least squared error of the true class's probability, sum over rows of
    (1 - P(y | x))^2 (the root mean squared error Martinez et al. minimise), each
    row left out of every count exactly (a weight of w is w rows); ties to the
    smaller k', then the fewer features.  summary()["selected"] gives the choice:
    {"features": s, "k": k', "left out": [names]}.  Its cost: the leave-one-out
    predictions of every training row and class for each s and k' (on Weka's data
    sets four to five times a fit of KDB(k=2)).

    The tables (estimate=, as TAN's and BayesNet's): "laplace" (default) is
    (alpha + w(j, x)) / (alpha |X| + w(j)) with alpha = 1 (Laplace's; TAN's and
    BayesNet's 1/2 is Weka's); "m" the m-estimate
    (w(j, x) + m / |X|) / (w(j) + m); "hdp" hierarchical smoothing, each table
    P(x | c, p_1 .. p_k) shrunk towards the one without its last parent, down to
    P(x | c) and P(x), the concentrations chosen by leave-one-out (see _Hierarchy
    and the user guide's section on estimates).  On Weka's 18 example data sets
    "laplace" gave the best mean accuracy and log loss of the three, and alpha = 1 a
    lower log loss than 1/2 (see docs/accuracy.md).

    Weka has no kDB: the structure is Sahami's (the ties in column order are this
    library's), the selection Martinez et al.'s (who use m-estimates; the squared
    error of the true class's probability over the distinct rows, the ties and
    max_k are this library's choices), the "hdp" estimate a deterministic form of
    Petitjean et al.'s (2018).  Parameters, statistics, streaming, merging, the
    row sample, forgetting and the memory budget as TAN's (see TAN): the structure
    and the selection are found again from the statistics whenever the model is
    compiled, so fit, partial_fit in any batches and merge give one model.

    >>> X = [["sunny", "hot", "high"], ["sunny", "hot", "high"], ["rain", "mild", "high"],
    ...      ["rain", "cool", "normal"], ["overcast", "cool", "normal"],
    ...      ["sunny", "mild", "high"], ["rain", "mild", "normal"], ["overcast", "hot", "high"]]
    >>> y = ["no", "no", "yes", "no", "yes", "no", "yes", "yes"]
    >>> model = KDB(k=2).fit(X, y)
    >>> model.summary()["parents"]        # None: the class
    {0: [None], 1: [None, 0], 2: [None, 1, 0], None: []}
    >>> model.predict_one(["overcast", "mild", "high"])
    'yes'
    >>> KDB(k="select").fit(X, y).summary()["selected"]
    {'features': 2, 'k': 1, 'left out': [2]}
    """

    _statistics_class = _NetworkStatistics
    _structure_search = "kdb"
    _allowed_kinds = _NETWORK_KINDS
    _command_name = "kdb"
    _parameters = _network_parameters({
        "k": _Parameter(1, _kdb_k_check, (
            _k_option, "kdb: each feature's parents besides the class, at most K "
            "(default 1), or select: the features and k chosen by leave-one-out")),
        "max_k": _Parameter(_KDB_MAX_K, _integer_at_least(0), (
            int, "kdb --k select: the largest k tried (default %d)" % _KDB_MAX_K))},
        alpha=1.0, missing=False)

    def __init__(self, k=1, max_k=_KDB_MAX_K, alpha=1.0, features=None, categories=None,
                 numeric="discretized", significant_digits=None, estimate="laplace", m=1.0,
                 max_memory=2000, row_sample=_ROW_SAMPLE, class_weight=None,
                 thresholds=None, costs=None, reject_below=None, reject_label="unsure"):
        self.k = k
        self.max_k = max_k
        self.alpha = alpha
        self.features = features
        self.categories = categories
        self.numeric = numeric
        self.significant_digits = significant_digits
        self.estimate = estimate
        self.m = m
        self.max_memory = max_memory
        self.row_sample = row_sample
        self.class_weight = class_weight
        self.thresholds = thresholds
        self.costs = costs
        self.reject_below = reject_below
        self.reject_label = reject_label
        self._start()
