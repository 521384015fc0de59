"""Graphs, kernels, recompile reasons and graph breaks from torch's structured trace.

``torch._logging.trace_structured`` sends every artifact to the handlers of the
``torch.__trace`` logger; unveil adds one handler for the duration of
``prepare_debug`` (and removes it on exit). Each record carries the compile id
(``frame_id/frame_compile_id``) and the attempt, which is how a graph is tied to
the cache entry -- and so to the ``__compiled_fn_<n>`` -- it belongs to.
"""
import json
import logging
import re

from unveil.decompiler.api import gc_paused

#: structured-trace event or artifact name -> dump stage
STAGES = {
    "dynamo_output_graph": "captured",
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_inference_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "inductor_post_grad_graph": "post_grad",
    "inductor_output_code": "kernel",
    "optimize_ddp_split_graph": "ddp_split",  # DDP's graph split at its buckets (see ddp.py)
    "optimize_ddp_split_child": "ddp_submod",
}


#: artifact names (``trace_structured("artifact", ...)``) unveil keeps
ARTIFACTS = frozenset(STAGES) | {"recompile_reasons", "dynamo_graph_break_reason"}


class Event:
    """One captured artifact."""
    __slots__ = ("kind", "stage", "cid", "attempt", "payload", "meta", "submod")

    def __init__(self, kind, stage, cid, attempt, payload, meta):
        self.kind, self.stage, self.cid, self.attempt = kind, stage, cid, attempt
        self.payload, self.meta = payload, meta
        self.submod = None  # the DDP submodule being compiled when it came (ddp.compiling_submod)


def compile_id_of(md: dict):
    """'frame_id/frame_compile_id' of a trace record (None outside a compile)."""
    if md.get("frame_id") is None or md.get("frame_compile_id") is None:
        return None
    cid = "%s/%s" % (md["frame_id"], md["frame_compile_id"])
    if md.get("compiled_autograd_id") is not None:
        cid = "!%s/%s" % (md["compiled_autograd_id"], cid)
    return cid


def classify(md: dict):
    """(kind, stage) of a trace record, or None for records unveil does not keep."""
    for key, stage in STAGES.items():
        if key in md:
            return key, stage
    art = md.get("artifact")
    if isinstance(art, dict):
        name = art.get("name")
        if name in ARTIFACTS:
            return name, STAGES.get(name)
    return None


class TraceCapture(logging.Handler):
    """A ``torch.__trace`` handler that forwards the artifacts unveil needs to ``sink(Event)``."""

    def __init__(self, sink):
        super().__init__(level=logging.DEBUG)
        self.sink = sink
        self.logger = None

    def emit(self, record):
        self.take(getattr(record, "metadata", None), getattr(record, "payload", None))

    def take(self, md, payload):
        """One trace record's metadata and payload: forwarded when unveil keeps that kind."""
        try:
            if not isinstance(md, dict):
                return
            kind = classify(md)
            if kind is None:
                return
            if kind[0] == "recompile_reasons" and isinstance(payload, str):
                try:
                    payload = json.loads(payload)
                except ValueError:
                    pass
            with gc_paused():
                self.sink(Event(kind[0], kind[1], compile_id_of(md), md.get("attempt"), payload, md))
        except Exception:  # a logging handler must never raise into torch
            pass

    def install(self):
        from torch._logging._internal import trace_log
        self.logger = trace_log
        trace_log.addHandler(self)
        # torch sends every record through trace_log.debug(); while this handler is the logger's
        # only one, the record's parts come here directly -- without building a LogRecord and
        # walking the stack for it, which is most of the cost of tracing inside a compile
        self.previous_debug = vars(trace_log).get("debug")  # someone else's, or None
        trace_log.debug = self.debug
        self.filtered = _install_trace_filter()

    def debug(self, msg, *args, extra=None, **kwargs):
        log = self.logger
        if (log is not None and not args and isinstance(extra, dict) and log.handlers == [self]
                and not log.filters and not self.filters and log.isEnabledFor(logging.DEBUG)):
            self.take(extra.get("metadata"), extra.get("payload"))
            return
        if self.previous_debug is not None:
            return self.previous_debug(msg, *args, extra=extra, **kwargs)
        return logging.Logger.debug(log or logging.getLogger("torch.__trace"), msg, *args, extra=extra, **kwargs)

    def remove(self):
        _remove_trace_filter(getattr(self, "filtered", ()))
        self.filtered = ()
        if self.logger is not None:
            if vars(self.logger).get("debug") == self.debug:
                if self.previous_debug is not None:
                    self.logger.debug = self.previous_debug
                else:
                    del self.logger.debug
            self.logger.removeHandler(self)
            self.logger = None


