"""Fisher's iris: four numeric features, three classes, Gaussian naive Bayes.

Run: python examples/iris.py   (nothing to install)
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

from naive_bayes import GaussianNB, read_csv  # noqa: E402

table = read_csv(HERE / "data" / "iris.csv", target="class")
X, y = table.X, table.y                       # four numbers per flower, and its species

# Every fifth flower is held out for testing.
train = [i for i in range(len(X)) if i % 5]
test = [i for i in range(len(X)) if not i % 5]
model = GaussianNB().fit([X[i] for i in train], [y[i] for i in train])
predicted = model.predict([X[i] for i in test])
truth = [y[i] for i in test]

print("Trained on %d flowers, tested on %d; accuracy %.3f\n"
      % (len(train), len(test), model.score([X[i] for i in test], truth)))
width = max(map(len, model.classes_))
print("Confusion matrix (rows: true class, columns: predicted):")
print(" " * (width + 2) + "  ".join("%*s" % (width, c) for c in model.classes_))
for actual in model.classes_:
    counts = [sum(1 for t, p in zip(truth, predicted) if t == actual and p == c)
              for c in model.classes_]
    print("%-*s  " % (width, actual) + "  ".join("%*d" % (width, n) for n in counts))

flower = X[test[10]]
print("\nOne flower %s (truly %s):" % (flower, truth[10]))
for label, p in model.predict_proba_one(flower).items():
    print("  P(%s) = %.6f" % (label, p))
