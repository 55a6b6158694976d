/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's reinvocation: one more mutating round, of every plugin, when a plugin asks for it. */
class AdmissionReinvocationTest {
  private final List<String> calls = new ArrayList<>();

  private MutatingPlugin plugin(String name, boolean asksForReinvocation) {
    return new MutatingPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public SideEffects sideEffects() {
        return SideEffects.NONE;
      }

      @Override
      public MapValue admit(AdmissionAttributes a, MapValue object) {
        calls.add(name + (a.context().isReinvoke() ? "@1" : "@0"));
        if (asksForReinvocation && !a.context().isReinvoke()) {
          a.context().requestReinvocation();
          return Meta.withMetaString(object, "generateName", "changed-");
        }
        return object;
      }
    };
  }

  @Test
  void aRequestedReinvocationRunsEveryPluginOnceMore() {
    AdmissionChain chain = AdmissionChain.builder().add(plugin("first", false))
        .add(plugin("changer", true)).build();
    MapValue out = chain.admit(TestObjects.create("ns", "cm").build());
    assertThat(calls).containsExactly("first@0", "changer@0", "first@1", "changer@1");
    assertThat(Meta.metaString(out, "generateName")).isEqualTo("changed-");
  }

  @Test
  void withoutARequestThePhaseRunsOnce() {
    AdmissionChain chain = AdmissionChain.builder().add(plugin("first", false))
        .add(plugin("second", false)).build();
    AdmissionAttributes a = TestObjects.create("ns", "cm").build();
    assertThat(chain.admit(a)).isSameAs(a.object().get());
    assertThat(calls).containsExactly("first@0", "second@0");
  }

  @Test
  void warningsAndAuditAnnotationsAreSharedByCopiesOfTheAttributes() {
    AdmissionAttributes a = TestObjects.create("ns", "cm").build();
    AdmissionAttributes copy = a.withObject(TestObjects.configMap("ns", "other"));
    copy.context().addWarning("w");
    assertThat(a.context().warnings()).containsExactly("w");
    assertThat(a.context().addAuditAnnotation("k", "v")).isTrue();
    assertThat(copy.context().addAuditAnnotation("k", "v")).isTrue();
    assertThat(copy.context().addAuditAnnotation("k", "other")).isFalse();
    assertThat(a.context().auditAnnotations()).containsExactly(java.util.Map.entry("k", "v"));
  }
}
