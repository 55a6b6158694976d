/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a JSON request body the way Go's decoder does for kube-apiserver: a key given twice keeps
 * its last value. Each duplicate is recorded with its field path ({@code metadata.name},
 * {@code spec.containers[0].image}) so that {@code fieldValidation=Strict|Warn} can report it as
 * {@code duplicate field "<path>"}. The tree is built by core's {@link Json} reader; this class
 * adds the request body's limits and Go's error texts.
 */
public final class LenientJson {
  /** The maximum nesting depth of a body. */
  public static final int MAX_DEPTH = io.apiserver4j.core.DecodeLimits.MAX_DEPTH;

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxNestingDepth(MAX_DEPTH)
          .maxStringLength(Integer.MAX_VALUE)
          .maxDocumentLength(-1)
          .build())
      .build();

  /** A decoded document and the paths of the keys that were given more than once. */
  public record Decoded(Value value, List<String> duplicates) {}

  /** A decoded document, its duplicate keys and the text of its non-integer numbers. */
  public record Literal(Value value, List<String> duplicates, NumberLiterals numbers) {}

  private LenientJson() {}

  /**
   * Reads one JSON value as kube's lenient decoder does.
   *
   * @param json the JSON bytes
   * @return the value
   * @throws DecodeException when the bytes are not one JSON value
   */
  public static Decoded read(byte[] json) {
    Literal l = read(json, false);
    return new Decoded(l.value(), l.duplicates());
  }

  /**
   * Like {@link #read(byte[])}, recording the text of numbers that are not plain int64s; with
   * {@code keepOverflows} a number no float can hold is read as a placeholder (see
   * {@link NumberLiterals}) instead of failing, for a decoder that reports it per Go type.
   *
   * @param json the JSON bytes
   * @param keepOverflows whether overflowing numbers become placeholders
   * @return the value with its number literals
   * @throws DecodeException when the bytes are not one JSON value
   */
  public static Literal read(byte[] json, boolean keepOverflows) {
    NumberLiterals numbers = new NumberLiterals();
    try (JsonParser p = new Recording(FACTORY.createParser(Json.replaceInvalidUtf8(json)),
        numbers, keepOverflows)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new DecodeException("unexpected end of JSON input");
      }
      List<String> duplicates = new ArrayList<>();
      Value v = Json.readValue(p, t, Json.DuplicateKeys.KEEP_LAST, duplicates::add);
      if (p.nextToken() != null) {
        throw new DecodeException("invalid character after top-level value");
      }
      return new Literal(v, List.copyOf(duplicates), numbers);
    } catch (StreamConstraintsException e) {
      throw new DecodeException("exceeded max depth", e);
    } catch (JsonProcessingException e) {
      throw new DecodeException(e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new DecodeException(e.getMessage(), e);
    }
  }

  /** Sees each float and big integer literal as core's reader takes its value. */
  private static final class Recording extends JsonParserDelegate {
    private final NumberLiterals numbers;
    private final boolean keepOverflows;

    public Recording(JsonParser p, NumberLiterals numbers, boolean keepOverflows) {
      super(p);
      this.numbers = numbers;
      this.keepOverflows = keepOverflows;
    }

    @Override
    public double getDoubleValue() throws IOException {
      double d = delegate.getDoubleValue();
      if (Double.isFinite(d)) {
        numbers.record(d, delegate.getText());
        return d;
      }
      return keepOverflows ? numbers.overflow(delegate.getText()) : d;
    }

    @Override
    public BigInteger getBigIntegerValue() throws IOException {
      BigInteger b = delegate.getBigIntegerValue();
      double d = b.doubleValue();
      if (Double.isFinite(d)) {
        numbers.record(d, delegate.getText());
        return b;
      }
      // the placeholders are integral, so they survive the caller's doubleValue()
      return keepOverflows ? new BigDecimal(numbers.overflow(delegate.getText())).toBigInteger()
          : b;
    }
  }
}
