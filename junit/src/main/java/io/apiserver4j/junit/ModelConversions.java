/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.Status;
import java.util.function.Function;

/**
 * A client library's model objects in and out of the in-process API, through the client's own
 * JSON (so a conversion is exactly what the client would send or read), and the assertions of
 * {@link ApiServerAssertions} on them. The client modules build one each; another client needs only
 * its JSON writer and reader. Thread-safe if the client's JSON is.
 *
 * @param <M> the client's base model type
 */
public final class ModelConversions<M> {

  /**
   * How the client reads its JSON into a model class.
   *
   * @param <M> the client's base model type
   */
  @FunctionalInterface
  public interface Reader<M> {
    /**
     * Reads {@code json} as a {@code type}.
     *
     * @param json the JSON text
     * @param type the model class
     * @param <T> the model type
     * @return the model object
     */
    <T extends M> T read(String json, Class<T> type);
  }

  private final Function<? super M, String> writer;
  private final Reader<M> reader;

  private ModelConversions(Function<? super M, String> writer, Reader<M> reader) {
    this.writer = requireNonNull(writer, "writer");
    this.reader = requireNonNull(reader, "reader");
  }

  /**
   * Conversions with the client's JSON writer and reader.
   *
   * @param writer writes a model object as JSON
   * @param reader reads JSON as a model class
   * @param <M> the client's base model type
   * @return the conversions
   */
  public static <M> ModelConversions<M> of(Function<? super M, String> writer, Reader<M> reader) {
    return new ModelConversions<>(writer, reader);
  }

  /**
   * The object as the in-process API takes it.
   *
   * @param object a model object
   * @return its JSON object
   * @throws IllegalArgumentException if the client writes it as something other than an object
   */
  public MapValue toValue(M object) {
    requireNonNull(object, "object");
    Value v = Json.read(writer.apply(object));
    if (!(v instanceof MapValue m)) {
      throw new IllegalArgumentException("not a JSON object: " + object.getClass().getName());
    }
    return m;
  }

  /**
   * A value the in-process API returned, as a model object of {@code type}.
   *
   * @param value the value
   * @param type the model class
   * @param <T> the model type
   * @return the model object
   */
  public <T extends M> T toObject(Value value, Class<T> type) {
    requireNonNull(value, "value");
    requireNonNull(type, "type");
    return reader.read(Json.write(value), type);
  }

  /**
   * {@link ApiServerAssertions#assertThat(MapValue)} on a model object.
   *
   * @param object a model object
   * @return the assertion
   */
  public ObjectAssert assertThat(M object) {
    return ApiServerAssertions.assertThat(toValue(object));
  }

  /**
   * {@link ApiServerAssertions#assertThat(Status)} on a Status a failed call carried as JSON.
   *
   * @param statusJson the Status body
   * @return the assertion
   * @throws IllegalArgumentException if the text is no JSON object
   */
  public static StatusAssert assertThatStatus(String statusJson) {
    requireNonNull(statusJson, "statusJson");
    return ApiServerAssertions.assertThat(Status.fromValue(Json.read(statusJson)));
  }
}
