"""AutoBayes with text columns beside NaiveBayes with the same text and AutoBayes
without it: accuracy and log loss on held-out rows, and CPU seconds to fit.

    python benchmarks/autobayes_text.py            # the generated tweet-like sets
    python benchmarks/autobayes_text.py --reuters  # and Reuters' grain (text alone)

The tweet-like rows are the tests' (test_naive_bayes.flight_tweets): a short text
whose words lean to the label, an airline and a time of day whose interaction says
as much, 600 rows to fit and 1,000 others to score, seeded.
"""

import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import naive_bayes  # noqa: E402
from test_naive_bayes import accuracy_and_log_loss, flight_tweets, without_text  # noqa: E402


def timed(make, X, y):
    start = time.process_time()
    model = make().fit(X, y)
    return model, time.process_time() - start


def tweets(seed):
    X, y = flight_tweets(600, 2 * seed - 1)
    test_X, test_y = flight_tweets(1000, 2 * seed)
    rows = []
    for name, make, strip in (
            ("AutoBayes, text", lambda: naive_bayes.AutoBayes(features={"text": "text"}), False),
            ("NaiveBayes, text", lambda: naive_bayes.NaiveBayes(features={"text": "text"}), False),
            ("AutoBayes, no text", naive_bayes.AutoBayes, True)):
        fit_X, score_X = (without_text(X), without_text(test_X)) if strip else (X, test_X)
        model, seconds = timed(make, fit_X, y)
        accuracy, loss = accuracy_and_log_loss(model, score_X, test_y)
        rows.append((name, accuracy, loss, seconds))
    return rows


def reuters():
    data = os.path.join(os.path.dirname(HERE), "examples", "data")
    train = naive_bayes.read_csv(os.path.join(data, "reuters_grain_train.csv"),
                                 target="label", text=["text"])
    test = naive_bayes.read_csv(os.path.join(data, "reuters_grain_test.csv"),
                                target="label", text=["text"])
    rows = []
    for name, make in (("AutoBayes, text", lambda: naive_bayes.AutoBayes(features=train.kinds)),
                       ("NaiveBayes, text", lambda: naive_bayes.NaiveBayes(features=train.kinds))):
        model, seconds = timed(make, train.X, train.y)
        accuracy, loss = accuracy_and_log_loss(model, test.X, test.y)
        rows.append((name, accuracy, loss, seconds))
    return rows


def show(title, rows):
    print(title)
    for name, accuracy, loss, seconds in rows:
        print("  %-20s accuracy %.4f  log loss %.4f  fit %.2f s CPU"
              % (name, accuracy, loss, seconds))


if __name__ == "__main__":
    for seed in (1, 2):
        show("tweet-like rows, seed %d" % seed, tweets(seed))
    if "--reuters" in sys.argv:
        show("Reuters grain (text alone)", reuters())
