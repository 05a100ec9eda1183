# -- naive Bayes compiled: per-row sums by builtins (the fast path) ---------------
#
# The fast path sees the scorers only through their fast forms (_Scorer.fast_form:
# lookup, quadratic and a text scorer's packed, taken only where they are as current
# as scorer[value]): lookup tables are packed into ints (one builtin sum per row for
# all of them), normal densities become three builtin maps per class, a text feature's
# words are packed ints too (see _PackedWords), and every other feature is one tuple
# per row.  Whenever a row does not fit (a missing or odd value, an infinity) it
# returns None and the row is scored by the slow path, which also names what is wrong.

_getitem = dict.__getitem__       # a table lookup (with __missing__ for misses) in C


def _picker(positions, width):
    """A function taking the values at positions out of a row (None when positions
    are all of them: the row itself)."""
    if list(positions) == list(range(width)):
        return None
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        position = positions[0]
        return lambda row: (row[position],)
    from operator import itemgetter
    return itemgetter(*positions)


class _Packed:
    """Lookup tables whose entries pack all K per-class log-probabilities into one
    Python int, so that one builtin sum() adds every feature for every class.

    Each class has a 64-bit field holding -log P as a fixed-point number with `bits`
    fractional bits (every categorical log-probability and log-prior is <= 0, so the
    fields are non-negative and never borrow from each other).  Integer addition is
    exact: the sum does not depend on the order of the features, and the only
    rounding is 2^-(bits+1) per term (about 1e-15) and the final conversion to float.
    The fields are unpacked little-endian whatever the machine's byte order.
    """

    __slots__ = ("tables", "prior", "unpack", "width", "negative_scales")

    @classmethod
    def build(cls, tables, log_prior):
        """Packed copies of the tables, or None when a log-probability is -inf (alpha
        = 0) or too small to pack; those models take the tuple path."""
        import struct
        n_terms = len(tables) + 1
        bits = 63 - 11 - n_terms.bit_length()          # -log P < 2^11 in each term
        if bits < 30:
            return None
        scale = float(2 ** bits)
        limit = 2.0 ** 11

        def pack(vector):
            total = 0
            for k, value in enumerate(vector):
                if not -limit < value <= 0:
                    raise OverflowError
                total |= int(round(-value * scale)) << (64 * k)
            return total
        try:
            packed = []
            for table in tables:
                twin = _ValueTable((value, pack(vector)) for value, vector in table.items())
                twin.fallback = pack(table.fallback)
                twin.zeros = 0
                packed.append(twin)
            prior = pack(log_prior)
        except OverflowError:
            return None
        self = cls()
        self.tables = packed
        self.prior = prior
        self.width = 8 * len(log_prior)
        self.unpack = struct.Struct("<%dQ" % len(log_prior)).unpack
        self.negative_scales = (-1.0 / scale,) * len(log_prior)
        return self

    def joint(self, values):
        """log P(c) + sum_j log P(x_j | c) over the packed values of one row."""
        total = sum(map(_getitem, self.tables, values), self.prior)
        return list(map(mul, self.unpack(total.to_bytes(self.width, "little")),
                        self.negative_scales))

    def joints(self, rows):
        """The same for many rows, with no Python-level loop over them: the sums of
        all rows become one array of 64-bit fields, scaled by one map."""
        from array import array
        totals = map(sum, map(map, repeat(_getitem), repeat(self.tables), rows),
                     repeat(self.prior))
        fields = array("Q", b"".join(map(int.to_bytes, totals, repeat(self.width),
                                         repeat("little"))))
        if sys.byteorder != "little":
            fields.byteswap()
        flat = list(map(mul, fields, repeat(self.negative_scales[0])))
        per_row = len(self.negative_scales)
        return list(map(list, zip(*[iter(flat)] * per_row)))


_NEAR_ZERO = 16.0          # |mean / (sqrt(2) sd)| up to which _FastPath uses dist()


