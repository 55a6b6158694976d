/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Protobuf bytes built by hand from the wire format and the field numbers of the upstream
 * generated.proto files, as Go's generated marshallers write them (every non-pointer field, zero
 * or not), decoded to what kube-apiserver's JSON of the same Go object is.
 */
class ProtobufKnownBytesTest {
  private final ProtobufCodec codec = ProtobufCodec.builtIn();

  /** A message under construction: tags, varints and length-delimited fields. */
  private static final class Msg {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Msg varint(int field, long v) {
      raw(field << 3);
      raw(v);
      return this;
    }

    Msg bytes(int field, byte[] b) {
      raw(field << 3 | 2);
      raw(b.length);
      out.write(b, 0, b.length);
      return this;
    }

    Msg str(int field, String s) {
      return bytes(field, s.getBytes(StandardCharsets.UTF_8));
    }

    Msg msg(int field, Msg m) {
      return bytes(field, m.out.toByteArray());
    }

    private void raw(long v) {
      while ((v & ~0x7fL) != 0) {
        out.write((int) (v & 0x7f) | 0x80);
        v >>>= 7;
      }
      out.write((int) v);
    }
  }

  private static byte[] envelope(String apiVersion, String kind, Msg object) {
    Msg unknown = new Msg()
        .msg(1, new Msg().str(1, apiVersion).str(2, kind))
        .msg(2, object)
        .str(3, "")
        .str(4, "");
    byte[] body = unknown.out.toByteArray();
    byte[] all = new byte[body.length + 4];
    all[0] = 'k';
    all[1] = '8';
    all[2] = 's';
    all[3] = 0;
    System.arraycopy(body, 0, all, 4, body.length);
    return all;
  }

  private static Msg entry(String k, String v) {
    return new Msg().str(1, k).str(2, v);
  }

  /** ObjectMeta as gogo writes it: all non-pointer scalars, zero or not. */
  private static Msg objectMeta(String name, String namespace) {
    return new Msg().str(1, name).str(2, "").str(3, namespace).str(4, "").str(5, "")
        .str(6, "").varint(7, 0).msg(8, new Msg());
  }

  @Test
  void configMap() {
    Msg meta = objectMeta("cm", "default")
        .msg(8, new Msg().varint(1, 1_700_000_000L).varint(2, 0))
        .msg(11, entry("app", "web"));
    Msg configMap = new Msg()
        .msg(1, meta)
        .msg(2, entry("k", "v"))
        .msg(3, new Msg().str(1, "b").bytes(2, new byte[] {0, 1, 2}))
        .varint(4, 0);

    MapValue decoded = codec.decode(envelope("v1", "ConfigMap", configMap));

    assertThat(decoded).isEqualTo(Json.read("""
        {"kind":"ConfigMap","apiVersion":"v1",
         "metadata":{"name":"cm","namespace":"default","creationTimestamp":"2023-11-14T22:13:20Z",
                     "labels":{"app":"web"}},
         "immutable":false,"data":{"k":"v"},"binaryData":{"b":"AAEC"}}"""));
    assertThat(decoded.keyAt(0)).isEqualTo("kind");
    assertThat(decoded.keyAt(1)).isEqualTo("apiVersion");
  }

