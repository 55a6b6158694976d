/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.errors.UnsupportedMediaTypeException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtobufBodiesTest {
  private static final io.apiserver4j.kubeapi.ProtobufCodec CODEC =
      io.apiserver4j.kubeapi.ProtobufCodec.builtIn();
  static final List<String> JSON = List.of("application/json");

  /** Just enough of a protobuf writer to build test messages. */
  static final class Pb {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Pb str(int field, String s) {
      return bytes(field, s.getBytes(StandardCharsets.UTF_8));
    }

    Pb msg(int field, Pb m) {
      return bytes(field, m.out.toByteArray());
    }

    Pb varint(int field, long v) {
      raw((field << 3));
      raw(v);
      return this;
    }

    Pb bytes(int field, byte[] b) {
      raw((field << 3) | 2);
      raw(b.length);
      out.writeBytes(b);
      return this;
    }

    Pb entry(int field, String k, String v) {
      return msg(field, new Pb().str(1, k).str(2, v));
    }

    private void raw(long v) {
      while ((v & ~0x7fL) != 0) {
        out.write((int) ((v & 0x7f) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    byte[] envelope(String apiVersion, String kind) {
      Pb unknown = new Pb().msg(1, new Pb().str(1, apiVersion).str(2, kind))
          .bytes(2, out.toByteArray());
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      b.writeBytes(new byte[] {'k', '8', 's', 0});
      b.writeBytes(unknown.out.toByteArray());
      return b.toByteArray();
    }
  }

  @Test
  void configMapAsGoWouldDecodeIt() {
    Pb meta = new Pb().str(1, "cm").str(2, "").str(3, "ns").varint(7, 0)
        .msg(8, new Pb()).entry(11, "app", "demo");
    byte[] body = new Pb().msg(1, meta).varint(4, 0).entry(2, "a", "1")
        .bytes(3, new Pb().str(1, "bin").bytes(2, new byte[] {1, 2}).out.toByteArray())
        .envelope("v1", "ConfigMap");
    assertThat(Json.write(ProtobufBodies.decode(CODEC, body, JSON))).isEqualTo(
        "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"cm\","
            + "\"namespace\":\"ns\",\"labels\":{\"app\":\"demo\"}},\"immutable\":false,"
            + "\"data\":{\"a\":\"1\"},\"binaryData\":{\"bin\":\"AQI=\"}}");
  }

  @Test
  void timesAndListsOfMessages() {
    Pb meta = new Pb().str(1, "sa").msg(9, new Pb().varint(1, 1735689600))
        .msg(13, new Pb().str(1, "Deployment").str(3, "web").str(4, "u1").str(5, "apps/v1")
            .varint(6, 1))
        .str(14, "f1").str(14, "f2");
    byte[] body = new Pb().msg(1, meta).msg(3, new Pb().str(1, "pull"))
        .envelope("v1", "ServiceAccount");
    assertThat(Json.write(ProtobufBodies.decode(CODEC, body, JSON))).isEqualTo(
        "{\"kind\":\"ServiceAccount\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"sa\","
            + "\"deletionTimestamp\":\"2025-01-01T00:00:00Z\",\"ownerReferences\":[{\"apiVersion\":"
            + "\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"web\",\"uid\":\"u1\","
            + "\"controller\":true}],\"finalizers\":[\"f1\",\"f2\"]},\"imagePullSecrets\":"
            + "[{\"name\":\"pull\"}]}");
  }

  @Test
  void everyBuiltInKindIsReadButCustomResourcesAre415() {
    byte[] deployment = new Pb().msg(1, new Pb().str(1, "web"))
        .msg(2, new Pb().varint(1, 3)).envelope("apps/v1", "Deployment");
    assertThat(Json.write(ProtobufBodies.decode(CODEC, deployment, JSON))).isEqualTo(
        "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"web\"},"
            + "\"spec\":{\"replicas\":3,\"template\":{\"metadata\":{},\"spec\":{}},"
            + "\"strategy\":{}},\"status\":{}}");
    byte[] crontab = new Pb().msg(1, new Pb().str(1, "c")).envelope("stable.example.com/v1",
        "CronTab");
    assertThatThrownBy(() -> ProtobufBodies.decode(CODEC, crontab,
        List.of("application/json", "application/yaml", ProtobufBodies.MEDIA_TYPE)))
        .isInstanceOf(UnsupportedMediaTypeException.class)
        .hasMessage("the body of the request was in an unknown format - accepted media types"
            + " include: application/json, application/yaml");
  }

  @Test
  void unknownFieldsAreSkippedAndBadBytesAre400() {
    // as Go's generated unmarshallers, fields of a newer version are skipped
    byte[] unknownField = new Pb().msg(1, new Pb().str(1, "s").str(99, "x"))
        .envelope("v1", "Secret");
    assertThat(Json.write(ProtobufBodies.decode(CODEC, unknownField, JSON))).isEqualTo(
        "{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"s\"}}");
    assertThatThrownBy(() -> ProtobufBodies.decode(CODEC, "{}".getBytes(StandardCharsets.UTF_8), JSON))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("provided object is not a Kubernetes protobuf message");
    byte[] good = new Pb().msg(1, new Pb().str(1, "x")).envelope("v1", "Secret");
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
    assertThatThrownBy(() -> ProtobufBodies.decode(CODEC, truncated, JSON))
        .isInstanceOf(BadRequestException.class).hasMessage("truncated protobuf message");
  }

  @Test
  void responsesOfBuiltInKindsAreProtobufOthersAreNot() {
    assertThat(ProtobufBodies.encode(CODEC, Json.read(
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":404}")))
        .hasValueSatisfying(b -> assertThat(ProtobufBodies.decode(CODEC, b, JSON)).isEqualTo(Json.read(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"code\":404}")));
    assertThat(ProtobufBodies.encode(CODEC, Json.read(
        "{\"kind\":\"CronTab\",\"apiVersion\":\"stable.example.com/v1\"}"))).isEmpty();
    assertThat(ProtobufBodies.encode(CODEC, Json.read(
        "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"data\":[1]}"))).isEmpty();
  }
}
