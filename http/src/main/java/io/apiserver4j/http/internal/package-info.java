/** The HTTP binding's implementation (routing, content, discovery, OpenAPI, watches); not API. */
package io.apiserver4j.http.internal;
