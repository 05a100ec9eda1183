"""Who survived the Titanic?  Three categorical features (class, age, sex), 2,201 people.

Run: python examples/titanic.py   (nothing to install)
"""
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))          # use ../naive_bayes.py without installing

from naive_bayes import CategoricalNB, read_csv   # noqa: E402

table = read_csv(HERE / "data" / "titanic.csv", target="survived")
X = table.records()                           # {"status": ..., "age": ..., "sex": ...}
y = table.y

model = CategoricalNB().fit(X, y)
print("%d passengers and crew; classes %s with counts %s"
      % (len(X), model.classes_, model.class_count_))
print("Training accuracy: %.3f (always 'no' would score %.3f)\n"
      % (model.score(X, y), Counter(y)["no"] / len(y)))

print("P(survived) by group: the model's estimate next to the rate observed in the data.")
print("Naive Bayes assumes class, age and sex independent given survival; where they")
print("interact (boys in second class, men in first) the two differ.\n")
print("  %-6s %-6s %-7s %5s  %6s  %8s" % ("class", "age", "sex", "count", "model", "observed"))
groups = Counter((x["status"], x["age"], x["sex"]) for x in X)
survivors = Counter((x["status"], x["age"], x["sex"]) for x, label in zip(X, y)
                    if label == "yes")
for group, n in sorted(groups.items(), key=lambda item: -item[1]):
    status, age, sex = group
    p = model.predict_proba_one({"status": status, "age": age, "sex": sex})["yes"]
    print("  %-6s %-6s %-7s %5d  %6.3f  %8.3f %s"
          % (status, age, sex, n, p, survivors[group] / n, "#" * round(p * 30)))

print("\nA missing value is simply left out: a woman of unknown class and age:",
      "P(yes) = %.3f" % model.predict_proba_one({"sex": "female"})["yes"])
