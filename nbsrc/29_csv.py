# ----------------------------------------------------------------------------------
# Reading files: CSV and ARFF as people have them
#
# read_csv and read_arff return a Table; the command line reads through the same
# _TableReader, in batches.  Files are read as a stream of numbered lines (any text
# encoding, byte-order marks, bounded line length), split into cells (CSV with a
# detected delimiter and decimal mark, or Weka's ARFF), and converted column by
# column into values of the kinds declared or guessed from a sample of rows.  Every
# parse of a cell, a header, a date, an index or an encoding that fails is a
# NaiveBayesError naming the file and the line (and the column, for a cell).
# ----------------------------------------------------------------------------------


_SAMPLE_ROWS = 10000      # rows read to decide what each column holds
_BATCH_ROWS = 2000        # rows per partial_fit call: bounds the memory of a fit
# The command line's naive Bayes batches: about _BATCH_CELLS cells, and at least
# _CLASS_ROWS rows per class, so that the passes over a batch (its cells converted,
# its rows grouped by class, counted) find its objects still in the processor's cache,
# while the steps each batch takes per feature and class stay few beside its cells.
_BATCH_CELLS = 4000
_CLASS_ROWS = 50
_READ_ROWS = 250          # CSV records taken from csv.reader at a time
# Characters in one line of a file: a longer line is refused once that much is read,
# before it fills the memory.
_LINE_LIMIT = 1 << 25
_PROG = "naive_bayes.py"
# Cells that mean "missing" unless --missing-only says otherwise: pandas' default list
# (read_csv's na_values), and Weka's "?".
_MISSING_CELLS = ("", "?", "NA", "N/A", "n/a", "NaN", "nan", "-NaN", "-nan", "NULL",
                  "null", "None", "#N/A", "#N/A N/A", "#NA", "<NA>", "-1.#IND", "-1.#QNAN",
                  "1.#IND", "1.#QNAN")
_DELIMITER_NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t", "pipe": "|",
                    "space": " "}
_DELIMITERS = (",", ";", "\t", "|")      # detected, in this order of preference
# An integer column with at most this many distinct values, each in two rows or more
# on average, may hold codes (1 to 12 for months, say): a note names --categorical.
_CODE_VALUES = 12
# Characters of an option's value that a note's fix gives whole, for pasting: a
# longer value (a cell of a megabyte) cannot be typed anyway, and is cut.
_FIX_LIMIT = 2000


class _Usage(Exception):
    """A command-line mistake: exit status 2."""


class _OptionError(NaiveBayesError):
    """A reading option that names no column or has a bad value (for the command
    line, a usage mistake: exit status 2)."""


def _typed(value, limit=40):
    """A value as it would be typed on a shell command line, cut to about ``limit``
    characters (a column name of a megabyte makes no one-line message)."""
    text = str(value)
    if len(text) > limit or "\n" in text or "\r" in text:
        text = _clip(text, limit)
    return _quote(text)


