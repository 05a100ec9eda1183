# ----------------------------------------------------------------------------------
# Numeric helpers
# ----------------------------------------------------------------------------------

INF = float("inf")
_FLOAT_MAX = sys.float_info.max
_FLOAT_MAX_EXACT = int(_FLOAT_MAX)       # for comparisons with exact counts
_FLOAT_INT = frozenset((float, int))
_FLOAT = frozenset((float,))
_FLOAT_NONE = frozenset((float, type(None)))
_PLAIN_REALS = frozenset((float, int, type(None)))
_INT = frozenset((int,))
_STR = frozenset((str,))
_LOG_2 = log(2.0)
_LOG_2PI = log(2.0 * math.pi)


def _log(x):
    """Natural log that maps 0 to -inf instead of raising."""
    return log(x) if x > 0 else -INF


# The log of a probability too small for a float (it rounded to 0): a count near
# 1e300 beside counts of 1 makes hierarchical estimates of about 1e-400
_LOG_SMALLEST = log(5e-324)


def _logs(values):
    """[log v for v in values] (an iterable of probabilities), each that rounded to 0
    (or below: a leave-one-out count's rounding beside huge weights) as _LOG_SMALLEST
    rather than an error; NaN stays NaN."""
    values = list(values)
    try:
        return list(map(log, values))
    except ValueError:
        return [_LOG_SMALLEST if v <= 0 else log(v) for v in values]


def _ratio(numerator, denominator):
    """numerator / denominator exactly: an int when it divides, else a Fraction."""
    if numerator % denominator == 0:
        return numerator // denominator
    from fractions import Fraction
    return Fraction(numerator, denominator)


def _common_denominator(numbers):
    """The least common denominator of exact weights (ints, Fractions or floats; 1
    for ints alone)."""
    from fractions import Fraction
    unit = 1
    for number in numbers:
        if type(number) is not int:
            d = Fraction(number).denominator
            unit = unit * d // math.gcd(unit, d)
    return unit


def _scaled_integers(xs):
    """Return (ints, shift) with xs[i] == ints[i] / 2**shift exactly; xs are floats.

    Every float is an integer times a power of two, and the smallest nonzero magnitude
    has the finest power, so one shift turns the whole column into integers.  None when
    the column spans too many binades for one float shift (an exact slow path follows).
    A NaN or an infinity makes int() raise, so callers need not look for them first.
    """
    smallest = min(map(abs, xs))
    if not smallest:
        smallest = min(filter(None, map(abs, xs)), default=0.0)
        if not smallest:
            return [0] * len(xs), 0
    shift = max(0, 53 - frexp(smallest)[1])
    try:
        return list(map(int, map(ldexp, xs, repeat(shift)))), shift
    except OverflowError:                 # too many binades apart, or an infinity
        if all(map(isfinite, xs)):
            return None
        raise


# Exact sums of floats are dyadic rationals: m / 2**k for integers m and k >= 0.  As
# (m, k) pairs they add with a shift and an integer addition (no gcd, unlike Fraction).

def _dyadic(number, k=0):
    """An exact int or dyadic Fraction, divided by 2**k, as a pair (m, k)."""
    if type(number) is int:
        return number, k
    return number.numerator, k + number.denominator.bit_length() - 1


def _dyadic_sum(a, b):
    """a + b for (m, k) pairs."""
    (m, k), (n, j) = a, b
    if k == j:
        return m + n, k
    if k < j:
        return (m << (j - k)) + n, j
    return m + (n << (k - j)), k


def _fraction(pair):
    """An (m, k) pair as an exact number (an int when k is 0, else a Fraction)."""
    if not pair[1]:
        return pair[0]
    from fractions import Fraction
    return Fraction(pair[0], 1 << pair[1])


class _Weights(list):
    """Row weights as the caller gave them (ints or floats, finite and > 0): the true
    weights every feature kind sees.  ``scaled`` holds the same weights as (integers,
    shift), integers[i] / 2**shift exactly, so that the library's distributions sum
    them exactly by integer arithmetic without converting them again."""

    __slots__ = ("scaled",)

    def subset(self, keep):
        """The weights where keep (a list of bools) is true, scaled form included."""
        integers, shift = self.scaled
        subset = _Weights(compress(self, keep))
        subset.scaled = list(compress(integers, keep)), shift
        return subset

    def part(self, start, stop):
        """The weights of rows start..stop - 1."""
        integers, shift = self.scaled
        part = _Weights(self[start:stop])
        part.scaled = integers[start:stop], shift
        return part