def _kept(name, metadata_fn):
    """(whether a ``trace_structured(name, metadata_fn, ...)`` record is one unveil keeps, the
    metadata function to pass on): an artifact's name is in its metadata, read once here."""
    if name != "artifact":
        return name in STAGES, metadata_fn
    md = metadata_fn()
    return isinstance(md, dict) and md.get("name") in ARTIFACTS, lambda: md


def _filtering(original, trace_log):
    """``trace_structured`` that drops the records unveil does not keep while only unveil's
    handlers listen: torch would build their text (the guard manager's, tensor descriptions,
    metadata) for no one -- without a handler it builds none. Otherwise ``original`` as is."""

    def trace_structured(name, metadata_fn=dict, **kwargs):
        handlers = trace_log.handlers
        if handlers and all(isinstance(h, TraceCapture) for h in handlers):
            try:
                kept, metadata_fn = _kept(name, metadata_fn)
            except Exception:  # torch's metadata failed: let torch report it as it would
                kept = True
            if not kept:
                return None
        return original(name, metadata_fn, **kwargs)

    trace_structured.unveil_original = original
    return trace_structured


_FILTER = []  # [(torch's trace_structured, its filtering wrapper)], made once


def _install_trace_filter():
    """Make torch's modules call the filtering ``trace_structured`` (:func:`_filtering`); the
    (module dict) list to undo. torch's modules bind the function by name at import: each
    ``torch`` module holding it is patched (a module imported later binds whichever the
    ``torch._logging`` package holds then; the wrapper passes everything on when no unveil handler
    listens, so a leftover binding changes nothing)."""
    import sys
    from torch._logging import _internal
    if not _FILTER:
        original = getattr(_internal.trace_structured, "unveil_original", _internal.trace_structured)
        _FILTER.append((original, _filtering(original, _internal.trace_log)))
    original, wrapper = _FILTER[0]
    patched = []
    for name, module in list(sys.modules.items()):
        if name == "torch" or name.startswith("torch."):
            d = getattr(module, "__dict__", None)
            if isinstance(d, dict) and d.get("trace_structured") is original:
                d["trace_structured"] = wrapper
                patched.append(d)
    return patched


def _remove_trace_filter(patched):
    if not _FILTER:
        return
    original, wrapper = _FILTER[0]
    for d in patched:
        if d.get("trace_structured") is wrapper:
            d["trace_structured"] = original


def current_compile():
    """(compile id, attempt) of the compilation running now, or (None, None)."""
    try:
        from torch._guards import CompileContext
        trace_id = CompileContext.current_trace_id()
    except Exception:
        return None, None
    if trace_id is None:
        return None, None
    c = trace_id.compile_id
    cid = "%s/%s" % (c.frame_id, c.frame_compile_id)
    if getattr(c, "compiled_autograd_id", None) is not None:
        cid = "!%s/%s" % (c.compiled_autograd_id, cid)
    return cid, trace_id.attempt


def reason_lines(payload) -> list:
    """Recompile-reasons payload -> [(compile id of the failed entry, failed guard text)]."""
    items = payload if isinstance(payload, list) else [payload]
    out = []
    for item in items:
        if not isinstance(item, str):
            continue
        head = item.split("\nUser stack trace:")[0].strip()
        cid, _, guard = head.partition(": ")
        if not guard or "/" not in cid:
            cid, guard = None, head
        from .guards import split_comment
        out.append((cid, " ".join(split_comment(guard)[0].split()) or guard))
    return out


