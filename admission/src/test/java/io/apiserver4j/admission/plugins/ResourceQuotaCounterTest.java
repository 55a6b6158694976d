/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.OperationOptions;
import io.apiserver4j.admission.TestObjects;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ResourceQuotaCounterTest {
  private static final GroupResource CONFIGMAPS = new GroupResource("", "configmaps");

  private final ResourceQuotaCounter quota = ResourceQuotaCounter.builder()
      .quota("ns", "cm-quota", Map.of("count/configmaps", 2L))
      .build();
  private final AdmissionChain chain = AdmissionChain.builder().add(quota).build();

  @Test
  void countsAdmittedCreatesAndRejectsOverTheLimitInKubeWords() {
    chain.validate(TestObjects.create("ns", "a").build());
    chain.validate(TestObjects.create("ns", "b").build());
    assertThat(quota.usage("ns", CONFIGMAPS)).isEqualTo(2);
    assertThatThrownBy(() -> chain.validate(TestObjects.create("ns", "c").build()))
        .isInstanceOfSatisfying(ForbiddenException.class, e -> {
          assertThat(e.code()).isEqualTo(403);
          assertThat(e.getMessage()).isEqualTo("configmaps \"c\" is forbidden: exceeded quota:"
              + " cm-quota, requested: count/configmaps=1, used: count/configmaps=2, limited:"
              + " count/configmaps=2");
        });
    assertThat(quota.usage("ns", CONFIGMAPS)).isEqualTo(2);
  }

  @Test
  void dryRunIsCheckedButNeverCharged() {
    chain.validate(TestObjects.dryRunCreate("ns", "a").build());
    chain.validate(TestObjects.dryRunCreate("ns", "b").build());
    chain.validate(TestObjects.dryRunCreate("ns", "c").build());
    assertThat(quota.usage("ns", CONFIGMAPS)).isZero();

    chain.validate(TestObjects.create("ns", "a").build());
    chain.validate(TestObjects.create("ns", "b").build());
    assertThatThrownBy(() -> chain.validate(TestObjects.dryRunCreate("ns", "c").build()))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("exceeded quota: cm-quota");

    AdmissionAttributes dryRunDelete = TestObjects.delete("ns", "a").dryRun(true)
        .options(OperationOptions.of(Operation.DELETE, true, "")).build();
    chain.validate(dryRunDelete);
    assertThat(quota.usage("ns", CONFIGMAPS)).isEqualTo(2);
  }

  @Test
  void deleteReleasesQuotaNeverBelowZero() {
    chain.validate(TestObjects.create("ns", "a").build());
    chain.validate(TestObjects.delete("ns", "a").build());
    assertThat(quota.usage("ns", CONFIGMAPS)).isZero();
    chain.validate(TestObjects.delete("ns", "a").build());
    assertThat(quota.usage("ns", CONFIGMAPS)).isZero();
  }

  @Test
  void onlyConfiguredNamespacesResourcesAndMainResourceAreCounted() {
    chain.validate(TestObjects.create("other", "a").build());
    chain.validate(TestObjects.create("ns", "s").resource(
        new GroupVersionResource("", "v1", "secrets")).build());
    chain.validate(TestObjects.create("ns", "a").subresource("status").build());
    assertThat(quota.usage("other", CONFIGMAPS)).isZero();
    assertThat(quota.usage("ns", new GroupResource("", "secrets"))).isZero();
    assertThat(quota.usage("ns", CONFIGMAPS)).isZero();
    // an update is not a new object
    chain.validate(TestObjects.create("ns", "a").operation(Operation.UPDATE)
        .oldObject(TestObjects.configMap("ns", "a"))
        .options(OperationOptions.of(Operation.UPDATE, false, "")).build());
    assertThat(quota.usage("ns", CONFIGMAPS)).isZero();
  }

  @Test
  void severalQuotasFirstExceededIsReported() {
    ResourceQuotaCounter q = ResourceQuotaCounter.builder()
        .quota("ns", "loose", Map.of("count/deployments.apps", 10L))
        .quota("ns", "tight", Map.of("count/deployments.apps", 1L))
        .build();
    AdmissionAttributes.Builder deployment = TestObjects.create("ns", "d1")
        .resource(new GroupVersionResource("apps", "v1", "deployments"))
        .kind(new GroupVersionKind("apps", "v1", "Deployment"));
    q.validate(deployment.build());
    assertThatThrownBy(() -> q.validate(deployment.name("d2").build()))
        .hasMessage("deployments.apps \"d2\" is forbidden: exceeded quota: tight, requested:"
            + " count/deployments.apps=1, used: count/deployments.apps=1, limited:"
            + " count/deployments.apps=1");
    assertThat(q.usage("ns", new GroupResource("apps", "deployments"))).isEqualTo(1);
  }

  @Test
  void reconcileSetsTheRealCount() {
    chain.validate(TestObjects.create("ns", "a").build());
    quota.reconcile("ns", CONFIGMAPS, 0);
    chain.validate(TestObjects.create("ns", "b").build());
    chain.validate(TestObjects.create("ns", "c").build());
    assertThat(quota.usage("ns", CONFIGMAPS)).isEqualTo(2);
    assertThatThrownBy(() -> quota.reconcile("ns", CONFIGMAPS, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
  }

  @Test
  void concurrentCreatesNeverOvercharge() throws Exception {
    ResourceQuotaCounter q = ResourceQuotaCounter.builder()
        .quota("ns", "q", Map.of("count/configmaps", 50L)).build();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      AdmissionAttributes a = TestObjects.create("ns", "cm" + i).build();
      results.add(pool.submit(() -> {
        start.await();
        try {
          q.validate(a);
          return true;
        } catch (ForbiddenException e) {
          return false;
        }
      }));
    }
    start.countDown();
    int admitted = 0;
    for (Future<Boolean> f : results) {
      admitted += f.get() ? 1 : 0;
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(admitted).isEqualTo(50);
    assertThat(q.usage("ns", CONFIGMAPS)).isEqualTo(50);
  }

  @Test
  void builderIsStrict() {
    assertThatThrownBy(() -> ResourceQuotaCounter.builder()
        .quota("ns", "q", Map.of("requests.cpu", 1L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unsupported resource name \"requests.cpu\"");
    assertThatThrownBy(() -> ResourceQuotaCounter.builder()
        .quota("ns", "q", Map.of("count/configmaps", -1L)))
        .hasMessageContaining("negative limit -1");
    assertThatThrownBy(() -> ResourceQuotaCounter.builder()
        .quota("ns", "q", Map.of()).quota("ns", "q", Map.of()))
        .hasMessageContaining("configured twice");
    assertThatThrownBy(() -> ResourceQuotaCounter.builder()
        .quota("", "q", Map.of()))
        .hasMessageContaining("namespace is empty");
    assertThatThrownBy(() -> ResourceQuotaCounter.builder()
        .quota("ns", "q", Map.of("count/.apps", 1L)))
        .hasMessageContaining("malformed resource name");
  }
}
