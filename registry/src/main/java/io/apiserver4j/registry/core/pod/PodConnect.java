/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.apiserver.ConnectCall;
import io.apiserver4j.apiserver.answer.ConnectResponse;
import io.apiserver4j.apiserver.kubelet.PodLogOptions;
import io.apiserver4j.apiserver.SubresourceConnect;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.registry.internal.ConnectParameters;
import io.apiserver4j.registry.internal.Kubelets;
import io.apiserver4j.registry.internal.Loopback;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Pod subresources kube-apiserver hands to the Pod's kubelet or proxies to the Pod
 * ({@code pkg/registry/core/pod/rest/log.go}, {@code subresources.go} and the locations of
 * {@code pkg/registry/core/pod/strategy.go}): {@code log}, {@code exec}, {@code attach},
 * {@code portforward} and {@code proxy}. Logs come from the server's {@code PodLogs}; every other
 * request fails as kube's does when the kubelet or the Pod does not answer.
 */
final class PodConnect {
  private static final GroupResource PODS = new GroupResource("", "pods");
  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

  private PodConnect() {}

  /** {@code pods/log}: kube's {@code LogREST}. */
  static SubresourceConnect log() {
    return PodConnect::log;
  }

  /** {@code pods/exec}, {@code pods/attach}: kube's {@code ExecREST} and {@code AttachREST}. */
  static SubresourceConnect stream() {
    return new SubresourceConnect() {
      @Override
      public ConnectResponse connect(ConnectCall call) {
        return PodConnect.stream(call);
      }

      @Override
      public Set<String> methods() {
        return UPGRADE_METHODS;
      }
    };
  }

  /** {@code pods/portforward}: kube's {@code PortForwardREST}. */
  static SubresourceConnect portForward() {
    return new SubresourceConnect() {
      @Override
      public ConnectResponse connect(ConnectCall call) {
        return PodConnect.portForward(call);
      }

      @Override
      public Set<String> methods() {
        return UPGRADE_METHODS;
      }
    };
  }

  /** {@code pods/proxy}: kube's {@code ProxyREST} of Pods. */
  static SubresourceConnect proxy() {
    return new SubresourceConnect() {
      @Override
      public ConnectResponse connect(ConnectCall call) {
        return PodConnect.proxy(call);
      }

      @Override
      public Set<String> methods() {
        return PROXY_METHODS;
      }

      @Override
      public boolean takesPath() {
        return true;
      }
    };
  }

  // ---- log ---------------------------------------------------------------------------------

  private static ConnectResponse log(ConnectCall call) {
    PodLogOptions requested = logOptions(call);
    List<FieldError> errs = validateLogOptions(requested,
        call.parameter("stream").isPresent());
    if (!errs.isEmpty()) {
      throw StatusErrors.invalid(new GroupKind("", "PodLogOptions"), call.name(), errs);
    }
    Loopback server = new Loopback(call.server(), call.user());
    MapValue pod = server.get(Loopback.PODS, call.namespace(), call.name());
    String container = validateContainer(requested.container(), pod,
        Nested.str(pod, "metadata", "name"));
    String nodeName = Nested.str(pod, "spec", "nodeName");
    if (nodeName.isEmpty()) {
      // kube's LogLocation has no location for an unbound Pod: an empty answer, 204
      return ConnectResponse.noContent();
    }
    PodLogOptions options = new PodLogOptions(container, requested.follow(),
        requested.previous(), requested.timestamps(), requested.sinceSeconds(),
        requested.sinceTime(), requested.tailLines(), requested.limitBytes());
    Optional<String> text = call.podLogs().read(pod, container, options);
    if (text.isPresent()) {
      return ConnectResponse.text(text.get());
    }
    Kubelets.Connection kubelet = Kubelets.connection(server, nodeName);
    String url = "https://" + kubelet.hostPort() + "/containerLogs/" + call.namespace() + "/"
        + Nested.str(pod, "metadata", "name") + "/" + container + logQuery(options);
    // http.Client's error: the method, the quoted URL, then the dialer's error
    throw Kubelets.unknown("Get " + io.apiserver4j.core.GoStrings.quote(url) + ": "
        + kubelet.dialError());
  }

