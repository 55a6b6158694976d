/**
 * The Kubernetes 1.36 built-in API as data: the served resources with their discovery facts,
 * schemas and protobuf descriptors, generated from the upstream API definitions (see NOTICE).
 */
package io.apiserver4j.kubeapi;
