# -- words ----------------------------------------------------------------------------


_TOKEN_PATTERN = None


def _default_tokenizer(text):
    """Lowercase, then the words of scikit-learn's CountVectorizer default pattern
    (two or more word characters).  CJK text has no spaces between words: split it
    with a segmenter (jieba, for instance) and pass the words as a list, or give the
    model a tokenizer."""
    global _TOKEN_PATTERN
    if _TOKEN_PATTERN is None:
        import re
        _TOKEN_PATTERN = re.compile(r"(?u)\b\w\w+\b")
    return _TOKEN_PATTERN.findall(text.lower())


def _words(value, tokenizer):
    """A text value as a list of words: a string goes through the tokenizer, a list or
    tuple of strings is taken as it is; None (or NaN) for a missing value."""
    if type(value) is str:
        if tokenizer is None:
            return _default_tokenizer(value)        # strings, by construction
        words = tokenizer(value)
        if type(words) is not list:
            words = list(words)
    elif isinstance(value, (list, tuple)):
        words = value
    elif _is_missing(value):
        return None
    else:
        raise _BadValue(value, "a string or a list of words")
    if words and not set(map(type, words)) <= _STR:
        raise _BadValue(value, "words that are strings (the tokenizer gave %s)"
                        % _describe(next(w for w in words if type(w) is not str)))
    return words


class _UnsavedTokenizer:
    """The tokenizer of a model loaded from a file: the model was trained with a custom
    tokenizer, which a file cannot hold.  Words (lists of strings) still work."""

    def __call__(self, text):
        """Refuses text: the tokenizer was not saved."""
        raise _BadValue(text, "a list of words: the model's own tokenizer could not be "
                        "saved in its file; give it again with set_params(tokenizer=...)")

    def __repr__(self):
        """How it shows in get_params()."""
        return "<custom tokenizer, not saved>"


_UNSAVED_TOKENIZER = _UnsavedTokenizer()

# scikit-learn's ENGLISH_STOP_WORDS (sklearn.feature_extraction.text), which
# CountVectorizer(stop_words="english") drops: 318 words, sorted.  ("a" and "i" are
# among them, though the default pattern never yields a one-letter word.)
_ENGLISH_STOP_WORDS = (
    "a", "about", "above", "across", "after", "afterwards", "again", "against", "all",
    "almost", "alone", "along", "already", "also", "although", "always", "am", "among",
    "amongst", "amoungst", "amount", "an", "and", "another", "any", "anyhow", "anyone",
    "anything", "anyway", "anywhere", "are", "around", "as", "at", "back", "be",
    "became", "because", "become", "becomes", "becoming", "been", "before",
    "beforehand", "behind", "being", "below", "beside", "besides", "between", "beyond",
    "bill", "both", "bottom", "but", "by", "call", "can", "cannot", "cant", "co",
    "con", "could", "couldnt", "cry", "de", "describe", "detail", "do", "done", "down",
    "due", "during", "each", "eg", "eight", "either", "eleven", "else", "elsewhere",
    "empty", "enough", "etc", "even", "ever", "every", "everyone", "everything",
    "everywhere", "except", "few", "fifteen", "fifty", "fill", "find", "fire", "first",
    "five", "for", "former", "formerly", "forty", "found", "four", "from", "front",
    "full", "further", "get", "give", "go", "had", "has", "hasnt", "have", "he",
    "hence", "her", "here", "hereafter", "hereby", "herein", "hereupon", "hers",
    "herself", "him", "himself", "his", "how", "however", "hundred", "i", "ie", "if",
    "in", "inc", "indeed", "interest", "into", "is", "it", "its", "itself", "keep",
    "last", "latter", "latterly", "least", "less", "ltd", "made", "many", "may", "me",
    "meanwhile", "might", "mill", "mine", "more", "moreover", "most", "mostly", "move",
    "much", "must", "my", "myself", "name", "namely", "neither", "never",
    "nevertheless", "next", "nine", "no", "nobody", "none", "noone", "nor", "not",
    "nothing", "now", "nowhere", "of", "off", "often", "on", "once", "one", "only",
    "onto", "or", "other", "others", "otherwise", "our", "ours", "ourselves", "out",
    "over", "own", "part", "per", "perhaps", "please", "put", "rather", "re", "same",
    "see", "seem", "seemed", "seeming", "seems", "serious", "several", "she", "should",
    "show", "side", "since", "sincere", "six", "sixty", "so", "some", "somehow",
    "someone", "something", "sometime", "sometimes", "somewhere", "still", "such",
    "system", "take", "ten", "than", "that", "the", "their", "them", "themselves",
    "then", "thence", "there", "thereafter", "thereby", "therefore", "therein",
    "thereupon", "these", "they", "thick", "thin", "third", "this", "those", "though",
    "three", "through", "throughout", "thru", "thus", "to", "together", "too", "top",
    "toward", "towards", "twelve", "twenty", "two", "un", "under", "until", "up",
    "upon", "us", "very", "via", "was", "we", "well", "were", "what", "whatever",
    "when", "whence", "whenever", "where", "whereafter", "whereas", "whereby",
    "wherein", "whereupon", "wherever", "whether", "which", "while", "whither", "who",
    "whoever", "whole", "whom", "whose", "why", "will", "with", "within", "without",
    "would", "yet", "you", "your", "yours", "yourself", "yourselves")


