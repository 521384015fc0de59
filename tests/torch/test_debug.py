"""Breakpoints in the dumped files are hit, in the right cache entry (issue 6), with real
debuggers: bdb (pdb's engine), pdb itself, and debugpy driven over DAP."""
import bdb
import io
import json
import os
import socket
import subprocess
import sys
import time

import pytest
import torch

import unveil
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from unveil.torch import cache
from unveil.torch import debug as unveil_debug


def load_index(d):
    with open(os.path.join(d, "index.json")) as fh:
        return json.load(fh)


def function(index, name=None, prefix=None):
    found = [f for f in index["functions"]
             if f["name"] == name or (prefix and f["name"].startswith(prefix))]
    assert len(found) == 1, [f["name"] for f in index["functions"]]
    return found[0]


def file_for(d, entries, guard):
    """The transformed file of the one entry whose guard contains ``guard``."""
    found = [e for e in entries if guard in e["guard"]]
    assert len(found) == 1, (guard, [e["guard"] for e in entries])
    return os.path.join(d, found[0]["transformed_file"])


class Stops(bdb.Bdb):
    """A breakpoint on every line of ``files``; records where a call stops and continues."""

    def __init__(self, files, lines=None):
        super().__init__()
        self.files = {self.canonic(f) for f in files}
        for f in self.files:
            with open(f) as fh:
                count = len(fh.read().splitlines())
            for line in (lines or range(1, count + 1)):
                assert self.set_break(f, line) is None
        self.stops = []

    def user_line(self, frame):
        if self.canonic(frame.f_code.co_filename) in self.files:
            self.stops.append((frame.f_code.co_filename, frame.f_lineno, dict(frame.f_locals)))
        self.set_continue()

    def call(self, fn, *args):
        """(result, [(file, line, locals)]) of ``fn(*args)`` under the debugger."""
        self.stops = []
        try:
            result = self.runcall(fn, *args)
        finally:
            sys.settrace(None)
        return result, self.stops

    def close(self):
        self.clear_all_breaks()


@pytest.fixture
def static_shapes():
    with torch._dynamo.config.patch(automatic_dynamic_shapes=False):
        yield


def seed_fn():
    @torch.compile(backend="eager")
    def f(a, b):
        return a + b
    return f


def test_seed_each_call_stops_in_the_file_whose_guard_names_its_b(tmp_path, static_shapes):
    d = str(tmp_path / "dump")
    f = seed_fn()
    x = torch.tensor([1.0])
    with unveil.prepare_debug(d):
        f(x, 1), f(x, 2), f(x, 3)
    entries = function(load_index(d), "f")["entries"]
    assert len(entries) == 3 and all(e["error"] is None for e in entries)
    expected = {b: file_for(d, entries, "L['b'] == %d" % b) for b in (1, 2, 3)}
    dbg = Stops([os.path.join(d, e["transformed_file"]) for e in entries])
    try:
        stopped_in = {}
        for b in (1, 2, 3):
            result, stops = dbg.call(f, x, b)
            assert result.item() == 1.0 + b
            files = {s[0] for s in stops}
            assert len(files) == 1, stops  # exactly one file per call
            stopped_in[b] = files.pop()
            # it stops on the file's statements, with the entry's locals
            assert any(s[2].get("b") == b for s in stops)
    finally:
        dbg.close()
    assert stopped_in == expected
    assert len(set(stopped_in.values())) == 3


def test_resume_function_after_graph_break(tmp_path, static_shapes, capsys):
    d = str(tmp_path / "dump")

    @torch.compile(backend="eager")
    def g(x, b):
        y = x + b
        print("graph break")
        return y * b

    x = torch.tensor([1.0])
    with unveil.prepare_debug(d):
        for b in (1, 2, 3):
            g(x, b)
    resume = function(load_index(d), prefix="__resume_at_")
    entries = resume["entries"]
    assert len(entries) == 3 and all(e["error"] is None for e in entries)
    expected = {b: file_for(d, entries, "L['b'] == %d" % b) for b in (1, 2, 3)}
    dbg = Stops(expected.values())
    try:
        stopped_in = {}
        for b in (1, 2, 3):
            result, stops = dbg.call(g, x, b)
            assert result.item() == (1.0 + b) * b
            files = {s[0] for s in stops}
            assert len(files) == 1, stops
            stopped_in[b] = files.pop()
            assert any(s[2].get("y") is not None for s in stops)  # the resumed frame's locals
    finally:
        dbg.close()
    assert stopped_in == expected and len(set(stopped_in.values())) == 3


