package io.apiserver4j.admission.internal;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 6902 JSON Patch on immutable values, for the patches mutating webhooks return. Operations
 * apply in order; the first failing one fails the whole patch and nothing is returned.
 */
public final class JsonPatch {
  private JsonPatch() {}

  /** Thrown when a patch is malformed or does not apply; the message says which operation. */
  public static final class PatchException extends IllegalArgumentException {
    PatchException(String message) {
      super(message);
    }
  }

  private enum LeafOp { ADD, REMOVE, REPLACE }

  /**
   * Applies {@code operations} (a list of {@code {op, path, value|from}} maps) to
   * {@code document}.
   *
   * @throws PatchException when an operation is malformed or does not apply
   */
  public static Value apply(Value document, ListValue operations) {
    Value doc = document;
    for (int i = 0; i < operations.size(); i++) {
      if (!(operations.get(i) instanceof MapValue op)) {
        throw new PatchException("operation " + i + " is not an object");
      }
      doc = applyOne(doc, op, i);
    }
    return doc;
  }

  private static Value applyOne(Value doc, MapValue op, int index) {
    String kind = requiredString(op, "op", index);
    List<String> path = parsePointer(requiredString(op, "path", index), index);
    switch (kind) {
      case "add":
        return change(doc, path, 0, LeafOp.ADD, requiredValue(op, index), index);
      case "remove":
        return change(doc, path, 0, LeafOp.REMOVE, null, index);
      case "replace":
        return change(doc, path, 0, LeafOp.REPLACE, requiredValue(op, index), index);
      case "move": {
        List<String> from = parsePointer(requiredString(op, "from", index), index);
        if (isProperPrefix(from, path)) {
          throw new PatchException("operation " + index + " (move): cannot move a value into"
              + " one of its children");
        }
        Value moved = resolve(doc, from, index);
        Value without = change(doc, from, 0, LeafOp.REMOVE, null, index);
        return change(without, path, 0, LeafOp.ADD, moved, index);
      }
      case "copy": {
        List<String> from = parsePointer(requiredString(op, "from", index), index);
        return change(doc, path, 0, LeafOp.ADD, resolve(doc, from, index), index);
      }
      case "test": {
        Value expected = requiredValue(op, index);
        Value actual = resolve(doc, path, index);
        if (!actual.equals(expected)) {
          throw new PatchException("operation " + index + " (test): value at "
              + pointer(path) + " is " + Json.write(actual) + ", not " + Json.write(expected));
        }
        return doc;
      }
      default:
        throw new PatchException("operation " + index + ": unsupported op \"" + kind + "\"");
    }
  }

  private static Value change(
      Value node, List<String> path, int depth, LeafOp leaf, Value value, int index) {
    if (path.isEmpty()) {
      if (leaf == LeafOp.REMOVE) {
        throw new PatchException("operation " + index + ": cannot remove the whole document");
      }
      return value;
    }
    String token = path.get(depth);
    boolean last = depth == path.size() - 1;
    if (node instanceof MapValue map) {
      Value child = map.getOrNull(token);
      if (!last) {
        if (child == null) {
          throw missing(index, path, depth);
        }
        return map.with(token, change(child, path, depth + 1, leaf, value, index));
      }
      switch (leaf) {
        case ADD:
          return map.with(token, value);
        case REPLACE:
          if (child == null) {
            throw missing(index, path, depth);
          }
          return map.with(token, value);
        default:
          if (child == null) {
            throw missing(index, path, depth);
          }
          return map.without(token);
      }
    }
    if (node instanceof ListValue list) {
      boolean append = last && leaf == LeafOp.ADD && token.equals("-");
      int i = append ? list.size() : arrayIndex(token, index, path, depth);
      int limit = last && leaf == LeafOp.ADD ? list.size() : list.size() - 1;
      if (i > limit) {
        throw new PatchException("operation " + index + ": index " + i + " out of bounds at "
            + pointer(path.subList(0, depth + 1)));
      }
      List<Value> items = new ArrayList<>(list.items());
      if (!last) {
        items.set(i, change(list.get(i), path, depth + 1, leaf, value, index));
      } else if (leaf == LeafOp.ADD) {
        items.add(i, value);
      } else if (leaf == LeafOp.REPLACE) {
        items.set(i, value);
      } else {
        items.remove(i);
      }
      return ListValue.of(items);
    }
    throw new PatchException("operation " + index + ": " + pointer(path.subList(0, depth))
        + " is neither an object nor an array");
  }

