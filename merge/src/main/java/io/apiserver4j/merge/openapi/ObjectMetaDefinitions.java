/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;

/**
 * OpenAPI v3 schemas of {@code metadata} and the types it refers to, as kube-apiserver publishes
 * them for {@code meta/v1}. Custom resources get their {@code metadata} typed by these, exactly
 * as the CRD handler merges the built-in definitions into each CRD's OpenAPI models.
 */
final class ObjectMetaDefinitions {
  static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  static final String OBJECT_META = META + "ObjectMeta";

  // Only what affects merging is kept: structure, list and map semantics, and defaults.
  private static final String SCHEMAS = """
      {
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
          "type": "object",
          "properties": {
            "name": {"type": "string"},
            "generateName": {"type": "string"},
            "namespace": {"type": "string"},
            "selfLink": {"type": "string"},
            "uid": {"type": "string"},
            "resourceVersion": {"type": "string"},
            "generation": {"type": "integer", "format": "int64"},
            "creationTimestamp": {
              "default": {},
              "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}]
            },
            "deletionTimestamp": {
              "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}]
            },
            "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
            "labels": {
              "type": "object",
              "additionalProperties": {"type": "string", "default": ""}
            },
            "annotations": {
              "type": "object",
              "additionalProperties": {"type": "string", "default": ""}
            },
            "ownerReferences": {
              "type": "array",
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["uid"],
              "x-kubernetes-patch-strategy": "merge",
              "x-kubernetes-patch-merge-key": "uid",
              "items": {
                "default": {},
                "allOf": [
                  {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"}
                ]
              }
            },
            "finalizers": {
              "type": "array",
              "x-kubernetes-list-type": "set",
              "x-kubernetes-patch-strategy": "merge",
              "items": {"type": "string", "default": ""}
            },
            "managedFields": {
              "type": "array",
              "items": {
                "default": {},
                "allOf": [
                  {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry"}
                ]
              }
            }
          }
        },
        "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference": {
          "type": "object",
          "x-kubernetes-map-type": "atomic",
          "required": ["apiVersion", "kind", "name", "uid"],
          "properties": {
            "apiVersion": {"type": "string", "default": ""},
            "kind": {"type": "string", "default": ""},
            "name": {"type": "string", "default": ""},
            "uid": {"type": "string", "default": ""},
            "controller": {"type": "boolean"},
            "blockOwnerDeletion": {"type": "boolean"}
          }
        },
        "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry": {
          "type": "object",
          "properties": {
            "manager": {"type": "string"},
            "operation": {"type": "string"},
            "apiVersion": {"type": "string"},
            "time": {
              "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"}]
            },
            "fieldsType": {"type": "string"},
            "fieldsV1": {
              "allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"}]
            },
            "subresource": {"type": "string"}
          }
        },
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time": {"type": "string", "format": "date-time"},
        "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": {"type": "object"}
      }
      """;

  private static final MapValue DEFINITIONS = (MapValue) Json.read(SCHEMAS);

  private ObjectMetaDefinitions() {}

  /** Schema name to OpenAPI v3 schema, for every type {@code metadata} needs. */
  static MapValue definitions() {
    return DEFINITIONS;
  }
}
