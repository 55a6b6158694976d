package io.apiserver4j.http.internal;

import io.apiserver4j.core.Nested;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.BooleanValue;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Server-side printing ({@code as=Table}): the {@code meta.k8s.io} {@code Table} of an object or
 * list, with kube-apiserver's columns for the built-in kinds (pods, deployments, services,
 * configmaps, namespaces, ...), a CustomResourceDefinition's {@code additionalPrinterColumns}
 * for custom resources (with the default {@code Age} column when it declares none), and
 * {@code Name}/{@code Created At} for other kinds, as kube's default table convertor.
 *
 * <p>Rows carry the object as {@code includeObject} asks: {@code None}, {@code Metadata} (the
 * default: a {@code PartialObjectMetadata}) or {@code Object}.
 */
public final class Tables {

  /** A column: kube's {@code TableColumnDefinition} plus how to compute its cell. */
  public record Column(String name, String type, String format, String description,
      int priority) {}

  /** A CRD printer column ({@code additionalPrinterColumns} entry). */
  public record PrinterColumn(String name, String type, String format, String description,
      int priority, String jsonPath) {}

  /** What rows carry as {@code object}. */
  public enum IncludeObject {
    NONE, METADATA, OBJECT;

    /**
     * @throws io.apiserver4j.core.BadRequestException for an unknown value
     */
    public static IncludeObject parse(String s) {
      switch (s) {
        case "":
        case "Metadata":
          return METADATA;
        case "None":
          return NONE;
        case "Object":
          return OBJECT;
        default:
          throw io.apiserver4j.core.StatusErrors.badRequest(
              "includeObject: Unsupported value: \"" + s
                  + "\": supported values: \"Metadata\", \"None\", \"Object\"");
      }
    }
  }

  private interface Printer {
    List<Column> columns();

    List<Value> cells(MapValue object, Instant now);
  }

  private final Printer printer;
  private final IncludeObject include;
  private final String metaVersion;

  private Tables(Printer printer, IncludeObject include, String metaVersion) {
    this.printer = printer;
    this.include = include;
    this.metaVersion = metaVersion;
  }

  /**
   * The table maker of a resource.
   *
   * @param printerColumns the CRD's columns for a custom resource (empty means the default Age)
   * @param metaVersion {@code v1} or {@code v1beta1}
   */
  public static Tables of(ResourceDefinition d, List<PrinterColumn> printerColumns,
      IncludeObject include, String metaVersion) {
    Printer p;
    if (d.customResource()) {
      p = customResource(printerColumns);
    } else {
      p = builtin(d.kind().group(), d.plural());
    }
    return new Tables(p, include, metaVersion);
  }

  /** The Table of one object. */
  public MapValue ofObject(MapValue object, Instant now, boolean withColumns) {
    MapValue.Builder meta = MapValue.builder();
    String rv = Nested.str(object, "metadata", "resourceVersion");
    if (!rv.isEmpty()) {
      meta.put("resourceVersion", Value.of(rv));
    }
    return table(meta.build(), List.of(object), now, withColumns);
  }

  /** The Table of a list object (its {@code items} and list metadata). */
  public MapValue ofList(MapValue list, Instant now) {
    MapValue listMeta = Nested.map(list, "metadata");
    List<MapValue> items = new ArrayList<>();
    for (Value v : Nested.list(list, "items")) {
      if (v instanceof MapValue m) {
        items.add(m);
      }
    }
    return table(listMeta, items, now, true);
  }

