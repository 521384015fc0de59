"""``prepare_debug``: dump everything ``torch.compile`` does inside the context.

Orchestrates the parts: :mod:`.hook` (transformed code -> debuggable files),
:mod:`.capture` (graphs, kernels, recompile reasons, graph breaks),
:mod:`.cache` (entries and guards in torch's order), :mod:`.render` (file
text) and :mod:`.store` (process-safe writing and the merged index).
"""
import os
import threading
import warnings

from . import cache, capture, ddp, names, naming, stack_values
from .graph_runner import RUNNABLE_STAGES, GraphRunner
from .hook import BytecodeHook, comment_block, decompile_as, disassembly, transform
from .render import FullCode, as_comment, code_or_comment, readme, valid

_ACTIVE = []  # sessions currently inside prepare_debug (unveil.debug() refuses to run inside one)


_LISTENERS = []  # callbacks told about each file torch will run from (unveil run --break / --pdb)


def listen(callback):
    """Call ``callback(kind, path, **info)`` for each dumped file torch runs code from, as it is
    written: ``("entry", path, code=<code run>, original=<user's code>)`` for transformed code,
    ``("graph", path, text=<file text>)`` for graph code. Returns a function that stops it."""
    _LISTENERS.append(callback)
    return lambda: _LISTENERS.remove(callback) if callback in _LISTENERS else None


def _tell(kind, path, **info):
    for callback in list(_LISTENERS):
        try:
            callback(kind, path, **info)
        except Exception:  # a listener never breaks the user's compile
            pass


def current_rank():
    """This process's rank under torch.distributed: from ``torch.distributed`` when it is
    initialised, else the ``RANK`` environment variable (torchrun sets it); None outside."""
    try:
        import torch.distributed as dist
        if dist.is_available() and dist.is_initialized():
            return int(dist.get_rank())
    except Exception:
        pass
    rank = os.environ.get("RANK", "").strip()
    return int(rank) if rank.isdigit() else None


def rank_dir(dump_dir) -> str:
    """Where this process dumps: ``dump_dir/rank_<r>`` under torch.distributed (each rank its own
    dump, so no rank's files are lost or clobbered), else ``dump_dir`` itself."""
    rank = current_rank()
    path = os.path.abspath(os.fspath(dump_dir))
    return os.path.join(path, "rank_%d" % rank) if rank is not None else path


def _user_stacklevel() -> int:
    """The ``stacklevel`` (for a warning issued by the caller) of the innermost frame outside
    unveil and torch: the user's ``with unveil.prepare_debug(...)`` line, or the line whose call
    torch is compiling, rather than a line of unveil or of Dynamo."""
    import sys
    inside = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]  # unveil's package
    torch = sys.modules.get("torch")
    if getattr(torch, "__file__", None):
        inside.append(os.path.dirname(os.path.abspath(torch.__file__)))
    frame, level = sys._getframe(2), 2  # level 1 is the caller of warnings.warn (Session.warn)
    while frame is not None:
        file = frame.f_code.co_filename
        if not (file.startswith("<frozen ") or any(file.startswith(d + os.sep) for d in inside)):
            return level
        frame, level = frame.f_back, level + 1
    return 1


def active() -> bool:
    """True while a ``prepare_debug`` context is open in this process."""
    return bool(_ACTIVE)


class EntryRecord:
    """One cache entry as unveil knows it."""

    def __init__(self, index, cid, transformed_file, dynamo_code, run_code, error, body, pre_existing=False):
        self.index = index
        self.cid = cid
        self.transformed_file = transformed_file
        self.dynamo_code = dynamo_code
        self.run_code = run_code
        self.error = error
        self.body = body
        self.pre_existing = pre_existing
        self.compiled_fns = names.compiled_fns_of(dynamo_code)
        self.resume_globals = names.resume_globals_of(dynamo_code)
        self.resume_functions = []
        self.guard_lines = []
        self.reasons = []
        self.executable = None  # guard_runtime.Executable: how each guard line runs
        self.explanation = None  # explain.Explanation.to_dict() of the call that compiled it


