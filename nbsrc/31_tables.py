# -- What each column holds -----------------------------------------------------------


def _column_kinds(source, options, sample, target, notes):
    """{column: kind} for every column but the target: the kind options first; then
    what an ARFF header declares (numbers as options.numeric); then, for a CSV column,
    what its sampled cells hold (see _guess_kind)."""
    declared = {}
    for kind, names in options.columns.items():
        for name in names:
            if not (name == "" and kind == "ignore" and source.skipped is not None):
                source.column(name, kind)
            if name == target:
                raise _OptionError("%s: that is the target column" % options.spell(kind, name))
            if declared.get(name, kind) != kind:
                raise _OptionError("%s: the column is also declared %s"
                                   % (options.spell(kind, name), declared[name]))
            declared[name] = kind
    kinds, codes = {}, []
    columns = None
    for name, index in source.index.items():
        if name == target:
            continue
        if name in declared:
            kinds[name] = declared[name]
        elif name in source.declared:
            kind = source.declared[name]
            kinds[name] = options.numeric if kind == "gaussian" else kind
        else:
            if columns is None:           # the sample's columns, transposed once
                columns = list(zip(*[cells for _, cells in sample]))
            kinds[name] = _guess_kind(name, columns[index], source, options, notes, codes)
    if codes:
        notes.append(_codes_note(codes, options))
    return kinds


def _codes_note(codes, options):
    """The note about columns of a few distinct integers (codes?), with the option
    that reads them as categories, whole: every column named, as it is typed."""
    names = [name for name, _ in codes]
    if len(",".join(names)) + 20 <= _FIX_LIMIT:
        fix = options.spell("categorical", names[0] if len(names) == 1 else names)
    else:                                 # (hundreds of columns: a line of their own)
        fix = "%s naming these %d columns" % (
            "--categorical" if options.cli else "categorical=[...]", len(names))
    if len(codes) == 1:
        name, values = codes[0]
        return ("note: column %s holds only %d distinct integers (%s); if they are codes, "
                "%s reads them as categories" % (_typed(name), len(values),
                                                 _clip(", ".join(values), 40), fix))
    sizes = sorted(len(values) for _, values in codes)
    return ("note: %d columns hold only %s distinct integers (%s); if they are codes, %s "
            "reads them as categories"
            % (len(codes), "%d to %d" % (sizes[0], sizes[-1]) if sizes[0] < sizes[-1]
               else sizes[0], _clip(", ".join(map(str, names)), 60), fix))


