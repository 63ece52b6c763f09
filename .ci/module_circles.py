#!/usr/bin/env python3
"""No circle among a crate's modules: the import graph of each crate's source folder, read from
its paths; exits 1 when some folder's submodules import each other round a circle.

    python3 .ci/module_circles.py SRC_DIR...   check each crate (its lib.rs or main.rs folder)
    python3 .ci/module_circles.py --self-test  the checker against small crates made for it

Edges: every path in a file's non-test code that names a module of the crate: `crate::`,
`$crate::`, `super::` (any number), `self::`, and in `use` declarations a path that starts at
a child module. A path goes to the deepest module it names; when the name after that module is
one the module imports (`pub use y::Thing;`, or a private `use`, which its children see too),
the path follows the import to where the name lives, so a re-export does not hide an edge.

Views: inside every folder module, at any depth, the crate root included, its submodules are
the nodes; a file counts as the submodule of that folder it lies in (`a::b::c` is `a` among the
top-level modules, `a::b` inside `a`, `a::b::c` inside `a::b`). The folder's own file (`mod.rs`,
`lib.rs`) is not a node of its own view: it declares and re-exports its submodules, and they
may use what it defines, which is no circle among them. A circle is reported with its edges
and the files that make them.

Test code is left out: files of `#[cfg(test)] mod x;` (and `#[cfg(all(test, ..))]`), files
named tests.rs, and any item under such an attribute. Comments, strings and chars are blanked
first. Inline modules other than test modules are read as part of their file.

Trade-offs: paths are read by pattern, not by the compiler's name resolution: a name brought in
by a glob (`use super::*`) and used bare draws the edge to the glob's module, not to where the
name lives; macros are read as written. Fast (no build), and the same on every machine.
"""
import os
import re
import sys
import tempfile

TEST_ATTR = re.compile(r'#\[cfg\((?:all\(\s*)?test\b[^\]]*\]')