class FnRecord:
    """A compiled function (or resume function) and its entries."""

    def __init__(self, code):
        self.code = code
        self.fn = names.sanitize(code.co_name)
        # names go into comments and Markdown: escaped (names.printable) so they stay one line
        self.qualname = names.printable(getattr(code, "co_qualname", code.co_name))
        self.name = names.printable(code.co_name)
        self.source_file = code.co_filename if os.path.isfile(code.co_filename) else None
        self.first_line = code.co_firstlineno if self.source_file else None
        self.entries = {}  # compile id -> EntryRecord
        self.next_index = 0
        self.ordered = []
        self.aliases = []
        self.resume_of = None
        self.full_code = None
        self.wrapped = None  # the function a decorator's inner function runs (naming.py)
        self.title = naming.title(code)
        self.code_location = None  # (file, line) of ``code`` when source_file is the wrapped function's

    def locate(self, source):
        """Give the record the location (file, first line) of the function it wraps: headings,
        ``unveil show`` and the report point at the user's function, not at the decorator's."""
        if source is None:
            return
        if self.source_file:
            self.code_location = (self.source_file, self.first_line)
        self.source_file, self.first_line = source

    def index_of(self, cid):
        e = self.entries.get(cid)
        return e.index if e else None


class Session:
    """The state of one ``prepare_debug`` context."""

    def __init__(self, dump_src_dir, clean_wild_fx_code=True, log_bytecode=False):
        self.dir = os.path.abspath(os.fspath(dump_src_dir))
        self.clean_wild_fx_code = clean_wild_fx_code  # unveil writes no stray fx files; kept for depyf
        self.log_bytecode = log_bytecode
        self.lock = threading.RLock()
        self.records = {}  # id(original code) -> FnRecord
        self.by_alias = {}  # __resume_at_* -> FnRecord
        self.graphs = []  # index records
        self.captured = {}  # compiled fn -> Dynamo's graph text
        self.pending = {}  # compile id -> [Event] before the hook saw that compile
        self.cid_fns = {}  # compile id -> [compiled fn names], [current graph position]
        self.reasons = {}  # compile id -> [(failed compile id, guard)]
        self.graph_breaks = []  # (compile id, reason, location)
        self.errors = []
        self.unchecked = []  # (graph file, header length, what): valid Python not yet confirmed
        self.warned = False
        self.store = None
        self.hook = None
        self.trace = None
        self.graph_runner = None
        self.graph_names = {}  # torch's __compiled_fn_<n> -> its name in this dump (graph_name)
        self.ddp_split_cids = set()  # compile ids whose graph DDPOptimizer split (ddp.py)
        self.ddp_submods = {}  # (compile id, compiled fn) -> the submodules its split graph calls
        self.disabled = False  # True when the directory could not be used: nothing is dumped

    # -- context ---------------------------------------------------------
    def __enter__(self):
        import unveil
        from . import require_torch
        from .store import Store
        torch = require_torch("unveil.prepare_debug")
        self.torch_version = str(torch.__version__)
        self.unveil_version = getattr(unveil, "__version__", "?")
        self.dir = rank_dir(self.dir)
        try:
            os.makedirs(self.dir, exist_ok=True)
            store = Store(self.dir)
            store.start()
        except Exception as err:  # a path that is a file, a directory that cannot be written...
            # the user's program runs on, undumped (DESIGN.md section 4): say so once
            self.warn("unveil: cannot dump to %s (%s: %s); the program runs without the dump"
                      % (self.dir, type(err).__name__, err))
            self.disabled = True
            return self
        self.store = store
        self.publish()  # an index from the start: a process killed at any instant leaves a listed dump
        self.trace = capture.TraceCapture(self.on_event)
        self.trace.install()
        self.hook = BytecodeHook(self.on_bytecode)
        self.hook.install()
        self.graph_runner = GraphRunner()
        self.graph_runner.install()
        _ACTIVE.append(self)
        return self

    def __exit__(self, *exc):
        if self.disabled:
            return False
        if self in _ACTIVE:
            _ACTIVE.remove(self)
        if self.hook is not None:
            self.hook.remove()
        if self.graph_runner is not None:
            self.graph_runner.remove()
        if self.trace is not None:
            self.trace.remove()
        # a block that failed before this run wrote a file leaves an earlier run's dump whole
        failed_before_writing = bool(exc) and exc[0] is not None and not self.store.joined
        if not failed_before_writing:
            try:
                self.finish()
            except Exception as err:  # never turn a dump problem into a user-visible crash
                self.warn("unveil: writing the dump index failed (%s: %s)" % (type(err).__name__, err))
        # the hook and the trace handler hold bound methods of this session: drop them so the
        # session is freed by reference counting, not left for the cyclic collector
        self.hook = self.trace = self.graph_runner = None
        return False

    @property
    def wrote(self) -> bool:
        """Whether this session wrote a dump (False: the directory could not be used, or the
        block failed before anything was written and the directory holds what it held)."""
        return self.store is not None and self.store.joined

    def warn(self, message):
        if not self.warned:
            self.warned = True
            warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())

    def error(self, where, message):
        self.errors.append({"where": where, "message": message})

    # -- records ---------------------------------------------------------
    def record(self, code):
        rec = self.records.get(id(code))
        if rec is None:
            rec = self.records[id(code)] = FnRecord(code)
        return rec

    def new_entry(self, rec, cid, dynamo_code, for_running):
        """Claim the entry's file, write it, and return the EntryRecord."""
        i, fname = self.store.claim(lambda k: "__transformed_code_%d_for_%s.py" % (k, rec.fn), rec.next_index)
        rec.next_index = i + 1
        path = self.store.path(fname)
        def_name = "__transformed_code_%d_for_%s" % (i, rec.fn)
        header = "# %s: cache entry %d of %s (compile id %s), written by unveil.\n" % (
            fname, i, naming.with_torch_names(rec.title, rec.qualname), cid)
        if for_running:
            t = transform(dynamo_code, def_name, path, header, self.log_bytecode)
            text, code, err, body = t.text, t.code, t.error, t.text[len(header):]
        else:
            text, body = self.readable(dynamo_code, def_name, header)
            code, err = None, None
        self.store.write(fname, text)
        e = EntryRecord(i, cid, fname, dynamo_code, code, err, body, pre_existing=not for_running)
        e.compiled_fns = [self.graph_name(fn) for fn in e.compiled_fns]
        rec.entries[cid] = e
        if err:
            self.error("%s entry %d (%s)" % (rec.qualname, i, fname), err)
            self.warn("unveil: could not make the code torch runs for %s debuggable (%s); torch runs "
                      "Dynamo's own bytecode for it instead. Details: %s" % (rec.qualname, err, path))
        return e

    def graph_name(self, fn):
        """The dump's name for torch's ``__compiled_fn_<n>``: that name, unless another process
        writing the same dump claimed it (its numbers count from 1 too), then ``<name>_<k>``; so
        a name in ``index.json`` always means one graph."""
        name = self.graph_names.get(fn)
        if name is None:
            _, name = self.store.claim(lambda k: fn if k == 0 else "%s_%d" % (fn, k))
            self.graph_names[fn] = name
        return name

    def readable(self, dynamo_code, def_name, header):
        header += ("# Compiled before prepare_debug: torch runs Dynamo's own bytecode for this entry;\n"
                   "# this text is for reading (call torch._dynamo.reset() before prepare_debug to\n"
                   "# run entries from their files).\n\n")
        try:
            body = code_or_comment(decompile_as(dynamo_code, def_name), "decompiled code")
        except Exception as err:
            body = comment_block("unveil could not decompile it (%s: %s); Dynamo's bytecode:\n%s"
                                 % (type(err).__name__, err, disassembly(dynamo_code)))
        return header + body, body

    # -- torch callbacks ---------------------------------------------------
    def on_bytecode(self, code, new_code):
        """Dynamo's bytecode hook: returns the code compiled from the dumped file, or None."""
        with self.lock:
            cid, attempt = capture.current_compile()
            cid = cid or "?/%d" % len(self.cid_fns)
            rec = self.record(code)
            explanation = self.explain_recompile(code)
            if not rec.entries and rec.wrapped is None:
                wrapped = naming.wrapped_function(code)
                if wrapped is not None:  # files and headings name the function users know
                    rec.wrapped = wrapped.__qualname__
                    rec.fn = names.sanitize(rec.wrapped)
                    rec.title = naming.title(code, rec.wrapped)
                    rec.locate(naming.source_of(wrapped))
            try:
                e = self.new_entry(rec, cid, new_code, for_running=True)
                e.explanation = explanation
            except Exception as err:
                self.error("%s (compile id %s)" % (rec.qualname, cid), "%s: %s" % (type(err).__name__, err))
                self.warn("unveil: dumping %s failed (%s); torch runs Dynamo's own code" % (rec.qualname, err))
                return None
            self.cid_fns[cid] = [e.compiled_fns, -1]
            if e.run_code is not None:
                _tell("entry", self.store.path(e.transformed_file), code=e.run_code, original=code)
            for ev in self.pending.pop(cid, []):
                if attempt is None or ev.attempt is None or ev.attempt == attempt:
                    self.place(ev, publish=False)
            self.publish()
            return e.run_code

    def explain_recompile(self, code):
        """Which condition of each earlier entry the call being compiled failed (None for a
        first compilation, or when torch's frame is not found)."""
        try:
            from .explain import compiling_frame_locals, explain_locals
            from torch._dynamo.eval_frame import _debug_get_cache_entry_list
            entries = _debug_get_cache_entry_list(code)
            L = compiling_frame_locals(code) if entries else None
            if L is None:
                return None
            return explain_locals(code, L, entries=entries).to_dict()
        except Exception as err:  # the dump never breaks the user's compile
            self.error("explaining the recompile of %s" % code.co_name, "%s: %s" % (type(err).__name__, err))
            return None

    def on_event(self, ev):
        with self.lock:
            if ev.kind == "recompile_reasons":
                self.reasons[ev.cid] = capture.reason_lines(ev.payload)
            elif ev.kind == "dynamo_graph_break_reason":
                self.graph_breaks.append((ev.cid, capture.graph_break_of(ev.payload, self.dir)))
                self.publish()
            else:
                if ev.stage == "ddp_split":
                    self.ddp_split_cids.add(ev.cid)
                elif ev.cid in self.ddp_split_cids and ev.stage not in ("captured", "ddp_submod"):
                    ev.submod = ddp.compiling_submod()  # now: torch is compiling that submodule
                if ev.cid in self.cid_fns:
                    self.place(ev)
                else:
                    self.pending.setdefault(ev.cid, []).append(ev)

    def publish(self):
        """Rewrite ``index.json`` and ``README.md`` with what this session has written so far."""
        try:
            self.store.update(self.index_part(final=False), readme)
        except Exception as err:
            self.error("index.json", "%s: %s" % (type(err).__name__, err))

    def place(self, ev, publish=True):
        """Write a graph/kernel event to ``__compiled_fn_<n>.<stage>.py``."""
        fns, pos = self.cid_fns[ev.cid]
        if not fns:
            return
        pos = pos + 1 if ev.stage == "captured" else max(pos, 0)
        pos = min(pos, len(fns) - 1)
        self.cid_fns[ev.cid][1] = pos
        fn = fns[pos]
        payload = ev.payload if isinstance(ev.payload, str) else str(ev.payload)
        try:
            what = {"captured": "Dynamo's captured graph", "aot_joint": "AOT autograd joint graph",
                    "aot_forward": "AOT autograd forward graph", "aot_backward": "AOT autograd backward graph",
                    "post_grad": "inductor post-grad graph", "kernel": "inductor output code",
                    "ddp_split": "DDP bucket split (DDPOptimizer)",
                    "ddp_submod": "a submodule's graph in the DDP bucket split"}[ev.stage]
            prefix, extra = self.ddp_part(ev, fn, payload, what)
            if ev.stage == "kernel":
                start = sum(1 for g in self.graphs if g["compiled_fn"] == fn and g["stage"] == "kernel"
                            and g.get("submod") == extra.get("submod"))
                _, fname = self.store.claim(lambda k: "%s.kernel_%d.py" % (prefix, k), start)
            elif ev.stage == "ddp_submod":
                _, fname = self.store.claim(lambda k: "%s.py" % prefix if k == 0 else "%s.%d.py" % (prefix, k))
            else:
                _, fname = self.store.claim(
                    lambda k: "%s.%s.py" % (prefix, ev.stage) if k == 0 else "%s.%s.%d.py" % (prefix, ev.stage, k))
            header = "# %s: %s of %s (compile id %s, torch artifact %s), written by unveil.\n" % (
                fname, what, fn, ev.cid, ev.kind)
            header += "# %s\n\n" % extra["title"] if extra.get("title") else "\n"
            body = payload if payload.endswith("\n") else payload + "\n"
            self.store.write(fname, header + body)
            # whether torch's text is valid Python is checked on exit, outside the user's
            # compile; a text that is not is then rewritten as comments
            self.unchecked.append((fname, len(header), what))
            # a submodule's graph runs as written with the eager backend; the split graph does not
            # (torch runs it calling the compiled submodules, not the ones its text calls)
            if (ev.stage in RUNNABLE_STAGES or ev.stage == "ddp_submod") and self.graph_runner is not None:
                self.graph_runner.add(self.store.path(fname), body, header.count("\n"))
                _tell("graph", self.store.path(fname), text=header + body)
            self.graphs.append(dict({"compiled_fn": fn, "stage": ev.stage, "file": fname}, **extra))
            if ev.stage == "captured" and fn not in self.captured:
                self.captured[fn] = payload
        except Exception as err:
            self.error("graph %s (%s)" % (fn, ev.stage), "%s: %s" % (type(err).__name__, err))
        if publish:
            self.publish()

    def ddp_part(self, ev, fn, payload, what):
        """(file name prefix, extra index fields) of a graph of DDP's split (``ddp.py``): the
        split graph lists its submodules; a submodule's graph, and the backend's graphs of it,
        are named after the submodule and say which one it is."""
        if ev.stage == "ddp_split":
            submods = self.ddp_submods[(ev.cid, fn)] = ddp.split_submods(payload)
            return fn, {"submods": submods, "title": ddp.split_title(submods)}
        if ev.stage == "ddp_submod":
            child = ev.meta.get("optimize_ddp_split_child") if isinstance(ev.meta, dict) else None
            name = names.sanitize(child.get("name") if isinstance(child, dict) else "submod")
            submods = self.ddp_submods.get((ev.cid, fn), [])
            params = ddp.graph_params(payload)
            return "%s.%s" % (fn, name), {"submod": name, "of": len(submods), "params": params,
                                          "title": ddp.submod_title(name, submods, params)}
        if ev.submod:
            name = names.sanitize(ev.submod)
            return "%s.%s" % (fn, name), {"submod": name, "title": "%s of %s (DDP bucket split)" % (what, name)}
        if ev.cid in self.ddp_split_cids and ev.stage != "captured":
            # Inductor compiles a backward at its first run, outside the split's compilation
            return fn, {"title": "%s of one of the DDP bucket split's submodules, compiled later "
                                 "(torch does not say which)" % what}
        return fn, {}

    # -- exit --------------------------------------------------------------
    def check_graph_files(self):
        """Graph files whose text does not compile become comments (see :meth:`place`)."""
        for fname, header_len, what in self.unchecked:
            try:
                with open(self.store.path(fname), encoding="utf-8") as fh:
                    text = fh.read()
                if not valid(text):
                    self.store.write(fname, text[:header_len] + as_comment(text[header_len:], what))
            except Exception as err:
                self.error("graph file %s" % fname, "%s: %s" % (type(err).__name__, err))
        self.unchecked = []

    def finish(self):
        with self.lock:
            self.check_graph_files()
            for code in cache.compiled_originals():
                if code.co_filename != "<unveil>":
                    self.collect(code, create=True)
            queue = list(self.records.values())
            seen = set()
            while queue:
                rec = queue.pop(0)
                if id(rec) in seen:
                    continue
                seen.add(id(rec))
                self.collect(rec.code, create=False)
                for e in rec.ordered:
                    for alias, code in e.resume_codes:
                        target = self.record(code)
                        if target.resume_of is None:
                            target.resume_of = rec.title
                        if alias not in target.aliases:
                            target.aliases.append(alias)
                        if alias not in self.by_alias:
                            self.by_alias[alias] = target
                        if id(target) not in seen:
                            queue.append(target)
            for rec in self.records.values():
                if rec.aliases:
                    rec.name = rec.aliases[0]
            for rec in self.records.values():
                for e in rec.ordered:
                    e.resume_functions = []
                    for alias, code in e.resume_codes:
                        target = self.records.get(id(code))
                        name = target.name if target else alias
                        if name not in e.resume_functions:
                            e.resume_functions.append(name)
                    for alias in e.resume_globals:
                        if alias not in {a for a, _ in e.resume_codes} and alias not in e.resume_functions:
                            e.resume_functions.append(alias)
            for rec in list(self.records.values()):
                if not rec.ordered and not rec.resume_of:
                    continue
                _, rec.full_code = self.store.claim(lambda k: "full_code_for_%s_%d.py" % (rec.fn, k))
            for rec in self.records.values():
                if rec.full_code:
                    try:
                        self.store.write(rec.full_code, FullCode(self, rec).text())
                    except Exception as err:
                        self.error(rec.full_code, "%s: %s" % (type(err).__name__, err))
            self.store.finish(self.index_part(), readme)

    def collect(self, code, create):
        """Fill ``rec.ordered`` with ``code``'s entries in torch's order."""
        infos = cache.entries(code)
        if not infos and id(code) not in self.records:
            return
        rec = self.record(code)
        ordered = []
        for info in infos:
            e = rec.entries.get(info.compile_id)
            if e is None:
                e = next((x for x in rec.entries.values() if x.run_code is info.code), None)
            if e is None:
                e = self.new_entry(rec, info.compile_id, info.code, for_running=False)
            e.guard_lines = info.guard_lines
            try:
                from .guard_runtime import Executable
                e.executable = Executable(info.compile_id, info.guard_manager)
                e.guard_lines = e.executable.complete(e.guard_lines)
            except Exception as err:  # the guard then stays torch's text, as before
                self.error("guards of %s entry %d" % (rec.qualname, e.index), "%s: %s" % (type(err).__name__, err))
            e.resume_codes = []
            for alias in e.resume_globals:
                rc = cache.resume_code(info.global_scope, alias)
                if rc is not None:
                    e.resume_codes.append((alias, rc))
            ordered.append(e)
        if not infos:  # the cache was reset inside the context: newest first, like torch
            ordered = sorted(rec.entries.values(), key=lambda x: -x.index)
            for e in ordered:
                e.resume_codes = getattr(e, "resume_codes", [])
        for e in ordered:
            e.reasons = self.reasons.get(e.cid, [])
        rec.ordered = ordered

    def index_part(self, final=True) -> dict:
        """This session's part of ``index.json``. ``final=False``: while the session runs --
        entries newest first (torch's order is read from its cache on exit), no guards and
        no full_code file yet."""
        functions = []
        for rec in self.records.values():
            if final and not rec.full_code:
                continue
            ordered = rec.ordered if final else sorted(rec.entries.values(), key=lambda x: -x.index)
            if not final and not ordered:
                continue
            entries = []
            for e in ordered:
                reason = None
                reasons = e.reasons if final else self.reasons.get(e.cid, [])
                if reasons:
                    reason = "; ".join(
                        "entry %s (compile id %s) failed guard: %s" % (rec.index_of(cid), cid, g)
                        if rec.index_of(cid) is not None else "compile id %s failed guard: %s" % (cid, g)
                        for cid, g in reasons)
                from .guards import one_line
                entries.append({"index": e.index, "compile_id": e.cid, "transformed_file": e.transformed_file,
                                "guard": [one_line(p) for p in e.guard_lines], "reason": reason,
                                "compiled_fns": list(e.compiled_fns),
                                "resume_functions": list(e.resume_functions), "error": e.error,
                                "explanation": e.explanation, "title": naming.entry_title(rec.title, e.index, e.cid)})
            functions.append({"name": rec.name, "title": rec.title, "qualname": rec.qualname, "source_file": rec.source_file,
                              "first_line": rec.first_line, "full_code": rec.full_code, "entries": entries,
                              "aliases": list(rec.aliases),
                              "stack_values": stack_values.of_resume(rec.code) if final else {}})
        by_cid = {}
        for rec in self.records.values():
            for e in rec.entries.values():
                by_cid[e.cid] = rec
        breaks = [dict(brk, function=by_cid[cid].name if cid in by_cid else "?",
                       title=by_cid[cid].title if cid in by_cid else "?") for cid, brk in self.graph_breaks]
        return {"format": 1, "torch": self.torch_version, "unveil": self.unveil_version, "complete": final,
                "functions": functions, "graphs": list(self.graphs), "graph_breaks": breaks,
                "errors": list(self.errors)}


def prepare_debug(dump_src_dir, clean_wild_fx_code=True, log_bytecode=False):
    """Context manager: everything ``torch.compile`` does inside goes to ``dump_src_dir``, and the
    code torch runs for each new cache entry is compiled from its dumped file."""
    return Session(dump_src_dir, clean_wild_fx_code=clean_wild_fx_code, log_bytecode=log_bytecode)