def _weight_integers(weights):
    """(integers, shift) with weights[i] == integers[i] / 2**shift exactly, for
    weights that are ints, floats or Fractions with power-of-2 denominators (every
    float is one); None for a Fraction with any other denominator."""
    scaled = getattr(weights, "scaled", None)
    if scaled is not None:
        return scaled
    types = set(map(type, weights))
    if types <= _INT:
        return list(weights), 0
    if types <= _FLOAT_INT:
        floats = list(map(float, weights))
        if all(map(float.is_integer, floats)):
            return list(map(int, floats)), 0
        scaled = _scaled_integers(floats)
        if scaled is not None:
            return scaled
        from fractions import Fraction
        weights = list(map(Fraction, floats))          # spanning > 900 binades
    fractions = [w for w in weights if type(w) is not int and type(w) is not float]
    if any(w.denominator & (w.denominator - 1) for w in fractions):
        return None                       # a denominator that is not a power of 2
    shift = max([w.denominator.bit_length() - 1 for w in fractions], default=0)
    integers = []
    for w in weights:
        if type(w) is float:
            w = _ratio(*w.as_integer_ratio())
        integers.append(w << shift if type(w) is int else
                        w.numerator << (shift - w.denominator.bit_length() + 1))
    return integers, shift


def _exact_sums(xs, weights=None):
    """Return (sum w, sum w*x, sum w*x*x) over finite floats xs, exactly: the count
    an int or Fraction, the sums (m, k) pairs meaning m / 2**k.

    Exact sums make the statistics independent of the order of the rows, of how they
    were split into batches, and of merging: fit, partial_fit and merge agree bit for
    bit.  They are also the stable way to a variance (no cancellation in sum x^2 -
    (sum x)^2 / n), for any count and any spread of means.  ``weights``: None for
    weight 1, or exact weights (see _weight_integers).
    A NaN or an infinity among xs raises ValueError or OverflowError.
    """
    if weights is None and len(xs) <= 4:  # a few values (partial_fit row by row)
        s1 = s2 = (0, 0)
        for x in xs:
            m, d = x.as_integer_ratio()   # ValueError or OverflowError for NaN or inf
            k = d.bit_length() - 1
            s1 = _dyadic_sum(s1, (m, k))
            s2 = _dyadic_sum(s2, (m * m, 2 * k))
        return len(xs), s1, s2
    scaled = _scaled_integers(xs)
    if scaled is None:                    # values more than 1024 binades apart
        from fractions import Fraction
        ints, shift = list(map(Fraction, xs)), 0
    else:
        ints, shift = scaled
    if weights is None:
        n = len(ints)
        s1 = _dyadic(sum(ints), shift)
        s2 = _dyadic(sum(map(mul, ints, ints)), 2 * shift)
    else:
        scaled_weights = _weight_integers(weights)
        if scaled_weights is None:        # weights of any denominator: as Fractions
            from fractions import Fraction
            weights = list(map(Fraction, weights))
            n = sum(weights)
            weighted = list(map(mul, weights, ints))
            scale = Fraction(1, 1 << shift)
            return n, sum(weighted) * scale, sum(map(mul, weighted, ints)) * scale * scale
        weights, weight_shift = scaled_weights
        n = _ratio(sum(weights), 1 << weight_shift)
        weighted = list(map(mul, weights, ints))
        s1 = _dyadic(sum(weighted), shift + weight_shift)
        s2 = _dyadic(sum(map(mul, weighted, ints)), 2 * shift + weight_shift)
    return n, s1, s2


def _exact_moments(xs, weights=None):
    """(sum w, sum w x, sum w x^2) over finite floats xs as exact numbers: the count an
    int or Fraction, the sums Fractions (see _exact_sums; weights of any denominator)."""
    from fractions import Fraction
    if not xs:
        return sum(weights or ()), Fraction(0), Fraction(0)
    n, s1, s2 = _exact_sums(xs, weights)
    return n, Fraction(_fraction(s1) if type(s1) is tuple else s1), \
        Fraction(_fraction(s2) if type(s2) is tuple else s2)


def _dyadic_text(pair):
    """An (m, k) pair as the model file writes an exact number: an int, or "p/q" in
    lowest terms (q a power of 2)."""
    m, k = pair
    if k and m:
        k -= min(k, (m & -m).bit_length() - 1)      # drop common factors of 2
        m = pair[0] >> (pair[1] - k)
    if not k or not m:
        return m
    return "%d/%d" % (m, 1 << k)


def _quotient(a, b):
    """a / b for ints, b > 0, correctly rounded; +-inf beyond the float range."""
    try:
        return a / b
    except OverflowError:
        return INF if a > 0 else -INF


