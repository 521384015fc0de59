"""The decompiler's texts, kept so that a change meant to keep them (a refactoring: issue 32)
can be checked byte for byte against them, on every interpreter.

    python bench/texts.py save DIR --stdlib --tree PATH --fuzz 75001:20000
    python bench/texts.py compare DIR          # the corpora DIR was saved with, again

``save`` decompiles every function of each corpus and writes, per corpus, one file
``DIR/<major.minor.micro>/<corpus>.jsonl.gz``: one line per function, ``[key, outcome]``, the
outcome being the text or ``"refused: <message>"`` (a crash is ``"crash: <type>: <message>"``).
Corpora: ``--stdlib`` (every file of the running interpreter's standard library, as
bench/corpus.py finds them), ``--tree PATH`` (every ``.py`` file below PATH; the corpus is
named after PATH's last parts), ``--fuzz SEED:COUNT`` (bench/fuzz.py's functions).

``compare`` runs the same corpora under the running interpreter and prints, per corpus, how
many outcomes are the same, the texts that changed (the first ones as diffs), the new
refusals and the refusals that are gone. Exit status 1 when any text changed or any function
is newly refused. Run it under each interpreter the texts were saved under.

``--jobs N`` splits a corpus over N processes (the outcome of a function does not depend on
the others: each is decompiled from its own code object).
"""
import argparse
import difflib
import gzip
import json
import multiprocessing
import os
import platform
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)

import corpus  # noqa: E402  (bench/corpus.py: the stdlib's and a tree's files and functions)


def outcome(decompile, subject):
    """The text ``decompile(subject)`` gives, or what stopped it."""
    from unveil.decompiler.errors import DecompilationError
    try:
        return decompile(subject)
    except DecompilationError as e:
        return "refused: %s" % e
    except Exception as e:  # noqa: BLE001 - a crash is an outcome to keep too
        return "crash: %s: %s" % (type(e).__name__, e)


def _code_text(code):
    from unveil.decompiler.api import Decompiler
    return Decompiler(code).decompile()


def file_outcomes(path_and_root):
    """[key, outcome] of every function of one file (key: path below the root, qualified name,
    first line)."""
    import warnings
    path, root = path_and_root
    try:
        with open(path, "rb") as f, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = compile(f.read(), path, "exec")
    except (SyntaxError, ValueError):
        return []
    name = os.path.relpath(path, root)
    return [["%s:%s:%d" % (name, code.co_qualname if hasattr(code, "co_qualname") else code.co_name,
                           code.co_firstlineno), outcome(_code_text, code)]
            for code in corpus.functions(module, [])]


def fuzz_outcome(seed_index):
    import warnings
    import fuzz
    import unveil
    seed, index = seed_index
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, make = fuzz.load(fuzz.generate(seed, index))
        return [["%s:%d" % (seed, index), outcome(unveil.decompile, make())]]


def corpus_work(spec):
    """(the corpus's file name, its work items, the function that turns one into [key, outcome]s)."""
    kind, _, arg = spec.partition("=")
    if kind == "stdlib":
        import sysconfig
        root = sysconfig.get_paths()["stdlib"]
        files = [p for _, paths in corpus.stdlib_modules() for p in paths]
        return "stdlib", [(p, root) for p in files], file_outcomes
    if kind == "tree":
        root = os.path.abspath(arg)
        name = "tree-" + "-".join(root.rstrip(os.sep).split(os.sep)[-2:])
        return name, [(p, root) for _, paths in corpus.tree_modules(root) for p in paths], file_outcomes
    seed, _, count = arg.partition(":")
    return "fuzz-%s-%s" % (seed, count), [(seed, i) for i in range(int(count))], fuzz_outcome


def run(spec, jobs):
    """{key: outcome} of one corpus."""
    name, work, one = corpus_work(spec)
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(one, work, chunksize=4)
    else:
        parts = [one(w) for w in work]
    return name, dict(kv for part in parts for kv in part)


def corpus_specs(stdlib, trees, fuzzes):
    """The corpora named on a command line (``--stdlib``, ``--tree``, ``--fuzz``), as specs."""
    return ((["stdlib"] if stdlib else []) + ["tree=" + os.path.abspath(t) for t in trees]
            + ["fuzz=" + f for f in fuzzes])


def version_dir(base):
    return os.path.join(base, platform.python_version())


def save(base, specs, jobs):
    out = version_dir(base)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "corpora.json"), "w") as f:
        json.dump(specs, f)
    for spec in specs:
        name, outcomes = run(spec, jobs)
        with gzip.open(os.path.join(out, name + ".jsonl.gz"), "wt", encoding="utf-8") as f:
            for key in sorted(outcomes):
                f.write(json.dumps([key, outcomes[key]]) + "\n")
        refused = sum(o.startswith(("refused: ", "crash: ")) for o in outcomes.values())
        print("%s: %d functions, %d refused, saved in %s" % (name, len(outcomes), refused, out))


def load(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return dict(json.loads(line) for line in f)


def is_refusal(text):
    return text is not None and text.startswith(("refused: ", "crash: "))


def compare(base, jobs, show):
    """Print what changed; True when nothing got worse or different."""
    here = version_dir(base)
    with open(os.path.join(here, "corpora.json")) as f:
        specs = json.load(f)
    clean = True
    for spec in specs:
        name, now = run(spec, jobs)
        before = load(os.path.join(here, name + ".jsonl.gz"))
        same = [k for k in now if now[k] == before.get(k)]
        changed = [k for k in now if k in before and now[k] != before[k]
                   and not is_refusal(now[k]) and not is_refusal(before[k])]
        new_refusals = [k for k in now if is_refusal(now[k]) and not is_refusal(before.get(k))]
        gone_refusals = [k for k in now if is_refusal(before.get(k)) and not is_refusal(now[k])]
        reworded = [k for k in now if is_refusal(now[k]) and is_refusal(before.get(k)) and now[k] != before[k]]
        missing = [k for k in before if k not in now]
        print("%s: %d functions, %d the same, %d texts changed, %d newly refused, %d no longer "
              "refused, %d refusals reworded, %d missing" % (name, len(now), len(same), len(changed),
                                                           len(new_refusals), len(gone_refusals),
                                                           len(reworded), len(missing)))
        for k in changed[:show]:
            print("".join(difflib.unified_diff(before[k].splitlines(True), now[k].splitlines(True),
                                               "before " + k, "now " + k)))
        for k in new_refusals[:show]:
            print("  newly refused %s: %s" % (k, now[k][:200]))
        clean = clean and not changed and not new_refusals and not missing
    return clean


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=["save", "compare"])
    ap.add_argument("dir")
    ap.add_argument("--stdlib", action="store_true", help="(save) every file of the standard library")
    ap.add_argument("--tree", action="append", default=[], metavar="PATH", help="(save) every .py below PATH")
    ap.add_argument("--fuzz", action="append", default=[], metavar="SEED:COUNT", help="(save) fuzzed functions")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--show", type=int, default=5, metavar="N", help="(compare) diffs shown per corpus")
    a = ap.parse_args()
    if a.action == "save":
        specs = corpus_specs(a.stdlib, a.tree, a.fuzz)
        if not specs:
            ap.error("save needs a corpus: --stdlib, --tree PATH or --fuzz SEED:COUNT")
        save(a.dir, specs, a.jobs)
        return 0
    return 0 if compare(a.dir, a.jobs, a.show) else 1


if __name__ == "__main__":
    sys.exit(main())
