"""Does a decompiled text depend on the process's string hashes? (issue 31, item 18)

Decompiles every function of the chosen stdlib modules (bench/corpus.py's selection) in
two processes with different ``PYTHONHASHSEED`` values, side by side, and counts the
functions whose text differs between them (a failure counts by its message).

    python bench/hashseed.py                      # the whole stdlib, seeds 1 and 2
    python bench/hashseed.py --module gettext --seeds 0 7 --show 3
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus  # noqa: E402  (puts ../src on the path)


def texts(modules=None, every=1):
    """{"file:line name": decompiled text or "failed: message"} for the functions of the
    stdlib modules named (every ``every``-th module if none)."""
    from unveil.decompiler.api import Decompiler
    mods = corpus.stdlib_modules()
    mods = [(n, fs) for n, fs in mods if n in set(modules)] if modules else mods[::every]
    out = {}
    for path, top in corpus.compiled_files(mods):
        for code in corpus.functions(top, []):
            key = "%s:%d %s" % (os.path.relpath(path, os.path.dirname(os.__file__)),
                                code.co_firstlineno, code.co_name)
            try:
                out[key] = Decompiler(code).decompile()
            except Exception as e:  # noqa: BLE001 - a refusal is a text too
                out[key] = "failed: %s: %s" % (type(e).__name__, e)
    return out


def in_a_process(seed, args):
    """texts() computed by this script in a child process under ``PYTHONHASHSEED=seed``."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as f:
        cmd = [sys.executable, os.path.abspath(__file__), "--write", f.name, "--every", str(args.every)]
        for m in args.module or ():
            cmd += ["--module", m]
        subprocess.run(cmd, check=True, env=dict(os.environ, PYTHONHASHSEED=str(seed)))
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(1, 2))
    ap.add_argument("--module", action="append", help="only these modules (file stems)")
    ap.add_argument("--every", type=int, default=1, help="take every k-th top-level module")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N differing functions")
    ap.add_argument("--write", help=argparse.SUPPRESS)  # (the child's side)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    if args.write:
        with open(args.write, "w") as f:
            json.dump(texts(args.module, args.every), f)
        return
    a, b = (in_a_process(s, args) for s in args.seeds)
    differ = sorted(k for k in a if a[k] != b.get(k))
    print("Python %d.%d, PYTHONHASHSEED %d and %d: %d functions, %d texts differ (%.2f%%)" % (
        sys.version_info[0], sys.version_info[1], args.seeds[0], args.seeds[1], len(a),
        len(differ), 100.0 * len(differ) / max(len(a), 1)))
    for k in differ[:args.show]:
        print("---- %s\n%s---- (seed %d)\n%s" % (k, a[k], args.seeds[1], b.get(k)))


if __name__ == "__main__":
    main()
