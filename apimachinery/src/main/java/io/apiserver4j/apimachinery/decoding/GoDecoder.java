/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.apimachinery.decoding.GoType.Kind;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.TypeRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decodes a built-in object into its Go types as kube-apiserver does, without building Go
 * structs: the first value a Go type cannot hold is reported with kube's text, and values whose
 * Go type writes them differently come back as kube writes them (quantities given as numbers
 * become strings, times are written in UTC, byte arrays become base64).
 *
 * <p>Two of kube's decoders are modelled, chosen by {@link Mode}:
 * <ul>
 *   <li>{@link Mode#JSON}: {@code sigs.k8s.io/json} into the typed object, as for the body of a
 *       create or update and the result of a JSON or merge patch. Type errors are
 *       {@code json: cannot unmarshal <what> into Go struct field <Struct>.<json path> of type
 *       <type>}; the first one in document order is kept and decoding goes on, except that an
 *       error of a type's own {@code UnmarshalJSON} (IntOrString, Quantity, Time) ends it.
 *   <li>{@link Mode#UNSTRUCTURED}: {@code runtime.DefaultUnstructuredConverter.FromUnstructured},
 *       as for the result of a strategic merge patch or of an apply. It converts what JSON
 *       would not (integral floats into integers, integers truncated to the field's width) and
 *       its errors name no path: {@code cannot convert float64 to int32},
 *       {@code unrecognized type: int32}, {@code cannot restore slice from map}.
 * </ul>
 * Unknown fields are left alone (see the server's schema checker). Thread-safe.
 */
public final class GoDecoder {
  /** Which of kube's decoders is mirrored. */
  public enum Mode {
    /** {@code sigs.k8s.io/json} into the typed object (create and update bodies, JSON and merge patches). */
    JSON,
    /** {@code runtime.DefaultUnstructuredConverter.FromUnstructured} (strategic merge patch, apply). */
    UNSTRUCTURED
  }

  /**
   * The decoded object, and kube's error when there was one.
   *
   * @param object the object as the Go type holds it
   * @param error kube's decoding error text; empty when decoding succeeded
   */
  public record Result(MapValue object, Optional<String> error) {}

  private final GoType.Resolver types;

  /**
   * A decoder over the Go types of a schema.
   *
   * @param types resolves the Go type of every schema type
   */
  public GoDecoder(GoType.Resolver types) {
    this.types = types;
  }

  /**
   * Decodes {@code object} as Go type {@code typeName}.
   *
   * @param literals the text of the body's number literals (Go's messages quote them), or
   *     {@link NumberLiterals#NONE} for values that were not read from JSON text
   * @param typeName the OpenAPI name of the Go type
   * @param object the object
   * @param mode which decoder is mirrored
   * @return the decoded object and kube's error, if any
   */
  public Result decode(String typeName, MapValue object, Mode mode, NumberLiterals literals) {
    Walk w = new Walk(mode, literals);
    Value out;
    try {
      out = w.value(object, types.named(typeName));
    } catch (Fatal f) {
      return new Result(object, Optional.of(f.getMessage()));
    }
    if (w.saved != null) {
      return new Result(object, Optional.of(w.saved));
    }
    return new Result(out instanceof MapValue m ? m : object, Optional.empty());
  }

  /** An error that ends decoding at once: a Go type's own UnmarshalJSON failed. */
  private static final class Fatal extends RuntimeException {
    public Fatal(String message) {
      super(message, null, false, false);
    }
  }

  private final class Walk {
    private final Mode mode;
    private final NumberLiterals literals;
    // Go's errorContext: the innermost struct and the JSON names of the struct fields on the
    // way (slice indexes and map keys are not part of it)
    private final ArrayDeque<String> fieldStack = new ArrayDeque<>();
    private String struct = "";
    private String saved;

    public Walk(Mode mode, NumberLiterals literals) {
      this.mode = mode;
      this.literals = literals;
    }

    public Value value(Value v, GoType t) {
      if (v.isNull()) {
        return v;
      }
      switch (t.kind()) {
        case STRUCT:
          return v instanceof MapValue m ? struct(m, t) : mismatch(v, t, "struct");
        case SLICE:
          return v instanceof ListValue l ? slice(l, t) : mismatch(v, t, "slice");
        case MAP:
          return v instanceof MapValue m ? map(m, t) : mismatch(v, t, "map");
        case RAW:
          rejectOverflow(v);
          return v;
        case INT_OR_STRING:
          return intOrString(v);
        case QUANTITY:
          return quantity(v);
        case TIME:
        case MICRO_TIME:
          return time(v, t.kind() == Kind.MICRO_TIME);
        case BYTES:
          return bytes(v, t);
        default:
          return scalar(v, t);
      }
    }

    private Value struct(MapValue m, GoType t) {
      GoType.StructInfo info = types.struct(t);
      MapValue out = m;
      String outer = struct;
      for (int i = 0; i < m.size(); i++) {
        String key = m.keyAt(i);
        GoType field = info.fields().get(key);
        if (field == null) {
          continue; // unknown: Go skips it without looking at it
        }
        Value child = m.valueAt(i);
        if (child.isNull()) {
          continue;
        }
        fieldStack.addLast(key);
        struct = info.name();
        Value decoded = value(child, field);
        fieldStack.removeLast();
        struct = outer;
        if (decoded != child) {
          out = out.with(key, decoded);
        }
      }
      return out;
    }

    private Value slice(ListValue l, GoType t) {
      GoType element = types.element(t);
      return l.map((i, item) -> value(item, element));
    }

    private Value map(MapValue m, GoType t) {
      GoType element = types.element(t);
      MapValue out = m;
      for (int i = 0; i < m.size(); i++) {
        Value child = m.valueAt(i);
        Value decoded = value(child, element);
        if (decoded != child) {
          out = out.with(m.keyAt(i), decoded);
        }
      }
      return out;
    }

    /** A value of the wrong shape for a struct, slice or map. */
    private Value mismatch(Value v, GoType t, String goKind) {
      if (mode == Mode.JSON) {
        typeError(what(v, false), t.goName());
      } else if (goKind.equals("struct")) {
        fail("cannot restore struct from: " + io.apiserver4j.core.GoStrings.reflectKind(v));
      } else {
        fail("cannot restore " + goKind + " from " + io.apiserver4j.core.GoStrings.reflectKind(v));
      }
      return v;
    }

    private Value scalar(Value v, GoType t) {
      Kind k = t.kind();
      if (mode == Mode.JSON) {
        boolean fits = switch (k) {
          case BOOL -> v instanceof BooleanValue;
          case STRING -> v instanceof StringValue;
          default -> isNumber(v) && numberFits(v, k);
        };
        if (!fits) {
          typeError(what(v, k != Kind.STRING && k != Kind.BOOL), t.goName());
        } else if (k.isInteger() && v instanceof FloatValue f) {
          return Value.of(GoParsing.parseGoInt64(literals.text(f)));
        }
        return v;
      }
      return unstructuredScalar(v, t);
    }

    private Value unstructuredScalar(Value v, GoType t) {
      Kind k = t.kind();
      String st = io.apiserver4j.core.GoStrings.reflectKind(v);
      switch (k) {
        case BOOL:
          if (!(v instanceof BooleanValue)) {
            fail("unrecognized type: bool");
          }
          return v;
        case STRING:
          if (v instanceof IntegerValue) {
            fail("cannot convert int64 to " + t.goName()); // Go can convert an int to a string
          } else if (!(v instanceof StringValue)) {
            fail("unrecognized type: string");
          }
          return v;
        case FLOAT32:
        case FLOAT64:
          if (v instanceof IntegerValue i) {
            return Value.of((double) i.value());
          }
          if (!(v instanceof FloatValue)) {
            fail("unrecognized type: " + kindName(k));
          }
          return v;
        default:
          long n;
          if (v instanceof IntegerValue i) {
            n = i.value();
          } else if (v instanceof FloatValue f) {
            if (f.value() != Math.rint(f.value()) || literals.overflowed(f)) {
              fail("cannot convert " + st + " to " + t.goName());
            }
            n = (long) f.value();
          } else {
            fail("unrecognized type: " + kindName(k)); // Go prints the reflect.Kind here
            return v;
          }
          // reflect's Convert keeps the low bits, as a Go conversion does
          long converted = k == Kind.INT32 ? (int) n : k == Kind.UINT8 ? n & 0xff : n;
          return v instanceof IntegerValue && converted == n ? v : Value.of(converted);
      }
    }

    private boolean numberFits(Value v, Kind k) {
      if (k.isInteger()) {
        long n;
        if (v instanceof IntegerValue i) {
          n = i.value();
        } else {
          // Go parses the literal: 1e3 and 1.0 are no integers; a float read from YAML is
          // written to JSON first, and 1000 is one
          Long parsed = GoParsing.parseGoInt64(literals.text((FloatValue) v));
          if (parsed == null) {
            return false;
          }
          n = parsed;
        }
        return k == Kind.INT64 || (k == Kind.INT32 ? n == (int) n : n >= 0 && n <= 255);
      }
      if (v instanceof FloatValue f) {
        if (literals.overflowed(f)) {
          return false;
        }
        return k != Kind.FLOAT32 || Math.abs(f.value()) <= Float.MAX_VALUE;
      }
      return true;
    }

    private Value intOrString(Value v) {
      if (v instanceof StringValue) {
        return v;
      }
      if (mode == Mode.UNSTRUCTURED && v instanceof FloatValue f && !literals.overflowed(f)) {
        // FromUnstructured re-encodes the value with Go's encoding/json before UnmarshalJSON
        String text = Json.formatFloat(f.value());
        Long n = GoParsing.parseGoInt64(text);
        if (n != null && n == n.intValue()) {
          return Value.of(n);
        }
        throw new Fatal("json: cannot unmarshal number " + text + " into Go value of type int32");
      }
      // IntOrString's UnmarshalJSON decodes anything but a string into its int32 with the
      // standard library: errors carry no field path
      if (v instanceof IntegerValue i && i.value() == (int) i.value()) {
        return v;
      }
      if (v instanceof FloatValue f) {
        // a float read from YAML was written to JSON first: 1.0 became 1
        Long n = GoParsing.parseGoInt64(literals.text(f));
        if (n != null && n == n.intValue()) {
          return Value.of(n);
        }
      }
      throw new Fatal("json: cannot unmarshal " + what(v, true) + " into Go value of type int32");
    }

    private Value quantity(Value v) {
      String text;
      if (v instanceof StringValue s) {
        text = s.value().strip();
      } else if (isNumber(v)) {
        text = numberText(v);
      } else {
        // UnmarshalJSON parses the raw JSON text: an object, array or bool never matches
        throw new Fatal(GoParsing.QUANTITY_FORMAT);
      }
      String error = GoParsing.quantityError(text);
      if (error != null) {
        throw new Fatal(error);
      }
      // a Quantity is always written as a JSON string, in its canonical form
      String written = GoParsing.canonicalQuantity(text);
      return v instanceof StringValue str && str.value().equals(written) ? v : Value.of(written);
    }

    private Value time(Value v, boolean micro) {
      if (!(v instanceof StringValue s)) {
        // UnmarshalJSON reads the value into a string with the standard library first
        throw new Fatal("json: cannot unmarshal " + what(v, false)
            + " into Go value of type string");
      }
      if (GoParsing.isCanonicalTime(s.value(), micro)) {
        return v;
      }
      GoParsing.ParsedTime p = GoParsing.parseTime(micro ? GoParsing.RFC3339_MICRO
          : GoParsing.RFC3339, s.value());
      if (p.error() != null) {
        throw new Fatal(p.error());
      }
      String written = GoParsing.formatTime(p.time(), micro);
      return written.equals(s.value()) ? v : Value.of(written);
    }

    private Value bytes(Value v, GoType t) {
      if (v instanceof StringValue s) {
        if (mode == Mode.UNSTRUCTURED && s.value().isEmpty()) {
          return v;
        }
        String[] error = new String[1];
        byte[] decoded = GoParsing.base64(s.value(), error);
        if (decoded == null) {
          // a plain error, not a type error: Go adds no field path to it
          if (mode == Mode.JSON) {
            save(error[0]);
          } else {
            fail("error decoding from json: " + error[0]);
          }
          return v;
        }
        String canonical = GoParsing.base64Encode(decoded);
        return canonical.equals(s.value()) ? v : Value.of(canonical);
      }
      if (v instanceof ListValue l) {
        // Go fills a []byte from an array of numbers as from any slice
        GoType element = new GoType(Kind.UINT8, "uint8", TypeRef.none(), "");
        byte[] out = new byte[l.size()];
        for (int i = 0; i < l.size(); i++) {
          Value item = value(l.get(i), element);
          out[i] = item instanceof IntegerValue n ? (byte) n.value() : 0;
        }
        return Value.of(GoParsing.base64Encode(out));
      }
      return mismatch(v, t, "slice");
    }

    /** Non-finite numbers can never be written back: rejected wherever they are. */
    private void rejectOverflow(Value v) {
      if (!literals.hasOverflow()) {
        return;
      }
      List<Value> pending = new ArrayList<>();
      pending.add(v);
      while (!pending.isEmpty()) {
        Value x = pending.remove(pending.size() - 1);
        if (x instanceof FloatValue f && literals.overflowed(f)) {
          throw new Fatal("json: cannot unmarshal number " + literals.text(f)
              + " into Go value of type float64");
        }
        if (x instanceof MapValue m) {
          m.forEach((k, c) -> pending.add(c));
        } else if (x instanceof ListValue l) {
          pending.addAll(l.items());
        }
      }
    }

    /** Go's {@code UnmarshalTypeError}: kept if it is the first, decoding goes on. */
    private void typeError(String what, String goType) {
      if (saved != null) {
        return;
      }
      if (fieldStack.isEmpty()) {
        saved = "json: cannot unmarshal " + what + " into Go value of type " + goType;
      } else {
        saved = "json: cannot unmarshal " + what + " into Go struct field " + struct + "."
            + String.join(".", fieldStack) + " of type " + goType;
      }
    }

    private void save(String error) {
      if (saved == null) {
        saved = error;
      }
    }

    private void fail(String message) {
      throw new Fatal(message);
    }

    /** How Go's decoder names a JSON value; numbers with their literal where Go quotes it. */
    private String what(Value v, boolean numberText) {
      if (isNumber(v)) {
        return numberText ? "number " + numberText(v) : "number";
      }
      return io.apiserver4j.core.GoStrings.jsonKind(v);
    }

    private String numberText(Value v) {
      if (v instanceof IntegerValue i) {
        return Long.toString(i.value());
      }
      return literals.text((FloatValue) v);
    }
  }

  private static boolean isNumber(Value v) {
    return v instanceof IntegerValue || v instanceof FloatValue;
  }

  private static String kindName(Kind k) {
    return switch (k) {
      case INT32 -> "int32";
      case UINT8 -> "uint8";
      case FLOAT32 -> "float32";
      case FLOAT64 -> "float64";
      default -> "int64";
    };
  }
}
