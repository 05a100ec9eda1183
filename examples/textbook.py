"""The worked examples of Li Hang's *Statistical Learning Methods*, recomputed.

Run: python examples/textbook.py   (nothing to install)
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

from naive_bayes import CategoricalNB, read_csv   # noqa: E402


def show(title, model, x, book):
    """Print the joint likelihood P(c) * prod P(x_j | c) of each class next to the book's."""
    print(title)
    joint = model.predict_joint_log_proba([x])[0]
    posterior = model.predict_proba_one(x)
    for label, log_joint in zip(model.classes_, joint):
        print("  class %-3s joint %.6f (book: %s)  posterior %.4f"
              % (label, math.exp(log_joint), book[label], posterior[label]))
    print("  predicted:", model.predict_one(x))
    print()


# The 0/1 columns are codes, not measurements: read them as categories.
table = read_csv(HERE / "data" / "credit_approval.csv", target="approved",
                 categorical=["has_job", "has_house"])
X, y = table.X, table.y                        # labels that are integers come as ints
x = ["0", "1", "D"]                            # has_job=0, has_house=1, education=D
print("Credit approval: %d applicants, features %s, query %s\n" % (len(X), table.names, x))
show("Maximum likelihood (alpha = 0, as CategoricalNB(alpha=0)):",
     CategoricalNB(alpha=0).fit(X, y), x, {0: "0.010667", 1: "0.024"})
show("Bayesian estimate, lambda = 1 on likelihoods and prior:",
     CategoricalNB(alpha=1, prior_alpha=1).fit(X, y), x,
     {0: "6/17*5/7*2/7*2/8 = 0.018007", 1: "11/17*4/12*7/12*3/13 = 0.029035"})

table = read_csv(HERE / "data" / "lihang_example.csv", target="y")
X, y = table.X, table.y                        # x1 is read as numbers: 1.0, 2.0, 3.0
show("Li Hang example 4.2, x = (2, S), lambda = 1:",
     CategoricalNB(alpha=1, prior_alpha=1).fit(X, y), (2, "S"),
     {1: "10/17*4/12*2/12 = 0.032680", -1: "7/17*3/9*4/9 = 0.061002"})
