"""unveil.install()/uninstall(): decompiled source in torch's bytecode log."""
import gc
import logging

import pytest

torch = pytest.importorskip("torch")

import unveil
import unveil.decompiler
from unveil.torch import logging as unveil_logging


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def bytecode_log():
    """Turn on the bytecode artifact log and collect its records."""
    torch._dynamo.reset()
    gc.collect()  # no finalizer of another test's hook may run mid-test
    torch._logging.set_logs(bytecode=True)
    logger = torch._logging.getArtifactLogger("torch._dynamo.convert_frame", "bytecode")
    handler = Records()
    logger.addHandler(handler)
    yield handler.messages
    logger.removeHandler(handler)
    torch._logging.set_logs()
    unveil.uninstall()
    torch._dynamo.reset()


def _compile_and_call():
    def add_one(x):
        return x + 1
    torch.compile(add_one, backend="eager")(torch.ones(2))
    torch._dynamo.reset()


def _decompiled(messages):
    return [m for m in messages if m.startswith("DECOMPILED SOURCE")]


def test_install_logs_source_after_modified_bytecode(bytecode_log):
    unveil.install()
    _compile_and_call()
    kinds = [m.split(" ")[0] + " " + m.split(" ")[1] for m in bytecode_log
             if m.startswith(("ORIGINAL BYTECODE", "MODIFIED BYTECODE", "DECOMPILED SOURCE"))]
    assert kinds == ["ORIGINAL BYTECODE", "MODIFIED BYTECODE", "DECOMPILED SOURCE"]
    (record,) = _decompiled(bytecode_log)
    header, source = record.split("\n", 1)
    assert header.startswith("DECOMPILED SOURCE add_one ")
    assert header.endswith("line %d" % (_compile_and_call.__code__.co_firstlineno + 1))
    compile(source, "<decompiled>", "exec")
    assert source.startswith("def add_one(x):")
    assert "__compiled_fn_" in source


def test_install_is_idempotent(bytecode_log):
    hooks = torch._dynamo.convert_frame._bytecode_hooks
    before = dict(hooks)
    unveil.install()
    unveil.install()
    assert len(hooks) == len(before) + 1
    _compile_and_call()
    assert len(_decompiled(bytecode_log)) == 1


def test_uninstall_restores(bytecode_log):
    hooks = torch._dynamo.convert_frame._bytecode_hooks
    before = dict(hooks)
    unveil.install()
    unveil.uninstall()
    assert dict(hooks) == before
    unveil.uninstall()  # a second uninstall is a no-op
    assert dict(hooks) == before
    _compile_and_call()
    assert _decompiled(bytecode_log) == []
    assert any(m.startswith("MODIFIED BYTECODE") for m in bytecode_log)


def test_nothing_logged_when_bytecode_log_is_off():
    torch._dynamo.reset()
    logger = torch._logging.getArtifactLogger("torch._dynamo.convert_frame", "bytecode")
    handler = Records()
    logger.addHandler(handler)
    calls = []
    real = unveil_logging.format_decompiled
    unveil_logging.format_decompiled = lambda *a: calls.append(a) or real(*a)
    try:
        unveil.install()
        _compile_and_call()
    finally:
        unveil_logging.format_decompiled = real
        unveil.uninstall()
        logger.removeHandler(handler)
    assert calls == []  # no decompilation cost with the log off
    assert handler.messages == []


def test_failure_is_a_one_line_note(bytecode_log, monkeypatch):
    def fail(*args):
        raise unveil.DecompilationError("cannot structure\nthis region", function="add_one",
                                        offset=12)
    from unveil.torch import hook
    monkeypatch.setattr(hook, "decompile_as", fail)
    unveil.install()
    _compile_and_call()  # must not raise
    notes = [m for m in bytecode_log if m.startswith("unveil:")]
    assert notes == ["unveil: could not decompile the modified bytecode of add_one: "
                     "DecompilationError: cannot structure"]


def test_unexpected_exception_never_reaches_the_program(bytecode_log, monkeypatch):
    def fail(*args):
        raise RuntimeError("decompiler bug")
    from unveil.torch import hook
    monkeypatch.setattr(hook, "decompile_as", fail)
    unveil.install()
    def mul(x):
        return x * 3
    out = torch.compile(mul, backend="eager")(torch.ones(2))
    assert torch.equal(out, torch.full((2,), 3.0))
    assert any("RuntimeError: decompiler bug" in m for m in bytecode_log)


def test_proof_flags_unverified_source():
    def f(a, b):
        x = a + b
        if x > 3:
            return x
        return -x
    from unveil.torch.hook import Decompiled
    good = Decompiled(unveil.decompile(f))
    assert unveil_logging.proved(good, f.__code__)
    assert not unveil_logging.proved(Decompiled("def f(a, b):\n    return a - b\n"), f.__code__)
    assert not unveil_logging.proved(Decompiled("def f(:\n"), f.__code__)


def test_unverified_source_is_marked_in_the_log(bytecode_log, monkeypatch):
    from unveil.torch import hook
    monkeypatch.setattr(hook, "decompile_as",
                        lambda code, name: hook.Decompiled("def add_one(x):\n    return x - 1\n"))
    unveil.install()
    _compile_and_call()
    (record,) = _decompiled(bytecode_log)
    assert record.splitlines()[1:] == ["def add_one(x):", "    return x - 1",
                                       unveil_logging.UNVERIFIED]