class _FastPath:
    """Per-class joint log-likelihoods of whole rows, by builtins (see above)."""

    def __init__(self, scorers, log_prior, width):
        self.log_prior = log_prior
        zeros = (0.0,) * len(log_prior)
        tables = [(j, s.fast_form("lookup")) for j, s in enumerate(scorers)]
        tables = [(j, t) for j, t in tables if t is not None]
        self.packed = _Packed.build([t for _, t in tables], log_prior) if tables else None
        packed = [j for j, _ in tables] if self.packed is not None else []
        in_packed = set(packed)
        normal = [(j, s.fast_form("quadratic")) for j, s in enumerate(scorers)
                  if j not in in_packed]
        normal = [(j, q) for j, q in normal if q is not None]
        self.pick_packed = _picker(packed, width)
        self.pick_normal = _picker([j for j, _ in normal], width)
        # Normal densities: per class, sum_j c_kj - ((x_j - mean_kj) * scale_kj)^2, with
        # the constants c_kj summed once here (and the log-prior too, when no packed
        # tables carry it).  When every |mean * scale| of a class is at most
        # _NEAR_ZERO, the squares come as math.dist(x * scale, mean * scale): one
        # builtin map instead of two.  Its error against (x - mean) * scale is below
        # 2 eps (z^2 + 2 _NEAR_ZERO |z|) for z = (x - mean) * scale: under 1e-14 + 3e-16 z^2
        # in the log density.  Means farther out (many deviations from 0) keep the
        # subtraction first.
        prior = log_prior if self.packed is None else zeros
        self.normal = []
        for k in range(len(log_prior) if normal else 0):
            means = tuple([q[k][1] for _, q in normal])
            scales = tuple([q[k][2] for _, q in normal])
            scaled = list(map(mul, means, scales))
            self.normal.append((prior[k] + sum([q[k][0] for _, q in normal]), means, scales,
                                scaled if max(map(abs, scaled)) <= _NEAR_ZERO else None))
        self.normal = self.normal or None
        taken = set(packed) | {j for j, _ in normal}
        others = [j for j, s in enumerate(scorers) if j not in taken and
                  not isinstance(s, _NoEvidence)]
        # a text feature's fast form (see _PackedWords) stands in for its scorer; when
        # it is the only feature that scores, it adds the prior and takes whole batches
        self.others = [scorers[j].fast_form("packed") or scorers[j] for j in others]
        self.pick_others = _picker(others, width)
        self.words = None
        if self.packed is None and self.normal is None and len(others) == 1 and \
                isinstance(self.others[0], _PackedWords):
            self.words = self.others[0].with_prior(log_prior)
            self.words_position = others[0]
        # Whole batches of rows of packed features need no Python-level loop at all;
        # batches of all-normal rows one loop, without the per-row checks of joint.
        self.only_packed = self.packed is not None and self.pick_packed is None
        self.only_normal = self.normal is not None and self.pick_normal is None

    def joint(self, row):
        """The joint log-likelihoods of one row in feature order, or None when the
        row needs the slow path."""
        try:
            if self.words is not None:
                return self.words.joint(row[self.words_position])
            if self.normal is not None:
                pick = self.pick_normal
                values = row if pick is None else pick(row)
                if not _FLOAT_INT.issuperset(map(type, values)):
                    return None                   # missing or odd values
                joint = []
                for constant, means, scales, scaled_means in self.normal:
                    # sum z^2 as hypot(*z)^2 or dist()^2: builtins, as exact as a sum
                    if scaled_means is None:
                        length = hypot(*map(mul, map(sub, values, means), scales))
                    else:
                        length = dist(list(map(mul, values, scales)), scaled_means)
                    joint.append(constant - length * length)
                if self.packed is not None:
                    pick = self.pick_packed
                    joint = list(map(add, self.packed.joint(row if pick is None
                                                            else pick(row)), joint))
            elif self.packed is not None:
                pick = self.pick_packed
                joint = self.packed.joint(row if pick is None else pick(row))
            else:
                joint = list(self.log_prior)
            if self.others:
                pick = self.pick_others
                vectors = map(getitem, self.others, row if pick is None else pick(row))
                joint = list(map(sum, zip(joint, *vectors)))
        except (TypeError, _BadValue, OverflowError):
            return None
        total = sum(joint)
        if total - total == 0:            # all finite: the ordinary case
            return joint
        return None                       # NaN (a missing value), or an infinity

    def joints(self, rows):
        """Joint log-likelihoods of many rows, or None to go row by row."""
        if self.words is not None:
            return self.words.joints(map(itemgetter(self.words_position), rows))
        if self.only_packed:
            try:
                return self.packed.joints(rows)
            except TypeError:             # an unhashable value: found row by row
                pass
        elif self.only_normal and _FLOAT_INT.issuperset(map(type, chain.from_iterable(rows))):
            return self.normal_joints(rows)
        return None

    def normal_joints(self, rows):
        """The joints of rows of floats and ints, every feature normal: joint's
        arithmetic, one loop; a row with an infinite or NaN joint is None (the slow
        path scores it)."""
        out = []
        append = out.append
        normal = self.normal
        for row in rows:
            joint = []
            for constant, means, scales, scaled_means in normal:
                if scaled_means is None:
                    length = hypot(*map(mul, map(sub, row, means), scales))
                else:
                    length = dist(list(map(mul, row, scales)), scaled_means)
                joint.append(constant - length * length)
            total = sum(joint)
            append(joint if total - total == 0 else None)
        return out


# The entries of a feature's explanation that the model writes; a scorer's details
# add others (a text's words, a bin's interval) but never replace these.
_EXPLAINED = frozenset(("feature", "value", "status", "log_likelihood"))


