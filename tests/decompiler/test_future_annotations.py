"""Code compiled under ``from __future__ import annotations`` keeps its annotations as text.
A def's decompiled text says so itself (the import heads it), so that, compiled on its own,
its nested defs and classes get the same annotations; the proof compiles it under the
original's flags."""
from class_body_util import without_place
from harness import check_behaviour, check_bytecode, rebuild
from unveil.decompiler.measure import normalized

SOURCE = '''from __future__ import annotations
def outer(x, log):
    class K:
        a: Missing = 1
        def m(self, v: Missing[int]) -> list[Missing]:
            log.append(v)
            return v
    def g(b: Missing | None = None) -> int:
        return b
    return K.__annotations__, K.m.__annotations__, g.__annotations__, K().m(x), g(x)
'''


def _outer():
    namespace = {}
    exec(compile(SOURCE, "<future>", "exec"), namespace)
    return namespace["outer"]


def test_text_carries_the_future_import_and_the_same_bytecode():
    fn = _outer()
    src, new = rebuild(fn)
    assert src.startswith("from __future__ import annotations\n"), src
    # (a class body stores the line its statement is on: where the text puts it)
    assert without_place(normalized(fn.__code__)) == without_place(normalized(new.__code__)), src


def test_nested_annotations_stay_text():
    # ``Missing`` is defined nowhere: evaluated annotations would raise NameError
    src, new = rebuild(_outer())
    assert new(3, [])[:3] == ({"a": "Missing"}, {"v": "Missing[int]", "return": "list[Missing]"},
                              {"b": "Missing | None", "return": "int"})
    check_behaviour(_outer(), [(3, []), ("s", [])])


def test_no_import_without_annotations():
    namespace = {}
    exec(compile("from __future__ import annotations\ndef h(a):\n    return a + 1\n", "<f>", "exec"), namespace)
    assert not check_bytecode(namespace["h"]).startswith("from __future__")