def graph_break_of(payload, dump_dir=None) -> dict:
    """A ``dynamo_graph_break_reason`` payload as ``{"reason", "cause", "location", "stack"}``.

    ``reason``: torch's whole reason (its first line, then the cause, the explanation and the
    hints); ``cause``: one line saying what Dynamo could not do; ``stack``: the user code
    traceback, outermost first, as ``file:line in function``; ``location``: the frame of the
    user's own code in it -- the innermost frame not in an installed package, the standard
    library or the dump -- else the innermost."""
    text = payload if isinstance(payload, str) else str(payload)
    lines = text.splitlines()
    first = lines[0] if lines else ""
    innermost = first.rsplit(" at ", 1)[1].strip() if " at " in first else None
    reason_lines, frames, part = [], [], "head"
    for line in lines:
        if part == "head" and line.startswith("Graph Break Reason:"):
            part = "reason"
            line = line[len("Graph Break Reason:"):].strip()
        elif line.startswith("User code traceback:"):
            part = "stack"
            continue
        elif line.startswith("Traceback (most recent call last):"):
            break
        if part == "reason":
            reason_lines.append(line.rstrip())
        elif part == "stack":
            m = _FRAME.match(line)
            if m:
                frames.append((m.group(1), int(m.group(2)), m.group(3)))
    reason = "\n".join(reason_lines).strip() or first.strip()
    stack = ["%s:%d in %s" % f for f in _without_launcher(frames)]
    user = [f for f in frames if not _library_file(f[0], dump_dir)]
    location = "%s:%d" % user[-1][:2] if user else innermost
    return {"reason": reason, "cause": cause_of(reason), "location": location, "stack": stack}


def launcher_file(path: str) -> bool:
    """Whether ``path`` is a file of what starts a user's program, not the user's: runpy
    (``python -m``, ``unveil run``) or unveil's own package (its command line)."""
    import os
    if path == "<frozen runpy>" or os.path.basename(path) == "runpy.py":
        return True
    unveil_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.abspath(path).startswith(unveil_dir + os.sep)


def _without_launcher(frames):
    """``frames`` (outermost first) from the first after the launcher's last one: the console
    script, ``unveil run``'s command line and runpy left out."""
    launcher_at = [k for k, f in enumerate(frames) if launcher_file(f[0])]
    return frames[launcher_at[-1] + 1:] if launcher_at else frames


_FRAME = re.compile(r'^\s*File "(.*)", line (\d+), in (.*)$')


def cause_of(reason: str) -> str:
    """One line for a graph-break reason: what Dynamo could not do (torch's "Explanation"
    line, after the kind of break), else the reason's first line."""
    lines = [l.strip() for l in reason.splitlines() if l.strip()]
    explanation = next((l[len("Explanation:"):].strip() for l in lines if l.startswith("Explanation:")), None)
    if explanation is None:
        return lines[0] if lines else ""
    kind = lines[1] if len(lines) > 1 and not lines[1].startswith(("Explanation:", "Hint:")) else None
    return "%s: %s" % (kind, explanation) if kind else explanation


def _library_file(path: str, dump_dir=None) -> bool:
    """Whether ``path`` is code the user did not write: an installed package, the standard
    library, or unveil's own dump (the transformed code stands for the user's function)."""
    import os
    import sys
    real = os.path.abspath(path)
    if os.sep + "site-packages" + os.sep in real or os.sep + "dist-packages" + os.sep in real:
        return True
    if dump_dir and real.startswith(os.path.abspath(dump_dir) + os.sep):
        return True
    stdlib = {os.path.abspath(os.path.join(p, "lib")) for p in (sys.base_prefix, sys.prefix)}
    return any(real.startswith(d + os.sep) for d in stdlib) or path.startswith("<")
