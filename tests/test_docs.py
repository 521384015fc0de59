"""Every code block of README.md and docs/*.md is checked: outputs are run and compared.

The convention, for whoever writes the docs (an HTML comment on the line before a fence is
invisible on GitHub):

* A fence whose first line starts with ``$ `` is a console session: each ``$ CMD`` line runs in
  bash, the lines under it up to the next ``$`` are its output (stdout and stderr together, as a
  terminal shows them). Lines that start with ``(Pdb) `` are what was typed into pdb: they are
  fed to the command's stdin, in order, and compared as the prompt followed by the command.
* ``<!-- doc: run CMD -->`` before a fence: the fence is the output of CMD (run in bash; it must
  exit 0). ``<!-- doc: run CMD; excerpt -->``: the fence is an excerpt of that output, its lines
  found in order with any lines between them.
* ``<!-- doc: file NAME -->`` before a fence: the fence is written to NAME, for later blocks.
* A ``python`` fence is compiled; a ``pycon`` fence (``>>>`` lines) runs under doctest with
  ELLIPSIS; a ``json`` fence is parsed; a ``sh`` fence (commands, no output) is checked by
  ``bash -n``.
* ``<!-- doc: not run: REASON -->`` before a fence: shown as it is, never run (a measurement of a
  given day, a record of a fixed bug, an editor's screen). Any other fence fails this test.

In the expected text ``...`` stands for any text within a line, and a line of its own that is
``...`` stands for any number of lines. Before comparing, both sides are normalised: the
directory the doc runs in and the repository both read ``/home/you/unveil``; torch's log prefix
is dropped; graph uuids, object ids, addresses and timings are replaced by placeholders.

Each document runs in a directory of its own, top to bottom, holding a copy of the repository's
``examples/`` and of one ``make demo`` dump (``demo_dump``) made once for the module, and the
files ``make demo`` needs (Makefile, tools/, pyproject.toml, .venv as links). Commands find
``unveil`` and ``python`` in the repository's .venv. Run: ``.venv/bin/python -m pytest -q
tests/test_docs.py`` (a few minutes: it runs torch.compile for real).
"""
import difflib
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_BIN = os.path.join(REPO, ".venv", "bin")
SHOWN_ROOT = "/home/you/unveil"
DOCS = ["README.md"] + sorted("docs/" + n for n in os.listdir(os.path.join(REPO, "docs"))
                              if n.endswith(".md"))
# what a doc's directory links to, so that `make demo` runs there as in a clone
LINKED = ("Makefile", "tools", "pyproject.toml", ".venv", "src")
COMMAND_TIMEOUT = 600

MARKER = re.compile(r"^<!--\s*doc:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^```(\S*)\s*$")


class Block:
    def __init__(self, doc, line, lang, marker, text):
        self.doc, self.line, self.lang, self.marker, self.text = doc, line, lang, marker, text

    def where(self):
        return "%s:%d" % (self.doc, self.line)


def parse_blocks(doc):
    """The fenced blocks of one markdown file, each with the doc marker just above it."""
    lines = open(os.path.join(REPO, doc), encoding="utf-8").read().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        above = i - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        marker = MARKER.match(lines[above]) if above >= 0 else None
        blocks.append(Block(doc, i + 1, m.group(1), marker.group(1) if marker else None,
                            "\n".join(lines[i + 1:end])))
        i = end + 1
    return blocks


# ---------------------------------------------------------------- normalising and comparing

_UUID = re.compile(r"[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}")
_TORCH_LOG_PREFIX = re.compile(r"^[VIWE]\d{4} \d\d:\d\d:\d\d\.\d+ \d+ \S+:\d+\] (\[[^\]]*\] )?")


