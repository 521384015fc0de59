"""GraphRunner: torch's graph code is recompiled so each statement is on its twin's line in the
dumped graph file (both ways of laying it out: blank lines in the text, or moved tree lines)."""
import dis

from unveil.torch.graph_runner import GraphRunner

HEADER = "# __compiled_fn_1.aot_forward.py: a graph file, written by unveil.\n\n"

GRAPH = '''\
class GraphModule(torch.nn.Module):
    def forward(
        self,
        x: "f32[3][1]cpu",  # PlainAOTInput(idx=0)
    ):
        # File: model.py:3 in f, code: a = x + 1
        a: "f32[3][1]cpu" = x + 1;  x = None

        # File: model.py:4 in f, code: return a * 2
        b: "f32[3][1]cpu" = a * 2;  a = None
        return (
            b,  # PlainAOTOutput(idx=0)
        )
'''


def file_line(text, needle):
    return 1 + HEADER.count("\n") + next(k for k, line in enumerate(text.splitlines()) if needle in line)


def torch_forward(src):
    """What torch.fx.graph_module._exec_with_source makes of ``src``."""
    scope = {}
    exec(compile(src, "<eval_with_key>.1", "exec"), scope)
    return scope["forward"]


def runner_with_file(tmp_path, graph=GRAPH):
    path = str(tmp_path / "__compiled_fn_1.aot_forward.py")
    (tmp_path / "__compiled_fn_1.aot_forward.py").write_text(HEADER + graph)
    runner = GraphRunner()
    runner.add(path, graph, HEADER.count("\n"))
    return runner, path


def lines_of(fn):
    return {line for _, line in dis.findlinestarts(fn.__code__) if line is not None}


def test_statements_run_on_their_twins_lines(tmp_path):
    runner, path = runner_with_file(tmp_path)
    src = "\n\n\ndef forward(self, x):\n    a = x + 1;  x = None\n    b = a * 2;  a = None\n    return (b,)\n"
    fn = torch_forward(src)
    assert runner.retarget(fn, src, runner.files)
    assert fn.__code__.co_filename == path
    statement_lines = {file_line(GRAPH, 'a: "f32'), file_line(GRAPH, 'b: "f32'), file_line(GRAPH, "return (")}
    assert statement_lines <= lines_of(fn) <= statement_lines | {file_line(GRAPH, "def forward(")}
    assert fn(None, 1) == (4,)


def test_prologue_runs_before_the_first_twin(tmp_path):
    """torch unboxes arguments in front of the graph's statements: they go on the line before
    the first statement, so a breakpoint on that statement sees the graph's inputs."""
    runner, path = runner_with_file(tmp_path)
    src = ("\n\n\ndef forward(self, args_list):\n    args_iter = iter(args_list)\n    x = next(args_iter)\n"
           "    args_list.clear()\n    a = x + 1;  x = None\n    b = a * 2;  a = None\n    return (b,)\n")
    fn = torch_forward(src)
    assert runner.retarget(fn, src, runner.files)
    first = file_line(GRAPH, 'a: "f32')
    assert first - 1 in lines_of(fn) and first in lines_of(fn)
    seen = []

    def tracer(frame, event, arg):
        if event == "line" and frame.f_code is fn.__code__:
            seen.append((frame.f_lineno, "x" in frame.f_locals))
        return tracer
    import sys
    sys.settrace(tracer)
    try:
        assert fn(None, [1]) == (4,)
    finally:
        sys.settrace(None)
    assert (first, True) in seen


def test_statement_over_several_lines_moves_the_tree(tmp_path):
    runner, path = runner_with_file(tmp_path)
    src = "\n\n\ndef forward(self, x):\n    a = x + 1;  x = None\n    b = a * 2;  a = None\n    return (\n        b,\n    )\n"
    fn = torch_forward(src)
    assert runner.retarget(fn, src, runner.files)
    assert fn.__code__.co_filename == path
    assert {file_line(GRAPH, 'a: "f32'), file_line(GRAPH, 'b: "f32'), file_line(GRAPH, "return (")} <= lines_of(fn)
    assert fn(None, 1) == (4,)


def test_no_room_for_the_prologue_moves_the_tree(tmp_path):
    graph = GRAPH.replace("        # File: model.py:3 in f, code: a = x + 1\n", "")
    graph = graph.replace('    def forward(\n        self,\n        x: "f32[3][1]cpu",  # PlainAOTInput(idx=0)\n    ):',
                          '    def forward(self, x: "f32[3][1]cpu"):')
    runner, path = runner_with_file(tmp_path, graph)
    src = "\n\n\ndef forward(self, args_list):\n    x = args_list[0]\n    a = x + 1;  x = None\n    b = a * 2;  a = None\n    return (b,)\n"
    fn = torch_forward(src)
    assert runner.retarget(fn, src, runner.files)
    assert file_line(graph, 'a: "f32') in lines_of(fn)
    assert fn(None, [1]) == (4,)


def test_other_statements_are_left_alone(tmp_path):
    runner, _ = runner_with_file(tmp_path)
    src = "\n\n\ndef forward(self, x):\n    a = x - 1;  x = None\n    b = a * 2;  a = None\n    return (b,)\n"
    fn = torch_forward(src)
    code = fn.__code__
    assert not runner.retarget(fn, src, runner.files)
    assert fn.__code__ is code


def test_forward_made_before_its_file_is_retargeted_when_the_file_comes(tmp_path):
    runner = GraphRunner()
    src = "\n\n\ndef forward(self, x):\n    a = x + 1;  x = None\n    b = a * 2;  a = None\n    return (b,)\n"
    fn = torch_forward(src)
    assert not runner.retarget(fn, src, runner.files)
    import weakref
    runner.waiting.append((weakref.ref(fn), src))
    path = str(tmp_path / "g.py")
    runner.add(path, GRAPH, 0)
    assert fn.__code__.co_filename == path and not runner.waiting


def test_a_recompiled_graph_with_the_same_statements_runs_from_its_own_file(tmp_path):
    """torch makes a graph's forward before unveil writes its file: a forward whose statements
    match an older file first runs from that one, then moves to its own file when it is added."""
    import torch.fx.graph_module as graph_module
    runner, first = runner_with_file(tmp_path)
    src = "\n\n\ndef forward(self, x):\n    a = x + 1;  x = None\n    b = a * 2;  a = None\n    return (b,)\n"
    runner.install()
    try:
        scope = {}
        graph_module._exec_with_source(src, scope)
        fn = scope["forward"]
        assert fn.__code__.co_filename == first  # the older graph's file, for now
        second = str(tmp_path / "__compiled_fn_3.aot_forward.py")
        (tmp_path / "__compiled_fn_3.aot_forward.py").write_text(HEADER + GRAPH)
        runner.add(second, GRAPH, HEADER.count("\n"))
        assert fn.__code__.co_filename == second
        assert fn(None, 1) == (4,)
    finally:
        runner.remove()
