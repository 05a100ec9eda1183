# ----------------------------------------------------------------------------------
# The model file: versioned JSON of counts and sums
#
# Counts and sums, not probabilities, so that parameters can change after loading and
# models can be merged and updated.  One top-level field per line and one item of a
# list per line, so that a file is read item by item; written atomically.
# ----------------------------------------------------------------------------------


def _model_to_dict(model, statistics):
    params = model.get_params()
    encoded = {}
    for name, value in params.items():
        if name in _DECISION_PARAMETERS:
            if value is not _DECISION_PARAMETERS[name].default and \
                    value != _DECISION_PARAMETERS[name].default:
                _check_domains({name: _DECISION_PARAMETERS[name]}, params, "to_dict()")
                encoded[name] = _encode_decision(name, value)
        elif name == "class_prior":
            encoded[name] = value if value is None or isinstance(value, str) else [
                [_encode(label, "class_prior label"), float(p)] for label, p in value.items()]
        elif name == "features":
            encoded[name] = _encode_by_name(value, lambda kind: kind, "features")
        elif name == "categories":
            encoded[name] = _encode_by_name(
                value, lambda values: None if values is None else
                [_encode(v, "a declared category") for v in values], "categories")
        elif name == "tokenizer":
            encoded[name] = None if value is None else "custom"
        elif name == "members":           # AutoBayes: a list of names
            encoded[name] = list(value)
        elif name == "weights" and isinstance(value, Mapping):
            encoded[name] = [[member, float(w)] for member, w in value.items()]
        elif name == "ngram_range":
            encoded[name] = list(value)
        elif name == "stop_words" and value is not None and not isinstance(value, str):
            words = sorted(value) if isinstance(value, (set, frozenset)) else value
            encoded[name] = [_encode(word, "a stop word") for word in words]
        elif _number(value) is not None and type(value) is not int:
            encoded[name] = float(value)
        else:
            encoded[name] = value
    data = {"format": FORMAT, "format_version": FORMAT_VERSION,
            "model": _model_name(type(model)), "params": encoded,
            "target": None if model.target_ is None else _encode(str(model.target_), "target")}
    training = model._training_data()
    if training is not None:              # only then: files stay as they were otherwise
        data["training_data"] = dict(training)
    data.update(rows=None, classes=[], class_count=[])
    if statistics is None:
        data.update({field: [] for field in _statistics_fields(type(model))})
        return data
    data["rows"] = statistics.layout
    classes = statistics.classes()
    data["classes"] = [_encode(c, "a class label") for c in classes]
    data["class_count"] = [_exact_text(statistics.class_count[c]) for c in classes]
    data.update(statistics.to_file(classes))
    return data


def _encode_decision(name, value):
    """A class weight or decision parameter as the model file holds it: a mapping as
    [[label, number], ...] (costs: [[true label, [[predicted label, cost], ...]], ...]),
    labels encoded as labels are; only written when it is not the default."""
    if name == "reject_label":
        return _encode(value, "reject_label")
    if name == "costs":
        return [[_encode(truth, "a costs label"), _encode_decision("thresholds", row)]
                for truth, row in value.items()]
    if isinstance(value, Mapping):
        return [[_encode(label, "a %s label" % name), _file_number(number)]
                for label, number in value.items()]
    return value if isinstance(value, str) else _file_number(value)


def _file_number(number):
    """A parameter's number for the file: an int as it is, any other real as a float."""
    return number if type(number) is int else float(_number(number))


def _statistics_fields(cls):
    """The model-file fields that a classifier's family writes."""
    return cls._statistics_class.file_fields


