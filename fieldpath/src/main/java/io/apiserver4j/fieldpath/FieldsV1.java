/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code FieldsV1} codec: a {@link FieldSet} as the JSON object stored in
 * {@code metadata.managedFields[*].fieldsV1}, byte-identical to kube-apiserver
 * (structured-merge-diff's {@code Set.ToJSON} / {@code FromJSON}).
 *
 * <p>Encoding: keys are serialized path elements ({@code f:}, {@code k:}, {@code v:},
 * {@code i:}; see {@link PathElements}) in element order; a leaf is {@code {}}; a node that is a
 * member and has children starts with {@code ".":{}}; strings use Go's HTML-safe escaping. The
 * empty set is {@code {}}.
 *
 * <p>Decoding accepts what SMD accepts: whitespace around the document, {@code null} for the
 * empty set and for any leaf, keys in any order (duplicates: members merge, a repeated child key
 * replaces the earlier one), and silently drops keys with an unknown type character (e.g.
 * {@code z:foo}) together with their subtree. A node whose only keys were dropped, or that is
 * {@code {}} or {@code null}, is a member. Anything else malformed, or trailing content after the
 * top-level value, is a {@link FieldsV1Exception} naming the problem and its position. Nesting is
 * limited to {@value #MAX_DEPTH} levels. Thread-safe.
 */
public final class FieldsV1 {
  /** Deepest accepted nesting of the FieldsV1 object. */
  public static final int MAX_DEPTH = 1000;
  private static final int MAX_CACHED_ELEMENTS = 8192;
  private static final int MAX_SHARED_FIELD_NAMES = 16384;
  /**
   * Field-name elements shared by every decoding ({@code f:spec}, {@code f:replicas}, ...): the
   * same few names come back in every object's managed fields, and one shared name keeps its hash
   * and its schema lookups cheap. Bounded; names beyond the bound are parsed per document.
   */
  private static final ConcurrentHashMap<String, PathElement> FIELD_NAMES =
      new ConcurrentHashMap<>();
  /**
   * The other way, for {@link #toValue}: the key of a field name as one shared string, so that
   * the stored tree's keys, looked up by name again on the next write, keep their hash.
   */
  private static final ConcurrentHashMap<FieldName, String> FIELD_KEYS =
      new ConcurrentHashMap<>();

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
      .build();

  private FieldsV1() {}

  // ---------------------------------------------------------------- decode

  /**
   * Decodes FieldsV1 JSON text, as kube stores it in {@code fieldsV1}.
   *
   * @param json the JSON text
   * @return the field set; {@code {}} is the empty set
   * @throws FieldsV1Exception when the JSON is malformed, not FieldsV1, or nested deeper than {@link #MAX_DEPTH}
   */
  public static FieldSet decode(String json) {
    requireNonNull(json, "json");
    try (JsonParser p = FACTORY.createParser(json)) {
      return new Decoder().document(p);
    } catch (IOException e) {
      throw wrap(e);
    }
  }

  /**
   * Decodes FieldsV1 JSON as UTF-8 bytes.
   *
   * @param json the JSON bytes
   * @return the field set
   * @throws FieldsV1Exception when the JSON is malformed, not FieldsV1, or nested deeper than {@link #MAX_DEPTH}
   */
  public static FieldSet decode(byte[] json) {
    requireNonNull(json, "json");
    try (JsonParser p = FACTORY.createParser(json)) {
      return new Decoder().document(p);
    } catch (IOException e) {
      throw wrap(e);
    }
  }

  /**
   * Decodes a FieldsV1 object already parsed into a value tree (the form it has inside an
   * object's {@code metadata.managedFields}). {@code null} is the empty set.
   *
   * @param fieldsV1 the parsed FieldsV1 map
   * @return the field set
   * @throws FieldsV1Exception when the value is not a FieldsV1 map or an element is malformed
   */
  public static FieldSet decode(Value fieldsV1) {
    requireNonNull(fieldsV1, "fieldsV1");
    if (fieldsV1.isNull()) {
      return FieldSet.empty();
    }
    if (!(fieldsV1 instanceof MapValue m)) {
      throw new FieldsV1Exception("invalid FieldsV1: expected an object or null, found "
          + fieldsV1.kind().name().toLowerCase(java.util.Locale.ROOT));
    }
    return new Decoder().tree(m, "", 1);
  }

  private static FieldsV1Exception wrap(IOException e) {
    if (e instanceof JsonProcessingException j) {
      return new FieldsV1Exception("invalid FieldsV1 JSON" + where(j.getLocation()) + ": "
          + j.getOriginalMessage(), e);
    }
    return new FieldsV1Exception("cannot read FieldsV1: " + e.getMessage(), e);
  }

  private static String where(JsonLocation loc) {
    return loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
  }

  /** Single-use decoding state: stacks of the nodes under construction. */
  private static final class Decoder {
    private PathElement[] memberStack = new PathElement[64];
    private int memberTop;
    private PathElement[] childElementStack = new PathElement[32];
    private FieldSet[] childStack = new FieldSet[32];
    private int childTop;
    // whether the node just read is itself a member of its parent
    private boolean lastIsMember;
    // Keys repeat a lot (f:name, i:0, k:{"type":"Ready"}): parse each distinct key once per
    // document and share the element, which also shrinks the decoded set.
    private final HashMap<String, PathElement> elements = new HashMap<>();

    private PathElement element(String key) {
      PathElement pe = elements.get(key);
      if (pe == null) {
        pe = FIELD_NAMES.get(key);
        if (pe == null) {
          pe = Elements.parse(key);
          if (pe instanceof FieldName && FIELD_NAMES.size() < MAX_SHARED_FIELD_NAMES) {
            FIELD_NAMES.putIfAbsent(key, pe);
          }
        }
        if (elements.size() < MAX_CACHED_ELEMENTS) {
          elements.put(key, pe);
        }
      }
      return pe;
    }

    FieldSet document(JsonParser p) throws IOException {
      JsonToken t = p.nextToken();
      FieldSet result;
      if (t == JsonToken.VALUE_NULL) {
        result = FieldSet.empty();
      } else if (t == JsonToken.START_OBJECT) {
        result = object(p);
      } else {
        throw new FieldsV1Exception("invalid FieldsV1" + where(p.currentTokenLocation())
            + ": expected '{' or null, found " + describe(t));
      }
      JsonToken trailing;
      JsonLocation at = p.currentLocation();
      try {
        trailing = p.nextToken();
      } catch (JsonProcessingException e) {
        trailing = JsonToken.NOT_AVAILABLE;
      }
      if (trailing != null) {
        throw new FieldsV1Exception("invalid FieldsV1" + where(at)
            + ": unexpected trailing data after JSON object");
      }
      return result;
    }

    private static String describe(JsonToken t) {
      if (t == null) {
        return "end of input";
      }
      return switch (t) {
        case START_ARRAY -> "'['";
        case END_ARRAY -> "']'";
        case END_OBJECT -> "'}'";
        case VALUE_STRING -> "a string";
        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
        case VALUE_TRUE, VALUE_FALSE -> "a boolean";
        default -> t.toString();
      };
    }

    // Parser is just past START_OBJECT; returns at its END_OBJECT.
    private FieldSet object(JsonParser p) throws IOException {
      int memberBase = memberTop;
      int childBase = childTop;
      boolean sorted = true;
      boolean dot = false;
      PathElement last = null;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (key.length() == 1 && key.charAt(0) == '.') {
          p.nextToken();
          p.skipChildren();
          dot = true;
          continue;
        }
        PathElement pe;
        try {
          pe = element(key);
        } catch (Elements.UnknownElementType unknown) {
          p.nextToken();
          p.skipChildren();
          continue;
        } catch (FieldsV1Exception bad) {
          throw new FieldsV1Exception("invalid FieldsV1" + where(p.currentTokenLocation())
              + ": key " + GoJson.quoteForMessage(key) + " is not a path element: "
              + bad.getMessage(), bad);
        }
        t = p.nextToken();
        FieldSet child;
        boolean member;
        if (t == JsonToken.START_OBJECT) {
          child = object(p);
          member = lastIsMember;
        } else if (t == JsonToken.VALUE_NULL) {
          child = FieldSet.empty();
          member = true;
        } else {
          throw new FieldsV1Exception("invalid FieldsV1" + where(p.currentTokenLocation())
              + ": value of " + GoJson.quoteForMessage(key) + " must be an object or null, found "
              + describe(t));
        }
        if (last != null && Elements.compare(last, pe) >= 0) {
          sorted = false;
        }
        last = pe;
        if (member) {
          pushMember(pe);
        }
        if (child.size() > 0) {
          pushChild(pe, child);
        }
      }
      return finish(memberBase, childBase, sorted, dot);
    }

    FieldSet tree(MapValue m, String where, int depth) {
      if (depth > MAX_DEPTH) {
        throw new FieldsV1Exception("invalid FieldsV1: nesting deeper than " + MAX_DEPTH
            + " levels at " + where);
      }
      int memberBase = memberTop;
      int childBase = childTop;
      boolean sorted = true;
      boolean dot = false;
      PathElement last = null;
      for (int i = 0; i < m.size(); i++) {
        String key = m.keyAt(i);
        if (key.equals(".")) {
          dot = true;
          continue;
        }
        PathElement pe;
        try {
          pe = element(key);
        } catch (Elements.UnknownElementType unknown) {
          continue;
        } catch (FieldsV1Exception bad) {
          throw new FieldsV1Exception("invalid FieldsV1: key " + GoJson.quoteForMessage(key)
              + (where.isEmpty() ? "" : " under " + where) + " is not a path element: "
              + bad.getMessage(), bad);
        }
        Value v = m.valueAt(i);
        FieldSet child;
        boolean member;
        if (v instanceof MapValue cm) {
          child = tree(cm, where + "/" + key, depth + 1);
          member = lastIsMember;
        } else if (v.isNull()) {
          child = FieldSet.empty();
          member = true;
        } else {
          throw new FieldsV1Exception("invalid FieldsV1: value of " + GoJson.quoteForMessage(key)
              + (where.isEmpty() ? "" : " under " + where) + " must be an object or null, found "
              + v.kind().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (last != null && Elements.compare(last, pe) >= 0) {
          sorted = false;
        }
        last = pe;
        if (member) {
          pushMember(pe);
        }
        if (child.size() > 0) {
          pushChild(pe, child);
        }
      }
      return finish(memberBase, childBase, sorted, dot);
    }

    private void pushMember(PathElement pe) {
      if (memberTop == memberStack.length) {
        memberStack = Arrays.copyOf(memberStack, memberTop * 2);
      }
      memberStack[memberTop++] = pe;
    }

    private void pushChild(PathElement pe, FieldSet child) {
      if (childTop == childStack.length) {
        childElementStack = Arrays.copyOf(childElementStack, childTop * 2);
        childStack = Arrays.copyOf(childStack, childTop * 2);
      }
      childElementStack[childTop] = pe;
      childStack[childTop++] = child;
    }

    private FieldSet finish(int memberBase, int childBase, boolean sorted, boolean dot) {
      int nm = memberTop - memberBase;
      int nc = childTop - childBase;
      memberTop = memberBase;
      childTop = childBase;
      if (nm == 0 && nc == 0) {
        // No children (or only unknown ones): SMD counts the node itself as a member.
        lastIsMember = true;
        return FieldSet.empty();
      }
      lastIsMember = dot;
      PathElement[] members = nm == 0 ? FieldSet.NO_ELEMENTS
          : Arrays.copyOfRange(memberStack, memberBase, memberBase + nm);
      PathElement[] childElements = nc == 0 ? FieldSet.NO_ELEMENTS
          : Arrays.copyOfRange(childElementStack, childBase, childBase + nc);
      FieldSet[] children = nc == 0 ? FieldSet.NO_SETS
          : Arrays.copyOfRange(childStack, childBase, childBase + nc);
      Arrays.fill(childStack, childBase, childBase + nc, null);
      if (!sorted) {
        members = sortDistinct(members);
        if (nc > 1) {
          return normalizeChildren(members, childElements, children);
        }
      }
      return FieldSet.node(members, childElements, children);
    }

    private static PathElement[] sortDistinct(PathElement[] a) {
      if (a.length < 2) {
        return a;
      }
      Arrays.sort(a, Elements::compare);
      int n = 1;
      for (int i = 1; i < a.length; i++) {
        if (Elements.compare(a[n - 1], a[i]) != 0) {
          a[n++] = a[i];
        }
      }
      return n == a.length ? a : Arrays.copyOf(a, n);
    }

    // Sorts children by element; for a repeated element the later entry wins, as in SMD.
    private static FieldSet normalizeChildren(PathElement[] members, PathElement[] elements,
        FieldSet[] sets) {
      Integer[] order = new Integer[elements.length];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (x, y) -> {
        int c = Elements.compare(elements[x], elements[y]);
        return c != 0 ? c : Integer.compare(x, y);
      });
      PathElement[] oe = new PathElement[elements.length];
      FieldSet[] os = new FieldSet[elements.length];
      int n = 0;
      for (Integer idx : order) {
        if (n > 0 && Elements.compare(oe[n - 1], elements[idx]) == 0) {
          os[n - 1] = sets[idx];
        } else {
          oe[n] = elements[idx];
          os[n++] = sets[idx];
        }
      }
      return FieldSet.node(members, n == oe.length ? oe : Arrays.copyOf(oe, n),
          n == os.length ? os : Arrays.copyOf(os, n));
    }
  }

  // ---------------------------------------------------------------- encode

  /**
   * The FieldsV1 JSON text of {@code set}.
   *
   * @param set the set to encode
   * @return compact JSON with keys in kube's order; {@code {}} for the empty set
   */
  public static String encode(FieldSet set) {
    requireNonNull(set, "set");
    StringBuilder out = new StringBuilder(Math.max(16, set.size() * 24));
    out.append('{');
    emit(set, false, out, new StringBuilder(64));
    out.append('}');
    return out.toString();
  }

  /**
   * {@link #encode(FieldSet)} as UTF-8 bytes.
   *
   * @param set the set to encode
   * @return the UTF-8 encoding of the JSON text
   */
  public static byte[] encodeBytes(FieldSet set) {
    return encode(set).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * {@code set} as the value tree kube stores in {@code fieldsV1}, keys in encoding order.
   *
   * @param set the set to encode
   * @return the map that {@link #decode(Value)} reads back
   */
  public static MapValue toValue(FieldSet set) {
    requireNonNull(set, "set");
    return tree(set, false, new StringBuilder(64));
  }

  private static void emit(FieldSet s, boolean includeSelf, StringBuilder out,
      StringBuilder scratch) {
    boolean first = true;
    if (includeSelf && !s.isEmpty()) {
      out.append("\".\":{}");
      first = false;
    }
    PathElement[] m = s.members;
    PathElement[] ce = s.childElements;
    int i = 0;
    int j = 0;
    while (i < m.length || j < ce.length) {
      int c = i == m.length ? 1 : (j == ce.length ? -1 : Elements.compare(m[i], ce[j]));
      if (!first) {
        out.append(',');
      }
      first = false;
      if (c < 0) {
        appendKey(out, m[i++], scratch);
        out.append(":{}");
      } else {
        appendKey(out, ce[j], scratch);
        out.append(":{");
        emit(s.children[j++], c == 0, out, scratch);
        out.append('}');
        if (c == 0) {
          i++;
        }
      }
    }
  }

  private static void appendKey(StringBuilder out, PathElement e, StringBuilder scratch) {
    out.append('"');
    if (e instanceof FieldName f) {
      out.append("f:");
      GoJson.appendEscaped(out, f.name());
    } else if (e instanceof Index x) {
      out.append("i:").append(x.index());
    } else {
      scratch.setLength(0);
      Elements.appendSerialized(scratch, e);
      GoJson.appendEscaped(out, scratch.toString());
    }
    out.append('"');
  }

  /** The FieldsV1 key of {@code e}; field names share one string per name (see FIELD_KEYS). */
  private static String key(PathElement e) {
    if (!(e instanceof FieldName f)) {
      return PathElements.serialize(e);
    }
    String k = FIELD_KEYS.get(f);
    if (k == null) {
      k = PathElements.serialize(e);
      if (FIELD_KEYS.size() < MAX_SHARED_FIELD_NAMES) {
        FIELD_KEYS.putIfAbsent(f, k);
      }
    }
    return k;
  }

  private static MapValue tree(FieldSet s, boolean includeSelf, StringBuilder scratch) {
    MapValue.Builder b = MapValue.builder();
    if (includeSelf && !s.isEmpty()) {
      b.putNew(".", MapValue.empty());
    }
    PathElement[] m = s.members;
    PathElement[] ce = s.childElements;
    int i = 0;
    int j = 0;
    while (i < m.length || j < ce.length) {
      int c = i == m.length ? 1 : (j == ce.length ? -1 : Elements.compare(m[i], ce[j]));
      if (c < 0) {
        b.putNew(key(m[i++]), MapValue.empty());
      } else {
        b.putNew(key(ce[j]), tree(s.children[j++], c == 0, scratch));
        if (c == 0) {
          i++;
        }
      }
    }
    return b.build();
  }
}
