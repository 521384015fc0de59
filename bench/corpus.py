"""Round-trip table of DESIGN.md section 3 over the running interpreter's stdlib (or any tree).

For every function code object in the chosen top-level stdlib modules:
decompile -> compile -> take the function at the same place -> compare
normalized bytecode. *compiled* = the output compiles and holds the function;
*equal* = identical normalized bytecode. The same figures for depyf, side by
side, when it is installed.

    python bench/corpus.py --every 4            # every 4th module
    python bench/corpus.py --module json.decoder --show-failures 5
    python bench/corpus.py --tree .venv/lib/python3.11/site-packages/torch --every 8
                                                # every 8th .py file of any directory tree
"""
import argparse
import collections
import inspect
import os
import signal
import sys
import sysconfig
import time
import types
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from unveil.decompiler.function import is_annotate_function  # noqa: E402
from unveil.decompiler.measure import find_code, normalized  # noqa: E402

SKIP = {"__phello__", "antigravity", "this", "idlelib", "turtledemo", "test", "lib2to3",
        "tkinter", "ensurepip", "pydoc_data", "site-packages"}


def stdlib_modules():
    root = sysconfig.get_paths()["stdlib"]
    names = []
    for entry in sorted(os.listdir(root)):
        if entry in SKIP or entry.startswith(("_", ".")) and entry != "__future__.py":
            continue
        path = os.path.join(root, entry)
        if entry.endswith(".py"):
            names.append((entry[:-3], [path]))
        elif os.path.isdir(path) and os.path.exists(os.path.join(path, "__init__.py")):
            files = []
            for d, _, fs in os.walk(path):
                if "test" in os.path.relpath(d, path).split(os.sep):
                    continue
                files.extend(os.path.join(d, f) for f in sorted(fs) if f.endswith(".py"))
            names.append((entry, sorted(files)))
    return names


def tree_modules(root):
    """Every .py file below ``root``, each one module named by its path relative to ``root``."""
    names = []
    for d, dirs, fs in os.walk(root):
        dirs.sort()
        for f in sorted(fs):
            if f.endswith(".py"):
                path = os.path.join(d, f)
                names.append((os.path.relpath(path, root), [path]))
    return names


def compiled_files(mods):
    """(path, module code object) of every file of ``mods`` (from stdlib_modules or
    tree_modules) that compiles."""
    for _, files in mods:
        for path in files:
            try:
                with open(path, "rb") as f:
                    yield path, compile(f.read(), path, "exec")
            except (SyntaxError, ValueError):
                continue


def functions(code, out, classes=()):
    """Every def's code object below ``code`` (comprehensions and lambdas are
    part of the function that holds them). ``CLASSES`` records the names of the
    classes a method is defined in (None inside a function)."""
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            if is_annotate_function(c):
                continue  # 3.14+: a def's annotations, compiled apart (PEP 649): part of the def
            if c.co_name.startswith("<"):
                if c.co_name in ("<lambda>", "<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"):
                    continue
                functions(c, out, None)
            elif _is_class_body(c):
                functions(c, out, None if classes is None else classes + (c.co_name,))
            else:
                out.append(c)
                CLASSES[id(c)] = classes
                functions(c, out, None)
    return out


CLASSES = {}  # id(function code) -> names of the classes it is defined in, outermost first


def at_its_place(code, src):
    """The module to compile for decompiled ``src`` of ``code``: its module's import
    bindings (see import_header), then ``src`` inside the classes ``code`` was defined
    in -- "the same place" of DESIGN.md section 3: a method's nested functions are
    named after its class, and zero-argument ``super()`` needs the class."""
    import ast
    tree = ast.parse(HEADERS.get(id(code), ""))
    body = ast.parse(src).body
    # a def compiled under ``from __future__ import annotations`` says so first (api.decompile)
    future = [s for s in body if isinstance(s, ast.ImportFrom) and s.module == "__future__"]
    body = [s for s in body if s not in future]
    tree.body[:0] = future
    for name in reversed(CLASSES.get(id(code)) or ()):
        body = [ast.ClassDef(name=name, bases=[], keywords=[], body=body, decorator_list=[],
                             **({"type_params": []} if sys.version_info >= (3, 12) else {}))]
    tree.body += body
    return ast.fix_missing_locations(tree)


def _is_class_body(c):
    # functions are optimized (fast locals); class bodies and modules are not
    return not c.co_flags & inspect.CO_OPTIMIZED

HEADERS = {}  # id(function code) -> import lines of its module (see import_header)


def import_header(module_code):
    """``import x`` lines for the names the module binds by import.

    3.11's compiler calls ``x.f()`` differently when ``x`` was bound by an
    import in the module (LOAD_ATTR instead of LOAD_METHOD), so a function is
    compiled back in the same place: after its module's import bindings.
    """
    import dis
    names = []
    ins = list(dis.get_instructions(module_code))
    for k, i in enumerate(ins):
        if i.opname in ("IMPORT_NAME", "IMPORT_FROM") and k + 1 < len(ins):
            j = ins[k + 1]
            if j.opname in ("STORE_NAME", "STORE_GLOBAL") and j.argval.isidentifier():
                names.append(j.argval)
    return "".join("import %s\n" % n for n in dict.fromkeys(names))


def roundtrip_unveil(code):
    from unveil.decompiler.api import Decompiler
    src = Decompiler(code).decompile()
    return src


def roundtrip_depyf(code):
    import depyf
    return depyf.Decompiler(code).decompile()


class Timeout(BaseException):
    """Not an Exception: a decompiler's own ``except Exception`` must not
    swallow the bench's time limit."""


def _alarm(signum, frame):
    raise Timeout("took longer than 10 s")


