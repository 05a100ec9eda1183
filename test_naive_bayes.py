"""The specification of naive_bayes.py, as tests.

Oracles come from the textbooks (examples/data, exact published values), from
scikit-learn run side by side (installed in CI), and from Hypothesis properties.
Run with ``python -m pytest`` (the doctests in naive_bayes.py run too).
"""

import copy
import csv
import math
import os
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naive_bayes import CategoricalNB, GaussianNB, NaiveBayes, NaiveBayesError

DATA = Path(__file__).resolve().parent / "examples" / "data"
NAN = float("nan")

settings.register_profile("default", deadline=None, max_examples=100,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def read_csv(name):
    """(header, rows) of a CSV file in examples/data."""
    with open(DATA / name, newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


def joint_probabilities(model, row):
    """exp of predict_joint_log_proba for one row, as {label: P(c) prod P(x_j|c)}."""
    joint = model.predict_joint_log_proba([row])[0]
    return dict(zip(model.classes_, map(math.exp, joint)))


def snapshot(model, probes):
    """Everything observable about a fitted model, to check that it did not change."""
    return (pickle.dumps(model.get_params()), model.classes_, model.class_count_,
            model.feature_names_, model.feature_kinds_,
            model.predict_joint_log_proba(probes))


def needs_sklearn():
    """Import scikit-learn; skip when absent, unless CI requires it (then fail)."""
    try:
        import numpy
        import sklearn.naive_bayes
    except ImportError:
        if os.environ.get("NAIVE_BAYES_REQUIRE_SKLEARN"):
            raise
        pytest.skip("scikit-learn is not installed")
    return numpy, sklearn


# ----------------------------------------------------------------------------------
# Textbook oracles (examples/data, values from the books)
# ----------------------------------------------------------------------------------

def credit_data():
    _, rows = read_csv("credit_approval.csv")
    return [row[:3] for row in rows], [row[3] for row in rows]


def test_credit_approval_maximum_likelihood_matches_li_hang():
    X, y = credit_data()
    model = CategoricalNB(alpha=0).fit(X, y)
    joint = joint_probabilities(model, ["0", "1", "D"])
    assert joint["0"] == pytest.approx(0.010666666666666666, rel=1e-12)
    assert joint["1"] == pytest.approx(0.024, rel=1e-12)
    proba = model.predict_proba_one(["0", "1", "D"])
    assert proba["0"] == pytest.approx(0.3076923076923077, abs=1e-12)
    assert proba["1"] == pytest.approx(0.6923076923076923, abs=1e-12)


def test_credit_approval_laplace_on_likelihoods_and_prior():
    X, y = credit_data()
    model = CategoricalNB(alpha=1, prior_alpha=1).fit(X, y)
    joint = joint_probabilities(model, ["0", "1", "D"])
    assert joint["0"] == pytest.approx(6 / 17 * 5 / 7 * 2 / 7 * 2 / 8, rel=1e-12)
    assert joint["1"] == pytest.approx(11 / 17 * 4 / 12 * 7 / 12 * 3 / 13, rel=1e-12)
    assert joint["0"] == pytest.approx(0.018007, abs=1e-6)
    assert joint["1"] == pytest.approx(0.029034, abs=1e-6)
    assert model.predict_one(["0", "1", "D"]) == "1"


def test_li_hang_example_4_2_with_laplace_smoothing():
    _, rows = read_csv("lihang_example.csv")
    X = [(int(x1), x2) for x1, x2, _ in rows]
    y = [int(label) for *_, label in rows]
    model = CategoricalNB(alpha=1, prior_alpha=1).fit(X, y)
    joint = joint_probabilities(model, (2, "S"))
    assert joint[1] == pytest.approx(10 / 17 * 4 / 12 * 2 / 12, rel=1e-12)
    assert joint[-1] == pytest.approx(7 / 17 * 3 / 9 * 4 / 9, rel=1e-12)
    assert joint[1] == pytest.approx(0.0326797, abs=1e-7)
    assert joint[-1] == pytest.approx(0.0610021, abs=1e-7)
    assert model.predict_one((2, "S")) == -1


def watermelon_data():
    header, rows = read_csv("watermelon3.csv")
    X = [dict(zip(header[1:7], row[1:7]), **{header[7]: float(row[7]),
                                             header[8]: float(row[8])}) for row in rows]
    return X, [row[9] for row in rows]


def test_watermelon_mixed_features_without_smoothing():
    X, y = watermelon_data()
    model = NaiveBayes(alpha=0, ddof=1, var_smoothing=0).fit(X, y)
    assert model.feature_kinds_["密度"] == "gaussian"
    assert model.feature_kinds_["色泽"] == "categorical"
    joint = joint_probabilities(model, X[0])
    assert joint["是"] == pytest.approx(0.05238, rel=1e-3)
    assert joint["否"] == pytest.approx(6.858e-05, rel=1e-3)
    assert model.predict_one(X[0]) == "是"


def test_watermelon_mixed_features_with_laplace():
    X, y = watermelon_data()
    model = NaiveBayes(alpha=1, prior_alpha=1, ddof=1, var_smoothing=0).fit(X, y)
    joint = joint_probabilities(model, X[0])
    assert joint["是"] == pytest.approx(0.02563, rel=1e-3)
    assert joint["否"] == pytest.approx(7.722e-05, rel=1e-3)
    assert model.predict_one(X[0]) == "是"


def test_watermelon_density_by_hand():
    """The book's P(density=0.697 | good) = 1.959 with the sample standard deviation."""
    X, y = watermelon_data()
    model = NaiveBayes(ddof=1, var_smoothing=0, features={"密度": "gaussian"}).fit(
        [{"密度": row["密度"]} for row in X], y)
    good = [row["密度"] for row, label in zip(X, y) if label == "是"]
    mean = sum(good) / len(good)
    variance = sum((x - mean) ** 2 for x in good) / (len(good) - 1)
    density = math.exp(-(0.697 - mean) ** 2 / (2 * variance)) / math.sqrt(2 * math.pi * variance)
    joint = joint_probabilities(model, {"密度": 0.697})
    assert joint["是"] == pytest.approx(8 / 17 * density, rel=1e-12)
    assert density == pytest.approx(1.959, abs=1e-3)


# ----------------------------------------------------------------------------------
# Agreement with scikit-learn (CI installs it so these run)
# ----------------------------------------------------------------------------------

def ordinal_data(seed, n_rows=300, cardinalities=(3, 4, 2, 5), n_classes=3):
    """Random ordinal-coded rows in which every value of every feature occurs."""
    rng = random.Random(seed)
    X = [[i % c for c in cardinalities] for i in range(max(cardinalities))]
    X += [[rng.randrange(c) for c in cardinalities] for _ in range(n_rows)]
    y = [rng.randrange(n_classes) for _ in X]
    return X, y


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_categorical_agrees_with_sklearn(alpha):
    np, _ = needs_sklearn()
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
    X, y = ordinal_data(seed=int(alpha * 10))
    queries, _ = ordinal_data(seed=99, n_rows=200)
    ours = CategoricalNB(alpha=alpha).fit(X, y)
    theirs = SkCategoricalNB(alpha=alpha, force_alpha=True).fit(np.array(X), y)
    assert ours.classes_ == list(theirs.classes_)
    np.testing.assert_allclose(ours.predict_proba(queries),
                               theirs.predict_proba(np.array(queries)), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.predict_joint_log_proba(queries),
                               theirs.predict_joint_log_proba(np.array(queries)),
                               rtol=1e-9, atol=1e-9)
    assert ours.predict(queries) == list(theirs.predict(np.array(queries)))


def test_categorical_sample_weights_agree_with_sklearn():
    np, _ = needs_sklearn()
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
    X, y = ordinal_data(seed=3)
    weights = [random.Random(i).choice([0.5, 1, 2.25, 3]) for i in range(len(X))]
    ours = CategoricalNB(alpha=0.5).fit(X, y, sample_weight=weights)
    theirs = SkCategoricalNB(alpha=0.5).fit(np.array(X), y, sample_weight=weights)
    np.testing.assert_allclose(ours.predict_joint_log_proba(X),
                               theirs.predict_joint_log_proba(np.array(X)), rtol=1e-9)


def iris_data():
    _, rows = read_csv("iris.csv")
    return [[float(v) for v in row[:4]] for row in rows], [row[4] for row in rows]


def test_gaussian_agrees_with_sklearn_on_iris():
    np, _ = needs_sklearn()
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB
    X, y = iris_data()
    ours = GaussianNB().fit(X, y)
    theirs = SkGaussianNB().fit(np.array(X), y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(np.array(X)),
                               rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.predict_joint_log_proba(X),
                               theirs.predict_joint_log_proba(np.array(X)),
                               rtol=1e-9, atol=1e-9)
    variances = [[v for _, v in feature] for feature in _gaussian_moments(ours)]
    np.testing.assert_allclose(np.array(variances).T, theirs.var_, rtol=1e-12)


def _gaussian_moments(model):
    """[[(mean, variance) per class] per feature] of a Gaussian model, read off the
    log-density at two points: log N(x) = c - (x - m)^2 / 2v is a parabola in x."""
    width = len(model.feature_names_)
    moments = []
    for j, kind in enumerate(model.feature_kinds_.values()):
        if kind != "gaussian":
            continue
        at = [model.predict_joint_log_proba([[x if i == j else None for i in range(width)]])[0]
              for x in (0.0, 1.0, -1.0)]
        feature = []
        for k in range(len(model.classes_)):
            f0, f1, f2 = at[0][k], at[1][k], at[2][k]
            curvature = (f1 + f2 - 2 * f0) / 2          # -1 / 2v
            slope = (f1 - f2) / 2                       # m / v
            variance = -0.5 / curvature
            feature.append((slope * variance, variance))
        moments.append(feature)
    return moments


def test_gaussian_agrees_with_sklearn_with_heavy_var_smoothing():
    np, _ = needs_sklearn()
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB
    X, y = iris_data()
    ours = GaussianNB(var_smoothing=0.1).fit(X, y)
    theirs = SkGaussianNB(var_smoothing=0.1).fit(np.array(X), y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(np.array(X)),
                               atol=1e-9)


def test_mixed_model_equals_sklearn_categorical_plus_gaussian():
    np, _ = needs_sklearn()
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB
    X_cat, y = ordinal_data(seed=5)
    rng = random.Random(5)
    X_num = [[rng.gauss(label, 1.0), rng.gauss(-label, 2.0)] for label in y]
    rows = [c + n for c, n in zip(X_cat, X_num)]
    ours = NaiveBayes(features=["categorical"] * 4 + ["gaussian"] * 2).fit(rows, y)
    cat = SkCategoricalNB().fit(np.array(X_cat), y)
    gauss = SkGaussianNB().fit(np.array(X_num), y)
    expected = (cat.predict_joint_log_proba(np.array(X_cat))
                + gauss.predict_joint_log_proba(np.array(X_num))
                - np.log(cat.class_count_ / cat.class_count_.sum()))
    np.testing.assert_allclose(ours.predict_joint_log_proba(rows), expected, rtol=1e-9)


def test_sklearn_clone_and_cross_val_score_work():
    np, _ = needs_sklearn()
    from sklearn.base import clone, is_classifier
    from sklearn.model_selection import cross_val_score
    X, y = iris_data()
    model = NaiveBayes(alpha=0.5, class_prior="uniform")
    twin = clone(model)
    assert twin.get_params() == model.get_params() and twin is not model
    assert is_classifier(model)
    scores = cross_val_score(GaussianNB(), np.array(X), np.array(y), cv=5)
    assert len(scores) == 5 and min(scores) > 0.85


# ----------------------------------------------------------------------------------
# Hypothesis: random mixed data
# ----------------------------------------------------------------------------------

CATEGORY_VALUES = st.sampled_from(["red", "green", "blue", 0, 7, True, ("t", 1), -2.5])
NUMBERS = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@st.composite
def datasets(draw, max_rows=25, missing=True):
    """(kinds, X, y): 1..4 features of random kinds, rows with some values missing."""
    kinds = draw(st.lists(st.sampled_from(["categorical", "gaussian"]), min_size=1,
                          max_size=4))
    n_rows = draw(st.integers(1, max_rows))
    y = draw(st.lists(st.sampled_from(["spam", "ham", "eggs"]), min_size=n_rows,
                      max_size=n_rows))
    gaps = st.sampled_from([None, NAN]) if missing else st.nothing()
    columns = []
    for kind in kinds:
        values = CATEGORY_VALUES if kind == "categorical" else NUMBERS
        columns.append(draw(st.lists(st.one_of(values, gaps) if missing else values,
                                     min_size=n_rows, max_size=n_rows)))
    X = [list(row) for row in zip(*columns)]
    return kinds, X, y


def queries_for(X):
    """Rows to predict: the training rows, an all-missing row and unseen values."""
    width = len(X[0])
    return X + [[None] * width, ["never seen"] * width if False else [None] * width]


def known_values(X, j):
    return list(dict.fromkeys(row[j] for row in X if row[j] is not None and row[j] == row[j]))


@given(datasets(), st.sampled_from([0.01, 0.5, 1.0, 3.0]))
def test_smoothed_probabilities_are_positive_and_sum_to_one(data, alpha):
    kinds, X, y = data
    model = NaiveBayes(alpha=alpha, features=kinds).fit(X, y)
    width = len(kinds)
    empty = model.predict_joint_log_proba([[None] * width])[0]      # log P(c)
    for j, kind in enumerate(kinds):
        if kind != "categorical":
            continue
        values = known_values(X, j)
        if not values:
            continue
        rows = [[v if i == j else None for i in range(width)] for v in values]
        likelihoods = [[math.exp(a - b) for a, b in zip(joint, empty)]
                       for joint in model.predict_joint_log_proba(rows)]
        for k in range(len(model.classes_)):
            column = [row[k] for row in likelihoods]
            assert all(p > 0 for p in column)
            assert math.fsum(column) == pytest.approx(1.0, abs=1e-12)


@given(datasets(), st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 1e-9, 0.5]),
       st.sampled_from([0, 1]))