def _encode_by_name(value, encode, what):
    """features= and categories=: a list by position, or {"by_name": [[name, x]]}."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {"by_name": [[_encode(name, "a %s name" % what), encode(x)]
                            for name, x in value.items()]}
    return [encode(x) for x in value]


def _model_name(cls):
    """The model file's name for a classifier class (a user's subclass is saved as
    the library class it derives from)."""
    for known in cls.__mro__:
        if _MODELS.get(known.__name__) is known:
            return known.__name__
    return "NaiveBayes"


def _json_text(data):
    """JSON text of a model: one top-level field per line, one feature per line.
    Non-ASCII text is written as it is, unless it holds lone surrogates (which UTF-8
    cannot encode, and os.fsdecode makes): then every non-ASCII character is escaped."""
    text = _json_lines(data, False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _json_lines(data, True)
    return text


def _json_lines(data, ascii):
    import json

    def dump(value):
        return json.dumps(value, ensure_ascii=ascii, allow_nan=False)
    lines = ["{"]
    lists = [key for key in data if type(data[key]) is list and key not in
             ("classes", "class_count")]
    for key in data:
        if key not in lists:
            lines.append(" %s: %s," % (dump(key), dump(data[key])))
    for n, key in enumerate(lists):
        items = [dump(item) for item in data[key]]
        lines.append(" %s: [%s" % (dump(key), "" if items else "]"))
        for i, item in enumerate(items):
            lines.append("  " + item + ("," if i < len(items) - 1 else ""))
        if items:
            lines.append(" ]")
        if n < len(lists) - 1:
            lines[-1] += ","
    if not lists:
        lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _checked_path(path, call):
    """A path for open(): str, bytes or os.PathLike, without NUL characters."""
    import os
    try:
        path = os.fspath(path)
    except TypeError:
        raise NaiveBayesError("%s: path is %s; expected a file name (str, bytes or "
                              "os.PathLike)" % (call, _describe(path)), call=call,
                              argument="path") from None
    if ("\0" if isinstance(path, str) else b"\0") in path:
        raise NaiveBayesError("%s: path %s holds a NUL character; expected a file name"
                              % (call, _shown(path)), call=call, argument="path")
    if not path:
        raise NaiveBayesError("%s: path is empty; expected a file name" % call, call=call,
                              argument="path")
    return path


def _path_text(path):
    """A path as text for messages."""
    import os
    return os.fsdecode(path) if isinstance(path, bytes) else path


class _AtomicFile:
    """A file written through a temporary file in the same folder and renamed over
    the target on commit, so that the target is never half-written.  The temporary
    file is created with mode 0666 less the umask (the kernel applies it); on
    commit it takes the mode of the file it replaces, if any."""

    def __init__(self, path, call, binary=False):
        import os
        self.path = path
        self.call = call
        self.folder = os.path.dirname(os.path.abspath(path))
        name = ".nb-%s.tmp" % os.urandom(6).hex()      # short: any legal name fits
        self.temporary = os.path.join(self.folder, os.fsencode(name)
                                      if isinstance(path, bytes) else name)
        if os.path.isdir(path):           # refused now, not at the rename
            raise self._error(IsADirectoryError(21, "Is a directory"))
        try:
            handle = os.open(self.temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                             getattr(os, "O_BINARY", 0), 0o666)
        except OSError as error:
            raise self._error(error) from None
        try:
            self.stream = os.fdopen(handle, "wb" if binary else "w",
                                    **({} if binary else {"encoding": "utf-8",
                                                          "newline": ""}))
        except BaseException:             # (Ctrl-C here too) no temporary file is left
            os.close(handle)
            os.unlink(self.temporary)
            raise

    def _error(self, error):
        """(call None: the command line, which names the command itself)"""
        return NaiveBayesError("%scannot write %s: %s" % (
            "" if self.call is None else self.call + ": ", _path_text(self.path),
            error.strerror or error), call=self.call)

    def stage(self):
        """Flush and sync what was written (a full disk says so here, before commit
        renames); NaiveBayesError, the temporary file removed, if that fails."""
        import os
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
        except BaseException as error:
            self.discard()
            if isinstance(error, OSError):
                raise self._error(error) from None
            raise

    def commit(self):
        """Flush, sync (stage) and rename over the target; NaiveBayesError, the
        temporary file removed, if that fails."""
        import os
        self.stage()
        try:
            self.stream.close()
            try:
                os.chmod(self.temporary, os.stat(self.path).st_mode & 0o7777)
            except FileNotFoundError:
                pass
            os.replace(self.temporary, self.path)
        except BaseException as error:
            self.discard()
            if isinstance(error, OSError):
                raise self._error(error) from None
            raise

    def discard(self):
        """Close and remove the temporary file."""
        import os
        try:
            self.stream.close()
        except OSError:
            pass
        try:
            os.unlink(self.temporary)
        except OSError:
            pass


def _write_atomically(path, text, call):
    """Write text to path atomically (see _AtomicFile)."""
    target = _AtomicFile(path, call)
    try:
        target.stream.write(text)
    except BaseException as error:
        target.discard()
        if isinstance(error, OSError):
            raise target._error(error) from None
        raise
    target.commit()


def _load_file(cls, path, call):
    """The model in a file; every failure one NaiveBayesError.

    A file in the layout save() writes (one field per line, one list item per line)
    is read in two passes: the first notes where each list starts, the second hands
    the lists' items to the model one parsed line at a time, so that memory holds the
    model and one item's JSON, never the whole file's.  Any other JSON is parsed
    whole.
    """
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise NaiveBayesError("%s: cannot read the file: %s"
                              % (call, error.strerror or error), call=call) from None
    try:
        with stream:
            data = _read_layout(stream, call)
            if data is None:
                stream.seek(0)
                data = _parse_json(stream.read(), call)
            return _model_from_dict(cls, data, call)
    except OSError as error:
        raise NaiveBayesError("%s: cannot read the file: %s"
                              % (call, error.strerror or error), call=call) from None


def _read_layout(stream, call):
    """The fields of a file in save()'s layout, its lists as _LazyItems; None for any
    other layout (the caller then parses the file whole)."""
    if stream.readline().lstrip(b"\xef\xbb\xbf").strip() != b"{":
        return None
    data = {}
    for line in iter(stream.readline, b""):
        text = line.strip()
        if text == b"}":
            return data if not stream.read(64).strip() else None
        key, colon, value = text.partition(b": ")
        if not (colon and key.startswith(b'"') and key.endswith(b'"')):
            return None
        key = _parse_json(key, call)
        if value == b"[":                 # a list: one item per line, up to "]"
            data[key] = _LazyItems(stream, stream.tell(), call)
            for item in iter(stream.readline, b""):
                if item.strip() in _LIST_ENDS:
                    break
            else:
                return None
        else:
            data[key] = _parse_json(value[:-1] if value.endswith(b",") else value, call)
    return None


def _model_from_dict(cls, data, call):
    try:
        return _build_model(cls, data)
    except _Invalid as error:
        raise NaiveBayesError("%s: %s" % (call, error), call=call) from None
    except RecursionError:
        raise NaiveBayesError("%s: nested too deeply to be a model file" % call,
                              call=call) from None


_HEADER_FIELDS = ("format", "format_version", "model", "params", "target", "rows",
                  "classes", "class_count", "training_data")


def _build_model(cls, data):
    _expect(type(data) is dict, "the model", data, "a JSON object")
    _expect(_field(data, "format") == FORMAT, "format", data["format"], repr(FORMAT))
    version = _field(data, "format_version")
    _expect(type(version) is int and version >= 1, "format_version", version,
            "a positive integer")
    if version > FORMAT_VERSION:
        raise _Invalid("format_version is %d, written by a newer naive_bayes.py; this one "
                       "reads format_version %d" % (version, FORMAT_VERSION))
    name = _field(data, "model")
    stored = _MODELS.get(name) if type(name) is str else None
    _expect(stored is not None, "model", name, " or ".join(map(repr, _MODELS)))
    fields = _HEADER_FIELDS + _statistics_fields(stored) + getattr(
        stored._statistics_class, "optional_file_fields", ())
    for key in data:
        if key not in fields:
            raise _Invalid("the model has an unknown field %r; expected only %s"
                           % (key, ", ".join(fields)))
    if issubclass(stored, cls) or cls is NaiveBayes:
        target_class = stored             # NaiveBayes.load reads any model file
    elif issubclass(cls, stored) and cls.__module__ != __name__:
        target_class = cls                # a user's subclass of the stored class
    else:
        raise _Invalid("the file holds %s %s, not %s %s (NaiveBayes.load reads any model "
                       "file)" % (_article(name), name, _article(cls.__name__),
                                  cls.__name__))
    params = _decode_params(_field(data, "params"), target_class._parameters)
    model = target_class(**params)
    try:
        _check_params(target_class._parameters, params, "params")
    except NaiveBayesError as error:
        raise _Invalid(str(error)) from None
    target = _field(data, "target")
    if type(target) is dict:
        target = _decode(target, "target")
    _expect(target is None or type(target) is str, "target", target, "a string or null")
    model._state.target = target
    training = data.get("training_data")          # optional: older files have none
    _expect(training is None or (type(training) is dict and list(training) == ["sha256"]
                                 and type(training["sha256"]) is str and
                                 len(training["sha256"]) == 64 and
                                 not training["sha256"].strip("0123456789abcdef")),
            "training_data", training, '{"sha256": 64 lower-case hexadecimal digits}')
    classes = _decode_list(_field(data, "classes"), "classes")
    class_count = _field(data, "class_count")
    _expect(type(class_count) is list and len(class_count) == len(classes), "class_count",
            class_count, "a list of %d counts, one per class" % len(classes))
    layout = _field(data, "rows")
    _expect(layout in (None, "sequence", "mapping"), "rows", layout,
            '"sequence", "mapping" or null')
    counts = {}
    for i, label in enumerate(classes):
        _expect(_hashable(label) and not _is_missing(label), "classes[%d]" % i, label,
                "a label")
        if label in counts:
            raise _Invalid("classes[%d] is %s again; expected distinct labels"
                           % (i, _shown(label)))
        counts[label] = _decode_exact(class_count[i], "class_count[%d]" % i)
    if classes and not any(counts.values()):
        raise _Invalid("class_count is all 0; expected a positive total")
    statistics = stored._statistics_class.from_file(data, classes, counts)
    if not classes:
        return model
    statistics.layout = layout
    statistics.class_count = counts
    try:
        _check_class_prior(params.get("class_prior"), counts, "params")
        model._decision(statistics.classes(), "params")
    except NaiveBayesError as error:
        raise _Invalid(str(error)) from None
    _check_kinds_file(model, statistics)
    if hasattr(statistics, "check_file_params"):      # AutoBayes: its members' statistics
        statistics.check_file_params(params)
    model._state.statistics = statistics
    model._record_training_data(training)
    return model


def _check_kinds_file(model, statistics):
    """The stored kinds must be what the model class and params would have made."""
    fixed = model._default_kind
    declared, categories = _declarations(model.get_params())
    declared = {name: (model._kind_map or {}).get(kind, kind) for name, kind in
                declared.items()}
    for name, stats in statistics.features.items():
        if stats.name is None:
            continue
        if model._allowed_kinds is not None and stats.name not in model._allowed_kinds:
            raise _Invalid("feature %r is %s, which a %s cannot hold"
                           % (name, stats.name, type(model).__name__))
        if name in declared and declared[name] != stats.name:
            raise _Invalid("params.features declares %r %s, but the file holds it as %s"
                           % (name, declared[name], stats.name))
        if fixed and name not in declared and stats.name != fixed:
            raise _Invalid("feature %r is %s, but a %s holds only %s features"
                           % (name, stats.name, type(model).__name__, fixed))
        if name in categories and list(dict.fromkeys(categories[name])) != \
                list(getattr(stats.stats, "declared", ())):
            raise _Invalid("params.categories for %r differs from the feature's declared "
                           "values" % (name,))


def _decode_params(params, parameters):
    _expect(type(params) is dict, "params", params, "a JSON object")
    unknown = [name for name in params if name not in parameters]
    if unknown:
        raise _Invalid("params has unknown field %r; expected only %s"
                       % (unknown[0], ", ".join(parameters)))
    decoded = {}
    for name, parameter in parameters.items():
        if name not in params:            # written before the parameter existed
            decoded[name] = parameter.default
            continue
        value = params[name]
        where = "params." + name
        if name in _DECISION_PARAMETERS:
            value = _decode_decision(name, value, where)
        elif name == "class_prior" and type(value) is list:
            pairs = {}
            for i, pair in enumerate(value):
                _expect(type(pair) is list and len(pair) == 2, "%s[%d]" % (where, i), pair,
                        "[label, probability]")
                label = _decode(pair[0], "%s[%d][0]" % (where, i))
                _expect(_hashable(label), "%s[%d][0]" % (where, i), label, "a label")
                pairs[label] = pair[1]
            value = pairs
        elif name == "features" and value is not None:
            value = _decode_by_name(value, where, lambda kind, here: kind)
        elif name == "categories" and value is not None:
            value = _decode_by_name(value, where, lambda values, here: None
                                    if values is None else _decode_list(values, here))
        elif name == "tokenizer":
            _expect(value in (None, "custom"), where, value, 'null or "custom"')
            value = None if value is None else _UNSAVED_TOKENIZER
        elif name == "members":
            _expect(type(value) is list and _STR.issuperset(map(type, value)), where, value,
                    "a list of member names")
            value = tuple(value)
        elif name == "weights" and type(value) is list:
            _expect(all(type(p) is list and len(p) == 2 and type(p[0]) is str and
                        type(p[1]) in (int, float) for p in value), where, value,
                    "[[member, weight], ...]")
            value = {member: weight for member, weight in value}
        elif name == "ngram_range":
            _expect(type(value) is list and len(value) == 2, where, value, "[min_n, max_n]")
            value = tuple(value)
        elif name == "stop_words" and type(value) is list:
            value = _decode_list(value, where)
        elif type(value) not in (int, float, str, bool, type(None)):
            raise _Invalid("%s is %s; expected a number, a string, true, false or null"
                           % (where, _describe(value)))
        decoded[name] = value
    return decoded


def _decode_decision(name, value, where):
    """A class weight or decision parameter from the file (see _encode_decision); its
    values are checked as parameters after."""
    if name == "reject_label":
        return _decode(value, where)
    if type(value) is not list:
        _expect(value is None or type(value) in (int, float, str), where, value,
                "a list of [label, number] pairs, a number, a string or null")
        return value
    pairs = {}
    for i, pair in enumerate(value):
        here = "%s[%d]" % (where, i)
        _expect(type(pair) is list and len(pair) == 2, here, pair,
                "[label, %s]" % ("[[label, cost], ...]" if name == "costs" else "number"))
        label = _decode(pair[0], here + "[0]")
        _expect(_hashable(label), here + "[0]", label, "a label")
        if label in pairs:
            raise _Invalid("%s[0] is %s again; expected distinct labels" % (here, _shown(label)))
        if name == "costs":
            _expect(type(pair[1]) is list, here + "[1]", pair[1], "[[label, cost], ...]")
            pairs[label] = _decode_decision("thresholds", pair[1], here + "[1]")
        else:
            _expect(type(pair[1]) in (int, float), here + "[1]", pair[1], "a number")
            pairs[label] = pair[1]
    return pairs


def _decode_by_name(value, where, decode):
    if type(value) is dict and list(value) == ["by_name"] and type(value["by_name"]) is list:
        result = {}
        for i, pair in enumerate(value["by_name"]):
            here = "%s.by_name[%d]" % (where, i)
            _expect(type(pair) is list and len(pair) == 2, here, pair, "[name, value]")
            name = _decode(pair[0], here + "[0]")
            _expect(_hashable(name), here + "[0]", name, "a hashable name")
            result[name] = decode(pair[1], here + "[1]")
        return result
    _expect(type(value) is list, where, value, 'a list or {"by_name": [[name, value]]}')
    return [decode(item, "%s[%d]" % (where, i)) for i, item in enumerate(value)]