class _NaiveModel:
    """The compiled naive Bayes model: per feature a scorer (see _Scorer), and a fast
    path that adds them up for whole batches of rows (see _Packed).

    The fast path, per row: features with a lookup table are one dict lookup each in
    packed tables, added by one builtin sum(); Gaussian features are one or two
    builtin maps and one dist() or hypot() per class; a text feature's words are packed
    as the tables are (see _PackedWords), one lookup and one int addition per word;
    anything else (counts, a zero variance, alpha = 0) is one tuple per feature, added
    by map(sum, zip(...)).
    A row the fast path cannot take (a missing Gaussian value, a bad value, an
    infinity) is scored feature by feature in joint_checked, which also names what is
    wrong.
    """

    def __init__(self, statistics, params):
        classes = statistics.classes()
        names = statistics.names()
        self.classes = classes
        self.names = names
        self.width = len(names)
        self.zeros = (0.0,) * len(classes)
        self.log_prior = tuple(_log_prior(classes, statistics.class_count, params))
        if params.get("text_model") == "complement" and params["class_prior"] is None and \
                any(stats.name == "text" for stats in statistics.features.values()):
            # complement scores are no log-likelihoods: as scikit-learn's ComplementNB
            # (with 2 or more classes), no learned prior is added to them
            self.log_prior = self.zeros
        by_kind = defaultdict(list)
        for stats in statistics.features.values():
            by_kind[type(stats)].append(stats)
        shared = {kind: kind.shared(features, params, class_count=statistics.class_count)
                  for kind, features in by_kind.items()}
        self.scorers = scorers = [stats.compile(classes, params, shared[type(stats)])
                                  for stats in statistics.features.values()]
        self.kinds = list(map(type, statistics.features.values()))
        self.fast = _FastPath(scorers, self.log_prior, self.width)

    def positional(self, row):
        """The row as a sequence of values in feature order."""
        kind = type(row)
        if kind is list or kind is tuple:
            if len(row) != self.width:
                raise _RowError("has %d values, expected %d" % (len(row), self.width),
                                len(row))
            return row
        if kind is dict or isinstance(row, Mapping):
            return list(map(row.get, self.names))
        if isinstance(row, (str, bytes)) or not (hasattr(row, "__len__") and
                                                 hasattr(row, "__getitem__")):
            raise _RowError("is %s; expected a sequence or mapping of feature values"
                            % _describe(row))
        tolist = getattr(row, "tolist", None)          # NumPy rows: Python numbers
        return self.positional(tolist() if callable(tolist) else list(row))

    def joint(self, row):
        """Per-class joint log-likelihoods of one row in feature order."""
        joint = self.fast.joint(row)
        if joint is None:
            return self.joint_checked(row)
        return joint

    def joints(self, rows):
        """Joint log-likelihoods of many rows (lists or tuples in feature order)."""
        joints = self.fast.joints(rows)
        if joints is None:
            return list(map(self.joint, rows))
        if None in joints:                # rows the fast path left to the slow one
            joints = [self.joint_checked(row) if joint is None else joint
                      for joint, row in zip(joints, rows)]
        return joints

    def joint_checked(self, row):
        """The slow path: score feature by feature, naming any bad value."""
        vectors = [self.log_prior]
        for name, scorer, value in zip(self.names, self.scorers, row):
            try:
                vector = scorer[value]
                if -INF in vector:
                    vectors.extend(scorer.terms(value))    # each zero term counts
                else:
                    vectors.append(vector)
            except (_BadValue, TypeError) as error:
                raise _value_error(name, value, error) from None
        return _summed_joint(vectors, sum)

    def explain(self, row, extra=()):
        """The parts of one row's joint log-likelihood (see NaiveBayes.explain);
        ``extra`` are (name, value) pairs of features the model does not know."""
        classes = self.classes
        features = []
        for name, scorer, value in zip(self.names, self.scorers, row):
            try:
                status, vector, details = scorer.explain(value)
            except (_BadValue, TypeError) as error:
                raise _value_error(name, value, error) from None
            entry = {"feature": name, "value": value, "status": status,
                     "log_likelihood": dict(zip(classes, vector))}
            if details:                   # the scorer's own entries, whole
                entry.update((key, item) for key, item in details.items()
                             if key not in _EXPLAINED)
            features.append(entry)
        for name, value in extra:
            features.append({"feature": name, "value": value, "status": "ignored",
                             "log_likelihood": dict.fromkeys(classes, 0.0)})
        return {"prior": dict(zip(classes, self.log_prior)), "features": features}

    def informative(self):
        """Every feature's ranked values (or divergence), most informative first."""
        ranked = []
        for name, scorer in zip(self.names, self.scorers):
            ranked.extend(scorer.informative(name, self.classes))
        ranked.sort(key=lambda item: -item[2])
        return ranked

    def tables(self):
        """{feature name: table} (see _Scorer.table), named by the features' kinds."""
        return {name: kind.table(scorer.table(self.classes))
                for name, scorer, kind in zip(self.names, self.scorers, self.kinds)}
