"""Mutation test of the translation validator (issue 11): can it be fooled?

The decompiler hands out only text the validator (``unveil/decompiler/validate.py``)
proved equivalent to the bytecode, so the whole "never wrong" promise rests on the
validator being sound. This script attacks it: for each function of the
differential fuzzer (bench/fuzz.py) that decompiles, it makes small edits to the
proved text -- a statement deleted, duplicated or swapped with its neighbour, a
test negated, an if's branches swapped, a statement moved into or out of a block
(loop, try, except, finally, with), a constant or operator changed, two
arguments swapped, a name replaced by another -- and asks the validator to prove
each mutant against the *original* bytecode. Then every mutant it accepts is run on
the fuzzer's inputs:

    rejected      the validator refused the mutant (the usual case)
    same          accepted, and behaves like the original (the edit was harmless)
    UNSOUND       accepted, but behaves differently: a validator bug
    nocompile     the mutant does not compile (skipped)

    python bench/mutate.py --seed 1 --count 300 --jobs 2
    python bench/mutate.py --show 1:17:4        # case 1:17, mutant 4: both texts

Any UNSOUND line is a bug to fix before anything else.
"""
import argparse
import ast
import copy
import os
import random
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz  # noqa: E402  (the generator, the oracle and the time limit)

KINDS = ["rejected", "same", "UNSOUND", "nocompile", "hang"]


# ---------------------------------------------------------------- mutations

def _stmt_lists(tree):
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            seq = getattr(node, field, None)
            if isinstance(seq, list) and seq and isinstance(seq[0], ast.stmt):
                yield node, seq


def _sites(tree):
    """Every mutation of ``tree`` as (description, function applying it in place);
    the walk order is deterministic, so site k of a deep copy is the same site."""
    out = []
    for node, seq in _stmt_lists(tree):
        for k, s in enumerate(seq):
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            out.append(("delete line %d" % s.lineno,
                        lambda seq=seq, k=k: seq.__setitem__(k, ast.Pass())))
            out.append(("duplicate line %d" % s.lineno,
                        lambda seq=seq, k=k: seq.insert(k, copy.deepcopy(seq[k]))))
            compound = [f for f in ("body", "orelse", "finalbody", "handlers") if getattr(s, f, None)]
            for field in compound:
                inner = getattr(s, field)
                if field == "handlers":
                    inner = inner[-1].body
                out.append(("last statement of line %d's %s moved after it" % (s.lineno, field),
                            lambda seq=seq, k=k, inner=inner: _move_out(seq, k, inner)))
                if k + 1 < len(seq):
                    out.append(("line %d moved into line %d's %s" % (seq[k + 1].lineno, s.lineno, field),
                                lambda seq=seq, k=k, inner=inner: inner.append(seq.pop(k + 1))))
            if k + 1 < len(seq):
                out.append(("swap lines %d and %d" % (s.lineno, seq[k + 1].lineno),
                            lambda seq=seq, k=k: seq.__setitem__(slice(k, k + 2), [seq[k + 1], seq[k]])))
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            out.append(("negate the test on line %d" % line,
                        lambda n=node: setattr(n, "test", ast.UnaryOp(op=ast.Not(), operand=n.test))))
        if isinstance(node, ast.If) and node.orelse:
            out.append(("swap the branches on line %d" % line,
                        lambda n=node: (setattr(n, "body", n.orelse), setattr(n, "orelse", n.body))))
        if isinstance(node, ast.Constant) and type(node.value) is int:
            out.append(("constant %r+1 on line %d" % (node.value, line),
                        lambda n=node: setattr(n, "value", n.value + 1)))
        if isinstance(node, ast.Compare):
            out.append(("flip comparison on line %d" % line,
                        lambda n=node: n.ops.__setitem__(0, _FLIP.get(type(n.ops[0]), ast.Eq)())))
        if isinstance(node, ast.BinOp):
            out.append(("swap operands on line %d" % line,
                        lambda n=node: (setattr(n, "left", n.right), setattr(n, "right", n.left))))
        if isinstance(node, ast.BoolOp):
            out.append(("and/or on line %d" % line,
                        lambda n=node: setattr(n, "op", ast.Or() if isinstance(n.op, ast.And) else ast.And())))
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            out.append(("swap arguments on line %d" % line,
                        lambda n=node: n.args.__setitem__(slice(0, 2), [n.args[1], n.args[0]])))
        if isinstance(node, (ast.Break, ast.Continue)):
            out.append(("break/continue on line %d" % line,
                        lambda n=node: setattr(n, "__class__", ast.Continue if isinstance(n, ast.Break) else ast.Break)))
    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)})
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and len(names) > 1:
            other = names[(names.index(node.id) + 1) % len(names)]
            out.append(("%s -> %s on line %d" % (node.id, other, node.lineno),
                        lambda n=node, o=other: setattr(n, "id", o)))
    return out


def _move_out(seq, k, inner):
    seq.insert(k + 1, inner.pop())
    if not inner:
        inner.append(ast.Pass())


_FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
         ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


