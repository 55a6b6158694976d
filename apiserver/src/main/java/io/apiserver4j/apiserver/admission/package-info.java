/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube-apiserver's in-process admission plugins as a server builds them: the ordered list a
 * built-in API declares ({@link io.apiserver4j.apiserver.admission.BuiltinAdmissionPlugin}), what
 * a plugin reads the server through ({@link io.apiserver4j.apiserver.admission.AdmissionPluginContext})
 * and the {@code --admission-control-config-file} reader.
 */
package io.apiserver4j.apiserver.admission;
