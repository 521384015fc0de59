"""Text of the dump's files: ``full_code_for_<fn>_<k>.py`` and the ``README.md`` index."""
import inspect
import re
import textwrap

from .explain import recompile_lines
from . import guard_groups, naming, stack_values
from .guards import guard_function
from .hook import comment_block, disassembly

RULE = "# " + "=" * 76 + "\n"

# Makes the guard functions of a full_code file run (unveil.torch.guard_runtime).
GUARD_NAMES = (
    "# (unveil) The guard functions below run: __guard_<i>_for_<fn>(L, G) returns torch's verdict for a\n"
    "# frame's locals L and globals G. Conditions written in Python use torch's own guard helpers\n"
    "# (___check_type_id, ___check_obj_id, torch, ...), taken from the running torch here; conditions\n"
    "# torch checks only in C++ call ___torch_guard(compile id, L, G, torch's text), which runs that\n"
    "# condition of the live cache entry's guard manager (it raises when the entry is not live).\n"
    "from unveil.torch.guard_runtime import guard_globals as ___guard_globals\n"
    "globals().update(___guard_globals())\n\n")


def valid(text: str) -> bool:
    """Whether ``text`` is valid Python (it compiles)."""
    try:
        compile(text, "<unveil>", "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError):
        return False


def as_comment(text: str, what: str) -> str:
    return comment_block("(%s is not valid Python; shown as a comment)\n%s" % (what, text))


def code_or_comment(text: str, what: str) -> str:
    """``text`` when it is valid Python, else the same text as comments (the file stays valid)."""
    if valid(text):
        return text if text.endswith("\n") else text + "\n"
    return as_comment(text, what)


def ordinal(k: int) -> str:
    n = k + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def graph_class(compiled_fn: str, payload: str) -> str:
    """Dynamo's captured graph as ``class <compiled_fn>(torch.nn.Module)``."""
    text = re.sub(r"^class GraphModule\(", "class %s(" % compiled_fn, payload.strip("\n"), count=1)
    return code_or_comment(text, "graph " + compiled_fn)


def original_source(code) -> str:
    try:
        lines, start = inspect.getsourcelines(code)
    except (OSError, TypeError):
        return comment_block("(source of %s is not available)" % code.co_name)
    text = textwrap.dedent("".join(lines))
    return code_or_comment(text, "source of " + code.co_name)


def for_reading(text: str) -> str:
    """The original source under ``if False:``, so loading the file (to run its guard functions)
    does not run the source's decorators and defaults, which name what the file does not import."""
    wrapped = ("if False:  # (unveil) the original source, for reading: loading this file does not run it\n"
               + textwrap.indent(text, "    "))
    return wrapped if valid(text) and valid(wrapped) else text


def reason_text(reason_pairs, index_of) -> list:
    """Lines explaining why an entry exists, from torch's recompile reasons."""
    out = []
    for cid, guard in reason_pairs:
        i = index_of(cid)
        who = "entry %s (compile id %s)" % (i, cid) if i is not None else "the entry with compile id %s" % cid
        out.append("%s failed its guard: %s" % (who, guard))
    return out


def ddp_split_lines(graphs, fn) -> list:
    """Comment lines for a graph DDP split at its gradient buckets (``ddp.py``): the split graph
    torch runs instead, and each submodule's graph file with the parameters it holds."""
    splits = [g for g in graphs if g["compiled_fn"] == fn and g["stage"] == "ddp_split"]
    if not splits:
        return []
    out = ["# DDP split this graph at its gradient buckets (DDPOptimizer): torch runs %s instead,\n"
           "# which calls each submodule in turn:\n" % splits[0]["file"]]
    for g in graphs:
        if g["compiled_fn"] == fn and g["stage"] == "ddp_submod":
            out.append("#   %s: %s -- %s\n" % (g.get("submod"), g["file"], g.get("title", "").replace("\n", " ")))
    return out


def stack_notes(guard_lines, stack) -> list:
    """Comment lines saying what the stack values the guard tests are (``stack_values.py``):
    ``L['___stack0'] is the value of m.item() at line 7``."""
    named = {}
    for line in guard_lines:
        for name in naming.stack_names(line):
            if name in (stack or {}):
                named.setdefault(name, stack[name])
    return ["L[%r] is %s, on Dynamo's stack at the graph break" % (name, naming.stack_value_text(info))
            for name, info in sorted(named.items())]


class FullCode:
    """Builds one ``full_code_for_<fn>_<k>.py``: entries in torch's order, then the source."""

    def __init__(self, session, record):
        self.s = session
        self.rec = record
        self.out = []
        self.shown = set()
        self.stack = {}  # per record shown: Dynamo's stack values (stack_values.of_resume)

    def text(self) -> str:
        rec = self.rec
        s = self.s
        where = "%s:%s" % (rec.source_file, rec.first_line) if rec.source_file else "(no source file)"
        ents = rec.ordered
        self.out.append("# %s -- everything torch.compile made of %s\n" % (rec.full_code, rec.title))
        if rec.title != rec.qualname:
            at = ", %s:%s" % rec.code_location if rec.code_location else ""
            self.out.append("# (code object %s%s)\n" % (rec.qualname, at))
        self.out.append("# written by unveil %s for torch %s; every part of this file is valid Python.\n"
                        % (s.unveil_version, s.torch_version))
        self.out.append("# source: %s\n#\n" % where)
        if rec.resume_of:
            self.out.append("# This is a resume function Dynamo generated: %s continues here after a\n"
                            "# graph break (Dynamo's global for it: %s).\n#\n" % (rec.resume_of, ", ".join(rec.aliases)))
        if ents:
            self.out.append(
                "# %s has %d cache entr%s. On each call torch checks them in the order below: it runs\n"
                "# the guard of each entry in turn and runs the transformed code of the first entry\n"
                "# whose guard returns True; when none does, it compiles a new entry.\n#\n"
                % (rec.title, len(ents), "y" if len(ents) == 1 else "ies"))
            for k, e in enumerate(ents):
                self.out.append("#   %s: entry %d (compile id %s) -> %s\n"
                                % (ordinal(k), e.index, e.cid, e.transformed_file))
        else:
            self.out.append("# %s has no cache entries (Dynamo compiled nothing of it: nothing in it to put in\n"
                            "# a graph, or it was not called inside prepare_debug).\n" % rec.title)
        self.out.append("\n" + GUARD_NAMES)
        self.entries(rec, depth=0)
        self.out.append("\n" + RULE + "# Original source of %s (%s)\n" % (
            naming.with_torch_names(rec.title, rec.qualname), where) + RULE)
        if rec.resume_of:
            self.out.append(comment_block("Dynamo generated this function; its bytecode:\n"
                                          + disassembly(rec.code)))
        else:
            self.out.append(for_reading(original_source(rec.code)))
        return "".join(self.out)

    def entries(self, rec, depth):
        self.shown.add(id(rec))
        self.stack[id(rec)] = stack_values.of_resume(rec.code)
        for k, e in enumerate(rec.ordered):
            self.entry(rec, e, k, depth)

    def entry(self, rec, e, k, depth):
        s = self.s
        out = self.out
        out.append(RULE)
        out.append("# [%s] %sentry %d of %s -- checked %s\n"
                   % (e.cid, "resume function: " if depth else "", e.index, rec.title, ordinal(k)))
        reasons = reason_text(e.reasons, lambda cid: rec.index_of(cid))
        explained = recompile_lines(e.explanation) if getattr(e, "explanation", None) else []
        stack = self.stack.get(id(rec))
        if explained:
            out.append("# Why it exists: torch compiled it because, for the call that compiled it,\n")
            out.extend("#   %s\n" % naming.with_stack_values(r.replace("\n", " "), stack) for r in explained)
        elif reasons:
            out.append("# Why it exists: torch compiled it because, for that call,\n")
            out.extend("#   %s\n" % naming.with_stack_values(r, stack) for r in reasons)
        elif e.pre_existing:
            out.append("# Compiled before prepare_debug: torch runs Dynamo's own bytecode for it (call\n"
                       "# torch._dynamo.reset() before prepare_debug to debug it from the files).\n")
        else:
            out.append("# Why it exists: first compilation of %s.\n" % rec.title)
        out.append(RULE + "\n")
        siblings = [x.guard_lines for x in rec.ordered if x is not e]
        out.append(code_or_comment(guard_function("__guard_%d_for_%s" % (e.index, rec.fn),
                                                  guard_groups.arrange(e.guard_lines, siblings),
                                                  ["guard of entry %d (compile id %s), torch's text turned into Python"
                                                   % (e.index, e.cid)] + stack_notes(e.guard_lines, stack),
                                                  executable=getattr(e, "executable", None)), "guard"))
        out.append("\n")
        for fn in e.compiled_fns:
            files = [g["file"] for g in s.graphs if g["compiled_fn"] == fn]
            out.append("# The graph this entry calls: %s (Dynamo's captured graph).\n" % fn)
            if files:
                out.append("# Files for every stage: %s\n" % ", ".join(files))
            out.extend(ddp_split_lines(s.graphs, fn))
            captured = s.captured.get(fn)
            if captured:
                out.append(graph_class(fn, captured))
            else:
                out.append("# (graph not captured: it was compiled before prepare_debug)\n")
            out.append("\n")
        out.append("# Transformed code of entry %d: %s\n" % (e.index, e.transformed_file))
        if e.error:
            out.append("# unveil could not make it debuggable, torch runs Dynamo's bytecode: %s\n"
                       % " ".join(e.error.split())[:300])
        if getattr(e, "run_code", None) is not None:  # compiled from this very text (hook.transform)
            out.append(e.body if e.body.endswith("\n") else e.body + "\n")
        else:
            out.append(code_or_comment(e.body, "transformed code"))
        out.append("\n")
        for name in e.resume_functions:
            target = s.by_alias.get(name)
            title = naming.with_torch_names(target.title, name) if target is not None else name
            out.append("# Resume function %s: after the graph break this entry jumps to it.\n" % title)
            if target is None:
                out.append("# (its code is not known to unveil)\n\n")
                continue
            if id(target) in self.shown:
                out.append("# (its entries are shown above; file %s)\n\n" % target.full_code)
                continue
            out.append("# Its own file: %s. Its entries, in the order torch checks them:\n" % target.full_code)
            if not target.ordered:
                out.append("# (no cache entries: Dynamo compiled nothing of it -- nothing in it to put in a\n"
                           "# graph, or it was not called inside prepare_debug)\n")
            out.append("\n")
            self.entries(target, depth + 1)


BREAKPOINTS = """## Setting breakpoints

Torch runs the code compiled from each `__transformed_code_<i>_for_<fn>.py` (and, for the
`eager` / `aot_eager` backends, the graph files `__compiled_fn_<n>.*.py`), so a breakpoint on
one of their lines stops there when that entry runs:

* no edit: `unveil run --break __transformed_code_0_for_f.py:LINE script.py` (or `--break
  script.py:LINE`, a line of your source: it stops where the dump runs that line; `--pdb` stops
  at the first line torch runs from the dump);
* pdb: `b /abs/path/to/__transformed_code_0_for_f.py:LINE` in a pdb session, or `breakpoint()`
  in your script right before the compiled call, then `b` as above and `c`;
* VS Code: open the file from this directory, click in the gutter, and run your script under the
  Python debugger (`"justMyCode": false` so files outside your workspace stop too);
* already compiled: `with unveil.debug(): f(x)` runs the entries from these files without
  compiling and stops in the debugger.

"""


def readme(index: dict) -> str:
    """The human index of a dump (``README.md``), from the merged ``index.json``."""
    out = ["# torch.compile dump (unveil %s, torch %s)\n\n" % (index.get("unveil"), index.get("torch")),
           "Each compiled function has a `full_code_for_<fn>_<k>.py` that reads top to bottom: its cache\n"
           "entries in the order torch checks them (guard, reason, graph, transformed code, resume\n"
           "functions), then the original source. Torch runs the code compiled from each\n"
           "`__transformed_code_<i>_for_<fn>.py`, so breakpoints set there are hit.\n"
           "The same information, machine-readable: `index.json`.\n\n"]
    if not index.get("complete", True):
        out.append("**This dump is incomplete**: a process that writes it is still running, or was killed\n"
                   "before it finished. Everything listed below was written whole; guards and the\n"
                   "`full_code_for_*` files are written when `prepare_debug` exits.\n\n")
    out.append("A new run into this directory replaces this dump whole (its files are deleted when\n"
               "the new run writes its first file: a run that fails before that leaves it as it is);\n"
               "processes of one run writing at the same time share it.\n\n")
    out.append(BREAKPOINTS)
    out.append("## Functions\n\n")
    functions = naming.by_torch_name(index)
    for f in index.get("functions", []):
        out.append(readme_function(f, functions))
    out.append("## Graphs\n\n")
    for g in index.get("graphs", []):
        title = " -- %s" % g["title"].replace("\n", " ") if g.get("title") else ""
        out.append("- `%s` %s: [%s](%s)%s\n" % (g["compiled_fn"], g["stage"], g["file"], g["file"], title))
    if index.get("graph_breaks"):  # (no heading over nothing)
        out.append("\n## Graph breaks\n\n")
    for b in index.get("graph_breaks", []):
        out.append("- %s%s: %s\n" % (named(naming.refer_to(b["function"], functions)),
                                       " at %s" % b["location"] if b.get("location") else "",
                                       (b.get("cause") or b["reason"]).replace("\n", " ")))
        if b.get("stack"):
            out.append("  - stack (outermost first): %s\n" % " → ".join("`%s`" % f for f in b["stack"]))
        out.append("  - torch's reason:\n\n")
        out.append("".join("        %s\n" % line for line in b["reason"].splitlines()) + "\n")
    if index.get("errors"):
        out.append("\n## Errors inside unveil (the program's results are unaffected)\n\n")
        for err in index["errors"]:
            out.append("- %s: %s\n" % (err["where"], err["message"].replace("\n", " ")[:400]))
    return "".join(out)


def named(text: str) -> str:
    """A display name in Markdown, torch's names beside it as code: ``normalize (resumed at line 6)
    [torch: `__resume_at_70_3`]``."""
    title, sep, rest = text.partition(" [torch: ")
    if not sep:
        return "`%s`" % title
    return "`%s` [torch: %s]" % (title, ", ".join("`%s`" % n for n in rest[:-1].split(", ")))


def readme_function(f: dict, functions: dict) -> str:
    """The README's section of one function of the index: its display name, its entries."""
    where = " (%s:%s)" % (f["source_file"], f["first_line"]) if f.get("source_file") else ""
    out = ["### %s%s\n\n[%s](%s)\n\n" % (named(naming.heading_of(f)), where, f["full_code"], f["full_code"])]
    stack = f.get("stack_values") or {}
    for k, e in enumerate(f.get("entries", [])):
        link = "[%s](%s)" % (e["transformed_file"], e["transformed_file"]) if e.get("transformed_file") else "-"
        out.append("%d. %s: %s" % (k + 1, naming.entry_label(e["index"], e.get("compile_id")), link))
        if e.get("compiled_fns"):
            out.append(" -- calls %s" % ", ".join("`%s`" % c for c in e["compiled_fns"]))
        if e.get("resume_functions"):
            out.append(" -- resumes in %s" % ", ".join(named(naming.refer_to(c, functions))
                                                      for c in e["resume_functions"]))
        out.append("\n")
        if e.get("reason"):
            out.append("   - reason: %s\n" % naming.with_stack_values(e["reason"].replace("\n", " "), stack))
        if e.get("error"):
            out.append("   - unveil error (Dynamo's bytecode runs): %s\n" % e["error"].replace("\n", " ")[:300])
        key = [g for g in e.get("guard", []) if "L[" in g or "G[" in g][:8]
        for g in key:
            out.append("   - guard: `%s`%s\n" % (g.replace("`", "'"), stack_suffix(g, stack)))
    out.append("\n")
    return "".join(out)


def stack_suffix(text: str, stack) -> str:
    """What :func:`naming.with_stack_values` adds to ``text`` (the text itself is written apart)."""
    return naming.with_stack_values(text, stack)[len(text):]
