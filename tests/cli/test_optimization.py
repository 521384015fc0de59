"""unveil.optimization.TorchCompileWrapperWithCustomDispatcher (depyf-compatible)."""
import gc

import pytest

torch = pytest.importorskip("torch")

from unveil.optimization import TorchCompileWrapperWithCustomDispatcher


class Stats:
    def __init__(self):
        self.compiles = 0
        self.graph_calls = 0

    def backend(self, gm, example_inputs):
        self.compiles += 1

        def run(*args):
            self.graph_calls += 1
            return gm.forward(*args)
        return run


class Doubler(TorchCompileWrapperWithCustomDispatcher):
    def __init__(self, stats):
        self.stats = stats
        super().__init__(torch.compile(self.forward, backend=stats.backend))

    def forward(self, x):
        return x * 2 + 1

    def __call__(self, x):
        if not self.compiled_codes:
            return self.compiled_callable(x)
        with self.dispatch_to_code(0):
            return self.forward(x)


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def test_records_compiled_code_and_dispatches_to_it():
    stats = Stats()
    w = Doubler(stats)
    assert w.compiled_codes == []
    assert torch.equal(w(torch.ones(2)), torch.full((2,), 3.0))
    assert stats.compiles == 1 and stats.graph_calls == 1
    assert len(w.compiled_codes) == 1
    code = w.compiled_codes[0]
    assert code is not w.original_code_object
    assert code.co_varnames[:code.co_argcount] == ("self", "x")
    # a new shape would make Dynamo recompile; the custom dispatch skips its guards
    assert torch.equal(w(torch.ones(5)), torch.full((5,), 3.0))
    assert stats.compiles == 1 and stats.graph_calls == 2
    # after the block forward is the original function again
    assert type(w).forward.__code__ is w.original_code_object
    assert torch.equal(w.forward(torch.zeros(1)), torch.ones(1))
    assert stats.graph_calls == 2


def test_dispatch_restores_code_when_the_call_fails():
    stats = Stats()
    w = Doubler(stats)
    w(torch.ones(2))
    with pytest.raises(RuntimeError):
        with w.dispatch_to_code(0):
            w.forward(torch.ones(2), )  # fine
            raise RuntimeError("inside")
    assert type(w).forward.__code__ is w.original_code_object
    with pytest.raises(IndexError):
        with w.dispatch_to_code(3):
            pass
    assert type(w).forward.__code__ is w.original_code_object


def test_instances_keep_their_own_compiled_code():
    stats = Stats()
    a, b = Doubler(stats), Doubler(stats)
    a(torch.ones(2))
    assert len(a.compiled_codes) == 1 and b.compiled_codes == []
    b(torch.ones(3))
    assert len(a.compiled_codes) == 1


def test_default_call_runs_the_compiled_callable():
    class Plain(TorchCompileWrapperWithCustomDispatcher):
        def __init__(self, stats):
            super().__init__(torch.compile(self.forward, backend=stats.backend),
                             use_custom_dispatcher=False)

        def forward(self, x):
            return x - 1

    stats = Stats()
    p = Plain(stats)
    assert p.use_custom_dispatcher is False
    assert torch.equal(p(torch.ones(2)), torch.zeros(2))  # __call__ = compiled callable
    assert len(p.compiled_codes) == 1


def test_hook_goes_away_with_the_wrapper():
    hooks = torch._dynamo.convert_frame._bytecode_hooks
    gc.collect()  # wrappers of earlier tests are garbage: let them go first
    before = len(hooks)
    w = Doubler(Stats())
    assert len(hooks) == before + 1
    del w
    gc.collect()
    assert len(hooks) == before
