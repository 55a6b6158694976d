/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ConnectCall;
import io.apiserver4j.apiserver.answer.ConnectResponse;
import io.apiserver4j.apiserver.CreateAuthorizer;
import io.apiserver4j.apiserver.SubresourceConnect;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.util.Fields;

/**
 * Serves a {@link SubresourceConnect} ({@code pods/log}, {@code pods/exec}, the proxies) as
 * kube's {@code ConnectResource} and streaming {@code GetResource} handlers do: the method must
 * be one the subresource registers (else 405), the request's own verb is already authorized,
 * the answer is the connecter's text with its content type, a bare status, or its Status error.
 */
final class ConnectEndpoint {
  private static final Status METHOD_NOT_ALLOWED = new Status(Status.Outcome.FAILURE, 405,
      StatusReason.METHOD_NOT_ALLOWED,
      "the server does not allow this method on the requested resource",
      Optional.of(StatusDetails.of("", "", "")));

  private ConnectEndpoint() {}

  /**
   * Answers the request on {@code ex}.
   *
   * @throws StatusException the connecter's error, or 405 for a method it does not serve
   */
  static void serve(Exchange ex, SubresourceConnect connect, Backend backend, RequestInfo info,
      String namespace, Fields query, UserInfo user, AuthorizationAttributes attributes,
      Authorizer authorizer) {
    String method = ex.request.getMethod();
    if (!connect.methods().contains(method)) {
      throw StatusException.of(METHOD_NOT_ALLOWED);
    }
    List<String> parts = info.parts();
    String path = parts.size() > 3 ? "/" + String.join("/", parts.subList(3, parts.size()))
        : "";
    if (path.isEmpty() && info.path().endsWith("/" + info.subresource() + "/")) {
      path = "/";
    }
    Map<String, List<String>> params = new HashMap<>();
    for (Fields.Field f : query) {
      params.put(f.getName(), new ArrayList<>(f.getValues()));
    }
    AuthorizationAttributes create = attributes.withVerb("create");
    CreateAuthorizer createCheck = (u, resource, subresource, ns, name) ->
        authorizer.authorize(create) instanceof AuthorizationDecision.Deny d
            ? Optional.of(d.reason()) : Optional.empty();
    ConnectCall call = new ConnectCall(user, namespace, info.name(), method, path, params,
        isUpgrade(ex) ? ConnectCall.Upgrade.YES : ConnectCall.Upgrade.NO, backend::execute,
        backend.podLogs(), createCheck);
    ConnectResponse response = connect.connect(call);
    byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
    ex.send(response.code(), response.contentType().isEmpty() ? null : response.contentType(),
        body, List.of());
  }

  /** kube's {@code httpstream.IsUpgradeRequest}: a Connection header naming Upgrade. */
  private static boolean isUpgrade(Exchange ex) {
    for (String v : ex.request.getHeaders().getValuesList("Connection")) {
      if (v.toLowerCase(java.util.Locale.ROOT).contains("upgrade")) {
        return true;
      }
    }
    return false;
  }
}
