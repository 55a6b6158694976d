package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.plugins.NamespacePhase;
import io.apiserver4j.admission.plugins.NamespaceStore;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import java.util.Optional;

/**
 * The server's namespaces as the namespace admission plugins see them: the phase read from
 * storage (current, not cached), and creation through the pipeline, as kube-apiserver's
 * loopback client creates them.
 */
public final class ServerNamespaces implements NamespaceStore {
  private static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");

  private volatile Pipeline pipeline;

  void bind(Pipeline p) {
    this.pipeline = p;
  }

  private Pipeline pipeline() {
    Pipeline p = pipeline;
    if (p == null) {
      throw new IllegalStateException("the server is not built yet");
    }
    return p;
  }

  @Override
  public Optional<NamespacePhase> phase(String namespace) {
    return pipeline().store.get(new ObjectKey("", "namespaces", "", namespace)).map(o -> {
      Value phase = Paths.get(o.object(), "status", "phase");
      return phase instanceof StringValue s && s.value().equals("Terminating")
          ? NamespacePhase.TERMINATING : NamespacePhase.ACTIVE;
    });
  }

  @Override
  public void create(String namespace) {
    MapValue body = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
        "metadata", MapValue.ofEntries("name", Value.of(namespace)));
    pipeline().handle(ApiRequest.builder(ApiRequest.Verb.CREATE, NAMESPACES).body(body)
        .userAgent("kube-apiserver/v1.0.0 (linux/amd64)").build()).orThrow();
  }
}
