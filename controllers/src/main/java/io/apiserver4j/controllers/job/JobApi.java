/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.generateNameWithIndex;
import static io.apiserver4j.controllers.job.JobUtils.withIndexEnv;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerRefManager;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job controller's writes through the API as user
 * {@code system:serviceaccount:kube-system:job-controller}: Pods created from a Job's template
 * (kube's {@code CreatePodsWithGenerateName}), deleted with their Events, the tracking finalizer
 * removed, and the Job's status updated. Every call is one request; a failure is the request's
 * {@code StatusException}. Thread-safe.
 */
final class JobApi {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");

  private final ControllerContext context;
  private final UserInfo user;
  private final JobEvents events;
  private final ControllerRefManager refs;

  JobApi(ControllerContext context, UserInfo user, JobEvents events) {
    this.context = context;
    this.user = user;
    this.events = events;
    this.refs = new ControllerRefManager("batch/v1", "Job", this::jobClient, this::podClient,
        List.of(JobController.TRACKING_FINALIZER));
  }

  /** The manager that claims a Job's Pods (adopting with the tracking finalizer). */
  ControllerRefManager refs() {
    return refs;
  }

  /** Removes the tracking finalizer by kube's strategic merge patch. */
  void removeFinalizer(MapValue pod) {
    podClient(Meta.metaString(pod, "namespace")).patch(Meta.metaString(pod, "name"),
        PatchType.STRATEGIC_MERGE_PATCH, "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":"
            + "[\"" + JobController.TRACKING_FINALIZER + "\"]}}");
  }

  /**
   * kube's Pod from the template: controllerRef, tracking finalizer, and for an Indexed Job
   * ({@code index >= 0}) the index annotation, label, env variable and hostname, plus
   * {@code extraAnnotations} (the per-index failure counts).
   */
  MapValue createPod(MapValue job, int index, Map<String, String> extraAnnotations) {
    String name = Meta.metaString(job, "name");
    MapValue template = Nested.map(job, "spec", "template");
    MapValue tmeta = Nested.map(template, "metadata");
    MapValue spec = Nested.map(template, "spec");
    Map<String, Value> labels = new LinkedHashMap<>();
    Nested.map(tmeta, "labels").forEach(labels::put);
    Map<String, Value> annotations = new LinkedHashMap<>();
    Nested.map(tmeta, "annotations").forEach(annotations::put);
    List<String> finalizers = new ArrayList<>(Meta.stringList(tmeta.getOrNull("finalizers")));
    if (!finalizers.contains(JobController.TRACKING_FINALIZER)) {
      finalizers.add(JobController.TRACKING_FINALIZER);
    }
    String generateName = name + "-";
    if (index >= 0) {
      spec = withIndexEnv(spec);
      annotations.put(JobController.COMPLETION_INDEX, Value.of(Integer.toString(index)));
      labels.put(JobController.COMPLETION_INDEX, Value.of(Integer.toString(index)));
      spec = spec.with("hostname", Value.of(name + "-" + index));
      generateName = generateNameWithIndex(name, index);
    }
    extraAnnotations.forEach((k, v) -> annotations.put(k, Value.of(v)));
    MapValue.Builder meta = MapValue.builder();
    meta.put("generateName", Value.of(generateName));
    meta.put("namespace", Value.of(Meta.metaString(job, "namespace")));
    if (!labels.isEmpty()) {
      meta.put("labels", MapValue.of(labels));
    }
    if (!annotations.isEmpty()) {
      meta.put("annotations", MapValue.of(annotations));
    }
    meta.put("finalizers", ListValue.ofStrings(finalizers));
    meta.put("ownerReferences", ListValue.of(List.of(refs.controllerRef(job))));
    MapValue pod = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Pod"),
        "metadata", meta.build(), "spec", spec);
    return podClient(Meta.metaString(job, "namespace")).create(pod);
  }

  /** kube's {@code RealPodControl.DeletePod} with its Events. */
  void deletePod(MapValue job, MapValue pod) {
    events.deletePod(job, pod, () -> podClient(Meta.metaString(job, "namespace"))
        .delete(Meta.metaString(pod, "name")));
  }

  /** kube's {@code UpdateStatus} of the whole Job; the Job as it now is. */
  MapValue updateStatus(MapValue job, JobStatus status) {
    MapValue body = job.with("status", status.toValue());
    return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, JOBS)
        .namespace(Meta.metaString(job, "namespace")).name(Meta.metaString(job, "name"))
        .subresource("status").options(UpdateOptions.defaults())
        .fieldManager(ControllerContext.FIELD_MANAGER).user(user).body(body).build()).orThrow();
  }

  ResourceClient podClient(String namespace) {
    return context.client(PODS, user).namespace(namespace);
  }

  ResourceClient jobClient(String namespace) {
    return context.client(JOBS, user).namespace(namespace);
  }
}
