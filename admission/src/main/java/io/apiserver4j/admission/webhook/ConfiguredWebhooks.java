/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionPlugin;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.matching.AdmissionRequests;
import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.admission.matching.ConfigurationSources;
import io.apiserver4j.admission.matching.MatchConditions;
import io.apiserver4j.admission.matching.MatchCriteria;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's {@code MutatingAdmissionWebhook} and {@code ValidatingAdmissionWebhook}
 * admission plugins: they call the webhooks of the MutatingWebhookConfigurations and
 * ValidatingWebhookConfigurations currently stored, over HTTPS, as {@link WebhookDispatcher}
 * describes. Configurations are taken in name order, their webhooks in the order written; each
 * change of the configurations is parsed once.
 *
 * <p>A webhook whose URL or CA bundle cannot be used fails its calls with kube's
 * {@code could not get REST client: ...}, subject to its failure policy. A service reference is
 * called at {@code https://<name>.<namespace>.svc:<port><path>}, which only resolves where such
 * names do.
 */
public final class ConfiguredWebhooks {
  private static final Logger LOG = LoggerFactory.getLogger(ConfiguredWebhooks.class);
  private static final String GROUP = "admissionregistration.k8s.io";
  /** The resource of MutatingWebhookConfigurations. */
  public static final GroupResource MUTATING_CONFIGURATIONS =
      new GroupResource(GROUP, "mutatingwebhookconfigurations");
  /** The resource of ValidatingWebhookConfigurations. */
  public static final GroupResource VALIDATING_CONFIGURATIONS =
      new GroupResource(GROUP, "validatingwebhookconfigurations");
  /** The mutating plugin's name, as kube-apiserver's. */
  public static final String MUTATING_PLUGIN = "MutatingAdmissionWebhook";
  /**
   * The validating plugin's name, as kube-apiserver's.
   */
  public static final String VALIDATING_PLUGIN = "ValidatingAdmissionWebhook";

  private ConfiguredWebhooks() {}

  /**
   * The MutatingAdmissionWebhook plugin over {@code sources}.
   *
   * @param sources where the configurations, namespaces and equivalents come from
   * @return the plugin, with random request uids
   */
  public static MutatingPlugin mutating(ConfigurationSources sources) {
    return mutating(sources, () -> UUID.randomUUID().toString());
  }

  /**
   * Like {@link #mutating(ConfigurationSources)} with injected request uids.
   *
   * @param sources where the configurations, namespaces and equivalents come from
   * @param uids the request uids
   * @return the plugin
   */
  public static MutatingPlugin mutating(ConfigurationSources sources, Supplier<String> uids) {
    return new Mutating(sources, uids);
  }

  /**
   * The ValidatingAdmissionWebhook plugin over {@code sources}.
   *
   * @param sources where the configurations, namespaces and equivalents come from
   * @return the plugin, with random request uids
   */
  public static ValidatingPlugin validating(ConfigurationSources sources) {
    return validating(sources, () -> UUID.randomUUID().toString());
  }

  /**
   * Like {@link #validating(ConfigurationSources)} with injected request uids.
   *
   * @param sources where the configurations, namespaces and equivalents come from
   * @param uids the request uids
   * @return the plugin
   */
  public static ValidatingPlugin validating(ConfigurationSources sources,
      Supplier<String> uids) {
    return new Validating(sources, uids);
  }

  /** The webhooks of one snapshot of configurations, and the HTTP clients they share. */
  private static final class Parsed {
    private final List<Webhook> webhooks = new ArrayList<>();
    private final Map<String, HttpClient> clients = new HashMap<>();
  }

  private abstract static class Base implements AdmissionPlugin {
    final String name;
    final WebhookDispatcher dispatcher;
    final Supplier<Parsed> hooks;

    Base(String name, GroupResource resource, ConfigurationSources sources,
        Supplier<String> uids) {
      requireNonNull(sources, "sources");
      requireNonNull(uids, "uids");
      this.name = name;
      this.dispatcher = new WebhookDispatcher(name, sources.namespaces(),
          sources.equivalents(), sources.converter(), uids);
      ConfigurationSource source = sources.source(resource);
      boolean mutating = resource.equals(MUTATING_CONFIGURATIONS);
      this.hooks = source.derived(s -> parse(s.objects(), mutating));
    }

    List<Webhook> webhooks() {
      return hooks.get().webhooks;
    }

    @Override
    public final String name() {
      return name;
    }

    @Override
    public final SideEffects sideEffects() {
      // each webhook's own class is checked on dry runs
      return SideEffects.NONE;
    }

    @Override
    public final boolean handles(AdmissionAttributes a) {
      return !AdmissionRequests.isAdmissionConfiguration(a) && !webhooks().isEmpty();
    }
  }

  private static final class Mutating extends Base implements MutatingPlugin {
    Mutating(ConfigurationSources sources, Supplier<String> uids) {
      super(MUTATING_PLUGIN, MUTATING_CONFIGURATIONS, sources, uids);
    }

    @Override
    public MapValue admit(AdmissionAttributes a, MapValue object) {
      return dispatcher.mutate(a, Optional.of(object), webhooks()).orElseThrow();
    }

    @Override
    public void admitWithoutObject(AdmissionAttributes a) {
      dispatcher.mutate(a, Optional.empty(), webhooks());
    }
  }

  private static final class Validating extends Base implements ValidatingPlugin {
    Validating(ConfigurationSources sources, Supplier<String> uids) {
      super(VALIDATING_PLUGIN, VALIDATING_CONFIGURATIONS, sources, uids);
    }

    @Override
    public void validate(AdmissionAttributes a) {
      dispatcher.validate(a, webhooks());
    }
  }

  private static Parsed parse(List<MapValue> configurations, boolean mutating) {
    Parsed out = new Parsed();
    for (MapValue c : configurations) {
      String configuration = Meta.metaString(c, "name");
      List<Value> webhooks = Nested.list(c, "webhooks");
      for (int i = 0; i < webhooks.size(); i++) {
        Value w = webhooks.get(i);
        String name = Nested.str(w, "name");
        try {
          out.webhooks.add(webhook(configuration, i, w, mutating, out.clients));
        } catch (RuntimeException e) {
          // only configurations written past validation get here
          LOG.error("webhook {} of {} cannot be used", name, configuration, e);
        }
      }
    }
    return out;
  }

  private static Webhook webhook(String configuration, int index, Value w, boolean mutating,
      Map<String, HttpClient> clients) {
    String name = Nested.str(w, "name");
    Value sideEffects = Nested.getOrNull(w, "sideEffects");
    Optional<SideEffects> declared = Optional.empty();
    if (sideEffects instanceof StringValue s) {
      for (SideEffects e : SideEffects.values()) {
        if (e.wireName().equals(s.value())) {
          declared = Optional.of(e);
        }
      }
    }
    Value timeout = Nested.getOrNull(w, "timeoutSeconds");
    Duration t = Nested.has(w, "timeoutSeconds") && !timeout.isNull()
        ? Duration.ofSeconds(Nested.integer(w, "timeoutSeconds")) : Webhook.DEFAULT_TIMEOUT;
    return new Webhook(configuration, name, configuration + "/" + name + "/" + index,
        MatchCriteria.forWebhook(w),
        MatchConditions.fromValue(w, WebhookDispatcher.conditionVariables()),
        "Ignore".equals(Nested.str(w, "failurePolicy")) ? FailurePolicy.IGNORE
            : FailurePolicy.FAIL,
        declared, t, Meta.stringList(Nested.getOrNull(w, "admissionReviewVersions")),
        mutating && "IfNeeded".equals(Nested.str(w, "reinvocationPolicy")),
        endpoint(Nested.getOrNull(w, "clientConfig"), clients));
  }

  /** The endpoint of a {@code clientConfig}; one that always fails when it is unusable. */
  private static WebhookEndpoint endpoint(Value clientConfig, Map<String, HttpClient> clients) {
    try {
      URI uri = uri(clientConfig);
      String caBundle = Nested.str(clientConfig, "caBundle");
      HttpClient client = clients.computeIfAbsent(caBundle,
          b -> HttpEndpoint.client(b.isEmpty() ? new byte[0] : Base64.getDecoder().decode(b)));
      return new HttpEndpoint(uri, client);
    } catch (RuntimeException e) {
      String why = e.getMessage() == null ? e.toString() : e.getMessage();
      return (request, version, mutating, timeout) -> CompletableFuture.failedFuture(
          new WebhookCallException("could not get REST client", why));
    }
  }

  static URI uri(Value clientConfig) {
    String url = Nested.str(clientConfig, "url");
    try {
      if (!url.isEmpty()) {
        return new URI(url);
      }
      Value service = Nested.getOrNull(clientConfig, "service");
      if (service == null) {
        throw new IllegalArgumentException("exactly one of url or service is required");
      }
      long port = Nested.has(service, "port") ? Nested.integer(service, "port") : 443;
      String path = Nested.str(service, "path");
      return new URI("https://" + Nested.str(service, "name") + "."
          + Nested.str(service, "namespace") + ".svc:" + port + path);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
