"""TraceCapture: torch's structured-trace records reach unveil, directly while its handler is the
only one, through logging as usual when there are others; everything is undone on exit."""
import logging

import torch
from torch._logging._internal import trace_log

import unveil
from unveil.torch import capture
from unveil.torch.capture import TraceCapture


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def compile_once():
    torch._dynamo.reset()

    @torch.compile(backend="eager")
    def f(x):
        return x.sin() + 1
    f(torch.ones(3))


def kinds(events):
    return {e.kind for e in events}


def test_records_reach_unveil_and_other_handlers():
    for others in ([], [Collect()]):
        events = []
        for h in others:
            trace_log.addHandler(h)
        capture = TraceCapture(events.append)
        capture.install()
        try:
            compile_once()
        finally:
            capture.remove()
            for h in others:
                trace_log.removeHandler(h)
        assert "dynamo_output_graph" in kinds(events)
        for h in others:  # another handler still gets every record, unveil's included
            assert any("dynamo_output_graph" in getattr(r, "metadata", {}) for r in h.records)
    assert "debug" not in vars(trace_log)
    assert not any(isinstance(h, TraceCapture) for h in trace_log.handlers)


def test_prepare_debug_leaves_the_trace_logger_as_it_was(tmp_path):
    compile_once()  # torch's own lazy handler removes itself at the first record when not tracing
    before = (list(trace_log.handlers), dict(vars(trace_log)).get("debug"))
    with unveil.prepare_debug(str(tmp_path / "d")):
        compile_once()
        assert vars(trace_log).get("debug") is not None  # the direct path was in use
    assert (list(trace_log.handlers), dict(vars(trace_log)).get("debug")) == before


def test_graph_break_reason_keeps_torchs_explanation_and_drops_tracebacks():
    payload = ("Graph break in user code at /x/seed.py:9\n"
               "Graph Break Reason: Encountered graph break when attempting to trace CALL:\n\n"
               "Failed to trace builtin operator\n"
               "  Explanation: Dynamo does not know how to trace builtin operator `print`\n"
               "  Hint: Avoid calling builtin `print`\n\n"
               "User code traceback:\n  File \"/x/seed.py\", line 9, in f\n    print('hi')\n\n"
               "Traceback (most recent call last):\n  File \"torch/_dynamo/x.py\", line 1\n")
    found = capture.graph_break_of(payload)
    reason = found["reason"]
    assert found["location"] == "/x/seed.py:9"
    assert found["stack"] == ["/x/seed.py:9 in f"]
    assert "does not know how to trace builtin operator `print`" in found["cause"]
    assert reason.startswith("Encountered graph break when attempting to trace CALL:")
    assert "Explanation: Dynamo does not know how to trace builtin operator `print`" in reason
    assert "Hint: Avoid calling builtin `print`" in reason
    assert "User code traceback" not in reason and "Traceback" not in reason and "line 9" not in reason



def emit_records(built):
    """Send two records unveil drops and two it keeps; each payload built is noted in ``built``."""
    import torch._logging

    def payload_of(what):
        return lambda: built.append(what) or "text"
    for name, artifact in (("dynamo_cpp_guards_str", None), ("artifact", "aot_forward_graph_fw_metadata"),
                           ("dynamo_output_graph", None), ("artifact", "recompile_reasons")):
        if artifact:
            torch._logging.trace_structured(name, lambda a=artifact: {"name": a, "encoding": "string"},
                                            payload_fn=payload_of(artifact), expect_trace_id=False)
        else:
            torch._logging.trace_structured(name, payload_fn=payload_of(name), expect_trace_id=False)


def test_records_unveil_drops_are_not_built_while_only_unveil_listens():
    import torch._logging
    from torch._logging import _internal
    original = _internal.trace_structured
    outside = list(trace_log.handlers)  # pytest's and torch's own: the test chooses who listens
    for h in outside:
        trace_log.removeHandler(h)
    try:
        for others in ([], [Collect()]):
            built, events = [], []
            for h in others:
                trace_log.addHandler(h)
            capture = TraceCapture(events.append)
            capture.install()
            try:
                emit_records(built)
            finally:
                capture.remove()
                for h in others:
                    trace_log.removeHandler(h)
            kept = ["dynamo_output_graph", "recompile_reasons"]
            assert sorted(e.kind for e in events) == kept
            if others:  # another handler gets every record, built as torch builds it
                assert built == ["dynamo_cpp_guards_str", "aot_forward_graph_fw_metadata"] + kept
                assert len(others[0].records) == 4
            else:
                assert built == kept
    finally:
        for h in outside:
            trace_log.addHandler(h)
    assert torch._logging.trace_structured is original and _internal.trace_structured is original
