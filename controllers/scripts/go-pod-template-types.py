#!/usr/bin/env python3
"""Prints the Go struct layout of kube's v1.PodTemplateSpec, for the deployment controller's
pod-template-hash.

kube hashes a Pod template (ComputeHash) by printing the Go value with go-spew's "%#v", which
writes every field of every struct in declaration order with its Go type, set or not. The JSON
form of a template keeps none of that, so this script reads the Go sources of k8s.io/api and
k8s.io/apimachinery at the tags of ../shared/api/README.md and prints, for each type reachable
from v1.PodTemplateSpec:

    struct <Go type>                      a struct, followed by its fields in order:
    field <Go name> <Go type> <json name> (json name "-": not in JSON; "*": inlined)
    named <Go type> <underlying Go type>  a named non-struct type

Go types are written as reflect.Type.String() prints them (v1.PodSpec, *int64,
map[string]string). resource.Quantity, v1.Time, intstr.IntOrString and v1.FieldsV1 are left
opaque: their JSON forms are not their Go fields, and the hasher handles them itself.

Usage (each argument is a git directory of a fetched upstream repository, with its tag):
    go-pod-template-types.py api=<git-dir>@v0.36.3 apimachinery=<git-dir>@v0.36.3 \
        > src/main/resources/io/apiserver4j/controllers/internal/pod-template-go-types.txt
"""
import re
import subprocess
import sys

STRUCT = re.compile(r'^type (\w+) struct \{\s*$')
NAMED = re.compile(r'^type (\w+) (?!struct\b)([^\s/][^/]*?)\s*(//.*)?$')
NAMED_FIELD = re.compile(r'^\s*(\w+)\s+([^`\s]+)\s*`([^`]*)`')
EMBEDDED = re.compile(r'^\s*([\w.*]+)\s*`([^`]*)`')
BUILTIN = {'string', 'bool', 'byte', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8',
           'uint16', 'uint32', 'uint64', 'float32', 'float64'}
OPAQUE = {'resource.Quantity', 'v1.Time', 'intstr.IntOrString', 'v1.FieldsV1'}

# (repository, directory, Go package name, import aliases used by the files of the directory)
SOURCES = [
    ('api', 'core/v1', 'core', {'metav1': 'meta', 'resource': 'resource', 'intstr': 'intstr',
                                'types': 'types'}),
    ('apimachinery', 'pkg/apis/meta/v1', 'meta', {'types': 'types'}),
    ('apimachinery', 'pkg/types', 'types', {}),
]
# the package name reflect prints for each package
PRINTED = {'core': 'v1', 'meta': 'v1', 'types': 'types', 'resource': 'resource',
           'intstr': 'intstr'}


def git(gitdir, *args):
    return subprocess.run(['git', '--git-dir', gitdir] + list(args), capture_output=True,
                          text=True, check=True).stdout


def read(repos):
    """{(package, name): ('struct', [(go name, go type, json name)]) | ('named', go type)}"""
    decls = {}
    for repo, directory, package, aliases in SOURCES:
        gitdir, tag = repos[repo]
        files = git(gitdir, 'ls-tree', '--name-only', tag + ':' + directory).split()
        for f in files:
            if not f.endswith('.go') or f.endswith('_test.go') or f.startswith('zz_') \
                    or f.startswith('generated'):
                continue
            src = git(gitdir, 'show', tag + ':' + directory + '/' + f)
            struct, fields = None, None
            for line in src.splitlines():
                if struct is None:
                    m = STRUCT.match(line)
                    if m:
                        struct, fields = m.group(1), []
                        continue
                    m = NAMED.match(line)
                    if m and not m.group(2).startswith('('):
                        decls[(package, m.group(1))] = ('named', (m.group(2), package, aliases))
                    continue
                if line.startswith('}'):
                    decls[(package, struct)] = ('struct', fields)
                    struct = None
                    continue
                if line.strip().startswith('//'):
                    continue
                m = NAMED_FIELD.match(line)
                if m:
                    fields.append((m.group(1), (m.group(2), package, aliases), json(m.group(3))))
                    continue
                m = EMBEDDED.match(line)
                if m:
                    t = m.group(1)
                    name = t.lstrip('*').split('.')[-1]
                    j = json(m.group(2))
                    fields.append((name, (t, package, aliases), '*' if j == '' else j))
    return decls


def json(tags):
    m = re.search(r'json:"([^"]*)"', tags)
    if not m:
        return '-'
    return m.group(1).split(',')[0]


def resolve(t, package, aliases):
    """(printed type, [(package, name) of each named type it mentions])"""
    if t.startswith('*'):
        p, refs = resolve(t[1:], package, aliases)
        return '*' + p, refs
    if t.startswith('[]'):
        p, refs = resolve(t[2:], package, aliases)
        return '[]' + p, refs
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
        k, krefs = resolve(t[4:i], package, aliases)
        v, vrefs = resolve(t[i + 1:], package, aliases)
        return 'map[' + k + ']' + v, krefs + vrefs
    if t in BUILTIN:
        return t, []
    if '.' in t:
        alias, name = t.split('.')
        pkg = aliases[alias]
    else:
        pkg, name = package, t
    return PRINTED[pkg] + '.' + name, [(pkg, name)]


def main(args):
    repos = {}
    for a in args:
        name, rest = a.split('=', 1)
        gitdir, tag = rest.rsplit('@', 1)
        repos[name] = (gitdir, tag)
    decls = read(repos)
    out, seen, printed = [], set(), {}
    todo = [('core', 'PodTemplateSpec')]
    while todo:
        key = todo.pop(0)
        if key in seen:
            continue
        seen.add(key)
        name = PRINTED[key[0]] + '.' + key[1]
        if name in OPAQUE:
            continue
        if name in printed and printed[name] != key:
            sys.exit('two reachable types print as ' + name)
        printed[name] = key
        kind, body = decls[key]
        if kind == 'named':
            p, refs = resolve(*body)
            out.append('named ' + name + ' ' + p)
            todo.extend(refs)
            continue
        out.append('struct ' + name)
        for go_name, t, j in body:
            p, refs = resolve(*t)
            out.append('field ' + go_name + ' ' + p + ' ' + j)
            todo.extend(refs)
    print('# generated by controllers/scripts/go-pod-template-types.py from ' + ' '.join(
        r + '@' + repos[r][1] for r in sorted(repos)) + '; do not edit')
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1:])
