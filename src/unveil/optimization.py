"""Custom dispatch to code compiled by ``torch.compile`` (depyf-compatible).

``TorchCompileWrapperWithCustomDispatcher`` keeps every code object Dynamo
makes for a wrapper's ``forward`` and lets the wrapper call one directly,
skipping Dynamo's guard checks: useful when the caller already knows which
compiled variant applies (e.g. vLLM-style shape buckets).

Why running the compiled code directly works: Dynamo's transformed code has the
same arguments, cell and free variables as the original, and the names it needs
(compiled graphs, resume functions) are in the function's globals. So swapping
``forward.__code__`` for the duration of a call runs exactly what Dynamo would
have run after its guards passed.
"""
import contextlib
import os
import sys
import types
import weakref
from typing import Callable, List, Optional


def _compiled_frame_locals():
    """The locals of the frame Dynamo is compiling, found from inside a
    bytecode hook; None if this torch lays its stack out differently."""
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "_compile" and os.path.basename(code.co_filename) == "convert_frame.py":
            f_locals = frame.f_locals
            # torch >= 2.6 passes the frame's locals; older versions the frame itself
            if isinstance(f_locals.get("locals"), dict):
                return f_locals["locals"]
            inner = f_locals.get("frame")
            if inner is not None and hasattr(inner, "f_locals"):
                return inner.f_locals
            return None
        frame = frame.f_back
    return None


class TorchCompileWrapperWithCustomDispatcher:
    """A wrapper around ``torch.compile`` with a dispatcher of your own.

    Subclasses:

    1. implement ``forward`` (the code that gets compiled);
    2. in ``__init__`` decide how ``torch.compile`` is applied to it and pass
       the result up (by default ``torch.compile(self.forward)``);
    3. optionally override ``__call__`` to dispatch: ``self.compiled_codes``
       holds each compiled code object in the order Dynamo made them, and
       ``with self.dispatch_to_code(i): self.forward(...)`` runs number ``i``
       directly, without Dynamo and its guards.
    """

    def __init__(self, compiled_callable: Optional[Callable] = None,
                 use_custom_dispatcher: bool = True):
        import torch
        if compiled_callable is None:
            compiled_callable = torch.compile(self.forward)
        self.compiled_callable = compiled_callable
        self.original_code_object: types.CodeType = type(self).forward.__code__
        self.compiled_codes: List[types.CodeType] = []
        self.use_custom_dispatcher: bool = use_custom_dispatcher
        # The hook holds the wrapper weakly and unregisters itself once the
        # wrapper is gone, so wrappers do not pile up in Dynamo's hook table.
        ref = weakref.ref(self)

        def hook(old_code, new_code):
            wrapper = ref()
            # never unregister from inside a hook: Dynamo is iterating its hooks
            return None if wrapper is None else wrapper.bytecode_hook(old_code, new_code)

        self._hook_handle = torch._dynamo.convert_frame.register_bytecode_hook(hook)
        weakref.finalize(self, self._hook_handle.remove)

    def __call__(self, *args, **kwargs):
        """Dispatch logic; the default just calls the compiled callable.
        Subclasses may take extra arguments to choose compiled code."""
        return self.compiled_callable(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError("subclasses of TorchCompileWrapperWithCustomDispatcher "
                                  "implement forward")

    def bytecode_hook(self, old_code: types.CodeType, new_code: types.CodeType) -> None:
        """Record ``new_code`` if Dynamo made it for this wrapper's ``forward``."""
        if old_code is not self.original_code_object:
            return None
        f_locals = _compiled_frame_locals()
        if f_locals is not None and "self" in f_locals and f_locals["self"] is not self:
            return None  # another instance of the same class
        self.compiled_codes.append(new_code)
        return None

    @contextlib.contextmanager
    def dispatch_to_code(self, index: int):
        """Within the block, calls to ``forward`` run ``compiled_codes[index]``."""
        fn = type(self).forward
        code = self.compiled_codes[index]
        previous = fn.__code__
        fn.__code__ = code
        try:
            yield
        finally:
            fn.__code__ = previous

    def remove_hook(self) -> None:
        """Stop recording compiled code for this wrapper."""
        self._hook_handle.remove()
