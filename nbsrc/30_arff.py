# -- ARFF, Weka's file format ---------------------------------------------------------
#
# As Weka's ArffLoader reads it: values separated by whitespace or commas (which are
# the same there), ' and " quotes with backslash escapes, % comments, ? for a
# missing value (a quoted '?' is a value), sparse rows {index value, ...} whose
# unlisted attributes are 0 (a nominal attribute's first value), and an optional
# instance weight {w} after a row.  Dates become milliseconds since 1970 (UTC), the
# number Weka keeps.  Numbers and weights are read as Java's Double reads them (ASCII
# digits only); sparse indices as Java's Integer does (any script's decimal digits,
# an optional sign), so that a file Weka refuses is refused here too.

_ARFF_TOKEN = None            # compiled on first use (re is not imported up front)
_ARFF_ODD = None              # what the fast split of a plain data line cannot take
_ARFF_INDEX = None
_ARFF_KINDS = {"numeric": "numeric", "real": "numeric", "integer": "numeric",
               "string": "string", "date": "date", "relational": "relational"}
_ARFF_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "a": "\a",
                 "v": "\v"}
# Date pattern letters: (field, smallest, largest); a day's largest is its month's.
_ARFF_DATE_FIELDS = {"y": (1, 292278994), "M": (1, 12), "d": (1, 31), "H": (0, 23),
                     "m": (0, 59), "s": (0, 59), "S": (0, 999)}


def _arff_tokens(text):
    """[(quoted, text)] of one line: quoted values are unescaped, braces are ("{",
    None) and ("}", None); a comment ends the line."""
    global _ARFF_TOKEN
    if _ARFF_TOKEN is None:
        import re
        _ARFF_TOKEN = re.compile(r"[\x00-\x20,]*(?:([^\x00-\x20,'\"%{}]+)|'((?:[^'\\]|\\.)*)'"
                                 r"|\"((?:[^\"\\]|\\.)*)\"|([{}])|(['\"])|(%.*)?\Z)", re.S)
    tokens = []
    for match in _ARFF_TOKEN.finditer(text):
        word, single, double, brace, unclosed = match.groups()[:5]
        if word is not None:
            tokens.append((False, word))
        elif brace is not None:
            tokens.append((brace, None))
        elif unclosed is not None:
            raise ValueError("a value opened with %s is not closed on its line" % unclosed)
        elif single is not None or double is not None:
            quoted = single if single is not None else double
            tokens.append((True, _arff_unescape(quoted) if "\\" in quoted else quoted))
        else:
            break
    return tokens


def _arff_unescape(text):
    """A quoted ARFF value's escapes undone: \\n \\t and the like, and \\x for any other x."""
    import re
    return re.sub(r"\\(.)", lambda m: _ARFF_ESCAPES.get(m.group(1), m.group(1)), text,
                  flags=re.S)


