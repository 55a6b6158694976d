/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.apimachinery.patch.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table-driven defaulting and validation of the built-in kinds with their kube-apiserver
 * registry rules (Pod, PodTemplate, Service, ReplicationController, the apps/v1 workloads, Job
 * and CronJob). Each case of {@code builtin/*.yaml} is a create (or, with {@code before}, a
 * create then an update by PUT or merge patch) and the answer kube-apiserver 1.36 gives: its
 * code, its exact message (or its start and end where kube prints a Go struct), the fields of the
 * stored object. Every case runs as a real request and as a dry run, which must answer the same.
 */
class BuiltinKindRulesTest {

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (String file : List.of("pods", "pod-spec", "services", "workloads", "batch", "defaults")) {
      String path = "/io/apiserver4j/apiserver/builtin/" + file + ".yaml";
      try (InputStream in = BuiltinKindRulesTest.class.getResourceAsStream(path)) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        for (Value c : ((ListValue) Yaml.read(text)).items()) {
          MapValue m = (MapValue) c;
          out.add(Arguments.of(file + ": " + str(m, "name"), m));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void realRequest(String name, MapValue c) {
    check(c, false);
  }

  @ParameterizedTest(name = "{0} (dry run)")
  @MethodSource("cases")
  void dryRun(String name, MapValue c) {
    check(c, true);
  }

  private static void check(MapValue c, boolean dryRun) {
    Fixtures f = new Fixtures();
    String[] gvr = str(c, "gvr").split("/");
    GroupVersionResource resource = gvr.length == 2
        ? new GroupVersionResource("", gvr[0], gvr[1])
        : new GroupVersionResource(gvr[0], gvr[1], gvr[2]);
    ApiResponse r;
    if (c.getOrNull("before") instanceof MapValue before) {
      assertThat(f.create(resource, "default", before, "test").code()).isEqualTo(201);
      String objName = Meta.metaString(before, "name");
      ApiRequest.Builder b = Fixtures.req(c.containsKey("patch") ? Verb.PATCH : Verb.UPDATE,
          resource, "default", objName).fieldManager("test").dryRun(dryRun);
      if (c.getOrNull("patch") instanceof MapValue patch) {
        b.patch(PatchType.MERGE_PATCH, Json.write(patch));
      } else {
        b.body(c.getOrNull("object"));
      }
      r = f.server.handle(b.build());
    } else {
      r = f.server.handle(Fixtures.req(Verb.CREATE, resource, "default", "")
          .body(c.getOrNull("object")).fieldManager("test").dryRun(dryRun).build());
    }
    String message = str(r.body(), "message");
    assertThat(r.code()).as(message).isEqualTo((int) ((io.apiserver4j.core.IntegerValue)
        c.getOrNull("code")).value());
    if (c.containsKey("message")) {
      assertThat(message).isEqualTo(str(c, "message"));
    }
    if (c.containsKey("messageStartsWith")) {
      assertThat(message).startsWith(str(c, "messageStartsWith"));
    }
    if (c.containsKey("messageEndsWith")) {
      assertThat(message).endsWith(str(c, "messageEndsWith"));
    }
    if (c.getOrNull("expect") instanceof MapValue expect) {
      assertSubset(expect, r.body(), "");
    }
  }

  /** Every field of {@code expected} is in {@code actual} with the same value; lists by index. */
  static void assertSubset(Value expected, Value actual, String path) {
    if (expected instanceof MapValue e) {
      assertThat(actual).as(path).isInstanceOf(MapValue.class);
      MapValue a = (MapValue) actual;
      for (int i = 0; i < e.size(); i++) {
        assertSubset(e.valueAt(i), a.getOrNull(e.keyAt(i)), path + "." + e.keyAt(i));
      }
    } else if (expected instanceof ListValue e) {
      assertThat(actual).as(path).isInstanceOf(ListValue.class);
      ListValue a = (ListValue) actual;
      assertThat(a.size()).as(path).isEqualTo(e.size());
      for (int i = 0; i < e.size(); i++) {
        assertSubset(e.get(i), a.get(i), path + "[" + i + "]");
      }
    } else {
      assertThat(actual).as(path).isEqualTo(expected);
    }
  }
}
