/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestInfoTest {

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', nullValues = "~", value = {
      // method | path | watch | verb | group | version | namespace | resource | name | sub
      "GET | /api/v1/namespaces/default/configmaps | false | list | '' | v1 | default | configmaps | '' | ''",
      "GET | /api/v1/namespaces/default/configmaps | true | watch | '' | v1 | default | configmaps | '' | ''",
      "GET | /api/v1/configmaps | false | list | '' | v1 | '' | configmaps | '' | ''",
      "POST | /api/v1/namespaces/default/configmaps | false | create | '' | v1 | default | configmaps | '' | ''",
      "GET | /api/v1/namespaces/default/configmaps/x | false | get | '' | v1 | default | configmaps | x | ''",
      "PUT | /apis/apps/v1/namespaces/ns/deployments/web/scale | false | update | apps | v1 | ns | deployments | web | scale",
      "PATCH | /apis/apps/v1/namespaces/ns/deployments/web/status | false | patch | apps | v1 | ns | deployments | web | status",
      "DELETE | /api/v1/namespaces/default/configmaps | false | deletecollection | '' | v1 | default | configmaps | '' | ''",
      "DELETE | /api/v1/namespaces/default/configmaps/x | false | delete | '' | v1 | default | configmaps | x | ''",
      // namespaces are cluster-scoped but kube fills the namespace with their name
      "GET | /api/v1/namespaces/kube-system | false | get | '' | v1 | kube-system | namespaces | kube-system | ''",
      "PUT | /api/v1/namespaces/kube-system/status | false | update | '' | v1 | kube-system | namespaces | kube-system | status",
      "GET | /api/v1/namespaces | false | list | '' | v1 | '' | namespaces | '' | ''",
      "GET | /api/v1/watch/namespaces/default/pods | false | watch | '' | v1 | default | pods | '' | ''",
      "GET | /apis/stable.example.com/v1/crontabs | false | list | stable.example.com | v1 | '' | crontabs | '' | ''",
  })
  void readsResourceRequestsLikeKube(String method, String path, boolean watch, String verb,
      String group, String version, String namespace, String resource, String name,
      String subresource) {
    RequestInfo info = RequestInfo.parse(method, path, watch);
    assertThat(info.resourceRequest()).isTrue();
    assertThat(info.verb()).isEqualTo(verb);
    assertThat(info.group()).isEqualTo(group);
    assertThat(info.version()).isEqualTo(version);
    assertThat(info.namespace()).isEqualTo(namespace);
    assertThat(info.resource()).isEqualTo(resource);
    assertThat(info.name()).isEqualTo(name);
    assertThat(info.subresource()).isEqualTo(subresource);
  }

  @ParameterizedTest
  @CsvSource({"GET,/api", "GET,/apis", "GET,/apis/apps", "GET,/apis/apps/v1", "GET,/api/v1",
      "GET,/version", "GET,/openapi/v3/api/v1", "POST,/healthz"})
  void discoveryAndFriendsAreNonResourceRequests(String method, String path) {
    RequestInfo info = RequestInfo.parse(method, path, false);
    assertThat(info.resourceRequest()).isFalse();
    assertThat(info.verb()).isEqualTo(method.toLowerCase(java.util.Locale.ROOT));
    assertThat(info.path()).isEqualTo(path);
  }
}