  /** The options as kube decodes them from the query; the container may still be empty. */
  static PodLogOptions logOptions(ConnectCall call) {
    return new PodLogOptions(ConnectParameters.string(call, "container"),
        ConnectParameters.bool(call, "follow"), ConnectParameters.bool(call, "previous"),
        ConnectParameters.bool(call, "timestamps"),
        ConnectParameters.int64(call, "sinceSeconds"), ConnectParameters.time(call, "sinceTime"),
        ConnectParameters.int64(call, "tailLines"), ConnectParameters.int64(call, "limitBytes"));
  }

  /**
   * kube's {@code ValidatePodLogOptions} with {@code PodLogsQuerySplitStreams} off (alpha,
   * default off in 1.36): a {@code stream} may not be given.
   */
  static List<FieldError> validateLogOptions(PodLogOptions o, boolean streamGiven) {
    List<FieldError> errs = new ArrayList<>();
    if (o.tailLines().isPresent() && o.tailLines().getAsLong() < 0) {
      errs.add(FieldError.invalid("tailLines", Value.of(o.tailLines().getAsLong()),
          "must be greater than or equal to 0"));
    }
    if (o.limitBytes().isPresent() && o.limitBytes().getAsLong() < 1) {
      errs.add(FieldError.invalid("limitBytes", Value.of(o.limitBytes().getAsLong()),
          "must be greater than 0"));
    }
    if (o.sinceSeconds().isPresent() && o.sinceTime().isPresent()) {
      errs.add(FieldError.forbidden("",
          "at most one of `sinceTime` or `sinceSeconds` may be specified"));
    } else if (o.sinceSeconds().isPresent() && o.sinceSeconds().getAsLong() < 1) {
      errs.add(FieldError.invalid("sinceSeconds", Value.of(o.sinceSeconds().getAsLong()),
          "must be greater than 0"));
    }
    if (streamGiven) {
      errs.add(FieldError.forbidden("stream", "may not be specified"));
    }
    return errs;
  }

