/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Built-in objects read back from storage are defaulted as kube's storage codec defaults every
 * decode, for the kinds whose strategy says so. The case kube's documentation shows: the
 * {@code pi} Job of the Jobs page (kubernetes/website {@code
 * content/en/examples/controllers/job.yaml}) has no labels; {@code SetDefaults_Job} runs before
 * {@code PrepareForCreate} labels its template, so kube stores it without labels, and {@code
 * kubectl get job pi -o yaml} shows it with its template's labels ({@code
 * batch.kubernetes.io/controller-uid}, {@code batch.kubernetes.io/job-name}, {@code
 * controller-uid}, {@code job-name}). A write starts from the defaulted object, and, as kube's
 * {@code GuaranteedUpdate} compares the new encoding with the stored bytes, the first re-apply
 * persists what the read added; every re-apply after it is a no-op.
 */
class DefaultOnReadTest {
  private static final GroupVersionResource JOBS = new GroupVersionResource("batch", "v1", "jobs");
  private static final ObjectKey PI = new ObjectKey("batch", "jobs", "default", "pi");

  // kubernetes/website content/en/examples/controllers/job.yaml
  private static final String PI_JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: pi
      spec:
        template:
          spec:
            containers:
            - name: pi
              image: perl:5.34.0
              command: ["perl",  "-Mbignum=bpi", "-wle", "print bpi(2000)"]
            restartPolicy: Never
        backoffLimit: 4
      """;

  private final InMemoryStore store = InMemoryStore.create();
  private final Fixtures f = new Fixtures(ApiServer.builder().store(store));

  private static MapValue labels(Value obj) {
    return Nested.map(obj, "metadata", "labels");
  }

  private void assertTemplateLabels(Value job) {
    String uid = str(job, "metadata", "uid");
    assertThat(labels(job)).as("%s", job)
        .isEqualTo(Nested.map(job, "spec", "template", "metadata", "labels"));
    List<String> keys = new java.util.ArrayList<>();
    for (int i = 0; i < labels(job).size(); i++) {
      keys.add(labels(job).keyAt(i));
    }
    assertThat(keys).containsExactlyInAnyOrder(
        "batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name", "controller-uid",
        "job-name");
    assertThat(str(labels(job), "job-name")).isEqualTo("pi");
    assertThat(str(labels(job), "controller-uid")).isEqualTo(uid);
  }

  @Test
  void theDocsPiJobIsStoredWithoutLabelsAndReadWithItsTemplateLabels() {
    ApiResponse created = f.apply(JOBS, "default", "pi", "kubectl", PI_JOB);
    assertThat(created.code()).as("%s", created.body()).isEqualTo(201);

    assertThat(Nested.mapOrNull(store.get(PI).orElseThrow().object(), "metadata", "labels"))
        .isNull();
    assertTemplateLabels(created.body());
    assertTemplateLabels(f.get(JOBS, "default", "pi").body());
    ApiResponse list = f.server.handle(ApiRequest.builder(Verb.LIST, JOBS).namespace("default")
        .build());
    List<Value> items = Nested.list(list.body(), "items");
    assertThat(items).hasSize(1);
    assertTemplateLabels(items.get(0));
  }

  @Test
  void reApplyingPiPersistsWhatTheReadAddedOnceAndIsThenANoOp() {
    MapValue created = (MapValue) f.apply(JOBS, "default", "pi", "kubectl", PI_JOB).body();
    ApiResponse second = f.apply(JOBS, "default", "pi", "kubectl", PI_JOB);
    assertThat(second.code()).as("%s", second.body()).isEqualTo(200);
    assertThat(labels(second.body())).isEqualTo(labels(created));
    assertThat(labels(store.get(PI).orElseThrow().object())).isEqualTo(labels(created));

    String rv = str(second.body(), "metadata", "resourceVersion");
    ApiResponse third = f.apply(JOBS, "default", "pi", "kubectl", PI_JOB);
    assertThat(third.code()).isEqualTo(200);
    assertThat(str(third.body(), "metadata", "resourceVersion")).isEqualTo(rv);
    assertThat(third.body()).isEqualTo(second.body());

    // an update with the object as read changes nothing either
    ApiResponse put = f.update(JOBS, "default", "pi", f.get(JOBS, "default", "pi").body(),
        "kubectl");
    assertThat(put.code()).as("%s", put.body()).isEqualTo(200);
    assertThat(str(put.body(), "metadata", "resourceVersion")).isEqualTo(rv);
  }
}
