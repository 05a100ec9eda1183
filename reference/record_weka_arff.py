"""Record how Weka itself parses ARFF files: reference/weka/arff_parse.json.

    python reference/record_weka_arff.py

Needs Java (javac) and Weka 3.6.14 at /usr/share/java/weka.jar (`apt-get install weka`).
The files: every examples/data/*.arff, and the handcrafted reference/arff/*.arff
(quotes, escapes, comments, CRLF, sparse rows, instance weights, dates).  For each,
Weka's relation, attributes (name, kind, declared values or date format) and rows
([values, weight, sparse?]; a missing value is null, dates are milliseconds since
1970 in UTC), or Weka's error.  Standard library only.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WEKA = "/usr/share/java/weka.jar"


def main():
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "data", "*.arff")) +
                   glob.glob(os.path.join(HERE, "arff", "*.arff")))
    with tempfile.TemporaryDirectory() as build:
        subprocess.run(["javac", "-cp", WEKA, "-d", build, os.path.join(HERE, "WekaArff.java")],
                       check=True)
        out = subprocess.run(["java", "-Duser.timezone=UTC", "-Dfile.encoding=UTF-8", "-cp",
                              WEKA + os.pathsep + build, "WekaArff"] + files,
                             check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(files)
    data = {"weka_version": "3.6.14", "timezone": "UTC",
            "files": {os.path.relpath(f, ROOT): r for f, r in zip(files, results)}}
    with open(os.path.join(HERE, "weka", "arff_parse.json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, separators=(",", ":"))
        handle.write("\n")
    print("recorded %d files" % len(files), file=sys.stderr)


if __name__ == "__main__":
    main()
