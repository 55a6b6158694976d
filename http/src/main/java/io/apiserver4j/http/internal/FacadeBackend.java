package io.apiserver4j.http.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceRegistry;

/** The {@link Backend} of an {@link ApiServer}. */
public final class FacadeBackend implements Backend {
  private final ApiServer server;

  public FacadeBackend(ApiServer server) {
    this.server = server;
  }

  @Override
  public ResourceRegistry registry() {
    return server.registry();
  }

  @Override
  public ApiResponse execute(ApiRequest request) {
    return server.handle(request);
  }

  @Override
  public ApiWatch watch(ApiRequest request) {
    return server.watch(request);
  }

  @Override
  public java.util.Optional<String> storageCheck() {
    return server.storageCheck();
  }
}
