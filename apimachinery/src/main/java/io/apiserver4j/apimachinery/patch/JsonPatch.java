/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.errors.RequestEntityTooLargeException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;

/**
 * JSON patch (RFC 6902, {@code application/json-patch+json}) as kube-apiserver applies it.
 *
 * <p>kube-apiserver uses evanphx/json-patch v4; this class reproduces its observable behaviour,
 * including where it is more lenient than the RFC:
 * <ul>
 *   <li>{@code replace} of a missing object member adds it;</li>
 *   <li>array indices may be negative (counted from the end) and are parsed like Go's
 *       {@code strconv.Atoi} ({@code +1}, {@code 01} are accepted);</li>
 *   <li>an operation without {@code value} uses {@code null};</li>
 *   <li>{@code copy} from a missing object member copies {@code null};</li>
 *   <li>a JSON {@code null} in the document behaves as an absent member (a {@code test} for
 *       {@code null} on a missing member succeeds);</li>
 *   <li>whatever precedes the first {@code /} of a pointer is ignored, and {@code add},
 *       {@code remove}, {@code move} and {@code copy} do not accept the root pointer {@code ""};
 *       {@code replace} and {@code test} do;</li>
 *   <li>a patch that is JSON {@code null} has no operations.</li>
 * </ul>
 *
 * <p>Errors, in the order kube-apiserver checks them: a patch that is not an array of objects is
 * a {@link BadRequestException} with encoding/json's message; more than {@value #MAX_OPERATIONS}
 * operations is a {@link RequestEntityTooLargeException} ({@code Request entity too large: The
 * allowed maximum operations in a JSON patch is 10000, got <n>}); any operation that fails (bad
 * {@code op}, missing path, failed {@code test}, copies that grow the document by more than the
 * copy limit) is an {@link InvalidException} (422) with kube's generic message {@code the server
 * rejected our request due to an error in our request} and no causes — kube-apiserver does not
 * pass the library's text on.
 *
 * <p>Inputs are never changed; unchanged subtrees of the document are shared with the result.
 * Thread-safe (stateless).
 */
public final class JsonPatch {
  /** The most operations kube-apiserver accepts in one JSON patch. */
  public static final int MAX_OPERATIONS = 10_000;

  /**
   * The default limit on the total size (bytes of compact JSON) that {@code copy} operations
   * may add, kube-apiserver's {@code JSONPatchMaxCopyBytes}.
   */
  public static final long DEFAULT_MAX_COPY_BYTES = 3L * 1024 * 1024;

  private JsonPatch() {}

  /**
   * Applies {@code patch} to {@code document} with the default copy limit.
   *
   * @param document the document; not changed
   * @param patch the RFC 6902 operations
   * @return the patched document
   * @throws BadRequestException the patch is not a JSON array of objects
   * @throws InvalidException an operation cannot be applied
   */
  public static Value apply(Value document, Value patch) {
    return apply(document, patch, DEFAULT_MAX_COPY_BYTES);
  }

  /**
   * Applies {@code patch} to {@code document}.
   *
   * @param maxCopyBytes the most bytes {@code copy} operations may add in total; 0 = unlimited
   * @param document the document; not changed
   * @param patch the RFC 6902 operations
   * @return the patched document
   * @throws BadRequestException the patch is not a JSON array of objects
   * @throws RequestEntityTooLargeException the patch has more than {@value #MAX_OPERATIONS}
   *     operations
   * @throws InvalidException an operation cannot be applied
   */
  public static Value apply(Value document, Value patch, long maxCopyBytes) {
    requireNonNull(document, "document");
    requireNonNull(patch, "patch");
    if (maxCopyBytes < 0) {
      throw new IllegalArgumentException("maxCopyBytes must not be negative: " + maxCopyBytes);
    }
    List<MapValue> operations = decode(patch);
    try {
      return new Applier(maxCopyBytes).run(document, operations);
    } catch (Failure e) {
      throw new InvalidException(Status.failure(StatusReason.INVALID,
          "the server rejected our request due to an error in our request",
          StatusDetails.of("", "", "")));
    }
  }

