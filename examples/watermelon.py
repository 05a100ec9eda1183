"""Watermelon data set 3.0 (Zhou Zhihua, *Machine Learning*, section 7.3): six
categorical features and two numeric ones in one model, with the book's settings.

Run: python examples/watermelon.py   (nothing to install)
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

from naive_bayes import NaiveBayes, read_csv  # noqa: E402

# 好瓜 (good melon: 是 yes / 否 no) is the label; 编号 numbers the melons.
table = read_csv(HERE / "data" / "watermelon3.csv", target="好瓜", ignore=["编号"])
X = [{name: value for name, value in row.items() if name != "编号"}
     for row in table.records()]              # the density and sugar columns are numbers
y = table.y

# The book's settings: sample standard deviation (ddof=1), no variance smoothing.
BOOK = dict(ddof=1, var_smoothing=0)
for title, params, printed in [
        ("no smoothing (alpha = 0)", dict(alpha=0),
         "the book prints 0.038 for 是; recomputing from its own table gives 0.0524"),
        ("Laplace smoothing (alpha = 1 on likelihoods and prior)",
         dict(alpha=1, prior_alpha=1), None)]:
    model = NaiveBayes(**BOOK, **params).fit(X, y)
    joint = dict(zip(model.classes_, model.predict_joint_log_proba([X[0]])[0]))
    print("Test 1 (the first melon), %s:" % title)
    for c in model.classes_:
        print("  %s: joint %.6g" % (c, math.exp(joint[c])))
    print("  predicted:", model.predict_one(X[0]))
    if printed:
        print("  (%s)" % printed)
    print()

print("Feature kinds inferred from the values:")
for name, kind in model.feature_kinds_.items():
    print("  %-4s %s" % (name, kind))

# Leave-one-out accuracy with the book's Laplace settings: train on 16, predict the 17th.
hits = 0
for i in range(len(X)):
    model = NaiveBayes(alpha=1, prior_alpha=1, **BOOK).fit(X[:i] + X[i + 1:], y[:i] + y[i + 1:])
    hits += model.predict_one(X[i]) == y[i]
print("\nLeave-one-out accuracy (Laplace, ddof=1): %d/%d" % (hits, len(X)))
