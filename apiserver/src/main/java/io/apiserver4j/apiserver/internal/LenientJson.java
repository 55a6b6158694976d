package io.apiserver4j.apiserver.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import java.io.IOException;
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

  private LenientJson() {}

  /** @throws DecodeException when the bytes are not one JSON value */
  public static Decoded read(byte[] json) {
    try (JsonParser p = FACTORY.createParser(Json.replaceInvalidUtf8(json))) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new DecodeException("unexpected end of JSON input");
      }
      List<String> duplicates = new ArrayList<>();
      Value v = Json.readValue(p, t, Json.DuplicateKeys.KEEP_LAST, duplicates::add);
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
}
