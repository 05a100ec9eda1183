# ----------------------------------------------------------------------------------
# Reports: evaluation, cross-validation and explanations as plain data
#
# What the command line prints, computed here so that the command line only
# translates options into calls and data into text: evaluate() and cross_validate()
# return an EvaluationReport, whose str() is the text that evaluate and cv print.
# ----------------------------------------------------------------------------------

class _Evaluation:
    """Predictions against the truth, gathered batch by batch (evaluate, cv, the HTML
    report): every row's true label, weight, predicted class and probabilities, from
    which report() computes the figures.  The ROC curves need every row's scores, so
    the probabilities are kept, in a flat array of doubles (8 bytes each)."""

    def __init__(self, classes):
        from array import array
        self.classes = list(classes)        # the columns of the probabilities
        self.index = {label: k for k, label in enumerate(self.classes)}
        self.truths = []
        self.predicted = []                 # indices into classes
        self.weights = []                   # ints or floats
        self.weighted = False               # True once weights were given
        self.probabilities = array("d")

    @property
    def rows(self):
        """The number of rows added."""
        return len(self.truths)

    def add(self, truths, probabilities, weights=None, predicted=None):
        """Add rows: their true labels and probabilities (classes order), and their
        weights (None: 1 each) and predicted classes (indices into classes; None: the
        first most probable, as predict decides).  A label the model does not know
        has probability 0."""
        probabilities = [list(p) for p in probabilities]
        if predicted is None:
            predicted = [p.index(max(p)) for p in probabilities]
        for p in probabilities:
            self.probabilities.extend(p)
        self.truths.extend(truths)
        self.predicted.extend(predicted)
        if weights is None:
            self.weights.extend(repeat(1, len(probabilities)))
        else:
            self.weights.extend(weights)
            self.weighted = True

    def predictions(self):
        """Each row's probabilities (classes order), in the order the rows came."""
        width = len(self.classes)
        flat = self.probabilities.tolist()
        return [flat[i:i + width] for i in range(0, len(flat), width)]

    def report(self):
        """The figures as plain JSON-ready data (what evaluate --json prints; see
        EvaluationReport for each): labels as scikit-learn's
        precision_recall_fscore_support and confusion_matrix use them (those in the
        truth or the predictions), every figure weighted by the rows' weights."""
        classes, truths, weights = self.classes, self.truths, self.weights
        width = len(classes)
        unknown = [t for t in dict.fromkeys(truths) if t not in self.index]
        columns = classes + unknown       # every label: the model's, then the truth's
        predicted = [classes[k] for k in self.predicted]
        occurring = set(truths) | set(predicted)
        labels = [c for c in classes if c in occurring] + unknown
        confusion = {}
        support = dict.fromkeys(columns, 0)
        for truth, guess, weight in zip(truths, predicted, weights):
            confusion[truth, guess] = confusion.get((truth, guess), 0) + weight
            support[truth] += weight
        total = _weight_sum(weights)
        per_class = {}
        for label in labels:
            tp = confusion.get((label, label), 0)
            chosen = _weight_sum([n for (_, p), n in confusion.items() if p == label])
            precision = tp / chosen if chosen else 0.0
            recall = tp / support[label] if support[label] else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            per_class[label] = {"precision": precision, "recall": recall, "f1": f1,
                                "support": _plain(support[label])}
        averages = {}
        for name, weight in (("macro avg", lambda s: 1.0 / len(labels)),
                             ("weighted avg", lambda s: s / total if total else 0.0)):
            averages[name] = {metric: sum(weight(c["support"]) * c[metric]
                                          for c in per_class.values())
                              for metric in ("precision", "recall", "f1")}
            averages[name]["support"] = _plain(total)
        correct = _weight_sum([confusion.get((label, label), 0) for label in labels])
        probabilities = self.probabilities
        losses, briers = [], []
        second = columns[1] if len(columns) == 2 else None
        for i, (truth, weight) in enumerate(zip(truths, weights)):
            row = probabilities[i * width:(i + 1) * width]
            k = self.index.get(truth)
            p = row[k] if k is not None else 0.0
            losses.append(-weight * log(min(max(p, 1e-15), 1.0)))
            if second is not None:        # two labels: scikit-learn's binary form
                q = row[self.index[second]] if second in self.index else 0.0
                briers.append(weight * (q - (truth == second)) ** 2)
            else:                         # (p_c - [c is the truth])^2 over every label
                briers.append(weight * (math.fsum([x * x for x in row]) - 2 * p + 1))
        areas = {}
        for label in columns:
            k = self.index.get(label)
            scores = probabilities[k::width] if k is not None else [0.0] * len(truths)
            areas[label] = _roc_auc(scores, [t == label for t in truths], weights)
        if len(columns) == 2:
            roc_auc = areas[second]
        elif len(columns) > 2 and None not in areas.values():
            roc_auc = math.fsum(areas.values()) / len(columns)
        else:
            roc_auc = None
        undefined = None                  # why there is no roc_auc
        if roc_auc is None:
            label = next((label for label in columns if areas[label] is None), None)
            undefined = "one class" if label is None or len(columns) < 2 else "%s %s" % (
                _clip(_shown(label), 30), "has no rows" if not support[label]
                else "is every row")
        return {"rows": self.rows, "weight": _plain(total),
                "accuracy": correct / total if total else 0.0,
                "log_loss": math.fsum(losses) / total if total else 0.0,
                "brier": math.fsum(briers) / total if total else 0.0,
                "roc_auc": roc_auc,
                "roc_auc_by_class": {str(label): area for label, area in areas.items()},
                "classes": {str(label): metrics for label, metrics in per_class.items()},
                "averages": averages, "labels": labels,
                "confusion_matrix": [[_plain(confusion.get((t, p), 0)) for p in labels]
                                     for t in labels],
                "per_class": per_class, "columns": columns, "undefined": undefined}


