/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

/** The documented limits against hostile protobuf input. */
class ProtoCodecLimitsTest {
  private static final String PROPS =
      "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";
  private final ProtoCodec codec = new ProtoCodec(ProtoSchema.builtIn());

  /** A JSONSchemaProps nested {@code depth} times through its {@code not} field (28). */
  private static byte[] nested(int depth) {
    ProtoWire.Writer w = new ProtoWire.Writer();
    w.stringField(1, "innermost");
    byte[] b = w.toByteArray();
    for (int i = 0; i < depth; i++) {
      ProtoWire.Writer outer = new ProtoWire.Writer();
      outer.bytesField(28, b);
      b = outer.toByteArray();
    }
    return b;
  }

  @Test
  void nestingUpToTheLimitIsRead() {
    Value v = codec.decodeMessage(PROPS, nested(ProtoCodec.MAX_DEPTH - 1));
    for (int i = 0; i < ProtoCodec.MAX_DEPTH - 1; i++) {
      v = ((MapValue) v).getOrNull("not");
    }
    assertThat(((MapValue) v).getOrNull("id")).isEqualTo(Value.of("innermost"));
  }

  @Test
  void deeperNestingIsRefused() {
    assertThatThrownBy(() -> codec.decodeMessage(PROPS, nested(ProtoCodec.MAX_DEPTH + 1)))
        .isInstanceOf(DecodeException.class)
        .hasMessage("protobuf message nested deeper than " + ProtoCodec.MAX_DEPTH);
  }

  @Test
  void lengthsBeyondTheMessageAreRefused() {
    ProtoWire.Writer w = new ProtoWire.Writer();
    w.tag(1, ProtoWire.LEN);
    w.varint(Integer.MAX_VALUE);
    assertThatThrownBy(() -> codec.decodeMessage(PROPS, w.toByteArray()))
        .isInstanceOf(DecodeException.class).hasMessage("truncated protobuf message");
    ProtoWire.Writer negative = new ProtoWire.Writer();
    negative.tag(1, ProtoWire.LEN);
    negative.varint(-1L);
    assertThatThrownBy(() -> codec.decodeMessage(PROPS, negative.toByteArray()))
        .isInstanceOf(DecodeException.class);
  }

  @Test
  void wrongWireTypesAreRefused() {
    ProtoWire.Writer w = new ProtoWire.Writer();
    w.varintField(1, 7);
    assertThatThrownBy(() -> codec.decodeMessage(PROPS, w.toByteArray()))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("protobuf field id (1) of " + PROPS + " has wire type 0");
  }

  @Test
  void embeddedObjectsCountTowardsTheLimit() {
    // a WatchEvent whose object is a protobuf WatchEvent whose object is ..., as deep as it goes
    ProtoWire.Writer innermost = new ProtoWire.Writer();
    innermost.stringField(1, "ADDED");
    byte[] event = innermost.toByteArray();
    for (int i = 0; i < ProtoCodec.MAX_DEPTH; i++) {
      ProtoWire.Writer meta = new ProtoWire.Writer();
      meta.stringField(1, "v1");
      meta.stringField(2, "WatchEvent");
      ProtoWire.Writer unknown = new ProtoWire.Writer();
      unknown.raw(ProtoCodec.MAGIC);
      unknown.bytesField(1, meta.toByteArray());
      unknown.bytesField(2, event);
      ProtoWire.Writer raw = new ProtoWire.Writer();
      raw.bytesField(1, unknown.toByteArray());
      ProtoWire.Writer outer = new ProtoWire.Writer();
      outer.stringField(1, "ADDED");
      outer.bytesField(2, raw.toByteArray());
      event = outer.toByteArray();
    }
    byte[] deep = event;
    assertThatThrownBy(() -> codec.decodeWatchEvent(deep))
        .isInstanceOf(DecodeException.class)
        .hasMessage("protobuf message nested deeper than " + ProtoCodec.MAX_DEPTH);
  }
}
