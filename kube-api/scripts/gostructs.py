"""The tagged fields of the structs in a Go source file, shared by the kube-api scripts."""
import re

STRUCT = re.compile(r'^type (\w+) struct \{\s*$')


def tagged_fields(go_source, field):
    """Yields (struct name, match of `field`) for each field line of each struct, skipping
    comments; `field` is a compiled regex whose match is what the caller reads."""
    struct = None
    for line in go_source.splitlines():
        if struct is None:
            m = STRUCT.match(line)
            if m:
                struct = m.group(1)
            continue
        if line.startswith('}'):
            struct = None
            continue
        m = field.match(line)
        if not m or line.strip().startswith('//'):
            continue
        yield struct, m