def strip(src):
    """Source without comments, string and char literals (kept as spaces/empty quotes)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
        elif src.startswith('/*', i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith('/*', i):
                    depth += 1
                    i += 2
                elif src.startswith('*/', i):
                    depth -= 1
                    i += 2
                else:
                    i += 1
        elif c == 'r' and re.match(r'r#*"', src[i:i + 8]) and (
                i == 0 or not (src[i - 1].isalnum() or src[i - 1] == '_')):
            m = re.match(r'r(#*)"', src[i:])
            end = '"' + m.group(1)
            j = src.find(end, i + len(m.group(0)))
            out.append('""')
            i = n if j < 0 else j + len(end)
        elif c == '"':
            i += 1
            while i < n and src[i] != '"':
                i += 2 if src[i] == '\\' else 1
            out.append('""')
            i += 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'",
                                   src[i:i + 12]):
            m = re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", src[i:i + 12])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def drop_test_items(src):
    """Removes every item under a test cfg; returns (code, names of test-only `mod x;`)."""
    test_mods = []
    while True:
        m = TEST_ATTR.search(src)
        if not m:
            return src, test_mods
        i = m.end()
        while True:  # further attributes
            a = re.match(r'\s*#\[[^\]]*\]', src[i:])
            if not a:
                break
            i += a.end()
        semi, brace = src.find(';', i), src.find('{', i)
        if semi >= 0 and (brace < 0 or semi < brace):
            d = re.match(r'\s*(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;', src[i:semi + 1])
            if d:
                test_mods.append(d.group(3))
            end = semi + 1
        else:
            depth, j = 0, brace
            while j < len(src):
                if src[j] == '{':
                    depth += 1
                elif src[j] == '}':
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            end = j + 1
        src = src[:m.start()] + src[end:]


def use_tree(tree):
    """`a::{b, c::{d as e}}` -> [(['a', 'b'], 'b'), (['a', 'c', 'd'], 'e')]: each leaf path and
    the name it brings in (None for a glob)."""
    tree = re.sub(r'\s+', ' ', tree).strip()

    def split_top(s):
        parts, depth, start = [], 0, 0
        for k, ch in enumerate(s):
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
            elif ch == ',' and depth == 0:
                parts.append(s[start:k])
                start = k + 1
        parts.append(s[start:])
        return [p.strip() for p in parts if p.strip()]

    def parse(s):
        out = []
        for p in split_top(s):
            b = p.find('{')
            if b < 0:
                alias = re.match(r'(.*?)\s+as\s+(\w+)$', p)
                path = alias.group(1) if alias else p
                segs = [x.strip() for x in path.split('::') if x.strip()]
                if not segs:
                    continue
                name = alias.group(2) if alias else segs[-1]
                if segs[-1] == 'self':
                    segs = segs[:-1]
                    name = alias.group(2) if alias else (segs[-1] if segs else None)
                out.append((segs, None if name == '*' else name))
            else:
                head = [x.strip() for x in p[:b].split('::') if x.strip()]
                for tail, name in parse(p[b + 1:p.rfind('}')]):
                    out.append((head + tail, name))
        return out

    return parse(tree)


def path_text(rest):
    """The path that starts `rest` (after a leading `crate::`): segments joined by `::`, then a
    name, a glob or a braced group (a `{` right after `::`; one after a name is a struct
    literal's)."""
    k = re.match(r'(?:\w+\s*::\s*)*', rest).end()
    if rest[k:k + 1] == '{':
        depth = 0
        for j in range(k, len(rest)):
            if rest[j] == '{':
                depth += 1
            elif rest[j] == '}':
                depth -= 1
                if depth == 0:
                    return rest[:j + 1]
        return rest
    last = re.match(r'\w+|\*', rest[k:])
    return rest[:k] + (last.group(0) if last else '')


def uses(code):
    """Every `use` declaration: (leaf path segments, name brought in or None for a glob)."""
    out = []
    for m in re.finditer(r'(?<![\w$])use\s+', code):
        end = code.find(';', m.end())
        if end < 0:
            continue
        out += use_tree(code[m.end():end].lstrip(':'))
    return out


def keyword_paths(code):
    """Every path outside `use` declarations that starts at `crate`, `$crate`, `super` or
    `self`, as segment lists (braced groups expanded)."""
    paths = []
    for m in re.finditer(r'(?<![\w:$])(\$?crate|super|self)\s*::', code):
        head = 'crate' if m.group(1) == '$crate' else m.group(1)
        leaves = use_tree(path_text(code[m.end():]))
        paths += [[head] + segs for segs, _ in leaves] or [[head]]
    return paths


class Crate:
    def __init__(self, root):
        self.root = root
        self.files = {}  # module path (tuple) -> file
        for d, _, fs in os.walk(root):
            for f in fs:
                if not f.endswith('.rs'):
                    continue
                rel = os.path.relpath(os.path.join(d, f), root)[:-3].split(os.sep)
                if rel[-1] in ('mod', 'lib', 'main'):
                    rel = rel[:-1]
                self.files[tuple(rel)] = os.path.join(d, f)
        self.code, excluded = {}, set()
        for mp, f in self.files.items():
            with open(f, encoding='utf-8') as fh:
                c, test_mods = drop_test_items(strip(fh.read()))
            self.code[mp] = c
            excluded.update(mp + (t,) for t in test_mods)
        self.kept = {mp for mp in self.files
                     if mp and mp[-1] != 'tests'
                     and not any(mp[:k] in excluded for k in range(1, len(mp) + 1))}
        self.kept.add(())
        # Per module: the names its `use` declarations bring in, as paths from the crate root
        # (those that leave the crate are left out; so are globs).
        self.imports = {}
        for mp in self.kept & set(self.files):
            names = {}
            for segs, name in uses(self.code[mp]):
                target = self.absolute(mp, segs)
                if target is not None and name is not None:
                    names[name] = target
            self.imports[mp] = names

    def absolute(self, mp, segs):
        """`segs` as written in module `mp`, from the crate root; None when it leaves the crate
        (another crate, std, a local name)."""
        if not segs:
            return None
        head, rest = segs[0], list(segs[1:])
        if head == 'crate':
            return rest
        if head == 'self':
            return list(mp) + rest
        if head == 'super':
            base = list(mp)
            while True:
                if not base:
                    return None
                base.pop()
                if rest and rest[0] == 'super':
                    rest.pop(0)
                    continue
                return base + rest
        if mp + (head,) in self.files:  # a child module, as `use` may name it
            return list(mp) + [head] + rest
        return None

    def module_of(self, segs, depth=0):
        """The module an absolute path lands in, following imports of the name after it."""
        k = len(segs)
        while k > 0 and tuple(segs[:k]) not in self.files:
            k -= 1
        module, rest = tuple(segs[:k]), segs[k:]
        if rest and depth < 16 and module in self.imports:
            target = self.imports[module].get(rest[0])
            if target is not None:
                return self.module_of(target + rest[1:], depth + 1)
        return module

    def edges(self):
        """(from module, to module) -> the files that make the edge."""
        out = {}
        for mp in sorted(self.kept & set(self.files)):
            code = self.code[mp]
            targets = [self.absolute(mp, p) for p in keyword_paths(code)]
            targets += [self.absolute(mp, segs) for segs, _ in uses(code)]
            for t in targets:
                if t is None:
                    continue
                to = self.module_of(t)
                if to != mp:
                    out.setdefault((mp, to), set()).add(os.path.relpath(self.files[mp]))
        return out

    def folders(self):
        return sorted({m[:k] for m in self.files for k in range(0, len(m))})


def cycles(edges, node):
    """The circles (strongly connected components of more than one node) once every module is
    mapped by `node` (None: not in this view), with the edges inside each."""
    g = {}
    for (a, b), fs in edges.items():
        na, nb = node(a), node(b)
        if na is None or nb is None or na == nb:
            continue
        g.setdefault(na, {}).setdefault(nb, set()).update(fs)
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = set()
            while True:
                w = stack.pop()
                on.discard(w)
                scc.add(w)
                if w == v:
                    break
            if len(scc) > 1:
                sccs.append(scc)

    for v in sorted(set(g) | {w for d in g.values() for w in d}):
        if v not in index:
            visit(v)
    return [(scc, [(a, b, sorted(g[a][b])) for a in sorted(scc) for b in sorted(g.get(a, {}))
                   if b in scc]) for scc in sccs]


def name(t):
    return '::'.join(t) or 'crate'


def circles(root):
    """Lines describing every circle of the crate at `root` (empty: none)."""
    crate = Crate(root)
    edges = crate.edges()
    lines = []
    for f in crate.folders():
        node = (lambda m, f=f: m[:len(f) + 1] if len(m) > len(f) and m[:len(f)] == f else None)
        title = 'top-level modules' if not f else f'submodules of {name(f)}'
        for scc, es in cycles(edges, node):
            lines.append(f'{root}: a circle among the {title}: '
                         f'{", ".join(sorted(name(n) for n in scc))}')
            for a, b, fs in es:
                lines.append(f'  {name(a)} -> {name(b)}   ({", ".join(fs)})')
    return lines


def self_test():
    """Small crates with and without circles; exits 1 when the checker misreads one."""
    cases = {
        'crate:: paths between top-level modules': (True, {
            'lib.rs': 'mod a; mod b;',
            'a.rs': 'use crate::b::B; pub struct A;',
            'b.rs': 'pub struct B; fn f() -> crate::a::A { todo!() }',
        }),
        'crate:: paths two folders deep': (True, {
            'lib.rs': 'mod a;', 'a/mod.rs': 'mod b;', 'a/b/mod.rs': 'mod x; mod y;',
            'a/b/x.rs': 'use crate::a::b::y::Y; pub struct X;',
            'a/b/y.rs': 'use crate::a::b::{x::X, self}; pub struct Y;',
        }),
        'super:: paths between siblings': (True, {
            'lib.rs': 'mod a;', 'a/mod.rs': 'mod x; mod y;',
            'a/x.rs': 'use super::y::Y; pub struct X;',
            'a/y.rs': 'pub struct Y(super::x::X);',
        }),
        'super::super:: paths into a cousin folder': (True, {
            'lib.rs': 'mod a; mod b;', 'a/mod.rs': 'mod x;', 'b/mod.rs': 'mod y;',
            'a/x.rs': 'use super::super::b::y::Y; pub struct X;',
            'b/y.rs': 'use crate::a::x::X; pub struct Y;',
        }),
        'a name re-exported by the folder': (True, {
            'lib.rs': 'mod a;', 'a/mod.rs': 'mod x; mod y; pub use y::Y;',
            'a/x.rs': 'use super::Y; pub struct X;',
            'a/y.rs': 'use super::x::X; pub struct Y;',
        }),
        'self:: paths in a folder file': (True, {
            'lib.rs': 'mod a;', 'a/mod.rs': 'mod x; mod y;',
            'a/x.rs': 'use crate::a::y; pub struct X;',
            'a/y.rs': 'pub struct Y; fn f() { let _ = crate::a::x::X; }',
        }),
        'a folder and its own submodules (no circle among the submodules)': (False, {
            'lib.rs': 'mod a; pub use a::Table;',
            'a/mod.rs': 'mod x; mod y; pub use x::build; pub struct Table;',
            'a/x.rs': 'use super::Table; use super::y::scan; pub fn build() {}',
            'a/y.rs': 'use super::Table; pub fn scan() {}',
        }),
        'imports in test code, comments and strings': (False, {
            'lib.rs': 'mod a; mod b;',
            'a.rs': 'use crate::b::B; pub struct A;',
            'b.rs': ('pub struct B; // crate::a::A\n'
                     'const S: &str = "crate::a::A";\n'
                     '#[cfg(test)]\nmod tests { use crate::a::A; }\n'
                     '#[cfg(all(test, target_os = "linux"))]\nfn t() { let _ = crate::a::A; }\n'),
        }),
        'a test-only module file': (False, {
            'lib.rs': 'mod a; mod b; #[cfg(test)] mod fixtures;',
            'a.rs': 'use crate::b::B; pub struct A;',
            'b.rs': 'pub struct B;',
            'fixtures.rs': 'use crate::a::A; use crate::b::B;',
        }),
    }
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, (title, (circle, files)) in enumerate(cases.items()):
            root = os.path.join(tmp, f'case{k}')
            for path, text in files.items():
                full = os.path.join(root, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, 'w', encoding='utf-8') as fh:
                    fh.write(text + '\n')
            found = circles(root)
            if bool(found) != circle:
                bad += 1
                print(f'module_circles self-test: {title}: '
                      f'{"missed the circle" if circle else "a circle where there is none"}')
                for line in found:
                    print('  ' + line)
    return 1 if bad else 0


def main(args):
    if args == ['--self-test']:
        return self_test()
    lines = [line for root in args for line in circles(root)]
    for line in lines:
        print(line)
    return 1 if lines else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
