/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.registry.internal.Cells.age;
import static io.apiserver4j.registry.internal.Cells.bool;
import static io.apiserver4j.registry.internal.Cells.formatLabelSelector;
import static io.apiserver4j.registry.internal.Cells.formatLabels;
import static io.apiserver4j.registry.internal.Cells.has;
import static io.apiserver4j.registry.internal.Cells.integer;
import static io.apiserver4j.registry.internal.Cells.list;
import static io.apiserver4j.registry.internal.Cells.map;
import static io.apiserver4j.registry.internal.Cells.orNone;
import static io.apiserver4j.registry.internal.Cells.row;
import static io.apiserver4j.registry.internal.Cells.since;
import static io.apiserver4j.registry.internal.Cells.str;

import io.apiserver4j.apiserver.TablePrinter;
import io.apiserver4j.apiserver.TablePrinter.Column;
import io.apiserver4j.core.GoDurations;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import io.apiserver4j.kubeapi.KubeApi;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The table printers of the built-in resources, by {@code group/resource}: the columns and cells
 * of kube-apiserver 1.36's {@code pkg/printers/internalversion}, for the kinds that no group's
 * registry package declares yet. Column descriptions that kube takes from the API types'
 * documentation come from the OpenAPI definitions. Resources kube has no printer for (Roles,
 * ClusterRoles, LimitRanges, CustomResourceDefinitions, ...) are not here: they print kube's
 * default {@code Name} and {@code Created At}.
 */
final class BuiltinPrinters {
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final String CORE = "io.k8s.api.core.v1.";
  private static final String APPS = "io.k8s.api.apps.v1.";
  private static final String BATCH = "io.k8s.api.batch.v1.";

  private static final Column NAME = new Column("Name", "string", "name",
      doc(META + "ObjectMeta", "name"), 0);
  private static final Column AGE = col("Age", "string", doc(META + "ObjectMeta",
      "creationTimestamp"));
  private static final Column CONTAINERS = wide("Containers", "string",
      "Names of each container in the template.");
  private static final Column IMAGES = wide("Images", "string",
      "Images referenced by each container in the template.");

  private BuiltinPrinters() {}

  /** Kube's documentation of {@code field} of OpenAPI type {@code type}, or empty. */
  private static String doc(String type, String field) {
    Value d = Cells.at(KubeApi.openApiDefinitions(), type, "properties", field, "description");
    return d instanceof StringValue s ? s.value() : "";
  }

  private static Column col(String name, String type, String description) {
    return new Column(name, type, "", description, 0);
  }

  private static Column wide(String name, String type, String description) {
    return new Column(name, type, "", description, 1);
  }

  private static TablePrinter p(List<Column> columns,
      BiFunction<MapValue, Instant, List<Value>> cells) {
    return TablePrinter.of(columns, cells);
  }

  private static String name(MapValue o) {
    return str(o, "metadata", "name");
  }

