"""CPython's own test suite as an oracle for the decompiler (issue 11, held-out code).

For each stdlib module M with a test module ``test.test_M``: run the tests once as they are,
and once after every function of M (module functions, methods, properties, static and class
methods; nested functions come along inside their parent) had its code replaced by
``unveil.recompile`` of itself. A test that passes on the original and not on the
recompiled code is a behaviour difference the proof let through (or a test that inspects
line numbers or source: those are listed so they can be read, never hidden).

Each run is its own subprocess (a replaced module must not leak into the next one).

    .venv/bin/python bench/stdtests.py [--modules textwrap,difflib] [--timeout 300] [-v]
"""
import argparse
import json
import os
import subprocess
import sys
import time
import types

# pure-Python modules whose tests run in seconds and exercise a wide range of control flow
MODULES = ["textwrap", "difflib", "shlex", "fractions", "statistics", "colorsys", "string",
           "base64", "csv", "html", "ipaddress", "pprint", "calendar", "configparser", "argparse",
           "gettext", "glob", "fnmatch", "posixpath", "heapq", "bisect", "copy", "dataclasses",
           "enum", "functools", "operator", "tokenize", "json", "plistlib", "quopri", "uu",
           "netrc", "cmd", "shutil", "tempfile", "zipfile", "tarfile", "getopt", "optparse",
           "graphlib", "contextlib", "abc", "keyword", "reprlib", "secrets", "smtplib", "ftplib",
           "wave", "mailbox", "email", "locale", "random", "datetime", "decimal", "sched",
           "queue", "traceback", "weakref", "typing", "collections", "inspect", "pathlib",
           "ast", "dis", "pickle", "pickletools", "zipapp", "filecmp", "fileinput", "codecs",
           "urllib", "http_cookies", "sqlite3", "logging", "lzma", "gzip", "bz2",
           "xml_etree", "ntpath", "genericpath", "selectors", "timeit", "trace", "profile",
           "pstats", "mimetypes", "unittest", "doctest", "_strptime", "sysconfig",
           "site", "shelve", "dbm", "hmac", "hashlib", "uuid", "zoneinfo", "imaplib", "poplib",
           "nntplib", "xdrlib", "aifc", "sunau", "chunk", "pydoc", "runpy", "modulefinder",
           "pyclbr", "tabnanny", "py_compile", "compileall", "linecache", "stringprep",
           "crypt", "numbers", "types", "warnings", "code", "codeop", "rlcompleter",
           "cgi", "wsgiref", "xmlrpc", "mailcap", "asyncio", "concurrent_futures"]

# test modules whose name differs from the module's, or modules that are packages
TEST_OF = {"http_cookies": ("http.cookies", "test.test_http_cookies"),
           "xml_etree": ("xml.etree.ElementTree", "test.test_xml_etree"),
           "concurrent_futures": ("concurrent.futures", "test.test_concurrent_futures"),
           "_strptime": ("_strptime", "test.test_strptime"),
           "urllib": ("urllib.parse", "test.test_urlparse"),
           "decimal": ("_pydecimal", "test.test_decimal"),
           "datetime": ("_pydatetime" if sys.version_info >= (3, 12) else "datetime",
                        "test.datetimetester" if sys.version_info >= (3, 12) else "test.test_datetime")}


def targets(name):
    module, test = TEST_OF.get(name, (name, "test.test_" + name))
    return module, test


# ---------------------------------------------------------------- inside the child process

def functions_of(module):
    """Every plain function object defined in ``module``'s source file, once each."""
    # 3.11+ freezes some modules (posixpath, os, ...): their code says "<frozen name>"
    paths = {getattr(module, "__file__", None), "<frozen %s>" % module.__name__}
    seen, out = set(), []

    def add(obj):
        for _ in range(5):
            if isinstance(obj, (staticmethod, classmethod)):
                obj = obj.__func__
            elif isinstance(obj, property):
                for part in (obj.fget, obj.fset, obj.fdel):
                    add(part)
                return
            elif hasattr(obj, "__wrapped__") and not isinstance(obj, types.FunctionType):
                obj = obj.__wrapped__
            else:
                break
        if isinstance(obj, types.FunctionType) and id(obj) not in seen:
            if obj.__code__.co_filename in paths:
                seen.add(id(obj))
                out.append(obj)

    def walk_class(cls, depth=0):
        for value in list(vars(cls).values()):
            if isinstance(value, type) and value.__module__ == module.__name__ and depth < 3:
                walk_class(value, depth + 1)
            else:
                add(value)

    for value in list(vars(module).values()):
        if isinstance(value, type) and value.__module__ == module.__name__:
            walk_class(value)
        else:
            add(value)
    return out


def replace_all(modname):
    """Replace the code of every function of ``modname`` (and of its submodules when it
    is a package) by unveil's recompile of it; returns counts and the refusals."""
    import importlib
    import pkgutil
    import unveil
    module = importlib.import_module(modname)
    modules = [module]
    if hasattr(module, "__path__"):
        for info in pkgutil.walk_packages(module.__path__, modname + "."):
            if info.name.endswith("__main__"):
                continue  # importing it runs the package's command line
            try:
                modules.append(importlib.import_module(info.name))
            except Exception:
                pass
    replaced, refused = 0, []
    for m in modules:
        for fn in functions_of(m):
            try:
                fn.__code__ = same_file(unveil.recompile(fn.__code__), fn.__code__.co_filename)
                replaced += 1
            except Exception as exc:
                refused.append("%s.%s: %s" % (m.__name__, fn.__qualname__, str(exc)[:160]))
    return replaced, refused


