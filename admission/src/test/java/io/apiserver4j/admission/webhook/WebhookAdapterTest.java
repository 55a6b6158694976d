/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.OperationOptions;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.TestObjects;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.InternalErrorException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WebhookAdapterTest {
  private static final WebhookRule CONFIGMAP_CREATES = WebhookRule.of(Set.of(Operation.CREATE),
      List.of(""), List.of("v1"), List.of("configmaps"));
  private static final WebhookRule SECRETS = WebhookRule.of(WebhookRule.allOperations(),
      List.of(""), List.of("*"), List.of("secrets"));

  private final List<AdmissionReviewRequest> seen = new ArrayList<>();

  private Function<AdmissionReviewRequest, AdmissionReviewResponse> recordingAllow() {
    return r -> {
      seen.add(r);
      return AdmissionReviewResponse.allow(r);
    };
  }

  /** kube's webhook test cases on dry run, for a validating and a mutating webhook. */
  record DryRunCase(String name, WebhookRule rule, SideEffects sideEffects, boolean dryRun,
      boolean expectCalled, String expectError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<DryRunCase> dryRunCases() {
    String unsupported = "admission webhook \"hook.example.com\" does not support dry run";
    return List.of(
        new DryRunCase("no match dry run", SECRETS, SideEffects.SOME, true, false, null),
        new DryRunCase("match dry run side effects Unknown", CONFIGMAP_CREATES,
            SideEffects.UNKNOWN, true, false, unsupported),
        new DryRunCase("match dry run side effects None", CONFIGMAP_CREATES,
            SideEffects.NONE, true, true, null),
        new DryRunCase("match dry run side effects Some", CONFIGMAP_CREATES,
            SideEffects.SOME, true, false, unsupported),
        new DryRunCase("match dry run side effects NoneOnDryRun", CONFIGMAP_CREATES,
            SideEffects.NONE_ON_DRY_RUN, true, true, null),
        new DryRunCase("match no dry run side effects Some", CONFIGMAP_CREATES,
            SideEffects.SOME, false, true, null));
  }

  @ParameterizedTest(name = "validating: {0}")
  @MethodSource("dryRunCases")
  void validatingDryRun(DryRunCase c) {
    WebhookAdapter.Validating hook = WebhookAdapter.validating("hook.example.com", recordingAllow())
        .rule(c.rule()).sideEffects(c.sideEffects()).failurePolicy(FailurePolicy.IGNORE).build();
    AdmissionChain chain = AdmissionChain.builder().add(hook).build();
    check(c, () -> chain.validate(attrs(c.dryRun())));
  }

  @ParameterizedTest(name = "mutating: {0}")
  @MethodSource("dryRunCases")
  void mutatingDryRun(DryRunCase c) {
    WebhookAdapter.Mutating hook = WebhookAdapter.mutating("hook.example.com", recordingAllow())
        .rule(c.rule()).sideEffects(c.sideEffects()).failurePolicy(FailurePolicy.IGNORE).build();
    AdmissionChain chain = AdmissionChain.builder().add(hook).build();
    check(c, () -> chain.admit(attrs(c.dryRun())));
    // The adapter enforces the rule on its own too, for callers outside a chain.
    if (c.expectError() != null) {
      AdmissionAttributes a = attrs(true);
      assertThatThrownBy(() -> hook.admit(a, a.object().orElseThrow()))
          .hasMessage(c.expectError());
    }
  }

  private void check(DryRunCase c, Runnable call) {
    if (c.expectError() == null) {
      call.run();
    } else {
      // failurePolicy Ignore does not soften this rejection
      assertThatThrownBy(call::run).isInstanceOfSatisfying(BadRequestException.class, e -> {
        assertThat(e.code()).isEqualTo(400);
        assertThat(e.getMessage()).isEqualTo(c.expectError());
      });
    }
    assertThat(seen).hasSize(c.expectCalled() ? 1 : 0);
    if (c.expectCalled()) {
      assertThat(seen.get(0).dryRun()).isEqualTo(c.dryRun());
    }
  }

  private static AdmissionAttributes attrs(boolean dryRun) {
    return (dryRun ? TestObjects.dryRunCreate("ns", "x") : TestObjects.create("ns", "x"))
        .userInfo(new UserInfo("alice", "u-1", List.of("devs"), java.util.Map.of("scope",
            List.of("a")))).build();
  }

  @Test
  void requestCarriesTheAttributes() {
    WebhookAdapter.Validating hook = WebhookAdapter.validating("v.example.com", recordingAllow())
        .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE).uidSupplier(() -> "uid-1").build();
    hook.validate(attrs(true));
    AdmissionReviewRequest r = seen.get(0);
    assertThat(r.uid()).isEqualTo("uid-1");
    assertThat(r.operation()).isEqualTo(Operation.CREATE);
    assertThat(r.object()).contains(TestObjects.configMap("ns", "x"));
    assertThat(r.oldObject()).isEmpty();
    assertThat(r.options().getOrNull("dryRun")).isEqualTo(Value.list(Value.of("All")));
    assertThat(Json.write(r.toValue())).isEqualTo("{\"kind\":\"AdmissionReview\","
        + "\"apiVersion\":\"admission.k8s.io/v1\",\"request\":{\"uid\":\"uid-1\","
        + "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"},"
        + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"},"
        + "\"requestKind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"},"
        + "\"requestResource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"},"
        + "\"name\":\"x\",\"namespace\":\"ns\",\"operation\":\"CREATE\","
        + "\"userInfo\":{\"username\":\"alice\",\"uid\":\"u-1\",\"groups\":[\"devs\"],"
        + "\"extra\":{\"scope\":[\"a\"]}},"
        + "\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\","
        + "\"namespace\":\"ns\"}},\"oldObject\":null,\"dryRun\":true,"
        + "\"options\":{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\","
        + "\"dryRun\":[\"All\"],\"fieldManager\":\"test\"}}}");
  }

  @Test
  void denialMessagesFollowKube() {
    assertDenied(r -> AdmissionReviewResponse.deny(r, "no labels"), 403, StatusReason.FORBIDDEN,
        "admission webhook \"v.example.com\" denied the request: no labels");
    // A status without code is raised to 400.
    assertDenied(r -> AdmissionReviewResponse.deny(r, new Status(Status.Outcome.SUCCESS, 0,
            StatusReason.UNKNOWN, "because", java.util.Optional.empty())), 400,
        StatusReason.UNKNOWN, "admission webhook \"v.example.com\" denied the request: because");
    // Only a reason: the reason is the explanation.
    assertDenied(r -> AdmissionReviewResponse.deny(r, new Status(Status.Outcome.FAILURE, 422,
            StatusReason.INVALID, "", java.util.Optional.empty())), 422, StatusReason.INVALID,
        "admission webhook \"v.example.com\" denied the request: Invalid");
    // Nothing at all.
    assertDenied(r -> new AdmissionReviewResponse(r.uid(), false, java.util.Optional.empty(),
            java.util.Optional.empty(), List.of(), java.util.Map.of()), 400, StatusReason.UNKNOWN,
        "admission webhook \"v.example.com\" denied the request without explanation");
  }

  private void assertDenied(Function<AdmissionReviewRequest, AdmissionReviewResponse> fn,
      int code, StatusReason reason, String message) {
    WebhookAdapter.Validating hook = WebhookAdapter.validating("v.example.com", fn)
        .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE)
        .failurePolicy(FailurePolicy.IGNORE).build(); // a denial is never ignored
    assertThatThrownBy(() -> AdmissionChain.builder().add(hook).build().validate(attrs(false)))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(code);
          assertThat(e.status().reason()).isEqualTo(reason);
          assertThat(e.status().outcome()).isEqualTo(Status.Outcome.FAILURE);
          assertThat(e.getMessage()).isEqualTo(message);
        });
  }

  @Test
  void denialKeepsDetails() {
    StatusDetails details = StatusDetails.of("x", "", "configmaps")
        .withCauses(List.of(new io.apiserver4j.core.errors.StatusCause("FieldValueInvalid", "bad",
            "data.k")));
    WebhookAdapter.Validating hook = WebhookAdapter.validating("v.example.com",
            r -> AdmissionReviewResponse.deny(r, Status.failure(StatusReason.INVALID, "bad data",
                details)))
        .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE).build();
    assertThatThrownBy(() -> hook.validate(attrs(false)))
        .isInstanceOfSatisfying(io.apiserver4j.core.errors.InvalidException.class,
            e -> assertThat(e.status().details()).contains(details));
  }

  @Test
  void mutatingWebhookPatchesTheObject() {
    ListValue patch = (ListValue) Json.read("[{\"op\":\"add\",\"path\":\"/metadata/labels\","
        + "\"value\":{\"injected\":\"true\"}},{\"op\":\"add\",\"path\":\"/data\","
        + "\"value\":{\"k\":\"v\"}}]");
    WebhookAdapter.Mutating hook = WebhookAdapter.mutating("m.example.com",
            r -> AdmissionReviewResponse.patch(r, patch))
        .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE).build();
    WebhookAdapter.Validating check = WebhookAdapter.validating("v.example.com", r -> {
      seen.add(r);
      return AdmissionReviewResponse.allow(r);
    }).rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE).build();
    MapValue out = AdmissionChain.builder().add(hook).add(check).build()
        .run(attrs(false), o -> o);
    assertThat(Meta.labels(out)).containsEntry("injected", "true");
    assertThat(out.getOrNull("data")).isEqualTo(MapValue.ofEntries("k", Value.of("v")));
    assertThat(seen.get(0).object()).contains(out);
  }

  @Test
  void patchThatDoesNotApplyIsInternalErrorEvenWhenIgnoringFailures() {
    ListValue patch = (ListValue) Json.read(
        "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]");
    WebhookAdapter.Mutating hook = WebhookAdapter.mutating("m.example.com",
            r -> AdmissionReviewResponse.patch(r, patch))
        .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE)
        .failurePolicy(FailurePolicy.IGNORE).build();
    AdmissionAttributes a = attrs(false);
    assertThatThrownBy(() -> hook.admit(a, a.object().orElseThrow()))
        .isInstanceOf(InternalErrorException.class)
        // the text of kube's JSON patch library (evanphx/json-patch v4), as kube passes it on
        .hasMessage("Internal error occurred: replace operation does not apply: doc is missing"
            + " path: /spec/replicas");
  }

  @Test
  void patchForARequestWithoutObjectIsRejected() {
    ListValue patch = (ListValue) Json.read("[{\"op\":\"remove\",\"path\":\"/metadata\"}]");
    WebhookAdapter.Mutating hook = WebhookAdapter.mutating("m.example.com",
            r -> AdmissionReviewResponse.patch(r, patch))
        .rule(WebhookRule.of(Set.of(Operation.DELETE), List.of(""), List.of("v1"),
            List.of("configmaps")))
        .sideEffects(SideEffects.NONE).build();
    AdmissionChain chain = AdmissionChain.builder().add(hook).build();
    assertThatThrownBy(() -> chain.admitWithoutObject(TestObjects.delete("ns", "x").build()))
        .isInstanceOf(InternalErrorException.class)
        .hasMessage("Internal error occurred: admission webhook \"m.example.com\" attempted to"
            + " modify the object, which is not supported for this operation");
  }

  @Test
  void callFailuresObeyFailurePolicy() {
    record Failure(String what, Function<AdmissionReviewRequest, AdmissionReviewResponse> fn,
        boolean mutating, String reason) {}
    List<Failure> failures = List.of(
        new Failure("throws", r -> {
          throw new IllegalStateException("connection refused");
        }, false, "failed to call webhook: connection refused"),
        new Failure("null", r -> null, false,
            "received invalid webhook response: webhook response was absent"),
        new Failure("uid mismatch", r -> new AdmissionReviewResponse("other", true,
            java.util.Optional.empty(), java.util.Optional.empty(), List.of(), java.util.Map.of()),
            false, "received invalid webhook response: expected response.uid=\"u\", got \"other\""),
        new Failure("validating patch", r -> AdmissionReviewResponse.patch(r, ListValue.empty()),
            false, "received invalid webhook response: validating webhook may not return"
                + " response.patch"));
    for (Failure f : failures) {
      WebhookAdapter.Validating failing = WebhookAdapter.validating("f.example.com", f.fn())
          .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE).uidSupplier(() -> "u").build();
      assertThatThrownBy(() -> failing.validate(attrs(false)))
          .as(f.what())
          .isInstanceOfSatisfying(InternalErrorException.class, e -> assertThat(e.getMessage())
              .isEqualTo("Internal error occurred: failed calling webhook \"f.example.com\": "
                  + f.reason()));
      WebhookAdapter.Validating ignoring = WebhookAdapter.validating("f.example.com", f.fn())
          .rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE).uidSupplier(() -> "u")
          .failurePolicy(FailurePolicy.IGNORE).build();
      ignoring.validate(attrs(false));
    }
    WebhookAdapter.Mutating ignoring = WebhookAdapter.mutating("f.example.com", r -> {
      throw new IllegalStateException("down");
    }).rule(CONFIGMAP_CREATES).sideEffects(SideEffects.NONE)
        .failurePolicy(FailurePolicy.IGNORE).build();
    AdmissionAttributes a = attrs(false);
    assertThat(ignoring.admit(a, a.object().orElseThrow())).isSameAs(a.object().orElseThrow());
  }

  @Test
  void admissionConfigurationObjectsAreNeverSentToWebhooks() {
    AtomicInteger calls = new AtomicInteger();
    WebhookAdapter.Validating hook = WebhookAdapter.validating("all.example.com", r -> {
      calls.incrementAndGet();
      return AdmissionReviewResponse.deny(r, "no");
    }).rule(WebhookRule.of(WebhookRule.allOperations(), List.of("*"), List.of("*"),
        List.of("*"))).sideEffects(SideEffects.NONE).build();
    AdmissionAttributes config = TestObjects.create("", "hooks")
        .resource(new io.apiserver4j.core.GroupVersionResource("admissionregistration.k8s.io",
            "v1", "validatingwebhookconfigurations"))
        .kind(new io.apiserver4j.core.GroupVersionKind("admissionregistration.k8s.io", "v1",
            "ValidatingWebhookConfiguration"))
        .build();
    assertThat(hook.handles(config)).isFalse();
    assertThat(hook.handles(attrs(false))).isTrue();
    assertThat(calls).hasValue(0);
  }

  @Test
  void builderIsStrict() {
    assertThatThrownBy(() -> WebhookAdapter.validating("", r -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
    assertThatThrownBy(() -> WebhookAdapter.validating("w", r -> null)
        .sideEffects(SideEffects.NONE).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no rules");
    assertThatThrownBy(() -> WebhookAdapter.validating("w", r -> null)
        .rule(CONFIGMAP_CREATES).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("sideEffects is required");
  }

  @Test
  void responseRoundTripsThroughTheWireForm() {
    AdmissionReviewRequest req = AdmissionReviewRequest.of("u-9", attrs(false),
        attrs(false).object());
    ListValue patch = (ListValue) Json.read("[{\"op\":\"add\",\"path\":\"/a\",\"value\":1}]");
    AdmissionReviewResponse resp = AdmissionReviewResponse.patch(req, patch)
        .withWarnings("deprecated field");
    MapValue wire = resp.toValue();
    assertThat(Json.write(wire)).isEqualTo("{\"kind\":\"AdmissionReview\",\"apiVersion\":"
        + "\"admission.k8s.io/v1\",\"response\":{\"uid\":\"u-9\",\"allowed\":true,"
        + "\"patch\":\"W3sib3AiOiJhZGQiLCJwYXRoIjoiL2EiLCJ2YWx1ZSI6MX1d\","
        + "\"patchType\":\"JSONPatch\",\"warnings\":[\"deprecated field\"]}}");
    assertThat(AdmissionReviewResponse.fromValue(wire)).isEqualTo(resp);
    AdmissionReviewResponse denied = AdmissionReviewResponse.deny(req, "nope");
    assertThat(AdmissionReviewResponse.fromValue(denied.toValue())).isEqualTo(denied);
  }

  @Test
  void malformedWireResponsesAreNamed() {
    assertThatThrownBy(() -> AdmissionReviewResponse.fromValue(Json.read(
        "{\"kind\":\"AdmissionReview\",\"apiVersion\":\"admission.k8s.io/v1\"}")))
        .hasMessage("webhook response was absent");
    assertThatThrownBy(() -> AdmissionReviewResponse.fromValue(Json.read(
        "{\"kind\":\"AdmissionReview\",\"apiVersion\":\"admission.k8s.io/v1beta1\","
            + "\"response\":{}}")))
        .hasMessageContaining("expected webhook response of admission.k8s.io/v1");
    assertThatThrownBy(() -> AdmissionReviewResponse.fromValue(Json.read(
        "{\"kind\":\"AdmissionReview\",\"apiVersion\":\"admission.k8s.io/v1\","
            + "\"response\":{\"uid\":\"u\",\"allowed\":true,\"patch\":\"W10=\"}}")))
        .hasMessage("webhook returned response.patch but not response.patchType");
    assertThatThrownBy(() -> AdmissionReviewResponse.fromValue(Json.read(
        "{\"kind\":\"AdmissionReview\",\"apiVersion\":\"admission.k8s.io/v1\","
            + "\"response\":{\"uid\":\"u\",\"allowed\":true,\"patchType\":\"JSONPatch\"}}")))
        .hasMessage("webhook returned response.patchType but not response.patch");
  }
}