  private MapValue table(MapValue meta, List<MapValue> objects, Instant now,
      boolean withColumns) {
    MapValue.Builder b = MapValue.builder()
        .put("kind", Value.of("Table"))
        .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
        .put("metadata", meta);
    if (withColumns) {
      ListValue.Builder cols = ListValue.builder();
      for (Column c : printer.columns()) {
        cols.add(MapValue.builder()
            .put("name", Value.of(c.name()))
            .put("type", Value.of(c.type()))
            .put("format", Value.of(c.format()))
            .put("description", Value.of(c.description()))
            .put("priority", Value.of(c.priority()))
            .build());
      }
      b.put("columnDefinitions", cols.build());
    } else {
      b.put("columnDefinitions", Value.nullValue());
    }
    ListValue.Builder rows = ListValue.builder(objects.size());
    for (MapValue o : objects) {
      MapValue.Builder row = MapValue.builder()
          .put("cells", ListValue.of(printer.cells(o, now)));
      switch (include) {
        case NONE:
          row.put("object", Value.nullValue());
          break;
        case METADATA:
          row.put("object", MapValue.builder()
              .put("kind", Value.of("PartialObjectMetadata"))
              .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
              .put("metadata", Nested.map(o, "metadata"))
              .build());
          break;
        default:
          row.put("object", o);
      }
      rows.add(row.build());
    }
    return b.put("rows", rows.build()).build();
  }

  /** The {@code PartialObjectMetadata} of an object. */
  public static MapValue partialObjectMetadata(MapValue object, String metaVersion) {
    return MapValue.builder()
        .put("kind", Value.of("PartialObjectMetadata"))
        .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
        .put("metadata", Nested.map(object, "metadata"))
        .build();
  }

  /** The {@code PartialObjectMetadataList} of a list. */
  public static MapValue partialObjectMetadataList(MapValue list, String metaVersion) {
    ListValue.Builder items = ListValue.builder();
    for (Value v : Nested.list(list, "items")) {
      items.add(partialObjectMetadata((MapValue) v, metaVersion));
    }
    return MapValue.builder()
        .put("kind", Value.of("PartialObjectMetadataList"))
        .put("apiVersion", Value.of("meta.k8s.io/" + metaVersion))
        .put("metadata", Nested.map(list, "metadata"))
        .put("items", items.build())
        .build();
  }

  // ---- printers ----------------------------------------------------------------------------

  private static final Column NAME = new Column("Name", "string", "name",
      "Name must be unique within a namespace.", 0);
  private static final Column AGE = new Column("Age", "string", "",
      "CreationTimestamp is a timestamp representing the server time when this object was"
          + " created.", 0);

  private static Column col(String name, String type, String description) {
    return new Column(name, type, "", description, 0);
  }

  private static Column wide(String name, String type, String description) {
    return new Column(name, type, "", description, 1);
  }

  static String age(MapValue o, Instant now) {
    return since(Nested.str(o, "metadata", "creationTimestamp"), now);
  }

