/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.examples.embedding;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.merge.Force;

/**
 * An API server embedded in a few lines: a custom resource is registered through a
 * CustomResourceDefinition, two field managers apply it, and the second one's change of a
 * field the first owns is refused with a server-side apply conflict (then forced).
 *
 * <p>Run: {@code java -cp examples/target/... io.apiserver4j.examples.embedding.EmbeddingExample}
 */
public final class EmbeddingExample {
  private static final String CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: crontabs.stable.example.com
      spec:
        group: stable.example.com
        scope: Namespaced
        names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct]}
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    cronSpec: {type: string}
                    image: {type: string}
                    replicas: {type: integer}
      """;

  private EmbeddingExample() {}

  public static void main(String[] args) {
    try (ApiServer server = ApiServer.builder().build()) {
      server.resources("apiextensions.k8s.io/v1", "customresourcedefinitions")
          .apply("example", CRD);
      ResourceClient crontabs = server.resources("stable.example.com/v1", "crontabs")
          .namespace("default");

      crontabs.apply("alice", """
          apiVersion: stable.example.com/v1
          kind: CronTab
          metadata: {name: backup}
          spec: {cronSpec: "*/5 * * * *", image: backup:1}
          """);
      MapValue shared = crontabs.apply("bob", """
          apiVersion: stable.example.com/v1
          kind: CronTab
          metadata: {name: backup}
          spec: {replicas: 2}
          """);
      System.out.println("after two appliers: "
          + Json.write(((MapValue) shared.getOrNull("metadata")).getOrNull("managedFields")));

      String bobsChange = """
          apiVersion: stable.example.com/v1
          kind: CronTab
          metadata: {name: backup}
          spec: {replicas: 2, image: backup:2}
          """;
      try {
        crontabs.apply("bob", bobsChange);
      } catch (ConflictException e) {
        System.out.println("conflict: " + e.getMessage());
        for (StatusCause cause : e.status().causes()) {
          System.out.println("  " + cause.field() + ": " + cause.message());
        }
      }
      MapValue forced = crontabs.apply("bob", bobsChange, Force.YES);
      System.out.println("forced: " + Json.write(forced.getOrNull("spec")));
    }
  }
}
