/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The value model every module shares.
 *
 * <ul>
 *   <li>Immutable values: {@link io.apiserver4j.core.Value} and its kinds (null, boolean,
 *       integer, float, string, {@link io.apiserver4j.core.ListValue},
 *       {@link io.apiserver4j.core.MapValue}), with {@link io.apiserver4j.core.Nested} for paths
 *       and {@link io.apiserver4j.core.Meta} for {@code apiVersion}, {@code kind} and
 *       {@code metadata}.
 *   <li>Codecs with Kubernetes' rules: {@link io.apiserver4j.core.Json},
 *       {@link io.apiserver4j.core.Yaml} (yaml.v2's YAML 1.1 scalars),
 *       {@link io.apiserver4j.core.DecodeLimits}.
 *   <li>Names: group/version/kind/resource records.
 *   <li>Errors: {@link io.apiserver4j.core.errors.Status} and the {@code StatusException} family, made
 *       by {@link io.apiserver4j.core.errors.StatusErrors} with kube-apiserver's reasons, codes and
 *       texts; Go's text conventions in {@link io.apiserver4j.core.GoStrings}.
 * </ul>
 */
package io.apiserver4j.core;