class _ReadOptions:
    """The options of read_csv and read_arff, and of the command line (which passes
    its own), checked; and how to name one in a message, as its caller writes it:
    ``--ignore id`` on the command line, ``ignore=['id']`` in Python."""

    _LISTS = ("missing", "missing_only")          # and each kind's option
    __slots__ = ("call", "cli", "delimiter", "decimal", "thousands", "encoding", "missing",
                 "missing_only", "numeric", "columns", "model")

    def __init__(self, call, cli, delimiter=None, decimal=None, encoding=None,
                 missing=(), missing_only=None, numeric=None, columns=None, model=None,
                 thousands=None):
        self.call = call
        self.cli = cli
        self.columns = columns or {}
        self.model = model
        self.delimiter = None if delimiter is None else self._delimiter(delimiter)
        if decimal is not None and decimal not in (".", ","):
            raise _OptionError("%s: expected . or ," % self.spell("decimal", decimal))
        self.decimal = decimal
        self.thousands = None if thousands is None else self._thousands(thousands)
        self.encoding = None if encoding is None else self._encoding(encoding)
        self.missing = list(missing or ())
        self.missing_only = None if missing_only is None else list(missing_only)
        problem = NaiveBayes._parameters["numeric"].check(numeric) if numeric else None
        if problem is not None:
            raise _OptionError("%s: expected %s" % (self.spell("numeric", numeric), problem))
        self.numeric = numeric or NaiveBayes._parameters["numeric"].default

    @classmethod
    def from_args(cls, args, numeric=None, model=None):
        """The reading options of a command line (argparse's namespace)."""
        columns = {kind: _columns(getattr(args, kind, None)) for kind in _KINDS}
        return cls("", True, args.delimiter, args.decimal, args.encoding, args.missing,
                   args.missing_only, numeric, {k: v for k, v in columns.items() if v},
                   model, getattr(args, "thousands", None))

    @classmethod
    def from_keywords(cls, call, keywords, csv):
        """The options of read_csv (csv=True) or read_arff, by keyword; an unknown
        keyword is a TypeError, as Python's own."""
        allowed = ("delimiter", "decimal", "thousands", "encoding", "missing",
                   "missing_only", "numeric", "model") if csv else ("encoding", "numeric",
                                                                   "model")
        columns, given = {}, {}
        for name, value in keywords.items():
            if value is None and (name in _KINDS or name in allowed):
                continue                  # None: the default, as for every option
            if name in _KINDS:
                columns[name] = value
            elif name in allowed:
                given[name] = value
            else:
                raise TypeError("%s got an unexpected keyword argument %r; expected %s "
                                "or a kind (%s)" % (call, name, ", ".join(allowed),
                                                    ", ".join(_KINDS)))
        options = cls(call, False)             # the spelling, for the checks below
        for name in [name for name in given if name in cls._LISTS] + list(columns):
            value = given[name] if name in given else columns[name]
            if value is None:
                continue
            names = [value] if isinstance(value, str) else value
            try:
                names = list(names)
            except TypeError:
                names = None
            if names is None or not all(isinstance(n, str) for n in names):
                raise _OptionError("%s: expected a list of %s" % (
                    options.spell(name, value), "cells" if name in cls._LISTS else
                    "column names"))
            if name in columns:
                columns[name] = names
            else:
                given[name] = names
        for name in ("delimiter", "decimal", "thousands", "encoding", "numeric"):
            if not isinstance(given.get(name, ""), str):
                raise _OptionError("%s: expected a string" % options.spell(name, given[name]))
        model = given.pop("model", None)
        if model is not None and not (isinstance(model, _Classifier) and
                                      model.__sklearn_is_fitted__()):
            raise _OptionError("%s: expected a fitted classifier of this module"
                               % options.spell("model", model))
        return cls(call, False, columns={k: v for k, v in columns.items() if v},
                   model=model, **given)

    def spell(self, option, value=None, placeholder=False):
        """An option as its caller writes it: --ignore id, or ignore=['id'], whole so
        that it can be pasted (but for values longer than _FIX_LIMIT characters, or
        holding a line break, which are cut to one short line)."""
        if self.cli:
            flag = "--" + option.replace("_", "-")
            if value is None:
                return flag
            if isinstance(value, list):
                value = ",".join(value)
            if placeholder:
                return "%s %s" % (flag, value)
            typed = _quote(value)
            if len(typed) > _FIX_LIMIT or "\n" in typed or "\r" in typed:
                typed = _typed(value)
            # a value that starts with "-" would be taken for an option: --ignore=-x
            return "%s%s%s" % (flag, "=" if str(value).startswith("-") else " ", typed)
        if value is None or placeholder:
            return "%s=%s" % (option, value or "")
        if isinstance(value, str) and (option in _KINDS or option in self._LISTS):
            value = [value]
        text = _shown(value, _FIX_LIMIT)
        return "%s=%s" % (option, text if len(text) < _FIX_LIMIT else _shown(value, 50))

    def _delimiter(self, option, name="delimiter"):
        """A delimiter option: a character, or tab, comma, semicolon, pipe, space, \\t."""
        delimiter = _DELIMITER_NAMES.get(option.lower(), option) if isinstance(
            option, str) else option
        if not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in "\"\r\n":
            raise _OptionError("%s: expected one character, or tab, comma, semicolon, pipe "
                               "or space" % self.spell(name, option))
        return delimiter

    def _thousands(self, mark):
        """A thousands separator: one character that is not a digit, a sign, a
        quote or a line break (, . ' and space are the usual ones)."""
        mark = {"comma": ",", "point": ".", "space": " ", "apostrophe": "'"}.get(mark, mark)
        if len(mark) != 1 or mark.isalnum() or mark in "+-\"\r\n":
            raise _OptionError("%s: expected one character such as , . ' or a space"
                               % self.spell("thousands", mark))
        if mark == self.decimal:
            raise _OptionError("%s: that is the decimal mark; expected another"
                               % self.spell("thousands", mark))
        return mark

    def _encoding(self, name):
        """The canonical name of a text encoding that Python knows."""
        import codecs
        try:
            canonical = codecs.lookup(name).name
        except (LookupError, TypeError, ValueError):
            raise _OptionError("%s: not an encoding Python knows"
                               % self.spell("encoding", name)) from None
        try:
            "a".encode(canonical)
        except LookupError:               # base64, rot13, zlib: bytes to bytes
            raise _OptionError("%s: not a text encoding (it turns bytes into bytes)"
                               % self.spell("encoding", name)) from None
        except UnicodeError:
            pass                          # a text encoding that refuses text: see _Lines
        return canonical


