/** The Kubernetes CEL environment: rules compiled once, evaluated over apiserver4j values. */
package io.apiserver4j.cel;
