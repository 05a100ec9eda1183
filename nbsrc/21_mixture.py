# -- AutoBayes: the family's models mixed, weighted by cross-validation ---------------
#
# A linear pool: P(c | x) = sum over members m of w_m P_m(c | x), the members being
# models of the families above (by default WAODE, AODE with m-estimates, both on
# imputed values, and a Bayesian network of at most 2 parents), each fitted on all
# the rows, and the weights chosen by the training data only: each member's
# out-of-fold probabilities of the true class in an internal stratified
# cross-validation, then the weights that maximise their mixture's log-likelihood
# (EM, with a Dirichlet prior of a few pseudo-rows per member, so that small data
# sets keep nearly equal weights).  A linear pool of calibrated members is calibrated
# itself and cannot be worse, in log loss, than the best fixed mixture of them on the
# rows it was chosen on; it beat every single member on the 15 Weka data sets
# (README, "Accuracy").

class _MixtureStatistics:
    """The statistics of AutoBayes: one statistics object per family of its members
    (two AODE members share one set of AODE counts), all counting the same rows, and
    the mixture's weights and their evaluation, chosen when it was fitted."""

    file_fields = ("members", "mixture")
    __slots__ = ("parts", "weights", "evaluation", "temperature")

    def __init__(self, families=()):
        self.parts = {family: _MODELS[family]._statistics_class() for family in families}
        self.weights = {}                 # member name -> weight (empty: equal weights)
        self.evaluation = {}              # member name or "mixture" -> [log loss, accuracy, rows]
        self.temperature = 1.0            # the mixture's probabilities to the power 1 / T

    @property
    def primary(self):
        """The first family's statistics: classes, features and layout are the same in
        every part."""
        return next(iter(self.parts.values()))

    @property
    def class_count(self):
        """The weighted number of rows per class (the parts agree)."""
        return self.primary.class_count

    @class_count.setter
    def class_count(self, counts):
        for statistics in self.parts.values():
            statistics.class_count = dict(counts)

    @property
    def layout(self):
        """The rows' shape ("sequence" or "mapping")."""
        return self.primary.layout

    @layout.setter
    def layout(self, layout):
        for statistics in self.parts.values():
            statistics.layout = layout

    @property
    def features(self):
        """{name: feature} of the first part (every part has the same features)."""
        return self.primary.features

    def classes(self):
        """The labels, as the parts order them."""
        return self.primary.classes()

    def names(self):
        """The feature names."""
        return self.primary.names()

    def kinds(self):
        """{name: kind}."""
        return self.primary.kinds()

    def summary(self, params):
        """The features' one-line descriptions."""
        return self.primary.summary(params)

    def class_statistics(self, params):
        """What each feature says of each class (the first part's)."""
        return self.primary.class_statistics(params)

    def count(self, rows, labels, weights, start, fitting):
        """Count a chunk of rows into every part."""
        for statistics in self.parts.values():
            result = statistics.count(rows, labels, weights, start, fitting)
        return result

    def arrange(self, order, current=None):
        """Every part's features put in ``order`` (see _NaiveStatistics.arrange)."""
        for statistics in self.parts.values():
            statistics.arrange(order, current)

    def declare_classes(self, classes):
        """Every part knows every declared class (and a network its order)."""
        for statistics in self.parts.values():
            for label in classes:
                statistics.class_count.setdefault(label, 0)
            if hasattr(statistics, "declare_classes"):
                statistics.declare_classes(classes)

    def _twin(self, parts):
        twin = type(self)()
        twin.parts = parts
        twin.weights = dict(self.weights)
        twin.evaluation = {name: list(v) for name, v in self.evaluation.items()}
        twin.temperature = self.temperature
        return twin

    def skeleton(self):
        """Empty parts with the same features, and the same weights."""
        return self._twin({family: s.skeleton() for family, s in self.parts.items()})

    def copy(self):
        """An equal, independent copy."""
        return self._twin({family: s.copy() for family, s in self.parts.items()})

    def conflicts(self, other):
        """What keeps two AutoBayes models apart: their parts' conflicts."""
        if set(self.parts) != set(other.parts):
            return ["their members come from different families (%s and %s)"
                    % (", ".join(self.parts), ", ".join(other.parts))]
        found = []
        for family, statistics in self.parts.items():
            found.extend(statistics.conflicts(other.parts[family]))
        return list(dict.fromkeys(found))

    def absorb(self, other):
        """Add other's counts to every part.  The weights were chosen from each one's
        rows: the merged ones are the two weighted by the models' numbers of rows
        (fit again to choose them from all the rows)."""
        from fractions import Fraction
        # exact: the weights and 1 / T averaged as fractions, so that merges in any
        # order and grouping give the same model ((a + b) + c == a + (b + c)); the
        # model file keeps them as the nearest floats
        mine = Fraction(sum(self.class_count.values()))
        theirs = Fraction(sum(other.class_count.values()))
        total = mine + theirs
        for family, statistics in self.parts.items():
            statistics.absorb(other.parts[family])
        if self.weights != other.weights and (self.weights or other.weights):
            names = list(dict.fromkeys(list(self.weights) + list(other.weights)))
            self.weights = {name: (Fraction(self.weights.get(name, 0)) * mine +
                                   Fraction(other.weights.get(name, 0)) * theirs) / total
                            if total else 0.0 for name in names}
            self.evaluation = {}
        if self.temperature != other.temperature:     # 1 / T averaged likewise
            self.temperature = total / (mine / Fraction(self.temperature) + theirs /
                                        Fraction(other.temperature)) if total else 1.0
            self.evaluation = {}
        return self

    def deficit(self, other):
        """What other holds beyond every part's statistics (None: nothing)."""
        for family, statistics in self.parts.items():
            problem = statistics.deficit(other.parts[family])
            if problem is not None:
                return problem
        return None

    def subtract(self, other, fitting):
        """Remove other's rows from every part (forget; the weights stay)."""
        for family, statistics in self.parts.items():
            statistics.subtract(other.parts[family], fitting)

    def compile(self, params):
        """The compiled mixture."""
        return _MixtureModel(self, params)

    def to_file(self, classes):
        """The model file's "members" (each family's fields) and "mixture" fields."""
        members = []
        for family, statistics in self.parts.items():
            item = {"family": family}
            item.update(statistics.to_file(classes))
            members.append(item)
        return {"members": members, "mixture": {
            "weights": [[name, float(w)] for name, w in self.weights.items()],
            "evaluation": [[name] + list(v) for name, v in self.evaluation.items()],
            "temperature": float(self.temperature)}}

    @classmethod
    def from_file(cls, data, classes, class_count):
        """AutoBayes' statistics from a model file, validated."""
        statistics = cls()
        members = _field(data, "members")
        _expect(type(members) in (list, _LazyItems), "members", members, "a list")
        for n, item in enumerate(members):
            where = "members[%d]" % n
            _expect(type(item) is dict, where, item, "a JSON object")
            family = item.get("family")
            _expect(family in ("NaiveBayes", "AODE", "TAN", "BayesNet") and
                    family not in statistics.parts, where + ".family", family,
                    '"NaiveBayes", "AODE", "TAN" or "BayesNet", each once')
            part_class = _MODELS[family]._statistics_class
            extra = set(item) - {"family"} - set(part_class.file_fields) - set(
                getattr(part_class, "optional_file_fields", ()))
            if extra:
                raise _Invalid("%s has field %r, which a %s part does not have"
                               % (where, sorted(extra)[0], family))
            try:
                statistics.parts[family] = part_class.from_file(item, classes, class_count)
            except _Invalid as error:
                raise _Invalid("%s: %s" % (where, error)) from None
        if not statistics.parts:
            raise _Invalid("members is empty; expected one entry per family of the members")
        statistics.check_parts(classes)
        mixture = _field(data, "mixture")
        _expect(type(mixture) is dict and set(mixture) - {"temperature"} ==
                {"weights", "evaluation"}, "mixture", mixture,
                '{"weights": [...], "evaluation": [...], "temperature": T}')
        statistics.temperature = _file_temperature(mixture.get("temperature", 1.0))
        statistics.weights = _file_mixture_weights(mixture["weights"])
        statistics.evaluation = _file_evaluation(mixture["evaluation"])
        return statistics

    def check_parts(self, classes):
        """_Invalid unless every part holds the same features (they all count the same
        rows; the first part's are the ones the summary shows)."""
        first = None
        for n, (family, statistics) in enumerate(self.parts.items()):
            features = _NaiveStatistics.to_file(statistics, classes)
            if first is None:
                first = features
            elif features != first:
                raise _Invalid("members[%d] (%s) holds other features than members[0]; "
                               "expected the same features in every part (they count the "
                               "same rows)" % (n, family))

    def check_file_params(self, params):
        """_Invalid unless every member that params.members names can be compiled from
        the parts the file holds (a network's rows serve any member; a member of
        another family needs a part of its own)."""
        rows = any(isinstance(statistics, _NetworkStatistics)
                   for statistics in self.parts.values())
        for name in params["members"]:
            family = _AUTO_MEMBERS[name][0].__name__
            if family not in self.parts and not rows:
                raise _Invalid("params.members names %r, but members holds no %s part nor "
                               "a network's rows to compile it from; expected the "
                               "statistics of every member" % (name, family))

    def extra_summary(self):
        """The weights and their evaluation."""
        return {}

    def memory_estimate(self, params=None):
        """(bytes, what) of every part's growing counts together (the AODE members'
        pairwise counts of bins are estimated as they are counted: _member_model)."""
        parts = [statistics.memory_estimate(params) for statistics in self.parts.values()
                 if hasattr(statistics, "memory_estimate")]
        return sum(size for size, _ in parts), " and ".join(what for _, what in parts)