def _columns(option):
    """Column names from a comma-separated option value (or several uses of it);
    --ignore '' names the column without a name."""
    names = []
    for value in option or ():
        if value.strip() == "":
            names.append("")
        names.extend(name.strip() for name in value.split(",") if name.strip())
    return names


class _Lines:
    """The lines of a file (a path, "-" for standard input, or an open file, binary or
    text) as text, numbered: decoded line by line so that a decoding error names its
    line, each line at most _LINE_LIMIT characters.  The encoding is ``encoding``,
    else the one a byte-order mark names (UTF-8, UTF-16, UTF-32), else UTF-8."""

    _BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\x00\x00", "utf-32-le"),
             (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"),
             (b"\xfe\xff", "utf-16-be"))
    # Characters whose bytes must be ASCII's for a file to be split into lines
    # before it is decoded (so that a decoding error names its line).
    _PLAIN = "\n\r\t ,;|\"'%{}?.-+0123456789azAZ"

    # What a file that is not text starts with (its "magic number"), and what it is.
    _MAGIC = ((b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"),
              (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"), (b"\x1f\x8b", "gzip"))
    _SAMPLE = 256                 # bytes read first: a byte-order mark, a magic number,
    #                               the NUL bytes of UTF-16 or UTF-32 text without a mark

    def __init__(self, path, encoding=None, spell=None, kind="CSV"):
        import hashlib
        self.number = 0
        self.kind = kind                  # "CSV" or "ARFF": what the file should be
        # the SHA-256 of the bytes read (decompressed, for .gz), and whether they were
        # all read: the file's fingerprint (see fingerprint)
        self.digest = hashlib.sha256()
        self.ended = False
        self.spell = spell or (lambda option, value, placeholder=False: "--%s %s"
                               % (option, value))
        self.pending = []                 # decoded lines not yet returned, last first
        self.rest = b""                   # bytes after the last newline read
        self.tail = ""                    # text after the last newline decoded
        self.decoder = None               # for encodings that are not ASCII-compatible
        self.text = None                  # an open text file
        # the first line of the first block read whose cells may hold spaces to strip
        # (None: no such block yet; see _unspaced)
        self.spaced = None
        self.owned = not hasattr(path, "read")
        if self.owned:
            self.path = path if path == "-" else self._file_name(path)
            try:
                if path == "-":
                    self.raw = sys.stdin.buffer
                elif self.path.lower().endswith(".gz"):     # as Weka and pandas read them
                    import gzip
                    self.raw = gzip.open(self.path, "rb")
                else:
                    self.raw = open(self.path, "rb")
            except OSError as error:
                raise NaiveBayesError("cannot read %s: %s"
                                      % (self.path, error.strerror or error)) from None
        else:
            name = getattr(path, "name", None)
            self.path = name if isinstance(name, str) else "<stream>"
            self.raw = path
            if getattr(path, "closed", False) is True:
                raise NaiveBayesError("cannot read %s: the file is closed; expected an open "
                                      "file" % self.path)
        try:
            self._open(encoding, spell)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _file_name(path):
        """A path as text; NaiveBayesError for anything that cannot name a file."""
        import os
        try:
            name = os.fspath(path)
        except TypeError:
            raise NaiveBayesError("path is %s; expected a file name (str, bytes or "
                                  "os.PathLike) or an open file" % _describe(path)) from None
        if isinstance(name, bytes):
            name = os.fsdecode(name)
        if "\x00" in name:
            raise NaiveBayesError("cannot read %s: a file name has no NUL character"
                                  % _shown(name))
        return name

    def _open(self, encoding, spell):
        """Decide the encoding from the option and the byte-order mark; refuse what is
        not text (a workbook, an archive) and UTF-16 or UTF-32 without a mark, each
        named with what to do."""
        import codecs
        try:
            empty = self.raw.read(0)
        except (OSError, ValueError, TypeError) as error:    # write-only, closed, odd
            raise NaiveBayesError("cannot read %s: %s; expected a file open for reading"
                                  % (self.path, error)) from None
        if isinstance(empty, str):                      # an open text file
            self.text = self.raw
            self.encoding = getattr(self.raw, "encoding", None) or "text"
            self.shown = str(self.encoding).upper()
            return
        if not isinstance(empty, bytes):
            raise NaiveBayesError("cannot read %s: its read() gives %s; expected a file name "
                                  "or an open file (binary or text)"
                                  % (self.path, _describe(empty)))
        start = b""
        while len(start) < self._SAMPLE:
            more = self._bytes(self.raw.read, self._SAMPLE - len(start))
            if not more:
                break
            start += more
        self._refuse_binary(start)
        bom, named = next(((b, n) for b, n in self._BOMS if start.startswith(b) and
                           n.startswith(encoding or "")), (b"", None))
        if encoding is None and not bom:
            self._refuse_unmarked(start)
        if encoding in ("utf-16", "utf-32"):            # the byte order from the mark
            if named is None:
                raise NaiveBayesError(
                    "%s line 1: %s names no byte order and the file has no byte-order "
                    "mark; name it: %s or %s"
                    % (self.path, spell("encoding", encoding) if spell else encoding,
                       spell("encoding", encoding + "-le") if spell else encoding + "-le",
                       encoding + "-be"))
            encoding = named
        self.encoding = encoding or named or "utf-8"
        skip = bom and (encoding is None or self.encoding == named or
                        (named == "utf-8" and self.encoding == "utf-8-sig"))
        self.rest = start[len(bom):] if skip else start
        self.shown = self.encoding.upper() if self.encoding.startswith("utf") \
            else self.encoding
        try:
            plain = self._PLAIN.encode(self.encoding) == self._PLAIN.encode("ascii")
        except UnicodeError:
            plain = False
        if not plain:                     # UTF-16, UTF-32, EBCDIC: decoded as a stream
            self.decoder = codecs.getincrementaldecoder(self.encoding)()

    def _refuse_binary(self, start):
        """A NaiveBayesError for a file that a binary format's magic number opens: an
        Excel workbook or another ZIP archive, an old Office file, a gzip file not
        named .gz (decoding them as text would only give a misleading message)."""
        form = next((form for magic, form in self._MAGIC if start.startswith(magic)), None)
        if form is None:
            return
        name = self.path.lower()
        export = "export it as %s (in Excel or LibreOffice: File > Save As > CSV UTF-8) " \
                 "and read that file" % self.kind
        if form == "zip" and (name.endswith((".xlsx", ".xlsm", ".xltx", ".xlsb")) or
                              b"[Content_Types].xml" in start or b"xl/" in start):
            what = "an Excel workbook (.xlsx, a ZIP archive)"
        elif form == "zip" and (name.endswith(".ods") or b"opendocument.spreadsheet" in start):
            what = "an OpenDocument spreadsheet (.ods, a ZIP archive)"
        elif form == "zip":
            what, export = "a ZIP archive", "extract the %s file from it, or export the data " \
                "as %s" % (self.kind, self.kind)
        elif form == "ole":
            what = "an old Excel workbook (.xls) or another Microsoft Office file"
        else:
            what, export = "gzip-compressed", (
                "name it with .gz at the end (data.csv.gz), which is read decompressed, "
                "or decompress it first" if self.owned and self.path != "-" else
                "decompress it first (gunzip)")
        raise NaiveBayesError("%s line 1: the file is %s, not %s text: %s"
                              % (self.path, what, self.kind, export))

    def _refuse_unmarked(self, start):
        """A NaiveBayesError for UTF-16 or UTF-32 text without a byte-order mark, told
        by its NUL bytes (ASCII characters such as the delimiters and digits take one
        byte and NULs there): read as UTF-8 its header would be 'x\\x00,\\x00...'."""
        if b"\x00" not in start:
            return
        sample = start[:len(start) - len(start) % 4]
        quads = len(sample) // 4
        found = None
        if quads >= 1:
            # UTF-32: of each 4 bytes, the highest is 0 (every character is below
            # 0x110000) and so is, for the BMP, the next one
            if sample[3::4].count(0) == quads and sample[2::4].count(0) * 4 >= quads * 3 \
                    and sample[0::4].count(0) * 4 < quads:
                found = "utf-32-le"
            elif sample[0::4].count(0) == quads and sample[1::4].count(0) * 4 >= quads * 3 \
                    and sample[3::4].count(0) * 4 < quads:
                found = "utf-32-be"
        if found is None:
            sample = start[:len(start) - len(start) % 2]
            pairs = len(sample) // 2
            even, odd = sample[0::2].count(0), sample[1::2].count(0)
            if odd >= max(1, pairs // 4) and even * 8 <= odd:
                found = "utf-16-le"
            elif even >= max(1, pairs // 4) and odd * 8 <= even:
                found = "utf-16-be"
        if found is None:
            return
        raise NaiveBayesError(
            "%s line 1: looks like %s text without a byte-order mark (NUL bytes beside "
            "each ASCII character), not UTF-8: re-save it as UTF-8, or name its encoding: %s"
            % (self.path, found.upper(), self.spell("encoding", found)))

    def __iter__(self):
        """The lines."""
        return self

    def __next__(self):
        """The next line, counted."""
        if not self.pending:
            if self.text is not None:
                self._read_text()
            elif self.decoder is not None:
                self._decode_stream()
            else:
                self._read_block()
            if not self.pending:
                raise StopIteration
        self.number += 1
        return self.pending.pop()

    def blocks(self):
        """The lines still to come, a list at a time (as read and decoded), counted a
        list at a time: chain.from_iterable(blocks()) gives them with no Python step
        per line (csv.reader counts the lines it reads itself)."""
        while True:
            if not self.pending:
                if self.text is not None:
                    self._read_text()
                elif self.decoder is not None:
                    self._decode_stream()
                else:
                    self._read_block()
                if not self.pending:
                    return
            lines, self.pending = self.pending[::-1], []
            self.number += len(lines)
            yield lines

    def _read_text(self):
        """The next line of an open text file."""
        if self.spaced is None:           # (not looked at: its cells are stripped)
            self.spaced = self.number + 1
        try:
            line = self.text.readline(_LINE_LIMIT + 1)
        except UnicodeError:
            raise NaiveBayesError("%s line %d or soon after: not %s text" % (
                self.path, self.number + 1, self.shown)) from None
        except (OSError, ValueError) as error:     # closed while it was read, say
            raise NaiveBayesError("%s line %d or soon after: cannot read the file: %s"
                                  % (self.path, self.number + 1, error)) from None
        if len(line) > _LINE_LIMIT:
            self._too_long(self.number + 1)
        if line:
            self.pending = [line]

    def _read(self):
        """The next block of bytes (64 KB at most), the first four bytes first."""
        if self.rest:
            block, self.rest = self.rest, b""
            return block
        return self._bytes(getattr(self.raw, "read1", self.raw.read), 1 << 16)

    def _bytes(self, read, size):
        """read(size), a failure (a damaged .gz file, a disk error) naming the file."""
        import zlib
        try:
            data = read(size)
            if data:
                self.digest.update(data)
            elif size:
                self.ended = True
            return data
        except (OSError, EOFError, zlib.error, ValueError) as error:   # (closed: ValueError)
            raise NaiveBayesError("%s line %d or soon after: cannot read the file: %s"
                                  % (self.path, self.number + 1,
                                     getattr(error, "strerror", None) or error)) from None

    def _decode_stream(self):
        """Fill self.pending from blocks decoded by an incremental decoder (for
        encodings whose newline is not the byte 10)."""
        if self.spaced is None:           # (not looked at: its cells are stripped)
            self.spaced = self.number + 1
        while not self.pending:
            block = self._read()
            try:
                text = self.tail + self.decoder.decode(block, not block)
            except UnicodeError:
                raise NaiveBayesError("%s line %d or soon after: not %s text; name the "
                                      "file's encoding with %s"
                                      % (self.path, self.number + 1, self.shown,
                                         self.spell("encoding", "NAME", True))) from None
            if block:
                lines = [line + "\n" for line in text.split("\n")]
                self.tail = lines.pop()[:-1]
            else:
                lines = [line + "\n" for line in text.split("\n")]
                last = lines.pop()[:-1]          # the text after the last newline
                self.tail = ""
                if last:
                    lines.append(last)
            if len(self.tail) > _LINE_LIMIT:
                self._too_long(self.number + len(lines) + 1)
            for k, line in enumerate(lines):
                if len(line) > _LINE_LIMIT:
                    self._too_long(self.number + k + 1)
            lines.reverse()
            self.pending = lines
            if not block:
                return

    def _read_block(self):
        """Fill self.pending (lines in reverse order) from the next whole lines of the
        byte stream, read 64 KB at a time and decoded together."""
        parts, size = [], 0
        while True:
            block = self._read()
            if not block:
                data = b"".join(parts)
                break
            cut = block.rfind(b"\n") + 1
            if cut:
                parts.append(block[:cut])
                data, self.rest = b"".join(parts), block[cut:]
                break
            parts.append(block)
            size += len(block)
            if size > _LINE_LIMIT:
                self._too_long(self.number + 1)
        if not data:
            return
        try:
            text = data.decode(self.encoding)
        except UnicodeError:
            text = None
        if self.spaced is None and (text is None or not _unspaced(text)):
            self.spaced = self.number + 1
        lines = text.split("\n") if text is not None else data.split(b"\n")
        last = lines.pop()                # "" after a final newline, else a last line
        lines = list(map(add, lines, repeat("\n" if text is not None else b"\n")))
        if last:
            lines.append(last)
        if text is not None and len(data) <= _LINE_LIMIT:
            lines.reverse()               # (no line can be too long)
            self.pending = lines
            return
        for k, line in enumerate(lines):
            if len(line) > _LINE_LIMIT:
                self._too_long(self.number + k + 1)
            if text is None:
                try:
                    lines[k] = line.decode(self.encoding)
                except UnicodeError as error:
                    where = getattr(error, "start", None)
                    raise NaiveBayesError(
                        "%s line %d: not %s text%s; name the file's encoding, for "
                        "instance %s"
                        % (self.path, self.number + k + 1, self.shown,
                           "" if where is None else " (byte %d)" % (where + 1),
                           self.spell("encoding", "latin-1"))
                    ) from None
        lines.reverse()
        self.pending = lines

    def _too_long(self, number):
        """Refuse an overlong line, naming it."""
        raise NaiveBayesError("%s line %d: longer than %s characters; expected a CSV or "
                              "ARFF file" % (self.path, number, format(_LINE_LIMIT, ",")))

    def fingerprint(self):
        """The SHA-256 of the file's bytes (as hexadecimal) once every one was read,
        else None (and for an open text file, whose bytes it never sees): what a model
        file keeps of its training data, to tell an evaluation on it."""
        return self.digest.hexdigest() if self.ended and self.text is None else None

    def close(self):
        """Close the file (not standard input, nor a file the caller opened)."""
        if self.owned and self.path != "-" and hasattr(self, "raw"):
            self.raw.close()


_SPACES = " \t\x0b\x0c\x1c\x1d\x1e\x1f"     # the ASCII characters str.strip() removes,
#                                                 but for the line breaks


def _unspaced(text):
    """True when no cell of these whole lines, as csv.reader splits them, can begin or
    end with a character that str.strip() removes: ASCII text without spaces, tabs
    and the other ASCII white space, and with every carriage return that of a line's
    CRLF ending.  (A quoted cell that holds a line break spans lines: _row_chunks
    strips the cells of such records whatever this says.)"""
    if not text.isascii():
        return False
    for space in _SPACES:
        if space in text:
            return False
    return "\r" not in text or text.count("\r") == text.count("\r\n")


def _detected_delimiter(lines):
    """The first of , ; tab | that splits the first lines into the same number of
    fields, more than one (else the first that splits any line, else ,)."""
    import csv
    best = None
    for candidate in _DELIMITERS:
        try:
            widths = {len(cells) for cells in csv.reader(lines, delimiter=candidate) if cells}
        except csv.Error:
            continue
        if len(widths) == 1 and widths != {1}:
            return candidate
        if best is None and max(widths, default=1) > 1:
            best = candidate
    return best or ","


_GROUPED_NUMBERS = {}     # (thousands separator, decimal mark) -> match


def _grouped_number(separator, decimal):
    """The match of a number written with thousands separators: one to three digits,
    groups of exactly three, then decimals (1,234,567.5 for separator , and decimal
    .); plain numbers without a separator match too."""
    import re
    key = (separator, decimal)
    match = _GROUPED_NUMBERS.get(key)
    if match is None:
        match = _GROUPED_NUMBERS[key] = re.compile(
            r"[+-]?(?:[1-9]\d{0,2}(?:%s\d{3})+|\d+)(?:%s\d*)?(?:[eE][+-]?\d+)?\Z"
            % (re.escape(separator), re.escape(decimal))).match
    return match


def _ascii_float(text):
    """A number as Java's Double and pandas read one: ASCII digits (Python's float()
    also takes other scripts' digits and 1_000); ValueError otherwise."""
    if "_" in text or not text.isascii():
        raise ValueError(text)
    return float(text)


class _CsvSource:
    """The rows of one CSV file, read once: its header (names stripped of spaces),
    then (line number, cells) for each row, cells stripped and ragged rows refused.

    The delimiter, the decimal mark (a comma in ;-separated files), the encoding and
    the missing-value cells come from the options or are detected; an empty-named
    first column (R's write.csv row names) is left out, with a note."""

    declared = {}                 # ARFF declares kinds and values; a CSV file does not
    categories = {}
    default_target = None
    weighted = False              # ARFF rows may carry an instance weight
    texts = True                  # every cell is a str (ARFF's come typed, or None)
    given = 0                     # rows rows() has read from the file so far

    def __init__(self, path, options, notes):
        import csv
        self.lines = _Lines(path, options.encoding, options.spell)
        self.path = self.lines.path
        self.encoding = self.lines.encoding
        self.options = options
        try:
            first = list(islice(self.lines, 20))
            self.delimiter = options.delimiter or _detected_delimiter(first)
            self.thousands = options.thousands
            self.decimal = options.decimal or ("," if self.delimiter == ";" and
                                               self.thousands != "," else ".")
            if self.thousands == self.decimal:
                raise _OptionError("%s: that is the decimal mark of %s; name another with "
                                   "%s" % (options.spell("thousands", self.thousands),
                                           self.path, options.spell("decimal", ".")))
            self.plain = self._plain()
            only = options.missing_only
            self.missing = frozenset(only if only is not None else _MISSING_CELLS) | \
                frozenset(options.missing) | {""}
            self.numeric_missing = any(_TableReader._finite_numbers([cell]) is not None
                                       for cell in self.missing)
            self.reader = csv.reader(chain(first, chain.from_iterable(self.lines.blocks())),
                                     delimiter=self.delimiter, strict=True)
            header = self._next()
            if header is None:
                raise NaiveBayesError("%s is empty; expected a header row" % self.path)
            self.header = [name.strip() for name in header]
            self.width = len(header)
            self.skipped = None
            if self.header[0] == "" and len(self.header) > 1 and \
                    "" not in options.columns.get("ignore", ()):
                self.skipped = 0                  # R's row names: no feature, no target
                notes.append("note: %s: the first column has no name (row numbers, as R's "
                             "write.csv writes them): not used; %s says so and hides "
                             "this note" % (self.path, options.spell("ignore", "")))
            names = [n for i, n in enumerate(self.header) if i != self.skipped]
            if len(set(names)) != len(names):
                repeated = next(name for name in names if names.count(name) > 1)
                raise NaiveBayesError("%s line 1: column %s appears twice; expected "
                                      "distinct column names" % (self.path, _shown(repeated)))
        except BaseException:
            self.close()
            raise
        self.index = {name: i for i, name in enumerate(self.header) if i != self.skipped}

    def _next(self):
        """The next non-blank record; self.start is the line it starts on."""
        import csv
        while True:
            self.start = self.reader.line_num + 1
            try:
                cells = next(self.reader)
            except StopIteration:
                return None
            except csv.Error as error:
                raise NaiveBayesError("%s line %d: %s" % (self.path, self.reader.line_num,
                                                          error)) from None
            if cells and cells != [""] * len(cells):     # a blank line is not a row
                return cells

    def rows(self):
        """(line number, cells) for every data row, cells (a tuple) stripped of spaces."""
        return chain.from_iterable(self._row_chunks())

    def _row_chunks(self, size=_READ_ROWS):
        """rows() a list at a time, made by builtins with no Python step per row (see
        _records)."""
        strip = str.strip
        while True:
            taken = self._records(size)
            if taken is None:
                return
            lines, records, spaced = taken
            taken = None
            # cells as tuples: a tuple of strings leaves the garbage collector's
            # lists at its first pass, a list never (the rows of a batch would be
            # traversed again at every collection while they live), and the
            # reader's lists are let go before the rows are handed on; stripped
            # unless the lines they come from have no spaces to strip
            if not spaced:
                rows = list(zip(lines, map(tuple, records)))
            else:
                rows = list(zip(lines, map(tuple, map(map, repeat(strip), records))))
            records = None
            self.given += len(rows)
            yield rows

    def column_chunks(self, size):
        """The rows still to come (after those rows() gave: call it only when those
        were all taken), as (lines, columns) of ``size`` rows at most: each column
        a tuple of its cells, stripped; no Python step per row or cell."""
        strip = str.strip
        while True:
            taken = self._records(size)
            if taken is None:
                return
            lines, records, spaced = taken
            taken = None
            columns = list(zip(*records))
            records = None
            if spaced:
                columns = [tuple(map(strip, column)) for column in columns]
            yield lines, columns

    def _records(self, size):
        """(lines, records, spaced) of the next ``size`` records at most (None after
        the last): csv.reader's records taken by islice, their lines numbered from
        the lines the reader counted (a record spans one line more per line break
        in its cells), blank records dropped, a record of another width refused;
        ``spaced``: whether their cells may need stripping."""
        import csv
        width = self.width
        reader = self.reader
        source = self.lines
        try:
            first = reader.line_num + 1
            records = list(islice(reader, size))
            if not records:
                return None
            spaced = source.spaced
            if reader.line_num - first + 1 == len(records):
                lines = range(first, first + len(records))
            else:                     # quoted line breaks
                spans = [1 + "".join(cells).count("\n") for cells in records]
                lines = [first + n for n in accumulate(spans, initial=0)][:-1]
                spaced = first
            if not all(map(any, records)):     # a blank line is not a row
                kept = [(line, cells) for line, cells in zip(lines, records)
                        if any(cells)]
                lines = [line for line, _ in kept]
                records = [cells for _, cells in kept]
            if set(map(len, records)) - {width}:
                line, cells = next((line, cells) for line, cells in zip(lines, records)
                                   if len(cells) != width)
                raise NaiveBayesError("%s line %d: %s, expected %d as in the header"
                                      % (self.path, line, _counted(len(cells), "cell"),
                                         width))
            return lines, records, not (spaced is None or spaced > reader.line_num)
        except csv.Error as error:
            raise NaiveBayesError("%s line %d: %s" % (self.path, reader.line_num,
                                                      error)) from None

    def _plain(self):
        """None when cells are numbers as float() reads them; else the function that
        makes a cell so: thousands separators dropped (only from a number grouped as
        one: 1,234,567, not 12,34), a decimal comma made a point."""
        if self.thousands is None:
            if self.decimal != ",":
                return None
            return lambda cell: cell.replace(",", ".")
        grouped = _grouped_number(self.thousands, self.decimal)
        separator = self.thousands
        comma = self.decimal == ","

        def plain(cell):
            if separator in cell and grouped(cell):
                cell = cell.replace(separator, "")
            return cell.replace(",", ".") if comma else cell
        return plain

    def number(self, cell):
        """A cell as a float, or None when it is not a number."""
        plain = self.plain
        if plain is not None:
            cell = plain(cell)
        try:
            return _ascii_float(cell)
        except ValueError:
            return None

    def numbers(self, cells):
        """The cells as floats; ValueError when one is not a number."""
        plain = self.plain
        if plain is not None:
            cells = list(map(plain, cells))
        text = "".join(cells)
        if "_" in text or not text.isascii():
            return list(map(_ascii_float, cells))
        return list(map(float, cells))

    def column(self, name, option):
        """Index of a column named by an option (the option's name, as the caller
        spells it, in the error)."""
        index = self.index.get(name)
        if index is None:
            spell = self.options.spell
            raise _OptionError("%s: no column %s in %s; the columns are %s"
                               % (spell(option) if self.options.cli else spell(option, name),
                                  _shown(name), self.path,
                                  _clip(", ".join(map(_quote, self.index)), 200)))
        return index

    def close(self):
        """Close the file."""
        self.lines.close()
