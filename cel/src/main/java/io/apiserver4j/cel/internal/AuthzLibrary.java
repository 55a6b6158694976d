/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.bundle.CelBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import io.apiserver4j.cel.CelAuthorizer;
import java.util.List;

/**
 * kube's CEL authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) with its type and
 * function names: an {@code Authorizer} yields path and group checks, a group check a resource
 * check, which narrows by subresource, namespace and name and is checked for a verb into a
 * {@code Decision}.
 */
final class AuthzLibrary {
  static final CelType AUTHORIZER = OpaqueType.create("kubernetes.authorization.Authorizer");
  static final CelType PATH_CHECK = OpaqueType.create("kubernetes.authorization.PathCheck");
  static final CelType GROUP_CHECK = OpaqueType.create("kubernetes.authorization.GroupCheck");
  static final CelType RESOURCE_CHECK =
      OpaqueType.create("kubernetes.authorization.ResourceCheck");
  static final CelType DECISION = OpaqueType.create("kubernetes.authorization.Decision");

  private AuthzLibrary() {}

  /** The runtime value of {@code authorizer}: a checker and the service account asked about. */
  record AuthorizerValue(CelAuthorizer authorizer, String serviceAccount) {}

  record PathCheckValue(AuthorizerValue authz, String path) {}

  record GroupCheckValue(AuthorizerValue authz, String group) {}

  record ResourceCheckValue(AuthorizerValue authz, String group, String resource,
      String subresource, String namespace, String name) {
    ResourceCheckValue with(int field, String value) {
      return new ResourceCheckValue(authz, group, resource,
          field == 0 ? value : subresource, field == 1 ? value : namespace,
          field == 2 ? value : name);
    }
  }

  record DecisionValue(CelAuthorizer.Decision decision) {}

  /** Variables the library declares beside {@code authorizer}. */
  static final String REQUEST_RESOURCE = "authorizer.requestResource";

  static void add(CelBuilder b, List<String> variables) {
    if (variables.contains("authorizer")) {
      b.addVar("authorizer", AUTHORIZER);
      b.addVar(REQUEST_RESOURCE, RESOURCE_CHECK);
    }
    b.addFunctionDeclarations(
        member("path", "authorizer_path", PATH_CHECK, AUTHORIZER, SimpleType.STRING),
        member("group", "authorizer_group", GROUP_CHECK, AUTHORIZER, SimpleType.STRING),
        member("serviceAccount", "authorizer_serviceaccount", AUTHORIZER, AUTHORIZER,
            SimpleType.STRING, SimpleType.STRING),
        member("resource", "groupcheck_resource", RESOURCE_CHECK, GROUP_CHECK,
            SimpleType.STRING),
        member("subresource", "resourcecheck_subresource", RESOURCE_CHECK, RESOURCE_CHECK,
            SimpleType.STRING),
        member("namespace", "resourcecheck_namespace", RESOURCE_CHECK, RESOURCE_CHECK,
            SimpleType.STRING),
        member("name", "resourcecheck_name", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
        CelFunctionDecl.newFunctionDeclaration("check",
            CelOverloadDecl.newMemberOverload("pathcheck_check", DECISION, PATH_CHECK,
                SimpleType.STRING),
            CelOverloadDecl.newMemberOverload("resourcecheck_check", DECISION, RESOURCE_CHECK,
                SimpleType.STRING)),
        member("errored", "decision_errored", SimpleType.BOOL, DECISION),
        member("error", "decision_error", SimpleType.STRING, DECISION),
        member("allowed", "decision_allowed", SimpleType.BOOL, DECISION),
        member("reason", "decision_reason", SimpleType.STRING, DECISION));
    b.addFunctionBindings(
        CelFunctionBinding.from("authorizer_path", AuthorizerValue.class, String.class,
            PathCheckValue::new),
        CelFunctionBinding.from("authorizer_group", AuthorizerValue.class, String.class,
            GroupCheckValue::new),
        CelFunctionBinding.from("authorizer_serviceaccount",
            List.of(AuthorizerValue.class, String.class, String.class),
            args -> new AuthorizerValue(((AuthorizerValue) args[0]).authorizer(),
                args[1] + ":" + args[2])),
        CelFunctionBinding.from("groupcheck_resource", GroupCheckValue.class, String.class,
            (g, r) -> new ResourceCheckValue(g.authz(), g.group(), r, "", "", "")),
        CelFunctionBinding.from("resourcecheck_subresource", ResourceCheckValue.class,
            String.class, (r, v) -> r.with(0, v)),
        CelFunctionBinding.from("resourcecheck_namespace", ResourceCheckValue.class,
            String.class, (r, v) -> r.with(1, v)),
        CelFunctionBinding.from("resourcecheck_name", ResourceCheckValue.class,
            String.class, (r, v) -> r.with(2, v)),
        CelFunctionBinding.from("pathcheck_check", PathCheckValue.class, String.class,
            (p, verb) -> decide(p.authz(), new CelAuthorizer.Check(
                p.authz().serviceAccount(), p.path(), "", "", "", "", "", verb))),
        CelFunctionBinding.from("resourcecheck_check", ResourceCheckValue.class, String.class,
            (r, verb) -> decide(r.authz(), new CelAuthorizer.Check(r.authz().serviceAccount(),
                "", r.group(), r.resource(), r.subresource(), r.namespace(), r.name(), verb))),
        CelFunctionBinding.from("decision_errored", DecisionValue.class,
            d -> !d.decision().error().isEmpty()),
        CelFunctionBinding.from("decision_error", DecisionValue.class,
            d -> d.decision().error()),
        CelFunctionBinding.from("decision_allowed", DecisionValue.class,
            d -> d.decision().allowed()),
        CelFunctionBinding.from("decision_reason", DecisionValue.class,
            d -> d.decision().reason()));
  }

  private static DecisionValue decide(AuthorizerValue authz, CelAuthorizer.Check check) {
    return new DecisionValue(authz.authorizer().check(check));
  }

  private static CelFunctionDecl member(String name, String id, CelType result,
      CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(name,
        CelOverloadDecl.newMemberOverload(id, result, args));
  }
}
