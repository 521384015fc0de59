"""``unveil.debug()``: step through already-compiled functions from their dumped files.

::

    with unveil.prepare_debug("dump"):   # compile: entries run from dump/__transformed_code_*.py
        f(x, 1); f(x, 2)
    with unveil.debug():                 # lists the files, stops in the debugger, no new compiles
        f(x, 2)

Inside the context torch runs the cache entries that exist and compiles nothing
new (stance ``fail_on_recompile``: a call no entry accepts raises an error that
names the failed guards; ``on_miss="eager"`` runs such calls uncompiled instead).
"""
import os
import sys

from . import cache, naming

STANCES = {"fail": "fail_on_recompile", "eager": "eager_on_recompile"}


def dumped_entries() -> list:
    """[(code, [(entry code, compile id)])] for every compiled function with at least one cache
    entry that runs from a file (torch's check order)."""
    out = []
    for code in cache.compiled_originals():
        entries = [(info.code, info.compile_id) for info in cache.entries(code)
                   if os.path.isfile(info.code.co_filename)
                   and os.path.basename(info.code.co_filename).startswith("__transformed_code_")]
        if entries:
            out.append((code, entries))
    return out


def _indexed_entries(dump_dir, cache_of) -> dict:
    """{transformed file name: (function, entry)} from the ``index.json`` of ``dump_dir`` (read
    once per directory): the names the dump gave them."""
    if dump_dir not in cache_of:
        from ..dump_index import NotADump, read_index
        try:
            index = read_index(dump_dir)
        except NotADump:
            index = {}
        cache_of[dump_dir] = {e.get("transformed_file"): (fn, e) for fn in index.get("functions", [])
                              for e in fn.get("entries", []) if e.get("transformed_file")}
    return cache_of[dump_dir]


def _names(code, entries, indexes):
    """(heading, [(entry label, file)]) of a compiled function: the display names of the dump's
    index (naming.py), worked out from the code when its index does not list the entry."""
    heading, labels = None, []
    for entry_code, cid in entries:
        path = entry_code.co_filename
        fn, e = _indexed_entries(os.path.dirname(path), indexes).get(os.path.basename(path), (None, None))
        if fn is not None and heading is None:
            heading = naming.heading_of(fn)
        digits = os.path.basename(path)[len("__transformed_code_"):].split("_", 1)[0]
        index = e.get("index") if e is not None else (int(digits) if digits.isdigit() else "?")
        labels.append((naming.entry_label(index, cid), path))
    if heading is None:
        qualname = getattr(code, "co_qualname", code.co_name)
        heading = naming.with_torch_names(naming.title(code), qualname)
    return heading, labels


def where_text() -> str:
    """What :func:`debug` prints: the files torch runs, per function, and the dump indexes."""
    found = dumped_entries()
    if not found:
        return ("unveil.debug(): no compiled function runs from a dumped file yet. Call the compiled\n"
                "functions once inside `with unveil.prepare_debug(dir):` first (entries compiled\n"
                "before prepare_debug keep running Dynamo's bytecode; torch._dynamo.reset() clears them).\n")
    lines = ["unveil.debug(): torch runs these files -- set breakpoints in them "
             "(graph code: __compiled_fn_*.py next to them):"]
    dirs, indexes = [], {}
    for code, entries in found:
        heading, labels = _names(code, entries, indexes)
        lines.append("  %s (%s:%s), entries in the order torch checks them:"
                     % (heading, code.co_filename, code.co_firstlineno))
        for label, path in labels:
            lines.append("    %s: %s" % (label, path))
            d = os.path.dirname(path)
            if d not in dirs:
                dirs.append(d)
    for d in dirs:
        lines.append("  dump %s: guards and reasons in README.md and full_code_for_*.py" % d)
    lines.append("No new compilation inside this block.")
    return "\n".join(lines) + "\n"


def pause(frame) -> None:
    """Stop in the debugger at the next line of ``frame``, like ``breakpoint()`` there.

    Respects ``PYTHONBREAKPOINT`` (``0`` disables the pause; another hook is called) and a
    ``sys.breakpointhook`` a debugger installed (debugpy, an IDE); the default hook, pdb,
    stops in ``frame`` itself rather than inside unveil."""
    hook = "" if sys.flags.ignore_environment else os.environ.get("PYTHONBREAKPOINT", "")
    if hook == "0":
        return
    if sys.breakpointhook is sys.__breakpointhook__ and hook in ("", "pdb.set_trace"):
        import pdb
        if sys.version_info >= (3, 14):
            # 3.14's set_trace stops at once, on the ``with`` line: ``next`` goes on to the line
            # where the caller's code continues, where earlier versions stop
            pdb.Pdb().set_trace(frame, commands=["next"])
        else:
            pdb.Pdb().set_trace(frame)
    else:
        sys.breakpointhook()


class debug:
    """Context manager: print where the dumped files are, pause in the debugger, and run
    already-compiled functions without compiling new entries.

    ``pause=False`` skips the stop; ``on_miss="eager"`` runs calls that no cache entry
    accepts uncompiled instead of raising."""

    def __init__(self, pause: bool = True, on_miss: str = "eager", file=None):
        if on_miss not in STANCES:
            raise ValueError("on_miss must be one of %s, not %r" % (sorted(STANCES), on_miss))
        self.pause = pause
        self.on_miss = on_miss
        self.file = file
        self.stance = None

    def __enter__(self):
        from . import dump
        if dump.active():
            raise RuntimeError(
                "unveil.debug() cannot run inside unveil.prepare_debug(): prepare_debug compiles and "
                "dumps, debug() runs what was compiled without compiling. Close the prepare_debug "
                "block first, then wrap the calls you want to step through in unveil.debug().")
        from . import require_torch
        torch = require_torch("unveil.debug")
        print(where_text(), end="", file=self.file or sys.stdout, flush=True)
        self.stance = torch.compiler.set_stance(STANCES[self.on_miss])
        self.stance.__enter__()
        if self.pause:
            pause(sys._getframe(1))
        return self

    def __exit__(self, *exc):
        stance, self.stance = self.stance, None
        if stance is not None:
            stance.__exit__(*exc)
        return False