def _weight_sum(weights):
    """The sum of weights: exact for ints, correctly rounded for floats."""
    weights = list(weights)
    return sum(weights) if _INT.issuperset(map(type, weights)) else math.fsum(weights)


def _roc_auc(scores, positives, weights):
    """The area under the ROC curve of ``scores`` telling the rows where
    ``positives`` holds from the others, each row counting its weight: the trapezoid
    over the curve's points, rows of equal scores making one diagonal step (so a tie
    counts one half), as scikit-learn's roc_auc_score computes it.  None when either
    side weighs nothing: the area is then undefined (scikit-learn's roc_auc_score
    warns and returns NaN; a report never holds NaN).

    >>> _roc_auc([0.9, 0.4, 0.4, 0.1], [True, True, False, False], [1, 1, 1, 1])
    0.875
    """
    steps = {}                            # score -> [weight of negatives, of positives]
    for score, positive, weight in zip(scores, positives, weights):
        step = steps.get(score)
        if step is None:
            step = steps[score] = [0, 0]
        step[1 if positive else 0] += weight
    negatives = _weight_sum(step[0] for step in steps.values())
    positive_total = _weight_sum(step[1] for step in steps.values())
    if not (negatives > 0 and positive_total > 0):
        return None
    twice_area, above = 0, 0              # twice the area: exact for whole weights
    for score in sorted(steps, reverse=True):
        step_negatives, step_positives = steps[score]
        twice_area += step_negatives * (2 * above + step_positives)
        above += step_positives
    return twice_area / (2 * positive_total * negatives)


def _decision_report(decision, evaluation):
    """What the decision rules (a _Decision over evaluation.classes) made of the rows
    of an _Evaluation, as JSON-ready data: the rule, the weighted accuracy of their
    labels, the rows they changed from the argmax and rejected, their confusion
    matrix (rows: true_labels; columns: labels, the reject label last) and, with
    costs, the weighted total and mean cost of the rows they decided beside the
    argmax's on the same rows (a rejected row, or one whose true label is not a
    class, has no cost)."""
    classes = decision.classes
    index = {label: k for k, label in enumerate(classes)}
    confusion, truths = {}, {}
    changed = rejected = 0
    costs, argmax_costs, costed = [], [], []
    for truth, p, best, weight in zip(evaluation.truths, evaluation.predictions(),
                                      evaluation.predicted, evaluation.weights):
        k = decision.index(p)
        predicted = decision.reject_label if k is None else classes[k]
        confusion[truth, predicted] = confusion.get((truth, predicted), 0) + weight
        truths[truth] = truths.get(truth, 0) + weight
        changed += k != best
        rejected += k is None
        i = index.get(truth)
        if decision.costs is not None and i is not None and k is not None:
            costs.append(weight * decision.costs[k][i])
            argmax_costs.append(weight * decision.costs[best][i])
            costed.append(weight)
    occurring = set(truths) | {p for _, p in confusion}
    true_labels = [c for c in classes if c in occurring] + [t for t in truths
                                                            if t not in index]
    labels = list(true_labels)
    if rejected and decision.reject_label not in labels:
        labels.append(decision.reject_label)
    total = _weight_sum(truths.values())
    correct = _weight_sum([n for (t, p), n in confusion.items() if t == p])
    report = {"rule": decision.rule or "reject", "reject_below": decision.reject_below,
              "reject_label": None if decision.reject_below is None else
              decision.reject_label,
              "rows": evaluation.rows, "accuracy": correct / total if total else 0.0,
              "changed": changed, "rejected": rejected, "labels": labels,
              "true_labels": true_labels,
              "confusion_matrix": [[_plain(confusion.get((t, p), 0)) for p in labels]
                                   for t in true_labels]}
    if decision.costs is not None:
        weight = _weight_sum(costed)
        cost, argmax_cost = math.fsum(costs), math.fsum(argmax_costs)
        report.update(costed_rows=len(costed), total_cost=cost,
                      mean_cost=cost / weight if weight else 0.0,
                      argmax_total_cost=argmax_cost,
                      argmax_mean_cost=argmax_cost / weight if weight else 0.0)
    return report


