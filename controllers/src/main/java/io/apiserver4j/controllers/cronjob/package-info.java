/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * kube's cronjob controller (pkg/controller/cronjob, the v2 controller): Jobs created from
 * each CronJob's template at its schedule's times on the server clock, with kube's names,
 * starting deadline, concurrency policy, status and history limits.
 */
package io.apiserver4j.controllers.cronjob;
