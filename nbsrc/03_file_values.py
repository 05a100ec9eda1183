# ----------------------------------------------------------------------------------
# The model file's building blocks: values and exact numbers as JSON
#
# Labels, values and names are written as JSON scalars, never as object keys (which
# JSON turns into strings), so 1, "1", 1.0 and True come back as what they were; a
# tuple is {"tuple": [...]}, an infinite float {"float": "inf"}, a Fraction
# {"fraction": "1/3"} and a Decimal {"decimal": "1.10"}.  Counts and sums are exact:
# an int, or a fraction "p/q" whose q is a power of 2 (every count is a sum of float
# weights, and every float is such a fraction).  Reading takes time linear in the
# text: numbers are bounded in length and no arbitrary denominators are accepted.
# Each distribution writes and validates its own statistics with these helpers; the
# whole file is put together in "The model file" below.
# ----------------------------------------------------------------------------------


FORMAT = "naive_bayes"
FORMAT_VERSION = 1
_MAX_DIGITS = 4000        # longest exact number in a file (legitimate ones: ~1,700)


def _encode(value, what, call="to_dict()"):
    """A label, value or name as JSON data."""
    if value is None or value is True or value is False:
        return value
    kind = type(value)
    if kind is int and value.bit_length() > 13000:      # JSON text would refuse it
        raise NaiveBayesError("%s: %s is an int of more than 3,900 digits, too long for "
                              "the model file" % (call, what), call=call)
    if kind is int:
        return value
    if kind is str:
        return value if value.isascii() or not _has_surrogates(value) else \
            {"codepoints": list(map(ord, value))}
    if kind.__module__ == "numpy" and hasattr(value, "item"):
        return _encode(value.item(), what, call)        # NumPy scalars: Python's
    if kind is float:
        return value if isfinite(value) else {"float": repr(value)}
    if kind is tuple:
        return {"tuple": [_encode(v, what, call) for v in value]}
    if kind.__name__ == "Fraction" and kind.__module__ == "fractions":
        return {"fraction": "%d/%d" % (value.numerator, value.denominator)}
    if kind.__name__ == "Decimal" and kind.__module__ in ("decimal", "_decimal", "_pydecimal"):
        return {"decimal": str(value)}
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    from numbers import Real
    if isinstance(value, int) or (isinstance(value, Real) and
                                  getattr(value, "is_integer", None) is None and
                                  hasattr(value, "__index__")):
        return int(value)
    if isinstance(value, Real) and kind.__module__ == "numpy":
        return _encode(float(value), what, call)
    raise NaiveBayesError("%s: %s is %s; the model file holds str, int, float, bool, None, "
                          "Fraction, Decimal and tuples of them" % (call, what,
                                                                    _describe(value)),
                          call=call)