def _decision_text(decided):
    """The decision rules' part of a report's text: what they changed, their
    confusion matrix and, with costs, the costs beside the argmax's."""
    rule = {"thresholds": "thresholds (the largest P(c | x) / t_c)",
            "costs": "costs (the least expected cost)", "reject": "the argmax"}[decided["rule"]]
    if decided["reject_below"] is not None:
        rule += ", %s below P = %g" % (_clip(decided["reject_label"], 20),
                                       decided["reject_below"])
    lines = ["", "decision rule: %s" % rule,
             "accuracy  %.4f  (%s of %s rows changed from the argmax, %s rejected)"
             % (decided["accuracy"], format(decided["changed"], ","),
                format(decided["rows"], ","), format(decided["rejected"], ","))]
    if "total_cost" in decided:
        lines.append("cost      %.10g, %.4f per row (the argmax's: %.10g, %.4f per row)%s" % (
            decided["total_cost"], decided["mean_cost"], decided["argmax_total_cost"],
            decided["argmax_mean_cost"], "" if decided["costed_rows"] == decided["rows"] else
            "\n          %s rows have no cost (rejected, or their class is not the model's)"
            % format(decided["rows"] - decided["costed_rows"], ",")))
    labels = [str(label) for label in decided["labels"]]
    lines += ["", "confusion matrix of the decision rule (rows: true class, columns: "
              "predicted)"]
    lines += _confusion_lines(labels, [[_figure(n) for n in row]
                                       for row in decided["confusion_matrix"]],
                              max(_width(_clip(label)) for label in labels))
    return "\n".join(lines) + "\n"


class EvaluationReport:
    """What evaluate() and cross_validate() return: a model's predictions against the
    truth, as attributes, as data (to_dict()) and as text (str(), which is what the
    command line's evaluate and cv print).  Every figure weighs each row by its
    sample weight, as scikit-learn's metrics do with sample_weight.

    accuracy     the weighted share of rows whose predicted class (the first most
                 probable, as predict decides) is the true one
    log_loss     the weighted mean of -log P(true class), probabilities clipped at
                 1e-15 (a label the model does not know has probability 0)
    brier        scikit-learn's brier_score_loss: with two labels the weighted mean
                 of (p - y)^2 for the second label, in [0, 1]; with more, the
                 weighted mean over rows of the sum over labels of (p_c - [c is the
                 truth])^2, in [0, 2] (Brier's own definition, twice the two-label
                 form when there are two)
    roc_auc      the area under the ROC curve (ties count one half, as in
                 scikit-learn's roc_auc_score): of the second label's probability
                 with two labels; the mean of every label's one-vs-rest area with
                 more (multi_class="ovr", average="macro").  None when undefined: a
                 label with no row, or with every row, of the truth (weighted)
    roc_auc_by_class   {label: one-vs-rest area, or None}
    per_class    {label: {"precision", "recall", "f1", "support"}} (support: the
                 weight of its true rows), for the labels in the truth or the
                 predictions (scikit-learn's labels)
    labels       those labels, in the order of per_class and confusion
    confusion    [[weight]]: rows the true label, columns the predicted one
    classes      the columns of predictions: the model's classes (evaluate), or every
                 label of y, sorted when orderable (cross_validate)
    predictions  each row's probabilities (cross_validate: out of fold), input order
    predicted    each row's predicted class, input order
    rows, weight the number of rows and their total weight
    warnings     one line each: an accuracy below always predicting the majority
                 class, with the settings measured to score better; (cross-validation)
                 fewer rows of a class than folds
    Cross-validation only (None otherwise): folds, seed, fold_accuracy (each fold's
    weighted accuracy), mean_accuracy and sd_accuracy (their mean and population
    standard deviation), fold_of (each row's fold, from 0).
    decision     when the model has a decision rule (thresholds, costs, reject_below),
                 what it made of the rows (the figures above are the argmax's): {"rule",
                 "accuracy", "changed", "rejected", "labels", "true_labels",
                 "confusion_matrix"} and with costs "total_cost", "mean_cost" and the
                 argmax's (see _decision_report); else None
    """

    __slots__ = ("rows", "weight", "accuracy", "log_loss", "brier", "roc_auc",
                 "roc_auc_by_class", "per_class", "labels", "confusion", "classes",
                 "predictions", "predicted", "warnings", "folds", "seed", "fold_accuracy",
                 "mean_accuracy", "sd_accuracy", "fold_of", "decision", "_data")

    def __init__(self, evaluation, warnings=(), folds=None, decision=None):
        data = evaluation.report()
        self._data = data
        self.rows, self.weight = data["rows"], data["weight"]
        self.accuracy, self.log_loss = data["accuracy"], data["log_loss"]
        self.brier, self.roc_auc = data["brier"], data["roc_auc"]
        self.roc_auc_by_class = {label: data["roc_auc_by_class"][str(label)]
                                 for label in data["columns"]}
        self.per_class = data["per_class"]
        self.labels = data["labels"]
        self.confusion = data["confusion_matrix"]
        self.classes = evaluation.classes
        self.predictions = evaluation.predictions()
        self.predicted = [self.classes[k] for k in evaluation.predicted]
        self.warnings = list(warnings)
        for name in ("folds", "seed", "fold_accuracy", "mean_accuracy", "sd_accuracy",
                     "fold_of"):
            setattr(self, name, None if folds is None else folds[name])
        self.decision = None if decision is None else _decision_report(decision, evaluation)

    def __repr__(self):
        return "<EvaluationReport: %s, accuracy %.4f%s>" % (
            _counted(self.rows, "row"), self.accuracy,
            "" if self.folds is None else ", %d-fold cross-validation" % self.folds)

    def to_dict(self, predictions=True):
        """The report as plain JSON-ready data (labels as they are): rows, weight,
        accuracy, log_loss, brier, roc_auc, roc_auc_by_class, classes (per class, by
        str(label): precision, recall, f1, support), averages (macro avg, weighted
        avg), labels, confusion_matrix, warnings; cross-validation adds folds, seed,
        fold_accuracy, mean_accuracy and sd_accuracy; and with ``predictions``,
        prediction_classes, predictions, predicted (and fold_of)."""
        data = {key: value for key, value in self._data.items()
                if key not in ("per_class", "columns", "undefined")}
        data["warnings"] = list(self.warnings)
        if self.folds is not None:
            data.update(folds=self.folds, seed=self.seed, fold_accuracy=self.fold_accuracy,
                        mean_accuracy=self.mean_accuracy, sd_accuracy=self.sd_accuracy)
        if self.decision is not None:
            data["decision"] = self.decision
        if predictions:
            data.update(prediction_classes=list(self.classes),
                        predictions=self.predictions, predicted=list(self.predicted))
            if self.folds is not None:
                data["fold_of"] = list(self.fold_of)
        return data

    def __str__(self):
        """The report as aligned text within 80 columns: what evaluate and cv print."""
        return _report_text(self)


