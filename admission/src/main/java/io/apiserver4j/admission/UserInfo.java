/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The authenticated user a request is made by, as kube-apiserver's {@code user.Info}.
 *
 * @param name the user name; empty for an unauthenticated embedding
 * @param uid the user's uid; empty when unknown
 * @param groups the groups, in the order the authenticator gave them
 * @param extra extra attributes (e.g. scopes), each a list of values
 */
public record UserInfo(
    String name, String uid, List<String> groups, Map<String, List<String>> extra) {

  private static final UserInfo EMPTY = new UserInfo("", "", List.of(), Map.of());

  /**
   * Checks the components and copies the groups and extras.
   *
   * @param name see the record component
   * @param uid see the record component
   * @param groups see the record component
   * @param extra see the record component
   * @throws NullPointerException when a component is null
   */
  public UserInfo {
    requireNonNull(name, "name");
    requireNonNull(uid, "uid");
    groups = List.copyOf(groups);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    extra.forEach((k, v) -> copy.put(requireNonNull(k, "extra key"), List.copyOf(v)));
    extra = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * A user with a name and groups, no uid and no extra attributes.
   *
   * @param name the user name
   * @param groups the groups
   * @return the user
   */
  public static UserInfo of(String name, String... groups) {
    return new UserInfo(name, "", List.of(groups), Map.of());
  }

  /**
   * The user with no name, uid, groups or extras.
   *
   * @return the empty user
   */
  public static UserInfo empty() {
    return EMPTY;
  }
}
