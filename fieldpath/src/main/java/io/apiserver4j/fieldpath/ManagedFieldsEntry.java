/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.Optional;

/**
 * One entry of {@code metadata.managedFields}: which manager owns which fields, recorded by
 * which operation at which API version. The wire form always has {@code fieldsType: FieldsV1}.
 *
 * @param manager the field manager; may be empty (kube-apiserver's decoder accepts that)
 * @param operation apply or update
 * @param apiVersion the group/version the fields are expressed in; never empty
 * @param time when the manager last changed something; kept with the precision it was given but
 *     encoded and ordered with whole seconds, as kube-apiserver does
 * @param fields the owned fields
 * @param subresource the subresource that served the write ({@code status}, {@code scale}), or
 *     empty for the main resource
 */
public record ManagedFieldsEntry(String manager, ManagedFieldsOperation operation,
    String apiVersion, Optional<Instant> time, FieldSet fields, String subresource) {

  /**
   * Checks the components.
   *
   * @param manager see the record component
   * @param operation see the record component
   * @param apiVersion see the record component
   * @param time see the record component
   * @param fields see the record component
   * @param subresource see the record component
   * @throws NullPointerException when a component is null
   * @throws IllegalArgumentException when {@code apiVersion} is empty
   */
  public ManagedFieldsEntry {
    requireNonNull(manager, "manager");
    requireNonNull(operation, "operation");
    requireNonNull(apiVersion, "apiVersion");
    requireNonNull(time, "time");
    requireNonNull(fields, "fields");
    requireNonNull(subresource, "subresource");
    if (apiVersion.isEmpty()) {
      throw new IllegalArgumentException("apiVersion must not be empty");
    }
  }

  /**
   * An entry for the main resource without a time.
   *
   * @param manager the field manager
   * @param operation apply or update
   * @param apiVersion the version the fields are expressed in; not empty
   * @param fields the owned fields
   * @return the entry
   */
  public static ManagedFieldsEntry of(String manager, ManagedFieldsOperation operation,
      String apiVersion, FieldSet fields) {
    return new ManagedFieldsEntry(manager, operation, apiVersion, Optional.empty(), fields, "");
  }

  /**
   * This entry owning other fields.
   *
   * @param newFields the owned fields
   * @return a copy with {@code fields} replaced
   */
  public ManagedFieldsEntry withFields(FieldSet newFields) {
    return new ManagedFieldsEntry(manager, operation, apiVersion, time, newFields, subresource);
  }

  /**
   * This entry changed at another time.
   *
   * @param newTime when the manager last changed something
   * @return a copy with {@code time} set
   */
  public ManagedFieldsEntry withTime(Instant newTime) {
    requireNonNull(newTime, "newTime");
    return new ManagedFieldsEntry(manager, operation, apiVersion, Optional.of(newTime), fields,
        subresource);
  }

  /**
   * This entry without a time.
   *
   * @return a copy with an empty {@code time}
   */
  public ManagedFieldsEntry withoutTime() {
    return new ManagedFieldsEntry(manager, operation, apiVersion, Optional.empty(), fields,
        subresource);
  }

  /**
   * This entry recorded through another subresource.
   *
   * @param newSubresource the subresource, or empty for the main resource
   * @return a copy with {@code subresource} replaced
   */
  public ManagedFieldsEntry withSubresource(String newSubresource) {
    return new ManagedFieldsEntry(manager, operation, apiVersion, time, fields, newSubresource);
  }

  /**
   * Whether a server-side apply recorded this entry.
   *
   * @return true for {@link ManagedFieldsOperation#APPLY}
   */
  public boolean isApply() {
    return operation == ManagedFieldsOperation.APPLY;
  }

  /**
   * kube-apiserver's manager identifier: the compact JSON of the entry without time and fields,
   * and without apiVersion for Apply entries, e.g.
   * {@code {"manager":"foo","operation":"Update","apiVersion":"v1"}} or
   * {@code {"manager":"foo","operation":"Apply","subresource":"scale"}}. There is at most one
   * entry per identity.
   *
   * @return the identity as compact JSON
   */
  public String identity() {
    StringBuilder sb = new StringBuilder(64).append('{');
    boolean first = true;
    if (!manager.isEmpty()) {
      sb.append("\"manager\":");
      GoJson.appendQuoted(sb, manager);
      first = false;
    }
    sb.append(first ? "" : ",").append("\"operation\":\"").append(operation.wireName())
        .append('"');
    if (operation == ManagedFieldsOperation.UPDATE) {
      sb.append(",\"apiVersion\":");
      GoJson.appendQuoted(sb, apiVersion);
    }
    if (!subresource.isEmpty()) {
      sb.append(",\"subresource\":");
      GoJson.appendQuoted(sb, subresource);
    }
    return sb.append('}').toString();
  }

  /**
   * The wire form, keys in kube's order ({@code manager, operation, apiVersion, time, fieldsType,
   * fieldsV1, subresource}) with empty manager, time and subresource omitted.
   *
   * @return the entry as a map, time in whole seconds
   */
  public MapValue toValue() {
    MapValue.Builder b = MapValue.builder(7);
    if (!manager.isEmpty()) {
      b.putNew("manager", Value.of(manager));
    }
    b.putNew("operation", Value.of(operation.wireName()));
    b.putNew("apiVersion", Value.of(apiVersion));
    time.ifPresent(t -> b.putNew("time", Value.of(ManagedFields.formatTime(t))));
    b.putNew("fieldsType", Value.of(ManagedFields.FIELDS_V1));
    b.putNew("fieldsV1", FieldsV1.toValue(fields));
    if (!subresource.isEmpty()) {
      b.putNew("subresource", Value.of(subresource));
    }
    return b.build();
  }
}