def _java_epoch_days(year, month, day):
    """Days from 1970-01-01 to a date of Java's default calendar (Weka's): Gregorian
    from 15 October 1582, Julian before (Fliegel and Van Flandern's day numbers)."""
    a = (14 - month) // 12
    y = year + 4800 - a
    m = month + 12 * a - 3
    days = day + (153 * m + 2) // 5 + 365 * y + y // 4
    if (year, month, day) >= (1582, 10, 15):
        days += -(y // 100) + y // 400 - 32045
    else:
        days -= 32083
    return days - 2440588


def _month_days(year, month):
    """Days in a month of Java's calendar (Julian leap years before 1583)."""
    if month != 2:
        return 30 if month in (4, 6, 9, 11) else 31
    leap = year % 4 == 0 and (year < 1583 or year % 100 != 0 or year % 400 == 0)
    return 29 if leap else 28


def _arff_date_parser(pattern):
    """A function from a date in Java's SimpleDateFormat ``pattern`` (the numeric
    letters y M d H m s S and quoted literals) to milliseconds since 1970 (UTC), as
    Weka's strict parse reads it: a field followed by another takes exactly its
    letters' count of digits, others any number (of any script's digits, as Java);
    y or yy with two digits is a year from 1970 to 2069 (yyyy takes them as they
    are); each field in its range.
    ValueError, with the reason, for a pattern or a date that is not one."""
    import re
    parts, i = [], 0                       # (letter, count) or literal text
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            end = pattern.find("'", i + 1)
            if end < 0:
                raise ValueError("a quote in the pattern is not closed")
            parts.append(pattern[i + 1:end] or "'")
            i = end + 1
            continue
        if c.isalpha():
            j = i
            while j < len(pattern) and pattern[j] == c:
                j += 1
            count = j - i
            if c not in _ARFF_DATE_FIELDS or (count > 2 and c not in "yS") or \
                    any(part[0] == c for part in parts if type(part) is tuple):
                raise ValueError("pattern letters %r are not supported (supported: yyyy, "
                                 "MM, dd, HH, mm, ss, SSS and 'quoted text')" % pattern[i:j])
            parts.append((c, count))
            i = j
            continue
        parts.append(c)
        i += 1
    regex = ""
    for k, part in enumerate(parts):
        if type(part) is tuple:
            abutting = k + 1 < len(parts) and type(parts[k + 1]) is tuple
            regex += "(?P<%s>\\d{%d})" % (part[0], part[1]) if abutting else \
                "(?P<%s>\\d+)" % part[0]
        else:
            regex += re.escape(part)
    match = re.compile(regex + r"\Z").match
    short_year = ("y", 1) in parts or ("y", 2) in parts

    def parse(text):
        found = match(text.strip())
        if found is None:
            raise ValueError("does not match the date format %r" % pattern)
        digits = found.groupdict()
        if any(len(value) > 12 for value in digits.values()):
            raise ValueError("a field of more than 12 digits")
        fields = {k: int(v) for k, v in digits.items()}
        if "y" in fields and len(digits["y"]) == 2 and short_year:    # 1970 to 2069
            fields["y"] += 1900 if fields["y"] >= 70 else 2000
        year, month = fields.get("y", 1970), fields.get("M", 1)
        for letter, value in fields.items():
            smallest, largest = _ARFF_DATE_FIELDS[letter]
            if letter == "d" and smallest <= month <= 12:
                largest = _month_days(year, month)
            if not smallest <= value <= largest:
                raise ValueError("%s %d is out of range (%d to %d)"
                                 % ({"y": "year", "M": "month", "d": "day", "H": "hour",
                                     "m": "minute", "s": "second", "S": "millisecond"}
                                    [letter], value, smallest, largest))
        day = fields.get("d", 1)
        if (1582, 10, 5) <= (year, month, day) < (1582, 10, 15):
            raise ValueError("the days 5 to 14 October 1582 are not in Java's calendar")
        seconds = ((_java_epoch_days(year, month, day) * 24 + fields.get("H", 0)) * 60 +
                   fields.get("m", 0)) * 60 + fields.get("s", 0)
        return float(seconds * 1000 + fields.get("S", 0))
    return parse


def _arff_number(text):
    """A numeric value as Weka reads it (None: NaN, Weka's own missing value); only
    finite numbers in ASCII digits."""
    if "_" in text or not text.isascii():
        raise ValueError(text)
    return _arff_plain_number(text)


def _arff_plain_number(text):
    """_arff_number of a value known to be ASCII without "_"."""
    number = float(text)
    if not isfinite(number):
        if number != number:
            return None
        raise ValueError(text)
    return number


class _ArffReader:
    """The header and rows of an ARFF file read from numbered lines (see _Lines):
    .attributes is [(name, kind, declared values or date pattern or None)], with kind
    "numeric", "nominal", "string" or "date", and .declared_at their lines; rows()
    yields (line, values, weight)."""

    def __init__(self, lines, path):
        self.lines = lines
        self.path = path
        self.attributes = []
        self.declared_at = []
        self.first = None                  # a row on the @data line itself
        names = set()
        relation = False
        for text in lines:
            tokens = self._tokens(text)
            if not tokens:
                continue
            keyword = (tokens[0][1] or "").lower()
            if keyword == "@relation" and not relation and not self.attributes:
                relation = True
            elif keyword == "@attribute" and relation:
                attribute = self._attribute(tokens)
                if attribute[0] in names:
                    raise self._error("attribute %s is declared twice" % _shown(attribute[0]))
                names.add(attribute[0])
                self.attributes.append(attribute)
                self.declared_at.append(lines.number)
            elif keyword == "@data" and self.attributes:
                if len(tokens) > 1:
                    self.first = (lines.number, tokens[1:])
                break
            else:
                raise self._error("expected %s, found %s" % (
                    "@attribute or @data" if relation else "@relation",
                    _shown(tokens[0][1] or tokens[0][0])))
        else:
            raise NaiveBayesError("%s: the file ends before @data; expected an ARFF header "
                                  "(@relation, @attribute lines, @data)" % path)
        self.converters, self.defaults = [], []
        for name, kind, detail in self.attributes:
            if kind == "numeric":
                self.converters.append(_arff_number)
                self.defaults.append(0.0)
            elif kind == "nominal":
                self.converters.append(dict(zip(detail, detail)).__getitem__)
                self.defaults.append(detail[0] if detail else None)
            elif kind == "string":
                self.converters.append(str)
                self.defaults.append("")
            else:
                self.converters.append(_arff_date_parser(detail))
                self.defaults.append(0.0)

    def _error(self, problem):
        """A NaiveBayesError naming the file and the line."""
        return NaiveBayesError("%s line %d: %s" % (self.path, self.lines.number, problem))

    def _tokens(self, text):
        """The tokens of one line, or the error naming it."""
        try:
            return _arff_tokens(text)
        except ValueError as error:
            raise self._error(str(error)) from None

    def _attribute(self, tokens):
        """(name, kind, declared values or date pattern) of an @attribute line."""
        if len(tokens) < 3 or tokens[1][1] is None:
            raise self._error("@attribute needs a name and a type")
        name = tokens[1][1]
        if tokens[2][0] == "{":
            values = [text for _, text in tokens[3:] if text is not None]
            if tokens[-1][0] != "}" or len(values) != len(tokens) - 4:
                raise self._error("the values of attribute %s are not a {list}"
                                  % _shown(name))
            if len(set(values)) != len(values):
                raise self._error("attribute %s declares a value twice" % _shown(name))
            return name, "nominal", values
        kind = _ARFF_KINDS.get((tokens[2][1] or "").lower())
        if kind is None or kind == "relational":
            raise self._error("attribute %s has type %s; expected numeric, real, integer, "
                              "string, date or {values}%s" % (
                                  _shown(name), _shown(tokens[2][1] or tokens[2][0]),
                                  " (relational attributes are not supported)"
                                  if kind else ""))
        if kind == "date":
            pattern = tokens[3][1] if len(tokens) > 3 else "yyyy-MM-dd'T'HH:mm:ss"
            if pattern is None:
                raise self._error("attribute %s: expected a date format after date, found "
                                  "%s" % (_shown(name), tokens[3][0]))
            try:
                _arff_date_parser(pattern)
            except ValueError as error:
                raise self._error("attribute %s: date format %s: %s"
                                  % (_shown(name), _shown(pattern), error)) from None
            return name, kind, pattern
        return name, kind, None

    _number = staticmethod(_arff_number)

    def rows(self):
        """(line, values, weight) for each instance, one line read at a time."""
        global _ARFF_ODD
        if _ARFF_ODD is None:
            import re
            _ARFF_ODD = re.compile(r"['\"{}%_\x00-\x08\x0e-\x1b]").search
        n = len(self.attributes)
        converters = [_arff_plain_number if f is _arff_number else f
                      for f in self.converters]
        odd = _ARFF_ODD
        if self.first is not None:
            first, self.first = self.first, None
            yield self._row(*first)
        for text in self.lines:
            # The plain, dense row (ASCII, no quotes, braces, comments, "_" or control
            # characters that str.split reads otherwise than Weka): split at once.
            if text.isascii() and not odd(text):
                tokens = text.replace(",", " ").split()
                if not tokens:
                    continue
                if len(tokens) == n:
                    try:
                        yield (self.lines.number, [None if t == "?" else f(t) for f, t in
                                                   zip(converters, tokens)], 1.0)
                        continue
                    except (ValueError, KeyError):
                        pass                   # the careful path names the problem
            tokens = self._tokens(text)
            if tokens:
                yield self._row(self.lines.number, tokens)

    def _row(self, line, tokens):
        """(values, weight, sparse) of one data line."""
        global _ARFF_INDEX
        n = len(self.attributes)
        if tokens[0][0] == "{":               # sparse: {index value, ...}
            if _ARFF_INDEX is None:
                import re
                _ARFF_INDEX = re.compile(r"[+-]?\d{1,9}\Z").match    # Java's int
            end = next((i for i, t in enumerate(tokens) if t[0] == "}"), None)
            if end is None or (end - 1) % 2:
                raise self._error("expected a sparse row {index value, ...}")
            values = list(self.defaults)
            previous = -1
            for i in range(1, end, 2):
                index = tokens[i][1]
                if index is None or not _ARFF_INDEX(index) or \
                        not previous < int(index) < n:
                    raise self._error("sparse index %s: expected increasing attribute "
                                      "numbers 0 to %d" % (_shown(index or tokens[i][0]),
                                                           n - 1))
                previous = int(index)
                values[previous] = self._value(tokens[i + 1], previous)
            rest = tokens[end + 1:]
        else:
            count = next((i for i, t in enumerate(tokens) if t[0] == "{"), len(tokens))
            if count != n:
                raise self._error("%d values, expected %d" % (count, n))
            values = [self._value(token, i) for i, token in enumerate(tokens[:n])]
            rest = tokens[n:]
        weight = 1.0
        if rest:
            if len(rest) != 3 or rest[0][0] != "{" or rest[2][0] != "}":
                raise self._error("unexpected %s after the values; expected an instance "
                                  "weight {w} or nothing" % _shown(rest[0][1] or rest[0][0]))
            try:
                weight = _ascii_float(rest[1][1])
            except (TypeError, ValueError):
                weight = None
            if weight is None or not (isfinite(weight) and weight >= 0):
                raise self._error("instance weight %s: expected a finite number >= 0"
                                  % _shown(rest[1][1] or rest[1][0]))
        return line, values, weight

    def _value(self, token, index):
        """One token as a value of attribute index."""
        quoted, text = token
        if text is None:
            raise self._error("expected a value of attribute %s, found %s"
                              % (_shown(self.attributes[index][0]), quoted))
        if text == "?" and not quoted:
            return None
        name, kind, detail = self.attributes[index]
        try:
            return self.converters[index](text)
        except (ValueError, KeyError) as error:
            if kind == "nominal":
                expected = "one of its declared values %s" % _shown(detail)
            elif kind == "date":
                expected = "a date (%s)" % error
            else:
                try:
                    _ascii_float(text)        # a number, so one out of range
                    expected = "a finite number"
                except ValueError:
                    expected = "a number"
            raise self._error("attribute %s is %s; expected %s"
                              % (_shown(name), _shown(text), expected)) from None


class _ArffSource:
    """The rows of one ARFF file (Weka's format), read once: the attributes' names,
    kinds and declared values, then (line number, values) per instance."""

    decimal = "."
    delimiter = ","
    thousands = None
    plain = None                  # numbers come typed (see _ArffReader)
    weighted = True
    texts = False                 # its cells come typed (numbers, None)
    numeric_missing = True        # its cells come typed: read cell by cell
    _KINDS = {"numeric": "gaussian", "date": "gaussian", "string": "text",
              "nominal": "categorical"}

    def __init__(self, path, options, notes):
        self.lines = _Lines(path, options.encoding, options.spell, "ARFF")
        self.path = self.lines.path
        self.encoding = self.lines.encoding
        self.options = options
        try:
            self.arff = _ArffReader(self.lines, self.path)
        except BaseException:
            self.close()
            raise
        self.header = [name for name, _, _ in self.arff.attributes]
        self.index = {name: i for i, name in enumerate(self.header)}
        self.width = len(self.header)
        self.missing = frozenset()
        self.declared = {name: self._KINDS[kind] for name, kind, _ in self.arff.attributes}
        self.categories = {name: values for name, kind, values in self.arff.attributes
                           if kind == "nominal"}
        self.default_target = self.header[-1] if self.header else None
        self.skipped = None

    def check_target(self, name, default):
        """Refuse a class attribute that is not nominal, as Weka's classifiers do
        ("Cannot handle numeric class"), naming the option that picks another."""
        index = self.index[name]
        kind = self.arff.attributes[index][1]
        if kind == "nominal":
            return
        fix = self.options.spell("target", "COL", placeholder=True)
        where = "%s line %d: " % (self.path, self.arff.declared_at[index])
        if default:
            raise _OptionError("%sthe last attribute, %s, is the class by default (as in "
                               "Weka), but it is %s and a class must be nominal; name the "
                               "class with %s" % (where, _shown(name), kind, fix))
        raise _OptionError("%s%s: attribute %s is %s, and a class must be nominal (as in "
                           "Weka); name a nominal attribute with %s"
                           % (where, self.options.spell("target", name), _shown(name), kind,
                              fix))

    def rows(self):
        """(line, values) for each instance; an instance weight other than 1 follows
        the values (see _TableReader)."""
        for line, values, weight in self.arff.rows():
            if weight != 1.0:
                values.append(weight)
            yield line, values

    def number(self, cell):
        """A cell as a float, or None when it is not a number."""
        return cell if type(cell) is float else None

    column = _CsvSource.column

    def close(self):
        """Close the file."""
        self.lines.close()
