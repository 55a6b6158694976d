/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.authz.Auditor;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.authz.Authorizer;
import io.apiserver4j.authz.NonResourceDocument;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The HTTP layer's settings, fixed when the server starts.
 *
 * @param authenticator absent: every request runs as {@code unauthenticatedUser} (loopback only)
 * @param anonymous whether requests without credentials run as {@code system:anonymous}
 * @param maxRequestBodyBytes 0 for no limit
 * @param requestTimeout the default and maximum timeout of non-watch requests
 * @param minWatchTimeout watches without {@code timeoutSeconds} end after a random duration
 *     between this and twice this, as kube's {@code --min-request-timeout}
 * @param gitVersion the version {@code /version} reports, e.g. {@code v1.36.0}
 * @param documents further non-resource GET documents by path, given the server's base URL
 * @param auditor audits requests ({@link Auditor#none()} when auditing is off)
 */
public record ServerSettings(Optional<Authenticator> authenticator, boolean anonymous,
    Authorizer authorizer, UserInfo unauthenticatedUser, long maxRequestBodyBytes,
    Duration requestTimeout, Duration minWatchTimeout, Clock clock, String gitVersion,
    Map<String, Function<URI, NonResourceDocument>> documents, Auditor auditor) {}