def _stop_word_set(stop_words):
    """stop_words= as a set of words (None: none): "english" is scikit-learn's list;
    a list is taken as it is, not lowercased (as CountVectorizer takes it)."""
    if stop_words is None:
        return None
    if isinstance(stop_words, str):       # "english": the parameter's check saw to it
        return frozenset(_ENGLISH_STOP_WORDS)
    return frozenset(stop_words)


def _analyzed(words, stop, low, high):
    """CountVectorizer's steps after tokenizing: stop words dropped, then every n-gram
    of the words that remain for n from low to high, each joined by one space (so a
    bigram may span a dropped stop word), the shorter n-grams first and each n in
    the order of the text.

    >>> _analyzed(["the", "bank", "of", "england"], {"the", "of"}, 1, 2)
    ['bank', 'england', 'bank england']
    """
    if stop:
        words = [w for w in words if w not in stop]
    if high == 1:
        return words
    grams = list(words) if low == 1 else []
    for n in range(max(low, 2), min(high, len(words)) + 1):
        grams.extend(map(" ".join, zip(*[words[i:] for i in range(n)])))
    return grams


def _word_count(value, word, count):
    """A count of a {word: count} text value: an int, or a float (exact, as every
    float is); _BadValue naming the value unless a word with a finite count >= 0."""
    if type(count) is not int and type(count) is not float:
        index = getattr(type(count), "__index__", None)
        number = index(count) if index is not None and not isinstance(count, bool) \
            else _number(count)           # NumPy integers stay integers
        count = count if number is None else number
    if type(word) is str:
        if type(count) is int:
            if 0 <= count <= _FLOAT_MAX_EXACT:
                return count
        elif type(count) is float and count >= 0 and count != INF:
            return count
    raise _BadValue(value, "a {word: count} mapping of strings to finite counts >= 0 "
                    "(not %s: %s)" % (_shown(word, 30), _shown(count, 30)))


class _TextReading:
    """How a text feature reads a value, at fit, predict and explain alike: a string
    is tokenized (the tokenizer, or lowercase and CountVectorizer's pattern), a list
    or tuple of strings is taken as words; then stop words are dropped and n-grams
    formed (see _analyzed).  A mapping {word: count} is a bag already made (counts
    real and >= 0, say TF-IDF weights): taken as it is, zero counts dropped, no stop
    words or n-grams (it has no order to form them from).  None for a missing value.
    """

    __slots__ = ("tokenizer", "stop", "low", "high")

    def __init__(self, params):
        self.tokenizer = params["tokenizer"]
        self.stop = _stop_word_set(params.get("stop_words"))
        self.low, self.high = params.get("ngram_range", (1, 1))

    def __call__(self, value):
        """The value as a list of words, or a dict {word: count}, or None."""
        if isinstance(value, Mapping):
            counts = {}
            for word, count in value.items():
                count = _word_count(value, word, count)
                if count:
                    counts[word] = count
            return counts
        words = _words(value, self.tokenizer)
        if words is None or (self.stop is None and self.high == 1):
            return words
        return _analyzed(words, self.stop, self.low, self.high)