def _has_surrogates(text):
    """True for text that UTF-8 cannot encode: it holds surrogate code points (as
    os.fsdecode makes of undecodable bytes).  JSON would merge a pair of them into
    one character, so the model file lists such text's code points."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _exact_text(number):
    """An exact count or sum as JSON: an int, or "p/q"."""
    if type(number) is int:
        return number
    if number.denominator == 1:
        return number.numerator
    return "%d/%d" % (number.numerator, number.denominator)


_SPECIAL_FLOATS = {"inf": INF, "-inf": -INF}
_NAN = math.nan                  # the one NaN a file gives back (inside tuples only)


def _decode(obj, where, inside=False):
    """A label, value or name from JSON data (see _encode)."""
    if obj is None or obj is True or obj is False:
        return obj
    kind = type(obj)
    if kind is str or kind is int:
        return obj
    if kind is float and isfinite(obj):
        return obj
    if kind is dict and len(obj) == 1:
        (key, value), = obj.items()
        if key == "tuple" and type(value) is list:
            return tuple([_decode(v, where, True) for v in value])
        if key == "codepoints" and type(value) is list and \
                all(type(c) is int and 0 <= c < 0x110000 for c in value):
            return "".join(map(chr, value))
        if key == "float" and type(value) is str and value in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[value]
        if key == "float" and value == "nan" and inside:
            return _NAN
        if key == "fraction" and type(value) is str and _is_fraction_text(value) and \
                len(value) <= _MAX_DIGITS:
            from fractions import Fraction
            numerator, denominator = map(int, value.split("/"))
            if denominator:
                return Fraction(numerator, denominator)
        if key == "decimal" and type(value) is str and len(value) <= _MAX_DIGITS:
            from decimal import Decimal, InvalidOperation
            try:
                number = Decimal(value)
            except InvalidOperation:
                number = None
            if number is not None and (inside or not number.is_nan()):
                return number
    raise _Invalid("%s is %s; expected a string, number, true, false, null or "
                   "{\"tuple\": [...]}" % (where, _describe(obj)))


class _Invalid(Exception):
    """A model-file field that does not validate: (where, what is wrong)."""


def _field(data, key, where="the model"):
    if key not in data:
        raise _Invalid("%s has no %r field" % (where, key))
    return data[key]


def _expect(condition, where, value, expected):
    if not condition:
        raise _Invalid("%s is %s; expected %s" % (where, _describe(value), expected))


def _class_rows(feature, field, where, classes, width, shape):
    """(label, where, row) for each class's row of a feature's field in the model
    file: a list with one row per class, each a list of ``width`` items."""
    rows = _field(feature, field, where)
    _expect(type(rows) is list and len(rows) == len(classes), where + "." + field, rows,
            "a list with one %s per class (%d)" % (shape, len(classes)))
    for k, (label, row) in enumerate(zip(classes, rows)):
        here = "%s.%s[%d]" % (where, field, k)
        _expect(type(row) is list and (width is None or len(row) == width), here, row,
                shape if shape.startswith("[") else "a " + shape)
        yield label, here, row


def _decode_list(obj, where):
    _expect(type(obj) is list, where, obj, "a list")
    return [_decode(item, "%s[%d]" % (where, i)) for i, item in enumerate(obj)]


def _decode_exact(obj, where, signed=False):
    """An exact count or sum: an int, or "p/q" with q a power of 2, each at most
    _MAX_DIGITS digits long (so that reading a file takes time linear in its size)."""
    kind = type(obj)
    if kind is int:
        if obj.bit_length() > 3.33 * _MAX_DIGITS:
            raise _Invalid("%s is an int of more than %d digits; expected a count that "
                           "floats can approach" % (where, _MAX_DIGITS))
        number = obj
    elif kind is str and len(obj) <= 2 * _MAX_DIGITS + 2 and _is_fraction_text(obj):
        numerator, denominator = obj.split("/")
        numerator, denominator = int(numerator), int(denominator)
        if denominator <= 0 or denominator & (denominator - 1):
            raise _Invalid("%s is %s; expected an int or a fraction \"p/q\" whose q is a "
                           "power of 2 (counts are sums of float weights)"
                           % (where, _shown(obj)))
        number = _ratio(numerator, denominator)
        if type(number) is not int:
            from fractions import Fraction
            number = Fraction(number)
    elif kind is float and isfinite(obj):
        number = _ratio(*obj.as_integer_ratio())
    else:
        raise _Invalid("%s is %s; expected an exact count (an int or \"p/q\")"
                       % (where, _describe(obj)))
    if not signed and number < 0:
        raise _Invalid("%s is %s; expected a count >= 0" % (where, _shown(obj)))
    return number


def _is_fraction_text(text):
    numerator, slash, denominator = text.partition("/")
    return (slash == "/" and 0 < len(denominator) <= _MAX_DIGITS and denominator.isdigit()
            and denominator.isascii() and 0 < len(numerator) <= _MAX_DIGITS + 1 and
            (numerator[1:] if numerator[:1] == "-" else numerator).isdigit() and
            numerator.lstrip("-").isascii())


def _parse_json(text, call):
    """One JSON value from bytes or str; NaiveBayesError when it is not valid JSON.
    Numbers longer than _MAX_DIGITS digits are refused as they are read, so parsing
    takes time linear in the text's length."""
    import json
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise NaiveBayesError("%s: not UTF-8 text (%s)" % (call, error.reason),
                                  call=call) from None
    if not text.strip():
        raise NaiveBayesError("%s: the file is empty; expected a model file" % call,
                              call=call)

    def no_constants(name):
        raise ValueError("%s is not allowed" % name)
    try:
        return json.loads(text, parse_constant=no_constants, parse_int=_bounded_int)
    except RecursionError:
        raise NaiveBayesError("%s: not a model file: nested too deeply" % call,
                              call=call) from None
    except ValueError as error:
        raise NaiveBayesError("%s: not a model file: invalid JSON (%s)"
                              % (call, _one_line(error)), call=call) from None


def _bounded_int(text):
    """An int of JSON text, at most _MAX_DIGITS digits (Python before 3.11 would parse
    any length, in quadratic time)."""
    if len(text) > _MAX_DIGITS + 1:
        raise ValueError("an integer of %d digits; at most %d are allowed"
                         % (len(text), _MAX_DIGITS))
    return int(text)


_LIST_ENDS = (b"]", b"],")


class _LazyItems:
    """The items of a list field of a model file: parsed from their lines (one item
    per line) as they are iterated."""

    def __init__(self, stream, start, call):
        self.stream = stream
        self.start = start
        self.call = call

    def __iter__(self):
        """Each item, parsed from its line (a long one with _parse_streamed)."""
        self.stream.seek(self.start)
        for n, line in enumerate(iter(self.stream.readline, b"")):
            text = line.strip()
            del line
            if text in _LIST_ENDS:
                break
            if not n & 255:
                _progress("reading the model file, item", n)
            if text.endswith(b","):
                text = text[:-1]
            item = _parse_streamed(text, self.call) if len(text) > _STREAMED_LINE else None
            if item is None:
                item = _parse_json(text, self.call)
            del text                      # (the item's streams keep the text they need)
            yield item
        _progress("reading the model file, item")


