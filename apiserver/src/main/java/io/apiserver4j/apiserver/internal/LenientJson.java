package io.apiserver4j.apiserver.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a JSON request body the way Go's decoder does for kube-apiserver: a key given twice keeps
 * its last value. Each duplicate is recorded with its field path ({@code metadata.name},
 * {@code spec.containers[0].image}) so that {@code fieldValidation=Strict|Warn} can report it as
 * {@code duplicate field "<path>"}. Numbers follow {@link io.apiserver4j.core.Json}: integers that
 * fit 64 bits are integers, everything else floats. Iterative, with a nesting limit.
 */
public final class LenientJson {
  /** The maximum nesting depth of a body. */
  public static final int MAX_DEPTH = 10_000;

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(MAX_DEPTH)
          .maxStringLength(Integer.MAX_VALUE)
          .maxDocumentLength(-1)
          .build())
      .build();

  /** A decoded document and the paths of the keys that were given more than once. */
  public record Decoded(Value value, List<String> duplicates) {}

  private LenientJson() {}

  /** @throws DecodeException when the bytes are not one JSON value */
  public static Decoded read(byte[] json) {
    try (JsonParser p = FACTORY.createParser(json)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new DecodeException("unexpected end of JSON input");
      }
      List<String> duplicates = new ArrayList<>();
      Value v = readValue(p, t, duplicates);
      if (p.nextToken() != null) {
        throw new DecodeException("invalid character after top-level value");
      }
      return new Decoded(v, List.copyOf(duplicates));
    } catch (StreamConstraintsException e) {
      throw new DecodeException("exceeded max depth", e);
    } catch (JsonProcessingException e) {
      throw new DecodeException(e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new DecodeException(e.getMessage(), e);
    }
  }

  private static final class Frame {
    final MapValue.Builder map;
    final ListValue.Builder list;
    final String path;
    String key;

    Frame(MapValue.Builder map, ListValue.Builder list, String path) {
      this.map = map;
      this.list = list;
      this.path = path;
    }
  }

  private static String child(Frame f) {
    if (f.map != null) {
      return f.path.isEmpty() ? f.key : f.path + "." + f.key;
    }
    return f.path + "[" + f.list.size() + "]";
  }

  private static Value readValue(JsonParser p, JsonToken first, List<String> duplicates)
      throws IOException {
    ArrayDeque<Frame> stack = new ArrayDeque<>();
    JsonToken token = first;
    while (true) {
      Value completed;
      Frame parent = stack.peek();
      switch (token) {
        case START_OBJECT: {
          String path = parent == null ? "" : child(parent);
          Frame f = new Frame(MapValue.builder(), null, path);
          stack.push(f);
          token = p.nextToken();
          if (token == JsonToken.FIELD_NAME) {
            f.key = p.currentName();
            token = p.nextToken();
          }
          continue;
        }
        case START_ARRAY: {
          String path = parent == null ? "" : child(parent);
          stack.push(new Frame(null, ListValue.builder(), path));
          token = p.nextToken();
          continue;
        }
        case END_OBJECT:
          completed = stack.pop().map.build();
          break;
        case END_ARRAY:
          completed = stack.pop().list.build();
          break;
        case VALUE_STRING:
          completed = new StringValue(p.getText());
          break;
        case VALUE_NUMBER_INT:
          completed = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
              ? new FloatValue(p.getBigIntegerValue().doubleValue())
              : IntegerValue.of(p.getLongValue());
          break;
        case VALUE_NUMBER_FLOAT:
          completed = new FloatValue(p.getDoubleValue());
          break;
        case VALUE_TRUE:
          completed = Value.of(true);
          break;
        case VALUE_FALSE:
          completed = Value.of(false);
          break;
        case VALUE_NULL:
          completed = Value.nullValue();
          break;
        default:
          throw new DecodeException("unexpected token " + token);
      }
      Frame top = stack.peek();
      if (top == null) {
        return completed;
      }
      if (top.map != null) {
        if (top.map.containsKey(top.key)) {
          duplicates.add(child(top));
        }
        top.map.put(top.key, completed);
        token = p.nextToken();
        if (token == JsonToken.FIELD_NAME) {
          top.key = p.currentName();
          token = p.nextToken();
        }
      } else {
        top.list.add(completed);
        token = p.nextToken();
      }
    }
  }
}
