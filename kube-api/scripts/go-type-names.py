#!/usr/bin/env python3
"""Prints the Go type of each API struct field whose type is a named non-struct Go type.

kube's decoding errors name the Go type a value could not be stored in ("of type v1.Protocol",
"of type []v1.Capability", "of type v1.ResourceList", "of type types.UID"). The OpenAPI
definitions keep only the JSON type of such fields (string, array, object), so this script
reads the Go sources of the upstream repositories at the tags of ../shared/api/README.md and
prints one line per such field, keyed by the OpenAPI definition name of the struct:

    <definition> <json field> <Go type as reflect.Type.String() prints it>

Usage (each argument is a git directory of a fetched upstream repository, with its tag):
    go-type-names.py api=<git-dir>@v0.36.3 apimachinery=<git-dir>@v0.36.3 \
        apiextensions-apiserver=<git-dir>@v0.36.3 kube-aggregator=<git-dir>@v0.36.2 \
        > src/go/go-type-names.txt
"""
import re
import subprocess
import sys

from gostructs import tagged_fields

NAMED = re.compile(r'^type (\w+) (?!struct\b)(\S.*?)\s*(//.*)?$')
FIELD = re.compile(r'^\s*(\w+)\s+([^`/\s][^`]*?)\s*`([^`]*)`')
IMPORT = re.compile(r'^\s*(\w+\s+)?"([^"]+)"\s*$')
BUILTIN = {'string', 'bool', 'byte', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8',
           'uint16', 'uint32', 'uint64', 'float32', 'float64', 'interface{}', 'any'}

# repository directories holding API types, and the Go import path of each repository
EXTRA_DIRS = {
    'apimachinery': ['pkg/apis/meta/v1', 'pkg/types', 'pkg/util/intstr', 'pkg/api/resource',
                     'pkg/runtime'],
    'apiextensions-apiserver': ['pkg/apis/apiextensions/v1'],
    'kube-aggregator': ['pkg/apis/apiregistration/v1'],
}


def git(gitdir, *args):
    return subprocess.run(['git', '--git-dir', gitdir] + list(args), capture_output=True,
                          text=True, check=True).stdout


def sources(gitdir, ref, d):
    names = git(gitdir, 'ls-tree', '--name-only', ref, d + '/').split()
    for n in sorted(names):
        if n.endswith('.go') and not n.endswith('_test.go') and 'generated' not in n \
                and 'zz_' not in n:
            yield git(gitdir, 'show', ref + ':' + n)


def imports(src):
    out = {}
    block = False
    for line in src.splitlines():
        if line.startswith('import ('):
            block = True
            continue
        if block and line.startswith(')'):
            break
        m = IMPORT.match(line[len('import '):] if line.startswith('import "') else line) \
            if (block or line.startswith('import "')) else None
        if m:
            path = m.group(2)
            alias = (m.group(1) or '').strip() or path.rsplit('/', 1)[-1]
            out[alias] = path
    return out


def main(argv):
    repos = {}
    for a in argv:
        name, rest = a.split('=', 1)
        gitdir, ref = rest.rsplit('@', 1)
        repos[name] = (gitdir, ref)
    dirs = []
    gitdir, ref = repos['api']
    for path in git(gitdir, 'ls-tree', '-r', '--name-only', ref).split():
        if path.endswith('/types.go'):
            dirs.append(('api', path.rsplit('/', 1)[0]))
    for repo, ds in EXTRA_DIRS.items():
        dirs += [(repo, d) for d in ds]

    files = []   # (import path, package dir, source)
    named = set()  # (import path, type name) of named non-struct types
    for repo, d in dirs:
        gitdir, ref = repos[repo]
        ipath = 'k8s.io/%s/%s' % (repo, d)
        for src in sources(gitdir, ref, d):
            files.append((ipath, repo, d, src))
            for line in src.splitlines():
                m = NAMED.match(line)
                if m and not m.group(2).startswith('='):
                    named.add((ipath, m.group(1)))

    def render(t, ipath, imps, refs):
        t = t.strip()
        while t.startswith('*'):
            t = t[1:]
        if t.startswith('[]'):
            return '[]' + render(t[2:], ipath, imps, refs)
        if t.startswith('map['):
            depth, i = 0, 3
            while True:
                if t[i] == '[':
                    depth += 1
                elif t[i] == ']':
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            return 'map[' + render(t[4:i], ipath, imps, refs) + ']' + \
                render(t[i + 1:], ipath, imps, refs)
        if t in BUILTIN:
            return 'uint8' if t == 'byte' else t
        if '.' in t:
            alias, name = t.split('.', 1)
            target = imps.get(alias, alias)
        else:
            target, name = ipath, t
        if (target, name) in named:
            refs.append(True)
        return target.rsplit('/', 1)[-1] + '.' + name

    out = []
    for ipath, repo, d, src in files:
        imps = imports(src)
        definition = 'io.k8s.%s.%s' % (repo, d.replace('/', '.'))
        for struct, m in tagged_fields(src, FIELD):
            js = re.search(r'json:"([^"]*)"', m.group(3))
            if not js:
                continue
            jname = js.group(1).split(',')[0]
            if jname in ('', '-'):
                continue
            refs = []
            rendered = render(m.group(2), ipath, imps, refs)
            if refs:
                out.append('%s.%s %s %s' % (definition, struct, jname, rendered))
    print('# generated by kube-api/scripts/go-type-names.py from the Go sources of '
          + ', '.join('%s@%s' % (k, v[1]) for k, v in sorted(repos.items())))
    for line in sorted(set(out)):
        print(line)


main(sys.argv[1:])
