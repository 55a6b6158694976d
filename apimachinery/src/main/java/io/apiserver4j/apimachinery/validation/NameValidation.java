/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

/** Which rule {@code metadata.name} (and {@code generateName}) must satisfy. */
public enum NameValidation {
  /** RFC 1123 subdomain: at most 253 characters of {@code [a-z0-9.-]} (most kinds). */
  DNS1123_SUBDOMAIN,
  /** RFC 1123 label: at most 63 characters of {@code [a-z0-9-]} (Namespace). */
  DNS1123_LABEL,
  /** RFC 1035 label: like a 1123 label but starting with a letter (Service). */
  DNS1035_LABEL,
  /** Any name usable as a URL path segment (custom resources). */
  PATH_SEGMENT
}
