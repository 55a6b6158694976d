/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import org.junit.jupiter.api.Test;

/**
 * A resource serves the verbs its storage has (its discovery verbs), as kube-apiserver installs
 * handlers only for those: componentstatuses are read-only, bindings create-only.
 */
class DeclaredVerbsTest {
  private static final GroupVersionResource COMPONENT_STATUSES =
      new GroupVersionResource("", "v1", "componentstatuses");
  private static final GroupVersionResource BINDINGS =
      new GroupVersionResource("", "v1", "bindings");

  @Test
  void verbsOutsideTheDeclaredOnesAreMethodNotAllowed() {
    Fixtures f = new Fixtures();
    ApiResponse create = f.server.handle(req(Verb.CREATE, COMPONENT_STATUSES, "", "")
        .body(json("{\"apiVersion\":\"v1\",\"kind\":\"ComponentStatus\",\"metadata\":"
            + "{\"name\":\"etcd-0\"}}")).build());
    ApiResponse listBindings = f.server.handle(req(Verb.LIST, BINDINGS, "default", "").build());

    assertThat(create.code()).isEqualTo(405);
    assertThat(str(create.body(), "reason")).isEqualTo("MethodNotAllowed");
    assertThat(str(create.body(), "message"))
        .isEqualTo("the server does not allow this method on the requested resource");
    assertThat(listBindings.code()).isEqualTo(405);
    assertThat(f.server.handle(req(Verb.LIST, COMPONENT_STATUSES, "", "").build()).code())
        .isEqualTo(200);
  }
}