def _report_text(report):
    """The text of an EvaluationReport (see its __str__)."""
    data = report._data
    lines = []
    if report.folds is not None:
        accuracy = [a for a in report.fold_accuracy if a is not None]
        lines += ["fold accuracy %.4f +- %.4f (min %.4f, max %.4f)"
                  % (report.mean_accuracy, report.sd_accuracy, min(accuracy),
                     max(accuracy)), ""]
    weight = "" if report.weight == report.rows else " (weight %s)" % _figure(report.weight)
    lines += ["rows      %s%s" % (format(report.rows, ","), weight),
              "accuracy  %.4f" % report.accuracy,
              "log loss  %.4f" % report.log_loss,
              "brier     %.4f" % report.brier,
              "roc auc   %s" % _roc_auc_text(report)]
    import textwrap
    for warning in report.warnings:
        lines += textwrap.wrap("warning: " + warning, 80, subsequent_indent="  ",
                               break_long_words=False, break_on_hyphens=False)
    lines.append("")
    labels = [str(label) for label in report.labels]
    width = max([_width(_clip(label)) for label in labels] + [len("weighted avg")])
    lines.append("%s  precision  recall  f1-score  support" % _left("", width))
    rows = list(data["classes"].items()) + list(data["averages"].items())
    for i, (label, metrics) in enumerate(rows):
        if i == len(data["classes"]):
            lines.append("")
        lines.append("%s  %9.4f  %6.4f  %8.4f  %7s"
                     % (_left(_clip(label), width), metrics["precision"], metrics["recall"],
                        metrics["f1"], _figure(metrics["support"])))
    lines.append("")
    lines.append("confusion matrix (rows: true class, columns: predicted)")
    lines += _confusion_lines(labels, [[_figure(n) for n in row] for row in report.confusion],
                              max(_width(_clip(label)) for label in labels))
    return "\n".join(lines) + "\n" + (
        "" if report.decision is None else _decision_text(report.decision))


def _figure(n):
    """A count or weight for a report: an integer as it is, else 6 digits."""
    return str(n) if type(n) is int else "%.6g" % n


def _roc_auc_text(report):
    """The ROC AUC line's figure, or why there is none."""
    if report.roc_auc is None:
        return "undefined (%s)" % report._data["undefined"]
    return "%.4f%s" % (report.roc_auc, " (one-vs-rest, macro mean)"
                       if len(report.roc_auc_by_class) > 2 else "")


def _confusion_lines(labels, matrix, width):
    """The confusion matrix as text within 80 columns: labels as column heads when
    they fit, else numbers with a legend."""
    cell = max([len(str(n)) for row in matrix for n in row] + [1])
    heads = [str(label) for label in labels]
    if width + 2 + len(labels) * (max(map(_width, heads)) + 2) > 80:
        heads = [str(k + 1) for k in range(len(labels))]
        legend = ["  %*d = %s" % (len(heads[-1]), k + 1, _clip(label, 60))
                  for k, label in enumerate(labels)]
        rows = [str(k + 1) for k in range(len(labels))]
        width = len(heads[-1])
    else:
        legend = []
        rows = [_clip(label) for label in labels]
    cell = max([cell] + list(map(_width, heads)))
    lines = [_left("", width) + "  " + "  ".join(_right(h, cell) for h in heads)]
    lines += [_left(label, width) + "  " + "  ".join(_right(n, cell) for n in row)
              for label, row in zip(rows, matrix)]
    return lines + (["", "classes:"] + legend if legend else [])


def _labels_list(y, call):
    """y as a checked list of labels."""
    labels = list(_iterate(_labels_of(y, call), "y", "an iterable of labels", call))
    _check_labels(labels, 0, call)
    return labels


