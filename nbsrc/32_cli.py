# ----------------------------------------------------------------------------------
# The command line: CSV and ARFF in, model files and reports out
#
# It only translates: argparse -> library calls -> printing.  Files are streamed; a
# model file is written only after a successful fit, and atomically; an exit status
# of 1 or 2 means that no file was changed.
# ----------------------------------------------------------------------------------


def _same_file(a, b):
    import os
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.abspath(a) == os.path.abspath(b)


def _check_output(output, inputs):
    """-o must not name an input: that would destroy it (usage error, nothing written)."""
    for path in inputs:
        if output not in (None, "-") and path not in (None, "-") and _same_file(output, path):
            raise _Usage("-o %s: that is an input file; expected a new file name"
                         % _quote(output))


class _Progress:
    """How far a command is, on stderr, for work longer than a second: rows done and
    rows per second (fit, predict, evaluate), and the steps the library reports
    through _progress while the command runs (cv's folds, a structure search's
    steps, a model file's items), nested and worded as progress=True words them
    (_Steps, ProgressStep).  By default only on a terminal, where one line is
    rewritten in place; --progress shows it anyway (then a line a second), --quiet
    never."""

    def __init__(self, what, mode=None):
        import time
        self.clock = time.monotonic
        self.start = self.next = self.clock() + 1.0
        self.what = what
        self.line = _ProgressLine()
        self.active = self.line.terminal if mode is None else mode
        self.steps = _Steps(self.step)
        self.previous = None

    def __enter__(self):
        """Listen to the library's reports of long work (see _progress)."""
        self.previous = _progress_here.listener
        if self.active:
            _progress_here.listener = self.steps
        return self

    def __exit__(self, *exception):
        _progress_here.listener = self.previous
        self.done()

    def update(self, rows):
        """Show the rows done so far (at most four times a second)."""
        if not self.active:
            return
        now = self.clock()
        if now >= self.next:
            rate = rows / max(now - self.start + 1.0, 1e-9)
            self._show("%s: %s rows, %s rows/s" % (self.what, format(rows, ","),
                                                   format(int(rate), ",")), now)

    def step(self, step):
        """A step the library reports (a ProgressStep), shown with the command."""
        now = self.clock()
        if now >= self.next:
            self._show("%s: %s" % (self.what, step), now)

    def _show(self, text, now):
        self.line.show(text)
        self.next = now + (0.25 if self.line.terminal else 1.0)

    def done(self):
        """End the progress line (before the command prints its results)."""
        self.line.end()
        self.steps.stages.clear()


def _model_params(args, parameters):
    """The model parameters set on the command line: those of the registries that
    have an option; a bad value is a usage error naming the option."""
    params = {}
    for name, parameter in parameters.items():
        if parameter.option is None or not hasattr(args, name):
            continue
        value = getattr(args, name)
        if value is None:
            continue
        if type(value) is list and len(parameter.option) > 2:   # nargs: parts joined
            value = tuple(chain.from_iterable(value))
        problem = parameter.check(value)
        if problem is not None:
            raise _Usage("--%s %s: %s" % (name.replace("_", "-"), value,
                                          problem if problem.startswith(name)
                                          else "expected " + problem))
        params[name] = value
    return params


# The options of class weights, the class prior and the decision rules, by parameter.
_DECISION_OPTIONS = {"class_weight": "--class-weight", "class_prior": "--class-prior",
                     "thresholds": "--threshold", "costs": "--costs",
                     "reject_below": "--reject-below", "reject_label": "--reject-label"}


def _decision_params(args, label, cls):
    """The parameters the decision options set ({} when none is given), labels typed
    as the data's (``label``: the reader's parser); a bad value is a usage error
    naming the option."""
    params = {}
    text = getattr(args, "class_weight", None)
    if text is not None:
        params["class_weight"] = text if text == "balanced" else \
            _label_numbers_option(text, "--class-weight", label)
    if args.class_prior is not None:
        if "class_prior" not in cls._parameters:
            raise _Usage("--class-prior: %s %s has no class prior (naive Bayes has one)"
                         % (_article(cls.__name__), cls.__name__))
        params["class_prior"] = args.class_prior if args.class_prior == "uniform" else \
            _label_numbers_option(args.class_prior, "--class-prior", label)
    if args.threshold:
        params["thresholds"] = _label_numbers_option(",".join(args.threshold),
                                                     "--threshold", label)
    if args.costs is not None:
        params["costs"] = _read_costs(args.costs, label)
    if args.reject_below is not None:
        params["reject_below"] = args.reject_below
    if args.reject_label is not None:
        params["reject_label"] = args.reject_label
    for name, value in params.items():
        problem = cls._parameters[name].check(value) if name in cls._parameters else None
        if problem is not None:
            raise _Usage("%s: %s" % (_DECISION_OPTIONS[name], problem if problem.startswith(
                name) else "expected " + problem))
    return params


def _label_numbers_option(text, option, label):
    """LABEL=NUMBER,... as {label: number}."""
    pairs = {}
    for item in text.split(","):
        name, equals, number = item.strip().rpartition("=")
        if not equals or not name:
            raise _Usage("%s %s: expected LABEL=NUMBER, comma-separated" % (option, item))
        try:
            value = _cli_number(number)
        except ValueError:
            raise _Usage("%s %s: %s is not a number" % (option, item, _typed(number))) \
                from None
        key = label(name.strip())
        if key in pairs:
            raise _Usage("%s: %s is given twice" % (option, _typed(name)))
        pairs[key] = value
    return pairs


def _read_costs(path, label):
    """--costs FILE: a cost matrix in a CSV file (, ; tab or |): a header row of the
    predicted labels after a corner cell, then per true label a row of the label and
    its costs; an empty cell on the diagonal costs 0.  Errors name the line and cell."""
    import csv
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise NaiveBayesError("--costs %s: cannot read the file: %s" % (
            path, getattr(error, "strerror", None) or error)) from None
    reader = csv.reader(lines, delimiter=_detected_delimiter(lines[:20]))
    header = None
    costs = {}
    for cells in reader:
        line = reader.line_num
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        where = "%s line %d" % (path, line)
        if header is None:
            if len(cells) < 2:
                raise NaiveBayesError("%s: expected a header row: a corner cell, then the "
                                      "predicted labels" % where)
            header = [label(cell) for cell in cells[1:]]
            if len(set(header)) < len(header):
                raise NaiveBayesError("%s: a predicted label is given twice" % where)
            continue
        if len(cells) != len(header) + 1:
            raise NaiveBayesError("%s has %d cells; expected %d (the true label, then one "
                                  "cost per predicted label)" % (where, len(cells),
                                                                 len(header) + 1))
        truth = label(cells[0])
        if truth in costs:
            raise NaiveBayesError("%s: true label %s is given twice" % (where, _typed(cells[0])))
        row = costs[truth] = {}
        for predicted, cell in zip(header, cells[1:]):
            if not cell and predicted == truth:
                continue                  # the diagonal: 0
            number = _number_or_none(cell)
            if number is None:
                raise NaiveBayesError("%s, column %s: %s; expected a cost (a finite number; "
                                      "only the diagonal may be empty)" % (
                                          where, _typed(predicted), "empty" if not cell
                                          else "%s is not a finite number" % _typed(cell)))
            row[predicted] = number
    if not costs:
        raise NaiveBayesError("--costs %s: no cost matrix (expected a header row of "
                              "predicted labels, then a row per true label)" % path)
    return costs


