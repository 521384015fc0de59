"""How often the structurer's choices are tried and undone (docs/decompiler.md, "The choices"),
over the corpora of bench/texts.py.

    python bench/choices.py --stdlib --fuzz 20261206:3000

A choice is a place that may undo a walk: "tried" counts the ``Snapshot`` saved there (``undone``
saves one too), "undone" the times it was put back. A place is named by its module and function,
and by the line where it saves the state when one function holds two. ``walk.walk`` saves the
state at every walk start where a loopless ``while`` could begin; the loops it then tried and the
ones it kept are counted on their own line.
"""
import argparse
import collections
import os
import platform
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

import texts  # noqa: E402  (bench/texts.py: the corpora, named the same way)
from unveil.decompiler.structure import state, walk  # noqa: E402

STATE_FILE = os.path.normcase(state.__file__)
CONTEXTLIB = os.path.normcase(os.path.dirname(os.__file__))  # (undone's context manager)


def count_choices(specs):
    """(functions read, {(module, function, line): [tried, undone]}, [loopless tried, kept])."""
    places = collections.defaultdict(lambda: [0, 0])
    loopless = [0, 0]
    make, restore, loopless_while = state.Snapshot.__init__, state.Snapshot.restore, walk.loopless_while

    def made(snapshot, w):
        f = sys._getframe(1)
        while (os.path.normcase(f.f_code.co_filename) == STATE_FILE
               or os.path.normcase(os.path.dirname(f.f_code.co_filename)) == CONTEXTLIB):
            f = f.f_back  # (past undone() and its context manager, to the place that asked)
        snapshot.place = (os.path.splitext(os.path.basename(f.f_code.co_filename))[0],
                          f.f_code.co_name, f.f_lineno)
        places[snapshot.place][0] += 1
        make(snapshot, w)

    def restored(snapshot):
        places[snapshot.place][1] += 1
        restore(snapshot)

    def tried(*args, **kwargs):
        loopless[0] += 1
        result = loopless_while(*args, **kwargs)
        loopless[1] += 1  # (a loop that does not fit raises)
        return result

    state.Snapshot.__init__, state.Snapshot.restore, walk.loopless_while = made, restored, tried
    try:
        functions = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for spec in specs:
                _, work, one = texts.corpus_work(spec)
                functions += sum(len(one(item)) for item in work)
    finally:
        state.Snapshot.__init__, state.Snapshot.restore, walk.loopless_while = make, restore, loopless_while
    return functions, dict(places), loopless


def table(places, loopless):
    """The lines to print, the most tried first."""
    lines_of = collections.Counter((module, function) for module, function, _ in places)
    rows = sorted(places.items(), key=lambda kv: -kv[1][0])
    out = ["%-44s %8s %8s" % ("where", "tried", "undone")]
    for (module, function, line), (made, undone) in rows:
        name = "%s.%s" % (module, function) + (":%d" % line if lines_of[module, function] > 1 else "")
        out.append("%-44s %8d %8d" % (name, made, undone))
    out.append("%-44s %8d %8d  (loops tried / loops kept)" % ("walk.loopless_while", *loopless))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stdlib", action="store_true", help="every file of the standard library")
    ap.add_argument("--tree", action="append", default=[], metavar="PATH", help="every .py below PATH")
    ap.add_argument("--fuzz", action="append", default=[], metavar="SEED:COUNT", help="fuzzed functions")
    a = ap.parse_args()
    specs = texts.corpus_specs(a.stdlib, a.tree, a.fuzz)
    if not specs:
        ap.error("name a corpus: --stdlib, --tree PATH or --fuzz SEED:COUNT")
    functions, places, loopless = count_choices(specs)
    print("%s: %d functions, Python %s" % (" + ".join(specs), functions, platform.python_version()))
    print("\n".join(table(places, loopless)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