  @Test
  void deployment() {
    Msg container = new Msg().str(1, "nginx").str(2, "nginx:1.25").str(5, "")
        .msg(6, new Msg().str(1, "").varint(2, 0).varint(3, 80).str(4, "TCP").str(5, ""))
        .msg(8, new Msg())
        .str(13, "").str(14, "").varint(16, 0).varint(17, 0).varint(18, 0).str(20, "");
    Msg template = new Msg()
        .msg(1, objectMeta("", "").msg(11, entry("app", "web")))
        .msg(2, new Msg().msg(2, container));
    Msg strategy = new Msg().str(1, "RollingUpdate")
        .msg(2, new Msg()
            .msg(1, new Msg().varint(1, 1).varint(2, 0).str(3, "25%"))
            .msg(2, new Msg().varint(1, 0).varint(2, 1).str(3, "")));
    Msg spec = new Msg()
        .varint(1, 0)                                       // replicas: a pointer, set to 0
        .msg(2, new Msg().msg(1, entry("app", "web")))
        .msg(3, template)
        .msg(4, strategy)
        .varint(5, 0)
        .varint(6, 10)
        .varint(7, 0);
    Msg status = new Msg().varint(1, 0).varint(2, 0).varint(3, 0).varint(4, 0).varint(5, 0)
        .varint(7, 0);
    Msg deployment = new Msg().msg(1, objectMeta("web", "default")).msg(2, spec)
        .msg(3, status);

    MapValue decoded = codec.decode(envelope("apps/v1", "Deployment", deployment));

    assertThat(decoded).isEqualTo(Json.read("""
        {"kind":"Deployment","apiVersion":"apps/v1",
         "metadata":{"name":"web","namespace":"default"},
         "spec":{"replicas":0,
                 "selector":{"matchLabels":{"app":"web"}},
                 "template":{"metadata":{"labels":{"app":"web"}},
                             "spec":{"containers":[{"name":"nginx","image":"nginx:1.25",
                                     "ports":[{"containerPort":80,"protocol":"TCP"}],
                                     "resources":{}}]}},
                 "strategy":{"type":"RollingUpdate",
                             "rollingUpdate":{"maxUnavailable":"25%","maxSurge":1}},
                 "revisionHistoryLimit":10},
         "status":{}}"""));
  }

  @Test
  void skipsFieldsItDoesNotKnowOfEveryWireType() {
    Msg meta = new Msg().str(1, "s").str(99, "long enough to matter").varint(98, 300);
    Msg secret = new Msg().msg(1, meta).msg(97, new Msg().str(1, "x")).str(3, "Opaque");
    assertThat(codec.decode(envelope("v1", "Secret", secret))).isEqualTo(Json.read(
        "{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"s\"},"
            + "\"type\":\"Opaque\"}"));
  }

  @Test
  void watchEventsCarryTheirObjectInProtobuf() {
    MapValue cm = (MapValue) Json.read(
        "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"cm\"}}");
    byte[] event = codec.encodeWatchEvent("MODIFIED", cm);
    // WatchEvent {1: type, 2: RawExtension {1: raw}}, no envelope; the raw is a protobuf body
    assertThat(event[0]).isEqualTo((byte) 0x0a);
    byte[] body = codec.encode(cm);
    Msg expected = new Msg().str(1, "MODIFIED").msg(2, new Msg().bytes(1, body));
    assertThat(event).isEqualTo(expected.out.toByteArray());
    ProtobufCodec.WatchEvent decoded = codec.decodeWatchEvent(event);
    assertThat(decoded.type()).isEqualTo("MODIFIED");
    assertThat(decoded.object()).isEqualTo(cm);
  }

  @Test
  void encodesWhatItDecodes() {
    MapValue cm = (MapValue) Json.read("""
        {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm"},"data":{"b":"2","a":"1"}}
        """);
    byte[] bytes = codec.encode(cm);
    // the envelope: prefix, then typeMeta {apiVersion "v1", kind "ConfigMap"}
    assertThat(new String(bytes, 0, 4, StandardCharsets.ISO_8859_1)).isEqualTo("k8s\0");
    assertThat(bytes[4]).isEqualTo((byte) 0x0a);
    assertThat(codec.decode(bytes)).isEqualTo(cm);
  }

  @Test
  void rejectsWhatIsNotAKubernetesProtobufObject() {
    assertThatThrownBy(() -> codec.decode("{}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(DecodeException.class);
    byte[] truncated = envelope("v1", "ConfigMap", new Msg().msg(1, objectMeta("cm", "")));
    byte[] cut = java.util.Arrays.copyOf(truncated, truncated.length - 3);
    assertThatThrownBy(() -> codec.decode(cut)).isInstanceOf(DecodeException.class);
    assertThatThrownBy(() -> codec.decode(envelope("stable.example.com/v1", "CronTab",
        new Msg()))).isInstanceOf(ProtobufCodec.UnsupportedKindException.class)
        .hasMessageContaining("CronTab");
  }
}
