"""Real packages' own work as an oracle for the decompiler (held-out code nobody here wrote).

For each package below: run a fixed workload that uses much of it and print a digest of
its output; then run it again in a fresh process after every function of the package (its
modules' functions, methods, properties, static and class methods; nested functions come
along inside their parent) had its code replaced by ``unveil.recompile`` of itself. A digest
that differs is a behaviour difference the proof let through: the workload's output is
printed around the first difference, and ``--bisect`` narrows it to the functions whose
replacement alone changes it.

    .venv/bin/python bench/workloads.py [--package pygments,jinja2] [--bisect] [-v]
    <other python> bench/workloads.py --site .venv/lib/python3.11/site-packages --package packaging

(With ``--site``, another interpreter runs the pure-Python packages installed for 3.11; a
package that does not import there is reported as such.)
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")


# ------------------------------------------------------------------ workloads
# Each returns a list of strings: its output, deterministic from one run to the next.

def _sources():
    """unveil's own source files (text for the text-processing packages to chew on)."""
    out = []
    for d, _, fs in sorted(os.walk(os.path.join(ROOT, "src", "unveil"))):
        out.extend(os.path.join(d, f) for f in sorted(fs) if f.endswith(".py"))
    return out


def _docs():
    return [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def work_pygments():
    from pygments import highlight
    from pygments.formatters import HtmlFormatter, TerminalFormatter
    from pygments.lexers import get_lexer_by_name, guess_lexer
    out = []
    for path in _sources()[::3]:
        text = _read(path)
        out.append(highlight(text, get_lexer_by_name("python"), HtmlFormatter(linenos=True)))
        out.append(highlight(text[:4000], get_lexer_by_name("python"), TerminalFormatter()))
    for name, text in [("json", '{"a": [1, 2.5, null, true], "b": {"c": "d\\n"}}'),
                       ("c", "int main(void) { /* x */ return a[1] << 2; }"),
                       ("bash", "for f in *.py; do echo \"$f\" | wc -c; done"),
                       ("yaml", "a: [1, 2]\nb:\n  - c: d\n"), ("markdown", _read(_docs()[0])[:6000])]:
        out.append(highlight(text, get_lexer_by_name(name), HtmlFormatter()))
    out.append(guess_lexer("#!/usr/bin/env python\nimport os\n").name)
    return out


def work_markdown_it():
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    out = []
    for path in _docs():
        text = _read(path)
        out.append(md.render(text))
        out.append(repr([(t.type, t.tag, t.nesting, t.map) for t in md.parse(text)][:400]))
    return out


def work_jinja2():
    import jinja2
    env = jinja2.Environment(loader=jinja2.DictLoader({
        "base.html": "<title>{% block title %}{% endblock %}</title>{% block body %}{% endblock %}",
        "macros.html": "{% macro row(k, v, cls='x') -%}<tr class={{ cls }}><td>{{ k }}</td>"
                       "<td>{{ v|e }}</td></tr>{%- endmacro %}",
        "page.html": "{% extends 'base.html' %}{% from 'macros.html' import row %}"
                     "{% block title %}{{ title|title }}{% endblock %}{% block body %}"
                     "{% for k, v in items|dictsort %}{{ row(k, v, loop.cycle('odd', 'even')) }}"
                     "{% if loop.last %}<!-- {{ loop.length }} -->{% endif %}{% else %}none{% endfor %}"
                     "{% set total = items.values()|select('number')|sum %}{{ total }}"
                     "{% with n = items|length %}{{ n is even }}{{ '%05.1f'|format(n / 3) }}{% endwith %}"
                     "{{ names|map('upper')|join(', ') }}{{ names|batch(2)|list }}{{ text|wordwrap(20) }}"
                     "{% filter upper %}{{ text|truncate(30) }}{% endfilter %}{% endblock %}",
    }), autoescape=True, trim_blocks=True, extensions=["jinja2.ext.loopcontrols", "jinja2.ext.do"])
    out = []
    for k in range(20):
        items = {"k%d" % j: (j * k if j % 3 else "<v%d>" % j) for j in range(k)}
        out.append(env.get_template("page.html").render(
            title="page %d" % k, items=items, names=["n%d" % j for j in range(k % 7)],
            text="lorem ipsum dolor sit amet " * (k % 5)))
    src = env.compile("{% for x in xs %}{% if x is odd %}{% continue %}{% endif %}{{ x }}{% endfor %}", raw=True)
    out.append(src)
    out.append(jinja2.Template("{{ a + b * c }}{{ d.e['f'] }}").render(a=1, b=2, c=3, d={"e": {"f": 4}}))
    return out


def work_yaml():
    import yaml
    out = []
    docs = [{"a": [1, 2.5, None, True, "x: y"], "b": {"c": ["d", {"e": "multi\nline"}]}, "f": 1e20},
            [list(range(k)) for k in range(8)], "plain", {"dates": "2001-12-14t21:59:43.10-05:00"}]
    for d in docs:
        for flow in (None, True, False):
            text = yaml.dump(d, Dumper=yaml.Dumper, default_flow_style=flow, sort_keys=True)
            out.append(text)
            out.append(repr(yaml.load(text, Loader=yaml.Loader)))
    text = "a: &x [1, 2]\nb: *x\nc: !!str 3\nd: |\n  block\n  text\n? complex\n: key\n"
    out.append(repr(yaml.load(text, Loader=yaml.Loader)))
    out.append(repr(list(yaml.scan(text))))
    out.append(repr(yaml.compose(text)))
    return out


def work_packaging():
    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.utils import canonicalize_name, parse_wheel_filename
    from packaging.version import InvalidVersion, Version
    out = []
    raw = ["1.0", "1.0.post1", "1.0a1", "1.0b2.dev3", "2!1.0", "1.0+local.7", "0.9rc1", "1.0.0",
           "v1.2", "1.2.3.4.5", "1.0.dev0", "1.0a1.post2.dev3", "junk", "1.0-1", "01.02"]
    versions = []
    for r in raw:
        try:
            versions.append(Version(r))
        except InvalidVersion as e:
            out.append("invalid %s %s" % (r, e))
    out.append(repr(sorted(versions)))
    out.append(repr([(str(v), v.public, v.base_version, v.is_prerelease, v.epoch, v.release) for v in versions]))
    for spec in [">=1.0,<2", "~=1.0", "==1.*", "!=1.0.post1", "===junk", ">1.0a1", "<=2!0"]:
        s = SpecifierSet(spec)
        out.append("%s %r" % (spec, [str(v) for v in s.filter(versions, prereleases=True)]))
    for req in ["requests[security,socks]>=2.8.1,==2.8.*; python_version<'2.7'",
                "name@ https://x.invalid/a.zip", "pkg (>=1.0)", "a; os_name=='posix' and extra=='b'"]:
        r = Requirement(req)
        out.append(repr((r.name, sorted(r.extras), str(r.specifier), str(r.marker), r.url)))
    for m in ["python_version >= '3.8' and (os_name == 'nt' or platform_machine != 'x')",
              "extra == 'test'", "'linux' in sys_platform"]:
        mk = Marker(m)
        out.append(repr((str(mk), mk.evaluate({"python_version": "3.9", "os_name": "posix",
                                               "platform_machine": "x86_64", "extra": "test",
                                               "sys_platform": "linux"}))))
    out.append(canonicalize_name("Foo.Bar_baz"))
    name, version, build, tags = parse_wheel_filename("foo_bar-1.0-1-py3.py2-none-any.whl")
    out.append(repr((name, version, build, sorted(map(str, tags)))))  # (a Tag's repr shows its id)
    return out


def work_networkx():
    import networkx as nx
    out = []
    for seed in range(3):
        g = nx.gnm_random_graph(40, 120, seed=seed)
        out.append(repr(sorted(nx.degree(g))))
        out.append(repr(nx.shortest_path_length(g, 0)))
        out.append(repr(sorted(sorted(c) for c in nx.connected_components(g))))
        out.append(repr(sorted(nx.minimum_spanning_edges(g, data=False))))
        out.append(repr({k: round(v, 9) for k, v in sorted(nx.betweenness_centrality(g).items())}))
        out.append(repr({k: round(v, 9) for k, v in sorted(nx.closeness_centrality(g).items())}))
        out.append(repr({k: round(v, 9) for k, v in sorted(nx.clustering(g).items())}))
        out.append(repr(sorted(nx.greedy_color(g, strategy="largest_first").items())))
        out.append(repr(sorted(nx.k_core(g, 3).nodes())))
        out.append(repr(list(nx.dfs_preorder_nodes(g, 0))))
        out.append(repr(nx.dijkstra_path(g, 0, 39) if nx.has_path(g, 0, 39) else None))
        out.append(repr(nx.diameter(g) if nx.is_connected(g) else None))
        out.append(repr(sorted(nx.find_cliques(g))))
        d = nx.gnp_random_graph(25, 0.15, seed=seed, directed=True)
        out.append(repr(sorted(sorted(c) for c in nx.strongly_connected_components(d))))
        out.append(repr(nx.is_directed_acyclic_graph(d)))
        dag = nx.DiGraph([(u, v) for u, v in d.edges() if u < v])
        out.append(repr(list(nx.lexicographical_topological_sort(dag))))
        nx.set_edge_attributes(d, {e: 1 + (e[0] * e[1]) % 4 for e in d.edges()}, "c")
        out.append(repr(nx.maximum_flow_value(d, 0, 24, capacity="c")))
        out.append(repr(sorted(nx.algorithms.matching.max_weight_matching(g))))
        out.append(repr(nx.algorithms.isomorphism.is_isomorphic(g, nx.relabel_nodes(g, lambda n: 39 - n))))
    return out


def work_sympy():
    import sympy as sp
    x, y, z = sp.symbols("x y z")
    out = []
    exprs = [(x + y) ** 5, sp.sin(x) ** 2 + sp.cos(x) ** 2, (x ** 2 - 1) / (x - 1), sp.exp(x) * sp.sin(y),
             sp.Rational(3, 4) * x ** 3 - x / 7, sp.log(x * y), 1 / (x ** 2 + 1)]
    for e in exprs:
        out.append(str(sp.expand(e)))
        out.append(str(sp.simplify(e)))
        out.append(str(sp.diff(e, x)))
        out.append(str(sp.series(e, x, 0, 4)))
        out.append(sp.latex(e))
    out.append(str(sp.integrate(x * sp.exp(x), x)))
    out.append(str(sp.integrate(1 / (x ** 2 + 1), (x, 0, sp.oo))))
    out.append(str(sp.solve([x + y - 3, x - y - 1], [x, y])))
    out.append(str(sp.factor(x ** 4 - 1)))
    out.append(str(sp.Matrix([[1, 2], [3, x]]).inv()))
    out.append(str(sp.limit(sp.sin(x) / x, x, 0)))
    out.append(str(sp.nsimplify(0.333333333333)))
    out.append(str(sp.N(sp.pi, 40)))
    return out


def work_rich():
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.syntax import Syntax
    from rich.table import Table
    from rich.tree import Tree
    console = Console(record=True, width=100, color_system="truecolor", force_terminal=True)
    t = Table(title="t", show_lines=True)
    for c in ("a", "b", "c"):
        t.add_column(c, justify="right" if c == "b" else "left")
    for k in range(12):
        t.add_row(str(k), "[bold]%d[/bold]" % (k * k), "x" * (k % 5))
    console.print(t)
    console.print(Markdown(_read(_docs()[0])[:8000]))
    console.print(Syntax(_read(_sources()[0])[:3000], "python", line_numbers=True))
    tree = Tree("root")
    for k in range(4):
        tree.add("child %d" % k).add("[red]leaf[/red]")
    console.print(tree)
    console.print({"a": [1, 2, {"b": None}], "c": "text"})
    # (a hyperlink's id counts on from a random start drawn when rich is imported)
    return [re.sub(r"\x1b]8;id=\d+;", "\x1b]8;id=N;", console.export_text(styles=True)),
            console.export_html(inline_styles=True)]


def work_click():
    import click
    from click.testing import CliRunner

    @click.group()
    @click.option("--verbose", "-v", count=True)
    @click.pass_context
    def cli(ctx, verbose):
        ctx.obj = verbose

    @cli.command()
    @click.argument("names", nargs=-1)
    @click.option("--sep", default=",", show_default=True)
    @click.option("--n", type=click.IntRange(0, 5), default=1)
    @click.option("--mode", type=click.Choice(["a", "b"]), default="a")
    @click.pass_obj
    def join(verbose, names, sep, n, mode):
        click.echo("%d %s %s" % (verbose, mode, sep.join(names * n)))

    runner = CliRunner()
    out = []
    for args in (["join", "x", "y"], ["-vv", "join", "--sep", "+", "--n", "3", "a"], ["join", "--n", "9"],
                 ["join", "--mode", "c"], ["--help"], ["join", "--help"], ["nope"], []):
        r = runner.invoke(cli, args)
        out.append("%r %d %s" % (args, r.exit_code, r.output))
    return out


def work_mpmath():
    import mpmath
    mpmath.mp.dps = 40
    out = [str(mpmath.pi), str(mpmath.e), str(mpmath.zeta(3)), str(mpmath.gamma(mpmath.mpf("0.5"))),
           str(mpmath.quad(lambda t: mpmath.exp(-t * t), [-mpmath.inf, mpmath.inf])),
           str(mpmath.findroot(lambda t: mpmath.cos(t) - t, 0.7)), str(mpmath.besselj(1, 2.5)),
           str(mpmath.nsum(lambda k: 1 / k ** 2, [1, mpmath.inf])), str(mpmath.mpc(1, 2) ** mpmath.mpf(0.3)),
           str(mpmath.matrix([[1, 2], [3, 4]]) ** -1), str(mpmath.polyroots([1, 0, -2]))]
    return out


WORKLOADS = {"pygments": work_pygments, "markdown_it": work_markdown_it, "jinja2": work_jinja2,
             "yaml": work_yaml, "packaging": work_packaging, "networkx": work_networkx,
             "sympy": work_sympy, "rich": work_rich, "click": work_click, "mpmath": work_mpmath}


# ---------------------------------------------------------------- inside the child
def child(package, replace, only=None):
    """Run ``package``'s workload (after replacing its functions' code when ``replace``;
    with ``only``, just the functions of those indices); one JSON line."""
    sys.path.insert(0, os.path.join(ROOT, "src"))
    sys.path.insert(0, HERE)
    import stdtests
    replaced, refused, names = 0, [], []
    if replace:
        replaced, refused, names = replace_functions(package, stdtests, only)
    t0 = time.perf_counter()
    try:
        out = WORKLOADS[package]()
    except Exception as e:  # noqa: BLE001 - an exception is an output too
        out = ["raised %s: %s" % (type(e).__name__, e)]
    text = "\n".join(out)
    return {"digest": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16],
            "text": text, "seconds": time.perf_counter() - t0, "replaced": replaced,
            "refused": refused, "names": names}


