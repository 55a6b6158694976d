/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static io.apiserver4j.admission.TestObjects.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.errors.InternalErrorException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AdmissionChainTest {

  /** A mutating plugin defined by a function. */
  record Mutator(String name, SideEffects sideEffects,
      BiFunction<AdmissionAttributes, MapValue, MapValue> fn,
      Predicate<AdmissionAttributes> filter) implements MutatingPlugin {
    Mutator(String name, BiFunction<AdmissionAttributes, MapValue, MapValue> fn) {
      this(name, SideEffects.NONE, fn, a -> true);
    }

    @Override
    public MapValue admit(AdmissionAttributes a, MapValue object) {
      return fn.apply(a, object);
    }

    @Override
    public boolean handles(AdmissionAttributes a) {
      return filter.test(a);
    }
  }

  /** A validating plugin defined by a consumer. */
  record Validator(String name, SideEffects sideEffects, Consumer<AdmissionAttributes> fn,
      Predicate<AdmissionAttributes> filter) implements ValidatingPlugin {
    Validator(String name, Consumer<AdmissionAttributes> fn) {
      this(name, SideEffects.NONE, fn, a -> true);
    }

    @Override
    public void validate(AdmissionAttributes a) {
      fn.accept(a);
    }

    @Override
    public boolean handles(AdmissionAttributes a) {
      return filter.test(a);
    }
  }

  private static MapValue label(MapValue object, String key, String value) {
    return Meta.withMeta(object, "labels", Nested.map(object, "metadata", "labels")
        .with(key, Value.of(value)));
  }

  @Test
  void mutatingThenValidationHookThenValidatingInOrder() {
    List<String> log = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Validator("v1", a -> log.add("v1 sees " + labels(a))))
        .add(new Mutator("m1", (a, o) -> {
          log.add("m1 sees " + labels(a));
          return label(o, "m1", "yes");
        }))
        .add(new Mutator("m2", (a, o) -> {
          log.add("m2 sees " + labels(a) + " / arg " + Meta.labels(o));
          return label(o, "m2", "yes");
        }))
        .add(new Validator("v2", a -> log.add("v2 sees " + labels(a))))
        .build();

    MapValue result = chain.run(TestObjects.create("ns", "x").build(), o -> {
      log.add("validation sees " + Meta.labels(o));
      return label(o, "validated", "yes");
    });

    assertThat(log).containsExactly(
        "m1 sees {}",
        "m2 sees {m1=yes} / arg {m1=yes}",
        "validation sees {m1=yes, m2=yes}",
        "v1 sees {m1=yes, m2=yes, validated=yes}",
        "v2 sees {m1=yes, m2=yes, validated=yes}");
    assertThat(Meta.labels(result))
        .containsOnlyKeys("m1", "m2", "validated");
  }

  private static Object labels(AdmissionAttributes a) {
    return Meta.labels(a.object().orElseThrow());
  }

  @Test
  void pipelineSeesObjectBeforeAndAfterMutation() {
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("m", (a, o) -> label(o, "k", "v"))).build();
    AdmissionAttributes attrs = TestObjects.create("ns", "x").build();
    MapValue after = chain.admit(attrs);
    assertThat(attrs.object()).contains(configMap("ns", "x"));
    assertThat(Meta.labels(after)).containsEntry("k", "v");
  }

  @Test
  void unchangedObjectIsReturnedAsIs() {
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("noop", (a, o) -> o)).build();
    AdmissionAttributes attrs = TestObjects.create("ns", "x").build();
    assertThat(chain.admit(attrs)).isSameAs(attrs.object().orElseThrow());
    assertThat(AdmissionChain.empty().admit(attrs)).isSameAs(attrs.object().orElseThrow());
  }

  @Test
  void firstDenialStopsTheChainAndPassesThroughUnchanged() {
    List<String> called = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Validator("deny", a -> {
          called.add("deny");
          throw AdmissionErrors.forbidden(a, "labels are required");
        }))
        .add(new Validator("later", a -> called.add("later")))
        .build();

    assertThatThrownBy(() -> chain.validate(TestObjects.create("ns", "x").build()))
        .isInstanceOfSatisfying(ForbiddenException.class, e -> {
          assertThat(e.status().code()).isEqualTo(403);
          assertThat(e.getMessage()).isEqualTo("configmaps \"x\" is forbidden: labels are required");
          assertThat(e.status().toJson()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
              + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"x\\\" is"
              + " forbidden: labels are required\",\"reason\":\"Forbidden\",\"details\":{\"name\":"
              + "\"x\",\"kind\":\"configmaps\"},\"code\":403}");
        });
    assertThat(called).containsExactly("deny");
  }

  @Test
  void forbiddenNamesTheObjectLikeKube() {
    AdmissionAttributes generated = TestObjects.create("ns", "")
        .object(configMap("ns", "").with("metadata",
            MapValue.ofEntries("generateName", Value.of("web-"), "namespace", Value.of("ns"))))
        .build();
    assertThat(AdmissionErrors.forbidden(generated, "no").getMessage())
        .isEqualTo("configmaps \"web-\" is forbidden: no");
    AdmissionAttributes objectNamed = TestObjects.create("ns", "").object(configMap("ns", "obj"))
        .build();
    assertThat(AdmissionErrors.forbidden(objectNamed, "no").getMessage())
        .isEqualTo("configmaps \"obj\" is forbidden: no");
    AdmissionAttributes nothing = TestObjects.create("ns", "").object(configMap("ns", "")).build();
    assertThat(AdmissionErrors.forbidden(nothing, "no").getMessage())
        .isEqualTo("configmaps \"Unknown\" is forbidden: no");
    AdmissionAttributes grouped = TestObjects.create("ns", "d")
        .resource(new io.apiserver4j.core.GroupVersionResource("apps", "v1", "deployments"))
        .build();
    assertThat(AdmissionErrors.forbidden(grouped, "no").getMessage())
        .isEqualTo("deployments.apps \"d\" is forbidden: no");
  }

  @Test
  void invalidDenialKeepsItsCauses() {
    InvalidException invalid = StatusErrors.invalid(new GroupKind("", "ConfigMap"), "x",
        List.of(FieldError.required("data", "")));
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("strict", (a, o) -> {
          throw invalid;
        })).build();
    assertThatThrownBy(() -> chain.admit(TestObjects.create("ns", "x").build()))
        .isSameAs(invalid)
        .isInstanceOfSatisfying(InvalidException.class, e -> assertThat(e.status().causes())
            .containsExactly(new StatusCause("FieldValueRequired", "Required value", "data")));
  }

  @Test
  void nonStatusExceptionIsInternalErrorNamingThePlugin() {
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Validator("buggy", a -> {
          throw new IllegalStateException("boom");
        })).build();
    assertThatThrownBy(() -> chain.validate(TestObjects.create("ns", "x").build()))
        .isInstanceOfSatisfying(InternalErrorException.class, e -> {
          assertThat(e.code()).isEqualTo(500);
          assertThat(e.getMessage()).isEqualTo("Internal error occurred: admission plugin"
              + " \"buggy\" failed: java.lang.IllegalStateException: boom");
        });
  }

  @Test
  void nonErrorStatusIsAContractBreak() {
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Validator("ok-is-not-a-denial", a -> {
          throw new StatusException(Status.success(io.apiserver4j.core.errors.StatusDetails.of("", "", "")));
        })).build();
    assertThatThrownBy(() -> chain.validate(TestObjects.create("ns", "x").build()))
        .isInstanceOf(InternalErrorException.class)
        .hasMessageContaining("admission plugin \"ok-is-not-a-denial\" denied the request with"
            + " non-error status code 200");
  }

  @Test
  void handlesThrowingIsReportedByName() {
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Validator("picky", SideEffects.NONE, a -> { }, a -> {
          throw new UnsupportedOperationException("no");
        })).build();
    assertThatThrownBy(() -> chain.validate(TestObjects.create("ns", "x").build()))
        .isInstanceOf(InternalErrorException.class)
        .hasMessageContaining("admission plugin \"picky\" failed");
  }

  record Break(String description, BiFunction<AdmissionAttributes, MapValue, MapValue> fn,
      String message) {
    @Override
    public String toString() {
      return description;
    }
  }

  static List<Break> contractBreaks() {
    return List.of(
        new Break("null result", (a, o) -> null,
            "admission plugin \"breaker\" returned null instead of an object"),
        new Break("apiVersion changed", (a, o) -> o.with("apiVersion", Value.of("v2")),
            "admission plugin \"breaker\" changed apiVersion from \"v1\" to \"v2\""),
        new Break("kind changed", (a, o) -> o.with("kind", Value.of("Secret")),
            "admission plugin \"breaker\" changed kind from \"ConfigMap\" to \"Secret\""),
        new Break("name changed",
            (a, o) -> Meta.withMeta(o, "name", Value.of("y")),
            "admission plugin \"breaker\" changed metadata.name from \"x\" to \"y\""),
        new Break("namespace removed",
            (a, o) -> Meta.withoutMeta(o, "namespace"),
            "admission plugin \"breaker\" changed metadata.namespace from \"ns\" to \"\""));
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.MethodSource("contractBreaks")
  void mutatingContractBreaksAreReportedByName(Break b) {
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("fine", (a, o) -> label(o, "a", "b")))
        .add(new Mutator("breaker", b.fn()))
        .build();
    assertThatThrownBy(() -> chain.admit(TestObjects.create("ns", "x").build()))
        .isInstanceOfSatisfying(InternalErrorException.class, e -> {
          assertThat(e.getMessage()).isEqualTo("Internal error occurred: " + b.message());
          assertThat(e.status().causes()).extracting(StatusCause::message)
              .containsExactly(b.message());
        });
  }

  @Test
  void everyPluginSeesDryRun() {
    List<String> seen = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("m", (a, o) -> {
          seen.add("m:" + a.isDryRun());
          return label(o, "x", "y");
        }))
        .add(new Mutator("m2", SideEffects.NONE_ON_DRY_RUN, (a, o) -> {
          seen.add("m2:" + a.isDryRun());
          return o;
        }, a -> true))
        .add(new Validator("v", a -> seen.add("v:" + a.isDryRun())))
        .build();
    chain.run(TestObjects.dryRunCreate("ns", "x").build(), o -> o);
    chain.run(TestObjects.create("ns", "x").build(), o -> o);
    assertThat(seen).containsExactly("m:true", "m2:true", "v:true", "m:false", "m2:false",
        "v:false");
  }

  @ParameterizedTest
  @EnumSource(value = SideEffects.class, names = {"SOME", "UNKNOWN"})
  void pluginsWithSideEffectsRejectDryRun(SideEffects sideEffects) {
    List<String> called = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("first", (a, o) -> {
          called.add("first");
          return o;
        }))
        .add(new Mutator("effectful.example.com", sideEffects, (a, o) -> {
          called.add("effectful");
          return o;
        }, a -> true))
        .build();

    assertThatThrownBy(() -> chain.admit(TestObjects.dryRunCreate("ns", "x").build()))
        .isInstanceOfSatisfying(BadRequestException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().reason()).isEqualTo(StatusReason.BAD_REQUEST);
          assertThat(e.getMessage())
              .isEqualTo("admission webhook \"effectful.example.com\" does not support dry run");
        });
    assertThat(called).containsExactly("first");

    // Not a dry run: called normally.
    chain.admit(TestObjects.create("ns", "x").build());
    assertThat(called).containsExactly("first", "first", "effectful");
  }

  @Test
  void sideEffectsIrrelevantWhenThePluginDoesNotHandleTheRequest() {
    List<String> called = new ArrayList<>();
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Validator("deletes-only", SideEffects.SOME, a -> called.add("v"),
            a -> a.operation() == Operation.DELETE))
        .build();
    chain.validate(TestObjects.dryRunCreate("ns", "x").build());
    assertThat(called).isEmpty();
    AdmissionAttributes dryRunDelete = TestObjects.delete("ns", "x").dryRun(true)
        .options(OperationOptions.of(Operation.DELETE, true, "")).build();
    assertThatThrownBy(() -> chain.validate(dryRunDelete))
        .hasMessage("admission webhook \"deletes-only\" does not support dry run");
  }

  @Test
  void requestsWithoutObject() {
    List<String> seen = new ArrayList<>();
    MutatingPlugin guard = new MutatingPlugin() {
      @Override
      public String name() {
        return "guard";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes a, MapValue object) {
        throw new AssertionError("not called without object");
      }

      @Override
      public void admitWithoutObject(AdmissionAttributes a) {
        seen.add(a.operation() + " " + a.oldObject().isPresent());
        if (a.name().equals("protected")) {
          throw AdmissionErrors.forbidden(a, "protected");
        }
      }
    };
    AdmissionChain chain = AdmissionChain.builder()
        .add(new Mutator("plain", (a, o) -> o)) // default admitWithoutObject: no-op
        .add(guard).build();
    chain.admitWithoutObject(TestObjects.delete("ns", "x").build());
    assertThat(seen).containsExactly("DELETE true");
    assertThatThrownBy(() -> chain.admitWithoutObject(TestObjects.delete("ns", "protected").build()))
        .hasMessage("configmaps \"protected\" is forbidden: protected");
    assertThatThrownBy(() -> chain.admit(TestObjects.delete("ns", "x").build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("admitWithoutObject");
    assertThatThrownBy(() -> chain.admitWithoutObject(TestObjects.create("ns", "x").build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("use admit");
  }

  @Test
  void pluginImplementingBothTakesPartInBothPhases() {
    List<String> log = new ArrayList<>();
    class Both implements MutatingPlugin, ValidatingPlugin {
      @Override
      public String name() {
        return "both";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes a, MapValue object) {
        log.add("admit");
        return object;
      }

      @Override
      public void validate(AdmissionAttributes a) {
        log.add("validate");
      }
    }
    AdmissionChain chain = AdmissionChain.builder().add(new Both()).build();
    chain.run(TestObjects.create("ns", "x").build(), o -> o);
    assertThat(log).containsExactly("admit", "validate");
    assertThat(chain.plugins()).hasSize(1);
  }

  @Test
  void builderRejectsBadPlugins() {
    Mutator m = new Mutator("m", (a, o) -> o);
    assertThatThrownBy(() -> AdmissionChain.builder().add(m).add(m))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("added twice");
    assertThatThrownBy(() -> AdmissionChain.builder().add(m).add(new Validator("m", a -> { })))
        .hasMessageContaining("duplicate admission plugin name \"m\"");
    assertThatThrownBy(() -> AdmissionChain.builder().add(new Mutator("", (a, o) -> o)))
        .hasMessageContaining("has no name");
    assertThatThrownBy(() -> AdmissionChain.builder().add(new AdmissionPlugin() {
      @Override
      public String name() {
        return "neither";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }
    })).hasMessageContaining("neither MutatingPlugin nor ValidatingPlugin");
    assertThatThrownBy(() -> AdmissionChain.builder()
        .add(new Validator("nulls", null, a -> { }, a -> true)))
        .hasMessageContaining("declares no side-effect class");
  }

  @Test
  void newBuilderExtendsAChain() {
    AdmissionChain base = AdmissionChain.builder().add(new Mutator("a", (x, o) -> o)).build();
    AdmissionChain more = base.newBuilder().add(new Validator("b", x -> { })).build();
    assertThat(more.plugins()).extracting(AdmissionPlugin::name).containsExactly("a", "b");
    assertThat(base.plugins()).hasSize(1);
  }
}
