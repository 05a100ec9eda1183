# -- the HTML page and the notebook view ---------------------------------------------

_REPORT_CSS = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; color: #222; margin: 24px;
       max-width: 1180px; line-height: 1.4; }
h1 { font-size: 22px; } h2 { font-size: 18px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 8px 16px 16px 0; display: inline-table;
        vertical-align: top; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
p.note { font-size: 13px; color: #444; }
figure { display: inline-table; margin: 8px 10px 16px 0; vertical-align: top; }
figcaption { display: table-caption; caption-side: bottom; font-size: 13px; color: #444; }
.share { display: inline-block; height: 10px; background: #0072B2; }
svg { max-width: 100%; height: auto; }
@media print { body { margin: 0; } figure, table, tr { break-inside: avoid; }
               h2 { break-after: avoid; }
               * { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""
_REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _html_element(name, content="", **attributes):
    """An HTML element, as _element makes one but always with its end tag: an HTML
    parser reads <td/> as <td>, leaving it open."""
    return _Markup("<%s%s>%s</%s>" % (name, _xml_attributes(attributes),
                                      _xml_text(content).text, name))


def _html_table(header, rows, numeric=()):
    """An HTML table (_Markup); every cell through _xml_text: text (a label or a
    feature name of any type, a tuple too) escaped, markup only as a _Markup."""
    def cell(k, value, tag):
        return _html_element(tag, value, class_="n" if k in numeric else None)
    return _html_element("table", _html_element(
        "tr", _markup_join(cell(-1, h, "th") for h in header)) + _markup_join(
        _html_element("tr", _markup_join(cell(k, v, "td") for k, v in enumerate(row)))
        for row in rows))


def _html_figure(svg, caption):
    """A picture (_Markup) with its caption (text)."""
    return _html_element("figure", svg + _html_element("figcaption", caption))


def _html_share(fraction, width=120):
    """An inline bar of a fraction in [0, 1], as markup for _html_table."""
    return _html_element("span", class_="share",
                         style="width:%spx" % _svg_px(max(1.0, fraction * width)))


def _html_summary(model):
    """The classes with their counts, the features' kinds and descriptions, the
    parameters."""
    summary = model.summary()
    counts = [count for _, count in summary["classes"]]
    classes = _html_table(["class", "rows", "share", ""], [
        (label, _svg_number(n, 8), "%.1f%%" % (100 * n / sum(counts)),
         _html_share(n / max(counts))) for label, n in summary["classes"]], numeric=(1, 2))
    features = _html_table(["feature", "kind", "what the model holds"], summary["features"])
    params = "; ".join("%s=%s" % (k, _shown(v))
                       for k, v in sorted(model.get_params().items()))
    line = "%s: %s rows, %d class%s, %s%s." % (
        type(model).__name__, _svg_number(sum(counts), 12), len(counts),
        "" if len(counts) == 1 else "es", _counted(len(summary["features"]), "feature"),
        "" if summary["target"] is None else ", target %s" % (summary["target"],))
    return _markup('<h2>Summary</h2><p>%s</p>%s%s<p class="note">Parameters: %s</p>',
                   line, classes, features, params)


def _html_informative(model, top=20):
    """The ranking of most_informative_features, with bars on a log scale."""
    ranked = _informative_rows(model, top)
    if not ranked:
        return _Markup("")
    largest = math.log1p(max(score for *_, score, _ in ranked)) or 1.0
    rows = [(k + 1, feature, "" if value is None else _svg_short_numbers(value), favoured,
             _svg_number(score), "e^%s" % _svg_number(score) if ratio == INF
             else _svg_number(ratio), _html_share(math.log1p(score) / largest))
            for k, (feature, value, favoured, score, ratio) in enumerate(ranked)]
    return (_Markup("<h2>Most informative features</h2><p class=\"note\">Score: the "
                    "largest log-likelihood ratio between two classes, in nats (for "
                    "numbers the largest Kullback-Leibler divergence); ratio: its "
                    "exponential; bars on a log scale.</p>") +
            _html_table(["#", "feature", "value", "favours", "score", "ratio", ""], rows,
                        numeric=(0, 4, 5)))


def _html_explanations(model, X, probabilities, truths, count=3):
    """Waterfall explanations of a few rows: the most confident right and wrong
    predictions and the least confident (without labels, the first rows)."""
    classes = model.classes_
    if len(classes) < 2:
        return _Markup("<h2>Explanations</h2><p>The model has one class: nothing to "
                       "compare.</p>")
    confidence = [max(p) for p in probabilities]
    if truths is None:
        chosen = list(range(min(count, len(X))))
    else:
        right = [k for k, p in enumerate(probabilities)
                 if classes[p.index(confidence[k])] == truths[k]]
        wrong = sorted(set(range(len(X))) - set(right))
        chosen = [max(group, key=confidence.__getitem__) for group in (right, wrong)
                  if group]
        chosen += [k for k in sorted(range(len(X)), key=confidence.__getitem__)
                   if k not in chosen][:max(0, count - len(chosen))]
    out = [_Markup("<h2>Explanations</h2><p class=\"note\">Each part of log "
                   "P(predicted) / P(runner-up) for a few rows, as the model explains "
                   "them.</p>")]
    for k in chosen:
        parts = _log_odds_parts(model, X[k])
        out.append(_html_figure(_svg_waterfall(parts, classes), "Row %d: predicted %s "
                                "(P = %.4g), runner-up %s (P = %.4g)%s" % (
                                    k + 1, parts["predicted"], parts["probability"],
                                    parts["runner_up"], parts["runner_probability"],
                                    "" if truths is None
                                    else ", true class %s" % (truths[k],))))
    return _markup_join(out)


def _html_evaluation(model, probabilities, truths, in_sample=False):
    """Accuracy and log loss, the confusion matrix, ROC curves, reliability diagram;
    labelled in-sample when the rows are those the model was fitted on."""
    evaluation = _Evaluation(model.classes_)
    evaluation.add(truths, probabilities)
    report = evaluation.report()
    labels, matrix = report["labels"], report["confusion_matrix"]
    totals = [sum(row) or 1 for row in matrix]
    size = max(26.0, min(54.0, 640.0 / len(labels)))
    confusion = _svg_heat_map(
        "Confusion matrix (rows: true class, columns: predicted)", labels, labels,
        lambda r, c: matrix[r][c] / totals[r],
        lambda r, c: str(matrix[r][c]) if matrix[r][c] else "",
        lambda r, c: "true %s, predicted %s: %d (%.1f%% of the row)" % (
            labels[r], labels[c], matrix[r][c], 100 * matrix[r][c] / totals[r]),
        ("true", "predicted"), (size, size), True)
    note = _markup('<p class="note">In-sample: these are the rows the model was fitted '
                   'on, so the figures are optimistic; a cross-validation (cv --report) '
                   'estimates them on rows a model has not seen.</p>') if in_sample else ""
    out = [_markup("<h2>Evaluation%s</h2>%s<p>%s</p>", " (in-sample)" if in_sample else "",
                   note, "%s rows: accuracy %.4f, log loss %.4f." % (
                       _svg_number(report["rows"], 12), report["accuracy"],
                       report["log_loss"])),
           _html_figure(confusion, "Counts; shade: share of the true class's rows; "
                        "outlined: the diagonal.")]
    if len(model.classes_) > 1:           # the narrower one first, beside the matrix
        out.append(_html_figure(_svg_reliability(model.classes_, probabilities, truths),
                                "Dashed: perfect calibration; bars: rows per bin."))
        out.append(_html_figure(_svg_roc(model.classes_, probabilities, truths),
                                "Dashed: chance."))
    return _markup_join(out)


def _html_features(model):
    """The structure, where there is one, and every feature's plot."""
    parents = _picture_parents(model)
    out = [_Markup("<h2>Features</h2>")]
    if parents is not None:
        out.append(_html_figure(_svg_structure(model), "Which feature depends on which."))
    tables = _picture_tables(model, "report_html()")
    for name, kind, description in model.summary()["features"]:
        caption = "%s: %s, %s" % (name, kind, description)
        if parents and parents.get(name) and not isinstance(model, AODE):
            caption += "; parents: " + ", ".join(map(str, parents[name]))
        out.append(_html_figure(_svg_plot(model, name, tables), caption))
    return _markup_join(out)


def report_html(model, X=None, y=None, proba=None, title=None, in_sample=False):
    """One self-contained HTML page about a fitted model: its summary, the ranking of
    informative features and every feature's plot; with rows X a few rows'
    explanations, and with their labels y the confusion matrix, ROC curves and
    reliability diagram.  proba: probabilities of X (classes_ order) to evaluate in
    place of predict_proba(X), the out-of-fold ones of a cross-validation say.
    in_sample: the rows are those the model was fitted on; the evaluation says so.

    >>> X, y = [["a"], ["a"], ["b"], ["b"]], ["yes", "yes", "no", "yes"]
    >>> page = report_html(CategoricalNB().fit(X, y), X, y)
    >>> page.startswith("<!DOCTYPE html>") and "Confusion matrix" in page
    True
    """
    model._model("report_html()")
    if hasattr(X, "columns") and hasattr(X, "to_dict"):     # a pandas DataFrame
        X = X.to_dict("records")
    X, y = (None if X is None else list(X)), (None if y is None else list(y))
    if y is not None and (X is None or len(X) != len(y)):
        raise NaiveBayesError("report_html(): y has %d labels, expected one per row of X "
                              "(%s)" % (len(y), "no X" if X is None else
                                        _counted(len(X), "row")), call="report_html()")
    body = [_html_summary(model), _html_informative(model)]
    if X:
        if proba is None:
            proba = model.predict_proba(X)
        probabilities = [list(p) for p in proba]
        if len(probabilities) != len(X) or any(len(p) != len(model.classes_)
                                               for p in probabilities):
            raise NaiveBayesError("report_html(): proba has %s; expected one per row of X "
                                  "(%d), each of %d probabilities (one per class)"
                                  % (_counted(len(probabilities), "row"), len(X),
                                     len(model.classes_)), call="report_html()")
        if y:
            body.append(_html_evaluation(model, probabilities, y, in_sample))
        body.append(_html_explanations(model, X, probabilities, y))
    body.append(_html_features(model))
    title = title or "%s model" % type(model).__name__
    return _markup('<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" '
                   'lang="en"><head><meta charset="utf-8"/><meta http-equiv="Content-'
                   'Security-Policy" content="%s"/><meta name="viewport" content="width='
                   'device-width, initial-scale=1"/><title>%s</title><style>%s</style>'
                   '</head><body><h1>%s</h1>%s</body></html>\n', _Markup(_REPORT_POLICY),
                   title, _Markup(_REPORT_CSS), title, _markup_join(body)).text


def _notebook_html(model, limit=12):
    """The notebook view: the classes and their key, then of the first `limit`
    features the kind, a small plot and the description."""
    summary = model.summary()
    key, width, height = _svg_legend(list(enumerate(model.classes_)), "both")
    key = _svg_document(width + 10, height + 4, key, "classes", len(model.classes_))
    tables = _picture_tables(model, "_repr_html_()")
    rows = [(name, kind, _svg_plot(model, name, tables, 260, 110, True), description)
            for name, kind, description in summary["features"][:limit]]
    more = len(summary["features"]) - limit
    counts = ", ".join("%s: %s" % (c, _svg_number(n, 12)) for c, n in summary["classes"])
    return _markup('<div class="naive-bayes"><p><b>%s</b>, classes %s</p>%s%s%s</div>',
                   type(model).__name__, counts, key,
                   _html_table(["feature", "kind", "", "what the model holds"], rows),
                   _markup("<p>and %s more features (report_html shows all)</p>", more)
                   if more > 0 else "")


def _notebook_svg(model):
    """One picture (_Markup) of the model where one fits: its structure (AODE, TAN,
    BayesNet) or its one feature's plot; else None (the HTML view shows more)."""
    if _picture_parents(model) is not None:
        return _svg_structure(model)
    names = [n for n, kind in model.feature_kinds_.items() if kind != "ignore"]
    if len(names) != 1:
        return None
    return _svg_plot(model, names[0], _picture_tables(model, "_repr_svg_()"))
