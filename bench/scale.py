"""How the decompiler's cost grows with the size of a function.

Families of generated functions that grow with n (sequential ifs, elif chains,
and/or chains, asserts, loops, try statements, straight-line code, deep
expressions), each decompiled for n = 10, 100, 1000, 10000 in its own
subprocess under a limit of CPU time. Prints the decompile CPU time per n: the least
of --repeat rounds, a round being one decompile or, for small sizes, the mean of as many as
fill 0.1 s, after --warm-up seconds of decompiles of the same function; for a size that
takes under half a second, the least of that in --processes fresh processes. (This virtual
machine's CPU time varies by a third between identical runs, and by up to two thirds
between processes on a few milliseconds; the least is the figure noise disturbs least.)
Then the growth exponent k of t ~ n^k between the two largest sizes measured (for two sizes
under half a second, from the ratio of their times taken alternately in one process: the
median of --processes processes). Where CPython's
own compiler refuses a size (nesting limits, recursion in its parser or
compiler), the table says so; that size is not the decompiler's to handle.

    python bench/scale.py                       # every family, 10 s limit each
    python bench/scale.py --family if --family assert --sizes 100,1000
    python bench/scale.py --python /path/to/python3.8
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "src")


def _lines(stmts, indent=1):
    return "".join("    " * indent + s + "\n" for s in stmts)


def seq_if(n):
    return "def f(x, y):\n" + _lines("if x > %d:\n        y = %d" % (k, k) for k in range(n)) + "    return y\n"


def elif_chain(n):
    arms = ["if x == 0:\n        y = 0"] + ["elif x == %d:\n        y = %d" % (k, k) for k in range(1, n)]
    return "def f(x, y):\n" + _lines(arms) + "    return y\n"


def _operands(n):
    return ["g%d" % k for k in range(n)]


def and_test(n):
    return "def f(x):\n    if %s:\n        x = 1\n    return x\n" % " and ".join(_operands(n))


def or_test(n):
    return "def f(x):\n    if %s:\n        x = 1\n    return x\n" % " or ".join(_operands(n))


def and_value(n):
    return "def f(x):\n    x = %s\n    return x\n" % " and ".join(_operands(n))


def or_value(n):
    return "def f(x):\n    x = %s\n    return x\n" % " or ".join(_operands(n))


def compare_chain(n):
    return "def f(x):\n    if %s:\n        return 1\n    return 2\n" % " < ".join(
        "x[%d]" % k for k in range(n))


def asserts(n):
    return "def f(x):\n" + _lines("assert x != %d" % k for k in range(n)) + "    return x\n"


def asserts_msg(n):
    return "def f(x):\n" + _lines("assert x != %d, 'not %d'" % (k, k) for k in range(n)) + "    return x\n"


def straight(n):
    return "def f(x, y):\n" + _lines("x = x + y * %d" % k for k in range(n)) + "    return x\n"


def seq_for(n):
    return "def f(x, y):\n" + _lines("for i in x:\n        y = y + i * %d" % k for k in range(n)) + "    return y\n"


def seq_finally(n):
    return "def f(x, y):\n" + _lines(
        "try:\n        y = y + x[%d]\n    finally:\n        y = y - %d" % (k, k)
        for k in range(n)) + "    return y\n"


def seq_with(n):
    return "def f(x, y):\n" + _lines("with x:\n        y = y + %d" % k for k in range(n)) + "    return y\n"


def seq_try(n):
    return "def f(x, y):\n" + _lines(
        "try:\n        y = y + x[%d]\n    except IndexError:\n        y = -%d" % (k, k)
        for k in range(n)) + "    return y\n"


def nested_for(n):
    out = "def f(x, y):\n"
    for k in range(n):
        out += "    " * (k + 1) + "for i%d in x:\n" % k
    return out + "    " * (n + 1) + "y = y + 1\n    return y\n"


def nested_while(n):
    out = "def f(x, y):\n"
    for k in range(n):
        out += "    " * (k + 1) + "while x > %d:\n" % k
    return out + "    " * (n + 1) + "x = x - 1\n    return y\n"


def nested_try(n):
    out = "def f(x, y):\n"
    for k in range(n):
        out += "    " * (k + 1) + "try:\n"
    out += "    " * (n + 1) + "y = x[0]\n"
    for k in reversed(range(n)):
        out += "    " * (k + 1) + "except IndexError:\n" + "    " * (k + 2) + "y = %d\n" % k
    return out + "    return y\n"


def nested_if(n):
    out = "def f(x, y):\n"
    for k in range(n):
        out += "    " * (k + 1) + "if x > %d:\n" % k
    return out + "    " * (n + 1) + "y = 1\n    return y\n"


def unary(n):
    return "def f(x):\n    return %sx\n" % ("-" * n)


def attributes(n):
    return "def f(x):\n    return x%s\n" % (".a" * n)


def calls(n):
    return "def f(x):\n    return %sx%s\n" % ("g(" * n, ")" * n)


def ifexp(n):
    e = "x"
    for k in range(n):
        e = "%d if x == %d else %s" % (k, k, e)
    return "def f(x):\n    return %s\n" % e


def lambdas(n):
    return "def f(x):\n    return %sx\n" % ("lambda: " * n)


FAMILIES = {
    "if": seq_if, "elif": elif_chain, "and-test": and_test, "or-test": or_test,
    "and-value": and_value, "or-value": or_value, "compare": compare_chain, "assert": asserts, "assert-msg": asserts_msg,
    "straight": straight, "seq-for": seq_for, "seq-try": seq_try, "seq-finally": seq_finally,
    "seq-with": seq_with, "nested-if": nested_if,
    "nested-for": nested_for, "nested-while": nested_while, "nested-try": nested_try,
    "unary": unary, "attribute": attributes, "call": calls, "ifexp": ifexp, "lambda": lambdas,
}


QUICK = 0.5  # seconds: a size decompiled faster is measured in several processes (run_least)


# ------------------------------------------------------------------ child
class Timeout(BaseException):
    """Not an Exception: no ``except Exception`` inside may swallow the time limit."""


def _alarm(signum, frame):
    raise Timeout()


def compiles(family, n):
    from unveil.decompiler.measure import find_code
    try:
        return find_code(compile(FAMILIES[family](n), "<scale>", "exec"), "f")
    except (SyntaxError, RecursionError, MemoryError, ValueError) as e:
        return "%s: %s" % (type(e).__name__, e)


def largest_compiling(family, lo, hi):
    """The largest n in [lo, hi) that CPython compiles (lo does)."""
    while hi - lo > max(1, lo // 50):
        mid = (lo + hi) // 2
        if isinstance(compiles(family, mid), str):
            hi = mid
        else:
            lo = mid
    return lo


def child(family, n, limit, repeat, warm_up, below=None):
    """Build, compile and decompile one function; return one JSON-able dict.
    With ``below``: the largest size under it that CPython compiles (n does).
    The time is the least of ``repeat`` rounds (a round: one decompile, or for small sizes
    the mean of as many as fill 0.1 s): the figure other work on the machine disturbs least."""
    import signal
    sys.path.insert(0, SRC)
    from unveil.decompiler.api import Decompiler
    from unveil.decompiler.errors import DecompilationError
    from unveil.decompiler.measure import find_code, normalized
    if below is not None:
        n = largest_compiling(family, n, below)
    code = compiles(family, n)
    if isinstance(code, str):
        return {"status": "compiler", "n": n, "message": code}
    signal.signal(signal.SIGPROF, _alarm)
    # warm up on the function itself for ``warm_up`` CPU seconds (at least one decompile):
    # the first decompiles of a fresh process run slower
    warm = 0.0
    while warm < warm_up:
        signal.setitimer(signal.ITIMER_PROF, limit)
        t0 = time.process_time()
        try:
            Decompiler(code).decompile()
        except Timeout:
            return {"status": "limit", "n": n}
        except Exception:  # noqa: BLE001 - the rounds below report it
            pass
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        warm += time.process_time() - t0
    best, text, refusal = None, None, None
    for _ in range(repeat):
        # a round: one decompile, or the mean of as many as fill 0.1 s (CPU time is counted in
        # ticks of a few ms: the least of single short runs would read 0)
        spent, reps = 0.0, 0
        while reps == 0 or spent < 0.1 and reps < 200:
            # CPU seconds, not wall time: the figures hold on a busy machine too
            signal.setitimer(signal.ITIMER_PROF, limit)
            t0 = time.process_time()
            try:
                text = Decompiler(code).decompile()
            except Timeout:
                return {"status": "limit", "n": n}
            except DecompilationError as e:
                refusal = str(e)
            except Exception as e:  # noqa: BLE001 - anything but DecompilationError is a bug to show
                return {"status": "crash", "n": n, "seconds": time.process_time() - t0,
                        "message": "%s: %s" % (type(e).__name__, e)}
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            spent, reps = spent + time.process_time() - t0, reps + 1
        best = spent / reps if best is None else min(best, spent / reps)
        if refusal is None:  # (a parent timed out in the check below still has the time)
            print(json.dumps({"status": "ok", "n": n, "seconds": best, "check": "not finished"}), flush=True)
    if refusal is not None:
        return {"status": "refused", "n": n, "seconds": best, "message": refusal}
    try:
        new = find_code(compile(text, "<decompiled>", "exec"), "f")
        same = normalized(new) == normalized(code)
    except (SyntaxError, RecursionError, MemoryError, ValueError) as e:
        return {"status": "ok", "n": n, "seconds": best, "check": "recompile: %s" % type(e).__name__}
    return {"status": "ok", "n": n, "seconds": best, "check": "equal" if same else "differs"}


def paired(family, n1, n2, rounds=7):
    """For two quick sizes: their decompiles timed alternately in this one process, a batch
    filling 0.1 s each; the median over ``rounds`` of the ratio of their mean times. A
    process's own speed (which differs from process to process) cancels out of the ratio."""
    sys.path.insert(0, SRC)
    from unveil.decompiler.api import Decompiler

    def batch(code):
        spent, reps = 0.0, 0
        while reps == 0 or spent < 0.1:
            t0 = time.process_time()
            try:
                Decompiler(code).decompile()
            except Exception:  # noqa: BLE001 - a refusal takes its time too; the child reported it
                pass
            spent, reps = spent + time.process_time() - t0, reps + 1
        return spent / reps

    codes = [compiles(family, n) for n in (n1, n2)]
    for code in codes:
        batch(code)  # (warm-up)
    ratios = sorted(batch(codes[1]) / batch(codes[0]) for _ in range(rounds))
    return {"ratio": ratios[len(ratios) // 2]}


# ----------------------------------------------------------------- parent
def run_one(opts, family, n, below=None):
    """One size in one child process (``opts``: the command line's options)."""
    # the child stops a decompile after ``limit`` CPU seconds; the wall-clock bound is
    # generous (a busy machine), for building and the check too
    cmd = [opts.python, os.path.abspath(__file__), "--child", family, str(n), str(opts.limit), str(opts.repeat),
           str(opts.warm_up)]
    if below is not None:
        cmd += ["--below", str(below)]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=(4 + 3 * opts.repeat) * opts.limit + 30, universal_newlines=True)
    except subprocess.TimeoutExpired as e:
        done = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        if done.strip():  # the decompile finished; the check of its output did not
            return json.loads(done.strip().splitlines()[-1])
        return {"status": "limit", "n": n}
    if p.returncode != 0 or not p.stdout.strip():
        tail = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        return {"status": "died", "n": n, "message": tail}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if out.get("seconds", 0) > opts.limit:
        out["status"] = "limit"
    return out


def run_least(opts, family, n, below=None):
    """The least of ``opts.processes`` children for a size that decompiles in under QUICK
    seconds (one child for a slower one). Identical children on this machine read up to
    two thirds apart on a few milliseconds, whatever the warm-up: a process's own speed
    varies, not only its rounds."""
    best = run_one(opts, family, n, below)
    for _ in range(opts.processes - 1):
        if best["status"] not in ("ok", "refused") or best["seconds"] >= QUICK:
            break
        again = run_one(opts, family, n, below)
        if again["status"] == best["status"] and again["seconds"] < best["seconds"]:
            best = again
    return best


def cell(r, limit):
    s = r["status"]
    if s == "limit":
        text = ">%gs" % limit
    elif s == "compiler":
        text = "compiler refuses"
    elif s == "ok":
        text = "%.3fs" % r["seconds"] + ("" if r.get("check") == "equal" else " " + r.get("check", ""))
    elif s == "refused":
        text = "%.3fs refused" % r["seconds"]
    else:
        text = s
    return text


def exponent(opts, family, results):
    """k of t ~ n^k between the two largest sizes with a time (">limit" when the largest
    ran out of time). When both are quick, from their ratio timed alternately in one
    process (:func:`paired`; the median of ``opts.processes`` processes): the exponents of
    sizes that take milliseconds are otherwise the noise's."""
    timed = [r for r in results if r["status"] in ("ok", "refused", "limit")]
    if len(timed) < 2:
        return "-"
    r1, r2 = timed[-2], timed[-1]
    if r1["status"] == "limit":
        return "-"
    if r2["status"] == "limit":
        return ">limit"
    ratio = max(r2["seconds"], 1e-4) / max(r1["seconds"], 1e-4)
    if r2["seconds"] < QUICK:
        cmd = [opts.python, os.path.abspath(__file__), "--pair", family, str(r1["n"]), str(r2["n"])]
        ratios = []
        for _ in range(opts.processes):
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                               timeout=600)
            if p.returncode == 0 and p.stdout.strip():
                ratios.append(json.loads(p.stdout.strip().splitlines()[-1])["ratio"])
        if ratios:
            ratio = sorted(ratios)[len(ratios) // 2]
    return "%.2f" % (math.log(ratio) / math.log(r2["n"] / r1["n"]))


def measure_family(opts, family, sizes):
    """Results per size, then (when CPython refused a size) the result for
    the largest size it compiles."""
    results = []
    for n in sizes:
        if results and results[-1]["status"] in ("limit", "compiler"):
            results.append(dict(results[-1], n=n, skipped=True))  # a larger n fares no better
            continue
        results.append(run_least(opts, family, n))
    refused = [k for k, r in enumerate(results) if r["status"] == "compiler" and not r.get("skipped")]
    extra = None
    if refused and refused[0] > 0 and results[refused[0] - 1]["status"] in ("ok", "refused"):
        extra = run_least(opts, family, sizes[refused[0] - 1], below=sizes[refused[0]])
    return results, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES))
    ap.add_argument("--sizes", default="10,100,1000,10000")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per decompile")
    ap.add_argument("--repeat", type=int, default=3,
                    help="rounds per size (a decompile, or the mean of several for small sizes); "
                         "the least CPU time is reported")
    ap.add_argument("--python", default=sys.executable, help="interpreter to measure")
    ap.add_argument("--warm-up", type=float, default=0.3,
                    help="CPU seconds of decompiles of the function before its timed rounds")
    ap.add_argument("--processes", type=int, default=3,
                    help="fresh processes per size that decompiles in under %g s; the least is reported" % QUICK)
    ap.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    ap.add_argument("--below", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--pair", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.pair:
        print(json.dumps(paired(args.pair[0], int(args.pair[1]), int(args.pair[2]))))
        return
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]), float(args.child[2]), int(args.child[3]),
                               float(args.child[4]), args.below)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    version = subprocess.run([args.python, "-c", "import sys; print(sys.version.split()[0])"],
                             stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    print("decompile CPU seconds per size n (least of %d rounds, in each of %d processes under %gs), Python %s, "
          "limit %gs per decompile;" % (args.repeat, args.processes, QUICK, version, args.limit))
    print("'largest': the largest n CPython compiles where it refuses a size of the table;")
    print("exponent: k of t ~ n^k between the two largest sizes timed (both under %gs: their ratio timed "
          "alternately in one process, the median of %d processes)" % (QUICK, args.processes))
    print("%-13s" % "family" + "".join("%17s" % ("n=%d" % n) for n in sizes)
          + "%24s" % "largest" + "   exponent")
    notes = []
    for family in args.family or FAMILIES:
        results, extra = measure_family(args, family, sizes)
        row = "%-13s" % family + "".join("%17s" % cell(r, args.limit) for r in results)
        row += "%24s" % ("n=%d: %s" % (extra["n"], cell(extra, args.limit)) if extra else "")
        print(row + "   " + exponent(args, family, results + ([extra] if extra else [])), flush=True)
        for r in results + ([extra] if extra else []):
            if r["status"] in ("refused", "crash", "died", "compiler") and not r.get("skipped"):
                notes.append("%s n=%d %s: %s" % (family, r["n"], r["status"], r.get("message", "")[:160]))
    for line in notes:
        print("  " + line)


if __name__ == "__main__":
    main()