class _WordCounts(_Distribution):
    """Word counts of one text feature per class label: in how many documents each
    word occurs (the Bernoulli model's counts), how often it occurs (multinomial's),
    and how many documents there are.  Both kinds of count are kept, so text_model,
    max_words and min_word_count can change after fitting."""

    __slots__ = ("documents", "terms", "present")
    file_fields = ("words", "documents", "word_documents", "word_counts")

    def __init__(self):
        self.documents = {}           # label -> {word: weighted number of documents}
        self.terms = {}               # label -> {word: weighted number of occurrences}
        self.present = {}             # label -> weighted number of documents

    def add(self, label, values, weights):
        """Count one class's documents, each a list of words or a {word: count} dict
        (counts > 0, ints or floats): exactly, a float being the dyadic fraction it
        is, so that any order, batching, merge or forget gives the same sums.  A
        word is in a document when its count is > 0 (as BernoulliNB binarizes)."""
        if weights is None and dict not in set(map(type, values)):
            present = len(values)
            terms = Counter(chain.from_iterable(values))
            documents = Counter(chain.from_iterable(map(set, values)))
        else:
            integers, shift = ([1] * len(values), 0) if weights is None else \
                _weight_integers(weights)
            finest = 0                    # the finest power of 2 of any count's fraction
            bags = []
            for words in values:
                if type(words) is not dict:
                    bags.append([(word, count, 0) for word, count in Counter(words).items()])
                    continue
                bag = []
                for word, count in words.items():
                    if type(count) is int:
                        bag.append((word, count, 0))
                        continue
                    m, d = count.as_integer_ratio()
                    k = d.bit_length() - 1            # count = m / 2**k
                    bag.append((word, m, k))
                    finest = max(finest, k)
                bags.append(bag)
            present, terms, documents = 0, {}, {}
            for bag, weight in zip(bags, integers):
                present += weight
                for word, m, k in bag:
                    terms[word] = terms.get(word, 0) + (weight * m << (finest - k))
                    documents[word] = documents.get(word, 0) + weight
            scale = 1 << shift
            present = _ratio(present, scale)
            terms = {w: _ratio(c, scale << finest) for w, c in terms.items()}
            documents = {w: _ratio(c, scale) for w, c in documents.items()}
        self.add_counts(label, present, terms, documents)

    def add_counts(self, label, present, terms, documents):
        """Add a class's document count and word counts."""
        self.present[label] = self.present.get(label, 0) + present
        for mine, theirs in ((self.terms, terms), (self.documents, documents)):
            counts = mine.get(label)
            if counts is None:
                mine[label] = dict(theirs)
                continue
            get = counts.get
            for word, count in theirs.items():
                counts[word] = get(word, 0) + count

    def absorb(self, other):
        """Add other's counts."""
        for label, present in other.present.items():
            self.add_counts(label, present, other.terms.get(label, {}),
                            other.documents.get(label, {}))

    def deficit(self, other, emptied):
        """A class with fewer documents, or a word with fewer occurrences or documents,
        than to forget; or what would be left no counts of documents (a word left in
        documents but without occurrences, or the reverse; words without documents)."""
        for label in _labels_to_check(other.present, emptied):
            have, remove = self.present.get(label, 0), other.present.get(label, 0)
            if remove > have:
                return "class %s has %s documents, less than the %s to forget" % (
                    _shown(label), _plain(have), _plain(remove))
            gone = emptied if remove != have else set(emptied) | {label}
            mine, theirs = self.terms.get(label, {}), other.terms.get(label, {})
            mine_documents = self.documents.get(label, {})
            theirs_documents = other.documents.get(label, {})
            problem = _counts_deficit(mine, theirs, label, lambda w: "word %s" % _shown(w),
                                      gone) or \
                _counts_deficit(mine_documents, theirs_documents, label,
                                lambda w: "the documents of word %s" % _shown(w), gone)
            if problem is not None:
                return problem
            if label in emptied and remove != have:
                return "class %s would keep %s documents after all its rows are forgotten" \
                    % (_shown(label), _plain(have - remove))
            for word, count in theirs.items():
                if (mine[word] == count) != (mine_documents.get(word, 0) ==
                                             theirs_documents.get(word, 0)):
                    return "class %s: word %s would be left in documents without " \
                        "occurring, or occurring in no document (the documents to forget " \
                        "are not those learned)" % (_shown(label), _shown(word))
        return None

    def subtract(self, other):
        """Remove other's counts: words no longer counted, and classes left without
        documents, disappear."""
        problem = self.deficit(other, ())
        if problem is not None:
            raise _Unlearned(problem)
        for label, present in other.present.items():
            if label not in self.present:
                continue                  # nothing of it here, nor in other (deficit)
            _subtract_counts(self.terms[label], other.terms.get(label, {}))
            _subtract_counts(self.documents[label], other.documents.get(label, {}))
            left = self.present[label] - present
            if left:
                self.present[label] = left
            else:
                del self.present[label], self.terms[label], self.documents[label]

    def vocabulary(self, params):
        """The words the model uses: every word seen, or the max_words most frequent
        with at least min_word_count, frequency being the number of documents (for
        Bernoulli) or of occurrences (multinomial), as scikit-learn's CountVectorizer
        counts for max_features; ties go to the alphabetically earlier word."""
        counts = self.documents if params["text_model"] == "bernoulli" else self.terms
        if params["min_word_count"] == 1 and params["max_words"] is None:
            return sorted(set().union(*counts.values()))    # every word seen
        frequency = {}
        for per_class in counts.values():
            for word, count in per_class.items():
                frequency[word] = frequency.get(word, 0) + count
        least = params["min_word_count"]
        # frequencies are weighted; the default 1 keeps every word seen, even when
        # fractional weights put a word's frequency below 1
        words = [w for w, f in frequency.items() if f >= least or (least == 1 and f > 0)]
        if params["max_words"] is not None and len(words) > params["max_words"]:
            words.sort(key=lambda w: (-frequency[w], w))
            words = words[:params["max_words"]]
        return sorted(words)

    def compile(self, classes, params, shared):
        """The _WordScorer of the vocabulary's per-class word probabilities."""
        return _WordScorer(self, classes, params)

    def describe(self, params):
        """'120 documents, 3,400 words in the vocabulary (multinomial)'."""
        return "%s documents, %s words in the vocabulary (%s)" % (
            format(_plain(sum(self.present.values())), ","),
            format(len(self.vocabulary(params)), ","), params["text_model"])

    def class_statistics(self, classes, params):
        """Per class: {"count": its documents, "top": [[word, occurrences]] of its 3
        most frequent words}."""
        result = {}
        for label in classes:
            counted = _top_counts(self.terms.get(label, {}))
            counted["count"] = _plain(self.present.get(label, 0))
            result[label] = counted
        return result

    def to_file(self, classes, what):
        """{"words": [...], "documents": [per class], "word_documents", "word_counts":
        per class [[word index, count], ...]}."""
        words = sorted(set().union(*self.terms.values()) if self.terms else ())
        index = {word: i for i, word in enumerate(words)}
        section = {"words": [_encode(word, what) for word in words],
                   "documents": [_exact_text(self.present.get(c, 0)) for c in classes]}
        for field, counts in (("word_documents", self.documents),
                              ("word_counts", self.terms)):
            section[field] = [[[index[w], _exact_text(n)]
                               for w, n in sorted(counts.get(c, {}).items())]
                              for c in classes]
        return section

    @classmethod
    def from_file(cls, feature, where, classes, class_count):
        """The counts of a text feature of the model file, validated."""
        words = _field(feature, "words", where)
        _expect(type(words) is list, where + ".words", words, "a list of strings")
        if not _STR.issuperset(map(type, words)):
            words = [_decode(word, where + ".words") for word in words]
            _expect(_STR.issuperset(map(type, words)), where + ".words", words,
                    "a list of strings")
        if len(set(words)) != len(words):
            raise _Invalid("%s.words repeats a word; expected distinct words" % where)
        documents = _field(feature, "documents", where)
        _expect(type(documents) is list and len(documents) == len(classes),
                where + ".documents", documents, "one count per class (%d)" % len(classes))
        tables = []
        for field in ("word_documents", "word_counts"):
            table = _field(feature, field, where)
            _expect(type(table) in (list, _StreamedLists) and len(table) == len(classes),
                    where + "." + field, table, "one list per class (%d)" % len(classes))
            tables.append(table)
        stats = cls()
        for k, label in enumerate(classes):
            present = _decode_exact(documents[k], "%s.documents[%d]" % (where, k))
            if present > class_count[label]:
                raise _Invalid("%s.documents[%d] is more than class_count for %r"
                               % (where, k, label))
            per_field = []
            for field, table in zip(("word_documents", "word_counts"), tables):
                here = "%s.%s[%d]" % (where, field, k)
                pairs = table[k]          # (a _PairStream: parsed as it is read)
                _expect(type(pairs) in (list, _PairStream), here, pairs,
                        "a list of [word index, count]")
                counts = {}
                for pair in pairs:
                    _expect(type(pair) is list and len(pair) == 2 and type(pair[0]) is int
                            and 0 <= pair[0] < len(words), here, pair,
                            "[word index, count] pairs with indexes into words")
                    word = words[pair[0]]
                    if word in counts:
                        raise _Invalid("%s names %r twice" % (here, word))
                    count = _decode_exact(pair[1], here)
                    if count:
                        counts[word] = count
                per_field.append(counts)
            word_documents, word_counts = per_field
            for word, n in word_documents.items():
                if n > present or not word_counts.get(word):
                    # (a weighted count {word: 0.3} occurs less often than its documents)
                    raise _Invalid("%s: word %r is in more documents than there are, or "
                                   "in documents without occurring" % (where, word))
            if present or word_counts:
                stats.present[label] = present
                stats.documents[label] = word_documents
                stats.terms[label] = word_counts
        return stats


