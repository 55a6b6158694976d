/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's {@code validateProbe}, {@code validateLifecycle} and {@code validateHandler}: probes and
 * lifecycle hooks, one action each, with 1.36's zero-second sleep actions. Stateless.
 */
final class ProbeValidation {
  private static final Pattern HTTP_HEADER = Pattern.compile("^[-A-Za-z0-9]+$");

  private ProbeValidation() {}

  /** {@code validateHandler}: exactly one action, each action's own rules. */
  static void handler(MapValue h, List<String> kinds, Long gracePeriod, String path,
      List<FieldError> errs) {
    int handlers = 0;
    for (String kind : kinds) {
      if (!(h.getOrNull(kind) instanceof MapValue action)) {
        continue;
      }
      String at = path + "." + kind;
      if (handlers > 0) {
        errs.add(FieldError.forbidden(at, "may not specify more than 1 handler type"));
        continue;
      }
      handlers++;
      switch (kind) {
        case "exec" -> {
          if (!(action.getOrNull("command") instanceof ListValue l) || l.isEmpty()) {
            errs.add(FieldError.required(at + ".command", ""));
          }
        }
        case "httpGet" -> {
          if (str(action, "path").isEmpty()) {
            errs.add(FieldError.required(at + ".path", ""));
          }
          portNumOrName(action.getOrNull("port"), at + ".port", errs);
          String scheme = str(action, "scheme");
          if (!scheme.equals("HTTP") && !scheme.equals("HTTPS")) {
            errs.add(FieldError.notSupported(at + ".scheme", Value.of(scheme),
                List.of("HTTP", "HTTPS")));
          }
          for (MapValue header : items(action.getOrNull("httpHeaders"))) {
            String name = str(header, "name");
            if (!HTTP_HEADER.matcher(name).matches()) {
              errs.add(FieldError.invalid(at + ".httpHeaders", Value.of(name),
                  MetaValidation.regexError("a valid HTTP header must consist of alphanumeric"
                      + " characters or '-'", "[-A-Za-z0-9]+", "X-Header-Name")));
            }
          }
        }
        case "tcpSocket" -> portNumOrName(action.getOrNull("port"), at + ".port", errs);
        case "grpc" -> portNumOrName(action.getOrNull("port") == null ? Value.of(0L)
            : action.getOrNull("port"), at + ".port", errs);
        case "sleep" -> {
          long seconds = action.getOrNull("seconds") instanceof IntegerValue s ? s.value() : 0;
          if (gracePeriod != null && (seconds < 0 || seconds > gracePeriod)) {
            errs.add(FieldError.invalid(at, Value.of(seconds), "must be non-negative and less"
                + " than terminationGracePeriodSeconds (" + gracePeriod + ")"));
          }
        }
        default -> throw new IllegalStateException("unknown handler " + kind);
      }
    }
    if (handlers == 0) {
      errs.add(FieldError.required(path, "must specify a handler type"));
    }
  }

  /** {@code ValidatePortNumOrName}. */
  static void portNumOrName(Value port, String path, List<FieldError> errs) {
    if (port instanceof StringValue s) {
      for (String msg : KubeValidation.portName(s.value())) {
        errs.add(FieldError.invalid(path, s, msg));
      }
    } else {
      long n = port instanceof IntegerValue i ? i.value() : 0;
      for (String msg : KubeValidation.portNum(n)) {
        errs.add(FieldError.invalid(path, Value.of(n), msg));
      }
    }
  }

  /** {@code validateProbe} with the liveness/startup or readiness extra rule. */
  static void probe(Value probe, String path, String kind, Long gracePeriod,
      List<FieldError> errs) {
    if (!(probe instanceof MapValue p)) {
      return;
    }
    handler(p, List.of("exec", "httpGet", "tcpSocket", "grpc"), gracePeriod, path, errs);
    for (String f : List.of("initialDelaySeconds", "timeoutSeconds", "periodSeconds",
        "successThreshold", "failureThreshold")) {
      KubeValidation.nonNegative(p.getOrNull(f), path + "." + f, errs);
    }
    Value tgps = p.getOrNull("terminationGracePeriodSeconds");
    if (tgps instanceof IntegerValue t && t.value() <= 0) {
      errs.add(FieldError.invalid(path + ".terminationGracePeriodSeconds", t,
          "must be greater than 0"));
    }
    long success = p.getOrNull("successThreshold") instanceof IntegerValue s ? s.value() : 0;
    if (kind.equals("readinessProbe")) {
      if (tgps instanceof IntegerValue t) {
        errs.add(FieldError.invalid(path + ".terminationGracePeriodSeconds", t,
            "must not be set for readinessProbes"));
      }
    } else if (success != 1) {
      errs.add(FieldError.invalid(path + ".successThreshold", Value.of(success), "must be 1"));
    }
  }

  /** {@code validateLifecycle}. */
  static void lifecycle(Value lifecycle, String path, Long gracePeriod, List<FieldError> errs) {
    if (!(lifecycle instanceof MapValue l)) {
      return;
    }
    for (String hook : List.of("postStart", "preStop")) {
      if (l.getOrNull(hook) instanceof MapValue h) {
        handler(h, List.of("exec", "httpGet", "tcpSocket", "sleep"), gracePeriod,
            path + "." + hook, errs);
      }
    }
  }

}
