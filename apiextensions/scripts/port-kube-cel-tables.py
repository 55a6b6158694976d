#!/usr/bin/env python3
# Copyright The apiserver4j authors.
# SPDX-License-Identifier: Apache-2.0
"""Ports the case tables of kube's CEL validation tests to a JSON fixture.

Reads apiextensions-apiserver's pkg/apiserver/schema/cel/validation_test.go (a Go source file,
given on the command line), evaluates the Go literals of the tables TestValidationExpressions and
TestValidationExpressionsAtSchemaLevels with a small evaluator of the subset of Go they use, and
writes the cases (schemas as OpenAPI v3 JSON, objects as JSON) to stdout. Kube's table helpers
(objs, schemas, listType, withRule, ...) are re-implemented here from their documented effect.

Usage: port-kube-cel-tables.py validation_test.go TAG > kube-cel-validation-cases.yaml
"""
import copy
import json
import re
import sys

MAX_INT64 = 2**63 - 1

# ---------------------------------------------------------------------------------------------
# tokens

TOKEN = re.compile(r'''
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:\\.|[^"\\])*")
  | (?P<rune>'(?:\\.|[^'\\])+')
  | (?P<num>0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>:=|==|!=|&&|\|\||\.\.\.|[{}()\[\],:;&*.+\-!=<>/%|])
''', re.S | re.X)