# A text feature's counts take an object per number once parsed (a list for each
# [word index, count] pair: about ten times the bytes of the file), so on a long line
# these fields stay text until from_file reads them, one class and one pair at a
# time: loading a model then takes about the memory of the model, not of its JSON.
_STREAMED_LINE = 1 << 16
_STREAMED_FIELDS = frozenset(("word_documents", "word_counts"))
_STREAMED_CHUNK = 1 << 16
_JSON_DECODER = None
_JSON_BLANK = None


def _json_decoder():
    """A json.JSONDecoder reading numbers and constants as _parse_json does (and
    _JSON_BLANK, the pattern of JSON's white space, set)."""
    global _JSON_DECODER, _JSON_BLANK
    if _JSON_DECODER is None:
        import json
        import re
        _JSON_BLANK = re.compile(r"[ \t\n\r]*")

        def no_constants(name):
            raise ValueError("%s is not allowed" % name)
        _JSON_DECODER = json.JSONDecoder(parse_constant=no_constants,
                                         parse_int=_bounded_int)
    return _JSON_DECODER


def _parse_streamed(text, call):
    """The JSON object of one long line, its _STREAMED_FIELDS that are lists of
    lists as _StreamedLists; None when the line is anything else, or not valid JSON
    (the caller then parses it whole, and names what is wrong)."""
    try:
        text = text.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    if not text.startswith("{"):
        return None
    decode = _json_decoder().raw_decode
    blank = _JSON_BLANK.match
    out = {}
    try:
        position = blank(text, 1).end()
        if text[position] == "}":
            return None
        while True:
            key, position = decode(text, position)
            position = blank(text, position).end()
            if type(key) is not str or text[position] != ":":
                return None
            position = blank(text, position + 1).end()
            if key in _STREAMED_FIELDS and text[position] == "[":
                spans = []
                position = blank(text, position + 1).end()
                if text[position] == "]":
                    position += 1
                else:
                    while True:
                        start = position
                        _, position = decode(text, position)
                        spans.append((start, position))
                        position = blank(text, position).end()
                        if text[position] == "]":
                            position += 1
                            break
                        if text[position] != ",":
                            return None
                        position = blank(text, position + 1).end()
                out[key] = _StreamedLists(text, spans)
            else:
                out[key], position = decode(text, position)
            position = blank(text, position).end()
            if text[position] == "}":
                return out if not text[position + 1:].strip() else None
            if text[position] != ",":
                return None
            position = blank(text, position + 1).end()
    except (ValueError, IndexError, RecursionError):
        return None


class _StreamedLists:
    """A list field of a model-file line kept as its text: item k is a _PairStream of
    its elements when it is a list, else its value (see _parse_streamed)."""

    __slots__ = ("text", "spans")

    def __init__(self, text, spans):
        self.text = text
        self.spans = spans

    def __len__(self):
        return len(self.spans)

    def __repr__(self):
        """The field's text, as an error message shows a value."""
        return _clip(self.text[self.spans[0][0]:self.spans[-1][1]] if self.spans else "",
                     200)

    def __getitem__(self, k):
        """Item k: a list's elements one at a time, or the value itself."""
        start, end = self.spans[k]
        if self.text[start] == "[":
            return _PairStream(self.text, start, end)
        return _json_decoder().raw_decode(self.text, start)[0]


class _PairStream:
    """The elements of one JSON list in a text, each parsed as it is iterated."""

    __slots__ = ("text", "start", "end")

    def __init__(self, text, start, end):
        self.text = text
        self.start = start
        self.end = end

    def __iter__(self):
        """Each element (the list was parsed once already: it is valid JSON), parsed
        some 64 KB of text at a time: cut after an element that ends "], [" (the
        separator save() writes) and parsed as a list of its own.  A cut that is not
        between two elements (inside a string, or a deeper list) leaves a piece that
        is not one whole JSON list: from there, element by element."""
        decode = _json_decoder().raw_decode
        text, position, end = self.text, self.start + 1, self.end
        while True:
            cut = text.find("], [", position + _STREAMED_CHUNK, end)
            piece = "[" + (text[position:end] if cut < 0 else text[position:cut + 1] + "]")
            try:
                items, used = decode(piece)
            except ValueError:
                used = -1
            if used != len(piece):
                yield from self.one_by_one(position)
                return
            yield from items
            if cut < 0:
                return
            position = cut + 3            # at the "[" of the next element

    def one_by_one(self, position):
        """The elements from position (one, or blanks before one) on, one at a time."""
        decode = _json_decoder().raw_decode
        blank = _JSON_BLANK.match
        text = self.text
        position = blank(text, position).end()
        if text[position] == "]":
            return
        while True:
            item, position = decode(text, position)
            yield item
            position = blank(text, position).end()
            if text[position] == "]":
                return
            position = blank(text, position + 1).end()      # past the ","

    def __repr__(self):
        """The list's text, as an error message shows a value."""
        return _clip(self.text[self.start:self.end], 200)