def _weights_list(sample_weight, call):
    """sample_weight as a checked list of weights (ints where integral), or None."""
    if sample_weight is None:
        return None
    array = _as_numpy(sample_weight, "sample_weight", call)
    weights = list(_iterate(array.tolist() if array is not None else sample_weight,
                            "sample_weight", "an iterable of numbers", call))
    return _check_weights(weights, 0, call) if weights else weights


def _check_lengths(call, rows, labels, weights):
    """One label and weight per row, at least one row, and some weight."""
    for name, items, what in (("y", labels, "labels"), ("sample_weight", weights, "weights")):
        if items is not None and len(items) != rows:
            raise NaiveBayesError("%s: X has %d rows but %s has %d %s; expected one per row"
                                  % (call, rows, name, len(items), what), call=call,
                                  argument=name)
    if not rows:
        raise NaiveBayesError("%s: X is empty; expected at least one row" % call, call=call,
                              argument="X")
    if weights is not None and not any(weights):
        raise NaiveBayesError("%s: sample_weight is zero for every row; expected a positive "
                              "total weight" % call, call=call, argument="sample_weight")


def _check_classifier(model, call):
    if not isinstance(model, _Classifier):
        raise NaiveBayesError("%s: model is %s; expected a classifier of naive_bayes "
                              "(NaiveBayes, AODE, TAN, BayesNet, AutoBayes ...)"
                              % (call, _describe(model)), call=call, argument="model")


def evaluate(model, X, y, sample_weight=None, progress=False):
    """The EvaluationReport of a fitted model's predictions for rows X against labels
    y, each row weighted by sample_weight: accuracy, log loss, Brier score, ROC AUC,
    per-class precision, recall and F1, the confusion matrix, and each row's
    probabilities (report.predictions, columns in the model's classes_ order).
    str(report) is what the command line's evaluate prints.  ``progress``: True
    shows each step on stderr (the rows scored, and a model's work on first use: a
    structure search, a model file's items), False nothing, and a callable is called
    with each step, a ProgressStep.

    >>> model = CategoricalNB().fit([["a"], ["a"], ["b"], ["b"]], ["x", "x", "y", "y"])
    >>> report = evaluate(model, [["a"], ["b"], ["b"]], ["x", "y", "x"])
    >>> report.accuracy, report.roc_auc, report.confusion
    (0.6666666666666666, 0.75, [[1, 1], [0, 1]])
    """
    call = "evaluate()"
    _check_classifier(model, call)
    listening = _listening(progress, call)
    model._fitted(call)
    if not (hasattr(X, "__len__") and hasattr(X, "__getitem__")):
        X = list(_iterate(_rows_of(X, call), "X", "an iterable of rows", call))
    labels = _labels_list(y, call)
    weights = _weights_list(sample_weight, call)
    _check_lengths(call, len(X), labels, weights)
    with listening:
        joints, compiled = model._joints(X, call, report="scoring rows")
    decision = model._decision(compiled.classes, call)
    evaluation = _Evaluation(compiled.classes)
    evaluation.add(labels, _posteriors(joints), weights, _best(joints))
    return _evaluation_warnings(EvaluationReport(evaluation, decision=decision), evaluation,
                                model, False)


def cross_validate(model, X, y, folds=10, seed=0, sample_weight=None, progress=False):
    """Stratified k-fold cross-validation of a model's settings: the EvaluationReport
    of every row's out-of-fold prediction (report.predictions, in input order, columns
    in report.classes order), with each fold's accuracy.  str(report) is what the
    command line's cv prints after its first line.

    The folds are the command line's: each class's rows shuffled by
    random.Random(seed) and dealt round-robin over the folds, the classes in sorted
    order, so that each fold holds about 1/folds of every class (the same seed, the
    same folds).  Each fold is predicted by a new model with ``model``'s parameters,
    type(model)(**model.get_params()), fitted on the other folds' rows and weights:
    ``model`` itself is neither fitted nor changed.  For the families whose merge
    equals a fit (_merge_is_fit) one model is fitted per fold and each training set's
    model is the merge of the others', the same model, (k - 1) times cheaper;
    AutoBayes, whose weights come from a cross-validation of its own training rows,
    is fitted afresh on each training set.

    report.warnings (also in str(report)) says when the accuracy is below the majority
    rate (the weighted share of the most frequent class: what always predicting it
    scores), naming the settings measured on the same folds to score better, each
    with its accuracy (see _majority_warning), and when a class has fewer rows than
    there are folds (some folds then hold none of it, as scikit-learn's
    StratifiedKFold warns).
    ``progress``: True shows each step on stderr (on a terminal one line rewritten
    in place), False nothing, and a callable is called with each step, a
    ProgressStep: the folds, with the steps of each fold's fit inside them, as
    "cross-validation fold 3/10 · choosing the weights, fold 1/5" for an AutoBayes.
    Bad arguments raise NaiveBayesError: folds < 2 or more folds than rows, lengths
    that differ, an error in a row (named by its number in X), a progress that is
    not True, False or a callable.

    >>> X = [["a", 1.0], ["a", 1.5], ["b", 3.0], ["b", 3.5]] * 3
    >>> report = cross_validate(NaiveBayes(), X, ["x", "x", "y", "y"] * 3, folds=3)
    >>> report.accuracy, report.fold_accuracy, report.roc_auc
    (1.0, [1.0, 1.0, 1.0], 1.0)
    """
    import operator
    call = "cross_validate()"
    _check_classifier(model, call)
    listening = _listening(progress, call)
    for name, value, least in (("folds", folds, 2), ("seed", seed, None)):
        try:
            number = operator.index(value)
        except TypeError:
            number = None
        if number is None or type(value) is bool or (least is not None and number < least):
            raise NaiveBayesError("%s: %s=%s; expected an integer%s"
                                  % (call, name, _shown(value),
                                     "" if least is None else " >= %d" % least),
                                  call=call, argument=name)
    folds, seed = operator.index(folds), operator.index(seed)
    X = list(_iterate(_rows_of(X, call), "X", "an iterable of rows", call))
    labels = _labels_list(y, call)
    weights = _weights_list(sample_weight, call)
    _check_lengths(call, len(X), labels, weights)
    if folds > len(X):
        raise NaiveBayesError("%s: folds=%d but X has %s; expected at most one fold per row"
                              % (call, folds, _counted(len(X), "row")), call=call,
                              argument="folds")
    params = model.get_params()
    with listening:
        return _cross_validate(lambda: type(model)(**params), X, labels, folds, seed,
                               weights, variants=lambda trained: _library_variants(
                                   type(model), params, trained))