  private static Value resolve(Value doc, List<String> path, int index) {
    Value node = doc;
    for (int depth = 0; depth < path.size(); depth++) {
      String token = path.get(depth);
      Value next = null;
      if (node instanceof MapValue map) {
        next = map.getOrNull(token);
      } else if (node instanceof ListValue list) {
        int i = arrayIndex(token, index, path, depth);
        next = i < list.size() ? list.get(i) : null;
      }
      if (next == null) {
        throw missing(index, path, depth);
      }
      node = next;
    }
    return node;
  }

  private static int arrayIndex(String token, int index, List<String> path, int depth) {
    boolean digits = !token.isEmpty() && token.length() <= 9
        && token.chars().allMatch(c -> c >= '0' && c <= '9')
        && (token.length() == 1 || token.charAt(0) != '0');
    if (!digits) {
      throw new PatchException("operation " + index + ": invalid array index \"" + token
          + "\" at " + pointer(path.subList(0, depth + 1)));
    }
    return Integer.parseInt(token);
  }

  private static PatchException missing(int index, List<String> path, int depth) {
    return new PatchException("operation " + index + ": missing value at "
        + pointer(path.subList(0, depth + 1)));
  }

  private static boolean isProperPrefix(List<String> prefix, List<String> path) {
    return prefix.size() < path.size() && path.subList(0, prefix.size()).equals(prefix);
  }

  private static String requiredString(MapValue op, String key, int index) {
    if (op.getOrNull(key) instanceof StringValue s) {
      return s.value();
    }
    throw new PatchException("operation " + index + ": \"" + key + "\" must be a string");
  }

  private static Value requiredValue(MapValue op, int index) {
    Value v = op.getOrNull("value");
    if (v == null) {
      throw new PatchException("operation " + index + ": \"value\" is missing");
    }
    return v;
  }

  /** Splits an RFC 6901 pointer into unescaped tokens. */
  static List<String> parsePointer(String pointer, int index) {
    List<String> tokens = new ArrayList<>();
    if (pointer.isEmpty()) {
      return tokens;
    }
    if (pointer.charAt(0) != '/') {
      throw new PatchException("operation " + index + ": path \"" + pointer
          + "\" must be empty or start with /");
    }
    int start = 1;
    while (true) {
      int slash = pointer.indexOf('/', start);
      String raw = slash < 0 ? pointer.substring(start) : pointer.substring(start, slash);
      tokens.add(unescape(raw, pointer, index));
      if (slash < 0) {
        return tokens;
      }
      start = slash + 1;
    }
  }

  private static String unescape(String raw, String pointer, int index) {
    if (raw.indexOf('~') < 0) {
      return raw;
    }
    StringBuilder sb = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '~') {
        sb.append(c);
        continue;
      }
      char next = i + 1 < raw.length() ? raw.charAt(i + 1) : 0;
      if (next == '0') {
        sb.append('~');
      } else if (next == '1') {
        sb.append('/');
      } else {
        throw new PatchException("operation " + index + ": invalid escape in path \"" + pointer
            + "\"");
      }
      i++;
    }
    return sb.toString();
  }

  private static String pointer(List<String> tokens) {
    StringBuilder sb = new StringBuilder();
    for (String t : tokens) {
      sb.append('/').append(t.replace("~", "~0").replace("/", "~1"));
    }
    return sb.toString();
  }
}