def _members_joints(models, rows):
    """[each compiled model's joints(rows)], the same numbers: AODE models that read
    rows into the same keys (twins: see _AODEModel.twin) read each row once and share
    its parents' sums of terms, row by row; the others by their own joints, in
    order (so that a bad row raises what the first model to read it raises)."""
    per_member = [None] * len(models)
    for n, compiled in enumerate(models):
        if per_member[n] is not None:
            continue
        if not isinstance(compiled, _AODEModel):
            per_member[n] = compiled.joints(rows)
            continue
        group = [m for m in range(n, len(models)) if per_member[m] is None and
                 compiled.reads_keys_as(models[m])]
        columns = [[] for _ in group]
        for row in rows:
            keys = compiled.row_keys(row)
            sums = {} if len(group) > 1 else None
            for column, m in zip(columns, group):
                column.append(models[m].joint_of_keys(keys, sums))
        for column, m in zip(columns, group):
            per_member[m] = column
    return per_member


class _MixtureModel:
    """The compiled AutoBayes: every member with a weight compiled, and
    log P(c | x) = log sum_m w_m P_m(c | x) as the joint log-likelihood (the mixture's
    posterior: the classes' scores differ from a joint by one constant per row)."""

    def __init__(self, statistics, params):
        self.classes = statistics.classes()
        self.names = statistics.names()
        self.width = len(self.names)
        self.k = len(self.classes)
        members = params["members"]
        weights = _mixture_weights(members, statistics.weights, params["weights"])
        shared = {}
        self.members = []
        held = params                     # the members compiled so far are in use
        for name in members:
            if weights[name] < 1e-3:      # a member that the mixture does not need
                continue
            compiled = _member_model(statistics, name, held, shared)
            held = _in_use(held, getattr(compiled, "memory", 0))
            self.members.append((name, weights[name], compiled))
        total = sum(w for _, w, _ in self.members)
        self.members = [(name, w / total, compiled) for name, w, compiled in self.members]
        self.evaluation = statistics.evaluation
        self.temperature = float(statistics.temperature)    # exact after a merge
        self.positional = self.members[0][2].positional

    def _mixed(self, per_member):
        """log sum_m w_m P_m(c | x) of one row, from each member's joint, over T."""
        mixed = [0.0] * self.k
        for (_, weight, _), joint in zip(self.members, per_member):
            for c, p in enumerate(_posterior(joint)):
                mixed[c] += weight * p
        return [_log(p) / self.temperature for p in mixed]

    def joint(self, row):
        """The mixture's log posterior of one row."""
        return self._mixed([compiled.joint(row) for _, _, compiled in self.members])

    def joints(self, rows):
        """The mixture's log posteriors of many rows."""
        per_member = _members_joints([compiled for _, _, compiled in self.members], rows)
        columns = [_posteriors(joints) for joints in per_member]
        out = []
        for n in range(len(rows)):
            mixed = [0.0] * self.k
            for (_, weight, _), probabilities in zip(self.members, columns):
                for c, p in enumerate(probabilities[n]):
                    mixed[c] += weight * p
            out.append([_log(p) / self.temperature for p in mixed])
        return out

    def leader(self):
        """The member of the largest weight."""
        return max(self.members, key=lambda member: member[1])[2]

    def explain(self, row, extra=()):
        """The leading member's explanation, its prior made the rest of the mixture's
        log posterior (so that prior + features = joint), with every member's weight
        and probabilities under "members"."""
        parts = self.leader().explain(row, extra)
        joint = self.joint(row)
        features = parts["features"]
        parts["prior"] = {label: joint[c] - sum(f["log_likelihood"][label]
                                                for f in features)
                          if joint[c] > -INF else -INF
                          for c, label in enumerate(self.classes)}
        parts["members"] = [{"member": name, "weight": weight, "probability": dict(zip(
            self.classes, _posterior(compiled.joint(row))))}
            for name, weight, compiled in self.members]
        return parts

    def informative(self):
        """The leading member's ranking."""
        return self.leader().informative()

    def tables(self):
        """The leading member's tables."""
        return self.leader().tables()

    def naive_tables(self):
        """The leading member's naive-Bayes view of each feature (the pictures')."""
        leader = self.leader()
        naive = getattr(leader, "naive_tables", None)
        return naive() if naive is not None else leader.tables()

    def summary_items(self):
        """{"members": [[name, weight, out-of-fold log loss, accuracy]], "choice": a
        sentence}, and the leading member's structure when it has one."""
        rows = [[name, weight] + list(self.evaluation.get(name, [None, None])[:2])
                for name, weight, _ in self.members]
        items = {"members": rows, "choice": _mixture_sentence(rows, self.evaluation,
                                                              self.temperature),
                 "temperature": self.temperature}
        leader = self.leader()
        if hasattr(leader, "summary_items"):
            items.update(leader.summary_items())
        return items