def _float(x):
    """An exact number as a float: +-inf when it is too large for one."""
    try:
        return float(x)
    except OverflowError:
        return INF if x > 0 else -INF


def _plain(count):
    """A count as an int when integral, else a float (inf beyond the float range)."""
    if type(count) is int:
        return count
    return int(count) if count == int(count) else _float(count)


def _number(x):
    """x as a float if it is a real number other than bool, else None; an int too
    large for a float becomes +-inf (and is then rejected as not finite)."""
    if type(x) is float:
        return x
    from numbers import Real
    if isinstance(x, Real) and not isinstance(x, bool):
        try:
            return float(x)
        except (OverflowError, ValueError, TypeError):
            try:
                return INF if x > 0 else -INF
            except Exception:             # an odd Real whose comparisons fail
                return None
    return None


def _finite_or_missing(x):
    """A value of a numeric feature as a finite float, or None when it is missing
    (None, NaN of any type, pandas.NA); _BadValue for anything else."""
    if type(x) is not float:
        if _is_missing(x):
            return None
        number = _number(x)
        if number is None:
            raise _BadValue(x, "a real number")
        x = number
    if x != x:
        return None
    if not isfinite(x):
        raise _BadValue(x, "a finite number")
    return x


def _log_exact(x):
    """Natural log of an exact non-negative number (int, Fraction, float), -inf at 0.
    Correctly rounded through float when x fits one; from numerator and denominator
    when it does not, so no count or variance is ever too large or too small."""
    if x <= 0:
        return -INF
    f = _float(x)
    if 1e-300 < f < INF:
        return log(f)
    if type(x) is int:
        return log(x)                     # math.log takes ints of any size
    return log(x.numerator) - log(x.denominator)


def _log_plus(count, alpha):
    """log(count + alpha) for an exact count and a float (or exact) alpha, without
    overflow."""
    try:
        total = float(count) + alpha
    except OverflowError:
        total = INF
    if total < INF:
        return log(total) if total > 0 else -INF
    from fractions import Fraction
    return _log_exact(Fraction(count) + Fraction(alpha))


def _is_missing(value):
    """True for the spellings of a missing value: None, any NaN (float, NumPy,
    Decimal: the one value not equal to itself) and pandas.NA."""
    if value is None:
        return True
    kind = type(value)
    if kind is str or kind is int:
        return False
    if kind.__name__ == "NAType":         # pandas.NA, whose comparisons are NA
        return True
    try:
        return bool(value != value)
    except Exception:                     # an odd __ne__: not a missing value
        return False


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _sorted_if_orderable(items):
    """items sorted when they are mutually orderable, else in the order given."""
    items = list(items)
    try:
        return sorted(items)
    except Exception:                     # TypeError, or an odd __lt__ (Decimal NaN)
        return items


def _round_to_digits(digits):
    """A function rounding floats to ``digits`` significant decimal digits (None:
    none), deterministic, so that counts of rounded values still merge exactly."""
    if digits is None:
        return None
    form = "%%.%dg" % digits
    return lambda x: float(form % x)


_CANONICAL_RANKS = {bool: 0, int: 1, float: 1, str: 2, bytes: 3, tuple: 4}


def _canonical(value):
    """A sort key that orders values of any mix of types the same way every time:
    by kind (booleans, numbers, strings, bytes, tuples, then anything else by its
    type's name), then by value.  The model file writes values in this order, so
    that the same statistics give the same bytes however the rows arrived."""
    kind = type(value)
    rank = _CANONICAL_RANKS.get(kind)
    if rank == 4:
        return 4, tuple(map(_canonical, value))
    if rank is not None:
        return rank, value
    from numbers import Number
    if isinstance(value, Number) and not isinstance(value, complex):
        return 1, value                   # Fraction, Decimal: among the numbers
    return 5, kind.__module__ + "." + kind.__qualname__, _shown(value, 200)


def _canonical_value(value):
    """_canonical, with every missing value (None, NaN) first and equal to each other."""
    return (-1,) if _is_missing(value) else _canonical(value)


def _canonical_row(row):
    """A sort key of a row (a sequence, or a mapping by its items' keys)."""
    if isinstance(row, Mapping):
        return (1,) + tuple(sorted((_canonical_value(key), _canonical_value(value))
                                   for key, value in row.items()))
    return (0,) + tuple(map(_canonical_value, row))