  private static String since(String timestamp, Instant now) {
    if (timestamp.isEmpty()) {
      return "<unknown>";
    }
    try {
      return GoDurations.human(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  private static Printer printer(List<Column> columns,
      BiFunction<MapValue, Instant, List<Value>> cells) {
    return new Printer() {
      @Override
      public List<Column> columns() {
        return columns;
      }

      @Override
      public List<Value> cells(MapValue object, Instant now) {
        return cells.apply(object, now);
      }
    };
  }

  private static List<Value> row(Object... cells) {
    List<Value> out = new ArrayList<>(cells.length);
    for (Object c : cells) {
      if (c instanceof Value v) {
        out.add(v);
      } else if (c instanceof String s) {
        out.add(Value.of(s));
      } else if (c instanceof Long l) {
        out.add(Value.of(l));
      } else if (c instanceof Integer i) {
        out.add(Value.of((long) i));
      } else if (c instanceof Boolean b) {
        out.add(Value.of(b));
      } else {
        out.add(Value.nullValue());
      }
    }
    return out;
  }

  private static String name(MapValue o) {
    return Nested.str(o, "metadata", "name");
  }

  private static Printer builtin(String group, String plural) {
    switch (group + "/" + plural) {
      case "/pods":
        return printer(List.of(NAME, col("Ready", "string", "The aggregate readiness state of"
                + " this pod for accepting traffic."),
            col("Status", "string", "The aggregate status of the containers in this pod."),
            col("Restarts", "string", "The number of times the containers in this pod have been"
                + " restarted and when the last container in this pod has restarted."), AGE,
            wide("IP", "string", "IP address allocated to the pod."),
            wide("Node", "string", "Name of the Node this pod is scheduled to."),
            wide("Nominated Node", "string", "Name of the node nominated for preemption."),
            wide("Readiness Gates", "string", "Pod readiness gates.")),
            Tables::podCells);
      case "apps/deployments":
        return printer(List.of(NAME, col("Ready", "string", "Number of the pod with ready state"),
            col("Up-to-date", "integer", "Total number of non-terminated pods targeted by this"
                + " deployment that have the desired template spec."),
            col("Available", "integer", "Total number of available pods (ready for at least"
                + " minReadySeconds) targeted by this deployment."), AGE,
            wide("Containers", "string", "Names of each container in the template."),
            wide("Images", "string", "Images referenced by each container in the template."),
            wide("Selector", "string", "Label selector for pods.")),
            (o, now) -> row(name(o), Nested.integer(o, "status", "readyReplicas") + "/"
                    + replicas(o), Nested.integer(o, "status", "updatedReplicas"),
                Nested.integer(o, "status", "availableReplicas"), age(o, now), containers(o),
                images(o), LabelText.formatLabelSelector(Nested.getOrNull(o, "spec", "selector"))));
      case "apps/replicasets":
        return printer(List.of(NAME, col("Desired", "integer", "Number of desired pods."),
            col("Current", "integer", "Number of actual replicas."),
            col("Ready", "integer", "The number of ready replicas for this replica set."), AGE,
            wide("Containers", "string", "Names of each container in the template."),
            wide("Images", "string", "Images referenced by each container in the template."),
            wide("Selector", "string", "Label selector for pods.")),
            (o, now) -> row(name(o), replicas(o), Nested.integer(o, "status", "replicas"),
                Nested.integer(o, "status", "readyReplicas"), age(o, now), containers(o),
                images(o), LabelText.formatLabelSelector(Nested.getOrNull(o, "spec", "selector"))));
      case "apps/statefulsets":
        return printer(List.of(NAME, col("Ready", "string", "Number of the pod with ready state"),
            AGE, wide("Containers", "string", "Names of each container in the template."),
            wide("Images", "string", "Images referenced by each container in the template.")),
            (o, now) -> row(name(o), Nested.integer(o, "status", "readyReplicas") + "/"
                + replicas(o), age(o, now), containers(o), images(o)));
      case "apps/daemonsets":
        return printer(List.of(NAME,
            col("Desired", "integer", "The total number of nodes that should be running the"
                + " daemon pod."),
            col("Current", "integer", "The number of nodes running at least one daemon pod."),
            col("Ready", "integer", "The number of nodes that should be running the daemon pod"
                + " and have one or more of the daemon pod running and ready."),
            col("Up-to-date", "integer", "The total number of nodes that are running updated"
                + " daemon pod"),
            col("Available", "integer", "The number of nodes that should be running the daemon"
                + " pod and have one or more of the daemon pod running and available."),
            col("Node Selector", "string", "NodeSelector is a selector which must be true for the"
                + " pod to fit on a node."), AGE,
            wide("Containers", "string", "Names of each container in the template."),
            wide("Images", "string", "Images referenced by each container in the template."),
            wide("Selector", "string", "Label selector for pods.")),
            (o, now) -> row(name(o), Nested.integer(o, "status", "desiredNumberScheduled"),
                Nested.integer(o, "status", "currentNumberScheduled"),
                Nested.integer(o, "status", "numberReady"),
                Nested.integer(o, "status", "updatedNumberScheduled"),
                Nested.integer(o, "status", "numberAvailable"),
                LabelText.formatLabels(Nested.map(o, "spec", "template", "spec", "nodeSelector")),
                age(o, now), containers(o), images(o),
                LabelText.formatLabelSelector(Nested.getOrNull(o, "spec", "selector"))));
      case "/services":
        return printer(List.of(NAME, col("Type", "string", "Type of the service."),
            col("Cluster-IP", "string", "Cluster IP of the service."),
            col("External-IP", "string", "External IP of the service."),
            col("Port(s)", "string", "Port(s) of the service."), AGE,
            wide("Selector", "string", "Route service traffic to pods with label keys and values"
                + " matching this selector.")),
            Tables::serviceCells);
      case "/configmaps":
        return printer(List.of(NAME, col("Data", "integer", "Data contains the configuration"
                + " data."), AGE),
            (o, now) -> row(name(o), (long) (Nested.map(o, "data").size()
                + Nested.map(o, "binaryData").size()), age(o, now)));
      case "/secrets":
        return printer(List.of(NAME, col("Type", "string", "The type of the secret"),
            col("Data", "integer", "The number of entries in the secret data"), AGE),
            (o, now) -> row(name(o), Nested.str(o, "type").isEmpty() ? "Opaque"
                : Nested.str(o, "type"), (long) Nested.map(o, "data").size(), age(o, now)));
      case "/namespaces":
        return printer(List.of(NAME, col("Status", "string", "The status of the namespace"), AGE),
            (o, now) -> row(name(o), Nested.str(o, "status", "phase"), age(o, now)));
      case "/serviceaccounts":
        return printer(List.of(NAME, col("Secrets", "string", "Secrets is a list of the secrets"
                + " in the same namespace that pods running using this ServiceAccount are allowed"
                + " to use."), AGE),
            (o, now) -> row(name(o), (long) Nested.list(o, "secrets").size(), age(o, now)));
      case "/nodes":
        return printer(List.of(NAME, col("Status", "string", "The status of the node"),
            col("Roles", "string", "The roles of the node"), AGE,
            col("Version", "string", "Kubelet Version reported by the node.")),
            Tables::nodeCells);
      case "/endpoints":
        return printer(List.of(NAME, col("Endpoints", "string", "Endpoints of the service"), AGE),
            (o, now) -> row(name(o), endpoints(o), age(o, now)));
      case "/events":
        return printer(List.of(col("Last Seen", "string", "Time when last this event was"
                + " observed."),
            col("Type", "string", "Type of this event (Normal, Warning), new types could be"
                + " added in the future."),
            col("Reason", "string", "This should be a short, machine understandable string that"
                + " gives the reason for this event being generated."),
            col("Object", "string", "The object that this event is about."),
            wide("Subobject", "string", "The subobject of the object this event is about."),
            wide("Source", "string", "The component reporting this event."),
            col("Message", "string", "A human-readable description of the status of this"
                + " operation."),
            wide("First Seen", "string", "The time at which the event was first recorded."),
            wide("Count", "string", "The number of times this event has occurred."),
            new Column("Name", "string", "name", NAME.description(), 1)),
            Tables::eventCells);
      case "batch/jobs":
        return printer(List.of(NAME, col("Status", "string", "Status of the job."),
            col("Completions", "string", "The completion status of the job."),
            col("Duration", "string", "Time required to complete the job."), AGE,
            wide("Containers", "string", "Names of each container in the template."),
            wide("Images", "string", "Images referenced by each container in the template."),
            wide("Selector", "string", "Label selector for pods.")),
            Tables::jobCells);
      case "batch/cronjobs":
        return printer(List.of(NAME, col("Schedule", "string", "The schedule in Cron format"),
            col("Timezone", "string", "The time zone for the schedule."),
            col("Suspend", "boolean", "Whether subsequent executions are suspended."),
            col("Active", "integer", "Number of currently running jobs."),
            col("Last Schedule", "string", "When the job was last successfully scheduled."), AGE,
            wide("Containers", "string", "Names of each container in the template."),
            wide("Images", "string", "Images referenced by each container in the template."),
            wide("Selector", "string", "Label selector for pods.")),
            (o, now) -> row(name(o), Nested.str(o, "spec", "schedule"),
                Nested.str(o, "spec", "timeZone").isEmpty() ? "<none>"
                    : Nested.str(o, "spec", "timeZone"),
                Nested.has(o, "spec", "suspend") ? (Object) (Nested.bool(o, "spec", "suspend")
                    ? "True" : "False") : "<unset>",
                (long) Nested.list(o, "status", "active").size(),
                Nested.str(o, "status", "lastScheduleTime").isEmpty() ? "<none>"
                    : since(Nested.str(o, "status", "lastScheduleTime"), now),
                age(o, now), jobTemplate(o, true), jobTemplate(o, false),
                LabelText.formatLabelSelector(Nested.getOrNull(o, "spec", "jobTemplate", "spec",
                    "selector"))));
      default:
        // kube's default table convertor for kinds without a printer
        return printer(List.of(NAME, new Column("Created At", "date", "",
                "CreationTimestamp is a timestamp representing the server time when this object"
                    + " was created.", 0)),
            (o, now) -> row(name(o), Nested.str(o, "metadata", "creationTimestamp")));
    }
  }

  private static long replicas(MapValue o) {
    // the internal types default a missing spec.replicas to 1
    return Nested.has(o, "spec", "replicas") ? Nested.integer(o, "spec", "replicas") : 1;
  }

  private static String containers(MapValue o) {
    return joinContainers(Nested.list(o, "spec", "template", "spec", "containers"), "name");
  }

  private static String images(MapValue o) {
    return joinContainers(Nested.list(o, "spec", "template", "spec", "containers"), "image");
  }

  private static String jobTemplate(MapValue o, boolean names) {
    return joinContainers(Nested.list(o, "spec", "jobTemplate", "spec", "template", "spec",
        "containers"), names ? "name" : "image");
  }

  private static String joinContainers(List<Value> containers, String field) {
    List<String> out = new ArrayList<>();
    for (Value c : containers) {
      out.add(Nested.str(c, field));
    }
    return String.join(",", out);
  }

  private static List<Value> podCells(MapValue o, Instant now) {
    List<Value> specContainers = Nested.list(o, "spec", "containers");
    String reason = Nested.str(o, "status", "phase");
    if (!Nested.str(o, "status", "reason").isEmpty()) {
      reason = Nested.str(o, "status", "reason");
    }
    long restarts = 0;
    long ready = 0;
    boolean initializing = false;
    List<Value> inits = Nested.list(o, "status", "initContainerStatuses");
    for (int i = 0; i < inits.size(); i++) {
      Value c = inits.get(i);
      restarts += Nested.integer(c, "restartCount");
      if (Nested.has(c, "state", "terminated")
          && Nested.integer(c, "state", "terminated", "exitCode") == 0) {
        continue;
      }
      if (Nested.has(c, "state", "terminated")) {
        String r = Nested.str(c, "state", "terminated", "reason");
        reason = "Init:" + (r.isEmpty() ? "ExitCode:"
            + Nested.integer(c, "state", "terminated", "exitCode") : r);
      } else if (Nested.has(c, "state", "waiting")
          && !Nested.str(c, "state", "waiting", "reason").isEmpty()
          && !Nested.str(c, "state", "waiting", "reason").equals("PodInitializing")) {
        reason = "Init:" + Nested.str(c, "state", "waiting", "reason");
      } else {
        reason = "Init:" + i + "/" + Nested.list(o, "spec", "initContainers").size();
      }
      initializing = true;
      break;
    }
    if (!initializing) {
      boolean hasRunning = false;
      List<Value> statuses = Nested.list(o, "status", "containerStatuses");
      for (int i = statuses.size() - 1; i >= 0; i--) {
        Value c = statuses.get(i);
        restarts += Nested.integer(c, "restartCount");
        if (!Nested.str(c, "state", "waiting", "reason").isEmpty()) {
          reason = Nested.str(c, "state", "waiting", "reason");
        } else if (!Nested.str(c, "state", "terminated", "reason").isEmpty()) {
          reason = Nested.str(c, "state", "terminated", "reason");
        } else if (Nested.has(c, "state", "terminated")) {
          long signal = Nested.integer(c, "state", "terminated", "signal");
          reason = signal != 0 ? "Signal:" + signal
              : "ExitCode:" + Nested.integer(c, "state", "terminated", "exitCode");
        } else if (Nested.bool(c, "ready") && Nested.has(c, "state", "running")) {
          hasRunning = true;
          ready++;
        }
      }
      if (reason.equals("Completed") && hasRunning) {
        reason = "Running";
      }
    }
    if (!Nested.str(o, "metadata", "deletionTimestamp").isEmpty()) {
      reason = Nested.str(o, "status", "reason").equals("NodeLost") ? "Unknown" : "Terminating";
    }
    String ip = "<none>";
    List<Value> ips = Nested.list(o, "status", "podIPs");
    if (!ips.isEmpty() && !Nested.str(ips.get(0), "ip").isEmpty()) {
      ip = Nested.str(ips.get(0), "ip");
    } else if (!Nested.str(o, "status", "podIP").isEmpty()) {
      ip = Nested.str(o, "status", "podIP");
    }
    String node = Nested.str(o, "spec", "nodeName");
    String nominated = Nested.str(o, "status", "nominatedNodeName");
    List<Value> gates = Nested.list(o, "spec", "readinessGates");
    String readiness = "<none>";
    if (!gates.isEmpty()) {
      long trueGates = 0;
      for (Value g : gates) {
        String type = Nested.str(g, "conditionType");
        for (Value cond : Nested.list(o, "status", "conditions")) {
          if (Nested.str(cond, "type").equals(type)
              && Nested.str(cond, "status").equals("True")) {
            trueGates++;
          }
        }
      }
      readiness = trueGates + "/" + gates.size();
    }
    return row(name(o), ready + "/" + specContainers.size(), reason, Long.toString(restarts),
        age(o, now), ip, node.isEmpty() ? "<none>" : node,
        nominated.isEmpty() ? "<none>" : nominated, readiness);
  }

  private static List<Value> serviceCells(MapValue o, Instant now) {
    String type = Nested.str(o, "spec", "type");
    if (type.isEmpty()) {
      type = "ClusterIP";
    }
    String clusterIp = Nested.str(o, "spec", "clusterIP");
    if (clusterIp.isEmpty()) {
      clusterIp = "<none>";
    }
    List<String> external = new ArrayList<>();
    for (Value v : Nested.list(o, "spec", "externalIPs")) {
      external.add(SimpleJsonPath.text(v));
    }
    String externalIp;
    switch (type) {
      case "ExternalName":
        externalIp = Nested.str(o, "spec", "externalName");
        break;
      case "LoadBalancer": {
        List<String> lb = new ArrayList<>();
        for (Value ing : Nested.list(o, "status", "loadBalancer", "ingress")) {
          String addr = Nested.str(ing, "ip");
          lb.add(addr.isEmpty() ? Nested.str(ing, "hostname") : addr);
        }
        lb.addAll(external);
        externalIp = lb.isEmpty() ? "<pending>" : String.join(",", lb);
        break;
      }
      default:
        externalIp = external.isEmpty() ? "<none>" : String.join(",", external);
    }
    List<String> ports = new ArrayList<>();
    for (Value p : Nested.list(o, "spec", "ports")) {
      String proto = Nested.str(p, "protocol").isEmpty() ? "TCP" : Nested.str(p, "protocol");
      long port = Nested.integer(p, "port");
      long nodePort = Nested.integer(p, "nodePort");
      ports.add(nodePort > 0 ? port + ":" + nodePort + "/" + proto : port + "/" + proto);
    }
    return row(name(o), type, clusterIp, externalIp,
        ports.isEmpty() ? "<none>" : String.join(",", ports), age(o, now),
        LabelText.formatLabels(Nested.map(o, "spec", "selector")));
  }

  private static List<Value> nodeCells(MapValue o, Instant now) {
    String status = "Unknown";
    for (Value c : Nested.list(o, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        status = Nested.str(c, "status").equals("True") ? "Ready" : "NotReady";
      }
    }
    if (Nested.bool(o, "spec", "unschedulable")) {
      status += ",SchedulingDisabled";
    }
    List<String> roles = new ArrayList<>();
    MapValue labels = Nested.map(o, "metadata", "labels");
    for (int i = 0; i < labels.size(); i++) {
      String k = labels.keyAt(i);
      if (k.startsWith("node-role.kubernetes.io/")) {
        roles.add(k.substring("node-role.kubernetes.io/".length()));
      } else if (k.equals("kubernetes.io/role")) {
        roles.add(Nested.str(labels, k));
      }
    }
    roles.sort(io.apiserver4j.core.Values::compareStrings);
    return row(name(o), status, roles.isEmpty() ? "<none>" : String.join(",", roles),
        age(o, now), Nested.str(o, "status", "nodeInfo", "kubeletVersion"));
  }

  private static String endpoints(MapValue o) {
    List<String> out = new ArrayList<>();
    int total = 0;
    for (Value subset : Nested.list(o, "subsets")) {
      for (Value addr : Nested.list(subset, "addresses")) {
        List<Value> ports = Nested.list(subset, "ports");
        if (ports.isEmpty()) {
          total++;
          if (out.size() < 3) {
            out.add(Nested.str(addr, "ip"));
          }
        }
        for (Value port : ports) {
          total++;
          if (out.size() < 3) {
            out.add(Nested.str(addr, "ip") + ":" + Nested.integer(port, "port"));
          }
        }
      }
    }
    if (total == 0) {
      return "<none>";
    }
    String s = String.join(",", out);
    return total > out.size() ? s + " + " + (total - out.size()) + " more..." : s;
  }

  private static List<Value> eventCells(MapValue o, Instant now) {
    String first = Nested.str(o, "firstTimestamp");
    String last = Nested.str(o, "lastTimestamp");
    String eventTime = Nested.str(o, "eventTime");
    if (last.isEmpty()) {
      last = eventTime.isEmpty() ? Nested.str(o, "metadata", "creationTimestamp") : eventTime;
    }
    if (first.isEmpty()) {
      first = eventTime.isEmpty() ? last : eventTime;
    }
    long count = Nested.integer(o, "count");
    if (Nested.has(o, "series")) {
      count = Nested.integer(o, "series", "count");
      last = Nested.str(o, "series", "lastObservedTime");
    }
    String kind = Nested.str(o, "involvedObject", "kind").toLowerCase(java.util.Locale.ROOT);
    String source = Nested.str(o, "source", "component");
    if (source.isEmpty()) {
      source = Nested.str(o, "reportingComponent");
    }
    if (!Nested.str(o, "source", "host").isEmpty()) {
      source = source + ", " + Nested.str(o, "source", "host");
    }
    return row(since(last, now), Nested.str(o, "type"), Nested.str(o, "reason"),
        kind + "/" + Nested.str(o, "involvedObject", "name"),
        Nested.str(o, "involvedObject", "fieldPath"), source, Nested.str(o, "message"),
        since(first, now), Long.toString(Math.max(count, 1)), name(o));
  }

  private static List<Value> jobCells(MapValue o, Instant now) {
    String status = "Running";
    for (Value c : Nested.list(o, "status", "conditions")) {
      if (!Nested.str(c, "status").equals("True")) {
        continue;
      }
      switch (Nested.str(c, "type")) {
        case "Complete":
          status = "Complete";
          break;
        case "Failed":
          status = "Failed";
          break;
        case "Suspended":
          if (status.equals("Running")) {
            status = "Suspended";
          }
          break;
        case "FailureTarget":
          if (status.equals("Running")) {
            status = "FailureTarget";
          }
          break;
        case "SuccessCriteriaMet":
          if (status.equals("Running")) {
            status = "SuccessCriteriaMet";
          }
          break;
        default:
          break;
      }
    }
    long succeeded = Nested.integer(o, "status", "succeeded");
    String completions;
    if (Nested.has(o, "spec", "completions")) {
      completions = succeeded + "/" + Nested.integer(o, "spec", "completions");
    } else if (Nested.has(o, "spec", "parallelism")
        && Nested.integer(o, "spec", "parallelism") > 1) {
      completions = succeeded + "/1 of " + Nested.integer(o, "spec", "parallelism");
    } else {
      completions = succeeded + "/1";
    }
    String duration = "";
    String start = Nested.str(o, "status", "startTime");
    if (!start.isEmpty()) {
      String end = Nested.str(o, "status", "completionTime");
      try {
        Instant s = Instant.parse(start);
        Instant e = end.isEmpty() ? now : Instant.parse(end);
        duration = GoDurations.human(Duration.between(s, e));
      } catch (DateTimeParseException ex) {
        duration = "<invalid>";
      }
    }
    return row(name(o), status, completions, duration, age(o, now), containers(o), images(o),
        LabelText.formatLabelSelector(Nested.getOrNull(o, "spec", "selector")));
  }

  private static Printer customResource(List<PrinterColumn> declared) {
    List<PrinterColumn> cols = declared.isEmpty()
        ? List.of(new PrinterColumn("Age", "date", "", AGE.description(), 0,
            ".metadata.creationTimestamp"))
        : declared;
    List<Column> columns = new ArrayList<>();
    columns.add(NAME);
    List<SimpleJsonPath> paths = new ArrayList<>();
    for (PrinterColumn c : cols) {
      columns.add(new Column(c.name(), c.type(), c.format(), c.description(), c.priority()));
      SimpleJsonPath p;
      try {
        p = SimpleJsonPath.parse(c.jsonPath());
      } catch (IllegalArgumentException e) {
        p = null;
      }
      paths.add(p);
    }
    List<Column> frozen = List.copyOf(columns);
    return printer(frozen, (o, now) -> {
      List<Value> cells = new ArrayList<>();
      cells.add(Value.of(name(o)));
      for (int i = 0; i < cols.size(); i++) {
        SimpleJsonPath p = paths.get(i);
        List<Value> found = p == null ? List.of() : p.find(o);
        if (found.isEmpty()) {
          cells.add(Value.nullValue());
        } else {
          cells.add(cell(cols.get(i).type(), found.get(0), now));
        }
      }
      return cells;
    });
  }

  /** kube's {@code cellForJSONValue}: the cell of a printer column of the given type. */
  private static Value cell(String type, Value v, Instant now) {
    switch (type) {
      case "string":
        return Value.of(SimpleJsonPath.text(v));
      case "integer":
        if (v instanceof IntegerValue) {
          return v;
        }
        return v instanceof FloatValue f ? Value.of((long) f.value()) : Value.nullValue();
      case "number":
        if (v instanceof FloatValue) {
          return v;
        }
        return v instanceof IntegerValue i ? Value.of((double) i.value()) : Value.nullValue();
      case "boolean":
        return v instanceof BooleanValue ? v : Value.nullValue();
      case "date":
        return v instanceof StringValue s ? Value.of(since(s.value(), now)) : Value.nullValue();
      default:
        return Value.nullValue();
    }
  }
}