def _file_temperature(value):
    """mixture.temperature of a model file: a number within _TEMPERATURES, the range
    fit chooses T in (a merge's T lies between its models')."""
    low, high = _TEMPERATURES
    _expect(type(value) in (int, float) and type(value) is not bool and
            low <= value <= high, "mixture.temperature", value,
            "a number between %s and %s" % (low, high))
    return float(value)


def _file_mixture_weights(value):
    """mixture.weights of a model file: {member: weight} from [[member name, weight],
    ...], the names distinct among AutoBayes' members, each weight in [0, 1] and their
    sum at most 1 (fit's weights sum to 1; a merge with a model whose weights were
    not chosen to less); empty: weights not chosen."""
    _expect(type(value) is list, "mixture.weights", value,
            "a list of [member name, weight] pairs")
    weights = {}
    for i, pair in enumerate(value):
        where = "mixture.weights[%d]" % i
        _expect(type(pair) is list and len(pair) == 2 and type(pair[0]) is str and
                pair[0] in _AUTO_MEMBERS and pair[0] not in weights and
                type(pair[1]) in (int, float) and 0 <= pair[1] <= 1, where, pair,
                "[member name, weight between 0 and 1], each member once (members: %s)"
                % ", ".join(_AUTO_MEMBERS))
        weights[pair[0]] = float(pair[1])
    _expect(math.fsum(weights.values()) <= 1 + 1e-9, "mixture.weights", value,
            "weights that add up to at most 1")
    return weights