def _number_or_none(text):
    """A finite number written in a cell (an int when written as one), else None."""
    try:
        number = _cli_number(text)
    except ValueError:
        return None
    return number if isfinite(number) else None


def _check_decision_options(model, classes, params):
    """Decision options that name labels the classes lack (or leave some out) are a
    usage error naming the options, before any work."""
    if not params:
        return
    options = ", ".join(_DECISION_OPTIONS[name] for name in params)
    try:
        model._decision(classes, options)
        _check_class_prior(model.get_params().get("class_prior"), dict.fromkeys(classes, 1),
                           options)
    except NaiveBayesError as error:
        raise _Usage(str(error)) from None


def _batches(iterable, size):
    iterator = iter(iterable)
    while True:
        batch = list(islice(iterator, size))
        if not batch:
            return
        yield batch


def _is_arff(path):
    """An ARFF file, by its suffix (.arff or .arff.gz); anything else is CSV."""
    name = str(path).lower()
    return name.endswith(".arff") or name.endswith(".arff.gz")


def _print_notes(notes):
    """The reader's notes and warnings on stderr, one line each: once the command has
    done its work, so that a command that fails prints only its error."""
    for note in notes:
        sys.stderr.write("%s: %s\n" % (_PROG, _one_line(note)))


def _warn(text):
    sys.stderr.write("%s: warning: %s\n" % (_PROG, text))


def _training_reader(args):
    """The open _TableReader of fit and cv (the ARFF default target: the last
    attribute)."""
    arff = _is_arff(args.data)
    if args.target is None and not arff:
        raise _Usage("--target is required: name the label column")
    numeric = args.numeric or _cli_models()[args.model]._parameters["numeric"].default
    return _TableReader(args.data, arff, args.target, _ReadOptions.from_args(args, numeric),
                        default_target=True)


def _new_model(args, reader, kinds=None):
    """The model that fit and cv fit: --model with the reader's kinds (or ``kinds``)
    and categories."""
    cls = _cli_models()[args.model]
    allowed = cls._allowed_kinds
    kinds = reader.kinds if kinds is None else kinds
    for name, kind in kinds.items():
        if allowed is not None and kind not in allowed:
            how = "--numeric %s" % kind if args.numeric == kind else "--%s" % kind \
                if name in _columns(getattr(args, kind, None)) else "its values"
            fix = "--categorical" if kind == "text" else "--discretized"
            raise _Usage("--model %s takes %s columns; column %s is %s (by %s): use "
                         "%s %s or --ignore %s"
                         % (args.model, ", ".join(allowed), _typed(name), kind, how, fix,
                            _typed(name), _typed(name)))
    return cls(features=kinds, categories=reader.categories,
               **_model_params(args, cls._parameters),
               **_decision_params(args, reader.label, cls))


def _cli_variants(args, reader):
    """The settings cv measures on the same folds when the accuracy is below the
    majority rate (see _library_variants), as options: without --class-weight, and
    --numeric discretized for the numeric columns it inferred (not those a kind option
    named); for --model auto, naive Bayes on those bins."""
    import argparse

    def changed(**options):
        namespace = argparse.Namespace(**vars(args))
        vars(namespace).update(options)
        return namespace
    variants = []
    cls = _cli_models()[args.model]
    if getattr(args, "class_weight", None) is not None:
        variants.append(("without --class-weight",
                         lambda: _new_model(changed(class_weight=None), reader)))
    numeric = args.numeric or (cls._parameters["numeric"].default
                               if "numeric" in cls._parameters else None)
    declared = {name for kind in _KINDS for name in _columns(getattr(args, kind, None))}
    inferred = [name for name, kind in reader.kinds.items()
                if kind == numeric and name not in declared]
    binned = dict(reader.kinds, **{name: "discretized" for name in inferred})
    if args.model == "auto":
        variants.append(("--model naive" + ("" if numeric == "discretized" or not inferred
                                            else " --numeric discretized"),
                         lambda: _new_model(changed(model="naive", numeric="discretized"),
                                            reader, binned)))
    elif numeric not in (None, "discretized") and inferred and (
            cls._allowed_kinds is None or "discretized" in cls._allowed_kinds):
        variants.append(("--numeric discretized",
                         lambda: _new_model(changed(numeric="discretized"), reader, binned)))
    return variants


def _joined(tables):
    """Batches of one file as one batch (for fit's leading batches of zero weights)."""
    first = tables[0]
    X, y, weights, lines = [], [], [], []
    for table in tables:
        X.extend(table.X)
        lines.extend(table.lines)
        if table.y is not None:
            y.extend(table.y)
        weights.extend(table.sample_weight or [1.0] * len(table.X))
    return Table(X=X, y=None if first.y is None else y, sample_weight=weights, lines=lines,
                 path=first.path, names=first.names)