  /** The kubelet query kube's {@code LogLocation} builds, keys sorted as {@code url.Values}. */
  private static String logQuery(PodLogOptions o) {
    Map<String, String> params = new TreeMap<>();
    if (o.follow()) {
      params.put("follow", "true");
    }
    if (o.previous()) {
      params.put("previous", "true");
    }
    if (o.timestamps()) {
      params.put("timestamps", "true");
    }
    o.sinceSeconds().ifPresent(s -> params.put("sinceSeconds", Long.toString(s)));
    o.sinceTime().ifPresent(t -> params.put("sinceTime",
        RFC3339.format(t.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC))));
    o.tailLines().ifPresent(n -> params.put("tailLines", Long.toString(n)));
    o.limitBytes().ifPresent(n -> params.put("limitBytes", Long.toString(n)));
    if (params.isEmpty()) {
      return "";
    }
    StringBuilder q = new StringBuilder("?");
    params.forEach((k, v) -> {
      if (q.length() > 1) {
        q.append('&');
      }
      q.append(k).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
    });
    return q.toString();
  }

  // ---- exec, attach, portforward -----------------------------------------------------------

  private static ConnectResponse stream(ConnectCall call) {
    authorizeCreate(call);
    Loopback server = new Loopback(call.server(), call.user());
    MapValue pod = server.get(Loopback.PODS, call.namespace(), call.name());
    validateContainer(ConnectParameters.string(call, "container"), pod, call.name());
    return toKubelet(call, server, pod);
  }

  private static ConnectResponse portForward(ConnectCall call) {
    authorizeCreate(call);
    for (String ports : call.parameters("ports")) {
      for (String port : ports.split(",")) {
        // kube's conversion of PodPortForwardOptions reads each as an int32
        ConnectParameters.parseInt(port.trim(), 32);
      }
    }
    Loopback server = new Loopback(call.server(), call.user());
    MapValue pod = server.get(Loopback.PODS, call.namespace(), call.name());
    return toKubelet(call, server, pod);
  }

  /**
   * kube 1.35+'s compound check ({@code AuthorizePodWebsocketUpgradeCreatePermission}, on by
   * default): a GET (a WebSocket upgrade, authorized as {@code get}) also needs {@code create}.
   */
  private static void authorizeCreate(ConnectCall call) {
    if (call.method().equals("POST")) {
      return;
    }
    Optional<String> deny = call.authorizer().denyReason(call.user(),
        Loopback.PODS, "", call.namespace(), call.name());
    if (deny.isPresent()) {
      throw StatusErrors.forbidden(PODS, call.name(), deny.get());
    }
  }

  /** The request as the Pod's kubelet would get it: refused, as no kubelet listens. */
  private static ConnectResponse toKubelet(ConnectCall call, Loopback server, MapValue pod) {
    String nodeName = Nested.str(pod, "spec", "nodeName");
    if (nodeName.isEmpty()) {
      throw StatusErrors.badRequest("pod " + call.name() + " does not have a host assigned");
    }
    Kubelets.Connection kubelet = Kubelets.connection(server, nodeName);
    if (call.upgrade() == ConnectCall.Upgrade.NO) {
      throw Kubelets.upgradeRequired();
    }
    throw Kubelets.dialFailed(kubelet.dialError());
  }

  /**
   * kube's {@code validateContainer}: the only container when none is named, else a named one
   * of any kind.
   *
   * @return the container
   */
  static String validateContainer(String container, MapValue pod, String podName) {
    List<String> all = new ArrayList<>();
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      for (Value c : Nested.list(pod, "spec", list)) {
        all.add(Nested.str(c, "name"));
      }
    }
    if (container.isEmpty()) {
      List<Value> containers = Nested.list(pod, "spec", "containers");
      if (containers.size() == 1) {
        return Nested.str(containers.get(0), "name");
      }
      if (containers.isEmpty()) {
        throw StatusErrors.badRequest("a container name must be specified for pod " + podName);
      }
      throw StatusErrors.badRequest("a container name must be specified for pod " + podName
          + ", choose one of: [" + String.join(" ", all) + "]");
    }
    if (!all.contains(container)) {
      throw StatusErrors.badRequest("container " + container + " is not valid for pod "
          + podName);
    }
    return container;
  }

  // ---- proxy -------------------------------------------------------------------------------

  private static ConnectResponse proxy(ConnectCall call) {
    String[] id = io.apiserver4j.registry.internal.ProxyConnect.splitSchemeNamePort(call.name())
        .orElseThrow(() -> StatusErrors.badRequest("invalid pod request "
            + io.apiserver4j.core.GoStrings.quote(call.name())));
    Loopback server = new Loopback(call.server(), call.user());
    MapValue pod = server.get(Loopback.PODS, call.namespace(), id[1]);
    String port = id[2];
    if (port.isEmpty()) {
      for (Value c : Nested.list(pod, "spec", "containers")) {
        List<Value> ports = Nested.list(c, "ports");
        if (!ports.isEmpty()) {
          if (Nested.getOrNull(ports.get(0), "containerPort") instanceof IntegerValue p) {
            port = Long.toString(p.value());
          }
          break;
        }
      }
    }
    List<Value> podIps = Nested.list(pod, "status", "podIPs");
    String podIp = podIps.isEmpty() ? "" : Nested.str(podIps.get(0), "ip");
    if (!isGlobalUnicast(podIp)) {
      throw StatusErrors.badRequest("address not allowed");
    }
    String dialPort = port.isEmpty() ? (id[0].equals("https") ? "443" : "80") : port;
    String dialError = "dial tcp " + Kubelets.joinHostPort(podIp, dialPort)
        + ": connect: connection refused";
    throw call.upgrade() == ConnectCall.Upgrade.YES ? Kubelets.dialFailed(dialError)
        : Kubelets.unknown(dialError);
  }

  /** Go's {@code net.IP.IsGlobalUnicast} of a parsed IP; false for what does not parse. */
  static boolean isGlobalUnicast(String ip) {
    Optional<byte[]> parsed = io.apiserver4j.apimachinery.validation.GroupRules.parseIp(ip);
    if (parsed.isEmpty()) {
      return false;
    }
    byte[] b = parsed.get();
    if (b.length == 4) {
      int first = b[0] & 0xff;
      boolean broadcast = (b[0] & b[1] & b[2] & b[3] & 0xff) == 0xff;
      boolean unspecified = (b[0] | b[1] | b[2] | b[3]) == 0;
      return !(first == 127 || first >= 224 || broadcast || unspecified
          || (first == 169 && (b[1] & 0xff) == 254));
    }
    boolean unspecified = true;
    boolean loopback = b[15] == 1;
    for (int i = 0; i < 16; i++) {
      unspecified &= b[i] == 0;
      if (i < 15) {
        loopback &= b[i] == 0;
      }
    }
    boolean multicast = (b[0] & 0xff) == 0xff;
    boolean linkLocal = (b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80;
    return !(unspecified || loopback || multicast || linkLocal);
  }
}
