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


def work_chardet():
    from pip._vendor import chardet
    text = _read(_docs()[0])[:3000]
    samples = [text.encode("utf-8"), text.encode("latin-1", "replace"), text.encode("utf-16"),
               ("Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20).encode("cp1251"),
               ("Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20).encode("koi8-r"),
               ("いろはにほへと ちりぬるを わかよたれそ つねならむ " * 20).encode("shift_jis"),
               ("いろはにほへと ちりぬるを わかよたれそ つねならむ " * 20).encode("euc-jp"),
               ("中文字符编码检测测试，这是一段较长的文本。" * 20).encode("gb2312"),
               ("Ελληνικά κείμενα για τον έλεγχο της κωδικοποίησης. " * 20).encode("iso-8859-7"),
               ("עברית היא שפה שמית " * 20).encode("cp1255"), bytes(range(256)), b""]
    out = [repr(chardet.detect(b)) for b in samples]
    out.extend(repr(r) for r in chardet.detect_all(samples[3]))
    return out


def work_pyparsing():
    from pip._vendor import pyparsing as pp
    # (parse actions take all three arguments: pyparsing finds how many a shorter one takes by
    # reading line numbers from the TypeError's traceback, which recompiled code changes)
    integer = pp.Word(pp.nums).set_parse_action(lambda s, loc, t: int(t[0]))
    name = pp.Word(pp.alphas + "_", pp.alphanums + "_")
    operand = integer | name
    expr = pp.infix_notation(operand, [(pp.one_of("- !"), 1, pp.OpAssoc.RIGHT), ("**", 2, pp.OpAssoc.RIGHT),
                                       (pp.one_of("* / %"), 2, pp.OpAssoc.LEFT),
                                       (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT),
                                       (pp.one_of("< <= > >= == !="), 2, pp.OpAssoc.LEFT)])
    out = []
    for text in ["1 + 2 * 3", "-(a + b) ** 2 ** c % 7", "x < y == !z", "((1))", "a + * b", "f - 3 - 4 - g"]:
        try:
            out.append(repr(expr.parse_string(text, parse_all=True).as_list()))
        except pp.ParseException as e:
            out.append("error %s %d %d" % (e.msg, e.loc, e.column))
    key = pp.QuotedString('"')
    value = pp.Forward()
    pair = pp.Group(key + pp.Suppress(":") + value)
    obj = pp.Dict(pp.Suppress("{") + pp.Optional(pp.delimited_list(pair)) + pp.Suppress("}"))
    arr = pp.Group(pp.Suppress("[") + pp.Optional(pp.delimited_list(value)) + pp.Suppress("]"))
    value <<= key | pp.pyparsing_common.number | obj | arr | pp.Keyword("true") | pp.Keyword("null")
    doc = '{"a": [1, 2.5, -3e2, {"b": null}], "c": "d", "e": [true, [], {}]}'
    out.append(repr(value.parse_string(doc).as_list()))
    out.append(repr(pp.pyparsing_common.iso8601_datetime.parse_string("2026-12-02T10:11:12.5Z").as_dict()))
    out.append(repr([t for t, s, e in pp.Word(pp.alphas).scan_string("abc 12 de f3 gh")]))
    out.append(repr(pp.Combine(pp.Word(pp.nums) + "." + pp.Word(pp.nums)).search_string("v 1.2 and 3.45")))
    return out


def work_tomli():
    from pip._vendor import tomli
    docs = [_read(os.path.join(ROOT, "pyproject.toml")),
            'a = 1\nb = "two"\nc = [1, 2, [3, "x"]]\n[d.e]\nf = 1979-05-27T07:32:00-08:00\n'
            'g = { h = true, i = 3.5e-2 }\n[[j]]\nk = 0x1F\n[[j]]\nk = 0o17\nl = """\nmulti\\\n  line"""\n'
            "m = 'lit\\eral'\nn = inf\no = -nan\np = 1_000\nq = 07:32:00\n",
            "a = ", "[x]\n[x]\n", 'a = "\\u00e9\\U0001F600"\n', "a.b.c = 1\na.b.d = 2\n"]
    out = []
    for d in docs:
        try:
            out.append(repr(tomli.loads(d)))
        except tomli.TOMLDecodeError as e:
            out.append("error %s" % e)
    return out


def work_msgpack():
    from pip._vendor.msgpack import fallback
    objs = [None, True, 0, -1, 127, 128, -33, 2 ** 31, -2 ** 63, 2 ** 64 - 1, 1.5, "", "é" * 40, b"\0" * 300,
            list(range(20)), {"a": [1, {"b": None}], "c": b"x"}, [[[]]], {i: str(i) for i in range(20)}]
    out = []
    packer = fallback.Packer(use_bin_type=True)
    for o in objs:
        data = packer.pack(o)
        out.append(data.hex())
        out.append(repr(fallback.unpackb(data, raw=False, strict_map_key=False)))
    unpacker = fallback.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(b"".join(packer.pack(o) for o in objs))
    out.append(repr(list(unpacker)))
    return out


def work_resolvelib():
    from pip._vendor import resolvelib
    index = {"a": {3: ["b>=2", "c"], 2: ["b", "c<2"], 1: []}, "b": {3: ["c>=3"], 2: ["c"], 1: []},
             "c": {3: ["d"], 2: [], 1: []}, "d": {1: ["a<3"], 2: ["e"]}, "e": {1: []}}

    def parse(req):
        for op in (">=", "<", "=="):
            if op in req:
                name, v = req.split(op)
                return name, op, int(v)
        return req, None, None

    def ok(req, version):
        name, op, v = parse(req)
        return op is None or {">=": version >= v, "<": version < v, "==": version == v}[op]

    class Provider(resolvelib.AbstractProvider):
        def identify(self, requirement_or_candidate):
            return requirement_or_candidate[0] if isinstance(requirement_or_candidate, tuple) else parse(
                requirement_or_candidate)[0]

        def get_preference(self, identifier, resolutions, candidates, information, backtrack_causes):
            return (sum(1 for _ in candidates[identifier]), identifier)

        def find_matches(self, identifier, requirements, incompatibilities):
            bad = {c[1] for c in incompatibilities[identifier]}
            return [(identifier, v) for v in sorted(index[identifier], reverse=True)
                    if v not in bad and all(ok(r, v) for r in requirements[identifier])]

        def is_satisfied_by(self, requirement, candidate):
            return ok(requirement, candidate[1])

        def get_dependencies(self, candidate):
            return index[candidate[0]][candidate[1]]

    out = []
    for roots in (["a"], ["a", "d==2"], ["a<3", "b==3"], ["d"], ["a==3", "c<3"]):
        try:
            result = resolvelib.Resolver(Provider(), resolvelib.BaseReporter()).resolve(roots)
            out.append(repr(sorted(result.mapping.items())))
        except resolvelib.ResolutionImpossible as e:
            out.append("impossible %r" % sorted(repr(c) for c in e.causes))
    return out


def work_urllib3():
    from pip._vendor.urllib3.util import Retry, Timeout, parse_url
    out = []
    for u in ["http://user:pw@host.example:8080/a/b?c=d&e#frag", "https://[::1]:443/", "host/path",
              "//x", "http://h/%7Euser/../a b", "ftp://", "HTTP://EXAMPLE.com", "http://h:99999", "mailto:x@y"]:
        try:
            p = parse_url(u)
            out.append(repr((tuple(p), p.url, p.netloc, p.request_uri)))
        except Exception as e:  # noqa: BLE001 - the error is part of the output
            out.append("%s: %s" % (type(e).__name__, e))
    r = Retry(total=5, backoff_factor=0.5, status_forcelist=[500, 503])
    for k in range(4):
        r = r.increment(method="GET", url="/x")
        out.append(repr((r.total, r.get_backoff_time(), r.is_exhausted())))
    out.append(repr(Timeout(connect=1, read=2).connect_timeout))
    return out


def work_more_itertools():
    from setuptools._vendor import more_itertools as mi
    data = list(range(12))
    out = [repr(list(mi.chunked(data, 5))), repr(list(mi.windowed(data, 3, step=2))),
           repr(list(mi.distinct_permutations([1, 1, 2, 3]))), repr(list(mi.powerset([1, 2, 3]))),
           repr(list(mi.interleave_longest("ab", "cdef", "g"))), repr(list(mi.split_at(data, lambda x: x % 4 == 0))),
           repr(list(mi.run_length.encode("aaabccdddd"))), repr(list(mi.collapse([1, [2, [3, (4, "ab")]]]))),
           repr(mi.first_true(data, pred=lambda x: x > 7)), repr(list(mi.unique_everseen("abracadabra"))),
           repr([list(g) for g in mi.consecutive_groups([1, 2, 4, 5, 6, 9])]), repr(list(mi.sliced("abcdefg", 3))),
           repr(list(mi.partitions([1, 2, 3]))), repr(list(mi.set_partitions([1, 2, 3, 4], 2))),
           repr(list(mi.locate(data, lambda x: x % 5 == 0))),
           repr(list(mi.islice_extended(data)[10:2:-3])), repr(mi.minmax(data, key=lambda x: -x)),
           repr(list(mi.distribute(3, data)[1])), repr(list(mi.bucket("a1b2c3", key=str.isdigit)[True])),
           repr(list(mi.circular_shifts(range(4)))), repr(list(mi.combination_index((1, 3), range(5)) for _ in [0])),
           repr(list(mi.sort_together([(3, 1, 2), "cab"]))), repr(list(mi.substrings("abc"))),
           repr(mi.nth_or_last(data, 50)), repr(list(mi.intersperse("x", data[:4], n=2))),
           repr(list(mi.map_reduce("abcab", keyfunc=str.upper).items())), repr(list(mi.zip_offset("abc", "de", offsets=(0, 1))))]
    return out


WORKLOADS = {"pygments": work_pygments, "markdown_it": work_markdown_it, "jinja2": work_jinja2,
             "yaml": work_yaml, "packaging": work_packaging, "networkx": work_networkx,
             "sympy": work_sympy, "rich": work_rich, "click": work_click, "mpmath": work_mpmath,
             "pip._vendor.chardet": work_chardet, "pip._vendor.pyparsing": work_pyparsing,
             "pip._vendor.tomli": work_tomli, "pip._vendor.msgpack": work_msgpack,
             "pip._vendor.resolvelib": work_resolvelib, "pip._vendor.urllib3": work_urllib3,
             "setuptools._vendor.more_itertools": work_more_itertools}


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
        try:
            out.extend((m.__name__, fn) for fn in stdtests.functions_of(m))
        except Exception:  # noqa: BLE001 - a lazy attribute that imports what is missing (six.moves)
            pass
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
    print("%-34s %9s %8s %9s  %s" % ("package", "functions", "refused", "seconds", "outcome"))
    differ = 0
    for package in packages:
        base = run_child(args, package, False)
        if "error" not in base and base["text"].startswith("raised "):
            base["error"] = base["text"]  # (the workload itself fails here: nothing to compare)
        if "error" in base:
            print("%-34s %9s %8s %9s  %s" % (package, "-", "-", "-", "does not run: " + base["error"][:80]))
            continue
        new = run_child(args, package, True)
        if "error" in new:
            print("%-34s %9s %8s %9s  %s" % (package, "-", "-", "-", "recompiled run failed: " + new["error"][:80]))
            differ += 1
            continue
        same = new["digest"] == base["digest"]
        differ += not same
        total = new["replaced"] + len(new["refused"])
        print("%-34s %9d %8d %9.1f  %s" % (package, total, len(new["refused"]), new["seconds"],
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
