"""The decompiler's layout (issue 32): its modules import one another one way, and none is
too long to read. Read from the source with ``ast``, so it runs under every interpreter."""
import ast
import pathlib

import unveil.decompiler

PACKAGE = pathlib.Path(unveil.decompiler.__file__).parent

MAX_LINES = 1000
MAX_CLASS_LINES = 500
#: classes let off the class limit, with the reason
LONG_CLASSES = {
    # a port of CPython 3.9's ast._Unparser for 3.8 (one visit_ method per node type), kept
    # as CPython wrote it so that the two can be compared side by side
    "unparse38.Unparser",
}

#: the stages of docs/decompiler.md, first to last: a module imports only modules of its own
#: stage or of earlier ones (a name ending in "*" stands for every module it starts)
STAGES = [
    ("base", {"errors", "nodes", "depth", "flow"}),
    ("read", {"versions", "disassembly", "stream", "stack_effects", "read_*", "instructions", "slots",
              "cfg"}),
    ("expressions", {"values", "expr_*", "expressions", "function", "scopes"}),
    ("structure", {"structure", "structure.*", "cleanup"}),
    ("emit", {"driver", "emit", "unparse38", "setorder", "safety"}),
    ("prove", {"opsem", "measure", "lines", "recompile", "validate", "proof_*"}),
    ("top", {"api", "whole"}),
]


def modules():
    """{dotted name below the package (``api``, ``sub.part``; ``sub`` for its
    ``__init__``): path}, without the package's own ``__init__`` (it only re-exports)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            found[".".join(parts)] = path
    return found


def _package_of(name, path):
    """The dotted package (below the decompiler's, "" for it) holding module ``name``."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _resolve(package, level, module):
    """The dotted name below the decompiler's package that ``from <level dots><module>``
    in ``package`` reaches, or None when that is outside it."""
    if level == 0:
        prefix = "unveil.decompiler"
        if module != prefix and not (module or "").startswith(prefix + "."):
            return None
        return module[len(prefix) + 1:]
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def sibling_imports(name, path, names):
    """The modules of the package that module ``name`` imports anywhere in it: at module
    level and inside functions, relative (``from . import x``, ``from .x import y``) or
    absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package_of(name, path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _resolve(package, node.level, node.module)
            if target is None:
                continue
            for alias in node.names:  # ``from .x import y``: the module x.y, else x
                inner = target + "." + alias.name if target else alias.name
                found.add(inner if inner in names else target)
        elif isinstance(node, ast.Import):
            found.update(_resolve("", 0, alias.name) for alias in node.names)
    return {_owner(target, names) for target in found if target} - {None, name}


def _owner(target, names):
    """The module of ``names`` that ``target`` (a module or a name inside one) is in."""
    while target and target not in names:
        target = target.rpartition(".")[0]
    return target or None


#: the structurer's modules in the order of docs/decompiler.md ("The structurer"): vocabulary,
#: facts, constructs, the walk; each imports only modules before it
STRUCTURE_ORDER = [
    "regions", "condition_parts", "statement_parts", "state",
    "jumps", "async_facts", "with_facts", "legacy_facts", "finally_copies", "loop_facts",
    "branch_facts", "match_facts", "pattern_nodes",
    "legacy", "conditions", "withs", "loops", "asyncs", "branches", "exceptstar", "tries",
    "case_guards", "patterns", "match", "comprehensions",
    "walk",
]


def import_graph():
    """{module: the modules of the package it imports}."""
    found = modules()
    return {name: sibling_imports(name, path, found) for name, path in found.items()}


def stage_of(name):
    """The index in STAGES of module ``name``'s stage, or None when no stage names it."""
    for k, (_, members) in enumerate(STAGES):
        if name in members or any(m.endswith("*") and name.startswith(m[:-1]) for m in members):
            return k
    return None


def find_cycle(graph):
    """One import cycle of ``graph`` as a list of modules (first repeated last), or None."""
    done, path = set(), []

    def visit(name):
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        path.append(name)
        for target in sorted(graph[name]):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(name)
        return None

    for name in sorted(graph):
        cycle = visit(name)
        if cycle:
            return cycle
    return None


def test_the_imports_are_read():
    """The reader finds imports at module level and inside functions, in every form."""
    graph = import_graph()
    assert {"errors", "safety"} <= graph["emit"]  # from .x import y
    assert "emit" in graph["whole"]  # from . import x
    assert "unparse38" in graph["emit"]  # inside a function (3.8 only)
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_modules_import_one_another_one_way():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_every_module_has_a_stage_and_imports_only_earlier_stages():
    graph = import_graph()
    assert not [name for name in graph if stage_of(name) is None], "add these to STAGES"
    backwards = sorted("%s (%s) -> %s (%s)" % (name, STAGES[stage_of(name)][0], target,
                                               STAGES[stage_of(target)][0])
                       for name, targets in graph.items() for target in targets
                       if stage_of(target) > stage_of(name))
    assert not backwards, "imports against the stages: " + "; ".join(backwards)


def test_stage_order_check_catches_a_backward_import():
    assert stage_of("structure.loops") > stage_of("expressions") > stage_of("instructions")
    assert stage_of("proof_interpreter") == stage_of("validate") > stage_of("driver")


def test_no_module_is_too_long_to_read():
    long = {}
    for name, path in modules().items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long[name] = lines
    assert not long, "over %d lines: %s" % (MAX_LINES, long)


def test_no_class_is_too_long_to_read():
    long = {}
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            qualified = "%s.%s" % (name, getattr(node, "name", ""))
            if (isinstance(node, ast.ClassDef) and qualified not in LONG_CLASSES
                    and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES):
                long[qualified] = node.end_lineno - node.lineno + 1
    assert not long, "classes over %d lines: %s" % (MAX_CLASS_LINES, long)


def test_the_structurer_modules_import_only_those_before_them():
    graph = import_graph()
    inside = sorted(name[len("structure."):] for name in graph if name.startswith("structure."))
    assert inside == sorted(STRUCTURE_ORDER), "add new modules of structure/ to STRUCTURE_ORDER"
    rank = {name: k for k, name in enumerate(STRUCTURE_ORDER)}
    later = sorted("%s -> %s" % (name, target) for name, targets in graph.items()
                   if name.startswith("structure.") for target in targets
                   if target.startswith("structure.")
                   and rank[target[len("structure."):]] > rank[name[len("structure."):]])
    assert not later, "imports of later modules: " + "; ".join(later)


DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "decompiler.md"


def choice_points():
    """``module.function`` of each function of the structurer that undoes a walk (makes a
    ``Snapshot`` or enters ``undone``): its places of search."""
    found = set()
    for name, path in modules().items():
        if not name.startswith("structure.") or name == "structure.state":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id in ("Snapshot", "undone") for call in ast.walk(node)):
                found.add("%s.%s" % (name[len("structure."):], node.name))
    return found


def documented_choice_points():
    """The first column of the table under "### The choices" in docs/decompiler.md."""
    section = DOCS.read_text(encoding="utf-8").split("### The choices", 1)[1].split("\n#", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {name.strip("` ") for row in rows for name in row.split(",")}


def test_every_place_that_undoes_a_walk_is_documented():
    found = choice_points()
    assert "walk.walk" in found and "case_guards.guard" in found  # (the scan sees them)
    documented = documented_choice_points()
    assert found - documented == set(), "undoes a walk, not in docs/decompiler.md's choices"
    assert documented - found == set(), "in docs/decompiler.md's choices, undoes no walk"
