"""Run naive_bayes from its parts in nbsrc/, not from the built naive_bayes.py.

    python tools/from_sources.py SCRIPT ARGS...        # as python SCRIPT ARGS...
    python tools/from_sources.py -m naive_bayes ARGS...  # the command line
    python tools/from_sources.py -c CODE ARGS...       # as python -c CODE
    python tools/from_sources.py - < CODE              # as python -

``load()`` executes the parts, in build order, into one module named ``naive_bayes``
(registered in ``sys.modules``, so that ``import naive_bayes`` anywhere after it gets
the parts); each part is compiled under its own file name, so a traceback names
``nbsrc/NN_name.py`` and its line.  The module is the built file's, statement for
statement: the build only joins the same texts.  ``NAIVE_BAYES_FROM_SOURCES=1 python -m
pytest`` runs the test suite this way (conftest.py), and the suite's own subprocesses
through this script.  Standard library only.
"""

import runpy
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from amalgamate import part_texts  # noqa: E402
del sys.path[0]

NAME = "naive_bayes"


def load(name=NAME):
    """The module built from the parts, put in sys.modules under ``name``."""
    module = types.ModuleType(name)
    texts = part_texts()
    module.__file__ = str(texts[0][0])          # the head part, with the docstring
    module.__dict__["__builtins__"] = __builtins__
    sys.modules[name] = module
    try:
        for path, text in texts:
            exec(compile(text, str(path), "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def run(argv):
    """Do what ``python ARGV...`` would, with naive_bayes loaded from the parts."""
    if not argv:
        raise SystemExit("usage: python tools/from_sources.py (SCRIPT | -m MODULE | -c CODE"
                         " | -) [ARGS...]")
    first, rest = argv[0], argv[1:]
    if first == "-m":
        if not rest:
            raise SystemExit("from_sources.py: -m needs a module name")
        module, rest = rest[0], rest[1:]
        sys.argv = [module] + rest
        if module == NAME:
            sys.exit(load().main(rest))
        load()
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return
    load()
    if first in ("-c", "-"):
        if first == "-c":
            if not rest:
                raise SystemExit("from_sources.py: -c needs code")
            code, rest = rest[0], rest[1:]
            sys.argv = ["-c"] + rest
        else:
            code = sys.stdin.read()
            sys.argv = ["-"] + rest
        sys.path.insert(0, "")
        exec(compile(code, "<string>" if first == "-c" else "<stdin>", "exec"),
             {"__name__": "__main__", "__builtins__": __builtins__})
        return
    sys.argv = [first] + rest
    script = Path(first)
    if script.resolve() == HERE.parent / (NAME + ".py"):      # the built file as a script
        sys.exit(sys.modules[NAME].main(rest))
    sys.path.insert(0, str(script.resolve().parent))
    runpy.run_path(first, run_name="__main__")


if __name__ == "__main__":
    run(sys.argv[1:])
