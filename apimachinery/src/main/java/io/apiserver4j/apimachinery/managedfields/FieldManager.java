/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.gvkString;
import static io.apiserver4j.apimachinery.managedfields.ManagerErrors.plainError;
import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.ManagedFields;
import io.apiserver4j.merge.ConflictsException;
import io.apiserver4j.merge.Force;
import io.apiserver4j.merge.ParseableType;
import io.apiserver4j.merge.Updater;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's managed-fields manager of one endpoint (a kind at a version, on the main
 * resource or a subresource): it decodes {@code metadata.managedFields}, runs kube's chain of
 * {@link Manager}s and encodes the result (kube's {@code FieldManager} in fieldmanager.go). The
 * chain, outermost first, is kube's {@code NewDefaultFieldManager}: version check, last-applied
 * updater, last-applied manager, skip-non-applied, cap managers, build manager info,
 * managed-fields updater, strip meta, structured merge.
 *
 * <p>Immutable and thread-safe; build one per endpoint with {@link #builder}.
 */
public final class FieldManager {
  /** kube's {@code DefaultMaxUpdateManagers}: the cap on Update entries. */
  public static final int DEFAULT_MAX_UPDATE_MANAGERS = 10;
  /** The annotation kubectl's client-side apply keeps. */
  public static final String LAST_APPLIED_ANNOTATION = LastApplied.ANNOTATION;

  private static final Logger LOG = LoggerFactory.getLogger(FieldManager.class);

  private final GroupVersionKind gvk;
  private final String subresource;
  private final Manager chain;
  private final ManagedFieldsCache cache;
  private final AtMostEvery errorLog;

  private FieldManager(Builder b) {
    this.gvk = b.gvk;
    this.subresource = b.subresource;
    Manager structured = new StructuredMergeManager(b.gvk, b.type, b.updater, b.objectConverter,
        b.objectDefaulter);
    Manager m = new VersionCheckManager(
        new LastAppliedUpdater(
            new LastAppliedManager(
                new SkipNonAppliedManager(
                    new CapManagersManager(
                        new BuildManagerInfoManager(
                            new ManagedFieldsUpdater(
                                new StripMetaManager(structured)),
                            b.gvk.apiVersion(), b.subresource),
                        b.maxUpdateManagers),
                    b.emptyObject != null ? b.emptyObject : MapValue.ofEntries("apiVersion",
                        Value.of(b.gvk.apiVersion()), "kind", Value.of(b.gvk.kind()))),
                b.type, b.gvk.apiVersion())),
        b.gvk);
    this.chain = b.decorator.apply(m);
    this.cache = b.cache != null ? b.cache : ManagedFieldsCache.ofSize(64);
    this.errorLog = new AtMostEvery(TimeUnit.SECONDS.toNanos(1), b.ticker);
  }

  /**
   * A builder for the endpoint serving {@code gvk} (for a scale subresource, the Scale kind)
   * whose objects have type {@code type}.
   */
  public static Builder builder(GroupVersionKind gvk, ParseableType type) {
    return new Builder(requireNonNull(gvk, "gvk"), requireNonNull(type, "type"));
  }

  /**
   * Records a non-apply write of {@code newObject} over {@code live} (kube's {@code Update}).
   * The request's managedFields are taken when they decode and are not empty (on the main
   * resource only), the live ones otherwise; {@code []} or {@code [{}]} resets them.
   *
   * @param live the stored object, or the kind's zero object on create
   * @param manager the field manager (already defaulted from the User-Agent)
   * @return {@code newObject} with its new managedFields
   * @throws RuntimeException when the ownership cannot be computed
   */
  public MapValue update(MapValue live, MapValue newObject, String manager, Instant now) {
    requireNonNull(live, "live");
    requireNonNull(newObject, "newObject");
    requireNonNull(manager, "manager");
    requireNonNull(now, "now");
    Managed managed = decodeLiveOrNew(live, newObject);
    MapValue stripped = Meta.withoutMeta(newObject, "managedFields");
    ManagerResult r = chain.update(live, stripped, managed, manager, now);
    if (!(r instanceof ManagerResult.Changed c)) {
      throw new IllegalStateException("the manager chain of " + gvkString(gvk)
          + " returned no object for an update");
    }
    return encode(c.object(), c.managed());
  }

  /**
   * {@link #update} that never fails (kube's {@code UpdateNoErrors}): on an error it is logged
   * (at most once a second per manager, with its stack) and {@code newObject} is returned with
   * its managedFields removed, so that no garbage is stored in them.
   */
  public MapValue updateNoErrors(MapValue live, MapValue newObject, String manager,
      Instant now) {
    try {
      return update(live, newObject, manager, now);
    } catch (RuntimeException e) {
      errorLog.run(() -> LOG.error("[SHOULD NOT HAPPEN] failed to update managedFields of {}"
          + " {}/{}", objectKind(newObject), orUnknown(Meta.metaString(newObject, "namespace")),
          orUnknown(Meta.metaString(newObject, "name")), e));
      return Meta.withoutMeta(newObject, "managedFields");
    }
  }

  private static String objectKind(MapValue obj) {
    return ManagerErrors.gvkString(GroupVersionKind.of(Meta.string(obj, "apiVersion"),
        Meta.string(obj, "kind")));
  }

  private static String orUnknown(String s) {
    return s.isEmpty() ? "unknown" : s;
  }

  /**
   * Applies {@code applied} for {@code manager} onto {@code live} (kube's {@code Apply}).
   *
   * @param live the stored object, or the kind's zero object (no uid) when it does not exist
   * @return the merged object with its managedFields
   * @throws io.apiserver4j.core.errors.StatusException 400 for a wrong kind or version or managedFields
   *     in the configuration, 409 with the conflicts, 500 when the configuration does not fit the
   *     schema or the live managedFields do not decode (as kube-apiserver)
   */
  public MapValue apply(MapValue live, MapValue applied, String manager, Force force,
      Instant now) {
    requireNonNull(live, "live");
    requireNonNull(applied, "applied");
    requireNonNull(manager, "manager");
    requireNonNull(force, "force");
    requireNonNull(now, "now");
    Managed managed;
    try {
      managed = cache.decode(Meta.metaValue(live, "managedFields"));
    } catch (RuntimeException e) {
      throw plainError("failed to decode managed fields: " + e.getMessage());
    }
    ManagerResult r;
    try {
      r = chain.apply(live, applied, managed, manager, force, now);
    } catch (ConflictsException e) {
      throw ConflictError.of(e.conflicts());
    }
    if (!(r instanceof ManagerResult.Changed c)) {
      throw new IllegalStateException("the manager chain of " + gvkString(gvk)
          + " returned no object for an apply");
    }
    return encode(c.object(), c.managed());
  }

  /**
   * kube's {@code ValidateManagedFields}: why {@code managedFields} do not decode, if they do
   * not.
   */
  public static Optional<String> validateManagedFields(Value managedFields) {
    requireNonNull(managedFields, "managedFields");
    try {
      ManagedFields.decode(managedFields);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(e.getMessage());
    }
  }

  private MapValue encode(MapValue object, Managed managed) {
    Managed.Encoded e = managed.encodeInto(object);
    e.list().ifPresent(l -> cache.remember(l, e.managed()));
    return e.object();
  }

  // kube's decodeLiveOrNew: a subresource never takes managedFields from the request, and a
  // request's managedFields that are empty or do not decode fall back to the live ones, so that
  // clients unaware of managedFields cannot drop them
  private Managed decodeLiveOrNew(MapValue live, MapValue newObject) {
    Value liveFields = Meta.metaValue(live, "managedFields");
    if (!subresource.isEmpty()) {
      return decodeOrEmpty(liveFields);
    }
    Value newFields = Meta.metaValue(newObject, "managedFields");
    if (isReset(newFields)) {
      return Managed.empty();
    }
    try {
      Managed m = cache.decode(newFields);
      if (!m.isEmpty()) {
        return m;
      }
    } catch (RuntimeException e) {
      // undecodable managedFields in a request are ignored: the live ones are used
    }
    return decodeOrEmpty(liveFields);
  }

  private Managed decodeOrEmpty(Value managedFields) {
    try {
      return cache.decode(managedFields);
    } catch (RuntimeException e) {
      return Managed.empty();
    }
  }

  /** Whether a request's managedFields ask for a reset: exactly {@code []} or {@code [{}]}. */
  static boolean isReset(Value managedFields) {
    if (!(managedFields instanceof ListValue l)) {
      return false;
    }
    if (l.isEmpty()) {
      return true;
    }
    if (l.size() != 1 || !(l.get(0) instanceof MapValue m)) {
      return false;
    }
    for (int i = 0; i < m.size(); i++) {
      Value v = m.valueAt(i);
      if (!v.isNull() && !(v instanceof StringValue s && s.value().isEmpty())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Configures a {@link FieldManager}. Options left unset take kube's defaults: the main
   * resource, a merge engine without conversion or reset fields, no conversion or defaulting of
   * applied objects, {@code {apiVersion, kind}} as the empty object, a cap of
   * {@value #DEFAULT_MAX_UPDATE_MANAGERS} Update entries, and a small cache of its own.
   */
  public static final class Builder {
    private final GroupVersionKind gvk;
    private final ParseableType type;
    private String subresource = "";
    private Updater updater = Updater.builder().build();
    private UnaryOperator<MapValue> objectConverter = UnaryOperator.identity();
    private UnaryOperator<MapValue> objectDefaulter = UnaryOperator.identity();
    private MapValue emptyObject;
    private int maxUpdateManagers = DEFAULT_MAX_UPDATE_MANAGERS;
    private ManagedFieldsCache cache;
    private LongSupplier ticker = System::nanoTime;
    private UnaryOperator<Manager> decorator = UnaryOperator.identity();

    private Builder(GroupVersionKind gvk, ParseableType type) {
      this.gvk = gvk;
      this.type = type;
    }

    /** The subresource served ({@code status}, {@code scale}); empty for the main resource. */
    public Builder subresource(String subresource) {
      this.subresource = requireNonNull(subresource, "subresource");
      return this;
    }

    /** The merge engine, with the endpoint's version converter and reset fields. */
    public Builder updater(Updater updater) {
      this.updater = requireNonNull(updater, "updater");
      return this;
    }

    /**
     * Converts the merged object of an apply to the endpoint's typed form (kube's conversion to
     * the Go type); throws {@link ObjectConversionException} when it does not convert.
     */
    public Builder objectConverter(UnaryOperator<MapValue> objectConverter) {
      this.objectConverter = requireNonNull(objectConverter, "objectConverter");
      return this;
    }

    /** Defaults the converted object of an apply (kube's object defaulter). */
    public Builder objectDefaulter(UnaryOperator<MapValue> objectDefaulter) {
      this.objectDefaulter = requireNonNull(objectDefaulter, "objectDefaulter");
      return this;
    }

    /**
     * The kind's zero object (what kube's object creater makes), against which the
     * {@code before-first-apply} manager of an object without managedFields is computed.
     */
    public Builder emptyObject(MapValue emptyObject) {
      this.emptyObject = requireNonNull(emptyObject, "emptyObject");
      return this;
    }

    /**
     * The cap on Update entries.
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder maxUpdateManagers(int maxUpdateManagers) {
      if (maxUpdateManagers < 0) {
        throw new IllegalArgumentException("maxUpdateManagers must not be negative, got "
            + maxUpdateManagers);
      }
      this.maxUpdateManagers = maxUpdateManagers;
      return this;
    }

    /** The decoded-managedFields cache, shared by the field managers of one server. */
    public Builder cache(ManagedFieldsCache cache) {
      this.cache = requireNonNull(cache, "cache");
      return this;
    }

    /** The nanosecond ticker that spaces the error log of {@link #updateNoErrors}. */
    public Builder ticker(LongSupplier ticker) {
      this.ticker = requireNonNull(ticker, "ticker");
      return this;
    }

    // kube's test hook: wraps the whole chain (tests put failing or recording managers there)
    Builder decorator(UnaryOperator<Manager> decorator) {
      this.decorator = requireNonNull(decorator, "decorator");
      return this;
    }

    /** The field manager. */
    public FieldManager build() {
      return new FieldManager(this);
    }
  }
}
