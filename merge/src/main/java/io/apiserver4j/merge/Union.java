/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A one-of group of struct fields (SMD's {@code Union}). Kept in the model so schemas round-trip;
 * like SMD v6, the merge engine does not normalize unions.
 */
public final class Union {
  private final String discriminator;
  private final boolean deduceInvalidDiscriminator;
  private final List<UnionField> fields;

  private Union(String discriminator, boolean deduceInvalidDiscriminator, List<UnionField> fields) {
    this.discriminator = discriminator;
    this.deduceInvalidDiscriminator = deduceInvalidDiscriminator;
    this.fields = List.copyOf(fields);
  }

  /**
   * A union without discriminator.
   *
   * @param fields the members
   * @return the union
   */
  public static Union of(List<UnionField> fields) {
    return new Union(null, false, requireNonNull(fields, "fields"));
  }

  /**
   * A union whose {@code discriminator} field names the member that is set.
   *
   * @param discriminator the discriminator field's name
   * @param deduceInvalidDiscriminator whether an invalid discriminator value is deduced from the members set (SMD's {@code deduceInvalidDiscriminator})
   * @param fields the members
   * @return the union
   */
  public static Union discriminated(
      String discriminator, boolean deduceInvalidDiscriminator, List<UnionField> fields) {
    return new Union(
        requireNonNull(discriminator, "discriminator"),
        deduceInvalidDiscriminator,
        requireNonNull(fields, "fields"));
  }

  /**
   * The discriminator field.
   *
   * @return its name; empty for a union without one
   */
  public Optional<String> discriminator() {
    return Optional.ofNullable(discriminator);
  }

  /**
   * Whether an invalid discriminator value is deduced from the members set.
   *
   * @return SMD's {@code deduceInvalidDiscriminator}
   */
  public boolean deduceInvalidDiscriminator() {
    return deduceInvalidDiscriminator;
  }

  /**
   * The members.
   *
   * @return the members in schema order
   */
  public List<UnionField> fields() {
    return fields;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Union u
        && Objects.equals(discriminator, u.discriminator)
        && deduceInvalidDiscriminator == u.deduceInvalidDiscriminator
        && fields.equals(u.fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(discriminator, deduceInvalidDiscriminator, fields);
  }

  @Override
  public String toString() {
    return "Union{discriminator=" + discriminator + ", fields=" + fields + "}";
  }
}
