/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi.internal.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProtoDescriptorGeneratorTest {

  private static Path shared() {
    return Path.of(System.getProperty("apiserver4j.shared", "../../shared"));
  }

  @Test
  void committedDescriptorsAreWhatTheGeneratorWrites() throws IOException {
    byte[] generated = ProtoDescriptorGenerator.generate(shared().resolve("api/proto"),
        Path.of("src/proto/go-field-hints.txt"));
    byte[] committed;
    try (InputStream in = ProtoDescriptorGenerator.class.getResourceAsStream(
        ProtoDescriptorGenerator.RESOURCE)) {
      committed = in.readAllBytes();
    }
    assertThat(new String(committed, StandardCharsets.UTF_8))
        .as("regenerate with ProtoDescriptorGenerator (see its javadoc)")
        .isEqualTo(new String(generated, StandardCharsets.UTF_8));
  }

  @Test
  void parsesMapsNestedMessagesAndMarkers() {
    ProtoParser.ProtoFile f = ProtoParser.parse("""
        syntax = "proto2";
        package a.b;
        import "x/y.proto";
        option go_package = "a/b";
        // Outer is a thing.
        // +protobuf.nullable=true
        message Outer {
          // a comment
          optional string name = 1;
          repeated Inner items = 2 [packed = false];
          map<string, bytes> data = 3;
          message Inner {
            optional int64 n = 7;
          }
        }
        """, "t.proto");
    assertThat(f.packageName()).isEqualTo("a.b");
    assertThat(f.imports()).containsExactly("x/y.proto");
    assertThat(f.messages()).extracting(ProtoParser.Message::fullName)
        .containsExactly("a.b.Outer", "a.b.Outer.Inner");
    ProtoParser.Message outer = f.messages().get(0);
    assertThat(outer.markers()).containsExactly("+protobuf.nullable=true");
    assertThat(outer.fields()).containsExactly(
        new ProtoParser.Field("name", 1, "optional", "string", ""),
        new ProtoParser.Field("items", 2, "repeated", "Inner", ""),
        new ProtoParser.Field("data", 3, "repeated", "bytes", "string"));
    assertThat(f.messages().get(1).markers()).isEmpty();
  }

  @Test
  void rejectsWhatItDoesNotUnderstand() {
    assertThatThrownBy(() -> ProtoParser.parse("syntax = \"proto3\";", "p3.proto"))
        .hasMessageContaining("p3.proto:1").hasMessageContaining("proto3");
    assertThatThrownBy(() -> ProtoParser.parse("message M { optional string a = x; }", "m"))
        .hasMessageContaining("number 'x'");
  }
}
