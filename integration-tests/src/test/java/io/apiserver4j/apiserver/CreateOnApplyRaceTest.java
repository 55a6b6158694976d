/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CONFIGMAPS;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * kube authorizes the create of a PUT or an apply inside the write, right before the object is
 * created (its {@code withAuthorization} validation): a user allowed to patch but not to create
 * cannot create an object by applying while another client deletes it.
 */
class CreateOnApplyRaceTest {
  private static final String CM = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
      + "{\"name\":\"cm\"},\"data\":{\"a\":\"1\"}}";
  private static final ObjectKey KEY = new ObjectKey("", "configmaps", "default", "cm");

  /** Deletes the object once, while bob's update of it is being validated: the lost race. */
  private static final class DeleteDuringBobsUpdate implements ValidatingPlugin {
    private final InMemoryStore store;
    private final AtomicBoolean done = new AtomicBoolean();

    DeleteDuringBobsUpdate(InMemoryStore store) {
      this.store = store;
    }

    @Override
    public String name() {
      return "another-client";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
      if (a.operation() == Operation.UPDATE && a.userInfo().name().equals("bob")
          && done.compareAndSet(false, true)) {
        store.delete(KEY, Preconditions.none());
      }
    }
  }

  @Test
  void aPatchOnlyUserCannotCreateByRacingADelete() {
    InMemoryStore store = InMemoryStore.create();
    DeleteDuringBobsUpdate deleter = new DeleteDuringBobsUpdate(store);
    try (ApiServer server = ApiServer.builder().store(store)
        .admission(AdmissionChain.builder().add(deleter).build()).build()) {
      server.handle(req(Verb.CREATE, CONFIGMAPS, "default", "").body(Fixtures.json(CM))
          .user(UserInfo.of("alice")).build()).orThrow();
      CreateAuthorizer patchOnly = (user, resource, sub, ns, name) ->
          user.name().equals("bob") ? Optional.of("") : Optional.empty();

      ApiResponse applied = server.handle(req(Verb.PATCH, CONFIGMAPS, "default", "cm")
          .user(UserInfo.of("bob")).fieldManager("bob").force(true).createAuthorizer(patchOnly)
          .patch(PatchType.APPLY_YAML, CM.replace("\"1\"", "\"2\"")).build());

      assertThat(deleter.done).isTrue();
      assertThat(applied.code()).isEqualTo(403);
      assertThat(str(applied.body(), "message")).isEqualTo("configmaps \"cm\" is forbidden:"
          + " User \"bob\" cannot create resource \"configmaps\" in API group \"\" in the"
          + " namespace \"default\"");
      assertThat(store.get(KEY)).isEmpty();
    }
  }
}
