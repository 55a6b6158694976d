/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The extension's lifecycles, run through JUnit's engine test kit. */
class LifecycleTest {

  static EngineExecutionResults run(Class<?> fixture, Map<String, String> configuration) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture))
        .configurationParameters(configuration).execute();
  }

  /** Prints the failures of a run that should have none, so a broken fixture explains itself. */
  static EngineExecutionResults debug(EngineExecutionResults r) {
    r.allEvents().failed().stream().forEach(e -> e.getPayload(
        org.junit.platform.engine.TestExecutionResult.class).flatMap(
        org.junit.platform.engine.TestExecutionResult::getThrowable)
        .ifPresent(Throwable::printStackTrace));
    return r;
  }

  static List<String> published(EngineExecutionResults results, String key) {
    return results.allEvents().reportingEntryPublished().stream()
        .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class)
            .orElseThrow().getKeyValuePairs().get(key))
        .filter(v -> v != null).toList();
  }

  static MapValue configMap(String name) {
    return (MapValue) Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name
        + "}, data: {k: v}}");
  }

  // ---------------------------------------------------------------- PER_METHOD

  @ApiServerTest(lifecycle = Lifecycle.PER_METHOD)
  @WithManifests("manifests/app.yaml")
  static class PerMethod {
    HttpApiServer http;

    @RepeatedTest(4)
    void eachTestHasItsOwnServer(ApiServer api, TestReporter reporter) {
      ResourceClient configMaps = api.resources("v1", "configmaps").namespace("default");
      Assertions.assertThat(configMaps.find("scratch")).isEmpty();
      MapValue created = configMaps.create(configMap("scratch"));
      reporter.publishEntry("port", Integer.toString(http.port()));
      reporter.publishEntry("uid", Nested.str(created, "metadata", "uid"));
    }
  }

  @Test
  void perMethodStartsOneServerPerTestWithTheSameUids() {
    EngineExecutionResults r = debug(run(PerMethod.class, Map.of()));
    r.testEvents().assertStatistics(s -> s.started(4).succeeded(4));
    assertThat(published(r, "port")).hasSize(4).doesNotHaveDuplicates();
    assertThat(published(r, "uid")).hasSize(4).containsOnly(published(r, "uid").get(0));
  }

  @Test
  void perMethodServersRunInParallel() {
    EngineExecutionResults r = run(PerMethod.class, Map.of(
        "junit.jupiter.execution.parallel.enabled", "true",
        "junit.jupiter.execution.parallel.mode.default", "concurrent",
        "junit.jupiter.execution.parallel.config.strategy", "fixed",
        "junit.jupiter.execution.parallel.config.fixed.parallelism", "4"));
    r.testEvents().assertStatistics(s -> s.started(4).succeeded(4));
    assertThat(published(r, "port")).hasSize(4).doesNotHaveDuplicates();
  }

  // ---------------------------------------------------------------- RESET_PER_METHOD

  @ApiServerTest(lifecycle = Lifecycle.RESET_PER_METHOD)
  @WithManifests({"crds/*.yaml", "manifests/*.yaml"})
  static class ResetPerMethod {
    @RepeatedTest(3)
    void eachTestSeesTheLoadedStateAndMayChangeAnything(TestApiServer server,
        TestReporter reporter) {
      ResourceClient configMaps = server.resources("v1", "configmaps").namespace("default");
      ResourceClient widgets = server.resources("example.com/v1", "widgets").namespace("team-a");
      ResourceClient crds = server.resources("apiextensions.k8s.io/v1",
          "customresourcedefinitions");
      // the state after the manifests
      Assertions.assertThat(configMaps.find("scratch")).isEmpty();
      Assertions.assertThat(Nested.str(configMaps.get("settings"), "data", "a")).isEqualTo("1");
      Assertions.assertThat(widgets.find("w1")).isPresent();
      Assertions.assertThat(widgets.find("w2")).isEmpty();
      Assertions.assertThat(server.api().registry().find(new io.apiserver4j.core
          .GroupVersionResource("example.com", "v1", "things"))).isEmpty();
      Assertions.assertThat(server.clock().instant()).isEqualTo(TestClock.DEFAULT_START);

      // change all of it
      MapValue scratch = configMaps.create(configMap("scratch"));
      reporter.publishEntry("uid", Nested.str(scratch, "metadata", "uid"));
      reporter.publishEntry("port", Integer.toString(server.http().port()));
      configMaps.apply("someone", "{apiVersion: v1, kind: ConfigMap, metadata: {name: settings},"
          + " data: {a: '2'}}", io.apiserver4j.merge.Force.YES);
      widgets.delete("w1");
      widgets.create(Yaml.read("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w2}}"));
      crds.delete("widgets.example.com");
      server.resources("v1", "namespaces").create(Yaml.read(
          "{apiVersion: v1, kind: Namespace, metadata: {name: extra}}"));
      crds.create(Yaml.read("""
          apiVersion: apiextensions.k8s.io/v1
          kind: CustomResourceDefinition
          metadata: {name: things.example.com}
          spec:
            group: example.com
            scope: Cluster
            names: {plural: things, singular: thing, kind: Thing}
            versions:
            - name: v1
              served: true
              storage: true
              schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
          """));
      server.resources("example.com/v1", "things").create(Yaml.read(
          "{apiVersion: example.com/v1, kind: Thing, metadata: {name: t}}"));
      crds.delete("gadgets.example.com");
      server.clock().advance(Duration.ofMinutes(5));
    }
  }

  @Test
  void resetPerMethodRestoresTheStorageClockAndUidsOnOneServer() {
    EngineExecutionResults r = debug(run(ResetPerMethod.class, Map.of()));
    r.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
    assertThat(published(r, "port")).hasSize(3).containsOnly(published(r, "port").get(0));
    assertThat(published(r, "uid")).hasSize(3).containsOnly(published(r, "uid").get(0));
  }

  // ---------------------------------------------------------------- PER_CLASS

  @ApiServerTest
  @org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
  static class PerClass {
    @Test
    @org.junit.jupiter.api.Order(1)
    void first(ApiServer api) {
      api.resources("v1", "configmaps").namespace("default").create(configMap("kept"));
    }

    @Test
    @org.junit.jupiter.api.Order(2)
    @WithManifests("manifests/app.yaml")
    void secondSeesTheFirstsObjectsAndItsOwnManifests(ApiServer api) {
      ResourceClient configMaps = api.resources("v1", "configmaps").namespace("default");
      Assertions.assertThat(configMaps.find("kept")).isPresent();
      Assertions.assertThat(configMaps.find("settings")).isPresent();
    }

    @org.junit.jupiter.api.Nested
    class Inner {
      @Test
      void sharesTheEnclosingServer(ApiServer api) {
        Assertions.assertThat(api.resources("v1", "configmaps").namespace("default")
            .find("kept")).isPresent();
      }
    }
  }

  @ApiServerTest
  @org.junit.jupiter.api.TestInstance(org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS)
  static class PerClassInstance {
    ApiServer api;
    String namespaceUid;

    @org.junit.jupiter.api.BeforeAll
    void instanceFieldsAreReadyInBeforeAll() {
      namespaceUid = Nested.str(api.resources("v1", "namespaces").get("default"), "metadata",
          "uid");
    }

    @Test
    void test() {
      Assertions.assertThat(namespaceUid).isEqualTo("00000000-0000-4000-8000-000000000001");
    }
  }

  @Test
  void instanceFieldsAreInjectedBeforeNonStaticBeforeAll() {
    debug(run(PerClassInstance.class, Map.of())).testEvents()
        .assertStatistics(s -> s.started(1).succeeded(1));
  }

  @Test
  void perClassSharesOneServerAcrossTestsAndNestedClasses() {
    debug(run(PerClass.class, Map.of())).testEvents()
        .assertStatistics(s -> s.started(3).succeeded(3));
  }

  // ---------------------------------------------------------------- failures

  @ApiServerTest(lifecycle = Lifecycle.PER_METHOD)
  static class StaticFieldPerMethod {
    static ApiServer api;

    @Test
    void test() {}
  }

  @Test
  void aStaticFieldCannotHoldAPerMethodServer() {
    run(StaticFieldPerMethod.class, Map.of()).testEvents().assertThatEvents().haveExactly(1,
        event(finishedWithFailure(instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("static field StaticFieldPerMethod.api")))));
  }

  @ApiServerTest
  @WithManifests("invalid/broken.yaml")
  static class BrokenManifest {
    @Test
    void test() {}
  }

  @Test
  void aRejectedManifestFailsTheClassNamingTheFileAndTheServersMessage() {
    Events events = run(BrokenManifest.class, Map.of()).containerEvents();
    events.assertThatEvents().haveExactly(1, event(finishedWithFailure(
        message(m -> m.startsWith("invalid/broken.yaml: cannot create ConfigMap"
            + " Not_A_Valid_Name: ConfigMap \"Not_A_Valid_Name\" is invalid")))));
  }

  @ApiServerTest
  @WithManifests("manifests/absent-*.yaml")
  static class MissingManifest {
    @Test
    void test() {}
  }

  @Test
  void aLocationMatchingNothingFailsTheClass() {
    run(MissingManifest.class, Map.of()).containerEvents().assertThatEvents().haveExactly(1,
        event(finishedWithFailure(message(
            "no manifest matches manifests/absent-*.yaml on the class path or the file system"))));
  }

  @ApiServerTest
  static class ClientWithoutFactory {
    @Test
    void test(TestApiServer server) {
      server.client(java.net.http.HttpClient.class);
    }
  }

  @Test
  void aClientTypeWithoutFactoryNamesTheModulesToAdd() {
    run(ClientWithoutFactory.class, Map.of()).testEvents().assertThatEvents().haveExactly(1,
        event(finishedWithFailure(instanceOf(IllegalArgumentException.class), message(
            "no ClientFactory on the class path makes java.net.http.HttpClient; add"
                + " apiserver4j-junit-fabric8 or apiserver4j-junit-client-java"))));
  }

  @Test
  void manifestsLoadFromFilesToo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Files.writeString(dir.resolve("one.yaml"),
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: from-file}}");
    try (io.apiserver4j.junit.internal.TestServer s = io.apiserver4j.junit.internal.TestServer
        .start(List.of(dir + "/*.yaml"), getClass().getClassLoader(), Map.of(), List.of())) {
      assertThat(s.api().resources("v1", "configmaps").namespace("default").find("from-file"))
          .isPresent();
      s.api().resources("v1", "configmaps").namespace("default").delete("from-file");
      s.reset();
      assertThat(s.api().resources("v1", "configmaps").namespace("default").find("from-file"))
          .isPresent();
    }
  }

  @Test
  void manifestGlobsMatchInJars(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path jar = dir.resolve("manifests.jar");
    try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(
        java.nio.file.Files.newOutputStream(jar))) {
      out.putNextEntry(new java.util.jar.JarEntry("fixtures/")); // as Maven and Gradle write it
      out.closeEntry();
      for (String name : List.of("fixtures/b.yaml", "fixtures/a.yaml", "fixtures/skip.txt")) {
        out.putNextEntry(new java.util.jar.JarEntry(name));
        out.write(("{apiVersion: v1, kind: ConfigMap, metadata: {name: "
            + name.substring(9, name.indexOf('.')) + "}}").getBytes(
            java.nio.charset.StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    try (java.net.URLClassLoader loader = new java.net.URLClassLoader(
        new java.net.URL[] {jar.toUri().toURL()}, null);
        io.apiserver4j.junit.internal.TestServer s = io.apiserver4j.junit.internal.TestServer
            .start(List.of("fixtures/*.yaml"), loader, Map.of(), List.of())) {
      assertThat(s.api().resources("v1", "configmaps").namespace("default").list())
          .extracting(c -> Nested.str(c, "metadata", "name")).containsExactly("a", "b");
    }
  }
}