def test_predict_proba_rows_sum_to_one_and_hold_no_nan(data, alpha, var_smoothing, ddof):
    kinds, X, y = data
    model = NaiveBayes(alpha=alpha, var_smoothing=var_smoothing, ddof=ddof,
                       features=kinds).fit(X, y)
    unseen = [["never seen" if k == "categorical" else 1e7 for k in kinds]]
    queries = X + unseen + [[None] * len(kinds)]
    for row, log_row in zip(model.predict_proba(queries), model.predict_log_proba(queries)):
        assert not any(p != p for p in row) and not any(p != p for p in log_row)
        assert math.fsum(row) == pytest.approx(1.0, abs=1e-12)
        assert all(0.0 <= p <= 1.0 for p in row)
    for joint in model.predict_joint_log_proba(queries):
        assert not any(v != v for v in joint)
    assert all(label in model.classes_ for label in model.predict(queries))


@given(datasets(), st.randoms(use_true_random=False))
def test_shuffling_the_training_rows_changes_nothing(data, rng):
    kinds, X, y = data
    pairs = list(zip(X, y))
    rng.shuffle(pairs)
    first = NaiveBayes(features=kinds).fit(X, y)
    second = NaiveBayes(features=kinds).fit([p[0] for p in pairs], [p[1] for p in pairs])
    assert first.classes_ == second.classes_
    assert first.class_count_ == second.class_count_
    assert first.predict_joint_log_proba(X) == second.predict_joint_log_proba(X)