  /** The printers, by {@code group/resource} ({@code /pods} for the core group). */
  static Map<String, TablePrinter> all() {
    Map<String, TablePrinter> out = new HashMap<>();
    out.put("/pods", p(List.of(NAME,
        col("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
        col("Status", "string", "The aggregate status of the containers in this pod."),
        col("Restarts", "string", "The number of times the containers in this pod have been"
            + " restarted and when the last container in this pod has restarted."), AGE,
        wide("IP", "string", doc(CORE + "PodStatus", "podIP")),
        wide("Node", "string", doc(CORE + "PodSpec", "nodeName")),
        wide("Nominated Node", "string", doc(CORE + "PodStatus", "nominatedNodeName")),
        wide("Readiness Gates", "string", doc(CORE + "PodSpec", "readinessGates"))),
        BuiltinPrinters::podCells));
    out.put("/podtemplates", p(List.of(NAME,
        col("Containers", "string", CONTAINERS.description()),
        col("Images", "string", IMAGES.description()),
        col("Pod Labels", "string", "The labels for the pod template.")),
        (o, now) -> row(name(o), join(list(o, "template", "spec", "containers"), "name"),
            join(list(o, "template", "spec", "containers"), "image"),
            formatLabels(map(o, "template", "metadata", "labels")))));
    out.put("policy/poddisruptionbudgets", p(List.of(NAME,
        col("Min Available", "string", "The minimum number of pods that must be available."),
        col("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
        col("Allowed Disruptions", "integer",
            "Calculated number of pods that may be disrupted at this time."), AGE),
        (o, now) -> row(name(o), orNa(str(o, "spec", "minAvailable")),
            orNa(str(o, "spec", "maxUnavailable")), integer(o, "status", "disruptionsAllowed"),
            age(o, now))));
    out.put("/replicationcontrollers", p(List.of(NAME,
        col("Desired", "integer", doc(CORE + "ReplicationControllerSpec", "replicas")),
        col("Current", "integer", doc(CORE + "ReplicationControllerStatus", "replicas")),
        col("Ready", "integer", doc(CORE + "ReplicationControllerStatus", "readyReplicas")), AGE,
        CONTAINERS, IMAGES,
        wide("Selector", "string", doc(CORE + "ReplicationControllerSpec", "selector"))),
        (o, now) -> row(name(o), replicas(o), integer(o, "status", "replicas"),
            integer(o, "status", "readyReplicas"), age(o, now), containers(o), images(o),
            formatLabels(map(o, "spec", "selector")))));
    out.put("apps/replicasets", p(List.of(NAME,
        col("Desired", "integer", doc(APPS + "ReplicaSetSpec", "replicas")),
        col("Current", "integer", doc(APPS + "ReplicaSetStatus", "replicas")),
        col("Ready", "integer", doc(APPS + "ReplicaSetStatus", "readyReplicas")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(APPS + "ReplicaSetSpec", "selector"))),
        (o, now) -> row(name(o), replicas(o), integer(o, "status", "replicas"),
            integer(o, "status", "readyReplicas"), age(o, now), containers(o), images(o),
            formatLabelSelector(Cells.at(o, "spec", "selector")))));
    out.put("apps/daemonsets", p(List.of(NAME,
        col("Desired", "integer", doc(APPS + "DaemonSetStatus", "desiredNumberScheduled")),
        col("Current", "integer", doc(APPS + "DaemonSetStatus", "currentNumberScheduled")),
        col("Ready", "integer", doc(APPS + "DaemonSetStatus", "numberReady")),
        col("Up-to-date", "integer", doc(APPS + "DaemonSetStatus", "updatedNumberScheduled")),
        col("Available", "integer", doc(APPS + "DaemonSetStatus", "numberAvailable")),
        col("Node Selector", "string", doc(CORE + "PodSpec", "nodeSelector")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(APPS + "DaemonSetSpec", "selector"))),
        (o, now) -> row(name(o), integer(o, "status", "desiredNumberScheduled"),
            integer(o, "status", "currentNumberScheduled"), integer(o, "status", "numberReady"),
            integer(o, "status", "updatedNumberScheduled"),
            integer(o, "status", "numberAvailable"),
            formatLabels(map(o, "spec", "template", "spec", "nodeSelector")), age(o, now),
            containers(o), images(o), formatLabelSelector(Cells.at(o, "spec", "selector")))));
    out.put("batch/jobs", p(List.of(NAME, col("Status", "string", "Status of the job."),
        col("Completions", "string", doc(BATCH + "JobStatus", "succeeded")),
        col("Duration", "string", "Time required to complete the job."), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(BATCH + "JobSpec", "selector"))),
        BuiltinPrinters::jobCells));
    out.put("batch/cronjobs", p(List.of(NAME,
        col("Schedule", "string", doc(BATCH + "CronJobSpec", "schedule")),
        col("Timezone", "string", doc(BATCH + "CronJobSpec", "timeZone")),
        col("Suspend", "boolean", doc(BATCH + "CronJobSpec", "suspend")),
        col("Active", "integer", doc(BATCH + "CronJobStatus", "active")),
        col("Last Schedule", "string", doc(BATCH + "CronJobStatus", "lastScheduleTime")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(BATCH + "JobSpec", "selector"))),
        (o, now) -> row(name(o), str(o, "spec", "schedule"),
            orNone(str(o, "spec", "timeZone")),
            has(o, "spec", "suspend") ? (bool(o, "spec", "suspend") ? "True" : "False")
                : "<unset>",
            (long) list(o, "status", "active").size(),
            has(o, "status", "lastScheduleTime")
                ? since(str(o, "status", "lastScheduleTime"), now) : "<none>",
            age(o, now), join(list(o, "spec", "jobTemplate", "spec", "template", "spec",
                "containers"), "name"),
            join(list(o, "spec", "jobTemplate", "spec", "template", "spec", "containers"),
                "image"),
            formatLabelSelector(Cells.at(o, "spec", "jobTemplate", "spec", "selector")))));
    out.put("/services", p(List.of(NAME, col("Type", "string", doc(CORE + "ServiceSpec", "type")),
        col("Cluster-IP", "string", doc(CORE + "ServiceSpec", "clusterIP")),
        col("External-IP", "string", doc(CORE + "ServiceSpec", "externalIPs")),
        col("Port(s)", "string", doc(CORE + "ServiceSpec", "ports")), AGE,
        wide("Selector", "string", doc(CORE + "ServiceSpec", "selector"))),
        BuiltinPrinters::serviceCells));
    out.put("networking.k8s.io/ingresses", p(List.of(NAME,
        col("Class", "string", "The name of the IngressClass resource that should be used for"
            + " additional configuration"),
        col("Hosts", "string", "Hosts that incoming requests are matched against before the"
            + " ingress rule"),
        col("Address", "string", "Address is a list containing ingress points for the"
            + " load-balancer"),
        col("Ports", "string", "Ports of TLS configurations that open"), AGE),
        BuiltinPrinters::ingressCells));
    out.put("networking.k8s.io/ingressclasses", p(List.of(NAME,
        col("Controller", "string", "Controller that is responsible for handling this class"),
        col("Parameters", "string", "A reference to a resource with additional parameters"),
        AGE),
        (o, now) -> row(name(o), str(o, "spec", "controller"), ingressClassParameters(o),
            age(o, now))));
    out.put("apps/statefulsets", p(List.of(NAME,
        col("Ready", "string", "Number of the pod with ready state"), AGE, CONTAINERS, IMAGES),
        (o, now) -> row(name(o), integer(o, "status", "readyReplicas") + "/" + replicas(o),
            age(o, now), containers(o), images(o))));
    out.put("/endpoints", p(List.of(NAME,
        col("Endpoints", "string", doc(CORE + "Endpoints", "subsets")), AGE),
        (o, now) -> row(name(o), endpoints(o), age(o, now))));
    out.put("/nodes", p(List.of(NAME, col("Status", "string", "The status of the node"),
        col("Roles", "string", "The roles of the node"), AGE,
        col("Version", "string", doc(CORE + "NodeSystemInfo", "kubeletVersion")),
        wide("Internal-IP", "string", doc(CORE + "NodeStatus", "addresses")),
        wide("External-IP", "string", doc(CORE + "NodeStatus", "addresses")),
        wide("OS-Image", "string", doc(CORE + "NodeSystemInfo", "osImage")),
        wide("Kernel-Version", "string", doc(CORE + "NodeSystemInfo", "kernelVersion")),
        wide("Container-Runtime", "string", doc(CORE + "NodeSystemInfo",
            "containerRuntimeVersion"))),
        BuiltinPrinters::nodeCells));
    TablePrinter events = p(List.of(
        col("Last Seen", "string", doc(CORE + "Event", "lastTimestamp")),
        col("Type", "string", doc(CORE + "Event", "type")),
        col("Reason", "string", doc(CORE + "Event", "reason")),
        col("Object", "string", doc(CORE + "Event", "involvedObject")),
        wide("Subobject", "string", doc(CORE + "ObjectReference", "fieldPath")),
        wide("Source", "string", doc(CORE + "Event", "source")),
        col("Message", "string", doc(CORE + "Event", "message")),
        wide("First Seen", "string", doc(CORE + "Event", "firstTimestamp")),
        wide("Count", "string", doc(CORE + "Event", "count")),
        new Column("Name", "string", "name", NAME.description(), 1)),
        BuiltinPrinters::eventCells);
    out.put("/events", events);
    // kube prints events.k8s.io Events through the internal core Event they convert to
    out.put("events.k8s.io/events", p(events.columns(),
        (o, now) -> eventCells(asCoreEvent(o), now)));
    out.put("/namespaces", p(List.of(NAME,
        col("Status", "string", "The status of the namespace"), AGE),
        (o, now) -> row(name(o), str(o, "status", "phase"), age(o, now))));
    out.put("/secrets", p(List.of(NAME, col("Type", "string", doc(CORE + "Secret", "type")),
        col("Data", "string", doc(CORE + "Secret", "data")), AGE),
        (o, now) -> row(name(o), str(o, "type").isEmpty() ? "Opaque" : str(o, "type"),
            (long) map(o, "data").size(), age(o, now))));
    out.put("/serviceaccounts", p(List.of(NAME,
        col("Secrets", "string", doc(CORE + "ServiceAccount", "secrets")), AGE),
        (o, now) -> row(name(o), (long) list(o, "secrets").size(), age(o, now))));
    out.put("/persistentvolumes", p(List.of(NAME,
        col("Capacity", "string", doc(CORE + "PersistentVolumeSpec", "capacity")),
        col("Access Modes", "string", doc(CORE + "PersistentVolumeSpec", "accessModes")),
        col("Reclaim Policy", "string", doc(CORE + "PersistentVolumeSpec",
            "persistentVolumeReclaimPolicy")),
        col("Status", "string", doc(CORE + "PersistentVolumeStatus", "phase")),
        col("Claim", "string", doc(CORE + "PersistentVolumeSpec", "claimRef")),
        col("StorageClass", "string", "StorageClass of the pv"),
        col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pv"),
        col("Reason", "string", doc(CORE + "PersistentVolumeStatus", "reason")), AGE,
        wide("VolumeMode", "string", doc(CORE + "PersistentVolumeSpec", "volumeMode"))),
        (o, now) -> row(name(o), str(o, "spec", "capacity", "storage"),
            accessModes(list(o, "spec", "accessModes")), str(o, "spec",
                "persistentVolumeReclaimPolicy"), phase(o),
            has(o, "spec", "claimRef") ? str(o, "spec", "claimRef", "namespace") + "/"
                + str(o, "spec", "claimRef", "name") : "",
            storageClass(o), orUnset(str(o, "spec", "volumeAttributesClassName")),
            str(o, "status", "reason"), age(o, now),
            orUnset(str(o, "spec", "volumeMode")))));
    out.put("/persistentvolumeclaims", p(List.of(NAME,
        col("Status", "string", doc(CORE + "PersistentVolumeClaimStatus", "phase")),
        col("Volume", "string", doc(CORE + "PersistentVolumeClaimSpec", "volumeName")),
        col("Capacity", "string", doc(CORE + "PersistentVolumeClaimStatus", "capacity")),
        col("Access Modes", "string", doc(CORE + "PersistentVolumeClaimStatus", "accessModes")),
        col("StorageClass", "string", "StorageClass of the pvc"),
        col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc"), AGE,
        wide("VolumeMode", "string", doc(CORE + "PersistentVolumeClaimSpec", "volumeMode"))),
        (o, now) -> {
          boolean bound = !str(o, "spec", "volumeName").isEmpty();
          return row(name(o), phase(o), str(o, "spec", "volumeName"),
              bound ? str(o, "status", "capacity", "storage") : "",
              bound ? accessModes(list(o, "status", "accessModes")) : "", storageClass(o),
              orUnset(str(o, "spec", "volumeAttributesClassName")), age(o, now),
              orUnset(str(o, "spec", "volumeMode")));
        }));
    out.put("/componentstatuses", p(List.of(NAME,
        col("Status", "string", "Status of the component conditions"),
        col("Message", "string", "Message of the component conditions"),
        col("Error", "string", "Error of the component conditions")),
        BuiltinPrinters::componentStatusCells));
    out.put("apps/deployments", p(List.of(NAME,
        col("Ready", "string", "Number of the pod with ready state"),
        col("Up-to-date", "integer", doc(APPS + "DeploymentStatus", "updatedReplicas")),
        col("Available", "integer", doc(APPS + "DeploymentStatus", "availableReplicas")), AGE,
        CONTAINERS, IMAGES, wide("Selector", "string", doc(APPS + "DeploymentSpec", "selector"))),
        (o, now) -> row(name(o), integer(o, "status", "readyReplicas") + "/" + replicas(o),
            integer(o, "status", "updatedReplicas"), integer(o, "status", "availableReplicas"),
            age(o, now), containers(o), images(o),
            formatLabelSelector(Cells.at(o, "spec", "selector")))));
    String hpa = "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler";
    out.put("autoscaling/horizontalpodautoscalers", p(List.of(NAME,
        col("Reference", "string", doc(hpa + "Spec", "scaleTargetRef")),
        col("Targets", "string", doc(hpa + "Spec", "metrics")),
        col("MinPods", "string", doc(hpa + "Spec", "minReplicas")),
        col("MaxPods", "string", doc(hpa + "Spec", "maxReplicas")),
        col("Replicas", "string", doc(hpa + "Status", "currentReplicas")), AGE),
        BuiltinPrinters::hpaCells));
    out.put("/configmaps", p(List.of(NAME, col("Data", "string", doc(CORE + "ConfigMap", "data")),
        AGE),
        (o, now) -> row(name(o), (long) (map(o, "data").size() + map(o, "binaryData").size()),
            age(o, now))));
    out.put("networking.k8s.io/networkpolicies", p(List.of(NAME,
        col("Pod-Selector", "string", doc("io.k8s.api.networking.v1.NetworkPolicySpec",
            "podSelector")), AGE),
        (o, now) -> row(name(o), formatLabelSelector(Cells.at(o, "spec", "podSelector")),
            age(o, now))));
    out.put("coordination.k8s.io/leases", p(List.of(NAME,
        col("Holder", "string", doc("io.k8s.api.coordination.v1.LeaseSpec", "holderIdentity")),
        AGE),
        (o, now) -> row(name(o), str(o, "spec", "holderIdentity"), age(o, now))));
    out.put("apps/controllerrevisions", p(List.of(NAME,
        col("Controller", "string", "Controller of the object"),
        col("Revision", "string", doc(APPS + "ControllerRevision", "revision")), AGE),
        (o, now) -> row(name(o), controller(o), integer(o, "revision"), age(o, now))));
    out.put("/resourcequotas", p(List.of(NAME,
        col("Request", "string", "Request represents a minimum amount of cpu/memory that a"
            + " container may consume."),
        col("Limit", "string", "Limits control the maximum amount of cpu/memory that a container"
            + " may use independent of contention on the node."), AGE),
        BuiltinPrinters::quotaCells));
    String pc = "io.k8s.api.scheduling.v1.PriorityClass";
    out.put("scheduling.k8s.io/priorityclasses", p(List.of(NAME,
        col("Value", "integer", doc(pc, "value")),
        col("Global-Default", "boolean", doc(pc, "globalDefault")), AGE,
        col("PreemptionPolicy", "string", doc(pc, "preemptionPolicy"))),
        (o, now) -> row(name(o), integer(o, "value"), bool(o, "globalDefault"), age(o, now),
            orDefault(str(o, "preemptionPolicy"), "PreemptLowerPriority"))));
    out.put("node.k8s.io/runtimeclasses", p(List.of(NAME,
        col("Handler", "string", doc("io.k8s.api.node.v1.RuntimeClass", "handler")), AGE),
        (o, now) -> row(name(o), str(o, "handler"), age(o, now))));
    String es = "io.k8s.api.discovery.v1.EndpointSlice";
    out.put("discovery.k8s.io/endpointslices", p(List.of(NAME,
        col("AddressType", "string", doc(es, "addressType")),
        col("Ports", "string", doc(es, "ports")),
        col("Endpoints", "string", doc(es, "endpoints")), AGE),
        (o, now) -> row(name(o), str(o, "addressType"), slicePorts(o), sliceEndpoints(o),
            age(o, now))));
    out.put("networking.k8s.io/servicecidrs", p(List.of(NAME,
        col("CIDRs", "string", doc("io.k8s.api.networking.v1.ServiceCIDRSpec", "cidrs")), AGE),
        (o, now) -> row(name(o), strings(list(o, "spec", "cidrs")), age(o, now))));
    out.put("networking.k8s.io/ipaddresses", p(List.of(NAME,
        col("ParentRef", "string", doc("io.k8s.api.networking.v1.IPAddressSpec", "parentRef"))),
        (o, now) -> row(name(o), parentRef(o))));
    return Map.copyOf(out);
  }

  // ---- cells -----------------------------------------------------------------------------

  private static String orNa(String s) {
    return s.isEmpty() ? "N/A" : s;
  }

  private static String orUnset(String s) {
    return s.isEmpty() ? "<unset>" : s;
  }

  private static String orDefault(String s, String dflt) {
    return s.isEmpty() ? dflt : s;
  }

  private static long replicas(MapValue o) {
    // the internal types default a missing spec.replicas to 1
    return has(o, "spec", "replicas") ? integer(o, "spec", "replicas") : 1;
  }

  private static String containers(MapValue o) {
    return join(list(o, "spec", "template", "spec", "containers"), "name");
  }

  private static String images(MapValue o) {
    return join(list(o, "spec", "template", "spec", "containers"), "image");
  }

  private static String join(List<Value> items, String field) {
    List<String> out = new ArrayList<>();
    for (Value c : items) {
      out.add(str(c, field));
    }
    return String.join(",", out);
  }

  private static String strings(List<Value> items) {
    List<String> out = new ArrayList<>();
    for (Value v : items) {
      out.add(v instanceof StringValue s ? s.value() : "");
    }
    return String.join(",", out);
  }

  private static String phase(MapValue o) {
    return has(o, "metadata", "deletionTimestamp") ? "Terminating" : str(o, "status", "phase");
  }

  private static String storageClass(MapValue o) {
    String beta = str(o, "metadata", "annotations", "volume.beta.kubernetes.io/storage-class");
    return beta.isEmpty() ? str(o, "spec", "storageClassName") : beta;
  }

  // kube's short forms of access modes, in its order
  private static String accessModes(List<Value> modes) {
    List<String> out = new ArrayList<>();
    String[][] known = {{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"},
        {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}};
    for (String[] k : known) {
      if (modes.contains(Value.of(k[0]))) {
        out.add(k[1]);
      }
    }
    return String.join(",", out);
  }

  private static String controller(MapValue o) {
    for (Value ref : list(o, "metadata", "ownerReferences")) {
      if (bool(ref, "controller")) {
        String apiVersion = str(ref, "apiVersion");
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        return str(ref, "kind").toLowerCase(Locale.ROOT) + (group.isEmpty() ? "" : "." + group)
            + "/" + str(ref, "name");
      }
    }
    return "<none>";
  }

  private static String parentRef(MapValue o) {
    Value ref = Cells.at(o, "spec", "parentRef");
    if (ref == null || ref.isNull()) {
      return "<none>";
    }
    String group = str(ref, "group");
    String resource = str(ref, "resource");
    String gr = group.isEmpty() ? resource : resource + "." + group;
    String ns = str(ref, "namespace");
    return gr + "/" + (ns.isEmpty() ? "" : ns + "/") + str(ref, "name");
  }

  private static String ingressClassParameters(MapValue o) {
    Value params = Cells.at(o, "spec", "parameters");
    if (params == null || params.isNull()) {
      return "<none>";
    }
    String group = str(params, "apiGroup");
    String kind = str(params, "kind");
    return (group.isEmpty() ? kind : group + "/" + kind) + "/" + str(params, "name");
  }

  private static List<Value> podCells(MapValue o, Instant now) {
    List<Value> specContainers = list(o, "spec", "containers");
    String reason = str(o, "status", "phase");
    if (!str(o, "status", "reason").isEmpty()) {
      reason = str(o, "status", "reason");
    }
    long restarts = 0;
    long ready = 0;
    boolean initializing = false;
    List<Value> inits = list(o, "status", "initContainerStatuses");
    for (int i = 0; i < inits.size(); i++) {
      Value c = inits.get(i);
      restarts += integer(c, "restartCount");
      if (has(c, "state", "terminated") && integer(c, "state", "terminated", "exitCode") == 0) {
        continue;
      }
      if (has(c, "state", "terminated")) {
        String r = str(c, "state", "terminated", "reason");
        reason = "Init:" + (r.isEmpty() ? "ExitCode:"
            + integer(c, "state", "terminated", "exitCode") : r);
      } else if (!str(c, "state", "waiting", "reason").isEmpty()
          && !str(c, "state", "waiting", "reason").equals("PodInitializing")) {
        reason = "Init:" + str(c, "state", "waiting", "reason");
      } else {
        reason = "Init:" + i + "/" + list(o, "spec", "initContainers").size();
      }
      initializing = true;
      break;
    }
    if (!initializing) {
      boolean hasRunning = false;
      List<Value> statuses = list(o, "status", "containerStatuses");
      for (int i = statuses.size() - 1; i >= 0; i--) {
        Value c = statuses.get(i);
        restarts += integer(c, "restartCount");
        if (!str(c, "state", "waiting", "reason").isEmpty()) {
          reason = str(c, "state", "waiting", "reason");
        } else if (!str(c, "state", "terminated", "reason").isEmpty()) {
          reason = str(c, "state", "terminated", "reason");
        } else if (has(c, "state", "terminated")) {
          long signal = integer(c, "state", "terminated", "signal");
          reason = signal != 0 ? "Signal:" + signal
              : "ExitCode:" + integer(c, "state", "terminated", "exitCode");
        } else if (bool(c, "ready") && has(c, "state", "running")) {
          hasRunning = true;
          ready++;
        }
      }
      if (reason.equals("Completed") && hasRunning) {
        reason = "Running";
      }
    }
    if (has(o, "metadata", "deletionTimestamp")) {
      reason = str(o, "status", "reason").equals("NodeLost") ? "Unknown" : "Terminating";
    }
    String ip = "<none>";
    List<Value> ips = list(o, "status", "podIPs");
    if (!ips.isEmpty() && !str(ips.get(0), "ip").isEmpty()) {
      ip = str(ips.get(0), "ip");
    } else if (!str(o, "status", "podIP").isEmpty()) {
      ip = str(o, "status", "podIP");
    }
    List<Value> gates = list(o, "spec", "readinessGates");
    String readiness = "<none>";
    if (!gates.isEmpty()) {
      long trueGates = 0;
      for (Value g : gates) {
        for (Value cond : list(o, "status", "conditions")) {
          if (str(cond, "type").equals(str(g, "conditionType"))
              && str(cond, "status").equals("True")) {
            trueGates++;
          }
        }
      }
      readiness = trueGates + "/" + gates.size();
    }
    return row(name(o), ready + "/" + specContainers.size(), reason, Long.toString(restarts),
        age(o, now), ip, orNone(str(o, "spec", "nodeName")),
        orNone(str(o, "status", "nominatedNodeName")), readiness);
  }

  private static List<Value> serviceCells(MapValue o, Instant now) {
    String type = orDefault(str(o, "spec", "type"), "ClusterIP");
    List<String> external = new ArrayList<>();
    for (Value v : list(o, "spec", "externalIPs")) {
      external.add(v instanceof StringValue s ? s.value() : "");
    }
    String externalIp;
    switch (type) {
      case "ExternalName":
        externalIp = str(o, "spec", "externalName");
        break;
      case "LoadBalancer": {
        List<String> lb = new ArrayList<>();
        for (Value ing : list(o, "status", "loadBalancer", "ingress")) {
          lb.add(str(ing, "ip").isEmpty() ? str(ing, "hostname") : str(ing, "ip"));
        }
        lb.addAll(external);
        externalIp = lb.isEmpty() ? "<pending>" : String.join(",", lb);
        break;
      }
      default:
        externalIp = external.isEmpty() ? "<none>" : String.join(",", external);
    }
    List<String> ports = new ArrayList<>();
    for (Value p : list(o, "spec", "ports")) {
      String proto = orDefault(str(p, "protocol"), "TCP");
      long port = integer(p, "port");
      long nodePort = integer(p, "nodePort");
      ports.add(nodePort > 0 ? port + ":" + nodePort + "/" + proto : port + "/" + proto);
    }
    return row(name(o), type, orNone(str(o, "spec", "clusterIP")), externalIp,
        ports.isEmpty() ? "<none>" : String.join(",", ports), age(o, now),
        formatLabels(map(o, "spec", "selector")));
  }

  private static List<Value> ingressCells(MapValue o, Instant now) {
    List<String> hosts = new ArrayList<>();
    for (Value rule : list(o, "spec", "rules")) {
      hosts.add(orDefault(str(rule, "host"), "*"));
    }
    String hostList;
    if (hosts.isEmpty()) {
      hostList = "*";
    } else if (hosts.size() > 3) {
      hostList = String.join(",", hosts.subList(0, 3)) + " + " + (hosts.size() - 3)
          + " more...";
    } else {
      hostList = String.join(",", hosts);
    }
    List<String> addresses = new ArrayList<>();
    for (Value ing : list(o, "status", "loadBalancer", "ingress")) {
      addresses.add(str(ing, "ip").isEmpty() ? str(ing, "hostname") : str(ing, "ip"));
    }
    return row(name(o), orNone(str(o, "spec", "ingressClassName")), hostList,
        String.join(",", addresses), list(o, "spec", "tls").isEmpty() ? "80" : "80, 443",
        age(o, now));
  }

  private static List<Value> nodeCells(MapValue o, Instant now) {
    String status = "Unknown";
    for (Value c : list(o, "status", "conditions")) {
      if (str(c, "type").equals("Ready")) {
        status = str(c, "status").equals("True") ? "Ready" : "NotReady";
      }
    }
    if (bool(o, "spec", "unschedulable")) {
      status += ",SchedulingDisabled";
    }
    List<String> roles = new ArrayList<>();
    MapValue labels = map(o, "metadata", "labels");
    for (int i = 0; i < labels.size(); i++) {
      String k = labels.keyAt(i);
      if (k.startsWith("node-role.kubernetes.io/")) {
        roles.add(k.substring("node-role.kubernetes.io/".length()));
      } else if (k.equals("kubernetes.io/role")) {
        roles.add(str(labels, k));
      }
    }
    roles.sort(Values::compareStrings);
    return row(name(o), status, roles.isEmpty() ? "<none>" : String.join(",", roles),
        age(o, now), str(o, "status", "nodeInfo", "kubeletVersion"),
        nodeAddress(o, "InternalIP"), nodeAddress(o, "ExternalIP"),
        orDefault(str(o, "status", "nodeInfo", "osImage"), "<unknown>"),
        orDefault(str(o, "status", "nodeInfo", "kernelVersion"), "<unknown>"),
        orDefault(str(o, "status", "nodeInfo", "containerRuntimeVersion"), "<unknown>"));
  }

  private static String nodeAddress(MapValue o, String type) {
    for (Value a : list(o, "status", "addresses")) {
      if (str(a, "type").equals(type)) {
        return str(a, "address");
      }
    }
    return "<none>";
  }

  private static String endpoints(MapValue o) {
    List<String> out = new ArrayList<>();
    int total = 0;
    for (Value subset : list(o, "subsets")) {
      for (Value addr : list(subset, "addresses")) {
        List<Value> ports = list(subset, "ports");
        if (ports.isEmpty()) {
          total++;
          if (out.size() < 3) {
            out.add(str(addr, "ip"));
          }
        }
        for (Value port : ports) {
          total++;
          if (out.size() < 3) {
            out.add(str(addr, "ip") + ":" + integer(port, "port"));
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

  private static String slicePorts(MapValue o) {
    List<Value> ports = list(o, "ports");
    if (ports.isEmpty()) {
      return "<unset>";
    }
    List<String> out = new ArrayList<>();
    for (Value p : ports) {
      out.add(has(p, "port") ? Long.toString(integer(p, "port")) : "<unset>");
    }
    return String.join(",", out);
  }

  private static String sliceEndpoints(MapValue o) {
    List<String> addrs = new ArrayList<>();
    for (Value e : list(o, "endpoints")) {
      for (Value a : list(e, "addresses")) {
        addrs.add(a instanceof StringValue s ? s.value() : "");
      }
    }
    if (addrs.isEmpty()) {
      return "<unset>";
    }
    String s = String.join(",", addrs.subList(0, Math.min(3, addrs.size())));
    return addrs.size() > 3 ? s + " + " + (addrs.size() - 3) + " more..." : s;
  }

  private static MapValue asCoreEvent(MapValue o) {
    String[][] renames = {{"regarding", "involvedObject"}, {"note", "message"},
        {"deprecatedSource", "source"}, {"deprecatedFirstTimestamp", "firstTimestamp"},
        {"deprecatedLastTimestamp", "lastTimestamp"}, {"deprecatedCount", "count"},
        {"reportingController", "reportingComponent"}};
    MapValue r = o;
    for (String[] rename : renames) {
      Value v = o.getOrNull(rename[0]);
      if (v != null) {
        r = r.without(rename[0]).with(rename[1], v);
      }
    }
    return r;
  }

  private static List<Value> eventCells(MapValue o, Instant now) {
    String first = str(o, "firstTimestamp");
    String last = str(o, "lastTimestamp");
    String eventTime = str(o, "eventTime");
    if (last.isEmpty()) {
      last = eventTime.isEmpty() ? str(o, "metadata", "creationTimestamp") : eventTime;
    }
    if (first.isEmpty()) {
      first = eventTime.isEmpty() ? last : eventTime;
    }
    long count = integer(o, "count");
    if (has(o, "series")) {
      count = integer(o, "series", "count");
      last = str(o, "series", "lastObservedTime");
    }
    String source = str(o, "source", "component");
    if (source.isEmpty()) {
      source = str(o, "reportingComponent");
    }
    if (!str(o, "source", "host").isEmpty()) {
      source = source + ", " + str(o, "source", "host");
    }
    return row(since(last, now), str(o, "type"), str(o, "reason"),
        str(o, "involvedObject", "kind").toLowerCase(Locale.ROOT) + "/"
            + str(o, "involvedObject", "name"),
        str(o, "involvedObject", "fieldPath"), source, str(o, "message"), since(first, now),
        Long.toString(Math.max(count, 1)), name(o));
  }

  private static List<Value> jobCells(MapValue o, Instant now) {
    String status = "Running";
    for (Value c : list(o, "status", "conditions")) {
      if (!str(c, "status").equals("True")) {
        continue;
      }
      String type = str(c, "type");
      if (type.equals("Complete") || type.equals("Failed")) {
        status = type;
      } else if (status.equals("Running") && List.of("Suspended", "FailureTarget",
          "SuccessCriteriaMet").contains(type)) {
        status = type;
      }
    }
    long succeeded = integer(o, "status", "succeeded");
    String completions;
    if (has(o, "spec", "completions")) {
      completions = succeeded + "/" + integer(o, "spec", "completions");
    } else if (has(o, "spec", "parallelism") && integer(o, "spec", "parallelism") > 1) {
      completions = succeeded + "/1 of " + integer(o, "spec", "parallelism");
    } else {
      completions = succeeded + "/1";
    }
    String duration = "";
    String start = str(o, "status", "startTime");
    if (!start.isEmpty()) {
      String end = str(o, "status", "completionTime");
      try {
        Instant s = Instant.parse(start);
        Instant e = end.isEmpty() ? now : Instant.parse(end);
        duration = GoDurations.human(Duration.between(s, e));
      } catch (DateTimeParseException ex) {
        duration = "<invalid>";
      }
    }
    return row(name(o), status, completions, duration, age(o, now), containers(o), images(o),
        formatLabelSelector(Cells.at(o, "spec", "selector")));
  }

  private static List<Value> componentStatusCells(MapValue o, Instant now) {
    String status = "Unknown";
    String message = "";
    String error = "";
    for (Value c : list(o, "conditions")) {
      if (str(c, "type").equals("Healthy")) {
        status = str(c, "status").equals("True") ? "Healthy" : "Unhealthy";
        message = str(c, "message");
        error = str(c, "error");
        break;
      }
    }
    return row(name(o), status, message, error);
  }

  private static List<Value> hpaCells(MapValue o, Instant now) {
    String ref = str(o, "spec", "scaleTargetRef", "kind") + "/"
        + str(o, "spec", "scaleTargetRef", "name");
    List<String> targets = new ArrayList<>();
    // autoscaling/v1 keeps its one target in the spec
    if (has(o, "spec", "targetCPUUtilizationPercentage")) {
      String current = has(o, "status", "currentCPUUtilizationPercentage")
          ? integer(o, "status", "currentCPUUtilizationPercentage") + "%" : "<unknown>";
      targets.add("cpu: " + current + "/" + integer(o, "spec", "targetCPUUtilizationPercentage")
          + "%");
    }
    for (Value m : list(o, "spec", "metrics")) {
      if (str(m, "type").equals("Resource")) {
        String target = has(m, "resource", "target", "averageUtilization")
            ? integer(m, "resource", "target", "averageUtilization") + "%"
            : str(m, "resource", "target", "averageValue");
        targets.add(str(m, "resource", "name") + ": <unknown>/" + target);
      } else if (!str(m, "type").isEmpty()) {
        // Pods, Object, External: the target sits under the type's own field
        String type = str(m, "type");
        Value target = Cells.at(m, Character.toLowerCase(type.charAt(0)) + type.substring(1),
            "target");
        String value = has(target, "averageUtilization")
            ? integer(target, "averageUtilization") + "%"
            : orDefault(str(target, "averageValue"), str(target, "value"));
        targets.add("<unknown>/" + value);
      }
    }
    String targetCell = targets.isEmpty() ? "<none>" : targets.size() > 3
        ? String.join(", ", targets.subList(0, 3)) + " + " + (targets.size() - 3) + " more..."
        : String.join(", ", targets);
    return row(name(o), ref, targetCell,
        has(o, "spec", "minReplicas") ? Long.toString(integer(o, "spec", "minReplicas"))
            : "<unset>",
        integer(o, "spec", "maxReplicas"), integer(o, "status", "currentReplicas"),
        age(o, now));
  }

  private static List<Value> quotaCells(MapValue o, Instant now) {
    MapValue hard = map(o, "spec", "hard");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < hard.size(); i++) {
      keys.add(hard.keyAt(i));
    }
    keys.sort(Values::compareStrings);
    List<String> requests = new ArrayList<>();
    List<String> limits = new ArrayList<>();
    for (String k : keys) {
      String used = str(o, "status", "used", k);
      String cell = k + ": " + (used.isEmpty() ? "0" : used) + "/" + str(hard, k);
      (k.startsWith("limits.") ? limits : requests).add(cell);
    }
    return row(name(o), String.join(", ", requests), String.join(", ", limits), age(o, now));
  }
}
