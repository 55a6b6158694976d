/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.internal;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.ApiServerTest.Lifecycle;
import io.apiserver4j.junit.ClientFactory;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.junit.TestApiServer;
import io.apiserver4j.junit.TestClock;
import io.apiserver4j.junit.TestKubeconfig;
import io.apiserver4j.junit.WithManifests;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extension behind {@link ApiServerTest}. Servers live in the extension context's store
 * (closed by JUnit with their scope), never in static state.
 */
public final class ApiServerExtension implements BeforeAllCallback, BeforeEachCallback,
    ParameterResolver {
  private static final Namespace NAMESPACE = Namespace.create(ApiServerExtension.class);
  private static final String SERVER = "server";
  private static final String FACTORIES = "factories";
  private static final Logger LOG = LoggerFactory.getLogger(ApiServerExtension.class);
  private static final List<Class<?>> BUILT_IN_TYPES = List.of(TestApiServer.class,
      ApiServer.class, HttpApiServer.class, TestClock.class, TestKubeconfig.class);

  /** Closes the server with the extension context that holds it. */
  private record Held(TestServer server) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      server.close();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    ApiServerTest config = config(context);
    if (config.lifecycle() == Lifecycle.PER_METHOD) {
      return;
    }
    if (context.getStore(NAMESPACE).get(SERVER, Held.class) != null) {
      return; // a @Nested class shares its enclosing class's server
    }
    TestServer server = start(context, config, classManifests(context));
    context.getStore(NAMESPACE).put(SERVER, new Held(server));
    injectStaticFields(context.getRequiredTestClass(), server);
    // with @TestInstance(PER_CLASS) the instance exists already, for non-static @BeforeAll methods
    context.getTestInstances().ifPresent(instances -> instances.getAllInstances()
        .forEach(instance -> injectFields(instance, server)));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    ApiServerTest config = config(context);
    List<String> methodManifests = context.getTestMethod()
        .flatMap(m -> AnnotationSupport.findAnnotation(m, WithManifests.class))
        .map(w -> List.of(w.value())).orElse(List.of());
    TestServer server;
    if (config.lifecycle() == Lifecycle.PER_METHOD) {
      List<String> manifests = new ArrayList<>(classManifests(context));
      manifests.addAll(methodManifests);
      server = start(context, config, manifests);
      context.getStore(NAMESPACE).put(SERVER, new Held(server));
      for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) && injectable(f, server)) {
            throw new ExtensionConfigurationException("static field " + c.getSimpleName() + "."
                + f.getName() + " cannot hold a server started per method; make it an instance"
                + " field or use a per-class lifecycle");
          }
        }
      }
    } else {
      server = server(context).orElseThrow();
      if (config.lifecycle() == Lifecycle.RESET_PER_METHOD) {
        server.reset();
      }
      if (!methodManifests.isEmpty()) {
        server.load(methodManifests.toArray(String[]::new));
      }
    }
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      injectFields(instance, server);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return BUILT_IN_TYPES.contains(type) || factories(context).containsKey(type);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    TestServer server = server(context).orElseThrow(() -> new ParameterResolutionException(
        "no API server is running yet for " + parameter.getDeclaringExecutable() + ": with"
            + " lifecycle PER_METHOD, inject into test and @BeforeEach methods only"));
    return value(type, server);
  }

  // ---------------------------------------------------------------- helpers

  private static ApiServerTest config(ExtensionContext context) {
    for (Optional<Class<?>> c = context.getTestClass(); c.isPresent();
        c = Optional.ofNullable(c.get().getEnclosingClass())) {
      Optional<ApiServerTest> a = AnnotationSupport.findAnnotation(c.get(), ApiServerTest.class);
      if (a.isPresent()) {
        return a.get();
      }
    }
    throw new ExtensionConfigurationException(ApiServerExtension.class.getSimpleName()
        + " needs @ApiServerTest on the test class: register it with that annotation");
  }

  private static List<String> classManifests(ExtensionContext context) {
    List<String> out = new ArrayList<>();
    List<Class<?>> chain = new ArrayList<>();
    for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
      chain.add(0, c);
    }
    for (Class<?> c : chain) {
      AnnotationSupport.findAnnotation(c, WithManifests.class)
          .ifPresent(w -> out.addAll(List.of(w.value())));
    }
    return out;
  }

  private static TestServer start(ExtensionContext context, ApiServerTest config,
      List<String> manifests) {
    ClassLoader loader = context.getRequiredTestClass().getClassLoader();
    KubeVersion version;
    try {
      version = config.kubernetesVersion().isEmpty() ? KubeVersion.latest()
          : KubeVersion.parse(config.kubernetesVersion());
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("@ApiServerTest(kubernetesVersion = \""
          + config.kubernetesVersion() + "\"): " + e.getMessage(), e);
    }
    try {
      io.apiserver4j.kubeapi.FeatureGates.parse(version, config.featureGates());
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException("@ApiServerTest(featureGates = \""
          + config.featureGates() + "\"): " + e.getMessage(), e);
    }
    List<String> controllers = new java.util.ArrayList<>(List.of(config.controllers()));
    if (config.garbageCollection()) {
      // the old attribute as an alias: enabling it where the list does not decide already
      controllers.add("garbagecollector");
    }
    return TestServer.start(manifests, loader, factories(context), controllers,
        new TestServer.Admission(List.of(config.enableAdmissionPlugins()),
            List.of(config.disableAdmissionPlugins()), config.admissionControlConfigFile()),
        version, config.featureGates(), config.nodes());
  }

  private static Map<Class<?>, ClientFactory<?>> factories(ExtensionContext context) {
    ClassLoader loader = context.getTestClass().map(Class::getClassLoader)
        .orElseGet(() -> Thread.currentThread().getContextClassLoader());
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(FACTORIES,
        k -> prepared(TestServer.loadFactories(loader)), Factories.class).byType();
  }

  /**
   * The factories, each preparing on a background thread: a client library's cold start (class
   * loading, thread pools) then overlaps the first server's instead of following it.
   */
  private static Factories prepared(Map<Class<?>, ClientFactory<?>> byType) {
    for (ClientFactory<?> f : byType.values()) {
      // create() meets the same failure and reports it to the test that needs the client
      inBackground("apiserver4j-prepare-" + f.type().getSimpleName(), f::prepare,
          f.getClass().getName());
    }
    if (!byType.isEmpty()) {
      // clients talk HTTP: the first server will start Jetty, whose cold start this overlaps
      inBackground("apiserver4j-prepare-http", HttpApiServer::prepare, "the HTTP server");
    }
    return new Factories(byType);
  }

  /** Preparation work, which may fail with any exception. */
  interface Preparation {
    void run() throws Exception;
  }

  /** Runs {@code work} on a daemon thread {@code name}, logging a failure to prepare {@code what}. */
  static void inBackground(String name, Preparation work, String what) {
    Thread t = new Thread(() -> {
      try {
        work.run();
      } catch (Exception | LinkageError e) {
        LOG.warn("preparing {} failed", what, e);
      }
    }, name);
    t.setDaemon(true);
    t.start();
  }

  /** The client factories of one test run, shut down when the run ends. */
  private record Factories(Map<Class<?>, ClientFactory<?>> byType)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() throws Exception {
      Exception failure = null;
      for (ClientFactory<?> f : byType.values()) {
        try {
          f.shutdown();
        } catch (Exception e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }

  private static Optional<TestServer> server(ExtensionContext context) {
    return Optional.ofNullable(context.getStore(NAMESPACE).get(SERVER, Held.class))
        .map(Held::server);
  }

  private static boolean injectable(Field f, TestServer server) {
    return !Modifier.isFinal(f.getModifiers())
        && (BUILT_IN_TYPES.contains(f.getType()) || server.makes(f.getType()));
  }

  private static Object value(Class<?> type, TestServer server) {
    if (type == TestApiServer.class) {
      return server;
    } else if (type == ApiServer.class) {
      return server.api();
    } else if (type == HttpApiServer.class) {
      return server.http();
    } else if (type == TestClock.class) {
      return server.clock();
    } else if (type == TestKubeconfig.class) {
      return server.kubeconfig();
    }
    return server.client(type);
  }

  private static void injectStaticFields(Class<?> testClass, TestServer server) {
    for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && injectable(f, server)) {
          set(f, null, server);
        }
      }
    }
  }

  private static void injectFields(Object instance, TestServer server) {
    for (Class<?> c = instance.getClass(); c != null; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers()) && injectable(f, server)) {
          set(f, instance, server);
        }
      }
    }
  }

  private static void set(Field f, Object instance, TestServer server) {
    try {
      f.setAccessible(true);
      f.set(instance, value(f.getType(), server));
    } catch (IllegalAccessException | RuntimeException e) {
      throw new ExtensionConfigurationException("cannot inject " + f, e);
    }
  }
}
