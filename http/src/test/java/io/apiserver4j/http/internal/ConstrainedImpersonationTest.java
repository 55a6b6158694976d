/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.StatusException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestConstrainedImpersonationFilter} cases (fixture
 * {@code constrained-impersonation.yaml}): per request the authorization checks in order, then
 * the impersonated user and constraint or the Forbidden message.
 */
class ConstrainedImpersonationTest {

  /** kube's test authorizer ({@code constrainedImpersonationTest.Authorize}), rule by rule. */
  private static final class KubeTestAuthorizer implements Authorizer {
    final List<String> checks = new ArrayList<>();
    final List<UserInfo> users = new ArrayList<>();

    @Override
    public AuthorizationDecision authorize(AuthorizationAttributes a) {
      boolean allow = allows(a);
      checks.add((allow ? "allow " : "deny ") + describe(a));
      users.add(a.user());
      return allow ? new AuthorizationDecision.Allow() : new AuthorizationDecision.Deny(
          "deny by default");
    }

    private static boolean allows(AuthorizationAttributes a) {
      UserInfo u = a.user();
      String name = u.name();
      String first = u.groups().isEmpty() ? "" : u.groups().get(0);
      String verb = a.verb();
      String res = a.resource();
      if (name.equals("sa-impersonater") && verb.equals("impersonate:serviceaccount")
          && res.equals("serviceaccounts")) {
        return true;
      }
      if (name.equals("system:serviceaccount:default:node")
          && verb.equals("impersonate:arbitrary-node") && res.equals("nodes")) {
        return true;
      }
      if (name.equals("node-impersonater") && verb.equals("impersonate:arbitrary-node")
          && res.equals("nodes")) {
        return true;
      }
      if (first.equals("associate-node-impersonater")
          && verb.equals("impersonate:associated-node") && res.equals("nodes")) {
        return true;
      }
      if (name.equals("user-impersonater") && verb.equals("impersonate:user-info")
          && (res.equals("users") || res.equals("uids"))) {
        return true;
      }
      if (first.equals("group-impersonater") && verb.equals("impersonate:user-info")
          && res.equals("groups")) {
        return true;
      }
      if (first.equals("extra-setter-scopes") && verb.equals("impersonate:user-info")
          && res.equals("userextras") && a.subresource().equals("pandas.io/scopes")) {
        return true;
      }
      if (name.equals("legacy-impersonater") && verb.equals("impersonate")) {
        return true;
      }
      // kube's test spells this one "impersonator", so it excludes no one
      if (!name.equals("legacy-impersonator") && verb.startsWith("impersonate-on:")
          && (verb.endsWith("list") || verb.endsWith("get"))) {
        return true;
      }
      if (name.equals("many-groups-impersonater") && verb.equals("impersonate:user-info")
          && (res.equals("users") || res.equals("groups") && a.name().equals("*"))) {
        return true;
      }
      if (name.equals("many-extras-impersonater") && verb.equals("impersonate:user-info")
          && (res.equals("users") || res.equals("userextras") && a.subresource().equals("*")
              && a.name().equals("*"))) {
        return true;
      }
      if (name.equals("mixed-impersonater") && verb.equals("impersonate:user-info")) {
        return res.equals("users") || res.equals("groups") && !a.name().equals("*")
            || res.equals("userextras") && a.subresource().equals("tags.io/env")
                && !a.name().equals("*");
      }
      return false;
    }
  }

  /** A check as the fixture writes it; the request's own checks are expanded by the caller. */
  private static String describe(AuthorizationAttributes a) {
    if (a.verb().startsWith("impersonate-on:")) {
      return "on " + a.verb() + " " + a.apiGroup() + "/" + a.apiVersion() + " " + a.resource()
          + "/" + a.subresource() + " " + a.namespace() + "/" + a.name() + " " + a.path()
          + " " + a.resourceRequest();
    }
    // legacy impersonation asks users, groups and serviceaccounts in the core group
    String group = a.verb().equals("impersonate") && List.of("users", "groups",
        "serviceaccounts").contains(a.resource()) ? "" : "authentication.k8s.io";
    assertThat(a.apiGroup()).as("group of %s", a).isEqualTo(group);
    assertThat(a.apiVersion()).isEqualTo("v1");
    assertThat(a.resourceRequest()).isTrue();
    assertThat(a.path()).isEmpty();
    String resource = a.subresource().isEmpty() ? a.resource()
        : a.resource() + "/" + a.subresource();
    String object = a.namespace().isEmpty() ? a.name() : a.namespace() + "/" + a.name();
    return a.verb() + " " + resource + " " + object;
  }