def same_file(code, filename):
    """``code`` and its nested code objects named after the original's file: recompile's
    text has its own file name (``<unveil>``), and code that skips its own module's frames
    by file name (logging's caller, warnings' stacklevel) would see the difference."""
    consts = tuple(same_file(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def run_tests(testname):
    import unittest
    import test.support
    suite = unittest.defaultTestLoader.loadTestsFromName(testname)
    outcomes = {}

    class Result(unittest.TestResult):
        def addSuccess(self, t):
            outcomes[t.id()] = "pass"

        def addFailure(self, t, err):
            outcomes[t.id()] = "fail: " + self._exc_info_to_string(err, t)[-600:]

        def addError(self, t, err):
            outcomes[t.id()] = "error: " + self._exc_info_to_string(err, t)[-600:]

        def addSkip(self, t, reason):
            outcomes[t.id()] = "skip"

        def addExpectedFailure(self, t, err):
            outcomes[t.id()] = "xfail"

        def addUnexpectedSuccess(self, t):
            outcomes[t.id()] = "xpass"

    try:  # some tests need resources switched on (e.g. 'cpu', 'decimal')
        test.support.use_resources = ["cpu", "decimal", "tzdata"]
    except Exception:
        pass
    suite.run(Result())
    return outcomes


def child(name, replace):
    import warnings
    warnings.simplefilter("ignore")
    sys.argv[1:] = []  # tests that call unittest.main() or argparse read the command line
    modname, testname = targets(name)
    report = {"replaced": 0, "refused": []}
    try:
        __import__(modname)
        __import__(testname)
    except ImportError as exc:  # not in this version (uu in 3.13, graphlib before 3.9)
        os.write(1, b"\n@@REPORT@@" + json.dumps({"missing": str(exc)}).encode())
        return
    if replace:
        report["replaced"], report["refused"] = replace_all(modname)
    report["outcomes"] = run_tests(testname)
    sys.stdout.flush()
    os.write(1, b"\n@@REPORT@@" + json.dumps(report).encode())


# ---------------------------------------------------------------- the parent

def run_child(name, replace, timeout):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name] + (["--replace"] if replace else [])
    env = dict(os.environ, PYTHONHASHSEED="0")
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": "timeout after %d s" % timeout}
    out = proc.stdout
    if b"@@REPORT@@" not in out:
        return {"error": "no report (exit %d): %s" % (proc.returncode, proc.stderr.decode(errors="replace")[-800:])}
    return json.loads(out.rsplit(b"@@REPORT@@", 1)[1])


def compare(name, timeout, verbose):
    plain = run_child(name, False, timeout)
    if "error" in plain or "missing" in plain:
        return {"module": name, "skipped": plain.get("error", plain.get("missing"))[:200]}
    rec = run_child(name, True, timeout)
    if "error" in rec:
        return {"module": name, "broken": rec["error"]}
    diffs = {}
    for test, outcome in plain["outcomes"].items():
        after = rec["outcomes"].get(test, "missing")
        if outcome != after and not (outcome.startswith("fail") and after.startswith("fail")) \
                and not (outcome.startswith("error") and after.startswith("error")):
            diffs[test] = (outcome[:80], after)
    return {"module": name, "tests": len(plain["outcomes"]), "replaced": rec["replaced"],
            "refused": rec["refused"], "differ": diffs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modules", help="comma-separated names (default: a fixed list of %d)" % len(MODULES))
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("-v", "--verbose", action="store_true", help="print each difference's traceback")
    ap.add_argument("--child")
    ap.add_argument("--replace", action="store_true")
    args = ap.parse_args()
    if args.child:
        return child(args.child, args.replace)
    names = args.modules.split(",") if args.modules else list(dict.fromkeys(MODULES))
    total = {"tests": 0, "replaced": 0, "refused": 0, "differ": 0}
    start = time.time()
    print("Python %d.%d" % sys.version_info[:2])
    for name in names:
        r = compare(name, args.timeout, args.verbose)
        if "skipped" in r:
            print("%-20s skipped (%s)" % (name, r["skipped"].splitlines()[0] if r["skipped"] else ""))
            continue
        if "broken" in r:
            print("%-20s BROKEN after recompile: %s" % (name, r["broken"][-300:]))
            total["differ"] += 1
            continue
        for k in ("tests", "replaced"):
            total[k] += r[k]
        total["refused"] += len(r["refused"])
        total["differ"] += len(r["differ"])
        print("%-20s %5d tests  %5d functions recompiled  %3d refused  %3d tests differ"
              % (name, r["tests"], r["replaced"], len(r["refused"]), len(r["differ"])), flush=True)
        for test, (before, after) in sorted(r["differ"].items()):
            print("    DIFFER %s: %s -> %s" % (test, before, after if args.verbose else after[:200].replace("\n", " | ")))
        if args.verbose:
            for line in r["refused"]:
                print("    refused", line)
    print("total: %(tests)d tests, %(replaced)d functions recompiled, %(refused)d refused, "
          "%(differ)d tests differ" % total, "(%.0f s)" % (time.time() - start))


if __name__ == "__main__":
    main()
