/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The continue token of a paged list, in kube-apiserver's wire format: unpadded URL-safe base64
 * of {@code {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key>"}}, where {@code start} is the
 * first key of the next page relative to the listed collection's prefix (the last returned key
 * plus {@code \u0000}). Opaque to clients; backends share this codec so tokens are portable.
 *
 * @param resourceVersion the revision of the first page; negative means "continue at the latest
 *     revision" (kube uses -1 for that)
 * @param startKey the relative start key, non-empty
 */
public record ContinueToken(long resourceVersion, String startKey) {
  private static final String VERSION = "meta.k8s.io/v1";

  /**
   * Checks the components.
   *
   * @param resourceVersion see the record component
   * @param startKey see the record component
   * @throws NullPointerException when the start key is null
   * @throws IllegalArgumentException when the start key is empty or the revision is 0
   */
  public ContinueToken {
    requireNonNull(startKey, "startKey");
    if (startKey.isEmpty()) {
      throw new IllegalArgumentException("startKey must not be empty");
    }
    if (resourceVersion == 0) {
      throw new IllegalArgumentException("resourceVersion must not be 0");
    }
  }

  /**
   * The token continuing right after {@code lastKey} in {@code collection} at {@code revision}.
   *
   * @param collection the listed collection
   * @param lastKey the last key of the returned page
   * @param revision the revision of the first page
   * @return the token
   */
  public static ContinueToken after(CollectionKey collection, ObjectKey lastKey, long revision) {
    String relative = lastKey.relativeKey();
    String prefix = collection.relativePrefix();
    if (!collection.contains(lastKey) || !relative.startsWith(prefix)) {
      throw new IllegalArgumentException(lastKey + " is not in " + collection);
    }
    return new ContinueToken(revision, relative.substring(prefix.length()) + "\0");
  }

  /**
   * The wire form.
   *
   * @return unpadded URL-safe base64 of the token's JSON
   */
  public String encode() {
    MapValue json = MapValue.builder(3)
        .put("v", Value.of(VERSION))
        .put("rv", Value.of(resourceVersion))
        .put("start", Value.of(startKey))
        .build();
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(Json.write(json).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes a client's token.
   *
   * @throws io.apiserver4j.core.errors.BadRequestException {@code invalid continue token: continue key is
   *     not valid...} as kube-apiserver reports it
   * @param token the client's {@code continue} value
   * @return the decoded token
   */
  public static ContinueToken decode(String token) {
    requireNonNull(token, "token");
    byte[] data;
    try {
      data = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid("continue key is not valid: illegal base64 data");
    }
    Value v;
    try {
      v = Json.read(data);
    } catch (DecodeException e) {
      throw invalid("continue key is not valid: " + e.getMessage());
    }
    if (!(v instanceof MapValue m)) {
      throw invalid("continue key is not valid: json: cannot unmarshal into Go value of type "
          + "storage.continueToken");
    }
    String version = m.getOrNull("v") instanceof StringValue s ? s.value() : "";
    Value rvValue = m.getOrNull("rv");
    long rv = rvValue instanceof IntegerValue i ? i.value() : 0;
    if (rvValue != null && !(rvValue instanceof IntegerValue) && !rvValue.equals(Value.nullValue())) {
      throw invalid("continue key is not valid: json: cannot unmarshal into Go struct field "
          + "continueToken.rv of type int64");
    }
    String start = m.getOrNull("start") instanceof StringValue s ? s.value() : "";
    if (!VERSION.equals(version)) {
      throw invalid("continue key is not valid: server does not recognize this encoded version "
          + version);
    }
    if (rv == 0) {
      throw invalid("continue key is not valid: incorrect encoded start resourceVersion "
          + "(version meta.k8s.io/v1)");
    }
    if (start.isEmpty()) {
      throw invalid("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)");
    }
    // reject keys that would escape the listed prefix, as kube does with path.Clean
    String key = start.startsWith("/") ? start : "/" + start;
    if (!isCleanPath(key)) {
      throw invalid("continue key is not valid: " + start);
    }
    return new ContinueToken(rv, key.substring(1));
  }

  /**
   * The absolute start key within the resource ({@code namespace/name\0} form).
   *
   * @param collection the collection being listed
   * @return the start key, with the collection's prefix
   */
  public String relativeStartKey(CollectionKey collection) {
    return collection.relativePrefix() + startKey;
  }

  private static boolean isCleanPath(String p) {
    if (p.equals("/")) {
      return true;
    }
    if (p.endsWith("/")) {
      return false;
    }
    int i = 1;
    while (i <= p.length()) {
      int next = p.indexOf('/', i);
      if (next < 0) {
        next = p.length();
      }
      String segment = p.substring(i, next);
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return false;
      }
      i = next + 1;
    }
    return true;
  }

  private static RuntimeException invalid(String detail) {
    return StoreErrors.invalidContinueToken(detail);
  }
}
