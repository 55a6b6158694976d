/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.managedFields;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Admission in the pipeline: the order, what plugins see, and guarding managedFields. */
class AdmissionIntegrationTest {
  private final List<String> seen = new CopyOnWriteArrayList<>();

  private Fixtures with(MutatingPlugin mutating, ValidatingPlugin validating) {
    return new Fixtures(ApiServer.builder().admission(AdmissionChain.builder().add(mutating)
        .add(validating).build()));
  }

  /** Records what it sees and adds a label. */
  private final class Labeller implements MutatingPlugin {
    @Override
    public String name() {
      return "labeller";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public MapValue admit(AdmissionAttributes a, MapValue object) {
      seen.add("mutate " + a.operation() + " " + str(a.options(), "kind") + " old="
          + a.oldObject().isPresent());
      MapValue meta = (MapValue) object.getOrNull("metadata");
      MapValue labels = meta.getOrNull("labels") instanceof MapValue l ? l : MapValue.empty();
      return object.with("metadata", meta.with("labels", labels.with("team", Value.of("core"))));
    }

    @Override
    public void admitWithoutObject(AdmissionAttributes a) {
      seen.add("mutate " + a.operation() + " " + str(a.options(), "kind") + " old="
          + a.oldObject().isPresent());
    }
  }

  /** Denies objects labelled deny=true, records the rest. */
  private final class Gate implements ValidatingPlugin {
    @Override
    public String name() {
      return "gate";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
      seen.add("validate " + a.operation() + " labels=" + a.object()
          .map(o -> Json.write(at(o, "metadata", "labels"))).orElse("-"));
      if (a.object().isPresent() && "true".equals(str(a.object().get(), "metadata", "labels",
          "deny"))) {
        throw AdmissionErrors.forbidden(a, "denied by the gate");
      }
    }
  }

  private static final String CM = """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: cm}
      data: {a: "1"}
      """;

  @Test
  void mutationsAreStoredAndValidationSeesThemButTheyAreNotAttributed() {
    Fixtures f = with(new Labeller(), new Gate());

    MapValue obj = f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();

    assertThat(at(obj, "metadata", "labels")).isEqualTo(json("{\"team\":\"core\"}"));
    assertThat(seen).containsExactly("mutate CREATE CreateOptions old=false",
        "validate CREATE labels={\"team\":\"core\"}");
    // kube-apiserver computes managedFields before mutating admission: the label is unowned
    assertThat(Json.write(managedFields(obj))).doesNotContain("f:labels");
  }

  @Test
  void patchesAreAdmittedAsCreateOrUpdateWithConvertedOptions() {
    Fixtures f = with(new Labeller(), new Gate());

    f.apply(CONFIGMAPS, "default", "cm", "a", CM).orThrow();
    f.patch(CONFIGMAPS, "default", "cm", PatchType.MERGE_PATCH, "{\"data\":{\"b\":\"2\"}}", "p")
        .orThrow();
    f.delete(CONFIGMAPS, "default", "cm").orThrow();

    assertThat(seen).containsExactly(
        "mutate CREATE CreateOptions old=false", "validate CREATE labels={\"team\":\"core\"}",
        "mutate UPDATE UpdateOptions old=true", "validate UPDATE labels={\"team\":\"core\"}",
        "mutate DELETE DeleteOptions old=true", "validate DELETE labels=-");
  }

  @Test
  void aDenialPassesThroughAndStoresNothing() {
    Fixtures f = with(new Labeller(), new Gate());

    ApiResponse r = f.create(CONFIGMAPS, "default", yaml(CM.replace("metadata: {name: cm}",
        "metadata: {name: cm, labels: {deny: \"true\"}}")), "creator");

    assertThat(r.code()).isEqualTo(403);
    assertThat(str(r.body(), "message")).isEqualTo("configmaps \"cm\" is forbidden: denied by the"
        + " gate");
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
  }

  @Test
  void managedFieldsLeftInvalidByAPluginAreRestoredWithAWarning() {
    MutatingPlugin corrupter = new MutatingPlugin() {
      @Override
      public String name() {
        return "outdated";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes a, MapValue object) {
        MapValue meta = (MapValue) object.getOrNull("metadata");
        return object.with("metadata", meta.with("managedFields",
            json("[{\"manager\":\"x\",\"operation\":\"Bogus\",\"apiVersion\":\"v1\"}]")));
      }
    };
    Fixtures f = with(corrupter, new Gate());

    ApiResponse r = f.create(CONFIGMAPS, "default", yaml(CM), "creator");

    assertThat(r.code()).isEqualTo(201);
    assertThat(r.warnings()).containsExactly(".metadata.managedFields was in an invalid state"
        + " after admission; this could be caused by an outdated mutating admission controller;"
        + " please fix your requests: operation must be `Apply` or `Update`");
    assertThat(str(Fixtures.entry(r.body(), 0), "manager")).isEqualTo("creator");
  }

  @Test
  void aPluginBreakingItsContractIsAnInternalErrorNamingIt() {
    MutatingPlugin renamer = new MutatingPlugin() {
      @Override
      public String name() {
        return "renamer";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes a, MapValue object) {
        MapValue meta = (MapValue) object.getOrNull("metadata");
        return object.with("metadata", meta.with("name", Value.of("other")));
      }
    };
    Fixtures f = with(renamer, new Gate());

    ApiResponse r = f.create(CONFIGMAPS, "default", yaml(CM), "creator");

    assertThat(r.code()).isEqualTo(500);
    assertThat(str(r.body(), "message")).contains("renamer");
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(404);
  }

  @Test
  void validatingAdmissionOfADeleteSeesTheObjectBeingDeleted() {
    List<String> old = new CopyOnWriteArrayList<>();
    ValidatingPlugin protector = new ValidatingPlugin() {
      @Override
      public String name() {
        return "protector";
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public void validate(AdmissionAttributes a) {
        a.oldObject().ifPresent(o -> old.add(str(o, "data", "a")));
        if (a.operation() == io.apiserver4j.admission.Operation.DELETE) {
          throw AdmissionErrors.forbidden(a, "protected");
        }
      }
    };
    Fixtures f = new Fixtures(ApiServer.builder().admission(AdmissionChain.builder()
        .add(protector).build()));
    f.create(CONFIGMAPS, "default", yaml(CM), "creator").orThrow();

    ApiResponse r = f.server.handle(req(Verb.DELETE, CONFIGMAPS, "default", "cm").build());

    assertThat(r.code()).isEqualTo(403);
    assertThat(old).containsExactly("1");
    assertThat(f.get(CONFIGMAPS, "default", "cm").code()).isEqualTo(200);
  }
}