def _guess_kind(name, cells, source, options, notes, codes):
    """The kind of an undeclared CSV column from its sampled cells: numeric
    (options.numeric) when every non-missing cell is a number, except numbers with a
    leading zero (zip codes: categorical); "ignore" for dates, for text with a
    different value in every row and for whole numbers that are IDs rather than
    measurements (_numeric_identifier), with a note naming the option that keeps
    them; else categorical.  A warning for what may be a mistake (a numeric column but
    for a few cells, decimal commas, thousands separators, free text), and columns
    of a few distinct integers (codes?) listed in ``codes``."""
    import re
    numeric_kind = options.numeric
    missing = source.missing
    present = list(cells) if missing.isdisjoint(cells) else \
        [cell for cell in cells if cell not in missing]
    if not present:
        return numeric_kind
    column = _typed(name)
    few = max(1, len(present) // 20)     # non-numeric cells a numeric column may have
    try:                                  # the usual cases first: all numbers...
        if source.number(present[0]) is None:
            raise ValueError(present[0])  # (text: no need to read the whole column)
        numbers = source.numbers(present)
        odd = []
    except ValueError:                    # ...or text, found out after a few cells
        numbers, odd = [], []
        for cell in present:
            number = source.number(cell)
            if number is not None:
                numbers.append(number)
                continue
            odd.append(cell)
            if len(odd) > few:
                break
    if not odd:
        # the first cell that starts with [+-]0 and a digit and has no decimal mark:
        # one search of the cells joined (none holds a line break: each is a number)
        zero_led = re.search(r"\n([+-]?0\d[^.,\n]*)(?=\n)", "\n%s\n" % "\n".join(present))
        if zero_led is not None:
            zero_led = zero_led.group(1)
            notes.append("warning: column %s has numbers with leading zeros (%s): read as "
                         "categories, as codes; %s reads them as numbers"
                         % (column, _clip(zero_led), options.spell(numeric_kind, name)))
            return "categorical"
        if source.decimal == "," and source.thousands is None:
            separator = _thousands_shape([cell for cell in present if "." in cell], source,
                                         (".",))
            if separator is not None:     # 1.234 in a file of decimal commas: 1234?
                cell = next(cell for cell in present if "." in cell)
                grouped = float(cell.replace(".", "").replace(",", "."))
                notes.append("warning: column %s holds numbers like %s in a file with "
                             "decimal commas: read as %s; if the points separate "
                             "thousands, %s reads it as %s"
                             % (column, _clip(cell), _clip(_number_text(source.number(cell))),
                                options.spell("thousands", "."),
                                _clip(_number_text(grouped))))
        integers = all(map(float.is_integer, numbers))
        identifier = integers and _numeric_identifier(name, present, numbers)
        if identifier:
            notes.append("note: column %s %s: ignored, as an ID cannot help predict (and "
                         "its large numbers would swamp a Gaussian's); %s keeps it"
                         % (column, identifier, options.spell(numeric_kind, name)))
            return "ignore"
        if integers and len(present) >= 10:
            values = sorted(set(numbers))
            if 2 <= len(values) <= _CODE_VALUES and len(present) >= 2 * len(values):
                codes.append((name, ["%d" % v for v in values]))
        return numeric_kind
    separator = _thousands_shape(present, source)
    if separator is not None:
        notes.append("warning: column %s holds numbers with thousands separators (%s): "
                     "read as categories; %s reads them as numbers"
                     % (column, _clip(next(cell for cell in present if separator in cell)),
                        options.spell("thousands", separator)))
    elif len(odd) <= few and 2 * len(numbers) > len(present):
        notes.append("warning: column %s is numeric but for %s like %s: read as "
                     "categories; %s reads such cells as missing"
                     % (column, _counted(len(odd), "cell"), _typed(odd[0], 30),
                        options.spell("missing", odd[0])))
    elif source.decimal != "," and all(map(re.compile(r"[+-]?\d*,\d+\Z").match, present)):
        notes.append("warning: column %s holds numbers with decimal commas (%s): read as "
                     "categories; %s reads them as numbers"
                     % (column, _clip(present[0]), options.spell("decimal", ",")))
    elif len(present) >= 10 and all(re.match(
            r"\d{4}-\d\d-\d\d|\d\d?[/.-]\d\d?[/.-]\d{2,4}(\D|$)", cell) for cell in present):
        notes.append("note: column %s holds dates (%s): ignored; %s keeps them as "
                     "categories, or turn them into numbers or parts (year, month) first"
                     % (column, _clip(present[0]), options.spell("categorical", name)))
        return "ignore"
    elif sum(map(len, present)) >= 30 * len(present) and \
            sum(" " in cell for cell in present) * 2 >= len(present):
        notes.append("warning: column %s looks like free text (long values with spaces): "
                     "read as categories; %s reads its words"
                     % (column, options.spell("text", name)))
    elif len(present) >= 20 and len(set(present)) == len(present):
        notes.append("note: column %s has a different value in every row, as an ID has: "
                     "ignored, as it cannot help predict; %s keeps it"
                     % (column, options.spell("categorical", name)))
        return "ignore"
    return "categorical"


# A name that says ID: the word id, code, key, uuid, guid or serial in any case
# ("ID", "Customer ID", "zip_code", "UUID"), or ID / Id ending a camel-case name
# ("customerId", "CustomerID")
_ID_NAME = (r"(?:^|[^A-Za-z])(?i:ids?|codes?|keys?|uuids?|guids?|serial)(?:$|[^A-Za-z])"
            r"|[a-z0-9](?:IDs?|Ids?)$")


def _numeric_identifier(name, cells, numbers):
    """Why a column of whole numbers is an ID rather than a measurement, or None: it
    counts the rows (1, 2, 3 ...); or its name says ID (_ID_NAME: "ID", "Sample
    code number", "customerId") and half its values or more are distinct; or,
    whatever its name, it holds 20 values or more, 90% of them distinct, every one
    written with the same number of digits, 5 or more (codes such as 1000025)."""
    import re
    distinct = len(set(numbers))
    if len(cells) >= 20 and numbers == list(map(
            float, range(int(numbers[0]), int(numbers[0]) + len(numbers)))):
        return "counts rows (%s, %s, ...)" % (_clip(cells[0]), _clip(cells[1]))
    share = "%d%% of them distinct" % (100 * distinct // len(cells))
    if len(cells) >= 10 and 2 * distinct >= len(cells) and \
            re.search(_ID_NAME, str(name)):
        return "is named as an ID and holds whole numbers (%s, ...: %s)" % (
            _clip(cells[0]), share)
    widths = set(map(len, cells))
    if len(cells) >= 20 and 10 * distinct >= 9 * len(cells) and len(widths) == 1 and \
            min(widths) >= 5 and all(map(str.isdigit, cells)):
        return "holds codes, not measurements (%s, %s, ...: %d digits each, %s)" % (
            _clip(cells[0]), _clip(cells[1]), min(widths), share)
    return None


def _thousands_shape(cells, source, separators=(",", ".", "'", " ", "\u00a0")):
    """The thousands separator that every cell is written with, when the cells say
    so: each a number of one to three digits then groups of exactly three (1,234 or
    12,345,678.5), or a plain number, and at least one grouped; else None.  Groups
    of other lengths (5,1 or 12,75) are decimal commas, not thousands."""
    if not cells or source.thousands is not None:
        return None
    joined = "\n".join(cells)             # a separator is in a cell if it is in this
    for separator in separators:
        if separator == source.decimal or separator not in joined:
            continue
        grouped = _grouped_number(separator, source.decimal)
        if all(map(grouped, cells)):
            return separator
    return None


def _number_text(number):
    """A number as a person writes it: 1234 rather than 1234.0."""
    return "%d" % number if number.is_integer() and abs(number) < 1e16 else repr(number)


def _check_target_cells(cells, target, source):
    """Refuse a target column that looks continuous (more than 10 distinct numbers,
    some not whole): each value would become a class."""
    distinct = set(cells)
    if len(distinct) <= 10:
        return
    numbers = [source.number(cell) for cell in distinct]
    if None not in numbers and any(isfinite(n) and not n.is_integer() for n in numbers):
        raise NaiveBayesError(
            "%s: the target %s looks continuous (%d distinct numbers such as %s); expected "
            "class labels: cut the numbers into classes first, or choose another column "
            "with --target" % (source.path, _shown(target), len(distinct),
                               _clip(", ".join(sorted(distinct)[:3]), 40)))


def _label_parser(cells, classes=None):
    """How label cells become labels: integers when every label is one (so that 2
    sorts before 10), else the text; with a model's classes, as they are typed."""
    import re
    integer = re.compile(r"[+-]?(0|[1-9]\d*)\Z").match
    if classes is not None:
        wanted = all(type(c) is int for c in classes)
    else:
        wanted = bool(cells) and all(type(cell) is str and integer(cell) for cell in cells)
    if not wanted:
        return _same_label
    return lambda cell: int(cell) if type(cell) is str and integer(cell) else cell


def _same_label(cell):
    """A label cell as the label: its text."""
    return cell


def _strict_numbers(convert):
    """The cell converter of a kind that reads numbers, refusing what Python's float()
    takes but a file's number is not (1_000, other scripts' digits); None for a kind
    that reads text (its converter takes "_")."""
    try:
        convert("_")
    except _BadValue:
        pass
    except Exception:                     # a kind of its own: its converter decides
        return None
    else:
        return None

    def strict(cell):
        if "_" in cell or not cell.isascii():
            try:
                convert("_")
            except _BadValue as error:
                raise _BadValue(cell, error.expected) from None
        return convert(cell)
    return strict


def _converters(source, names, kinds, index):
    """Per feature, (convert, strict): functions turning a cell into a value, the
    second for columns with a cell that is not plain ASCII or holds "_" (None when
    the kind reads text; convert None: not read, for a feature with no column in
    ``index`` or of kind "ignore")."""
    converters = []
    for name in names:
        kind = kinds[name]
        reader = _KINDS.get(kind)
        convert = reader.convert_cell if reader is not None else _Kind.convert_cell
        if name not in index or kind == "ignore":
            converters.append((None, None))
            continue
        strict = None if convert is _Kind.convert_cell else _strict_numbers(convert)
        plain = source.plain
        if strict is not None and plain is not None:
            converters.append((_through(plain, convert), _through(plain, strict)))
        else:
            converters.append((convert, strict))
    return converters


def _through(plain, convert):
    """convert(plain(cell)): a number cell with decimal commas or thousands
    separators made plain first; a cell that does not convert is named as the file
    has it."""
    def converted(cell):
        try:
            return convert(plain(cell))
        except _BadValue as error:
            raise _BadValue(cell, error.expected) from None
    return converted


# -- Tables: read_csv and read_arff -----------------------------------------------------


class Table:
    """A data file's rows, ready for fit: what read_csv and read_arff return.

    X              the rows, one list per row of the file (the target left out), its
                   values in the order of ``names``, each converted for its kind (a
                   number for gaussian, discretized, kde and poisson columns, the text
                   for categorical and text ones, None for missing and ignored cells)
    y              the labels (None without a target); integers when every label is
    sample_weight  ARFF instance weights, or None (a CSV file, or weights all 1)
    names          the feature columns, in the order of each row's values
    kinds          {column: kind}: features= for a model, as the command line fits
    categories     {column: declared values} of categorical ARFF attributes, or None
    classes        an ARFF class attribute's declared values, or None
    target         the target column, or None
    lines          the line of the file on which each row starts
    warnings       notes and warnings, one line each, as the command line prints them
    path, delimiter, decimal, thousands, encoding   the file, and how it was written
                   (thousands: the thousands separator read, or None)
    sha256         the SHA-256 of the file's bytes (hexadecimal; None for an open text
                   file): model.training_data_ = {"sha256": table.sha256} records it
                   in the model file, as the command line's fit does

    Rows are lists rather than dicts as scikit-learn's data sets are (``data`` with
    ``feature_names``): the form fit reads fastest, in half the memory, and the one
    the command line fits on, so that its model files are the same; records() gives
    dicts.
    """

    __slots__ = ("X", "y", "sample_weight", "names", "kinds", "categories", "classes",
                 "target", "lines", "warnings", "path", "delimiter", "decimal",
                 "thousands", "encoding", "sha256")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    def __len__(self):
        """The number of rows."""
        return len(self.X)

    def __repr__(self):
        return "<Table %s: %s, %s%s>" % (
            _shown(self.path), _counted(len(self.X), "row"),
            _counted(len(self.names), "feature"),
            "" if self.target is None else ", target %s" % _shown(self.target))

    def records(self):
        """The rows as dicts {column: value}."""
        names = self.names
        return [dict(zip(names, row)) for row in self.X]

    def at_line(self, error):
        """A NaiveBayesError about one row of X, y or sample_weight (from fit,
        predict, ...), restated with the file and the line of that row.

        >>> import io
        >>> table = read_csv(io.StringIO("x,y\\n1,a\\n-2,b\\n"), target="y")
        >>> try:
        ...     NaiveBayes(features={"x": "poisson"}).fit(table.X, table.y)
        ... except NaiveBayesError as error:
        ...     print(table.at_line(error))
        <stream> line 3, feature 'x' is float -2.0; expected a non-negative integer count
        """
        row = getattr(error, "row", None)
        if getattr(error, "argument", None) in ("X", "y", "sample_weight") and \
                row is not None and 0 <= row < len(self.lines):
            reason = error.reason
            if error.argument == "sample_weight":
                reason = ": sample_weight" + reason
            return NaiveBayesError("%s line %d%s" % (self.path, self.lines[row], reason))
        return NaiveBayesError("%s: %s" % (self.path, error))


class _TableReader:
    """An open data file read as a table, by read_csv, read_arff and the command line:
    on opening, its header, the target, each column's kind (inferred from the first
    _SAMPLE_ROWS rows, or a model's) and the notes and warnings about them; then its
    rows, converted batch by batch (tables of their own, see convert)."""

    def __init__(self, path, arff, target, options, default_target=False):
        self.options = options
        self.warnings = []
        self.unlabelled = 0
        self.first_unlabelled = None
        source = (_ArffSource if arff else _CsvSource)(path, options, self.warnings)
        self.source = source
        try:
            self._open(source, target, options, default_target)
        except BaseException:
            source.close()
            raise

    def _open(self, source, target, options, default_target):
        """Resolve the target, the kinds and the labels' type."""
        given = target
        if target is None and default_target:
            target = source.default_target
        if target is not None:
            source.column(target, "target")
            if isinstance(source, _ArffSource):
                source.check_target(target, default=given is None)
        self.target = target
        self.sample = []
        self.sampled = 0                  # rows read for the sample
        self.sample_classes = 0           # distinct labels in the sample
        self.rows = source.rows()         # read once: the sample, then the rest
        model = options.model
        if model is not None:
            self.names = list(model.feature_names_)
            self.kinds = dict(model.feature_kinds_)
            absent = [str(name) for name in self.names if str(name) not in source.index
                      and self.kinds[name] != "ignore"]
            if self.names and len(absent) == len(self.names):
                raise NaiveBayesError("%s has none of the model's columns (%s)"
                                      % (source.path, _clip(", ".join(absent), 200)))
            if absent:
                self.warnings.append("warning: %s has no column %s; its values count as "
                                     "missing" % (source.path,
                                                  _clip(", ".join(map(repr, absent)), 200)))
            index = {name: source.index[str(name)] for name in self.names
                     if str(name) in source.index}
            self.label = _label_parser(None, model.classes_)
            self.categories = None
        else:
            self.sample = list(islice(self.rows, _SAMPLE_ROWS))
            self.sampled = len(self.sample)
            if not self.sample:
                raise NaiveBayesError("%s has a header but no rows; expected data below it"
                                      % source.path)
            self.kinds = _column_kinds(source, options, self.sample, target, self.warnings)
            self.names = list(self.kinds)
            index = source.index
            labels = [] if target is None else [cells[source.index[target]]
                                                for _, cells in self.sample]
            present = [label for label in labels if label is not None and
                       label not in source.missing]
            _check_target_cells(present, target, source)
            self.label = _label_parser(present)
            self.sample_classes = len(set(present))
            self.categories = {name: values for name, values in source.categories.items()
                               if self.kinds.get(name) == "categorical"} or None
        declared = source.categories.get(target) if target is not None else None
        self.classes = list(map(self.label, declared)) if declared else None
        self.columns = [(convert, strict, index.get(name), name) for (convert, strict), name
                        in zip(_converters(source, self.names, self.kinds, index),
                               self.names)]
        self.target_index = None if target is None else source.index[target]

    def raw_rows(self):
        """(line, cells) of every row, the sampled ones first."""
        sample, self.sample = self.sample, []
        return chain(sample, self.rows)

    def batches(self, size, columns=False):
        """The rows as tables (see convert) of ``size`` rows at most (fewer where rows
        without a label were skipped); ``columns``: as (y, weights, lines, columns)
        instead (see columns_of; table_of makes the table)."""
        if columns and hasattr(self.source, "column_chunks"):
            # the rows read so far (the sample, and those read with it) by rows,
            # the others as the source's columns
            read = list(chain(self.sample, islice(self.rows, self.source.given -
                                                  self.sampled)))
            self.sample = []
            for start in range(0, len(read), size):
                yield self.columns_of(read[start:start + size])
            read = None
            for lines, table in self.source.column_chunks(size):
                yield self.from_columns(lines, table)
            return
        rows = self.raw_rows()
        convert = self.columns_of if columns else self.convert
        while True:
            chunk = list(islice(rows, size))
            if not chunk:
                return
            yield convert(chunk)

    def table(self):
        """The whole file as one table, with every note and warning."""
        X, y, weights, lines = [], [], [], []
        for batch in self.batches(_BATCH_ROWS):
            X.extend(batch.X)
            lines.extend(batch.lines)
            if y is not None and batch.y is not None:
                y.extend(batch.y)
            weights.extend(batch.sample_weight or [1.0] * len(batch.X))
        table = self._table(X, None if self.target is None else y,
                            weights if set(weights) - {1.0} else None, lines,
                            self.warnings + self.notes_after())
        table.sha256 = self.source.lines.fingerprint()      # every byte is read now
        return table

    def notes_after(self):
        """The notes that only the whole file tells: rows without a label."""
        if not self.unlabelled:
            return []
        return ["note: skipped %s rows without a label (the first at line %d)"
                % (format(self.unlabelled, ","), self.first_unlabelled)]

    def _table(self, X, y, weights, lines, warnings):
        source = self.source
        return Table(X=X, y=y, sample_weight=weights, names=self.names, kinds=self.kinds,
                     categories=self.categories, classes=self.classes, target=self.target,
                     lines=lines, warnings=warnings, path=source.path,
                     delimiter=source.delimiter, decimal=source.decimal,
                     thousands=source.thousands, encoding=source.encoding)

    def convert(self, chunk):
        """The table of some (line, cells) rows: rows without a label skipped (and
        counted), labels parsed, cells converted column by column, by
        comprehensions (a cell costs a few builtin steps); a cell that does not
        convert is an error naming its line and column."""
        return self.table_of(self.columns_of(chunk))

    def table_of(self, parts):
        """The table of columns_of's (y, weights, lines, columns): a row per line."""
        y, weights, lines, columns = parts
        if not lines:
            return self._table([], y, None, lines, [])
        rows = list(map(list, zip(*columns))) if columns else [[] for _ in lines]
        return self._table(rows, y, weights, lines, [])

    def columns_of(self, chunk):
        """convert's work short of joining the columns into rows: (y, weights, lines,
        columns), one column per name (a list or tuple of its converted values, one
        per line), weights None when every row weighs 1."""
        source = self.source
        width = source.width
        weights = [cells[width] if len(cells) > width else 1.0 for _, cells in chunk] \
            if source.weighted else None
        return self.from_columns([line for line, _ in chunk],
                                 list(zip(*[cells for _, cells in chunk])), weights)

    def from_columns(self, lines, table, weights=None):
        """columns_of for rows given as the file's columns (``table``: one sequence of
        cells per column of the file; ``lines``: the line of each row; ``weights``:
        each row's, or None)."""
        source = self.source
        missing = source.missing
        target = self.target_index
        y = None
        if type(lines) is not list:
            lines = list(lines)
        if target is not None:
            labels = table[target] if lines else []
            if None in labels or not missing.isdisjoint(labels):
                keep = [label is not None and label not in missing for label in labels]
                for line, kept in zip(lines, keep):
                    if not kept:
                        self.unlabelled += 1
                        if self.first_unlabelled is None:
                            self.first_unlabelled = line
                lines = list(compress(lines, keep))
                table = [list(compress(column, keep)) for column in table]
                if weights is not None:
                    weights = list(compress(weights, keep))
                labels = table[target] if lines else []
            y = list(labels) if self.label is _same_label else list(map(self.label, labels))
        if not lines:
            return y, None, lines, []

        def rows():
            """The rows, for _line_of (a cell that does not convert)."""
            return list(zip(lines, zip(*table)))
        columns = []
        nothing = None
        for convert, strict, index, name in self.columns:
            if convert is None:
                columns.append((None,) * len(lines))
                continue
            values = table[index]
            if convert is _number_cell and not source.numeric_missing:
                # no missing cell reads as a finite number: a column of finite numbers
                # holds none, and _converted tries that first (a CSV file's cells are
                # all text)
                numbers = self._finite_numbers(values, texts=source.texts)
                if numbers is not None:
                    columns.append(numbers)
                    continue
            if not missing.isdisjoint(values):      # (a column without one: as it is)
                if nothing is None:       # {missing cell: None}: get(cell, cell) is None
                    nothing = dict.fromkeys(missing)    # for those, the cell for others
                values = list(map(nothing.get, values, values))
            if convert is not _Kind.convert_cell:          # ARFF values come typed
                if strict is not None:    # one look at the whole column, not each cell
                    try:
                        text = "".join(values)
                    except TypeError:     # missing (None) or typed values
                        text = "".join([v for v in values if type(v) is str])
                    if "_" in text or not text.isascii():
                        convert = strict
                values = self._converted(values, convert, rows, index, name)
            columns.append(values)
        if weights is not None and set(weights) == {1.0}:
            weights = None
        return y, weights, lines, columns

    def _converted(self, values, convert, rows, index, name):
        """A column's cells (str, None for missing, or typed) converted; an error
        naming the line and column for a cell that does not convert (``rows()``: the
        rows, as (line, cells), to find it in)."""
        if convert is _number_cell:
            numbers = self._finite_numbers(values)
            if numbers is not None:
                return numbers
        try:
            return [convert(v) if type(v) is str else v for v in values]
        except _BadValue as error:
            raise self._bad_cell(self._line_of(rows(), index, error.value), name,
                                 error) from None

    @staticmethod
    def _finite_numbers(values, texts=False):
        """The cells as _number_cell reads them, when every one is a plain ASCII
        number giving a finite float ("_" and other digits are the strict reader's):
        converted by float() in one builtin map; else None (a "nan", "inf", a word
        or a missing cell: read cell by cell, where _number_cell says what each is).
        ``texts``: the caller knows that every value is a str."""
        if not texts and not _STR.issuperset(map(type, values)):
            return None
        try:
            text = "".join(values)
            if "_" in text or not text.isascii():
                return None
            numbers = list(map(float, values))
        except ValueError:
            return None
        total = sum(numbers)
        return numbers if total - total == 0 else None

    @staticmethod
    def _line_of(chunk, index, value):
        """The line of the first row whose cell ``index`` is ``value``."""
        for line, cells in chunk:
            if cells[index] == value or \
                    (type(cells[index]) is str and cells[index].replace(",", ".") == value):
                return line
        return chunk[0][0]

    def _bad_cell(self, line, name, error):
        """The NaiveBayesError of a cell that does not convert, naming line and column."""
        spell = self.options.spell
        if self.options.model is None:
            fix = "use %s, or %s if it marks a missing value" % (
                spell("categorical", name), spell("missing", error.value))
        else:
            fix = "the model reads the column as %s (use %s if it marks a missing value)" \
                % (self.kinds[name], spell("missing", error.value))
        return NaiveBayesError("%s line %d, column %s: %s is not %s; %s"
                               % (self.source.path, line, _shown(name, 40),
                                  _shown(error.value, 40), error.expected, fix))

    def close(self):
        """Close the file."""
        self.source.close()


def _read_table(path, target, keywords, arff, call):
    """read_csv and read_arff: the whole file as a Table."""
    import csv
    if target is not None and not isinstance(target, str):
        raise NaiveBayesError("%s: target=%s; expected a column name (a string) or None"
                              % (call, _shown(target, 50)), call=call, argument="target")
    limit = csv.field_size_limit(_LINE_LIMIT)          # a document may be a long cell
    try:
        options = _ReadOptions.from_keywords(call, keywords, csv=not arff)
        reader = _TableReader(path, arff, target, options)
        try:
            return reader.table()
        finally:
            reader.close()
    except NaiveBayesError as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None
    finally:
        csv.field_size_limit(limit)


def read_csv(path, target=None, **options):
    r"""The rows of a CSV file as a Table, read as the command line reads them.

    ``path`` is a file name or an open file (binary or text); ``target`` names the
    label column (None: no labels).  The options are the command line's: delimiter
    (default: detected among , ; tab |), decimal ("." or ",": default "," in a
    ;-separated file), thousands (a thousands separator such as "," or ".": then
    "67,810" reads as 67810; default None), encoding (default: from a byte-order
    mark, else UTF-8),
    missing (more cells that mean a missing value) or missing_only (only these, and
    empty cells), numeric (the kind of numeric columns: "gaussian", "discretized",
    "kde"), model (a fitted classifier: read its features, with its kinds, for
    predict and evaluate), and one per kind naming columns: categorical=, gaussian=,
    text=, poisson=, discretized=, kde=, ignore= (lists of column names).

    An undeclared column is numeric when every non-missing cell of the first 10,000
    rows is a number, categorical otherwise; dates and text with a different value in
    every row (IDs) are "ignore"d, with a note in table.warnings naming the option
    that keeps them.  Rows without a label are skipped (and counted in a note).

    >>> import io
    >>> text = "outlook;temp;play\nsunny;30,5;yes\nrain;18,0;no\nsunny;27;yes\nrain;21;no\n"
    >>> table = read_csv(io.StringIO(text), target="play")
    >>> table.X
    [['sunny', 30.5], ['rain', 18.0], ['sunny', 27.0], ['rain', 21.0]]
    >>> table.y
    ['yes', 'no', 'yes', 'no']
    >>> table.kinds, table.delimiter, table.decimal, table.lines
    ({'outlook': 'categorical', 'temp': 'gaussian'}, ';', ',', [2, 3, 4, 5])
    >>> model = NaiveBayes(features=table.kinds).fit(table.X, table.y)
    >>> model.predict([["rain", 17.5], ["sunny", 25.0]])
    ['no', 'yes']

    A cell that is not what its column holds is an error naming the line and column:

    >>> try:
    ...     read_csv(io.StringIO("x,y\n1,a\nz,b\n"), target="y", gaussian=["x"])
    ... except NaiveBayesError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    read_csv(): <stream> line 3, column 'x': 'z' is not a number; use categorical=['x'], ...
    """
    return _read_table(path, target, options, False, "read_csv()")


def read_arff(path, target=None, **options):
    r"""The instances of an ARFF file (Weka's format) as a Table, read as Weka reads
    them: the declared kinds (numeric and date attributes are numbers, nominal ones
    categorical with their declared values in table.categories, string ones text),
    instance weights in table.sample_weight.  ``target`` names the class attribute,
    which must be nominal (as in Weka); None, as in Weka's own readers, reads no class
    (the command line takes the last attribute).  Options: encoding, numeric, model,
    and the kind options, as for read_csv.

    >>> import io
    >>> table = read_arff(io.StringIO('''@relation weather
    ... @attribute outlook {sunny, rainy}
    ... @attribute temperature numeric
    ... @attribute play {yes, no}
    ... @data
    ... sunny, 30, no
    ... rainy, 18, yes, {0.5}
    ... '''), target="play")
    >>> table.X, table.y, table.sample_weight
    ([['sunny', 30.0], ['rainy', 18.0]], ['no', 'yes'], [1.0, 0.5])
    >>> table.kinds
    {'outlook': 'categorical', 'temperature': 'gaussian'}
    >>> table.categories, table.classes
    ({'outlook': ['sunny', 'rainy']}, ['yes', 'no'])
    """
    return _read_table(path, target, options, True, "read_arff()")