  private static final Map<String, AuthorizationAttributes> REQUESTS = Map.of(
      "getPod", resource("get", "", "pods", "bar", "foo"),
      "getAnotherPod", resource("get", "", "pods", "bar1", "foo1"),
      "createPod", resource("create", "", "pods", "bar", "foo"),
      "getDeployment", resource("get", "apps", "deployments", "bar", "foo"),
      "getSecret", resource("get", "", "secrets", "bar", "foo"));

  private static AuthorizationAttributes resource(String verb, String group, String resource,
      String namespace, String name) {
    return new AuthorizationAttributes(UserInfo.empty(), verb, true, group, "v1", resource, "",
        namespace, name, "");
  }

  static Stream<Arguments> cases() throws IOException {
    String yaml;
    try (InputStream in = ConstrainedImpersonationTest.class.getResourceAsStream(
        "constrained-impersonation.yaml")) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    MapValue root = (MapValue) Yaml.read(yaml);
    return ((ListValue) root.get("cases").orElseThrow()).items().stream()
        .map(c -> (MapValue) c)
        .map(c -> Arguments.of(string(c, "name"), c.get("requests").orElseThrow()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void kubeCase(String name, ListValue requests) {
    // one filter per case, as kube's test builds one handler per case
    ConstrainedImpersonation filter = new ConstrainedImpersonation();
    int i = 0;
    for (Value item : requests.items()) {
      MapValue r = (MapValue) item;
      String step = name + " request " + i++;
      UserInfo requestor = user((MapValue) r.get("requestor").orElseThrow());
      AuthorizationAttributes request = request(r.get("request").orElseThrow(), requestor);
      UserInfo wanted = user((MapValue) r.get("impersonate").orElseThrow());
      KubeTestAuthorizer authorizer = new KubeTestAuthorizer();

      Optional<String> message = r.get("message").map(v -> ((StringValue) v).value());
      if (message.isPresent()) {
        assertThatThrownBy(() -> filter.impersonate(wanted, request, authorizer))
            .as(step).isInstanceOfSatisfying(StatusException.class, e -> {
              assertThat(e.status().code()).isEqualTo(403);
              assertThat(e.status().message()).isEqualTo(message.get());
            });
      } else {
        ConstrainedImpersonation.Impersonated got = filter.impersonate(wanted, request,
            authorizer);
        assertThat(got.user()).as(step).isEqualTo(user((MapValue) r.get("user").orElseThrow()));
        assertThat(got.constraint()).as(step).isEqualTo(string(r, "constraint"));
      }
      if (r.get("kubeCachedChecks").isPresent()) {
        continue;
      }
      List<String> expected = new ArrayList<>();
      for (Value c : ((ListValue) r.get("checks").orElseThrow()).items()) {
        expected.add(expand(((StringValue) c).value(), request));
      }
      assertThat(authorizer.checks).as(step).containsExactlyElementsOf(expected);
      UserInfo checksUser = r.get("checksUser").map(v -> user((MapValue) v)).orElse(requestor);
      assertThat(authorizer.users).as(step).allMatch(u -> u.equals(checksUser));
    }
  }

  /** {@code allow on <mode>}: the request's attributes under {@code impersonate-on}. */
  private static String expand(String check, AuthorizationAttributes request) {
    String[] parts = check.split(" ", 3);
    if (!parts[1].equals("on")) {
      return check;
    }
    return parts[0] + " " + describe(request.withVerb(
        "impersonate-on:" + parts[2] + ":" + request.verb()));
  }

  private static AuthorizationAttributes request(Value spec, UserInfo requestor) {
    AuthorizationAttributes a;
    if (spec instanceof StringValue s) {
      a = REQUESTS.get(s.value());
    } else {
      MapValue m = (MapValue) spec;
      boolean resourceRequest = m.get("resourceRequest").map(v -> v.equals(Value.of(true)))
          .orElse(true);
      a = new AuthorizationAttributes(UserInfo.empty(), string(m, "verb"), resourceRequest,
          string(m, "group"), string(m, "version"), string(m, "resource"),
          string(m, "subresource"), string(m, "namespace"), string(m, "name"),
          string(m, "path"));
    }
    return new AuthorizationAttributes(requestor, a.verb(), a.resourceRequest(), a.apiGroup(),
        a.apiVersion(), a.resource(), a.subresource(), a.namespace(), a.name(), a.path());
  }

  private static UserInfo user(MapValue m) {
    List<String> groups = m.get("groups").map(ConstrainedImpersonationTest::strings)
        .orElse(List.of());
    Map<String, List<String>> extra = new LinkedHashMap<>();
    m.get("extra").ifPresent(e -> ((MapValue) e).forEach((k, v) -> extra.put(k, strings(v))));
    return new UserInfo(string(m, "name"), string(m, "uid"), groups, extra);
  }

  private static List<String> strings(Value v) {
    return ((ListValue) v).items().stream().map(s -> ((StringValue) s).value()).toList();
  }

  private static String string(MapValue m, String key) {
    return m.get(key).map(v -> ((StringValue) v).value()).orElse("");
  }

  // ---- headers (kube's processImpersonationHeaders) ---------------------------------------

  @Test
  void noUserHeaderImpersonatesNoOne() {
    assertThat(ConstrainedImpersonation.wantedUser(HttpFields.build())).isEmpty();
  }

  @Test
  void headersBecomeTheWantedUserAsGiven() {
    HttpFields headers = HttpFields.build()
        .add("Impersonate-User", "alice")
        .add("Impersonate-Uid", "u-1")
        .add("Impersonate-Group", "g1")
        .add("Impersonate-Group", "g2")
        .add("Impersonate-Extra-Scopes.Example.Com%2fkey", "a")
        .add("Impersonate-Extra-scopes.example.com%2Fkey", "b");
    assertThat(ConstrainedImpersonation.wantedUser(headers)).contains(new UserInfo("alice",
        "u-1", List.of("g1", "g2"), Map.of("scopes.example.com/key", List.of("a", "b"))));
  }

  @Test
  void groupWithoutUserIsBadRequestWithGoSyntaxOfTheWantedUser() {
    // kube formats the wanted user with %#v; Go prints a nil slice or map as []string(nil)
    HttpFields headers = HttpFields.build().add("Impersonate-Group", "system:masters");
    assertThatThrownBy(() -> ConstrainedImpersonation.wantedUser(headers))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(400);
          assertThat(e.status().message()).isEqualTo("requested &user.DefaultInfo{Name:\"\", "
              + "UID:\"\", Groups:[]string{\"system:masters\"}, Extra:map[string][]string(nil)}"
              + " without impersonating a user name");
        });
  }

  @Test
  void extraWithoutUserIsBadRequest() {
    HttpFields headers = HttpFields.build().add("Impersonate-Uid", "x")
        .add("Impersonate-Extra-B", "2").add("Impersonate-Extra-A", "1");
    assertThatThrownBy(() -> ConstrainedImpersonation.wantedUser(headers))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().message())
            .isEqualTo("requested &user.DefaultInfo{Name:\"\", UID:\"x\", "
                + "Groups:[]string(nil), Extra:map[string][]string{\"a\":[]string{\"1\"}, "
                + "\"b\":[]string{\"2\"}}} without impersonating a user name"));
  }

  // ---- kube's validateExtra ---------------------------------------------------------------

  @Test
  void constrainedModesRefuseExtrasLegacyWouldAccept() {
    assertThat(ConstrainedImpersonation.invalidExtra(Map.of("", List.of("v"))))
        .contains("impersonating the empty string key in extra is not allowed");
    assertThat(ConstrainedImpersonation.invalidExtra(Map.of("scopes", List.of("v"))))
        .contains("impersonating an invalid key in extra is not allowed: extra.key: "
            + "Invalid value: \"scopes\": must be a domain-prefixed path (such as "
            + "\"acme.io/foo\")");
    assertThat(ConstrainedImpersonation.invalidExtra(Map.of("acme.io/Foo", List.of("v"))))
        .contains("impersonating a non-lowercase key in extra is not allowed: "
            + "\"acme.io/Foo\"");
    assertThat(ConstrainedImpersonation.invalidExtra(Map.of("acme.io/foo", List.of())))
        .contains("impersonating empty values in extra is not allowed");
    assertThat(ConstrainedImpersonation.invalidExtra(Map.of("acme.io/foo", List.of("a", ""))))
        .contains("impersonating the empty string value in extra is not allowed");
    assertThat(ConstrainedImpersonation.invalidExtra(Map.of("acme.io/foo", List.of("a"))))
        .isEmpty();
  }

  @Test
  void invalidExtraIsRefusedBeforeAskingAndLegacyStillAsked() {
    KubeTestAuthorizer authorizer = new KubeTestAuthorizer();
    AuthorizationAttributes getPod = request(Value.of("getPod"),
        UserInfo.of("user-impersonater"));
    UserInfo wanted = new UserInfo("bob", "", List.of(), Map.of("scopes", List.of("x")));
    assertThatThrownBy(() -> new ConstrainedImpersonation().impersonate(wanted, getPod,
        authorizer)).isInstanceOfSatisfying(StatusException.class, e -> assertThat(
            e.status().message()).endsWith("cannot impersonate:user-info resource "
                + "\"userextras\" in API group \"authentication.k8s.io\" at the cluster scope: "
                + "impersonating an invalid key in extra is not allowed: extra.key: Invalid "
                + "value: \"scopes\": must be a domain-prefixed path (such as \"acme.io/foo\")"));
    assertThat(authorizer.checks).containsExactly(
        expand("allow on user-info", getPod),
        "allow impersonate:user-info users bob",
        "deny impersonate users bob");
  }
}