  /**
   * The strict-decoding findings kube-apiserver reports for a JSON patch when the request asks
   * for {@code fieldValidation=Strict} or {@code Warn}: one {@code json patch unknown field
   * "[<i>].<name>"} per member other than {@code op}, {@code path}, {@code from} and
   * {@code value} (names are case-sensitive). The pipeline turns them into warnings or a 422,
   * as it does with the object's own unknown fields.
   *
   * @throws BadRequestException the patch does not decode into operations whose {@code op},
   *     {@code path} and {@code from} are strings ({@code error decoding patch: json: ...})
   * @param patch the patch
   * @return the findings, in order; empty when none
   */
  public static List<String> strictErrors(Value patch) {
    requireNonNull(patch, "patch");
    if (patch instanceof NullValue) {
      return List.of();
    }
    if (!(patch instanceof ListValue list)) {
      throw decodingError("json: cannot unmarshal " + GoStrings.jsonKind(patch)
          + " into Go value of type []handlers.jsonPatchOp");
    }
    LinkedHashSet<String> errors = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Value item = list.get(i);
      if (item instanceof NullValue) {
        continue;
      }
      if (!(item instanceof MapValue op)) {
        throw decodingError("json: cannot unmarshal " + GoStrings.jsonKind(item)
            + " into Go value of type handlers.jsonPatchOp");
      }
      for (int j = 0; j < op.size(); j++) {
        String key = op.keyAt(j);
        Value value = op.valueAt(j);
        switch (key) {
          case "op":
          case "path":
          case "from":
            if (!(value instanceof StringValue) && !(value instanceof NullValue)) {
              throw decodingError("json: cannot unmarshal " + GoStrings.jsonKind(value)
                  + " into Go struct field jsonPatchOp." + key + " of type string");
            }
            break;
          case "value":
            break;
          default:
            // The decoder keeps at most 100 distinct findings.
            if (errors.size() < 100) {
              errors.add("json patch unknown field " + GoStrings.quote("[" + i + "]." + key));
            }
        }
      }
    }
    return List.copyOf(errors);
  }

  /**
   * Applies {@code patch} as the JSON patch library itself does, reporting its own error text:
   * what kube's mutating admission does with a webhook's patch (any failure is its 500).
   *
   * @throws Failure an operation cannot be applied, or the patch is no array of operations
   * @param document the document; not changed
   * @param patch the patch
   * @param maxCopyBytes the most bytes {@code copy} operations may add; 0 = unlimited
   * @return the patched document
   */
  public static Value applyOrFail(Value document, Value patch, long maxCopyBytes) {
    List<MapValue> operations;
    try {
      operations = decode(patch);
    } catch (StatusException e) {
      throw new Failure(e.status().message());
    }
    return new Applier(maxCopyBytes).run(document, operations);
  }

  private static BadRequestException decodingError(String message) {
    return StatusErrors.badRequest("error decoding patch: " + message);
  }

  private static List<MapValue> decode(Value patch) {
    if (patch instanceof NullValue) {
      return List.of();
    }
    if (!(patch instanceof ListValue list)) {
      throw StatusErrors.badRequest("json: cannot unmarshal " + GoStrings.jsonKind(patch)
          + " into Go value of type jsonpatch.Patch");
    }
    List<MapValue> operations = new ArrayList<>(list.size());
    for (Value item : list.items()) {
      if (item instanceof MapValue op) {
        operations.add(op);
      } else if (item instanceof NullValue) {
        operations.add(MapValue.empty());
      } else {
        throw StatusErrors.badRequest("json: cannot unmarshal " + GoStrings.jsonKind(item)
            + " into Go value of type jsonpatch.Operation");
      }
    }
    if (operations.size() > MAX_OPERATIONS) {
      throw StatusErrors.requestEntityTooLarge("The allowed maximum operations in a JSON patch is "
          + MAX_OPERATIONS + ", got " + operations.size());
    }
    return operations;
  }

  /** An operation that cannot be applied; carries the library's text. */
  public static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message, null, false, false);
    }
  }

  /** A container being changed; its children are immutable values or other mutable nodes. */
  private static final class MutableMap {
    final LinkedHashMap<String, Object> entries;

    MutableMap(MapValue source) {
      entries = new LinkedHashMap<>(Math.max(16, source.size() * 2));
      for (int i = 0; i < source.size(); i++) {
        entries.put(source.keyAt(i), source.valueAt(i));
      }
    }
  }

  private static final class MutableList {
    final ArrayList<Object> items;

    MutableList(ListValue source) {
      items = new ArrayList<>(source.items());
    }
  }

  /** A container and the decoded last token of a pointer. */
  private record Location(Object container, String key) {}

  /**
   * Applies operations to a copy-on-write overlay of the document: containers on a written path
   * become mutable, everything else stays the original immutable value, so that long patches
   * cost per operation only the containers they touch.
   */
  private static final class Applier {
    private final long maxCopyBytes;
    private Object root;
    private long copied;

    Applier(long maxCopyBytes) {
      this.maxCopyBytes = maxCopyBytes;
    }

    Value run(Value document, List<MapValue> operations) {
      if (!(document instanceof MapValue) && !(document instanceof ListValue)) {
        throw new Failure("json: cannot unmarshal " + GoStrings.jsonKind(document)
            + " into Go value of type jsonpatch.partialDoc");
      }
      if (operations.isEmpty()) {
        return document;
      }
      root = mutable(document);
      for (MapValue op : operations) {
        String kind = op.getOrNull("op") instanceof StringValue s ? s.value() : "unknown";
        switch (kind) {
          case "add": add(op); break;
          case "remove": remove(op); break;
          case "replace": replace(op); break;
          case "move": move(op); break;
          case "test": test(op); break;
          case "copy": copy(op); break;
          default: throw new Failure("Unexpected kind: " + kind);
        }
      }
      return freeze(root);
    }

    private void add(MapValue op) {
      String path = pointer(op, "path", "add operation failed to decode path");
      Location at = find(path, true);
      if (at == null) {
        throw new Failure("add operation does not apply: doc is missing path: \"" + path + "\"");
      }
      addAt(at, value(op), path);
    }

    private void remove(MapValue op) {
      String path = pointer(op, "path", "remove operation failed to decode path");
      Location at = find(path, true);
      if (at == null) {
        throw new Failure(
            "remove operation does not apply: doc is missing path: \"" + path + "\"");
      }
      removeAt(at);
    }

    private void replace(MapValue op) {
      String path = pointer(op, "path", "replace operation failed to decode path");
      if (path.isEmpty()) {
        Value v = op.getOrNull("value");
        if (!(v instanceof MapValue) && !(v instanceof ListValue)) {
          throw new Failure("replace operation value must be object or array");
        }
        root = mutable(v);
        return;
      }
      Location at = find(path, true);
      if (at == null) {
        throw new Failure("replace operation does not apply: doc is missing path: " + path);
      }
      // Only arrays check that the member exists; a missing object member is simply set.
      get(at);
      set(at, value(op));
    }

    private void move(MapValue op) {
      String from = pointer(op, "from", "move operation failed to decode from");
      Location source = find(from, true);
      if (source == null) {
        throw new Failure("move operation does not apply: doc is missing from path: " + from);
      }
      Object moved = get(source);
      removeAt(source);
      String path = pointer(op, "path", "move operation failed to decode path");
      Location target = find(path, true);
      if (target == null) {
        throw new Failure(
            "move operation does not apply: doc is missing destination path: " + path);
      }
      addAt(target, moved == null ? Value.nullValue() : moved, path);
    }

    private void test(MapValue op) {
      String path = pointer(op, "path", "test operation failed to decode path");
      Value expected = op.getOrNull("value");
      if (path.isEmpty()) {
        if (expected == null || !freeze(root).equals(expected)) {
          throw new Failure("testing value " + path + " failed: test failed");
        }
        return;
      }
      Location at = find(path, false);
      if (at == null) {
        throw new Failure("test operation does not apply: is missing path: " + path);
      }
      Object actual = get(at);
      if (actual == null || actual instanceof NullValue) {
        if (expected == null || expected instanceof NullValue) {
          return;
        }
        throw new Failure("testing value " + path + " failed: test failed");
      }
      if (expected == null || !freeze(actual).equals(expected)) {
        throw new Failure("testing value " + path + " failed: test failed");
      }
    }

    private void copy(MapValue op) {
      String from = pointer(op, "from", "copy operation failed to decode from");
      Location source = find(from, false);
      if (source == null) {
        throw new Failure("copy operation does not apply: doc is missing from path: " + from);
      }
      Object original = get(source);
      String path = pointer(op, "path", "copy operation failed to decode path");
      Location target = find(path, true);
      if (target == null) {
        throw new Failure(
            "copy operation does not apply: doc is missing destination path: " + path);
      }
      Value value = original == null ? Value.nullValue() : freeze(original);
      // The library counts the compact JSON of the copied value; absent and null count 0.
      long size = value instanceof NullValue ? 0 : Json.writeBytes(value).length;
      copied += size;
      if (maxCopyBytes > 0 && copied > maxCopyBytes) {
        throw new Failure("Unable to complete the copy, the accumulated size increase of copy is "
            + copied + ", exceeding the limit " + maxCopyBytes);
      }
      addAt(target, value, path);
    }

    private static String pointer(MapValue op, String member, String failure) {
      Value v = op.getOrNull(member);
      if (v instanceof StringValue s) {
        return s.value();
      }
      throw new Failure(failure + ": missing value");
    }

    private static Value value(MapValue op) {
      Value v = op.getOrNull("value");
      return v == null ? Value.nullValue() : v;
    }

    /** evanphx's findObject: the parent container of the pointer's target, or null. */
    private Location find(String path, boolean forWrite) {
      String[] tokens = path.split("/", -1);
      if (tokens.length < 2) {
        return null;
      }
      Object container = root;
      for (int i = 1; i < tokens.length - 1; i++) {
        String token = unescape(tokens[i]);
        Object next;
        try {
          next = get(new Location(container, token));
        } catch (Failure e) {
          return null;
        }
        if (!(next instanceof MapValue || next instanceof ListValue
            || next instanceof MutableMap || next instanceof MutableList)) {
          return null;
        }
        if (forWrite && next instanceof Value v) {
          next = mutable(v);
          set(new Location(container, token), next);
        }
        container = next;
      }
      return new Location(container, unescape(tokens[tokens.length - 1]));
    }

    /** The member at a location; null for a missing object member. */
    private Object get(Location at) {
      Object c = at.container();
      if (c instanceof MutableMap m) {
        return m.entries.get(at.key());
      }
      if (c instanceof MapValue m) {
        return m.getOrNull(at.key());
      }
      int size = c instanceof MutableList l ? l.items.size() : ((ListValue) c).size();
      int index = index(at.key(), size);
      if (index >= size) {
        throw invalidIndex(index);
      }
      return c instanceof MutableList l ? l.items.get(index) : ((ListValue) c).get(index);
    }

    private void set(Location at, Object value) {
      Object c = at.container();
      if (c instanceof MutableMap m) {
        m.entries.put(at.key(), value);
      } else {
        MutableList l = (MutableList) c;
        l.items.set(index(at.key(), l.items.size()), value);
      }
    }

    private void addAt(Location at, Object value, String path) {
      Object c = at.container();
      if (c instanceof MutableMap m) {
        m.entries.put(at.key(), value);
        return;
      }
      MutableList l = (MutableList) c;
      if (at.key().equals("-")) {
        l.items.add(value);
        return;
      }
      long parsed = atoi(at.key(), "error in add for path: '" + path
          + "': value was not a proper array index: '" + at.key() + "'");
      int newSize = l.items.size() + 1;
      if (parsed >= newSize || parsed < -newSize) {
        throw invalidIndex(parsed);
      }
      int index = (int) (parsed < 0 ? parsed + newSize : parsed);
      l.items.add(index, value);
    }

    private void removeAt(Location at) {
      Object c = at.container();
      if (c instanceof MutableMap m) {
        if (!m.entries.containsKey(at.key())) {
          throw new Failure(
              "Unable to remove nonexistent key: " + at.key() + ": missing value");
        }
        m.entries.remove(at.key());
        return;
      }
      MutableList l = (MutableList) c;
      long parsed = atoi(at.key(), "strconv.Atoi: parsing " + GoStrings.quote(at.key())
          + ": invalid syntax");
      int size = l.items.size();
      if (parsed >= size || parsed < -size) {
        throw invalidIndex(parsed);
      }
      l.items.remove((int) (parsed < 0 ? parsed + size : parsed));
    }

    /** An existing element's index: negative indices count from the end. */
    private static int index(String token, int size) {
      long parsed = atoi(token, "strconv.Atoi: parsing " + GoStrings.quote(token) + ": invalid syntax");
      if (parsed < -size) {
        throw invalidIndex(parsed);
      }
      long index = parsed < 0 ? parsed + size : parsed;
      return index > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) index;
    }

    private static Failure invalidIndex(long index) {
      return new Failure("Unable to access invalid index: " + index
          + ": invalid index referenced");
    }

    /** Go's strconv.Atoi: optional sign, ASCII digits, 64-bit range. */
    private static long atoi(String s, String failure) {
      int i = 0;
      boolean negative = false;
      if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
        negative = s.charAt(0) == '-';
        i = 1;
      }
      if (i >= s.length()) {
        throw new Failure(failure);
      }
      long value = 0;
      for (; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < '0' || c > '9') {
          throw new Failure(failure);
        }
        if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
          throw new Failure(failure);
        }
        value = value * 10 + (c - '0');
      }
      return negative ? -value : value;
    }

    private static String unescape(String token) {
      if (token.indexOf('~') < 0) {
        return token;
      }
      StringBuilder sb = new StringBuilder(token.length());
      for (int i = 0; i < token.length(); i++) {
        char c = token.charAt(i);
        if (c == '~' && i + 1 < token.length()
            && (token.charAt(i + 1) == '1' || token.charAt(i + 1) == '0')) {
          sb.append(token.charAt(i + 1) == '1' ? '/' : '~');
          i++;
        } else {
          sb.append(c);
        }
      }
      return sb.toString();
    }

    private static Object mutable(Value v) {
      return v instanceof MapValue m ? new MutableMap(m) : new MutableList((ListValue) v);
    }

    private static Value freeze(Object node) {
      if (node instanceof Value v) {
        return v;
      }
      if (node instanceof MutableMap m) {
        MapValue.Builder b = MapValue.builder(m.entries.size());
        for (Map.Entry<String, Object> e : m.entries.entrySet()) {
          b.put(e.getKey(), freeze(e.getValue()));
        }
        return b.build();
      }
      MutableList l = (MutableList) node;
      ListValue.Builder b = ListValue.builder(l.items.size());
      for (Object item : l.items) {
        b.add(freeze(item));
      }
      return b.build();
    }
  }
}
