"""A text classifier, as in the seed articles' spam filters: which Reuters articles are
about grain?  Then one row that mixes text with a category and a number.

Run: python examples/spam_filter.py   (nothing to install)
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

from naive_bayes import NaiveBayes, read_csv  # noqa: E402


def read(name):
    """Articles as {"text": ...} rows, and their labels as text ("1": about grain)."""
    table = read_csv(HERE / "data" / name, target="label", text=["text"])
    return table.records(), [str(label) for label in table.y]


X_train, y_train = read("reuters_grain_train.csv")
X_test, y_test = read("reuters_grain_test.csv")
print("Reuters-21578: %d training and %d test articles; label 1 = about grain (%d and %d)\n"
      % (len(X_train), len(X_test), y_train.count("1"), y_test.count("1")))


def scores(model):
    """Precision, recall and F1 of the grain class on the test articles."""
    predicted = model.predict(X_test)
    hits = sum(p == t == "1" for p, t in zip(predicted, y_test))
    precision = hits / max(1, predicted.count("1"))
    recall = hits / y_test.count("1")
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return precision, recall, f1


print("%-52s %9s %7s %6s" % ("model", "precision", "recall", "F1"))
models = {}
for title, params in [
        ("set-of-words (Bernoulli), top 1,000 words",
         dict(text_model="bernoulli", max_words=1000)),
        ("set-of-words (Bernoulli), every word", dict(text_model="bernoulli")),
        ("bag-of-words (multinomial), every word", dict(text_model="multinomial")),
        ("bag-of-words, class_weight=\"balanced\" (grain: 7%)",
         dict(text_model="multinomial", class_weight="balanced"))]:
    model = NaiveBayes(features={"text": "text"}, **params).fit(X_train, y_train)
    models[title] = model
    print("%-52s %9.3f %7.3f %6.3f" % ((title,) + scores(model)))
print("\n(The set-of-words model also counts every absent word as evidence; with a large\n"
      "vocabulary the absences of a long article outweigh its few grain words.)\n")

model = models["bag-of-words (multinomial), every word"]
print("Most informative words (likelihood ratio between the classes):")
for _, word, score, favoured in model.most_informative_features(12):
    print("  %-12s favours %s  %7.1f : 1" % (word, favoured, 2.718281828459045 ** score))

document = next(x for x, label in zip(X_test, y_test)
                if label == "1" and model.predict_one(x) == "1")
parts = model.explain(document)
probability = model.predict_proba_one(document)["1"]
words = parts["features"][0]["words"]
ranked = sorted(words, key=lambda w: -(words[w]["1"] - words[w]["0"]))
print("\nOne test article, P(grain) = %.4f: %s..." % (probability, " ".join(
    document["text"].split()[:12])))
print("  words for grain:    ", ", ".join(ranked[:8]))
print("  words against grain:", ", ".join(ranked[-8:][::-1]))

# A three-way decision, as a mail client's "unsure" folder: where the largest
# probability is below reject_below, predict says "unsure" and leaves the article to a
# person; the articles it does decide are decided better.  (Probabilities never change.)
print("\nThree-way decision: grain, not grain, or unsure when max P(c | x) < reject_below")
print("%-14s %7s %10s %7s %9s  (of the articles decided)"
      % ("reject_below", "unsure", "precision", "recall", "accuracy"))
for reject_below in (None, 0.99, 0.9999):
    model.set_params(reject_below=reject_below)
    decided = [(p, t) for p, t in zip(model.predict(X_test), y_test) if p != "unsure"]
    hits = sum(p == t == "1" for p, t in decided)
    said_grain = sum(p == "1" for p, _ in decided)
    grain = sum(t == "1" for _, t in decided)
    print("%-14s %7d %10.3f %7.3f %9.3f" % (
        reject_below, len(X_test) - len(decided), hits / max(1, said_grain), hits / grain,
        sum(p == t for p, t in decided) / len(decided)))
model.set_params(reject_below=None)

# One row, three kinds of feature: a subject line (text), the sender's domain
# (categorical) and the message length (Gaussian).
mail = [
    {"subject": "win a free prize now", "domain": "prizes.biz", "length": 310.0},
    {"subject": "cheap pills, win big", "domain": "pharma.biz", "length": 250.0},
    {"subject": "you have won: claim your prize", "domain": "prizes.biz", "length": 280.0},
    {"subject": "minutes of the meeting", "domain": "work.org", "length": 2400.0},
    {"subject": "lunch on friday?", "domain": "friends.net", "length": 400.0},
    {"subject": "draft report for review", "domain": "work.org", "length": 5200.0},
]
labels = ["spam", "spam", "spam", "ham", "ham", "ham"]
mixed = NaiveBayes(features={"subject": "text"}).fit(mail, labels)
print("\nMixed rows:", mixed.feature_kinds_)
for message in [{"subject": "claim your free lunch", "domain": "work.org", "length": 900.0},
                {"subject": "prize draw", "domain": "prizes.biz"}]:         # no length
    p = mixed.predict_proba_one(message)
    print("  %-70s P(spam) = %.3f" % (message, p["spam"]))

# Forgetting (sa-learn --forget): a message filed in the wrong folder is taken back
# exactly, and the model is then the one fitted without it, count for count.
from naive_bayes import _json_text            # noqa: E402  (the model file's text)

misfiled = {"subject": "lunch on friday?", "domain": "friends.net", "length": 400.0}
filter_ = NaiveBayes(features={"subject": "text"}).fit(mail, labels)
before = _json_text(filter_.to_dict())
filter_.partial_fit([misfiled], ["spam"])                     # filed as spam by mistake
print("\nForgetting a misfiled message: P(spam) = %.3f after filing it as spam"
      % filter_.predict_proba_one(misfiled)["spam"])
filter_.forget([misfiled], ["spam"])
print("  forgotten: P(spam) = %.3f; the model file is the one before: %s"
      % (filter_.predict_proba_one(misfiled)["spam"], _json_text(filter_.to_dict()) == before))
assert _json_text(filter_.to_dict()) == before
without = NaiveBayes(features={"subject": "text"}).fit(mail[:4] + mail[5:],
                                                       labels[:4] + labels[5:])
filter_.forget([mail[4]], [labels[4]])                        # a message withdrawn
print("  one message withdrawn: the same file as a fit without it: %s"
      % (_json_text(filter_.to_dict()) == _json_text(without.to_dict())))
assert _json_text(filter_.to_dict()) == _json_text(without.to_dict())