def _file_evaluation(value):
    """mixture.evaluation of a model file: {member or "mixture": [log loss, accuracy,
    rows]} from [[name, log loss, accuracy, rows], ...], the names distinct among
    AutoBayes' members and "mixture", the log loss a finite number >= 0, the accuracy
    in [0, 1], the rows a whole number >= 1."""
    _expect(type(value) is list, "mixture.evaluation", value,
            "a list of [name, log loss, accuracy, rows]")
    evaluation = {}
    for i, item in enumerate(value):
        _expect(type(item) is list and len(item) == 4 and type(item[0]) is str and
                (item[0] in _AUTO_MEMBERS or item[0] == "mixture") and
                item[0] not in evaluation and
                all(type(v) in (int, float) for v in item[1:3]) and
                isfinite(item[1]) and item[1] >= 0 and 0 <= item[2] <= 1 and
                type(item[3]) is int and item[3] >= 1, "mixture.evaluation[%d]" % i, item,
                "[member name or \"mixture\", log loss >= 0, accuracy between 0 and 1, "
                "rows >= 1], each name once")
        evaluation[item[0]] = list(item[1:])
    return evaluation


def _mixture_sentence(rows, evaluation, temperature=1.0):
    """'mixture 0.41 waode, 0.33 bayesnet, ... chosen by 5-fold cross-validation on
    300 rows: log loss 0.31, accuracy 0.88 (best member waode: 0.33, 0.87)'."""
    shares = ", ".join("%.2f %s" % (weight, name) for name, weight, _, _ in
                       sorted(rows, key=lambda row: -row[1]))
    mixture = evaluation.get("mixture")
    if not mixture:
        return "mixture %s (weights not chosen from the data)" % shares
    scored = [(v[0], name) for name, v in evaluation.items() if name != "mixture"]
    best = min(scored)[1] if scored else None
    text = "mixture %s, weights chosen by cross-validation on %s rows: log loss %.3g, " \
        "accuracy %.3g" % (shares, format(int(mixture[2]), ","), mixture[0], mixture[1])
    if temperature != 1.0:
        text += ", probabilities tempered by T = %.3g" % temperature
    if best is not None:
        text += " (best single member %s: %.3g, %.3g)" % (best, evaluation[best][0],
                                                          evaluation[best][1])
    return text


