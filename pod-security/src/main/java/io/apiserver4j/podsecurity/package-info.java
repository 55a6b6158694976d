/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Pod Security Standards: {@link io.apiserver4j.podsecurity.Level levels},
 * {@link io.apiserver4j.podsecurity.PolicyVersion policy versions}, the
 * {@link io.apiserver4j.podsecurity.Checks checks} and their
 * {@link io.apiserver4j.podsecurity.Evaluator evaluator}, namespace
 * {@link io.apiserver4j.podsecurity.Policy policies}, the
 * {@link io.apiserver4j.podsecurity.PodSecurityConfiguration configuration} and the
 * {@link io.apiserver4j.podsecurity.PodSecurityAdmission PodSecurity admission plugin}. Mirrors
 * kube's {@code k8s.io/pod-security-admission} (packages {@code api}, {@code policy},
 * {@code admission}) with its messages.
 */
package io.apiserver4j.podsecurity;
