/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.junit.WithManifests;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Finds manifests on the class path or the file system and creates their objects. */
final class Manifests {
  static final Duration ESTABLISH_TIMEOUT = Duration.ofSeconds(30);
  /** Serializes opening and closing zip file systems of jars, shared per JVM. */
  private static final Object JARS = new Object();
  private static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

  private Manifests() {}

  /** One parsed document and where it came from. */
  record Document(String source, MapValue object) {}

  /** The documents of every location, in location order, then file-name order. */
  static List<Document> read(List<String> locations, ClassLoader loader) {
    List<Document> out = new ArrayList<>();
    for (String location : locations) {
      List<Map.Entry<String, String>> files = resolve(location, loader);
      if (files.isEmpty()) {
        throw new IllegalArgumentException("no manifest matches " + location
            + " on the class path or the file system");
      }
      for (Map.Entry<String, String> f : files) {
        List<Value> docs;
        try {
          docs = Yaml.readAll(f.getValue());
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(f.getKey() + ": " + e.getMessage(), e);
        }
        for (Value doc : docs) {
          addObjects(f.getKey(), doc, out);
        }
      }
    }
    return out;
  }

  private static void addObjects(String source, Value doc, List<Document> out) {
    if (doc == null || doc.isNull()) {
      return; // an empty document, e.g. after a trailing ---
    }
    if (!(doc instanceof MapValue m) || Nested.str(m, "apiVersion").isEmpty()
        || Nested.str(m, "kind").isEmpty()) {
      throw new IllegalArgumentException(source + ": a document without apiVersion and kind");
    }
    if (Nested.str(m, "kind").endsWith("List") && m.getOrNull("items") instanceof ListValue l) {
      for (Value item : l.items()) {
        addObjects(source, item, out);
      }
      return;
    }
    out.add(new Document(source, m));
  }

  /** Creates the documents: CRDs first (waiting until served), then namespaces, then the rest. */
  static void create(ApiServer server, List<Document> documents) {
    List<Document> crds = new ArrayList<>();
    List<Document> namespaces = new ArrayList<>();
    List<Document> rest = new ArrayList<>();
    for (Document d : documents) {
      GroupVersionKind gvk = gvk(d.object());
      if (gvk.group().equals("apiextensions.k8s.io")
          && gvk.kind().equals("CustomResourceDefinition")) {
        crds.add(d);
      } else if (gvk.group().isEmpty() && gvk.kind().equals("Namespace")) {
        namespaces.add(d);
      } else {
        rest.add(d);
      }
    }
    List<MapValue> created = new ArrayList<>();
    for (Document d : crds) {
      created.add(createOne(server, d));
    }
    for (MapValue crd : created) {
      awaitEstablished(server, crd);
    }
    for (Document d : namespaces) {
      createOne(server, d);
    }
    for (Document d : rest) {
      createOne(server, d);
    }
  }