def _mixture_weights(members, chosen, setting):
    """{member: weight} as the weights parameter says: "cv" the ones chosen at fit
    (equal ones until then), "uniform" equal ones, or a {member: weight} dict."""
    if isinstance(setting, Mapping):      # scaled by the largest first: no overflow
        given = [float(_number(setting.get(name, 0))) for name in members]
        largest = max(given)
        total = math.fsum(w / largest for w in given)
        return {name: w / largest / total for name, w in zip(members, given)}
    if setting == "cv" and chosen and sum(chosen.get(name, 0) for name in members) > 0:
        total = sum(chosen.get(name, 0) for name in members)
        return {name: float(chosen.get(name, 0) / total) for name in members}
    return {name: 1.0 / len(members) for name in members}


_TEMPERATURES = (0.25, 4.0)       # the range of the mixture's temperature T


def _temperature(probabilities, truth, row_weights, prior=2.0):
    """The T, between 1/4 and 4, whose tempered probabilities p_c^(1/T) / sum_d
    p_d^(1/T) give the out-of-fold rows the least log loss (weighted), plus ``prior``
    pseudo-rows' worth of (log T)^2 pulling it towards 1: naive Bayes' products of
    correlated factors are over-confident (T > 1 softens them); the order of the
    classes in each row, hence every prediction, is unchanged.  Golden-section search
    on log T: deterministic."""
    rows = [([_log(p) for p in row], t, v) for row, t, v in
            zip(probabilities, truth, row_weights) if row[t] > 0]
    if not rows:
        return 1.0

    def loss(log_t):
        inverse = exp(-log_t)
        total = prior * log_t * log_t
        for logs, t, v in rows:
            scaled = [x * inverse for x in logs]
            total -= v * (scaled[t] - _log_sum_exp(scaled))
        return total
    lo, hi = log(_TEMPERATURES[0]), log(_TEMPERATURES[1])
    ratio = (sqrt(5.0) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    loss_a, loss_b = loss(a), loss(b)
    for _ in range(40):
        if loss_a <= loss_b:
            hi, b, loss_b = b, a, loss_a
            a = hi - ratio * (hi - lo)
            loss_a = loss(a)
        else:
            lo, a, loss_a = a, b, loss_b
            b = lo + ratio * (hi - lo)
            loss_b = loss(b)
    best = (lo + hi) / 2
    return round(exp(best), 6) if loss(best) < loss(0.0) else 1.0


def _em_weights(likelihoods, row_weights, prior, steps=100):
    """The linear pool's weights w maximising sum_i v_i log sum_m w_m L[m][i] + prior
    sum_m log w_m (the data's weights v, a Dirichlet prior of ``prior`` pseudo-rows per
    member), by EM from equal weights: deterministic, and a member that never helps
    fades towards 0."""
    count = len(likelihoods)
    weights = [1.0 / count] * count
    rows = len(row_weights)
    for _ in range(steps):
        # by builtins over the rows, each number as the loop over rows computes it:
        # a row's mixture summed over the members in order, each member's total
        # added to row by row from the prior (reduce: no compensated sum)
        mixed = list(map(sum, zip(*[list(map(mul, repeat(w, rows), column))
                                    for w, column in zip(weights, likelihoods)])))
        scored = [x > 0 for x in mixed]
        kept = list(compress(mixed, scored))
        kept_weights = list(compress(row_weights, scored))
        totals = [reduce(add, map(truediv, map(mul, map(mul, kept_weights, repeat(w)),
                                               compress(column, scored)), kept), prior)
                  for w, column in zip(weights, likelihoods)]
        total = sum(totals)
        weights = [t / total for t in totals]
    return weights