def test_line_in_aot_eager_forward_graph(tmp_path):
    d = str(tmp_path / "dump")

    @torch.compile(backend="aot_eager")
    def h(x):
        y = torch.sin(x) * 2
        return y.cos()

    x = torch.randn(4, requires_grad=True)
    with unveil.prepare_debug(d):
        h(x).sum().backward()
    graphs = {g["stage"]: os.path.join(d, g["file"]) for g in load_index(d)["graphs"]}
    forward = graphs["aot_forward"]
    lines = open(forward).read().splitlines()
    line = next(k + 1 for k, text in enumerate(lines) if "torch.ops.aten.sin.default" in text)
    dbg = Stops([forward], lines=[line])
    try:
        result, stops = dbg.call(h, x)
    finally:
        dbg.close()
    assert torch.allclose(result, (torch.sin(x) * 2).cos())
    assert [(s[0], s[1]) for s in stops] == [(forward, line)]
    assert torch.equal(stops[0][2]["primals_1"], x)  # the graph's own variables


@pytest.mark.parametrize("case", ["graph_break_print", "data_dependent_branch", "module"])
def test_torch_runs_the_dumped_files(tmp_path, case, capsys):
    """The swap happens for real Dynamo code with graph breaks and branches, not only for
    straight-line code: every cache entry (and resume function) runs from its file."""
    d = str(tmp_path / "dump")

    def graph_break_print(x):
        y = x * 2
        print("graph break")
        return y + 1

    def data_dependent_branch(x):
        y = x.sin()
        if y.sum() > 0:
            return y * 2
        return y - 1

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x).relu() * 2

    plain = {"graph_break_print": graph_break_print, "data_dependent_branch": data_dependent_branch,
             "module": Net()}[case]
    fn = torch.compile(plain, backend="eager")
    inputs = [torch.ones(2, 4), -torch.ones(2, 4)]
    with unveil.prepare_debug(d):
        got = [fn(x) for x in inputs]
    assert all(torch.allclose(a, plain(x)) for a, x in zip(got, inputs))
    index = load_index(d)
    assert index["errors"] == []
    running = [e.code.co_filename for code in cache.compiled_originals()
               for e in _debug_get_cache_entry_list(code)]
    dumped = {os.path.join(d, e["transformed_file"]) for f in index["functions"] for e in f["entries"]}
    assert running and set(running) == dumped
    if case != "module":
        assert any(f["name"].startswith("__resume_at_") for f in index["functions"])


# -- unveil.debug() ---------------------------------------------------------------------

@pytest.fixture
def compiled_seed(tmp_path, static_shapes):
    d = str(tmp_path / "dump")
    f = seed_fn()
    x = torch.tensor([1.0])
    with unveil.prepare_debug(d):
        f(x, 1), f(x, 2)
    return d, f, x


def test_debug_prints_files_pauses_and_compiles_nothing(compiled_seed, monkeypatch, capsys):
    d, f, x = compiled_seed
    paused = []
    monkeypatch.setattr(sys, "breakpointhook", lambda *a, **k: paused.append(sys._getframe(1)))
    monkeypatch.delenv("PYTHONBREAKPOINT", raising=False)
    before = len(_debug_get_cache_entry_list(f._torchdynamo_orig_callable))
    with unveil.debug():
        assert len(paused) == 1
        assert f(x, 2).item() == 3.0  # an existing entry
        assert f(x, 7).item() == 8.0  # no entry accepts it: runs uncompiled
    out = capsys.readouterr().out
    assert os.path.join(d, "__transformed_code_1_for_f.py") in out
    assert os.path.join(d, "__transformed_code_0_for_f.py") in out
    assert out.index("__transformed_code_1_for_f.py") < out.index("__transformed_code_0_for_f.py")
    assert len(_debug_get_cache_entry_list(f._torchdynamo_orig_callable)) == before
    assert torch._dynamo.eval_frame._stance.stance == "default"  # restored
    with unveil_debug.debug(pause=False, on_miss="fail"):
        with pytest.raises(RuntimeError, match="fail_on_recompile"):
            f(x, 9)
    assert len(_debug_get_cache_entry_list(f._torchdynamo_orig_callable)) == before


def test_debug_respects_pythonbreakpoint_zero(compiled_seed, monkeypatch, capsys):
    d, f, x = compiled_seed
    called = []
    monkeypatch.setattr(sys, "breakpointhook", lambda *a, **k: called.append(1))
    monkeypatch.setenv("PYTHONBREAKPOINT", "0")
    with unveil.debug():
        f(x, 1)
    assert called == []


def test_debug_stops_in_pdb_at_the_callers_next_line(compiled_seed, monkeypatch, capsys):
    """Default hook: pdb stops in the ``with`` body; a breakpoint in the transformed file
    of entry b == 2 is hit there, with the frame's locals."""
    d, f, x = compiled_seed
    monkeypatch.delenv("PYTHONBREAKPOINT", raising=False)
    target = file_for(d, function(load_index(d), "f")["entries"], "L['b'] == 2")
    line = next(k + 1 for k, text in enumerate(open(target).read().splitlines())
                if "__compiled_fn_" in text)
    monkeypatch.setattr(sys, "stdin", io.StringIO("break %s:%d\ncontinue\np b * 10\ncontinue\n"
                                                  % (target, line)))
    try:
        with unveil.debug():
            y = f(x, 2)
    finally:
        sys.settrace(None)
        bdb.Breakpoint.clearBreakpoints() if hasattr(bdb.Breakpoint, "clearBreakpoints") else None
    assert y.item() == 3.0
    out = capsys.readouterr().out
    assert "-> y = f(x, 2)" in out  # the first stop: the caller's line
    assert "> %s(%d)" % (target, line) in out  # the breakpoint in the dumped file
    assert "\n20\n" in out or "(Pdb) 20" in out


