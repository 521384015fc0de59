"""Graphs, kernels, recompile reasons and graph breaks from torch's structured trace.

``torch._logging.trace_structured`` sends every artifact to the handlers of the
``torch.__trace`` logger; unveil adds one handler for the duration of
``prepare_debug`` (and removes it on exit). Each record carries the compile id
(``frame_id/frame_compile_id``) and the attempt, which is how a graph is tied to
the cache entry -- and so to the ``__compiled_fn_<n>`` -- it belongs to.
"""
import json
import logging

from .hook import gc_paused

#: structured-trace event or artifact name -> dump stage
STAGES = {
    "dynamo_output_graph": "captured",
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_inference_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "inductor_post_grad_graph": "post_grad",
    "inductor_output_code": "kernel",
}


class Event:
    """One captured artifact."""
    __slots__ = ("kind", "stage", "cid", "attempt", "payload", "meta")

    def __init__(self, kind, stage, cid, attempt, payload, meta):
        self.kind, self.stage, self.cid, self.attempt = kind, stage, cid, attempt
        self.payload, self.meta = payload, meta


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
        if name in STAGES:
            return name, STAGES[name]
        if name in ("recompile_reasons", "dynamo_graph_break_reason"):
            return name, None
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
        if self.logger is not None:
            if vars(self.logger).get("debug") == self.debug:
                if self.previous_debug is not None:
                    self.logger.debug = self.previous_debug
                else:
                    del self.logger.debug
            self.logger.removeHandler(self)
            self.logger = None


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


def graph_break_of(payload: str):
    """(reason, location) from a ``dynamo_graph_break_reason`` payload; the reason is torch's
    whole text (the first line, then its explanation and hints), without the tracebacks."""
    text = payload if isinstance(payload, str) else str(payload)
    location = None
    lines = text.splitlines()
    first = lines[0] if lines else ""
    if " at " in first:
        location = first.rsplit(" at ", 1)[1].strip()
    reason = ""
    for k, line in enumerate(lines):
        if line.startswith("Graph Break Reason:"):
            # the reason goes on to torch's explanation and hints, up to the user's traceback
            rest = []
            for more in lines[k + 1:]:
                if more.startswith(("User code traceback:", "Traceback (most recent call last)")):
                    break
                rest.append(more.rstrip())
            reason = "\n".join([line[len("Graph Break Reason:"):].strip()] + rest).strip()
            break
    if not reason:
        reason = first.strip()
    return reason, location