@given(datasets(), st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_partial_fit_in_any_chunking_equals_one_fit(data, cuts):
    kinds, X, y = data
    whole = NaiveBayes(features=kinds).fit(X, y)
    pieces = NaiveBayes(features=kinds)
    start = 0
    for size in cuts + [len(X)]:
        if start >= len(X):
            break
        pieces.partial_fit(X[start:start + size], y[start:start + size])
        start += size
    assert pieces.classes_ == whole.classes_
    assert pieces.class_count_ == whole.class_count_
    assert pieces.predict_joint_log_proba(X) == whole.predict_joint_log_proba(X)


@given(datasets(), st.randoms(use_true_random=False))
def test_sequences_and_mappings_give_the_same_model(data, rng):
    kinds, X, y = data
    names = ["f%d" % j for j in range(len(kinds))]
    # a missing value may be None, NaN or an absent key
    mappings = [{name: v for name, v in zip(names, row)
                 if not (v is None and rng.random() < 0.5)} for row in X]
    as_rows = NaiveBayes(features=kinds).fit(X, y)
    as_dicts = NaiveBayes(features=dict(zip(names, kinds))).fit(mappings, y)
    assert as_rows.predict_joint_log_proba(X) == as_dicts.predict_joint_log_proba(mappings)
    assert as_rows.predict_joint_log_proba(X) == as_dicts.predict_joint_log_proba(X)


@given(datasets(missing=False), st.lists(st.integers(0, 3), min_size=25, max_size=25))
def test_a_weight_of_n_equals_the_row_given_n_times(data, weights):
    kinds, X, y = data
    weights = weights[:len(X)]
    if not any(weights):
        weights[0] = 1
    weighted = NaiveBayes(features=kinds).fit(X, y, sample_weight=weights)
    repeated_X = [row for row, w in zip(X, weights) for _ in range(w)]
    repeated_y = [label for label, w in zip(y, weights) for _ in range(w)]
    repeated = NaiveBayes(features=kinds).fit(repeated_X, repeated_y)
    assert weighted.classes_ == repeated.classes_
    assert weighted.class_count_ == repeated.class_count_
    assert weighted.predict_joint_log_proba(X) == repeated.predict_joint_log_proba(X)


@given(datasets(), st.sampled_from([0.5, 1.0]))
def test_generators_fit_like_lists(data, alpha):
    kinds, X, y = data
    from_lists = NaiveBayes(alpha=alpha, features=kinds).fit(X, y)
    from_generators = NaiveBayes(alpha=alpha, features=kinds).fit(
        (row for row in X), (label for label in y))
    assert from_lists.predict_joint_log_proba(X) == from_generators.predict_joint_log_proba(X)


def test_generators_are_read_in_chunks_and_kept_nowhere(monkeypatch):
    import naive_bayes
    monkeypatch.setattr(naive_bayes, "_CHUNK", 7)
    rng = random.Random(1)
    rows = [[rng.choice("abc"), rng.random()] for _ in range(100)]
    labels = [rng.choice("xy") for _ in rows]
    streamed = NaiveBayes().fit(iter(rows), iter(labels))
    assert streamed.predict_joint_log_proba(rows) == NaiveBayes().fit(
        rows, labels).predict_joint_log_proba(rows)


# ----------------------------------------------------------------------------------
# Policies: missing values, unseen values, priors, ties, zero variance, inference
# ----------------------------------------------------------------------------------

def test_missing_values_are_skipped_in_fit_and_predict():
    X = [["a", 1.0], ["a", None], [None, 3.0], ["b", NAN], ["b", 5.0]]
    y = ["p", "p", "q", "q", "q"]
    model = NaiveBayes().fit(X, y)
    assert model.class_count_ == [2, 3]
    # feature 0 of class q: N_qj = 2 present values (one b... and None skipped)
    alone = NaiveBayes().fit([[row[0]] for row in X], y)
    expected = alone.predict_joint_log_proba([["b"]])
    assert model.predict_joint_log_proba([["b", None]])[0] == pytest.approx(expected[0])
    assert model.predict_joint_log_proba([["b", NAN]])[0] == pytest.approx(expected[0])
    prior_only = model.predict_joint_log_proba([[None, None]])[0]
    assert prior_only == pytest.approx([math.log(2 / 5), math.log(3 / 5)])


def test_unseen_value_gets_the_laplace_fallback():
    X, y = credit_data()
    model = CategoricalNB(alpha=1).fit(X, y)
    # class "0": 5 rows, education has S_j = 3 known values -> 1 / (5 + 3)
    seen = model.predict_joint_log_proba([[None, None, "D"]])[0]
    unseen = model.predict_joint_log_proba([[None, None, "PhD"]])[0]
    prior = model.predict_joint_log_proba([[None, None, None]])[0]
    assert math.exp(unseen[0] - prior[0]) == pytest.approx(1 / (5 + 3))
    assert math.exp(unseen[1] - prior[1]) == pytest.approx(1 / (10 + 3))
    assert math.exp(seen[0] - prior[0]) == pytest.approx((1 + 1) / (5 + 3))


def test_lidstone_fallback_is_alpha_over_smoothed_count():
    X, y = credit_data()
    model = CategoricalNB(alpha=0.5).fit(X, y)
    unseen = model.predict_joint_log_proba([[None, None, "PhD"]])[0]
    prior = model.predict_joint_log_proba([[None, None, None]])[0]
    assert math.exp(unseen[0] - prior[0]) == pytest.approx(0.5 / (5 + 0.5 * 3))


def test_declared_categories_count_in_s_j():
    X, y = credit_data()
    declared = CategoricalNB(categories={2: ["D", "S", "T", "PhD"]}).fit(X, y)
    prior = declared.predict_joint_log_proba([[None, None, None]])[0]
    joint = declared.predict_joint_log_proba([[None, None, "PhD"]])[0]
    assert math.exp(joint[0] - prior[0]) == pytest.approx(1 / (5 + 4))


def test_value_outside_declared_categories_is_an_error():
    X, y = credit_data()
    with pytest.raises(NaiveBayesError, match=r"row 0.*feature 2.*declared"):
        CategoricalNB(categories=[None, None, ["D", "S"]]).fit(X, y)


def test_unknown_feature_names_are_ignored_at_predict_time():
    model = NaiveBayes().fit([{"a": "x"}, {"a": "y"}], [0, 1])
    assert model.predict_joint_log_proba([{"a": "x", "zzz": 4}]) == \
        model.predict_joint_log_proba([{"a": "x"}])


def test_class_prior_uniform_and_given():
    X, y = credit_data()
    uniform = CategoricalNB(class_prior="uniform").fit(X, y)
    assert uniform.predict_joint_log_proba([[None] * 3])[0] == [math.log(0.5)] * 2
    given_prior = CategoricalNB(class_prior={"0": 0.9, "1": 0.1}).fit(X, y)
    assert given_prior.predict_joint_log_proba([[None] * 3])[0] == \
        pytest.approx([math.log(0.9), math.log(0.1)])


def test_prior_alpha_smooths_the_prior():
    X, y = credit_data()
    model = CategoricalNB(prior_alpha=2).fit(X, y)
    assert math.exp(model.predict_joint_log_proba([[None] * 3])[0][0]) == \
        pytest.approx((5 + 2) / (15 + 2 * 2))


def test_parameters_changed_after_fit_take_effect_without_refitting():
    X, y = credit_data()
    model = CategoricalNB(alpha=1).fit(X, y)
    model.set_params(alpha=0, prior_alpha=0)
    assert model.predict_proba_one(["0", "1", "D"])["1"] == pytest.approx(0.6923076923076923)


def test_ties_go_to_the_earlier_class():
    model = CategoricalNB().fit([["a"], ["a"]], ["z", "b"])
    assert model.classes_ == ["b", "z"]
    assert model.predict([["a"]]) == ["b"]
    assert model.predict_proba([["a"]]) == [[0.5, 0.5]]


def test_classes_are_sorted_when_orderable_else_first_seen():
    assert NaiveBayes().fit([[1], [2], [3]], [3, 1, 2]).classes_ == [1, 2, 3]
    assert NaiveBayes().fit([[1], [2], [3]], ["b", 1, ("t",)]).classes_ == ["b", 1, ("t",)]


def test_feature_kind_inference():
    X = [["a", 1, 2.5, True, None, 3], ["b", 2.0, -1, False, None, "x"]]
    kinds = NaiveBayes().fit(X, [0, 1]).feature_kinds_
    assert kinds == {0: "categorical", 1: "gaussian", 2: "gaussian", 3: "categorical",
                     4: "gaussian", 5: "categorical"}


def test_all_missing_feature_takes_its_kind_from_later_batches():
    model = NaiveBayes().partial_fit([[None, "a"]], [0])
    model.partial_fit([["x", "b"]], [1])
    assert model.feature_kinds_[0] == "categorical"


def test_categorical_and_gaussian_nb_fix_the_kind():
    assert CategoricalNB().fit([[1.5], [2.5]], [0, 1]).feature_kinds_ == {0: "categorical"}
    assert GaussianNB().fit([[1], [2]], [0, 1]).feature_kinds_ == {0: "gaussian"}


def test_ignored_features_contribute_nothing():
    X, y = credit_data()
    model = CategoricalNB(features={1: "ignore"}).fit(X, y)
    assert model.feature_kinds_[1] == "ignore"
    assert model.predict_joint_log_proba([["0", "1", "D"]]) == \
        model.predict_joint_log_proba([["0", "0", "D"]])


def test_ddof_is_the_variance_divisor():
    X = [[1.0], [2.0], [4.0], [10.0], [11.0]]
    y = [0, 0, 0, 1, 1]
    for ddof in (0, 1):
        model = GaussianNB(ddof=ddof, var_smoothing=0).fit(X, y)
        variance = sum((x - 7 / 3) ** 2 for x in (1, 2, 4)) / (3 - ddof)
        expected = math.log(3 / 5) - 0.5 * math.log(2 * math.pi * variance) \
            - (3.0 - 7 / 3) ** 2 / (2 * variance)
        assert model.predict_joint_log_proba([[3.0]])[0][0] == pytest.approx(expected)


def test_var_smoothing_uses_the_largest_variance_of_all_features():
    X = [[0.0, 0.0], [0.0, 10.0], [1.0, 0.0], [1.0, 10.0]]
    model = GaussianNB(var_smoothing=0.5).fit(X, [0, 0, 1, 1])
    # largest pooled variance (ddof 0) is 25, so every variance grows by 12.5
    variances = [[v for _, v in feature] for feature in _gaussian_moments(model)]
    assert variances[0] == pytest.approx([0.0 + 12.5, 0.0 + 12.5])
    assert variances[1] == pytest.approx([25 + 12.5, 25 + 12.5])


def test_zero_variance_is_a_point_mass_and_never_nan():
    model = GaussianNB(var_smoothing=0).fit([[1.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"])
    assert model.predict([[1.0]]) == ["a"]            # at the point mass
    assert model.predict_proba([[1.0]]) == [[1.0, 0.0]]
    assert model.predict_proba([[2.5]]) == [[0.0, 1.0]]  # anywhere else: impossible for "a"
    joint = model.predict_joint_log_proba([[1.0], [2.5]])
    assert joint[0][0] == math.inf and joint[1][0] == -math.inf


def test_subnormal_variance_gives_no_nan():
    model = GaussianNB().fit([[0.0], [2.1047996867205344e-154]], ["spam", "ham"])
    for row in model.predict_joint_log_proba([[0.0], [2.1047996867205344e-154], [1.0]]):
        assert not any(v != v for v in row)
    assert model.predict([[0.0], [2.1047996867205344e-154]]) == ["spam", "ham"]


@given(st.lists(st.tuples(st.floats(allow_nan=False, allow_infinity=False),
                          st.sampled_from("ab")), min_size=1, max_size=12),
       st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=5),
       st.sampled_from([0.0, 1e-9]), st.sampled_from([0, 1]))
def test_gaussian_over_the_whole_float_range_never_gives_nan(pairs, queries, smoothing, ddof):
    model = GaussianNB(var_smoothing=smoothing, ddof=ddof).fit(
        [[x] for x, _ in pairs], [label for _, label in pairs])
    rows = [[q] for q in queries] + [[x] for x, _ in pairs]
    for joint, proba in zip(model.predict_joint_log_proba(rows), model.predict_proba(rows)):
        assert not any(v != v for v in joint)
        assert math.fsum(proba) == pytest.approx(1.0, abs=1e-12)


def test_every_class_impossible_falls_to_the_remaining_evidence():
    X = [["a", "x"], ["a", "x"], ["b", "y"]]
    y = [0, 0, 1]
    model = CategoricalNB(alpha=0).fit(X, y)
    # value "a" rules out class 1, value "y" rules out class 0: both classes impossible
    # once each, so the prior decides
    proba = model.predict_proba([["a", "y"]])[0]
    assert proba == pytest.approx([2 / 3, 1 / 3])
    assert model.predict_joint_log_proba([["a", "y"]])[0] == [-math.inf, -math.inf]


def test_alpha_zero_with_unseen_value_is_uninformative():
    X, y = credit_data()
    model = CategoricalNB(alpha=0).fit(X, y)
    assert model.predict_proba([["0", "1", "PhD"]])[0] == \
        pytest.approx(model.predict_proba([["0", "1", None]])[0])


def test_gaussian_class_without_values_borrows_the_pooled_distribution():
    X = [[1.0, "a"], [3.0, "a"], [None, "b"], [None, "b"]]
    model = NaiveBayes(var_smoothing=0).fit(X, [0, 0, 1, 1])
    [moments] = _gaussian_moments(NaiveBayes(var_smoothing=0, features={1: "ignore"}).fit(X, [0, 0, 1, 1]))
    assert [v for moment in moments for v in moment] == pytest.approx([2.0, 1.0, 2.0, 1.0])


def test_predict_accepts_generators_tuples_and_numpy_like_rows():
    model = NaiveBayes().fit([("a", 1.0), ("b", 2.0)], [0, 1])
    assert model.predict(row for row in [("a", 1.0), ["b", 2.0]]) == [0, 1]
    assert model.predict_one(("b", 2.0)) == 1
    assert model.score([("a", 1.0), ("b", 2.0)], [0, 1]) == 1.0


def test_predict_proba_one_returns_a_dict_by_label():
    X, y = credit_data()
    model = CategoricalNB().fit(X, y)
    proba = model.predict_proba_one(["0", "1", "D"])
    assert list(proba) == model.classes_
    assert proba == dict(zip(model.classes_, model.predict_proba([["0", "1", "D"]])[0]))


def test_log_proba_is_the_log_of_proba():
    X, y = iris_data()
    model = GaussianNB().fit(X, y)
    for p, lp in zip(model.predict_proba(X[::10]), model.predict_log_proba(X[::10])):
        assert [math.exp(v) for v in lp] == pytest.approx(p, abs=1e-15)


def test_many_features_do_not_underflow():
    rows = [["v%d" % (i % 2)] * 2000 for i in range(4)]
    model = CategoricalNB().fit(rows, [0, 1, 0, 1])
    proba = model.predict_proba(rows[:2])
    assert proba[0][0] > 0.99 and proba[1][1] > 0.99


def test_get_params_set_params_and_repr():
    model = NaiveBayes(alpha=0.5)
    assert model.get_params()["alpha"] == 0.5
    assert set(model.get_params()) == {
        "alpha", "prior_alpha", "class_prior", "features", "categories", "ddof",
        "var_smoothing", "text_model", "max_words", "min_word_count", "tokenizer"}
    assert model.set_params(ddof=1) is model and model.ddof == 1
    assert repr(model) == "NaiveBayes(alpha=0.5, ddof=1)"


def test_a_model_can_be_pickled_and_copied():
    X, y = credit_data()
    model = CategoricalNB().fit(X, y)
    for twin in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
        assert twin.predict_joint_log_proba(X) == model.predict_joint_log_proba(X)


# ----------------------------------------------------------------------------------
# Bad input: a NaiveBayesError naming the argument and row; nothing changes
# ----------------------------------------------------------------------------------

def test_error_is_a_value_error():
    assert issubclass(NaiveBayesError, ValueError)


@pytest.mark.parametrize("X, y, message", [
    ([], [], r"fit\(\): X is empty"),
    ([["a"], ["b"]], ["p"], r"X has 2 rows but y has 1"),
    ([["a"]], ["p", "q"], r"X has 1 rows but y has 2"),
    ([["a", "b"], ["c"]], ["p", "q"], r"X row 1 has 1 values, expected 2"),
    ([["a"], [["unhashable"]]], ["p", "q"], r"X row 1, feature 0 is list.*hashable"),
    ([["a"], ["b"]], ["p", ["q"]], r"y row 1 is list.*hashable label"),
    ([["a"], ["b"]], ["p", None], r"y row 1 is missing"),
    (["abc"], ["p"], r"X row 0 is str.*sequence or mapping"),
    ([1, 2], ["p", "q"], r"X row 0 is int.*sequence or mapping"),
    ([["a"], {"x": 1}], ["p", "q"], r"X row 1 is a dict"),
])
def test_fit_rejects_bad_data(X, y, message):
    with pytest.raises(NaiveBayesError, match=message):
        NaiveBayes().fit(X, y)


@pytest.mark.parametrize("bad", ["text", float("inf"), -float("inf"), True, [1.0]])
def test_gaussian_feature_rejects_non_numbers(bad):
    with pytest.raises(NaiveBayesError, match=r"X row 1, feature 0 is .*expected a (finite|real) number"):
        GaussianNB().fit([[1.0], [bad], [2.0]], [0, 1, 0])


def test_inferred_gaussian_feature_contradicted_later_names_the_fix(monkeypatch):
    import naive_bayes
    monkeypatch.setattr(naive_bayes, "_CHUNK", 2)
    rows = iter([[1.0], [2.0], ["three"]])
    with pytest.raises(NaiveBayesError, match=r"X row 2.*inferred Gaussian.*features="):
        NaiveBayes().fit(rows, iter([0, 1, 0]))


def test_predict_rejects_non_numbers_in_gaussian_features():
    model = GaussianNB().fit([[1.0], [2.0]], [0, 1])
    with pytest.raises(NaiveBayesError, match=r"predict\(\): X row 1 feature 0 is 'x'"):
        model.predict([[1.0], ["x"]])
    with pytest.raises(NaiveBayesError, match=r"predict_one\(\): x feature 0 is inf"):
        model.predict_one([math.inf])


def test_predict_rejects_rows_of_the_wrong_width_and_unhashable_values():
    model = CategoricalNB().fit([["a", "b"]], [0])
    with pytest.raises(NaiveBayesError, match=r"predict_proba\(\): X row 0 has 3 values, expected 2"):
        model.predict_proba([["a", "b", "c"]])
    with pytest.raises(NaiveBayesError, match=r"X row 0 feature 1 is list.*hashable"):
        model.predict([["a", ["b"]]])


@pytest.mark.parametrize("params, message", [
    ({"alpha": -1}, r"alpha=-1; expected a finite number >= 0"),
    ({"alpha": "1"}, r"alpha='1'"),
    ({"prior_alpha": -0.5}, r"prior_alpha=-0.5"),
    ({"var_smoothing": -1e-9}, r"var_smoothing=-1e-09"),
    ({"ddof": float("nan")}, r"ddof=nan"),
    ({"class_prior": {"a": 0.5, "b": 0.6}}, r"class_prior sums to 1.1"),
    ({"class_prior": {"a": -0.5, "b": 1.5}}, r"class_prior\['a'\] is -0.5"),
    ({"class_prior": "flat"}, r"class_prior='flat'"),
    ({"features": {"x": "nominal"}}, r"features\['x'\] is 'nominal'; expected one of"),
    ({"features": ["gaussian", "numeric"]}, r"features\[1\] is 'numeric'"),
    ({"features": "gaussian"}, r"features='gaussian'"),
    ({"categories": {"x": "abc"}}, r"categories\['x'\] is 'abc'"),
    ({"categories": {"x": ["a"]}, "features": {"x": "gaussian"}}, r"categories declares"),
    ({"text_model": "poisson"}, r"text_model='poisson'"),
    ({"max_words": 0}, r"max_words=0"),
    ({"tokenizer": 3}, r"tokenizer=3"),
])
def test_bad_parameters_are_rejected_by_name(params, message):
    with pytest.raises(NaiveBayesError, match=message):
        NaiveBayes(**params)
    with pytest.raises(NaiveBayesError, match=message):
        NaiveBayes().set_params(**params)


def test_set_params_rejects_unknown_names():
    with pytest.raises(NaiveBayesError, match=r"unknown parameter 'alpah'"):
        NaiveBayes().set_params(alpah=1)


def test_class_prior_naming_unknown_classes():
    X, y = credit_data()
    with pytest.raises(NaiveBayesError, match=r"class_prior names \['2'\]"):
        CategoricalNB(class_prior={"0": 0.5, "2": 0.5}).fit(X, y)
    with pytest.raises(NaiveBayesError, match=r"no probability for class \['1'\]"):
        CategoricalNB(class_prior={"0": 1.0}).fit(X, y)
    model = CategoricalNB().fit(X, y)
    with pytest.raises(NaiveBayesError, match=r"set_params\(\): class_prior names"):
        model.set_params(class_prior={"yes": 1.0})


@pytest.mark.parametrize("weights, message", [
    ([1, -1], r"sample_weight row 1 is -1; expected a finite number >= 0"),
    ([1, float("nan")], r"sample_weight row 1 is nan"),
    ([1, "2"], r"sample_weight row 1 is str"),
    ([1], r"sample_weight has 1 weights"),
    ([0, 0], r"sample_weight is 0 for every row"),
])
def test_bad_sample_weights(weights, message):
    with pytest.raises(NaiveBayesError, match=message):
        NaiveBayes().fit([["a"], ["b"]], ["p", "q"], sample_weight=weights)


def test_predict_before_fit():
    for method in ("predict", "predict_proba", "predict_log_proba", "predict_joint_log_proba"):
        with pytest.raises(NaiveBayesError, match=r"%s\(\): this NaiveBayes is not fitted yet"
                           % method):
            getattr(NaiveBayes(), method)([["a"]])
    with pytest.raises(NaiveBayesError, match="not fitted"):
        GaussianNB().predict_one([1.0])
    assert not hasattr(NaiveBayes(), "classes_")


@pytest.mark.parametrize("X, y", [
    ([["a", 1.0], ["b", [1]]], ["p", "q"]),
    ([["a", 1.0], ["b"]], ["p", "q"]),
    ([["a", 1.0]], ["p", "q"]),
    ([["c", 2.0], ["d", math.inf]], ["p", "new class"]),
    ([], []),
])
def test_a_failed_fit_or_partial_fit_leaves_the_model_as_it_was(X, y):
    model = NaiveBayes().fit([["a", 1.0], ["b", 2.0], ["a", 1.5]], ["p", "q", "p"])
    probes = [["a", 1.0], ["b", 2.5], ["z", None]]
    before = snapshot(model, probes)
    for method in (model.fit, model.partial_fit):
        with pytest.raises(NaiveBayesError):
            method(X, y)
        assert snapshot(model, probes) == before


def test_a_failed_fit_from_a_generator_leaves_the_model_as_it_was(monkeypatch):
    import naive_bayes
    monkeypatch.setattr(naive_bayes, "_CHUNK", 2)
    model = NaiveBayes().fit([["a", 1.0], ["b", 2.0]], ["p", "q"])
    before = snapshot(model, [["a", 1.0]])
    rows = iter([["a", 3.0], ["b", 4.0], ["c", 5.0], ["d", "six"]])
    with pytest.raises(NaiveBayesError, match="X row 3"):
        model.partial_fit(rows, iter("pqpq"))
    assert snapshot(model, [["a", 1.0]]) == before