def _complement_weights(stats, classes, vocabulary, alpha, norm):
    """Complement naive Bayes (Rennie, Shih, Teevan and Karger 2003) as scikit-learn's
    ComplementNB computes it: per class, the weight w_cw of each vocabulary word, a
    document scoring sum_w f_w w_cw (f_w its count of w).

    M_cw = sum over the other classes of N_c'w, exact (a class with no documents has
    no counts of its own: its complement is all the counts, as in scikit-learn, not
    borrowed ones); logged_cw = log((M_cw + alpha) / (M_c + alpha * V)) with M_c =
    sum_w M_cw; then w_cw = -logged_cw, or with norm logged_cw / sum_v logged_cv
    (Rennie's normalised weight, whose sign scikit-learn flips so that the largest
    score wins; each class's weights sum to 1).

    alpha = 0 is the limit alpha -> 0+ (scikit-learn gives NaN there).  Without norm,
    a word the other classes never had (M_cw = 0) weighs -log(alpha) + log(M_c) +
    o(1): its weight is +inf, and companions[c] = log M_c is the finite part each
    such word adds (see _WordScorer); with norm, the weights tend to 1/k on the k
    such words and to 0 on the others.  M_c = 0 (nothing outside the class) gives
    the uniform 1/V, and so does V = 1 with norm (where scikit-learn divides 0 by 0);
    an empty vocabulary has no weights (the scores are 0: the prior decides).
    Returns (per-class weight columns over the vocabulary, companions or None).
    """
    size = len(vocabulary)
    own = [list(map(stats.terms.get(label, {}).get, vocabulary, repeat(0)))
           for label in classes]
    total = list(map(sum, zip(*own))) if size else []
    columns, companions = [], []
    for counts in own:
        complement = list(map(sub, total, counts))
        logged = _log_smoothed(complement, sum(complement), alpha, size) if size else []
        zeros = logged.count(-INF)
        if not norm:
            columns.append(list(map(neg, logged)))
            companions.append(_log_exact(sum(complement)) if zeros else None)
        elif zeros:
            columns.append([1.0 / zeros if x == -INF else 0.0 for x in logged])
        else:
            # no word left (min_word_count, max_words, stop_words, or empty
            # documents): no weights, so every score is 0 and the prior decides
            summed = fsum(logged)
            columns.append([x / summed for x in logged] if summed else
                           [1.0 / size] * size if size else [])
    return columns, (companions if any(c is not None for c in companions) else None)