def _fit_batch_rows(model, reader):
    """Rows per partial_fit call of fit: _BATCH_ROWS; for naive Bayes (whose
    statistics are counts of each feature's values), about _BATCH_CELLS cells and at
    least _CLASS_ROWS rows per class, at most _BATCH_ROWS (the families that count
    pairs or rows pay more for each batch than for its cells)."""
    if model._statistics_class is not _NaiveStatistics:
        return _BATCH_ROWS
    classes = max(len(reader.classes or ()), reader.sample_classes, 1)
    rows = max(_BATCH_CELLS // max(1, len(reader.names)), _CLASS_ROWS * classes)
    return min(_BATCH_ROWS, rows)


def _fit_batch(model, batch, classes):
    """partial_fit on one batch; a library error restated with its file and line."""
    try:
        model.partial_fit(batch.X, batch.y, classes=classes,
                          sample_weight=batch.sample_weight)
    except NaiveBayesError as error:
        raise batch.at_line(error) from None


def _counts_columns(model):
    """True when fit may count its batches from their columns (_count_columns): a
    naive Bayes model whose partial_fit is the library's own, without class weights."""
    cls = type(model)
    return model._statistics_class is _NaiveStatistics and \
        cls.partial_fit is _Classifier.partial_fit and cls._learn is _Classifier._learn \
        and cls._new_statistics is _Classifier._new_statistics and \
        model.get_params()["class_weight"] is None


def _count_columns(model, parts, classes):
    """partial_fit of one batch of a naive Bayes model (see _counts_columns) that has
    learned a first batch, from the batch's columns (the reader's columns_of) rather
    than its rows: each column split by class (one builtin pass) and added to a
    skeleton of the model's statistics by the same feature kinds, then absorbed, as
    partial_fit does; the statistics are exact counts and sums, so the model is the
    one partial_fit on the rows makes.  False, with nothing changed, for a batch out
    of the ordinary (weights, a label or a value partial_fit would refuse or that
    needs more than counting): the caller gives that one to partial_fit, which
    counts it or says what is wrong, naming the row."""
    state = model._state
    labels, weights, lines, columns = parts
    base = state.statistics
    if base is None or weights is not None or not labels or base.layout != "sequence":
        return False
    names = list(base.features)
    if len(names) != len(columns):
        return False
    try:
        order = dict.fromkeys(labels)
    except TypeError:                     # an unhashable label
        return False
    if None in order or any(_is_missing(label) for label in order) or \
            (classes is not None and not all(label in classes for label in order)):
        return False
    params = model.get_params()
    statistics = base.skeleton()
    if len(order) == 1:
        split = None                      # every row is of the one class
        counts = {labels[0]: len(labels)}
    else:                                 # the rows in class order: one itemgetter
        where = {label: [] for label in order}
        for i, label in enumerate(labels):
            where[label].append(i)
        split = itemgetter(*chain.from_iterable(where.values()))
        counts = {label: len(rows) for label, rows in where.items()}
        where = None
    try:
        for name, column in zip(names, columns):
            feature = statistics.features[name]
            if feature.name is None:
                return False
            if split is not None:
                column = split(column)
            if type(feature) is _Gaussian and _FLOAT.issuperset(map(type, column)) and \
                    _add_sums_by_class(feature.stats, column, counts):
                continue
            if split is None:
                feature.add(labels[0], column, None, params)
                continue
            start = 0
            for label, count in counts.items():
                feature.add(label, column[start:start + count], None, params)
                start += count
        column = None
        statistics.class_count.update(counts)
        for label in classes or ():
            statistics.class_count.setdefault(label, 0)
        if classes is not None and hasattr(statistics, "declare_classes"):
            statistics.declare_classes(dict.fromkeys(classes))
        class_count = dict(base.class_count)
        for label, count in counts.items():
            class_count[label] = class_count.get(label, 0) + count
        _check_total_weight(class_count, "partial_fit()", "sample_weight")
        _check_class_prior(params.get("class_prior"), class_count, "partial_fit()")
        _check_discrete_labels(class_count, "partial_fit()")
        _check_memory(params, "partial_fit()", base, statistics)
    except Exception:                     # partial_fit finds out what, and names the row
        return False
    with state.lock:
        state.statistics.absorb(statistics)
        state.compiled = None
    return True


def _add_sums_by_class(stats, column, counts):
    """Add to _NormalSums ``stats`` the exact sums of a column of floats that holds
    each class's values in turn (``counts``: {label: number of values}, in that
    order), the whole column scaled to integers at once (see _exact_sums); False,
    with nothing added, when it spans too many binades for one scale.  ValueError
    or OverflowError for a NaN or an infinity."""
    scaled = _scaled_integers(column)
    if scaled is None:
        return False
    integers, shift = scaled
    start = 0
    for label, count in counts.items():
        part = integers[start:start + count]
        stats.add_sums(label, (count, _dyadic(sum(part), shift),
                               _dyadic(sum(map(mul, part, part)), 2 * shift)))
        start += count
    return True


_GC_OBJECTS = 10000       # objects the fit's batches may leave before a collection


def _gc_freezing():
    """(freeze, resume, unfreeze) for the command line's fit: CPython's gc.freeze
    (3.7+) leaves the objects alive now out of later collections until gc.unfreeze;
    nothing on PyPy, which has none, nor when the caller has frozen objects of its own
    (unfreeze would release them too).

    freeze collects first: what is frozen is never collected, so a cycle the batch
    left behind would otherwise stay for good, and memory grow with the file. The
    collection scans only what is not frozen yet, the last batches' objects. Between
    the first freeze and resume (after the last batch) the automatic collections are
    paused, and freeze collects (and freezes) only once the batches have left
    _GC_OBJECTS objects more than they freed since the last collection: what the
    automatic collections would find, found in one pass every few batches rather
    than by scanning a batch's rows again every few hundred allocations; resume and
    unfreeze start them again (when they ran before).  A batch counted from its
    columns leaves few objects the collector counts (its cells are strings and
    floats) however many rows it holds: freeze(rows) counts its rows as objects."""
    if not hasattr(gc, "get_freeze_count") or gc.get_freeze_count():
        return (lambda counted=0: None), (lambda: None), (lambda: None)
    enabled = gc.isenabled()
    frozen = False                        # (gc.get_freeze_count walks what is frozen)
    rows = 0                              # rows counted from columns since a collection

    def freeze(counted=0):
        nonlocal frozen, rows
        gc.disable()
        rows += counted
        if gc.get_count()[0] + rows >= _GC_OBJECTS or not frozen:
            gc.collect()
            gc.freeze()
            frozen = True
            rows = 0

    def resume():
        if enabled:
            gc.enable()

    def unfreeze():
        gc.unfreeze()
        resume()
    return freeze, resume, unfreeze


def _cmd_fit(args):
    _check_output(args.output, [args.data])
    reader = _training_reader(args)
    freeze, resume, unfreeze = _gc_freezing()
    try:
        model = _new_model(args, reader)
        progress = args.progress_line
        done = 0
        by_columns = _counts_columns(model)
        batches = reader.batches(_fit_batch_rows(model, reader), columns=by_columns)
        balanced = model.get_params()["class_weight"] == "balanced"
        choosing = isinstance(model, AutoBayes) and model.weights == "cv"
        if balanced:                      # class weights need every label first: the
            table = reader.table()        # file in memory
            batches = [table] if table.X else []
            model.set_params(class_weight=_balanced_class_weight(
                table.y, table.sample_weight, "fit()") if table.X else None)
        if balanced and choosing and table.X:
            try:
                model._fit_rows(table.X, table.y, table.sample_weight, reader.classes)
            except NaiveBayesError as error:
                raise table.at_line(error) from None
            progress.update(len(table.X))
            done, batches = len(table.X), []
        # partial_fit refuses a first batch whose every weight is 0 (the model would
        # have no weight); such batches are fitted with the next one instead, which
        # counts them exactly as one fit of the file would.
        waiting = []
        for batch in batches:
            if by_columns:                # the first batch, and any _count_columns
                if done and _count_columns(model, batch, reader.classes):   # leaves,
                    done += len(batch[2])                                 # by rows
                    progress.update(done)
                    counted, batch = len(batch[2]), None
                    freeze(counted)
                    continue
                batch = reader.table_of(batch)
            if not batch.X:
                continue
            if not done and batch.sample_weight is not None and not any(batch.sample_weight):
                waiting.append(batch)
                continue
            if waiting:
                batch, waiting = _joined(waiting + [batch]), []
            _fit_batch(model, batch, reader.classes)
            done += len(batch.X)
            progress.update(done)
            # what the model holds so far is not scanned again by the collector,
            # which the counts of a long file would keep busy (30% of the CPU); the
            # batch's rows are freed first, so that the collection need not scan them
            batch = None
            freeze()
        if waiting:
            _fit_batch(model, _joined(waiting), reader.classes)     # refused: no weight
        resume()
        if choosing and done and not balanced:    # AutoBayes streamed: its weights from
            model.choose_weights()        # the rows its statistics keep, as fit chooses
        progress.done()
    finally:
        unfreeze()
        reader.close()
    if not done:
        raise NaiveBayesError("%s has no row with a label; expected labelled rows"
                              % reader.source.path)
    if balanced:
        model.set_params(class_weight="balanced")
    _check_decision_options(model, model.classes_, _decision_params(
        args, reader.label, type(model)))
    _print_notes(reader.warnings + reader.notes_after())
    model.target_ = reader.target
    fingerprint = reader.source.lines.fingerprint()
    if fingerprint is not None:           # an evaluation on this file is then in-sample
        model.training_data_ = {"sha256": fingerprint}
    text = _json_text(model.to_dict())
    summary = "fit %s: %s rows, target %s\n%s" % (
        reader.source.path, format(done, ","), _typed(reader.target),
        _summary_text(model, args.output))
    # the file written and synced first (a failed write prints only its error), the
    # summary printed, then the file renamed into place (a failed print changes no file)
    staged = None
    try:
        staged = _AtomicFile(args.output, None)
        staged.stream.write(text)
        staged.stage()
        out = sys.stdout
        out.write(summary)
        if len(model.classes_) == 1:
            out.flush()
            _warn("the target has one class (%s); every prediction will be %s"
                  % (_clip(model.classes_[0]), _clip(model.classes_[0])))
        out.write("wrote %s\n" % args.output)
        out.flush()
    except BaseException:                 # Ctrl-C too: no temporary file is left
        if staged is not None:
            staged.discard()
        raise
    staged.commit()
    return 0


_FIT_FEATURES_SHOWN = 40  # fit lists this many features; info lists them all


def _summary_text(model, output=None):
    """Classes with counts, then each feature with its kind and what it holds; with
    ``output`` (fit's model file), the first _FIT_FEATURES_SHOWN features only."""
    summary = model.summary()
    lines = []
    classes = summary["classes"]
    width = max(_width(_clip(c)) for c, _ in classes)
    lines.append("classes (%d):" % len(classes))
    for label, count in classes:
        lines.append("  %s %s" % (_left(_clip(label), width), format(count, ",")))
    features = summary["features"]
    lines.append("features (%d):" % len(features))
    width = max([_width(_clip(name)) for name, _, _ in features] + [1])
    shown = features if output is None else features[:_FIT_FEATURES_SHOWN]
    room = max(20, 80 - (2 + width + 1 + 11 + 1))       # lines within 80 columns
    for name, kind, detail in shown:
        lines.append("  %s %-11s %s" % (_left(_clip(name), width), kind, _clip(detail, room)))
    if len(shown) < len(features):
        lines.append("  ... and %s more (%s info %s lists them all)"
                     % (format(len(features) - len(shown), ","), _PROG, _quote(output)))
    if "pairwise counts" in summary:
        lines.append("pairwise counts: %s" % format(summary["pairwise counts"], ","))
    if "distinct rows" in summary:
        lines.append("distinct rows: %s" % format(summary["distinct rows"], ","))
    if "parents" in summary:              # a network's structure
        def named(parents):
            return ", ".join("the class" if p is None else _clip(p) for p in parents) \
                or "none"
        if "leader" in summary:           # AutoBayes: its leading member's network
            lines.append("parents (the network's structure, of the member %s):"
                         % summary["leader"])
        else:
            lines.append("parents (the network's structure):")
        width = max([_width(_clip(name)) for name in summary["parents"] if name is not None]
                    + [1])                # (no feature: only the class)
        left_out = summary.get("selected", {}).get("left out", ())
        for name, parents in summary["parents"].items():
            if name is not None:
                lines.append("  %s <- %s" % (_left(_clip(name), width), "left out (no "
                                             "evidence)" if name in left_out else
                                             named(parents)))
        lines.append("  the class <- %s" % named(summary["parents"][None]))
    if "selected" in summary:             # selective kDB's choice
        lines.append("selected by leave-one-out: %d of the features, k = %d"
                     % (summary["selected"]["features"], summary["selected"]["k"]))
    if "choice" in summary:               # AutoBayes
        import textwrap
        lines += textwrap.wrap("mixture: " + summary["choice"].replace("mixture ", "", 1),
                               80, subsequent_indent="  ", break_long_words=False)
    if output is None and summary.get("feature weights"):
        weights = summary["feature weights"]
        width = max(_width(_clip(name)) for name in weights)
        lines.append("feature weights (naive Bayes' evidence of each feature times):")
        lines += ["  %s %.4g" % (_left(_clip(name), width), w) for name, w in weights.items()]
    if output is None and summary.get("tree"):
        lines.append("tree (each side of a split; a leaf: its most probable class, P):")
        for line in summary["tree"]:
            indent = "  " + " " * (len(line) - len(line.lstrip()))
            lines.append(indent + _clip(line.lstrip(), 80 - len(indent)))
    return "\n".join(lines) + "\n"


def _prediction_reader(model, args, target=None):
    """The open _TableReader of a data file for a fitted model (predict, evaluate,
    explain): the model's features with its kinds."""
    return _TableReader(args.data, _is_arff(args.data), target,
                        _ReadOptions.from_args(args, model=model),
                        default_target=target is None and hasattr(args, "target"))


def _load_model(path):
    return _Classifier.load(path)


def _output_dialect(args, source):
    """predict's (delimiter, decimal mark): the options', else the input's."""
    options = _ReadOptions("", True)
    delimiter = source.delimiter if args.output_delimiter is None else \
        options._delimiter(args.output_delimiter, "output_delimiter")
    decimal = args.output_decimal or source.decimal
    if decimal not in (".", ","):
        raise _Usage("--output-decimal %s: expected . or ," % _typed(decimal))
    return delimiter, decimal


def _cmd_predict(args):
    import csv
    _check_output(args.output, [args.model, args.data])
    model = _load_model(args.model)
    reader = _prediction_reader(model, args)
    try:
        decision = _decision_in_place(model, args, reader)
        source = reader.source
        keep = [source.column(name, "keep") for name in _columns(args.keep)]
        delimiter, decimal = _output_dialect(args, source)
        classes = model.classes_
        output = _AtomicFile(args.output, None) if args.output not in (None, "-") \
            else None
    except BaseException:
        reader.close()
        raise
    stream = output.stream if output is not None else sys.stdout
    if decimal == ",":
        def shown(probabilities):
            return [repr(p).replace(".", ",") for p in probabilities]
    else:
        def shown(probabilities):
            return probabilities
    try:
        writer = csv.writer(stream, delimiter=delimiter, lineterminator="\n")
        writer.writerow([source.header[i] for i in keep] + [model.target_ or "prediction"] +
                        ([str(c) for c in classes] if args.proba else []))
        progress = args.progress_line
        done = 0
        for chunk in _batches(reader.raw_rows(), 1000):
            batch = reader.convert(chunk)
            try:
                probabilities = model.predict_proba(batch.X)
            except NaiveBayesError as error:
                raise batch.at_line(error) from None
            _check_probabilities(probabilities, chunk, args.model)
            labels = [classes[p.index(max(p))] for p in probabilities] \
                if decision is None else decision.labels(probabilities)
            for (_, cells), p, label in zip(chunk, probabilities, labels):
                writer.writerow([cells[i] for i in keep] + [label] +
                                (shown(p) if args.proba else []))
            done += len(batch.X)
            progress.update(done)
        progress.done()
        if output is not None:
            output.commit()
        else:
            sys.stdout.flush()
        _print_notes(reader.warnings)
    except BaseException:
        if output is not None:
            output.discard()
        raise
    finally:
        reader.close()
    return 0


def _check_probabilities(probabilities, chunk, path):
    """NaiveBayesError unless every row's probabilities are finite numbers: predict
    never writes nan (a model file loads only when it predicts probabilities; this
    is the last guard, should one slip through)."""
    for (line, _), p in zip(chunk, probabilities):
        if not all(map(isfinite, p)):
            raise NaiveBayesError("%s: the model gives %s for line %d, not probabilities; "
                                  "expected a model file as fit writes it (fit it again)"
                                  % (path, _shown(p), line))


def _decision_in_place(model, args, reader):
    """predict and evaluate: the decision options set on the loaded model (in place of
    its own: --threshold and --costs each replace the model's thresholds or costs),
    and its decision rules (None: the argmax)."""
    params = _decision_params(args, reader.label, type(model))
    for rule, other in (("thresholds", "costs"), ("costs", "thresholds")):
        if rule in params and other not in params:
            model.set_params(**{other: None})        # one rule replaces the other
    model.set_params(**params)
    _check_decision_options(model, model.classes_, params)
    return model._decision(model.classes_, "predict()")


def _cmd_forget(args):
    _check_output(args.output, [args.data])     # -o may be the model itself
    model = _load_model(args.model)
    target = args.target or model.target_
    if target is None and not _is_arff(args.data):
        raise _Usage("--target is required: the model file does not name its target")
    reader = _prediction_reader(model, args, target)
    done = 0
    try:
        for batch in reader.batches(_BATCH_ROWS):
            if not batch.X:
                continue
            try:
                model.forget(batch.X, batch.y, sample_weight=batch.sample_weight)
            except NaiveBayesError as error:
                raise batch.at_line(error) from None
            done += len(batch.X)
    finally:
        reader.close()
    path = reader.source.path
    if not done:
        raise NaiveBayesError("%s has no row with a label; expected labelled rows" % path)
    _print_notes(reader.warnings + reader.notes_after())
    model.save(args.output)
    sys.stdout.write("forget %s: %s rows forgotten\n%swrote %s\n"
                     % (path, format(done, ","), _summary_text(model, args.output),
                        args.output))
    return 0


def _print_report(report, as_json):
    """An EvaluationReport on stdout: str(report), or with --json its to_dict()
    without each row's predictions (cv --predictions writes those)."""
    if as_json:
        import json
        sys.stdout.write(json.dumps(report.to_dict(predictions=False), indent=2,
                                    ensure_ascii=False, allow_nan=False, default=str) + "\n")
    else:
        sys.stdout.write(str(report))


def _cmd_evaluate(args):
    model = _load_model(args.model)
    target = args.target or model.target_
    if target is None and not _is_arff(args.data):
        raise _Usage("--target is required: the model file does not name its target")
    reader = _prediction_reader(model, args, target)
    progress = args.progress_line
    try:
        decision = _decision_in_place(model, args, reader)
        evaluation = _Evaluation(model._fitted().classes())
        for batch in reader.batches(1000):
            try:
                joints, _ = model._joints(batch.X, "evaluate()")
            except NaiveBayesError as error:
                raise batch.at_line(error) from None
            evaluation.add(batch.y, _posteriors(joints), batch.sample_weight, _best(joints))
            progress.update(evaluation.rows)
        progress.done()
    finally:
        reader.close()
    path = reader.source.path
    if not evaluation.rows:
        raise NaiveBayesError("%s has no row with a label; expected labelled rows" % path)
    if not any(evaluation.weights):
        raise NaiveBayesError("%s: every row has weight 0; expected a positive total weight"
                              % path)
    _print_notes(reader.warnings + reader.notes_after())
    report = _evaluation_warnings(EvaluationReport(evaluation, decision=decision),
                                  evaluation, model, True)
    if _in_sample(model, reader):
        report.warnings.insert(0, "in-sample: %s is the file %s was fitted on (the same "
                               "bytes), so these figures are optimistic; cv on it "
                               "estimates them on rows a model has not seen"
                               % (path, args.model))
    if not set(evaluation.truths) & set(evaluation.classes):
        truths = dict.fromkeys(evaluation.truths)
        _warn("none of the labels in %s (%s) is a class of the model (%s): is --target "
              "the right column?" % (path, _clip(", ".join(map(str, truths)), 40),
                                     _clip(", ".join(map(str, evaluation.classes)), 40)))
    _print_report(report, args.json)
    return 0


def _cmd_cv(args):
    if args.folds < 2:
        raise _Usage("--folds %d: expected at least 2 folds" % args.folds)
    reader = _training_reader(args)
    try:
        model = _new_model(args, reader)  # a bad option is a usage error before any work
        table = reader.table()
    finally:
        reader.close()
    if len(table.X) < args.folds:
        raise _Usage("--folds %d: %s has only %d labelled rows"
                     % (args.folds, table.path, len(table.X)))
    _check_decision_options(model, _sorted_if_orderable(set(table.y)), _decision_params(
        args, reader.label, type(model)))
    for output in (args.report, args.predictions):
        if output is not None:
            _check_output(output, [args.data])
    if args.report is not None and args.predictions is not None and \
            _same_file(args.report, args.predictions):
        raise _Usage("--predictions %s: that is the --report file; expected another"
                     % _quote(args.predictions))
    weights = None if table.sample_weight is None else \
        _check_weights(table.sample_weight, 0, "cv")
    if weights is not None and not any(weights):
        raise NaiveBayesError("%s: every row has weight 0; expected a positive total weight"
                              % table.path)
    try:
        report = _cross_validate(lambda: _new_model(args, reader), table.X, table.y,
                                 args.folds, args.seed, weights, "cross-validation",
                                 command_line=True,
                                 variants=lambda trained: _cli_variants(args, reader))
    except NaiveBayesError as error:
        raise table.at_line(error) from None
    args.progress_line.done()
    _print_notes(table.warnings)
    if args.report is not None:           # the model of all rows, its out-of-fold rows
        model = _new_model(args, reader).fit(table.X, table.y, sample_weight=weights)
        model.target_ = table.target
        order = [report.classes.index(label) for label in model.classes_]
        proba = [[p[k] for k in order] for p in report.predictions]
        _write_atomically(args.report, report_html(
            model, table.X, table.y, proba, "%d-fold cross-validation of %s, target %s "
            "(out-of-fold predictions)" % (args.folds, table.path, table.target)), None)
    if args.predictions is not None:
        _write_atomically(args.predictions, _predictions_csv(table, report), None)
    if not args.json:
        sys.stdout.write("%d-fold stratified cross-validation of %s (seed %d), target %s\n"
                         % (args.folds, table.path, args.seed, _typed(table.target)))
    _print_report(report, args.json)
    for output in (args.report, args.predictions):
        if output is not None:
            sys.stdout.write("wrote %s\n" % output)
    return 0


def _predictions_csv(table, report):
    """cv --predictions: a CSV of every labelled row's out-of-fold prediction, in the
    file's order and dialect: its line, its fold (from 1), the true label, the
    predicted one, and one probability per class."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, delimiter=table.delimiter or ",", lineterminator="\n")
    writer.writerow(["line", "fold", table.target, "predicted"] + list(report.classes))
    comma = table.decimal == ","
    for line, fold, truth, guess, probabilities in zip(
            table.lines, report.fold_of, table.y, report.predicted, report.predictions):
        writer.writerow([line, fold + 1, truth, guess] +
                        [repr(p).replace(".", ",") if comma else repr(p)
                         for p in probabilities])
    return out.getvalue()


def _in_sample(model, reader):
    """True when the data file a reader has read whole is the one the model was fitted
    on: the SHA-256 of its bytes is the one its model file keeps (see
    _Classifier._training_data; False when the model keeps none)."""
    training = model._training_data()
    fingerprint = reader.source.lines.fingerprint()
    return training is not None and fingerprint is not None and \
        training.get("sha256") == fingerprint


def _cmd_report(args):
    """report MODEL [DATA] -o FILE.html: the page of report_html, with the data's
    rows (evaluated when they have the target column)."""
    _check_output(args.output, [args.model, args.data])
    model = _load_model(args.model)
    X = y = proba = None
    if args.data is not None:
        target = args.target or model.target_
        try:
            reader = _prediction_reader(model, args, target)
        except (_Usage, NaiveBayesError):
            if args.target or target is None:
                raise
            reader = _prediction_reader(model, args, None)   # rows without labels:
        try:                                                 # explained, not evaluated
            X, y, proba = [], None if reader.target is None else [], []
            for batch in reader.batches(1000):
                try:
                    proba.extend(model.predict_proba(batch.X))
                except NaiveBayesError as error:
                    raise batch.at_line(error) from None
                X.extend(batch.X)
                if y is not None:
                    y.extend(batch.y)
        finally:
            reader.close()
        _print_notes(reader.warnings + reader.notes_after())
    in_sample = bool(y) and _in_sample(model, reader)
    title = "%s%s%s" % (args.model, "" if args.data is None else " on " + args.data,
                        " (in-sample: the data it was fitted on)" if in_sample else "")
    _write_atomically(args.output, report_html(model, X, y, proba, title,
                                               in_sample=in_sample), None)
    if in_sample:
        _warn("%s is the file %s was fitted on: the report's evaluation is in-sample "
              "(optimistic); cv --report evaluates out of fold" % (args.data, args.model))
    sys.stdout.write("wrote %s\n" % args.output)
    return 0


def _cmd_explain(args):
    if args.top < 0:
        raise _Usage("--top %d: expected a number >= 0" % args.top)
    model = _load_model(args.model)
    if args.data is None:
        if args.row is not None:
            raise _Usage("--row needs a data file to read the row from")
        return _print_informative(model, args.top)
    if args.row is None:
        raise _Usage("explain MODEL.json DATA.csv needs --row N (the N-th data row, from 1)")
    if args.row < 1:
        raise _Usage("--row %d: rows count from 1 (the first line after the header)"
                     % args.row)
    reader = _prediction_reader(model, args)
    try:
        found = next(islice(reader.raw_rows(), args.row - 1, None), None)
        batch = None if found is None else reader.convert([found])
    finally:
        reader.close()
    path = reader.source.path
    if found is None:
        raise NaiveBayesError("%s has fewer than %d rows" % (path, args.row))
    [row] = batch.X
    try:
        parts = _log_odds_parts(model, row, args.top)
    except NaiveBayesError as error:
        raise batch.at_line(error) from None
    _print_notes(reader.warnings)
    out = sys.stdout
    decided = parts["decision"]
    out.write("%s row %d (line %d): %s %s (P = %.4f)\n"
              % (path, args.row, found[0], "most probable" if decided and decided["changed"]
                 else "predicted", parts["predicted"], parts["probability"]))
    if decided and decided["changed"]:    # a decision rule chose another label
        out.write("decision: %s, by %s\n" % (_clip(decided["predicted"]), {
            "thresholds": "the thresholds (the largest P(c | x) / t_c)",
            "costs": "the costs (the least expected cost)",
            "reject": "reject_below (P = %.4f is below %g)" % (
                decided["probability"], model.reject_below)}[decided["rule"]]))
    if parts["runner_up"] is None:
        out.write("the model has one class; nothing to compare\n")
        return 0
    best, runner = _clip(parts["predicted"], 20), _clip(parts["runner_up"], 20)
    line = "runner-up %s (P = %.4f); contributions to log P(%s)/P(%s):" % (
        runner, parts["runner_probability"], best, runner)
    out.write((line if _width(line) <= 80 else line.replace("; ", ";\n", 1)) + "\n\n")
    items = [(_clip(feature, 20) + separator + _clip(what, 36 - min(20, _width(feature)) - 3),
              value) for feature, separator, what, value in parts["items"]]
    shown = items[:args.top]
    if len(items) > len(shown):
        rest = items[len(shown):]
        shown.append(("%d other parts" % len(rest), math.fsum(v for _, v in rest)))
    _bar_chart(shown, parts["predicted"], parts["runner_up"])
    if parts["missing"]:
        out.write("\nmissing (no contribution): %s\n"
                  % _clip(", ".join(map(str, parts["missing"])), 60))
    return 0


def _bar_chart(items, best, runner, width=20):
    """Two-sided text bars: left for the runner-up, right for the predicted class,
    within 80 columns."""
    finite = [abs(v) for _, v in items if isfinite(v)]
    scale = max(finite) if finite and max(finite) > 0 else 1.0
    label_width = max(_width(label) for label, _ in items)
    width = max(8, min(width, (80 - label_width - 13) // 2))
    out = sys.stdout
    out.write("%s %9s  %s|%s\n" % (_left("", label_width), "",
                                   _right("<- " + _clip(runner, width - 3), width),
                                   " " + _clip(best, width - 4) + " ->"))
    for label, value in items:
        size = width if not isfinite(value) else int(round(abs(value) / scale * width))
        left = "#" * size if value < 0 else ""
        right = "#" * size if value > 0 else ""
        out.write("%s %+9.3f  %s|%s\n" % (_left(label, label_width), value,
                                          _right(left, width), right))


def _print_informative(model, top):
    rows = _informative_rows(model, top)
    out = sys.stdout
    out.write("most informative features (score: log-likelihood ratio in nats)\n")
    if not rows:
        out.write("  (none)\n")
        return 0
    table = [("feature", "favours", "score", "ratio")]
    for feature, value, favoured, score, ratio in rows:
        what = "%s = %s" % (_clip(feature, 20), _clip(value)) if value is not None \
            else _clip(feature, 40)
        table.append((what, _clip(favoured, 16), "%.4f" % score,
                      ("%.2f : 1" % ratio) if ratio < 1e6 else "%.3g : 1" % ratio))
    widths = [max(_width(r[i]) for r in table) for i in range(4)]
    for what, favoured, score, ratio in table:
        out.write("  %s  %s  %s  %s\n" % (_left(what, widths[0]), _left(favoured, widths[1]),
                                          _right(score, widths[2]), ratio))
    return 0


def _cmd_info(args):
    model = _load_model(args.model)
    out = sys.stdout
    name = type(model).__name__
    out.write("%s: %s %s (model file format %d)\n"
              % (args.model, _article(name), name, FORMAT_VERSION))
    if model.target_ is not None:
        out.write("target: %s\n" % model.target_)
    if not model.__sklearn_is_fitted__():
        out.write("not fitted\n")
    else:
        out.write(_summary_text(model))
        out.write(_class_statistics_text(model.summary(per_class=True)))
    params = model.get_params()
    shown = ["%s=%r" % (name, value) for name, value in params.items()
             if name not in ("features", "categories", "tokenizer")]
    import textwrap
    out.write(textwrap.fill("parameters: " + ", ".join(shown), 80, subsequent_indent="  ",
                            break_long_words=False, break_on_hyphens=False) + "\n")
    return 0


def _class_statistics_text(summary):
    """info's per-class statistics of each feature (summary(per_class=True)), one
    line per class within 80 columns."""
    statistics = summary.get("class_statistics")
    if not statistics:
        return ""
    labels = [label for label, _ in summary["classes"]]
    label_width = min(20, max(_width(_clip(label, 20)) for label in labels))

    def count(n):
        return format(n, ",") if type(n) is int else _figure(n)
    counts = [count(c["count"]) for feature in statistics.values()
              for c in feature["classes"].values()]
    count_width = max(map(len, counts))
    room = 80 - 4 - label_width - 2 - count_width - 2
    lines = ["per class: rows with the feature; mean and sd, rows per bin, or top values"]
    for name, feature in statistics.items():
        kind, classes = feature["kind"], feature["classes"]
        head = "%s (%s" % (_clip(name, 40), kind)
        if "of" in feature:
            head += ", of %s" % feature["of"]
        cuts = next(iter(classes.values())).get("cuts")
        if cuts:
            head += ", cut at %s" % ", ".join("%.6g" % cut for cut in cuts)
        lines.append("  " + _clip(head, 77) + ")")
        for label in labels:
            shown = classes[label]
            if not shown["count"]:
                detail = "no values"
            elif "bins" in shown:
                detail = ", ".join(map(count, shown["bins"]))
            elif "top" in shown:
                detail = ", ".join("%s %s" % (_clip(value, 16), count(n))
                                   for value, n in shown["top"])
            elif shown.get("sd") is not None:
                detail = "mean %.4g, sd %.4g" % (shown["mean"], shown["sd"])
            else:
                detail = "mean %.4g" % shown["mean"]
            lines.append("    %s  %s  %s" % (_left(_clip(label, 20), label_width),
                                             _right(count(shown["count"]), count_width),
                                             _clip(detail, room)))
    return "\n".join(lines) + "\n"


def _number_option(text):
    """A number option: an int when written as one (--ddof 1), else a float."""
    return _cli_number(text)


_number_option.__name__ = "number"       # argparse names the type in its messages


def _parser():
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise _Usage("%s (see python %s --help)" % (message, self.prog))

    def command(name, help_text, example):
        sub = commands.add_parser(name, help=help_text, description=help_text,
                                  epilog="example:\n  " + example,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=_COMMANDS[name])
        return sub

    def progress_options(sub):
        sub.add_argument("--progress", action="store_const", const=True, help="show "
                         "how far long work is on stderr even when it is not a terminal")
        sub.add_argument("--quiet", dest="progress", action="store_const", const=False,
                         help="never show how far long work is (the default shows it on "
                         "a terminal)")

    def data_options(sub):
        progress_options(sub)
        sub.add_argument("--delimiter", metavar="CHAR", help="field separator: a "
                         "character, or tab, comma, semicolon, pipe (default: detected)")
        sub.add_argument("--decimal", metavar="MARK", help="decimal mark of numbers: . or "
                         ", (default: , in ;-separated files, else .)")
        sub.add_argument("--thousands", metavar="MARK", help="thousands separator of "
                         "numbers, such as , . ' or a space: \"67,810\" is then 67810 "
                         "(default: none)")
        sub.add_argument("--encoding", metavar="NAME", help="text encoding, as Python "
                         "names them: latin-1, cp1252, utf-16 ... (default: from the "
                         "byte-order mark, else UTF-8)")
        sub.add_argument("--missing", action="append", metavar="TOKEN",
                         help="another cell that means a missing value (repeatable); "
                         "empty cells, ?, NA, N/A, NaN, NULL, None ... already do")
        sub.add_argument("--missing-only", action="append", metavar="TOKEN",
                         help="only these cells (and empty ones) mean a missing value "
                         "(repeatable)")

    def decision_options(sub, training):
        """Class weights (fit, cv), the class prior and the decision rules: saved in the
        model by fit, in place of the model's for predict and evaluate."""
        if training:
            sub.add_argument("--class-weight", metavar="balanced|LABEL=W,...",
                             help="weigh each class's rows (balanced: n / (K * n_c), as "
                             "scikit-learn)")
        sub.add_argument("--class-prior", metavar="uniform|LABEL=P,...",
                         help="the class prior, in place of the learned one")
        sub.add_argument("--threshold", action="append", metavar="LABEL=T",
                         help="predict the class with the largest P(c | x) / T_c (Spark's "
                         "rule; one per class; repeatable or comma-separated)")
        sub.add_argument("--costs", metavar="FILE.csv", help="predict the least expected "
                         "cost: a CSV cost matrix, a header row of predicted labels, a row "
                         "per true label (Weka's cost-sensitive classifier)")
        sub.add_argument("--reject-below", type=_number_option, metavar="P",
                         help="predict --reject-label when the largest P(c | x) is below P")
        sub.add_argument("--reject-label", metavar="LABEL", help="the label of rows the "
                         "model is unsure of (default unsure)")

    def model_options(sub):
        sub.add_argument("--target", metavar="COL", help="the label column (default for "
                         "ARFF: the last attribute)")
        sub.add_argument("--model", choices=tuple(_cli_models()), default="naive",
                         help="the model family (default naive)")
        parameters = {}                   # naive Bayes' (the widest choices) last
        for cls in reversed(list(_cli_models().values())):
            parameters.update(cls._parameters)
        for name, parameter in parameters.items():
            if parameter.option is None:
                continue
            kind, text = parameter.option[:2]
            extra = parameter.option[2] if len(parameter.option) > 2 else {}
            option = "--" + name.replace("_", "-")
            if isinstance(kind, tuple):
                sub.add_argument(option, dest=name, choices=kind, help=text)
            elif kind is bool:            # a flag: given means True
                sub.add_argument(option, dest=name, action="store_const", const=True,
                                 help=text)
            elif extra:                   # several values (nargs)
                sub.add_argument(option, dest=name, help=text, type=kind, **extra)
            else:
                sub.add_argument(option, dest=name, help=text, metavar=name.upper().split(
                    "_")[-1], type=_number_option if kind is _cli_number else kind)
        for kind in _KINDS:
            sub.add_argument("--" + kind, action="append", metavar="COLS",
                             help="comma-separated columns to treat as %s" % kind)
        decision_options(sub, True)
        data_options(sub)

    parser = Parser(prog=_PROG, description="Naive Bayes on CSV and ARFF files: fit a "
                    "model, predict, evaluate, cross-validate, explain, report.",
                    epilog="example:\n  python naive_bayes.py cv examples/data/titanic.csv "
                    "--target survived", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True

    sub = command("fit", "fit a model on a CSV or ARFF file and write it as JSON",
                  "python naive_bayes.py fit examples/data/titanic.csv --target survived "
                  "-o titanic.json")
    sub.add_argument("data", metavar="DATA", help="training data: CSV with a header row, "
                     "or ARFF (- for CSV on stdin)")
    sub.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    model_options(sub)

    sub = command("predict", "predict the class of every row of a data file",
                  "python naive_bayes.py predict titanic.json examples/data/titanic.csv --proba")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA")
    sub.add_argument("--proba", action="store_true", help="add one probability column "
                     "per class")
    sub.add_argument("--keep", action="append", metavar="COLS", help="copy these input "
                     "columns (an ID, say) into the output, first")
    sub.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
    sub.add_argument("--output-delimiter", metavar="CHAR", help="field separator of the "
                     "output (default: the input's; for ARFF a comma)")
    sub.add_argument("--output-decimal", metavar="MARK", help="decimal mark of the "
                     "probabilities: . or , (default: the input's)")
    decision_options(sub, False)
    data_options(sub)

    sub = command("evaluate", "accuracy, log loss, per-class scores and confusion matrix",
                  "python naive_bayes.py evaluate titanic.json examples/data/titanic.csv")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    decision_options(sub, False)
    data_options(sub)

    sub = command("cv", "stratified k-fold cross-validation, with the evaluate report",
                  "python naive_bayes.py cv examples/data/titanic.csv --target survived --folds 10")
    sub.add_argument("data", metavar="DATA")
    sub.add_argument("--folds", type=int, default=10, help="number of folds (default 10)")
    sub.add_argument("--seed", type=int, default=0, help="shuffling seed (default 0)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument("--report", metavar="FILE.html", help="also write the HTML report "
                     "of the out-of-fold predictions (see the report command)")
    sub.add_argument("--predictions", metavar="FILE", help="also write every row's "
                     "out-of-fold prediction as CSV: its line, fold, true and predicted "
                     "class, and one probability per class")
    model_options(sub)

    sub = command("explain", "the most informative features, or why one row got its "
                  "prediction", "python naive_bayes.py explain titanic.json "
                  "examples/data/titanic.csv "
                  "--row 3")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA", nargs="?")
    sub.add_argument("--row", type=int, metavar="N", help="the N-th data row, from 1")
    sub.add_argument("--top", type=int, default=10, help="features (or words) to list "
                     "(default 10)")
    data_options(sub)

    sub = command("forget", "remove rows a model learned, exactly (as sa-learn --forget): "
                  "the model then equals one fitted without them",
                  "python naive_bayes.py forget spam.json mistaken.csv -o spam.json")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA", help="the rows to forget, with their labels")
    sub.add_argument("-o", "--output", required=True, metavar="MODEL.json",
                     help="where to write the model (it may be MODEL.json itself)")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    data_options(sub)

    sub = command("report", "one HTML page about a model: its features' plots and, with "
                  "data, the evaluation and explanations of its rows",
                  "python naive_bayes.py report titanic.json examples/data/titanic.csv "
                  "-o titanic.html")
    sub.add_argument("model", metavar="MODEL.json")
    sub.add_argument("data", metavar="DATA", nargs="?", help="rows to evaluate (with the "
                     "target column) or explain")
    sub.add_argument("-o", "--output", required=True, metavar="FILE.html")
    sub.add_argument("--target", metavar="COL", help="the label column (default: the "
                     "model's)")
    data_options(sub)

    sub = command("info", "what a model file holds",
                  "python naive_bayes.py info titanic.json")
    sub.add_argument("model", metavar="MODEL.json")
    progress_options(sub)
    return parser


_COMMANDS = {"fit": _cmd_fit, "predict": _cmd_predict, "evaluate": _cmd_evaluate,
             "cv": _cmd_cv, "explain": _cmd_explain, "forget": _cmd_forget,
             "report": _cmd_report,
             "info": _cmd_info}


def main(argv=None):
    """The command line; returns the exit status: 0 done, 1 bad data, 2 usage error,
    130 interrupted (Ctrl-C: "naive_bayes.py fit: interrupted", and no -o file is
    changed).  Errors are one line on stderr, never a traceback.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as stderr:
    ...     status = main(["info", "no/such/model.json"])
    >>> status
    1
    >>> print(stderr.getvalue().strip())  # doctest: +ELLIPSIS
    naive_bayes.py info: error: load(no/such/model.json): cannot read the file: No such ...
    """
    prog = _PROG                          # then with the command: naive_bayes.py fit
    field_limit = None
    # Everything, the parsing of the options included, within one try: Ctrl-C at any
    # moment ends with one line and status 130, never a traceback.
    try:
        import csv
        parser = _parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as stop:        # --help and --version
            return stop.code if isinstance(stop.code, int) else 0
        prog = "%s %s" % (_PROG, args.command)
        field_limit = csv.field_size_limit(_LINE_LIMIT)     # a document may be a long cell
        args.progress_line = _Progress(args.command, getattr(args, "progress", None))
        with args.progress_line:          # ended before any error is printed
            return args.run(args)
    except (_Usage, _OptionError) as error:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(error)))
        return 2
    except NaiveBayesError as error:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(error)))
        return 1
    except BrokenPipeError:
        import os
        try:                            # the reader went away (| head): stop quietly,
            devnull = os.open(os.devnull, os.O_WRONLY)    # and let no flush at exit
            os.dup2(devnull, sys.stdout.fileno())         # complain about the pipe
        except (OSError, ValueError):
            pass
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % prog)
        return 130
    except OSError as error:
        sys.stderr.write("%s: error: %s\n" % (prog, _one_line(error)))
        return 1
    except Exception as error:            # a bug: still one line, and say so
        sys.stderr.write("%s: internal error (please report it): %s: %s\n"
                         % (prog, type(error).__name__, _one_line(error)))
        return 1
    finally:
        if field_limit is not None:
            import csv
            csv.field_size_limit(field_limit)


if __name__ == "__main__":
    sys.exit(main())