def _cross_validate(make_model, X, labels, folds, seed, weights=None,
                    call="cross_validate()", command_line=False, variants=None):
    """cross_validate on checked lists of rows, labels and weights; make_model()
    gives a new model of the settings.  ``command_line``: warnings name options
    (--numeric discretized), not keywords (numeric='discretized').  ``variants``:
    variants(a fitted model) gives [(setting as the caller writes it, make_model)] of
    other settings to measure on the same folds when the accuracy is below the
    majority rate (the warning names those that score better)."""
    n = len(X)
    fold_of = _stratified_folds(labels, folds, seed)
    members = [[] for _ in range(folds)]
    for i, fold in enumerate(fold_of):
        members[fold].append(i)
    model = make_model()
    # class_weight="balanced" weighs each training set by its own class counts, which
    # a merge of the folds' models cannot: each training set is fitted whole
    merging = model._merge_is_fit and model.get_params().get("class_weight") != "balanced"
    classes = _sorted_if_orderable(dict.fromkeys(labels))
    decision = model._decision(classes, call)      # a bad rule fails before any fit
    parts = [None] * folds
    for fold, rows in enumerate(members if merging else ()):
        _progress("fitting cross-validation fold", fold + 1, folds)
        if rows and (weights is None or any(weights[i] for i in rows)):
            try:
                parts[fold] = _fit_rows(make_model(), X, labels, weights, rows, call)
            except NaiveBayesError as error:
                if error.row is not None:         # a bad row: as bad in any fit
                    raise
                merging = False                   # (a class_prior naming a class this
                break                             # fold lacks): fit each training set
    _progress("fitting cross-validation fold")
    index = {label: k for k, label in enumerate(classes)}
    probabilities, predicted = [None] * n, [None] * n
    for fold, rows in enumerate(members):
        _progress("cross-validation fold", fold + 1, folds)
        training = None
        if merging:
            try:
                for other, part in enumerate(parts):
                    if other != fold and part is not None:
                        training = part if training is None else training.merge(part)
            except NaiveBayesError:               # the folds' inferred kinds differ
                training = None
        if training is None:
            training = _fit_rows(make_model(), X, labels, weights,
                                 [i for i in range(n) if fold_of[i] != fold], call)
        try:
            joints, compiled = training._joints([X[i] for i in rows], call)
        except NaiveBayesError as error:
            raise _renumbered(error, rows, call) from None
        order = [index[label] for label in compiled.classes]
        for i, p, best in zip(rows, _posteriors(joints), _best(joints)):
            full = [0.0] * len(classes)
            for k, q in zip(order, p):
                full[k] = q
            probabilities[i], predicted[i] = full, order[best]
    _progress("cross-validation fold")
    evaluation = _Evaluation(classes)
    evaluation.add(labels, probabilities, weights, predicted)
    weight = (lambda i: 1) if weights is None else weights.__getitem__
    fold_accuracy = []
    for rows in members:
        total = _weight_sum(map(weight, rows))
        hit = _weight_sum([weight(i) for i in rows if classes[predicted[i]] == labels[i]])
        fold_accuracy.append(hit / total if total else None)
    scored = [a for a in fold_accuracy if a is not None]
    mean = math.fsum(scored) / len(scored)
    counts = Counter(labels)
    smallest = min(classes, key=counts.__getitem__)
    warnings = []
    if counts[smallest] < folds:
        warnings.append("class %s has %s, fewer than %d folds: some folds have none"
                        % (_clip(_shown(smallest), 30), _counted(counts[smallest], "row"),
                           folds))
    report = EvaluationReport(evaluation, warnings, {
        "folds": folds, "seed": seed, "fold_accuracy": fold_accuracy, "mean_accuracy": mean,
        "sd_accuracy": math.sqrt(math.fsum((a - mean) ** 2 for a in scored) / len(scored)),
        "fold_of": fold_of}, decision)
    below = _below_majority(report)
    if below is not None:
        majority, rate = below
        measured = _threshold_trial(report, evaluation, majority, command_line)
        settings = list(variants(training) if variants else ())
        for n, (setting, make_variant) in enumerate(settings):
            _progress("measuring another setting", n + 1, len(settings))
            try:
                other = _cross_validate(make_variant, X, labels, folds, seed, weights, call,
                                        command_line)
            except (NaiveBayesError, _Usage):      # a setting these rows cannot take
                continue
            if _decided_accuracy(other) > _decided_accuracy(report):
                measured.append((setting, _decided_accuracy(other)))
        _progress("measuring another setting")
        report.warnings.insert(0, _majority_warning(majority, rate, training, command_line,
                                                    measured, "the same folds"))
    return report