_PACKED_WORDS_MOST = 1 << 14        # terms of a document the packed form takes


class _PackedWords:
    """The fast form of a text scorer (see _WordScorer.packed): each vocabulary word's
    per-class terms packed into one Python int, as the categorical fast path packs its
    tables (see _Packed: one 64-bit fixed-point field per class, unpacked
    little-endian), so that a document costs one dict lookup and one int addition per
    word and one unpack, whatever the number of classes.

    The fields hold sign * score with ``bits`` fractional bits: -log P(d|c) for the
    multinomial and Bernoulli models (<= 0 for every document), the complement score
    itself (a sum of weights >= 0).  Integer addition is exact, so the sum does not
    depend on the order of the words and equal terms give equal sums (a tie stays a
    tie); the only rounding is 2^-(bits+1) per term (each occurrence of a word; for
    Bernoulli each distinct word) and the final conversion to float.  ``bits`` is
    chosen so that no document of fewer than _PACKED_WORDS_MOST terms can take a
    field below 0 or past 2^63; a longer document, counts that are not whole numbers
    ({word: 0.5}), or anything else the form does not take (total returns None) is
    scored by the scorer itself, exactly.  Models with an infinite term (alpha = 0)
    and the dense Bernoulli form have no packed form.
    """

    __slots__ = ("scorer", "read", "findall", "bernoulli", "get", "start", "missing",
                 "width", "unpack", "scales", "scale", "sign", "reach", "magnitude")

    @classmethod
    def build(cls, scorer, log_prior=None):
        """The packed form of scorer's words (with the log-prior added to every
        document's score, when given), or None (see above)."""
        import struct
        if scorer.dense or scorer.infinite is not None:
            return None
        vectors = scorer.words      # {word: per class log P(w|c), a weight, or (Bernoulli)
        base = scorer.base          #  log p - log(1 - p)}; the sum over none of them
        sign = 1.0 if scorer.complement else -1.0
        n_classes = len(base)
        from array import array
        terms = array("d", chain.from_iterable(vectors.values()))     # word after word
        highest, lowest = max(terms, default=0.0), min(terms, default=0.0)
        if not (isfinite(highest) and isfinite(lowest) and all(map(isfinite, base))):
            return None
        if not scorer.bernoulli and sign * (lowest if sign > 0 else highest) < 0:
            return None             # (a log-probability > 0, a negative weight: never)
        self = cls()
        self.scorer, self.read, self.bernoulli, self.sign = scorer, scorer.read, \
            scorer.bernoulli, sign
        self.reach = max(0.0, sign * (highest if sign > 0 else lowest))   # a term's most
        self.magnitude = max(abs(highest), abs(lowest))
        self.findall = None
        if scorer.read.tokenizer is None and scorer.read.stop is None and \
                scorer.read.high == 1:
            _default_tokenizer("")                      # (compiles the pattern)
            self.findall = _TOKEN_PATTERN.findall
        self.width = 8 * n_classes
        self.unpack = struct.Struct("<%dQ" % n_classes).unpack
        prior = scorer.zeros if log_prior is None else log_prior
        if not self.place(tuple(map(add, base, prior)), prior):
            return None
        scale = self.scale
        if scorer.bernoulli:
            # every field stays >= 0: -log P(d|c) >= -(base + the positive terms) of
            # the likeliest document, more than the roundings of the words of any
            # document can take away, half a unit each (the positive terms' sum:
            # (sum + sum of magnitudes) / 2, to 2^-50 of the magnitudes)
            slack = (min(len(vectors), _PACKED_WORDS_MOST) + 1) / 2 if vectors else 0.0
            for k in range(n_classes):
                column = terms[k::n_classes]
                magnitudes = fsum(map(abs, column))
                positive = (fsum(column) + magnitudes) / 2
                if -(base[k] + prior[k] + positive) * scale < slack + magnitudes * \
                        scale * 2.0 ** -50:
                    return None
        # Each term rounded to a whole number of 2^-bits by one float operation: with
        # |x| < 2^(51-bits) and M = 1.5 * 2^(52-bits), whose last bit is 2^-bits, M +
        # sign * x holds round(sign * x * 2^bits) (half to even, as round()) in the low
        # bits of its double: the bits of M plus it.  So the doubles of a word read as
        # one int are its packed terms plus a constant, for all words by builtins.
        magic = 1.5 * 2.0 ** 52 / scale
        doubles = array("d", map(add, repeat(magic), terms) if sign > 0 else
                        map(sub, repeat(magic), terms))
        if sys.byteorder != "little":
            doubles.byteswap()
        data = memoryview(doubles).cast("B")
        step = self.width
        ones = struct.unpack("<Q", struct.pack("<d", magic))[0]
        offset = sum([ones << (64 * k) for k in range(n_classes)])
        self.get = dict(zip(vectors, map(sub, map(int.from_bytes,
                                                  map(data.__getitem__,
                                                      map(slice, range(0, len(data), step),
                                                          range(step, len(data) + 1, step))),
                                                  repeat("little")),
                                         repeat(offset)))).get
        return self

    def place(self, start, missing, scale=None):
        """Set the packed sums of an empty and of a missing document (``start``,
        ``missing``: per class, with any prior) and, unless given, the scale; False
        when they do not fit the fields with every document of fewer than
        _PACKED_WORDS_MOST terms."""
        sign = self.sign
        signed = [sign * v for v in chain(start, missing)]
        if not all(map(isfinite, signed)) or min(signed) < 0:
            return False
        # a field's sum < 2^63: the start, then at most reach per term
        most = max(signed) + _PACKED_WORDS_MOST * self.reach
        if scale is None:       # (and every term < 2^50 units: see build)
            bits = min(63 - frexp(most)[1], 50 - frexp(self.magnitude)[1])
            if bits < 30:
                return False
            scale = float(2 ** bits)
        elif most * scale >= 2.0 ** 63:
            return False
        self.scale = scale
        self.scales = (sign / scale,) * len(start)
        self.start, self.missing = [sum([round(sign * v * scale) << (64 * k)
                                         for k, v in enumerate(vector)])
                                    for vector in (start, missing)]
        return True

    def with_prior(self, log_prior):
        """A form that adds the log-prior to every document's score (the model's
        whole joint): a copy, or one packed anew at a scale that leaves room for the
        prior; None when the prior cannot be packed (a complement score, >= 0, with
        a log-prior < 0: no one sign)."""
        twin = _PackedWords()
        for name in self.__slots__:
            setattr(twin, name, getattr(self, name))
        start = tuple(map(add, self.scorer.base, log_prior))
        if twin.place(start, log_prior, self.scale):
            return twin
        return _PackedWords.build(self.scorer, log_prior)   # at a scale with room for it

    def total(self, value):
        """The packed sum of a document, or None when the scorer is to score it;
        _BadValue (from reading it) for a value of the wrong type."""
        if type(value) is str and self.findall is not None:
            words = self.findall(value.lower())
        else:
            words = self.read(value)
            if words is None:
                return self.missing
            if type(words) is dict:
                if not self.bernoulli:
                    counts = words.values()
                    if not _INT.issuperset(map(type, counts)) or \
                            sum(counts) >= _PACKED_WORDS_MOST:
                        return None
                    return sum(map(mul, map(self.get, words, repeat(0)), counts),
                               self.start)
                words = list(words)                 # present: a count > 0
        if self.bernoulli:
            words = set(words)
        if len(words) >= _PACKED_WORDS_MOST:
            return None
        return sum(filter(None, map(self.get, words)), self.start)

    def __getitem__(self, value):
        """Per class log P(document | c), as scorer[value] (no prior)."""
        total = self.total(value)
        if total is None:
            return self.scorer[value]
        return tuple(map(mul, self.unpack(total.to_bytes(self.width, "little")),
                         self.scales))

    def joint(self, value):
        """The joint (with the prior of with_prior) of one document, or None."""
        total = self.total(value)
        if total is None:
            return None
        return list(map(mul, self.unpack(total.to_bytes(self.width, "little")),
                        self.scales))

    def joints(self, values):
        """The joints of many documents (None for one the scorer must score), their
        sums unpacked by one array and one map; None when a value is bad (found
        row by row)."""
        from array import array
        try:
            totals = list(map(self.total, values))
        except (_BadValue, TypeError):
            return None
        left = None in totals
        if left:
            skipped = [total is None for total in totals]
            totals = [self.missing if total is None else total for total in totals]
        fields = array("Q", b"".join(map(int.to_bytes, totals, repeat(self.width),
                                         repeat("little"))))
        if sys.byteorder != "little":
            fields.byteswap()
        flat = list(map(mul, fields, repeat(self.scales[0])))
        joints = list(map(list, zip(*[iter(flat)] * len(self.scales))))
        if left:
            joints = [None if skip else joint for skip, joint in zip(skipped, joints)]
        return joints


