/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Several {@code @ApiServerTest} classes at once in one JVM, with JUnit's
 * {@code junit.jupiter.execution.parallel.enabled}: each class has its own server, port, clock
 * and uid sequence, and sees only the objects it wrote, with and without controllers.
 */
class ParallelClassesTest {
  private static final int CLASSES = 4;
  private static final Duration IDLE = Duration.ofSeconds(60);
  /**
   * Every fixture class's first test counts down, then waits for the others': the run passes
   * only if the four classes' servers were up at the same time, so they did run in parallel.
   */
  private static volatile CountDownLatch allStarted = new CountDownLatch(CLASSES);

  /** What each fixture class does: its tests write objects named after it and look around. */
  abstract static class Fixture {
    @RepeatedTest(3)
    void seesOnlyItsOwnObjects(TestApiServer server, TestReporter reporter)
        throws InterruptedException {
      String me = getClass().getSimpleName().toLowerCase();
      allStarted.countDown();
      assertThat(allStarted.await(IDLE.toSeconds(), TimeUnit.SECONDS))
          .as("the other classes' servers started meanwhile").isTrue();
      ResourceClient configMaps = server.resources("v1", "configmaps").namespace("default");
      String name = me + "-" + configMaps.list().size();
      configMaps.create(Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name
          + "}, data: {k: v}}"));
      assertThat(configMaps.list()).extracting(c -> Meta.metaString(c, "name"))
          .allMatch(n -> n.startsWith(me + "-")).contains(name);
      reporter.publishEntry("port", Integer.toString(server.http().port()));
      reporter.publishEntry("server", me + " " + System.identityHashCode(server));
    }
  }

  @ApiServerTest
  static class Alpha extends Fixture {
  }

  @ApiServerTest(lifecycle = Lifecycle.RESET_PER_METHOD)
  static class Bravo extends Fixture {
  }

  /** With controllers: a ReplicaSet's Pods are made by this class's controllers only. */
  @ApiServerTest(controllers = "*", lifecycle = Lifecycle.RESET_PER_METHOD)
  static class Charlie extends Fixture {
    @Test
    void itsControllersMakeItsPods(TestApiServer server) {
      server.resources("apps/v1", "replicasets").namespace("default").create(Yaml.read(
          "{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: charlie}, spec: {replicas:"
              + " 2, selector: {matchLabels: {app: charlie}}, template: {metadata: {labels:"
              + " {app: charlie}}, spec: {containers: [{name: c, image: nginx}]}}}}"));
      assertThat(server.awaitControllersIdle(IDLE)).isTrue();
      assertThat(server.resources("v1", "pods").namespace("default").list())
          .extracting(p -> Meta.metaString(p, "generateName"))
          .containsExactly("charlie-", "charlie-");
    }
  }

  @ApiServerTest(controllers = "*")
  static class Delta extends Fixture {
  }

  @Test
  void classesRunAtOnceEachWithAnIsolatedServer() {
    allStarted = new CountDownLatch(CLASSES);
    EngineExecutionResults r = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(Alpha.class), selectClass(Bravo.class),
            selectClass(Charlie.class), selectClass(Delta.class))
        .configurationParameters(Map.of(
            "junit.jupiter.execution.parallel.enabled", "true",
            "junit.jupiter.execution.parallel.mode.default", "same_thread",
            "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
            "junit.jupiter.execution.parallel.config.strategy", "fixed",
            "junit.jupiter.execution.parallel.config.fixed.parallelism",
            Integer.toString(CLASSES)))
        .execute();
    LifecycleTest.debug(r);
    r.testEvents().assertStatistics(s -> s.started(13).succeeded(13));
    List<String> servers = LifecycleTest.published(r, "server");
    // one server per class, whatever its lifecycle
    assertThat(servers.stream().distinct()).hasSize(CLASSES);
    assertThat(servers.stream().map(s -> s.split(" ")[0]).distinct()).hasSize(CLASSES);
    assertThat(LifecycleTest.published(r, "port").stream().distinct()).hasSize(CLASSES);
  }
}