def _decided_accuracy(report):
    """The accuracy of what the model predicts: its decision rule's, when it has one
    (thresholds, costs, reject_below), else the argmax's."""
    return report.decision["accuracy"] if report.decision is not None else report.accuracy


def _below_majority(report):
    """(the majority label, its rate) when the accuracy of the model's predictions is
    below the rate of always predicting the most frequent true label (by weight);
    else None."""
    truths = [label for label in report.labels if report.per_class[label]["support"]]
    if len(truths) < 2 or not report.weight:
        return None
    majority = max(truths, key=lambda label: report.per_class[label]["support"])
    rate = report.per_class[majority]["support"] / report.weight
    return (majority, rate) if _decided_accuracy(report) < rate else None


# Thresholds tried for the majority class (the others' being 1) when a model scores
# below always predicting it: P(majority | x) / t wins more often as t is smaller.
_MAJORITY_THRESHOLDS = (0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 1e-3, 1e-4, 1e-6)


def _threshold_trial(report, evaluation, majority, command_line):
    """[(thresholds setting, accuracy)] of the best of _MAJORITY_THRESHOLDS for the
    majority class, measured on the rows' probabilities (out of fold, for a
    cross-validation) when it scores better than the model; [] otherwise, and when
    the labels cannot be written as the setting (a label with , or = on the command
    line)."""
    classes = evaluation.classes
    if majority not in classes or len(classes) < 2:
        return []
    probabilities = evaluation.predictions()
    weights = evaluation.weights
    best = None
    for t in _MAJORITY_THRESHOLDS:
        thresholds = {c: (t if c == majority else 1) for c in classes}
        rule = _Decision(classes, {"thresholds": thresholds, "costs": None,
                                   "reject_below": None, "reject_label": None}, "cv")
        hits = _weight_sum([w for w, truth, label in zip(
            weights, evaluation.truths, rule.labels(probabilities)) if truth == label])
        accuracy = hits / report.weight
        if best is None or accuracy > best[1]:
            best = (thresholds, accuracy)
    if best is None or best[1] <= _decided_accuracy(report):
        return []
    thresholds, accuracy = best
    if command_line:
        if any("," in str(label) or "=" in str(label) for label in thresholds):
            return []
        setting = "--threshold %s" % _quote(",".join("%s=%g" % (label, t)
                                                     for label, t in thresholds.items()))
        short = "--threshold %s" % _quote("%s=%g" % (majority, thresholds[majority]))
    else:
        setting = "thresholds={%s}" % ", ".join("%r: %g" % (label, t)
                                               for label, t in thresholds.items())
        short = "thresholds {%r: %g}" % (majority, thresholds[majority])
    if len(setting) > 70:                 # many classes: within a line of the report
        setting = "%s (and 1 for each other class)" % short
    return [(setting, accuracy)]


def _majority_warning(majority, rate, model, command_line, measured, where):
    """The accuracy of a model's predictions below the majority rate, and the settings
    that score better, each with its accuracy measured on ``where`` (the same folds,
    these rows): a threshold that predicts the majority more often (see
    _threshold_trial) and others (MDL bins, no class weights); then the other
    options that move the decisions: costs, and class weights, which move them the
    other way (the smaller classes' recall, not accuracy)."""
    label = _clip(_shown(majority), 20)
    weighted = model.get_params().get("class_weight") is not None
    if command_line:
        costs, weights = "--costs FILE.csv", ("its --class-weight favours the other classes"
                                              if weighted else "--class-weight balanced")
    else:
        costs, weights = "a costs= matrix", ("its class_weight favours the other classes"
                                             if weighted else "class_weight='balanced'")
    text = "accuracy below the majority rate %.4f (always %s)" % (rate, label)
    if measured:
        text += "; measured on %s, %s" % (where, ", ".join(
            "%s scores %.4f" % (setting, accuracy) for setting, accuracy in measured))
    if weighted:
        rest = "%s moves decisions toward %s too; %s (their recall, at a cost in " \
            "accuracy)" % (costs, label, weights)
    else:
        rest = "%s moves decisions toward %s too, %s away from it (the other classes' " \
            "recall, at a cost in accuracy)" % (costs, label, weights)
    return text + "; " + rest


def _evaluation_warnings(report, evaluation, model, command_line):
    """evaluate's warning when the accuracy of the model's predictions is below
    always predicting the majority label of these rows (see _majority_warning)."""
    below = _below_majority(report)
    if below is not None:
        majority, rate = below
        measured = _threshold_trial(report, evaluation, majority, command_line)
        report.warnings.insert(0, _majority_warning(majority, rate, model, command_line,
                                                    measured, "these rows"))
    return report


