/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import static io.apiserver4j.cel.internal.CostEstimator.LIST_CREATE;
import static io.apiserver4j.cel.internal.CostEstimator.REGEX_LENGTH;
import static io.apiserver4j.cel.internal.CostEstimator.STRING_TRAVERSAL;
import static io.apiserver4j.cel.internal.CostEstimator.STRUCT_CREATE;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import io.apiserver4j.cel.internal.CostEstimator.Estimate;
import io.apiserver4j.cel.internal.CostEstimator.Kind;
import io.apiserver4j.cel.internal.CostEstimator.Node;
import java.util.List;
import java.util.function.Function;

/**
 * The static cost estimates of the library functions kube's environment adds to CEL: Kubernetes'
 * own ({@code k8s.io/apiserver/pkg/cel/library/cost.go}, {@code EstimateCallCost}) and cel-go's
 * sets extension. {@link CostEstimator} asks these before cel-go's estimates of the standard
 * functions; a {@code null} answer means "not one of ours". Operand sizes come from the walk
 * through {@code sizeOf}. Not thread-safe; one instance per estimate, as its walk.
 */
final class KubeLibraryCosts {
  private static final long MAX_FORMAT_SIZE = 64;
  private static final long MAX_NAME_FORMAT_REGEX_SIZE = 128;
  private static final CostRange SELECTOR_BASE = CostRange.fixed(LIST_CREATE);

  private final Function<Node, CostRange> sizeOf;

  KubeLibraryCosts(Function<Node, CostRange> sizeOf) {
    this.sizeOf = sizeOf;
  }

  private CostRange sizeOf(Node n) {
    return sizeOf.apply(n);
  }

  /** cel-go's sets extension estimators. */
  Estimate setsCost(String overload, List<Node> args) {
    double factor;
    switch (overload) {
      case "list_sets_contains_list", "list_sets_intersects_list" -> factor = 1;
      case "list_sets_equivalent_list" -> factor = 2;
      default -> {
        return null;
      }
    }
    if (args.size() != 2) {
      return null;
    }
    return new Estimate(sizeOf(args.get(0)).multiply(sizeOf(args.get(1)))
        .multiplyByCostFactor(factor).add(CostRange.ONE), null);
  }

  private static Node listElementNode(Node list) {
    if (list.type().kind() != Kind.LIST || list.type().elem() == null) {
      return null;
    }
    List<String> path = list.path().isEmpty() ? List.of()
        : CostEstimator.append(list.path(), "@items");
    return new Node(null, path, list.type().elem(), null);
  }

  /**
   * kube's estimate of {@code labelSelector()} / {@code fieldSelector()} on a string of
   * {@code length}: parsing plus a requirement (a list and a struct) per two characters.
   */
  static CostRange selectorCost(CostRange length) {
    CostRange parse = length.multiplyByCostFactor(STRING_TRAVERSAL);
    CostRange requirements = length.multiplyByCostFactor(0.5)
        .multiplyByCostFactor(LIST_CREATE + STRUCT_CREATE);
    return SELECTOR_BASE.add(parse).add(requirements);
  }