def test_debug_refused_inside_prepare_debug(tmp_path):
    with unveil.prepare_debug(str(tmp_path / "dump")):
        with pytest.raises(RuntimeError, match="inside unveil.prepare_debug"):
            with unveil.debug():
                pass
    assert torch._dynamo.eval_frame._stance.stance == "default"


# -- debugpy over DAP -----------------------------------------------------------------

class DAP:
    """A minimal Debug Adapter Protocol client over a socket."""

    def __init__(self, port, timeout):
        self.deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=1)
                break
            except OSError:
                if time.time() > self.deadline:
                    raise
                time.sleep(0.1)
        self.buf = b""
        self.seq = 0
        self.events = []

    def send(self, command, **arguments):
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command,
                           "arguments": arguments}).encode()
        self.sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def _message(self):
        while b"\r\n\r\n" not in self.buf:
            self._read()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        length = int([h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")][0]
                     .split(b":")[1])
        while len(self.buf) < length:
            self._read()
        body, self.buf = self.buf[:length], self.buf[length:]
        return json.loads(body)

    def _read(self):
        if time.time() > self.deadline:
            raise TimeoutError("no DAP message in time")
        self.sock.settimeout(max(0.1, self.deadline - time.time()))
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("debugpy closed the connection")
        self.buf += chunk

    def wait(self, pred):
        for k, m in enumerate(self.events):
            if pred(m):
                return self.events.pop(k)
        while True:
            m = self._message()
            if pred(m):
                return m
            self.events.append(m)

    def request(self, command, **arguments):
        seq = self.send(command, **arguments)
        m = self.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq)
        assert m["success"], m
        return m.get("body", {})

    def event(self, name):
        return self.wait(lambda m: m.get("type") == "event" and m.get("event") == name)


DAP_SCRIPT = """\
import os, sys, time
import torch, unveil
torch._dynamo.config.automatic_dynamic_shapes = False

@torch.compile(backend="eager")
def f(a, b):
    return a + b

dump, ready, go = sys.argv[1:4]
x = torch.tensor([1.0])
with unveil.prepare_debug(dump):
    f(x, 1), f(x, 2)
open(ready, "w").close()
deadline = time.time() + 60
while not os.path.exists(go) and time.time() < deadline:
    time.sleep(0.02)
print("RESULT", f(x, 2).item(), flush=True)
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_debugpy_stops_in_transformed_file(tmp_path):
    pytest.importorskip("debugpy")
    script = tmp_path / "script.py"
    script.write_text(DAP_SCRIPT)
    d, ready, go = str(tmp_path / "dump"), str(tmp_path / "ready"), str(tmp_path / "go")
    port = free_port()
    env = dict(os.environ, PYDEVD_DISABLE_FILE_VALIDATION="1")
    proc = subprocess.Popen([sys.executable, "-Xfrozen_modules=off", "-m", "debugpy", "--listen",
                             "127.0.0.1:%d" % port, "--wait-for-client", str(script), d, ready, go],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True, cwd=str(tmp_path))
    dap = None
    try:
        dap = DAP(port, timeout=60)
        dap.request("initialize", clientID="unveil-test", adapterID="python", pathFormat="path",
                    linesStartAt1=True, columnsStartAt1=True)
        dap.send("attach", justMyCode=False)  # torch calls the entry; see docs/debug.md
        dap.event("initialized")
        dap.request("configurationDone")
        deadline = time.time() + 60
        while not os.path.exists(ready):
            assert time.time() < deadline and proc.poll() is None, "the script did not get ready"
            time.sleep(0.05)
        target = file_for(d, function(load_index(d), "f")["entries"], "L['b'] == 2")
        line = next(k + 1 for k, text in enumerate(open(target).read().splitlines())
                    if "__compiled_fn_" in text)
        body = dap.request("setBreakpoints", source={"path": target}, breakpoints=[{"line": line}])
        assert body["breakpoints"][0]["line"] == line
        open(go, "w").close()
        stopped = dap.event("stopped")
        assert stopped["body"]["reason"] == "breakpoint"
        thread = stopped["body"]["threadId"]
        frame = dap.request("stackTrace", threadId=thread, startFrame=0, levels=1)["stackFrames"][0]
        assert os.path.samefile(frame["source"]["path"], target)
        assert frame["line"] == line
        value = dap.request("evaluate", expression="b", frameId=frame["id"], context="watch")
        assert value["result"] == "2"
        dap.request("continue", threadId=thread)
        dap.request("disconnect", terminateDebuggee=False)
        out, _ = proc.communicate(timeout=60)
        assert b"RESULT 3.0" in out
    finally:
        if dap is not None:
            dap.sock.close()
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