def _library_variants(cls, params, trained):
    """[(setting, make_model)] that cross_validate measures when a model scores below
    the majority rate: without class weights (they trade accuracy for the smaller
    classes' recall), numbers in MDL bins for numbers inferred as another kind, and,
    for AutoBayes, naive Bayes on MDL bins (every other candidate, AutoBayes itself
    above all, would cost far more than the cross-validation asked for)."""
    variants = []
    if params.get("class_weight") is not None:
        variants.append(("class_weight=None",
                         lambda: cls(**dict(params, class_weight=None))))
    if isinstance(trained, AutoBayes):
        kept = {name: params[name] for name in ("features", "categories", "class_weight",
                                                "thresholds", "costs", "reject_below",
                                                "reject_label", "significant_digits")
                if name in params}
        variants.append(("NaiveBayes(numeric='discretized')",
                         lambda: NaiveBayes(numeric="discretized", **kept)))
        return variants
    numeric = params.get("numeric")
    declared, _ = _declarations(params) if "features" in params else ({}, {})
    allowed = cls._allowed_kinds
    if numeric not in (None, "discretized") and (allowed is None or "discretized" in
                                                 allowed) and any(
            kind == numeric and name not in declared
            for name, kind in trained.feature_kinds_.items()):
        variants.append(("numeric='discretized'",
                         lambda: cls(**dict(params, numeric="discretized"))))
    return variants


def _fit_rows(model, X, labels, weights, rows, call):
    """model fitted on the rows numbered ``rows`` of X; an error about one of them
    names its number in X."""
    try:
        return model.fit([X[i] for i in rows], [labels[i] for i in rows],
                         None if weights is None else [weights[i] for i in rows])
    except NaiveBayesError as error:
        raise _renumbered(error, rows, call) from None


def _renumbered(error, rows, call):
    """A NaiveBayesError about row r of a selection, restated under ``call`` about
    row rows[r] of the whole."""
    row, argument = getattr(error, "row", None), getattr(error, "argument", None)
    if row is not None and argument in ("X", "y", "sample_weight") and 0 <= row < len(rows):
        return _row_error(call, argument, rows[row], error.reason)
    message = str(error)
    if error.call and message.startswith(error.call + ": "):
        message = message[len(error.call) + 2:]
    return NaiveBayesError("%s: %s" % (call, message), call=call, argument=argument)


def _log_odds_parts(model, row, words_shown=10):
    """Why one row got its prediction, as data: the predicted class and the runner-up
    with their probabilities, and each part of log P(best)/P(runner-up) (the prior,
    every used feature, the most influential words of a text), largest first: items
    are (feature, separator " = " or ": ", the value or word, log-odds part).  A
    network counts a missing value as its feature's most frequent one: that is a part
    too ("counted as" in explain)."""
    parts = model.explain(row)
    probabilities = model.predict_proba_one(row)
    ranked = sorted(probabilities, key=lambda c: -probabilities[c])
    result = {"predicted": ranked[0], "probability": probabilities[ranked[0]],
              "runner_up": None, "runner_probability": None, "items": [],
              "decision": parts.get("decision"),
              "missing": [e["feature"] for e in parts["features"]
                          if e["status"] == "missing" and "counted_as" not in e]}
    if len(ranked) < 2:
        return result
    best, runner = ranked[:2]
    result["runner_up"], result["runner_probability"] = runner, probabilities[runner]
    items = [("prior", "", "", parts["prior"][best] - parts["prior"][runner])]
    for entry in parts["features"]:
        if entry["status"] not in ("used", "unseen") and "counted_as" not in entry:
            continue
        if "words" in entry:              # a text feature: the words that mattered
            words = sorted(((word, ll[best] - ll[runner])
                            for word, ll in entry["words"].items()),
                           key=lambda item: -abs(item[1]))
            items.extend((entry["feature"], ": ", word, value)
                         for word, value in words[:words_shown])
            if words[words_shown:]:
                items.append((entry["feature"], ": ", "%d other words"
                              % len(words[words_shown:]),
                              math.fsum(value for _, value in words[words_shown:])))
            baseline = entry["baseline"][best] - entry["baseline"][runner]
            if baseline:
                items.append((entry["feature"], ": ", "no word present (baseline)", baseline))
            continue
        ll = entry["log_likelihood"]
        value = entry.get("interval", entry["value"])
        note = " (unseen)" if entry["status"] == "unseen" else ""
        if "counted_as" in entry:
            note = " (%s, counted as %s)" % (entry["status"], entry["counted_as"])
        items.append((entry["feature"], " = ", "%s%s" % (value, note), ll[best] - ll[runner]))
    items.sort(key=lambda item: -abs(item[3]) if item[3] == item[3] else 0)
    result["items"] = items
    return result


def _informative_rows(model, top):
    """(feature, value or None, favoured label, score, likelihood ratio) rows."""
    return [(feature, value, favoured, score, exp(score) if score < 709 else INF)
            for feature, value, score, favoured in model.most_informative_features(top)]