class _WordScorer(_Scorer):
    """A document -> per-class log-likelihood, in time that grows with its words.

    Bernoulli: log P(d|c) = sum over the vocabulary of log(1 - p_cw), the base, plus
    log p_cw - log(1 - p_cw) for each distinct vocabulary word of d.  Multinomial:
    the sum of f_w log p_cw over the vocabulary words w of d, f_w its count (repeats
    of a word in a list, or the count a {word: count} mapping gives).  Complement:
    the same sum of f_w w_cw with complement weights (see _complement_weights), a
    score rather than a log-likelihood.  Words outside the vocabulary are ignored."""

    __slots__ = ("zeros", "words", "_log_p", "_columns", "base", "bernoulli", "read",
                 "dense", "infinite", "complement", "classes")

    def __init__(self, stats, classes, params):
        self.classes = classes
        alpha = params["alpha"]
        self.bernoulli = params["text_model"] == "bernoulli"
        self.complement = params["text_model"] == "complement"
        self.read = _TextReading(params)
        self.zeros = zeros = (0.0,) * len(classes)
        self.infinite = None
        vocabulary = stats.vocabulary(params)
        size = len(vocabulary)
        self.dense = False
        if self.complement:
            columns, companions = _complement_weights(stats, classes, vocabulary, alpha,
                                                      params.get("complement_norm", False))
            self._log_p, self._columns = None, (vocabulary, columns)
            self.words, self.base = self.log_p, zeros
            if companions is not None:
                self._split_infinite_weights(companions)
            return
        # A class that never had this feature present borrows the counts of all classes
        # (the feature then says nothing about it), as a Gaussian feature does.
        pooled = _WordCounts()
        if any(not stats.present.get(label) for label in classes):
            for label in list(stats.present):
                pooled.add_counts(None, stats.present[label], stats.terms.get(label, {}),
                                  stats.documents.get(label, {}))
        # One column per class, aligned with the vocabulary, built by builtin maps.
        present_columns, absent_columns = [], []
        for label in classes:
            if not stats.present.get(label):
                label, source = None, pooled
            else:
                source = stats
            if self.bernoulli:
                n = source.present.get(label, 0)
                counts = list(map(source.documents.get(label, {}).get, vocabulary,
                                  repeat(0)))
                present_columns.append(_log_smoothed(counts, n, alpha, 2))
                absent_columns.append(_log_smoothed(list(map(sub, repeat(n), counts)), n,
                                                    alpha, 2))
            else:
                counts = list(map(source.terms.get(label, {}).get, vocabulary, repeat(0)))
                present_columns.append(_log_smoothed(counts, sum(counts), alpha, size)
                                       if size else [])
        self._log_p, self._columns = None, (vocabulary, present_columns)
        if not self.bernoulli:
            self.words, self.base = self.log_p, zeros
            return
        # p of 0 or 1 (only with alpha = 0) would make the sparse form inf - inf: such
        # models score every vocabulary word, densely
        self.dense = any(-INF in column for column in present_columns + absent_columns)
        if self.dense:
            self.words = dict(zip(vocabulary, zip(*absent_columns))) if size else {}
            self.base = None
            return
        deltas = [list(map(sub, p, q)) for p, q in zip(present_columns, absent_columns)]
        self.words = dict(zip(vocabulary, zip(*deltas))) if size else {}
        self.base = tuple([sum(column) for column in absent_columns])

    def _split_infinite_weights(self, companions):
        """Complement weights at alpha = 0 without norm: a word of class c alone weighs
        +inf for c.  Scores count infinities and add finite terms (see
        _joint_with_infinities), and only their differences between classes matter,
        so the word scores -inf for every other class instead (one infinity each, in
        ``order``) and its finite part, log M_c for c and w_c'w for the others, is a
        term of its own (``finite``): the limit alpha -> 0+ exactly, for word counts."""
        self.words = dict(self.words)
        self.infinite = {}
        for word, vector in self.words.items():
            if INF not in vector:
                continue
            c = vector.index(INF)
            order = tuple([0.0 if k == c else -INF for k in range(len(vector))])
            finite = tuple([companions[c] if k == c else x for k, x in enumerate(vector)])
            self.infinite[word] = (order, finite)
            self.words[word] = tuple(map(add, order, finite))

    def packed(self):
        """The fast form of scorer[value] (see _Scorer.fast_form, which gives it only
        while it is as current as scorer[value]): the words packed into ints, a
        _PackedWords, or None."""
        return _PackedWords.build(self)

    @property
    def log_p(self):
        """{word: per-class log P(word | c)} (complement: {word: per-class weight}),
        built on first use (the Bernoulli scorer itself needs only the differences
        log p - log(1 - p))."""
        if self._log_p is None:
            vocabulary, columns = self._columns
            self._log_p = dict(zip(vocabulary, zip(*columns))) if vocabulary else {}
            self._columns = None
        return self._log_p

    def __getitem__(self, value):
        """Per class log P(document | c) (complement: the document's score)."""
        words = self.read(value)
        if words is None:
            return self.zeros
        if type(words) is dict:
            if not self.bernoulli:
                return tuple(map(sum, zip(self.base, *[
                    [count * x for x in vector] for vector, count in
                    zip(map(self.words.get, words), words.values()) if vector])))
            words = list(words)           # present: a count > 0
        if not self.bernoulli:
            return tuple(map(sum, zip(self.base, *filter(None, map(self.words.get, words)))))
        if self.dense:
            present = set(words)
            return tuple(map(sum, zip(self.zeros, *[self.log_p[w] if w in present
                                                    else self.words[w]
                                                    for w in self.log_p])))
        return tuple(map(sum, zip(self.base, *filter(None, map(self.words.get, set(words))))))

    def terms(self, value):
        """The document's log-likelihood as separate per-class terms, one per word
        (per vocabulary word for a dense Bernoulli model): with alpha = 0 each zero
        probability then counts, once per occurrence (a mapping's count, rounded up
        to a whole number: the limit alpha -> 0+ for whole counts)."""
        words = self.read(value)
        if words is None:
            return [self.zeros]
        if self.bernoulli:
            words = list(words)
            if self.dense:
                present = set(words)
                return [self.log_p[w] if w in present else self.words[w]
                        for w in self.log_p] or [self.zeros]
            return [self.base] + [self.words[w] for w in set(words) if w in self.words]
        out = []
        counted = Counter(words) if type(words) is not dict else words
        infinite = self.infinite or {}
        for word, count in counted.items():
            vector = self.words.get(word)
            if vector is None:
                continue
            if word in infinite:
                order, finite = infinite[word]
                out.extend([order] * math.ceil(count))
                out.append(tuple([count * x for x in finite]))
            elif -INF in vector:
                out.append(tuple([count * x for x in vector]))
                order = tuple([-INF if x == -INF else 0.0 for x in vector])
                out.extend([order] * (math.ceil(count) - 1))
            else:
                out.append(vector if count == 1 else tuple([count * x for x in vector]))
        return out or [self.zeros]

    def explain(self, value):
        """(status, log-likelihoods, {"words": {word: {label: its part}}, "baseline":
        {label: what the document's words leave out}})."""
        words = self.read(value)
        if words is None:
            return "missing", self.zeros, None
        vector = self[value]
        if self.bernoulli:
            words = list(words)
        if self.bernoulli and not self.dense:
            parts = {w: self.words[w] for w in dict.fromkeys(words) if w in self.words}
            baseline = self.base
        elif self.bernoulli:
            parts = {w: self.log_p[w] for w in dict.fromkeys(words) if w in self.log_p}
            baseline = tuple(map(sub, vector, map(sum, zip(self.zeros, *parts.values()))))
        else:
            counted = Counter(words) if type(words) is not dict else words
            parts = {w: tuple([c * v for v in self.words[w]]) for w, c in counted.items()
                     if w in self.words}
            baseline = self.zeros
        classes = self.classes
        return "used", vector, {"words": {word: dict(zip(classes, part))
                                          for word, part in parts.items()},
                                "baseline": dict(zip(classes, baseline))}

    def informative(self, name, classes):
        """Each vocabulary word, scored like a categorical value: the log of the
        largest ratio of its probability between two classes (complement: the
        largest difference of its weights)."""
        return [(name, word, _log_ratio_range(vector), classes[vector.index(max(vector))])
                for word, vector in self.log_p.items()]

    def table(self, classes):
        """{"kind": "text", "probabilities": {label: {word: P}}}; complement:
        {"kind": "text", "weights": {label: {word: w}}} (scikit-learn's
        feature_log_prob_)."""
        if self.complement:
            return {"kind": "text", "weights": {
                label: {word: vector[k] for word, vector in self.log_p.items()}
                for k, label in enumerate(classes)}}
        return {"kind": "text", "probabilities": {
            label: {word: exp(vector[k]) for word, vector in self.log_p.items()}
            for k, label in enumerate(classes)}}