  /** Kubernetes' {@code library.CostEstimator.EstimateCallCost}, by function name. */
  Estimate kubeCallCost(String function, String overload, Node target, List<Node> args) {
    switch (function) {
      case "check":
        return new Estimate(CostRange.fixed(350000), null);
      case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name",
          "allowed", "reason", "error", "errored":
        return new Estimate(CostRange.ONE, null);
      case "fieldSelector", "labelSelector":
        if (args.size() == 1) {
          return new Estimate(selectorCost(sizeOf(args.get(0))), null);
        }
        break;
      case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
        if (target != null) {
          Node el = listElementNode(target);
          if (el != null) {
            CostRange elCost = CostRange.ONE;
            if (el.type().kind() == Kind.STRING || el.type().kind() == Kind.BYTES) {
              elCost = elCost.add(sizeOf(el).multiplyByCostFactor(STRING_TRAVERSAL));
            }
            return new Estimate(sizeOf(target).multiply(elCost), null);
          }
          return new Estimate(sizeOf(target).multiplyByCostFactor(STRING_TRAVERSAL), null);
        }
        break;
      case "url", "jsonpatch.escapeKey":
        if (args.size() == 1) {
          CostRange sz = sizeOf(args.get(0));
          return new Estimate(sz.multiplyByCostFactor(STRING_TRAVERSAL), sz);
        }
        break;
      case "lowerAscii", "upperAscii", "substring", "trim":
        if (target != null) {
          CostRange sz = sizeOf(target);
          return new Estimate(sz.multiplyByCostFactor(STRING_TRAVERSAL), sz);
        }
        break;
      case "replace":
        if (target != null && args.size() >= 2) {
          return replaceCost(sizeOf(target), sizeOf(args.get(0)), sizeOf(args.get(1)));
        }
        break;
      case "split":
        if (target != null) {
          CostRange sz = sizeOf(target);
          long max = sz.max();
          if (args.size() > 1) {
            CelExpr limit = args.get(1).expr();
            if (limit.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && limit.constant().getKind() == CelConstant.Kind.INT64_VALUE) {
              max = limit.constant().int64Value();
            }
          }
          return new Estimate(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL),
              new CostRange(0, max));
        }
        break;
      case "join":
        if (target != null) {
          CostRange sz = CostRange.ZERO;
          CostRange listSize = sizeOf(target);
          Node el = listElementNode(target);
          if (el != null) {
            sz = listSize.multiply(sizeOf(el));
          }
          if (!args.isEmpty()) {
            CostRange sep = sizeOf(args.get(0));
            sz = sz.add(sep.multiply(new CostRange(Math.max(0, listSize.min() - 1),
                Math.max(0, listSize.max() - 1))));
          }
          return new Estimate(sz.multiplyByCostFactor(STRING_TRAVERSAL), sz);
        }
        break;
      case "find", "findAll":
        if (target != null && !args.isEmpty()) {
          CostRange sz = sizeOf(target);
          CostRange str = sz.add(CostRange.ONE).multiplyByCostFactor(STRING_TRAVERSAL);
          CostRange regex = sizeOf(args.get(0)).multiplyByCostFactor(REGEX_LENGTH);
          return new Estimate(str.multiply(regex), new CostRange(0, sz.max()));
        }
        break;
      case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
        if (!args.isEmpty()) {
          return new Estimate(sizeOf(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL), null);
        }
        break;
      case "ip":
        if (overload.equals("cidr_ip")) {
          return new Estimate(CostRange.ONE, null);
        }
        if (!args.isEmpty()) {
          return new Estimate(sizeOf(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL), null);
        }
        break;
      case "ip.isCanonical":
        if (!args.isEmpty()) {
          return new Estimate(sizeOf(args.get(0)).multiplyByCostFactor(2 * STRING_TRAVERSAL),
              null);
        }
        break;
      case "masked", "prefixLength", "family", "isUnspecified", "isLoopback",
          "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "format.named",
          "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
          "compareTo", "add", "sub", "major", "minor", "patch", "getScheme", "getHostname",
          "getHost", "getPort", "getEscapedPath", "getQuery":
        return new Estimate(CostRange.ONE, null);
      case "containsIP", "containsCIDR":
        if (!args.isEmpty()) {
          CostRange ip = new CostRange(4, 16);
          CostRange c = ip.add(ip).multiplyByCostFactor(STRING_TRAVERSAL);
          if (function.equals("containsCIDR")) {
            c = c.add(ip.multiplyByCostFactor(STRING_TRAVERSAL)).add(CostRange.ONE);
          }
          if (overload.equals("cidr_contains_ip_string")
              || overload.equals("cidr_contains_cidr_string")) {
            c = c.add(sizeOf(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL));
          }
          return new Estimate(c, null);
        }
        break;
      case "validate":
        if (!args.isEmpty()) {
          return new Estimate(sizeOf(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL)
              .multiplyByCostFactor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH), null);
        }
        break;
      case "_==_":
        if (args.size() == 2 && args.get(0).type().sameAs(args.get(1).type())
            && args.get(0).type().kind() == Kind.OPAQUE) {
          switch (args.get(0).type().name()) {
            case "net.IP", "net.CIDR", "kubernetes.Quantity", "kubernetes.Semver",
                "kubernetes.authorization.Authorizer", "kubernetes.authorization.PathCheck",
                "kubernetes.authorization.GroupCheck", "kubernetes.authorization.ResourceCheck",
                "kubernetes.authorization.Decision":
              return new Estimate(CostRange.ONE, null);
            case "kubernetes.NamedFormat":
              return new Estimate(new CostRange(1, MAX_FORMAT_SIZE)
                  .multiplyByCostFactor(STRING_TRAVERSAL), null);
            case "kubernetes.URL": {
              CostRange size = CostRange.ONE;
              CostRange rhs = args.get(1).computed();
              if (rhs != null) {
                size = rhs.union(rhs);
              }
              return new Estimate(new CostRange(1, size.max())
                  .multiplyByCostFactor(STRING_TRAVERSAL), null);
            }
            default:
              break;
          }
        }
        break;
      default:
        break;
    }
    return null;
  }

  private static Estimate replaceCost(CostRange sz, CostRange toReplace, CostRange with) {
    long countMax;
    long countMin;
    long retainedMax = 0;
    long retainedMin = 0;
    if (toReplace.min() == 0) {
      countMax = sz.max() < CostRange.UNBOUNDED ? sz.max() + 1 : sz.max();
      retainedMax = sz.max();
    } else if (with.max() <= toReplace.min()) {
      countMax = 0;
      retainedMax = sz.max();
    } else {
      countMax = (long) Math.ceil((double) sz.max() / (double) toReplace.min());
    }
    if (toReplace.max() == 0) {
      countMin = sz.min() < CostRange.UNBOUNDED ? sz.min() + 1 : sz.min();
      retainedMin = sz.min();
    } else if (toReplace.max() <= with.min()) {
      countMin = 0;
      retainedMin = sz.min();
    } else {
      countMin = (long) Math.ceil((double) sz.min() / (double) toReplace.max());
    }
    CostRange size = new CostRange(countMin, countMax).multiply(with)
        .add(new CostRange(retainedMin, retainedMax));
    return new Estimate(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL), size);
  }
}