def go_unquote(s):
    body = s[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != '\\':
            out += c.encode('utf-8')
            i += 1
            continue
        n = body[i + 1]
        simple = {'n': '\n', 't': '\t', 'r': '\r', '\\': '\\', '"': '"', "'": "'", 'a': '\a',
                  'b': '\b', 'f': '\f', 'v': '\v'}
        if n in simple:
            out += simple[n].encode()
            i += 2
        elif n == 'x':
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif n in '01234567':
            out.append(int(body[i + 1:i + 4], 8))
            i += 4
        elif n == 'u':
            out += chr(int(body[i + 2:i + 6], 16)).encode('utf-8')
            i += 6
        elif n == 'U':
            out += chr(int(body[i + 2:i + 10], 16)).encode('utf-8')
            i += 10
        else:
            raise ValueError('escape ' + n)
    return out.decode('utf-8')


def tokenize(src):
    toks = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            raise ValueError('cannot tokenize at ' + src[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup
        text = m.group(kind)
        if kind == 'ws':
            continue
        if kind == 'raw':
            toks.append(('str', text[1:-1]))
        elif kind == 'str':
            toks.append(('str', go_unquote(text)))
        elif kind == 'rune':
            toks.append(('num', ord(go_unquote('"' + text[1:-1] + '"'))))
        elif kind == 'num':
            t = text.replace('_', '')
            if t.lower().startswith('0x'):
                toks.append(('num', int(t, 16)))
            elif re.fullmatch(r'\d+', t):
                toks.append(('num', int(t)))
            else:
                toks.append(('num', float(t)))
        else:
            toks.append((kind, text))
    toks.append(('eof', None))
    return toks


# ---------------------------------------------------------------------------------------------
# values: Go structs are dicts with '__type__'; schema.Structural values are converted to
# OpenAPI JSON when a struct literal of that type is built.

class Struct(dict):
    pass


def openapi_name(field):
    if field.startswith('X') and field[1:2].isupper():
        return 'x-kubernetes-' + re.sub(r'(?<!^)([A-Z])', r'-\1', field[1:]).lower()
    return field[0].lower() + field[1:]


def schema_of(struct):
    """A schema.Structural or NestedValueValidation struct as OpenAPI JSON."""
    out = {}
    for k, v in struct.items():
        if k == '__type__':
            continue
        if k in ('Generic', 'Extensions', 'ValueValidation', 'ValidationExtensions'):
            if v is not None:
                out.update(v if not isinstance(v, Struct) else schema_of(v))
        elif k == 'Properties':
            out['properties'] = v
        elif k == 'Items':
            if v is not None:
                out['items'] = v
        elif k == 'AdditionalProperties':
            if v is not None:
                out['additionalProperties'] = v
        elif k == 'Default':
            out['default'] = v['Object'] if isinstance(v, dict) and 'Object' in v else v
        elif k == 'Enum':
            out['enum'] = [e['Object'] for e in v]
        elif k in ('AllOf', 'OneOf', 'AnyOf'):
            out[openapi_name(k)] = [e if not isinstance(e, Struct) else schema_of(e) for e in v]
        elif k == 'XValidations':
            out['x-kubernetes-validations'] = [rule_of(r) for r in v]
        elif v is None or v is False or v == '':
            continue
        else:
            out[openapi_name(k)] = v
    return out


def rule_of(r):
    return {openapi_name(k): v for k, v in r.items() if k != '__type__' and v not in (None, '')}


def finish_struct(type_name, fields):
    s = Struct(fields)
    s['__type__'] = type_name
    if type_name in ('schema.Structural', 'schema.NestedValueValidation'):
        return schema_of(s)
    if type_name == 'schema.StructuralOrBool':
        if s.get('Structural') is not None:
            return s['Structural']
        return bool(s.get('Bool'))
    if type_name in ('schema.Generic', 'schema.Extensions', 'schema.ValueValidation',
                     'schema.ValidationExtensions'):
        return schema_of(s)
    if type_name == 'apiextensions.ValidationRule':
        return rule_of(s)
    return s


# ---------------------------------------------------------------------------------------------
# kube's table helpers

def primitive(typ, fmt=''):
    s = {'type': typ}
    if fmt:
        s['format'] = fmt
    return s


VARS = {
    'integerType': primitive('integer'), 'int32Type': primitive('integer', 'int32'),
    'int64Type': primitive('integer', 'int64'), 'numberType': primitive('number'),
    'floatType': primitive('number', 'float'), 'doubleType': primitive('number', 'double'),
    'stringType': primitive('string'), 'byteType': primitive('string', 'byte'),
    'booleanType': primitive('boolean'), 'durationFormat': primitive('string', 'duration'),
    'dateFormat': primitive('string', 'date'), 'dateTimeFormat': primitive('string', 'date-time'),
    'math.MaxInt64': MAX_INT64, 'math.MaxInt32': 2**31 - 1, 'math.MinInt64': -2**63,
    'math.MaxInt': MAX_INT64, 'math.MaxUint64': 2**64 - 1,
    'math.MaxFloat64': sys.float_info.max, 'math.MaxFloat32': 3.4028234663852886e+38,
    'true': True, 'false': False, 'nil': None,
}


def array_type(list_type, keys, items):
    s = {'type': 'array', 'x-kubernetes-list-type': list_type, 'items': copy.deepcopy(items)}
    if keys and list_type == 'map':
        s['x-kubernetes-list-map-keys'] = list(keys)
    return s


def object_type(props):
    return {'type': 'object', 'properties': copy.deepcopy(props)}


def with_rule(s, rule):
    s = copy.deepcopy(s)
    s['x-kubernetes-validations'] = [{'rule': rule}]
    return s


def with_value(key):
    def f(s, v):
        s = copy.deepcopy(s)
        s[key] = v
        return s
    return f


def go_sprintf(fmt, *args):
    args = list(args)

    def repl(m):
        verb = m.group(1)
        if verb == '%':
            return '%'
        a = args.pop(0)
        if verb == 'd':
            return str(int(a))
        if verb == 's' or verb == 'v':
            return str(a)
        if verb == 'f':
            return '%f' % a
        if verb == 'q':
            return json.dumps(a)
        raise ValueError('verb ' + verb)
    return re.sub(r'%([a-z%])', repl, fmt)


def gen_match_selector_schema(rule):
    return with_rule(object_type({'matchExpressions': array_type('atomic', None, object_type({
        'key': VARS['stringType'], 'operator': VARS['stringType'],
        'values': array_type('atomic', None, VARS['stringType'])}))}), rule)


FUNCS = {
    'objs': lambda *v: {'val%d' % (i + 1): x for i, x in enumerate(v)},
    'schemas': lambda *v: object_type({'val%d' % (i + 1): x for i, x in enumerate(v)}),
    'objectType': object_type, 'objectTypePtr': object_type,
    'listType': lambda i: array_type('atomic', None, i),
    'listTypePtr': lambda i: array_type('atomic', None, i),
    'listSetType': lambda i: array_type('set', None, i),
    'listMapType': lambda k, i: array_type('map', k, i),
    'listMapTypePtr': lambda k, i: array_type('map', k, i),
    'mapType': lambda v: {'type': 'object', 'additionalProperties': copy.deepcopy(v)},
    'mapTypePtr': lambda v: {'type': 'object', 'additionalProperties': copy.deepcopy(v)},
    'intOrStringType': lambda: {'x-kubernetes-int-or-string': True},
    'withRule': with_rule, 'withRulePtr': with_rule, 'cloneWithRule': with_rule,
    'withMaxLength': with_value('maxLength'), 'withMaxItems': with_value('maxItems'),
    'withMaxProperties': with_value('maxProperties'),
    'withDefault': lambda d, s: with_value('default')(s, d),
    'withNullable': lambda n, s: with_value('nullable')(s, n) if n else copy.deepcopy(s),
    'withNullablePtr': lambda n, s: with_value('nullable')(s, n) if n else copy.deepcopy(s),
    'nilInterfaceOfStringSlice': lambda: None,
    'primitiveType': primitive,
    'fmt.Sprintf': go_sprintf,
    'ValsEqualThemselvesAndDataLiteral': lambda a, b, lit: go_sprintf(
        '%s == %s && %s == %s && %s == %s', a, lit, lit, a, a, b),
    'genString': lambda n, c: (chr(c) if isinstance(c, int) else c) * n,
    'strings.Repeat': lambda s, n: s * n,
    'genMatchSelectorSchema': gen_match_selector_schema,
    'int64': int, 'int32': int, 'int': int, 'uint64': int,
    'float64': float, 'float32': float,
    'ptr.To': lambda v: v,
}


# ---------------------------------------------------------------------------------------------
# parser and evaluator of Go expressions

class Parser:
    def __init__(self, toks, pos=0):
        self.toks = toks
        self.pos = pos

    def peek(self, k=0):
        return self.toks[self.pos + k]

    def next(self):
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def expect(self, text):
        t = self.next()
        if t[1] != text:
            raise ValueError('expected %s, got %s near %s' % (text, t, self.toks[self.pos:self.pos + 8]))
        return t

    def at(self, text):
        return self.peek()[1] == text and self.peek()[0] == 'op'

    def parse_type(self):
        if self.at('*'):
            self.next()
            return ('ptr', self.parse_type())
        if self.at('['):
            self.next()
            self.expect(']')
            return ('slice', self.parse_type())
        t = self.next()
        if t[1] == 'map':
            self.expect('[')
            key = self.parse_type()
            self.expect(']')
            return ('map', key, self.parse_type())
        if t[1] == 'interface':
            self.expect('{')
            self.expect('}')
            return ('any',)
        if t[1] == 'struct':
            self.expect('{')
            depth = 1
            while depth:
                x = self.next()
                depth += {'{': 1, '}': -1}.get(x[1], 0) if x[0] == 'op' else 0
            return ('struct',)
        name = t[1]
        if self.at('.'):
            self.next()
            name += '.' + self.next()[1]
        return ('named', name)

    def parse_expr(self):
        v = self.parse_unary()
        while self.peek()[0] == 'op' and self.peek()[1] in ('+', '-', '*'):
            op = self.next()[1]
            w = self.parse_unary()
            v = v + w if op == '+' else v - w if op == '-' else v * w
        return v

    def parse_unary(self):
        if self.at('&'):
            self.next()
            return self.parse_unary()
        if self.at('-'):
            self.next()
            return -self.parse_unary()
        return self.parse_primary()

    def parse_composite(self, typ):
        self.expect('{')
        if typ[0] == 'map':
            out = {}
        elif typ[0] == 'slice':
            out = []
        else:
            out = {}
        while not self.at('}'):
            elem_type = typ[2] if typ[0] == 'map' else typ[1] if typ[0] in ('slice', 'ptr') else None
            if typ[0] == 'map':
                key = self.parse_value(typ[1])
                self.expect(':')
                out[key] = self.parse_value(elem_type)
            elif typ[0] == 'slice':
                out.append(self.parse_value(elem_type))
            else:
                key = self.next()[1]
                self.expect(':')
                out[key] = self.parse_value(None)
            if self.at(','):
                self.next()
        self.expect('}')
        if typ[0] == 'named':
            return finish_struct(typ[1], out)
        if typ[0] == 'struct':
            return out
        return out

    def parse_value(self, elided_type):
        if self.at('{'):
            t = elided_type
            while t and t[0] == 'ptr':
                t = t[1]
            return self.parse_composite(t)
        if self.at('&') and self.peek(1)[1] == '{':
            self.next()
            return self.parse_value(elided_type)
        return self.parse_expr()

    def parse_primary(self):
        t = self.peek()
        if t[0] == 'str' or t[0] == 'num':
            self.next()
            return t[1]
        if self.at('('):
            self.next()
            v = self.parse_expr()
            self.expect(')')
            return v
        if self.at('[') or t[1] in ('map', 'struct'):
            typ = self.parse_type()
            return self.parse_composite(typ)
        if t[0] != 'ident':
            raise ValueError('unexpected %s near %s' % (t, self.toks[self.pos:self.pos + 8]))
        self.next()
        name = t[1]
        if self.at('.') and self.peek(1)[0] == 'ident':
            self.next()
            name += '.' + self.next()[1]
        if self.at('['):  # generic instantiation, e.g. ptr.To[int64]
            self.next()
            self.parse_type()
            self.expect(']')
        if self.at('{') and (name[0].isupper() or '.' in name) and name not in VARS:
            return self.parse_composite(('named', name))
        if self.at('('):
            self.next()
            args = []
            while not self.at(')'):
                args.append(self.parse_value(None))
                if self.at(','):
                    self.next()
            self.expect(')')
            if name not in FUNCS:
                raise ValueError('no function ' + name)
            return FUNCS[name](*args)
        if name not in VARS:
            raise ValueError('no variable ' + name)
        return copy.deepcopy(VARS[name])


def table(toks, func):
    i = next(i for i, t in enumerate(toks) if t[1] == func and toks[i - 1][1] == 'func')
    i = next(j for j in range(i, len(toks)) if toks[j][1] == 'tests')
    p = Parser(toks, i + 2)  # tests :=
    typ = p.parse_type()
    return p.parse_composite(typ)


def main():
    src = open(sys.argv[1], encoding='utf-8').read()
    tag = sys.argv[2]
    toks = tokenize(src)
    out = {'expressions': [], 'schemaLevels': []}
    for case in table(toks, 'TestValidationExpressions'):
        c = {'name': case['name'], 'schema': case['schema'], 'object': case.get('obj')}
        for key, name in (('oldSchema', 'oldSchema'), ('oldObj', 'oldObject'),
                          ('costBudget', 'costBudget'), ('isRoot', 'isRoot'),
                          ('expectSkipped', 'expectSkipped'), ('expectedCost', 'expectedCost')):
            if key in case:
                c[name] = case[key]
        if 'oldObj' in case and case['oldObj'] is None:
            c['oldObjectNull'] = True
        c['valid'] = case.get('valid') or []
        c['errors'] = case.get('errors') or {}
        out['expressions'].append(c)
    for case in table(toks, 'TestValidationExpressionsAtSchemaLevels'):
        c = {'name': case['name'], 'schema': case['schema'], 'object': case.get('obj')}
        if 'oldObj' in case:
            c['oldObject'] = case['oldObj']
        c['errors'] = case.get('errors') or []
        out['schemaLevels'].append(c)
    print('# The case tables of kube\'s TestValidationExpressions and')
    print('# TestValidationExpressionsAtSchemaLevels (apiextensions-apiserver %s,' % tag)
    print('# pkg/apiserver/schema/cel/validation_test.go), ported by')
    print('# apiextensions/scripts/port-kube-cel-tables.py: schemas as OpenAPI v3 JSON, objects as')
    print('# JSON (a subset of YAML that keeps the Go values exact). Expected outcomes are kube\'s.')
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == '__main__':
    main()