def all_functions(package, stdtests):
    """Every function of ``package`` and its submodules, in a fixed order."""
    import importlib
    import pkgutil
    module = importlib.import_module(package)
    modules = [module]
    if hasattr(module, "__path__"):
        for info in sorted(pkgutil.walk_packages(module.__path__, package + "."), key=lambda i: i.name):
            if info.name.endswith("__main__") or ".tests" in info.name or ".testing." in info.name:
                continue  # (a package's __main__ runs its command line; its tests import pytest)
            try:
                modules.append(importlib.import_module(info.name))
            except Exception:  # noqa: BLE001 - optional dependencies missing
                pass
    out = []
    for m in modules:
        out.extend((m.__name__, fn) for fn in stdtests.functions_of(m))
    return out


def replace_functions(package, stdtests, only=None):
    import unveil
    replaced, refused, names = 0, [], []
    for k, (modname, fn) in enumerate(all_functions(package, stdtests)):
        if only is not None and k not in only:
            continue
        try:
            fn.__code__ = stdtests.same_file(unveil.recompile(fn.__code__), fn.__code__.co_filename)
            replaced += 1
            names.append("%s.%s" % (modname, fn.__qualname__))
        except Exception as exc:  # noqa: BLE001 - a refusal leaves the function as it was
            refused.append("%s.%s: %s" % (modname, fn.__qualname__, str(exc)[:160]))
    return replaced, refused, names


