/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.metrics;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.apiserver.strategy.VirtualRead;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusErrors;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * metrics-server's API, {@code metrics.k8s.io/v1beta1}, served by an {@link ApiServer} from a
 * {@link PodMetrics} source, so that {@code kubectl top pod}, {@code kubectl top pod
 * --containers} and {@code kubectl top node} answer as against a cluster running metrics-server.
 *
 * <p>Read-only ({@code get} and {@code list}; every other verb is kube's 405), computed at each
 * read on the clock given: a {@code PodMetrics} for each existing Running Pod that has metrics in
 * the source (its name, namespace and labels, the sample's {@code timestamp} at the clock's now, a
 * {@code window} of {@link PodMetrics#WINDOW}, {@code containers[].usage}); a
 * {@code NodeMetrics} for each existing Node, whose {@code usage} is the one set with
 * {@link PodMetrics#setNodeUsage} or else the sum of its Pods' usage. Label selectors select by
 * the Pod's and Node's labels, as metrics-server's; a {@code get} of a Pod that does not exist is
 * the Pod's own 404, of one without metrics metrics-server's 404 naming it
 * {@code namespace/name}; tables have metrics-server's columns
 * ({@code Name}, {@code cpu}, {@code memory}, {@code Window}). Discovery lists the group while
 * it is served; without it, as in a cluster without metrics-server, {@code kubectl top} says
 * {@code Metrics API not available}.
 *
 * <p>Thread-safe.
 */
public final class MetricsApi implements AutoCloseable {
  /** The group metrics-server serves. */
  public static final String GROUP = "metrics.k8s.io";
  /** Its version that kubectl and the autoscaler read. */
  public static final String VERSION = "v1beta1";
  private static final String API_VERSION = GROUP + "/" + VERSION;
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final List<String> COLUMNS = List.of("cpu", "memory");

  private final AutoCloseable served;

  private MetricsApi(AutoCloseable served) {
    this.served = served;
  }

  /**
   * Serves {@code metrics.k8s.io/v1beta1} on {@code api} from {@code metrics}, samples taken at
   * {@code clock}'s now, until closed.
   *
   * @throws IllegalArgumentException if {@code api} already serves the group's resources
   */
  public static MetricsApi serve(ApiServer api, PodMetrics metrics, Clock clock) {
    requireNonNull(api, "api");
    requireNonNull(metrics, "metrics");
    requireNonNull(clock, "clock");
    Reader reader = new Reader(api, metrics, clock);
    ResourceDefinition pods = definition("PodMetrics", "pods", true, new VirtualRead() {
      @Override
      public Optional<MapValue> get(String namespace, String name) {
        return reader.pod(namespace, name);
      }

      @Override
      public List<MapValue> list(String namespace) {
        return reader.pods(namespace);
      }
    });
    ResourceDefinition nodes = definition("NodeMetrics", "nodes", false, new VirtualRead() {
      @Override
      public Optional<MapValue> get(String namespace, String name) {
        return reader.node(name);
      }

      @Override
      public List<MapValue> list(String namespace) {
        return reader.nodes();
      }
    });
    return new MetricsApi(api.serveComputed(List.of(pods, nodes)));
  }

  /** Stops serving the group: discovery no longer lists it, its requests are 404. */
  @Override
  public void close() {
    try {
      served.close();
    } catch (Exception e) {
      throw new IllegalStateException("could not stop serving " + GROUP, e);
    }
  }

  private static ResourceDefinition definition(String kind, String plural, boolean namespaced,
      VirtualRead read) {
    return ResourceDefinition.builder(new GroupVersionKind(GROUP, VERSION, kind), plural)
        .namespaced(namespaced)
        .verbs(List.of("get", "list"))
        // an aggregated server's resources have no storage version
        .storageVersionHash("")
        .strategy(ResourceStrategy.builder().virtualRead(read).build())
        .printer(printer(namespaced))
        .build();
  }

  /** metrics-server's {@code addPodMetricsToTable} / {@code addNodeMetricsToTable}. */
  private static TablePrinter printer(boolean pods) {
    List<TablePrinter.Column> columns = new ArrayList<>();
    columns.add(new TablePrinter.Column("Name", "string", "name", "Name of the resource", 0));
    for (String c : COLUMNS) {
      columns.add(new TablePrinter.Column(c, "string", "quantity", "", 0));
    }
    columns.add(new TablePrinter.Column("Window", "string", "duration", "", 0));
    return TablePrinter.of(columns, (object, now) -> {
      Map<String, Quantity> usage = new HashMap<>();
      if (pods) {
        for (Value c : Nested.list(object, "containers")) {
          addAll(usage, quantities(Nested.map(c, "usage")));
        }
      } else {
        addAll(usage, quantities(Nested.map(object, "usage")));
      }
      List<Value> cells = new ArrayList<>();
      cells.add(Value.of(Meta.metaString(object, "name")));
      for (String c : COLUMNS) {
        cells.add(Value.of(usage.getOrDefault(c, Quantity.parse("0").orElseThrow())
            .toString()));
      }
      cells.add(Value.of(Nested.str(object, "window")));
      return cells;
    });
  }

  private static Map<String, Quantity> quantities(MapValue usage) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    usage.forEach((name, v) -> Quantity.parse(Nested.str(v)).ifPresent(q -> out.put(name, q)));
    return out;
  }

  /** Adds {@code more} into {@code sum}, as Go's {@code Quantity.Add}: a zero takes the format. */
  private static void addAll(Map<String, Quantity> sum, Map<String, Quantity> more) {
    more.forEach((name, q) -> sum.merge(name, q, (a, b) -> new Quantity(
        a.value().add(b.value()), a.value().signum() == 0 ? b.format() : a.format())));
  }

  private static MapValue usage(Map<String, Quantity> usage) {
    MapValue.Builder b = MapValue.builder();
    usage.forEach((name, q) -> b.put(name, Value.of(q.toString())));
    return b.build();
  }

  /** Reads the Pods and Nodes through the server and their usage from the source. */
  private static final class Reader {
    private final ApiServer api;
    private final PodMetrics metrics;
    private final Clock clock;

    Reader(ApiServer api, PodMetrics metrics, Clock clock) {
      this.api = api;
      this.metrics = metrics;
      this.clock = clock;
    }

    /**
     * metrics-server's {@code Get}: the Pod's own 404 when it does not exist, its metrics' 404
     * (named {@code namespace/name}) when it has none.
     */
    Optional<MapValue> pod(String namespace, String name) {
      MapValue pod = api.resources(PODS).namespace(namespace).get(name);
      return Optional.of(podMetrics(pod).orElseThrow(() -> StatusErrors.notFound(
          new GroupResource(GROUP, "pods"), namespace + "/" + name)));
    }

    List<MapValue> pods(String namespace) {
      List<MapValue> out = new ArrayList<>();
      for (MapValue pod : api.resources(PODS).namespace(namespace).list()) {
        podMetrics(pod).ifPresent(out::add);
      }
      return out;
    }

    private Optional<MapValue> podMetrics(MapValue pod) {
      String namespace = Meta.metaString(pod, "namespace");
      String name = Meta.metaString(pod, "name");
      Map<String, Map<String, Quantity>> containers = metrics.containers(namespace, name);
      // metrics-server reports Running Pods only
      if (containers.isEmpty() || !Nested.str(pod, "status", "phase").equals("Running")) {
        return Optional.empty();
      }
      ListValue.Builder list = ListValue.builder();
      containers.forEach((container, usage) -> list.add(MapValue.ofEntries(
          "name", Value.of(container), "usage", usage(usage))));
      String now = Meta.formatTime(clock.instant());
      return Optional.of(MapValue.builder()
          .put("kind", Value.of("PodMetrics"))
          .put("apiVersion", Value.of(API_VERSION))
          .put("metadata", metadata(pod, now))
          .put("timestamp", Value.of(now))
          .put("window", Value.of(window()))
          .put("containers", list.build())
          .build());
    }

    Optional<MapValue> node(String name) {
      try {
        MapValue node = api.resources(NODES).get(name);
        return Optional.of(nodeMetrics(node, podUsageByNode()));
      } catch (NotFoundException e) {
        return Optional.empty();
      }
    }

    List<MapValue> nodes() {
      Map<String, Map<String, Quantity>> byNode = podUsageByNode();
      List<MapValue> out = new ArrayList<>();
      for (MapValue node : api.resources(NODES).list()) {
        out.add(nodeMetrics(node, byNode));
      }
      return out;
    }

    /** Per Node, the sum of its Pods' usage by resource. */
    private Map<String, Map<String, Quantity>> podUsageByNode() {
      Map<String, Map<String, Quantity>> out = new HashMap<>();
      for (MapValue pod : api.resources(PODS).list()) {
        String node = Nested.str(pod, "spec", "nodeName");
        if (node.isEmpty()) {
          continue;
        }
        Map<String, Quantity> sum = out.computeIfAbsent(node, n -> new LinkedHashMap<>());
        metrics.containers(Meta.metaString(pod, "namespace"), Meta.metaString(pod, "name"))
            .values().forEach(usage -> addAll(sum, usage));
      }
      return out;
    }

    private MapValue nodeMetrics(MapValue node, Map<String, Map<String, Quantity>> byNode) {
      String name = Meta.metaString(node, "name");
      Map<String, Quantity> usage = metrics.nodeUsage(name).orElseGet(() -> {
        Map<String, Quantity> sum = new LinkedHashMap<>();
        for (String c : COLUMNS) {
          sum.put(c, Quantity.parse("0").orElseThrow());
        }
        addAll(sum, byNode.getOrDefault(name, Map.of()));
        return sum;
      });
      String now = Meta.formatTime(clock.instant());
      return MapValue.builder()
          .put("kind", Value.of("NodeMetrics"))
          .put("apiVersion", Value.of(API_VERSION))
          .put("metadata", metadata(node, now))
          .put("timestamp", Value.of(now))
          .put("window", Value.of(window()))
          .put("usage", usage(usage))
          .build();
    }

    /** metrics-server's object meta: the object's name, namespace and labels, created now. */
    private static MapValue metadata(MapValue object, String now) {
      MapValue.Builder b = MapValue.builder().put("name",
          Value.of(Meta.metaString(object, "name")));
      String namespace = Meta.metaString(object, "namespace");
      if (!namespace.isEmpty()) {
        b.put("namespace", Value.of(namespace));
      }
      b.put("creationTimestamp", Value.of(now));
      MapValue labels = Nested.map(object, "metadata", "labels");
      if (!labels.isEmpty()) {
        b.put("labels", labels);
      }
      return b.build();
    }

    /** Go's {@code time.Duration.String()} of the window (whole seconds). */
    private static String window() {
      return PodMetrics.WINDOW.toSeconds() + "s";
    }
  }
}