def measure(decompile, codes):
    """(compiled, equal, seconds for the whole round trip, failures, {id(code): seconds spent in
    ``decompile`` for the codes it returned text for})."""
    compiled = equal = 0
    failures = []
    decompile_s = {}
    signal.signal(signal.SIGALRM, _alarm)
    t0 = time.perf_counter()
    for code in codes:
        # 10 s, then again every half second: a tool that swallows one alarm (depyf catches
        # BaseException around an eval) meets the next one outside that handler
        t1 = time.perf_counter()
        try:
            # the alarm may fire anywhere up to the disarming, the finally clause included:
            # the outer try catches it there too (it crashed busy-machine runs before)
            try:
                signal.setitimer(signal.ITIMER_REAL, 10, 0.5)
                src = decompile(code)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            decompile_s[id(code)] = time.perf_counter() - t1
        except (Exception, Timeout) as e:  # noqa: BLE001 - every failure counts as not compiled
            failures.append((code, "decompile: %s: %s" % (type(e).__name__, e)))
            continue
        try:
            compile(src, "<decompiled>", "exec")
            mod = compile(at_its_place(code, src), "<decompiled>", "exec")
        except SyntaxError as e:
            failures.append((code, "compile: %s" % e))
            continue
        new = find_code(mod, code.co_name)
        if new is None:
            failures.append((code, "function missing from output"))
            continue
        compiled += 1
        if normalized(new) == normalized(code):
            equal += 1
        else:
            failures.append((code, "bytecode differs"))
    return compiled, equal, time.perf_counter() - t0, failures, decompile_s


def show_diff(code):
    src = roundtrip_unveil(code)
    new = find_code(compile(at_its_place(code, src), "<decompiled>", "exec"), code.co_name)
    a, b = normalized(code), normalized(new)
    print("---- %s (%s:%d)" % (code.co_name, code.co_filename, code.co_firstlineno))
    print(src)
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    for i in range(max(0, k - 3), min(k + 4, max(len(a), len(b)))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        print("%s %4d  %-45s %s" % ("!" if x != y else " ", i, str(x)[:45], str(y)[:45]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=4,
                    help="take every k-th top-level module (with --tree: every k-th file)")
    ap.add_argument("--offset", type=int, default=0, metavar="I",
                    help="start --every's selection at the I-th module (a held-out sample of code nobody tuned for)")
    ap.add_argument("--tree", metavar="DIR", help="measure the .py files below DIR instead of the stdlib")
    ap.add_argument("--module", action="append", help="only these modules (file stems)")
    ap.add_argument("--show-failures", type=int, default=0, metavar="N")
    ap.add_argument("--no-depyf", action="store_true")
    ap.add_argument("--diff", type=int, default=0, metavar="N",
                    help="print source and first bytecode difference of N unequal functions")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    mods = tree_modules(args.tree) if args.tree else stdlib_modules()
    if args.module:
        wanted = set(args.module)
        mods = [(n, fs) for n, fs in mods if n in wanted]
    else:
        mods = mods[args.offset::args.every]
    codes = []
    for _, top in compiled_files(mods):
        found = functions(top, [])
        header = import_header(top)
        for c in found:
            HEADERS[id(c)] = header
        codes.extend(found)
    tools = [("unveil", roundtrip_unveil)]
    if not args.no_depyf:
        try:
            import depyf  # noqa: F401
            tools.append(("depyf", roundtrip_depyf))
        except Exception:  # noqa: BLE001
            pass
    print("Python %d.%d, %s%d %s, %d functions" % (
        sys.version_info[0], sys.version_info[1], args.tree + ": " if args.tree else "",
        len(mods), "files" if args.tree else "modules", len(codes)))
    print("%-8s %10s %10s %12s" % ("tool", "compiled", "equal", "functions/s"))
    results = {}
    for label, fn in tools:
        c, e, t, failures, decompile_s = measure(fn, codes)
        results[label] = (c, e, t, decompile_s)
        print("%-8s %9.1f%% %9.1f%% %12.0f" % (label, 100.0 * c / max(len(codes), 1),
                                             100.0 * e / max(len(codes), 1), len(codes) / max(t, 1e-9)))
        if label == "unveil" and args.show_failures:
            kinds = collections.Counter(msg.split(" at offset")[0][:90] for _, msg in failures)
            examples = {}
            for c, msg in failures:
                examples.setdefault(msg.split(" at offset")[0][:90], "%s:%s" % (
                    os.path.basename(c.co_filename), getattr(c, "co_qualname", c.co_name)))
            for msg, n in kinds.most_common(args.show_failures):
                print("   %5d  %-90s e.g. %s" % (n, msg, examples[msg]))
            shown = 0
            for c, m in failures:
                if m == "bytecode differs" and shown < args.diff:
                    shown += 1
                    show_diff(c)
            slow = [c for c, m in failures if "Timeout" in m]
            for c in slow[:5]:
                print("   timeout: %s %s:%d" % (c.co_name, c.co_filename, c.co_firstlineno))
    if "depyf" in results:
        u, d = results["unveil"], results["depyf"]
        print("speed ratio unveil/depyf (functions per second): %.2f" % ((d[2] or 1e-9) / (u[2] or 1e-9)))
        # a tool that gives up at once looks fast: compare decompile time on what both decompiled
        both = set(u[3]) & set(d[3])
        if both:
            us, ds = sum(u[3][k] for k in both), sum(d[3][k] for k in both)
            print("decompile time on the %d functions both return text for: unveil %.2f ms, depyf %.2f ms"
                  " per function (depyf/unveil %.2f)" % (len(both), 1e3 * us / len(both), 1e3 * ds / len(both),
                                                         ds / max(us, 1e-9)))


if __name__ == "__main__":
    main()