def _target(tree, name):
    """The definition of the decompiled function in ``tree`` (the text may wrap it
    in a closure maker whose own lines the proof does not cover)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return tree


def mutants(text, name, rng, limit):
    """Up to ``limit`` (site, description, mutated text) of ``text``'s function
    ``name``, chosen by ``rng``."""
    from unveil.decompiler.emit import to_source
    tree = ast.parse(text)
    sites = _sites(_target(tree, name))
    picks = rng.sample(range(len(sites)), min(limit, len(sites)))
    for k in picks:
        trial = copy.deepcopy(tree)
        what, apply = _sites(_target(trial, name))[k]
        apply()
        try:
            yield k, what, to_source(ast.fix_missing_locations(trial))
        except Exception:  # noqa: BLE001 - an edit the unparser cannot print: skip it
            continue


# ---------------------------------------------------------------- one case

def _timed(work):
    """``work()`` under fuzz's CPU time limit; None when it ran out."""
    signal.signal(signal.SIGPROF, fuzz._alarm)
    del fuzz._FIRED[:]
    signal.setitimer(signal.ITIMER_PROF, fuzz.TIME_LIMIT, 0.5)
    result = None
    try:
        result = work()
    except BaseException:  # noqa: BLE001 - Timeout, or a group holding it
        if not fuzz._FIRED:
            raise
    finally:
        while True:
            try:
                signal.setitimer(signal.ITIMER_PROF, 0)
                break
            except fuzz.Timeout:
                pass
    return None if fuzz._FIRED else result


def run_case(seed_index, per_case=8, only=None):
    """[(kind, 'seed:index:k', description)] for the mutants of one fuzz case."""
    import unveil
    from unveil.decompiler.api import Decompiler
    seed, index = seed_index
    source = fuzz.generate(seed, index)
    ns, make = fuzz.load(source)
    want = _timed(lambda: fuzz.behaviour(make, ns))
    fn = make()
    try:
        d = Decompiler(fn)
        d.decompile_ast()
    except unveil.DecompilationError:
        return []
    out = []
    rng = random.Random("unveil-mutate:%s:%s" % (seed, index))
    for k, what, text in mutants(d.text, d.def_name, rng, per_case):
        if only is not None and k != only:
            continue
        tag = "%s:%d:%d" % (seed, index, k)
        try:
            compile(text, "<mutant>", "exec")
        except SyntaxError:
            out.append(("nocompile", tag, what))
            continue
        try:
            d.prove(text)
        except unveil.DecompilationError:
            out.append(("rejected", tag, what))
            continue
        except Exception as e:  # noqa: BLE001 - the validator itself crashed: report it
            out.append(("UNSOUND", tag, "%s: validator crashed: %s: %s" % (what, type(e).__name__, e)))
            continue
        try:
            factory = _factory(fn, make, text, ns)
        except Exception:  # noqa: BLE001 - proved, yet the text does not define the function
            out.append(("UNSOUND", tag, what + ": the mutant does not define the function"))
            continue
        got = _timed(lambda: fuzz.behaviour(factory, ns))
        if got is None:
            out.append(("hang" if want is not None else "same", tag, what))
        elif got != want:
            out.append(("UNSOUND", tag, what))
        else:
            out.append(("same", tag, what))
    return out


def _factory(fn, make, text, ns):
    """A factory of the mutant functions with fresh closure cells (as fuzz's make_new)."""
    import types
    new = fuzz.rebuild(fn, text, ns)

    def make_new():
        orig = make()
        cells = dict(zip(orig.__code__.co_freevars, orig.__closure__ or ()))
        closure = tuple(cells[v] for v in new.__code__.co_freevars) or None
        return types.FunctionType(new.__code__, orig.__globals__, orig.__name__, orig.__defaults__, closure)
    return make_new


def _run_one(seed_index):
    return run_case(seed_index)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--show", metavar="SEED:INDEX:K")
    args = ap.parse_args()
    if args.show:
        seed, index, k = args.show.split(":")
        from unveil.decompiler.api import Decompiler
        ns, make = fuzz.load(fuzz.generate(seed, int(index)))
        d = Decompiler(make())
        d.decompile_ast()
        print("# proved decompiled text\n" + d.text)
        rng = random.Random("unveil-mutate:%s:%s" % (seed, int(index)))
        for kk, what, text in mutants(d.text, d.def_name, rng, 8):
            if kk == int(k):
                print("# mutant: %s\n%s" % (what, text))
        print(run_case((seed, int(index)), only=int(k)))
        return
    work = [(args.seed, i) for i in range(args.count)]
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = [r for rs in pool.imap_unordered(_run_one, work, chunksize=8) for r in rs]
    else:
        results = [r for w in work for r in _run_one(w)]
    counts = {k: 0 for k in KINDS}
    for kind, _, _ in results:
        counts[kind] += 1
    print("Python %d.%d  seed %s  %d functions  %d mutants" % (fuzz.V + (args.seed, args.count, len(results))))
    for k in KINDS:
        print("%-10s %7d" % (k, counts[k]))
    for kind, tag, what in sorted(results):
        if kind in ("UNSOUND", "hang"):
            print("  %-8s %s  %s" % (kind, tag, what))


if __name__ == "__main__":
    main()