  private static GroupVersionKind gvk(MapValue object) {
    String apiVersion = Nested.str(object, "apiVersion");
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? new GroupVersionKind("", apiVersion, Nested.str(object, "kind"))
        : new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1),
            Nested.str(object, "kind"));
  }

  private static MapValue createOne(ApiServer server, Document d) {
    GroupVersionKind gvk = gvk(d.object());
    ResourceDefinition def = server.registry().findByKind(gvk).orElseThrow(() ->
        new IllegalArgumentException(d.source() + ": the server does not serve " + gvk
            + " (a CustomResourceDefinition must be among the manifests)"));
    String namespace = "";
    if (def.namespaced()) {
      namespace = Nested.str(d.object(), "metadata", "namespace");
      if (namespace.isEmpty()) {
        namespace = "default";
      }
    }
    ApiResponse r = server.handle(ApiRequest.builder(Verb.CREATE, def.resource())
        .namespace(namespace).fieldManager(WithManifests.FIELD_MANAGER).body(d.object()).build());
    if (!r.isSuccess()) {
      StatusException e = StatusException.of(r.failure().orElseThrow());
      throw new IllegalStateException(d.source() + ": cannot create " + gvk.kind() + " "
          + Nested.str(d.object(), "metadata", "name") + ": " + e.getMessage(), e);
    }
    return r.body();
  }

  /** Waits (on a watch, never sleeping) until the CRD is Established and its versions served. */
  private static void awaitEstablished(ApiServer server, MapValue crd) {
    String name = Nested.str(crd, "metadata", "name");
    MapValue current = crd;
    try (ApiWatch watch = server.watch(ApiRequest.builder(Verb.WATCH, CRDS).name(name)
        .resourceVersion(Nested.str(crd, "metadata", "resourceVersion")).build())) {
      long deadline = System.nanoTime() + ESTABLISH_TIMEOUT.toNanos();
      while (!(established(current) && served(server, current))) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException("CustomResourceDefinition " + name
              + " was not established within " + ESTABLISH_TIMEOUT);
        }
        Optional<ApiWatchEvent> e = watch.poll(Duration.ofNanos(left));
        if (e.isPresent() && e.get().type().equals("ERROR")) {
          throw new IllegalStateException("watching CustomResourceDefinition " + name + ": "
              + e.get().object());
        }
        if (e.isPresent() && !e.get().type().equals("BOOKMARK")) {
          current = e.get().object();
        } else if (watch.isClosed()) {
          throw new IllegalStateException("the watch of CustomResourceDefinition " + name
              + " ended before it was established");
        }
        if (established(current) && !served(server, current)) {
          server.registry().awaitRevision(
              Long.parseLong(Nested.str(current, "metadata", "resourceVersion")),
              Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + name, e);
    }
  }

  private static boolean established(MapValue crd) {
    for (Value c : Nested.list(crd, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Established") && Nested.str(c, "status").equals("True")) {
        return true;
      }
    }
    return false;
  }

  private static boolean served(ApiServer server, MapValue crd) {
    String group = Nested.str(crd, "spec", "group");
    String plural = Nested.str(crd, "spec", "names", "plural");
    for (Value v : Nested.list(crd, "spec", "versions")) {
      if (Nested.bool(v, "served") && server.registry().find(
          new GroupVersionResource(group, Nested.str(v, "name"), plural)).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- locations

  /** (name, text) of every file {@code location} matches, in name order. */
  static List<Map.Entry<String, String>> resolve(String location, ClassLoader loader) {
    requireNonNull(location, "location");
    String clean = location.startsWith("/") && loader.getResource(location.substring(1)) != null
        ? location.substring(1) : location;
    int slash = clean.lastIndexOf('/');
    String dir = slash < 0 ? "" : clean.substring(0, slash);
    String last = clean.substring(slash + 1);
    boolean glob = last.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    if (!glob) {
      URL url = loader.getResource(clean);
      if (url != null) {
        return List.of(Map.entry(location, readUrl(url)));
      }
      Path file = Path.of(location);
      return Files.isRegularFile(file) ? List.of(Map.entry(location, readFile(file))) : List.of();
    }
    URL dirUrl = loader.getResource(dir.isEmpty() ? "" : dir + "/");
    if (dirUrl == null && !dir.isEmpty()) {
      dirUrl = loader.getResource(dir);
    }
    if (dirUrl != null) {
      return inDirectory(dirUrl, last, dir);
    }
    Path fsDir = dir.isEmpty() ? Path.of(".") : Path.of(location).getParent();
    return Files.isDirectory(fsDir) ? list(fsDir, last, dir) : List.of();
  }

  private static List<Map.Entry<String, String>> inDirectory(URL dirUrl, String glob, String dir) {
    URI uri;
    try {
      uri = dirUrl.toURI();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad class-path URL " + dirUrl, e);
    }
    if (uri.getScheme().equals("jar")) {
      synchronized (JARS) {
        return inJar(uri, glob, dir);
      }
    }
    return list(Path.of(uri), glob, dir);
  }

  private static List<Map.Entry<String, String>> inJar(URI uri, String glob, String dir) {
    try {
      FileSystem fs;
      boolean opened = false;
      try {
        fs = FileSystems.getFileSystem(uri);
      } catch (FileSystemNotFoundException e) {
        fs = FileSystems.newFileSystem(uri, Map.of());
        opened = true;
      }
      try {
        String inJar = uri.toString().substring(uri.toString().indexOf("!/") + 1);
        return list(fs.getPath(inJar), glob, dir);
      } finally {
        if (opened) {
          fs.close();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + uri, e);
    }
  }

  private static List<Map.Entry<String, String>> list(Path dir, String glob, String prefix) {
    PathMatcher matcher = dir.getFileSystem().getPathMatcher("glob:" + glob);
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        if (Files.isRegularFile(p) && matcher.matches(p.getFileName())) {
          files.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    Collections.sort(files, (a, b) -> a.getFileName().toString()
        .compareTo(b.getFileName().toString()));
    List<Map.Entry<String, String>> out = new ArrayList<>();
    for (Path p : files) {
      String name = (prefix.isEmpty() ? "" : prefix + "/") + p.getFileName();
      out.add(Map.entry(name, readFile(p)));
    }
    return out;
  }

  private static String readUrl(URL url) {
    try (InputStream in = url.openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + url, e);
    }
  }

  private static String readFile(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + p, e);
    }
  }
}