def _stratified_sample(labels, size, seed):
    """The positions, in increasing order, of ``size`` of the labels: each class's
    share of them in proportion to its rows (the largest remainders rounded up, the
    earlier class first among equal ones), its rows picked by a seeded shuffle."""
    import random
    rng = random.Random(seed)
    by_class = defaultdict(list)
    for i, label in enumerate(labels):
        by_class[label].append(i)
    classes = _sorted_if_orderable(by_class)
    quotas = {label: len(by_class[label]) * size // len(labels) for label in classes}
    remainders = sorted(classes, key=lambda label: -(len(by_class[label]) * size
                                                     % len(labels)))
    for label in remainders[:size - sum(quotas.values())]:
        quotas[label] += 1
    kept = []
    for label in classes:
        members = by_class[label]
        rng.shuffle(members)
        kept.extend(members[:quotas[label]])
    return sorted(kept)


def _stratified_folds(labels, folds, seed):
    """Fold number of each row: every class dealt round-robin over the folds after a
    seeded shuffle, so each fold holds about 1/folds of every class."""
    import random
    rng = random.Random(seed)
    by_class = defaultdict(list)
    for i, label in enumerate(labels):
        by_class[label].append(i)
    assignment = [0] * len(labels)
    position = 0
    for label in _sorted_if_orderable(by_class):
        members = by_class[label]
        rng.shuffle(members)
        for i in members:
            assignment[i] = position % folds
            position += 1
    return assignment


def _shown(value, limit=60):
    """repr(value) for a message, cut to limit characters (never raises)."""
    try:
        text = repr(value)
    except Exception:                     # an odd __repr__, or an int of 5,000 digits
        return "<unprintable>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _article(word):
    """'an' before a word that starts with a vowel letter (AODE), else 'a'."""
    return "an" if word[:1].upper() in "AEIOU" else "a"


def _describe(value):
    """A value for an error message: its type and its (cut) repr, on one line."""
    return "%s %s" % (type(value).__name__, _shown(value))


def _one_line(error):
    """An error message on one line (a column name may hold a newline)."""
    return " ".join(str(error).splitlines()) or type(error).__name__


def _quote(text):
    """A value as it would be typed on a shell command line."""
    import shlex
    return shlex.quote(str(text))


def _width(text):
    """Terminal columns a string takes: East Asian wide characters take two."""
    import unicodedata
    text = str(text)
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _left(text, width):
    """str(text) padded on the right to width terminal columns."""
    return str(text) + " " * (width - _width(text))


def _right(text, width):
    return " " * (width - _width(text)) + str(text)


def _clip(value, width=30):
    """A value for a one-line label: newlines folded, text cut to ``width`` terminal
    columns."""
    text = " ".join(str(value).split())
    if _width(text) <= width:
        return text
    kept, used = [], 0
    for character in text:
        used += _width(character)
        if used > width - 3:
            break
        kept.append(character)
    return "".join(kept) + "..."


def _counted(n, thing):
    """'1 cell', '2 cells'."""
    return "%s %s%s" % (format(n, ","), thing, "" if n == 1 else "s")


class _BadValue(Exception):
    """Raised inside counting and scoring; the caller adds the call, row and feature."""

    def __init__(self, value, expected):
        super().__init__(value, expected)
        self.value = value
        self.expected = expected


class _RowError(Exception):
    """A problem with one row; the caller adds the call and the row number (and, for
    a row of the wrong width, ``width``: its number of values)."""

    def __init__(self, reason, width=None):
        super().__init__(reason)
        self.width = width


def _value_error(name, value, error):
    """The _RowError of feature ``name``'s ``value``, which a scorer or a compiled
    model refused: ``error`` is its _BadValue (the value as read and what was
    expected) or the TypeError of a value that is not hashable."""
    if isinstance(error, _BadValue):
        return _RowError(", feature %r is %s; expected %s"
                         % (name, _shown(error.value), error.expected))
    return _RowError(", feature %r is %s; expected a hashable value"
                     % (name, _describe(value)))


# Long work (cross-validation's folds, a structure search's steps, a model file's
# items, fit's rows) says how far it is through _progress.  A call with progress=
# (fit, evaluate, cross_validate; see _Listening) and the command line (_Progress)
# listen while they run.  The listener is the calling thread's own, so that work in
# another thread neither reports to it nor replaces it; nobody listens otherwise, and
# then a report costs an attribute lookup: the library itself never prints.
try:
    from _thread import _local as _ThreadLocal    # threading.local, without its import
except ImportError:                                # pragma: no cover
    from threading import local as _ThreadLocal


class _ProgressHere(_ThreadLocal):
    listener = None                   # this thread's: listener(stage, done, total)


_progress_here = _ProgressHere()


def _progress(stage, done=None, total=None):
    """Report that long work is at step ``done`` (of ``total``) of ``stage``, a
    phrase such as "fold" (stages reported after it are parts of its previous step);
    without ``done``, that the stage is over."""
    listener = _progress_here.listener
    if listener is not None:
        listener(stage, done, total)


class ProgressStep(namedtuple("ProgressStep", "name done total outer")):
    """One step of long work, as a ``progress=`` callable receives it: ``name`` the
    stage ("cross-validation fold"), ``done`` its step (counted from 1; for rows, the
    rows done so far), ``total`` the number of steps (None when not known), ``outer``
    the steps this one is part of, outermost first (ProgressSteps themselves, with
    their own outer steps).  str(step) is the line that progress=True shows, the
    outer steps first, each with its counter.

    >>> fold = ProgressStep("cross-validation fold", 3, 10, ())
    >>> str(ProgressStep("choosing the weights, fold", 1, 5, (fold,)))
    'cross-validation fold 3/10 · choosing the weights, fold 1/5'
    >>> str(ProgressStep("counting rows", 20000, None, ()))
    'counting rows 20,000'
    """

    __slots__ = ()

    def __str__(self):
        return " · ".join(map(_step_text, self.outer + (self,)))


def _step_text(step):
    """One step without its outer ones: "fold 3/10", "rows 20,000"."""
    if step.done is None:
        return step.name
    if step.total is None:
        return "%s %s" % (step.name, format(step.done, ","))
    return "%s %s/%s" % (step.name, format(step.done, ","), format(step.total, ","))


class _Steps:
    """A listener of _progress that gives ``sink`` each report as a ProgressStep
    with its outer steps: a stage's step drops the stages reported since that
    stage (the parts of its previous step), and a stage without a step is over, as
    are its parts.  The one place that nests the library's reports."""

    def __init__(self, sink):
        self.sink = sink
        self.stages = {}                  # stage -> (done, total), outermost first

    def __call__(self, stage, done, total):
        stages = self.stages
        if stage in stages:
            names = list(stages)
            for name in names[names.index(stage) + (done is not None):]:
                del stages[name]
        if done is None:                  # the stage is over
            return
        stages[stage] = done, total
        outer = ()
        for name, (step, steps) in stages.items():
            if name == stage:
                break
            outer += (ProgressStep(name, step, steps, outer),)
        self.sink(ProgressStep(stage, done, total, outer))


class _ProgressLine:
    """Text shown on stderr as progress: on a terminal one line rewritten in place
    (a carriage return, the text cut to 79 columns, spaces over a longer previous
    text); elsewhere (a file, a pipe) one line per text."""

    def __init__(self):
        self.stream = sys.stderr
        self.terminal = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.shown = 0                    # the width of the line on the terminal

    def show(self, text):
        text = _clip(text, 79)
        if self.terminal:
            self.stream.write("\r%s%s" % (text, " " * (self.shown - _width(text))))
            self.shown = max(_width(text), 1)     # (1: a "\r" was written)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def end(self):
        """End the line on the terminal (before anything else is printed)."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = 0


class _Listening:
    """``with _Listening(progress, call):`` the work inside reports to ``progress``
    (a public call's argument): False, nothing (an outer listener, such as the
    command line's, still hears it); True, each step on stderr (see _ProgressLine);
    a callable, called with each ProgressStep.  The thread's previous listener is
    back afterwards, whether the work succeeded or raised.  Anything else is a
    NaiveBayesError naming progress, raised on construction, before any work."""

    def __init__(self, progress, call):
        self.line = None
        if progress is False:
            self.listener = None
        elif progress is True:
            self.line = _ProgressLine()
            self.listener = _Steps(lambda step: self.line.show(str(step)))
        elif callable(progress):
            self.listener = _Steps(progress)
        else:
            raise NaiveBayesError("%s: progress=%s; expected True (steps shown on stderr), "
                                  "False or a callable (given each ProgressStep)"
                                  % (call, _shown(progress)), call=call,
                                  argument="progress")
        self.previous = None

    def __enter__(self):
        if self.listener is not None:
            self.previous = _progress_here.listener
            _progress_here.listener = self.listener
        return self

    def __exit__(self, *exception):
        if self.listener is not None:
            _progress_here.listener = self.previous
            self.previous = None
        if self.line is not None:
            self.line.end()


_QUIET = _Listening(False, "")            # progress=False: shared, as it holds nothing


def _listening(progress, call):
    """The _Listening of a call's ``progress`` (_QUIET, the default, costs no object)."""
    return _QUIET if progress is False else _Listening(progress, call)