def normalise(text, roots):
    """The parts of an output that change from run to run or machine to machine, made constant."""
    for root in roots:
        text = text.replace(root, SHOWN_ROOT)
    out = []
    for line in text.splitlines():
        line = _TORCH_LOG_PREFIX.sub("", line)
        line = _UUID.sub("<uuid>", line)
        line = re.sub(r"0x[0-9a-fA-F]{6,}", "0x<addr>", line)
        line = re.sub(r"\b\d{10,}\b", "<id>", line)  # id() of objects in torch's guards
        line = re.sub(r"\b\d+\.\d+ ?(s|ms|µs)\b", r"<time> \1", line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def _line_pattern(line):
    """A line of expected text as a regex: ``...`` is any text."""
    return ".*".join(re.escape(part) for part in line.split("..."))


def matches(expected, actual, excerpt=False):
    """Whether the actual lines are what the expected lines show (see the module's docstring)."""
    if excerpt:
        return first_missing(expected, actual) is None
    pattern = "".join(r"(?:[^\n]*\n)*?" if e.strip() == "..." else _line_pattern(e) + r"\n"
                      for e in expected)
    return re.fullmatch(pattern, "".join(a + "\n" for a in actual)) is not None


def first_missing(expected, actual):
    """The first line of an excerpt not found in order after the lines before it, or None."""
    it = iter(actual)
    for e in expected:
        if e.strip() != "..." and not any(re.fullmatch(_line_pattern(e), a) for a in it):
            return e
    return None


def mismatch(block, command, expected, actual, excerpt=False):
    if excerpt:
        diff = "excerpt line not found in order: %r" % first_missing(expected, actual)
    else:
        diff = "\n".join(difflib.unified_diff(expected, actual, "doc", "actual", lineterm=""))
    return "%s: `%s` printed other text\n%s\n--- actual output:\n%s" % (
        block.where(), command, diff, "\n".join(actual))


# ---------------------------------------------------------------- running

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment():
    env = dict(os.environ)
    env["PATH"] = VENV_BIN + os.pathsep + env.get("PATH", "")
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as on a terminal
    env["VIRTUAL_ENV"] = os.path.join(REPO, ".venv")
    env.pop("PYTHONPATH", None)
    env.pop("TORCH_LOGS", None)
    for name in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS"):  # under `make test`, a doc's `make` is a user's
        env.pop(name, None)                              # (not a sub-make that prints its directory)
    # torchrun (docs/distributed.md) on loopback, at a port no other run holds
    env.update(PET_MASTER_ADDR="127.0.0.1", PET_MASTER_PORT=str(free_port()), GLOO_SOCKET_IFNAME="lo")
    env["COLUMNS"] = "80"  # argparse wraps its help to the terminal
    return env


def run(command, cwd, stdin=""):
    """Run one command line in bash; its exit code and its output (stderr merged)."""
    result = subprocess.run(["bash", "-c", command], cwd=cwd, env=environment(), input=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=COMMAND_TIMEOUT)
    return result.returncode, result.stdout


def typed_lines(expected):
    return [l[len("(Pdb) "):] for l in expected if l.startswith("(Pdb) ")]


def echo_typed(output, typed):
    """pdb does not echo what it reads from a pipe: put each command after its prompt."""
    parts = output.split("(Pdb) ")
    out = parts[0]
    for k, part in enumerate(parts[1:]):
        out += "(Pdb) " + (typed[k] + "\n" if k < len(typed) else "") + part
    return out


def console_steps(text):
    """``$ CMD`` lines of a console block, each with the lines shown under it."""
    steps = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
    return steps


def _strip_comment(command):
    """``cmd   # remark`` -> ``cmd``: a remark for the reader after two spaces and a #."""
    return re.split(r"\s{2,}#\s", command, maxsplit=1)[0]


class DocRun:
    """One document's blocks, run in order in one directory."""

    def __init__(self, doc, workdir, roots):
        self.doc, self.workdir, self.roots, self.failures = doc, workdir, roots, []
        self.last_exit = 0

    def check(self, block):
        marker = block.marker or ""
        if marker.startswith("not run:"):
            if not marker[len("not run:"):].strip():
                self.failures.append("%s: `not run:` needs a reason" % block.where())
            return
        if marker.startswith("file "):
            self.write_file(block, marker[len("file "):].strip())
        elif marker.startswith("run "):
            command = marker[len("run "):]
            head, _, last = command.rpartition(";")
            excerpt = last.strip() == "excerpt"  # the one option, after the command's own ;s
            self.compare(block, head if excerpt else command, block.text.splitlines(),
                         excerpt=excerpt, must_succeed=True)
            return
        elif marker:
            self.failures.append("%s: unknown doc marker %r" % (block.where(), marker))
            return
        if block.text.lstrip().startswith("$ "):
            for command, expected in console_steps(block.text):
                self.compare(block, command, expected)
        elif block.lang == "python":
            self.compile_python(block)
        elif block.lang == "pycon":
            self.doctest(block)
        elif block.lang == "json":
            try:
                json.loads(block.text)
            except ValueError as e:
                self.failures.append("%s: not JSON: %s" % (block.where(), e))
        elif block.lang == "sh":
            code, out = run("bash -n", self.workdir, stdin=block.text)
            if code:
                self.failures.append("%s: not valid sh: %s" % (block.where(), out))
        elif not marker.startswith("file "):
            self.failures.append(
                "%s: a block that is neither run nor marked (see tests/test_docs.py): %r"
                % (block.where(), block.text[:80]))

    def write_file(self, block, name):
        if block.lang == "python":
            self.compile_python(block)
        path = os.path.join(self.workdir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(block.text + "\n")

    def compile_python(self, block):
        try:
            compile(block.text, block.where(), "exec")
        except SyntaxError as e:
            self.failures.append("%s: Python that does not compile: %s" % (block.where(), e))

    def doctest(self, block):
        path = os.path.join(self.workdir, "_doctest_%d.txt" % block.line)
        with open(path, "w", encoding="utf-8") as f:
            f.write(block.text + "\n")
        code, out = run("python -m doctest -o ELLIPSIS %s" % os.path.basename(path), self.workdir)
        if code:
            self.failures.append("%s: the doctest fails:\n%s" % (block.where(), out))

    def compare(self, block, command, expected, excerpt=False, must_succeed=False):
        typed = typed_lines(expected)
        stdin = "".join(t + "\n" for t in typed)
        code, out = run("(exit %d); %s" % (self.last_exit, _strip_comment(command)),
                        self.workdir, stdin)
        self.last_exit = code
        if must_succeed and code:
            self.failures.append("%s: `%s` exited %d:\n%s" % (block.where(), command, code, out))
            return
        actual = normalise(echo_typed(out, typed) if typed else out, self.roots)
        expected = [l.rstrip() for l in expected]
        while expected and not expected[-1]:
            expected.pop()
        expected = normalise("\n".join(expected), ())
        if not matches(expected, actual, excerpt):
            self.failures.append(mismatch(block, command, expected, actual, excerpt))


def short_temp_dir():
    """A directory whose path is about as long as a user's clone: torch lays out some lines of
    the dump by their length (a guard's comment goes on a line of its own past 160 characters)."""
    return tempfile.mkdtemp(prefix="doc-", dir="/tmp" if os.path.isdir("/tmp") else None)


@pytest.fixture(scope="module")
def demo():
    """One `make demo` dump of examples/seed.py, shared by every document."""
    # README's `make demo` runs in a directory linked to this .venv: with a stale venv it would
    # reinstall into it, which is `make test`'s job (it makes the venv first), not a doc test's
    stamp, project = os.path.join(REPO, ".venv", ".installed"), os.path.join(REPO, "pyproject.toml")
    assert os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(project), \
        ".venv is older than pyproject.toml: run `make demo` (or `make test`) first"
    base = short_temp_dir()
    shutil.copytree(os.path.join(REPO, "examples"), os.path.join(base, "examples"))
    code, out = run("python examples/seed.py demo_dump", base)
    assert code == 0, out
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def workdir(demo):
    """A directory standing for the clone: the demo's examples and dump, links to what make needs."""
    top = short_temp_dir()
    yield make_workdir(top, demo)
    shutil.rmtree(top, ignore_errors=True)


def make_workdir(top, demo):
    workdir = os.path.join(top, "unveil")
    os.makedirs(workdir)
    for name in ("examples", "demo_dump"):
        shutil.copytree(os.path.join(demo, name), os.path.join(workdir, name), symlinks=True)
    for name in LINKED:
        os.symlink(os.path.join(REPO, name), os.path.join(workdir, name))
    return workdir


def _roots(*dirs):
    """Directory names as they may appear in outputs, longest first (so no prefix wins)."""
    names = set()
    for d in dirs:
        names.update({d, os.path.realpath(d)})
    return sorted(names, key=len, reverse=True)


@pytest.mark.parametrize("doc", DOCS)
def test_doc_blocks(doc, workdir, demo):
    runner = DocRun(doc, workdir, _roots(workdir, demo, REPO))
    for block in parse_blocks(doc):
        runner.check(block)
    assert not runner.failures, "\n\n".join(runner.failures)


# ---------------------------------------------------------------- the checker checks itself

def test_matching_rules():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert matches(["guard (11...", "x"], ["guard (11 conditions):", "x"])
    assert not matches(["guard (12..."], ["guard (11 conditions):"])
    assert matches(["a", "c"], ["a", "b", "c"], excerpt=True)
    assert not matches(["c", "a"], ["a", "b", "c"], excerpt=True)


def test_normalising():
    line = ("V1130 10:16:27.331000 667 unveil/torch/logging.py:65] [0/0] [__bytecode] "
            "x = __compiled_fn_3_86430f41_c223_4f25_a331_6cc2492ef387(a)  # /tmp/w/a.py")
    assert normalise(line, ["/tmp/w"]) == ["[__bytecode] x = __compiled_fn_3_<uuid>(a)  "
                                           "# /home/you/unveil/a.py"]
    assert normalise("___check_type_id(L['b'], 140573510302944)", ()) == [
        "___check_type_id(L['b'], <id>)"]


def test_pdb_input_is_echoed():
    assert echo_typed("> f()\n(Pdb) 2\n(Pdb) done\n", ["p b", "c"]) == \
        "> f()\n(Pdb) p b\n2\n(Pdb) c\ndone\n"


def test_unmarked_output_block_is_refused(tmp_path):
    runner = DocRun("x.md", str(tmp_path), ())
    runner.check(Block("x.md", 1, "", None, "some output"))
    assert runner.failures and "neither run nor marked" in runner.failures[0]


def test_a_console_block_that_went_stale_fails(tmp_path):
    runner = DocRun("x.md", str(tmp_path), ())
    runner.check(Block("x.md", 1, "", None, "$ echo hello\nhello\n$ echo $?\n0"))
    assert runner.failures == []
    runner.check(Block("x.md", 5, "", None, "$ echo hello\nbye"))
    assert len(runner.failures) == 1 and "x.md:5: `echo hello` printed other text" in runner.failures[0]


def test_a_run_marker_needs_a_zero_exit(tmp_path):
    runner = DocRun("x.md", str(tmp_path), ())
    runner.check(Block("x.md", 1, "", "run false", ""))
    assert len(runner.failures) == 1 and "exited 1" in runner.failures[0]
