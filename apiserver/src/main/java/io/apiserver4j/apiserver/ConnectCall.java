/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.kubelet.PodLogs;
import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One request to a {@link SubresourceConnect}.
 *
 * @param user the requesting user (already authorized for the request's own verb)
 * @param namespace the request's namespace
 * @param name the parent object's name
 * @param method the HTTP method
 * @param path what follows the subresource in the URL ({@code /a/b}), or empty
 * @param query the query parameters, each with its values in order
 * @param upgrade whether the request asks to upgrade its connection ({@code Connection:
 *     Upgrade}, as kube's {@code httpstream.IsUpgradeRequest})
 * @param server the server as a loopback client, as kube's connecters read their stores
 * @param podLogs where container logs come from ({@link ApiServer#podLogs()})
 * @param authorizer asks whether the user may {@code create} the subresource, kube's compound
 *     check on {@code pods/exec}, {@code attach} and {@code portforward}
 */
public record ConnectCall(UserInfo user, String namespace, String name, String method,
    String path, Map<String, List<String>> query, Upgrade upgrade,
    Function<ApiRequest, ApiResponse> server, PodLogs podLogs, CreateAuthorizer authorizer) {

  /** Whether the client asked to upgrade the connection to a stream. */
  public enum Upgrade { NO, YES }

  public ConnectCall {
    requireNonNull(user, "user");
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    requireNonNull(method, "method");
    requireNonNull(path, "path");
    query = Map.copyOf(requireNonNull(query, "query"));
    requireNonNull(upgrade, "upgrade");
    requireNonNull(server, "server");
    requireNonNull(podLogs, "podLogs");
    requireNonNull(authorizer, "authorizer");
  }

  /** The first value of query parameter {@code name}, as kube's conversion of a scalar reads it. */
  public Optional<String> parameter(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /** Every value of query parameter {@code name}, in order. */
  public List<String> parameters(String name) {
    return query.getOrDefault(name, List.of());
  }
}