# ---------------------------------------------------------------- parent
def run_child(args, package, replace, only=None):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", package] + (["--replace"] if replace else [])
    if only is not None:
        cmd += ["--only", ",".join(map(str, sorted(only)))]
    env = dict(os.environ, PYTHONHASHSEED="0")
    if args.site:
        env["PYTHONPATH"] = os.path.abspath(args.site)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=args.timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % args.timeout}
    if p.returncode != 0 or not p.stdout.strip():
        return {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def first_difference(a, b, width=300):
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, k - width // 2)
    return "original:   ...%r...\nrecompiled: ...%r..." % (a[lo:k + width // 2], b[lo:k + width // 2])


def bisect(args, package, count, base_digest):
    """The smallest set found (by halving) of function indices whose replacement alone
    changes the digest."""
    suspects = list(range(count))
    while len(suspects) > 1:
        half = suspects[:len(suspects) // 2]
        r = run_child(args, package, True, set(half))
        if r.get("digest") != base_digest:
            suspects = half
            continue
        rest = suspects[len(suspects) // 2:]
        r = run_child(args, package, True, set(rest))
        if r.get("digest") == base_digest:
            return suspects  # (only together: the difference needs functions from both halves)
        suspects = rest
    return suspects


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package", help="comma-separated subset of: " + ", ".join(WORKLOADS))
    ap.add_argument("--site", help="a site-packages directory to import the packages from")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--bisect", action="store_true", help="narrow a difference to the functions causing it")
    ap.add_argument("-v", action="store_true", help="list the refusals")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--replace", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--only", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        only = set(map(int, args.only.split(","))) if args.only else None
        print(json.dumps(child(args.child, args.replace, only)))
        return
    packages = args.package.split(",") if args.package else list(WORKLOADS)
    print("Python %d.%d: each package's workload, as it is and with every function recompiled"
          % sys.version_info[:2])
    print("%-12s %9s %8s %9s  %s" % ("package", "functions", "refused", "seconds", "outcome"))
    differ = 0
    for package in packages:
        base = run_child(args, package, False)
        if "error" not in base and base["text"].startswith("raised "):
            base["error"] = base["text"]  # (the workload itself fails here: nothing to compare)
        if "error" in base:
            print("%-12s %9s %8s %9s  %s" % (package, "-", "-", "-", "does not run: " + base["error"][:80]))
            continue
        new = run_child(args, package, True)
        if "error" in new:
            print("%-12s %9s %8s %9s  %s" % (package, "-", "-", "-", "recompiled run failed: " + new["error"][:80]))
            differ += 1
            continue
        same = new["digest"] == base["digest"]
        differ += not same
        total = new["replaced"] + len(new["refused"])
        print("%-12s %9d %8d %9.1f  %s" % (package, total, len(new["refused"]), new["seconds"],
                                           "same output" if same else "OUTPUT DIFFERS"), flush=True)
        if args.v:
            for line in new["refused"]:
                print("      refused " + line)
        if not same:
            print(first_difference(base["text"], new["text"]))
            if args.bisect:
                found = bisect(args, package, total, base["digest"])
                print("   changed by replacing: %s" % ", ".join(
                    run_child(args, package, True, set(found))["names"]))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
