/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import io.apiserver4j.apimachinery.decoding.GoFormat;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The strategic merge of apimachinery's {@code strategicpatch} (mergeMap and friends, with
 * {@code MergeParallelList} and {@code IgnoreUnmatchedNulls} on, as the server applies
 * patches), on immutable values. Each step follows the Go code's order of checks so that the
 * same inputs fail with the same error.
 */
final class StrategicMerger {
  static final String DIRECTIVE = "$patch";
  static final String RETAIN_KEYS = "$retainKeys";
  static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";
  static final String SET_ELEMENT_ORDER = "$setElementOrder";

  static final String BAD_JSON_DOC = "invalid JSON document";
  static final String BAD_PRIMITIVE_LIST = "invalid patch format of primitive list";
  static final String BAD_RETAIN_KEYS = "invalid patch format of retainKeys";
  static final String BAD_SET_ELEMENT_ORDER = "invalid patch format of setElementOrder list";

  private static final String GO_MAP = "map[string]interface {}";
  private static final String GO_SLICE = "[]interface {}";
  private static final StringValue DELETE = new StringValue("delete");
  private static final StringValue REPLACE = new StringValue("replace");
  private static final StringValue MERGE = new StringValue("merge");
  /** Stands for Go's nil when a merge key is absent or null. */
  private static final Object NIL = new Object();

  private StrategicMerger() {}

  static MapValue mergeMap(MapValue original, MapValue patch, PatchSchema schema) {
    Value directive = patch.getOrNull(DIRECTIVE);
    if (directive != null) {
      return mapDirective(directive, patch);
    }
    LinkedHashMap<String, Value> merged = entries(original);
    LinkedHashMap<String, Value> rest = entries(patch);
    retainKeys(merged, rest);
    setElementOrder(merged, rest, schema);

    for (Map.Entry<String, Value> entry : rest.entrySet()) {
      String key = entry.getKey();
      Value patchValue = entry.getValue();
      boolean deleteList = false;
      if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
        String field = extractKey(key, DELETE_FROM_PRIMITIVE_LIST, BAD_PRIMITIVE_LIST);
        deleteList = true;
        if (!field.isEmpty()) {
          key = field;
        }
      }
      if (patchValue instanceof NullValue) {
        merged.remove(key);
        continue;
      }
      Value current = merged.get(key);
      if (current == null || current.kind() != patchValue.kind()) {
        if (!deleteList) {
          putNew(merged, key, patchValue);
        }
        continue;
      }
      Value result;
      if (current instanceof MapValue currentMap) {
        PatchField field = schema.field(key);
        result = field.strategy() == PatchStrategy.REPLACE ? patchValue
            : mergeMap(currentMap, (MapValue) patchValue, field.schema());
      } else if (current instanceof ListValue currentList) {
        PatchField field = schema.field(key);
        result = list(mergeListField(currentList, (ListValue) patchValue, field, deleteList)
            .list(), currentList);
      } else {
        result = patchValue;
      }
      // An equal value keeps the live instance, so that a no-op patch returns the document.
      if (result != current && !result.equals(current)) {
        merged.put(key, result);
      }
    }
    return build(original, merged);
  }

  /** {@code $patch} in an object: replace it by the rest of the patch, or by {@code {}}. */
  private static MapValue mapDirective(Value directive, MapValue patch) {
    if (directive.equals(REPLACE)) {
      return patch.without(DIRECTIVE);
    }
    if (directive.equals(DELETE)) {
      return MapValue.empty();
    }
    throw unmapped(badPatchType(directive, patch));
  }

  /** Keeps only the live keys {@code $retainKeys} lists; every patched key must be listed. */
  private static void retainKeys(Map<String, Value> merged, Map<String, Value> rest) {
    if (!rest.containsKey(RETAIN_KEYS)) {
      return;
    }
    Value directive = rest.remove(RETAIN_KEYS);
    if (!(directive instanceof ListValue list)) {
      throw PatchErrors.badRequest(BAD_RETAIN_KEYS);
    }
    Set<Value> retained = new HashSet<>(list.items());
    for (Map.Entry<String, Value> e : rest.entrySet()) {
      String key = e.getKey();
      if (e.getValue() instanceof NullValue || key.startsWith(DELETE_FROM_PRIMITIVE_LIST)
          || key.startsWith(SET_ELEMENT_ORDER)) {
        continue;
      }
      if (!retained.contains(new StringValue(key))) {
        throw PatchErrors.badRequest(BAD_RETAIN_KEYS);
      }
    }
    merged.keySet().removeIf(key -> !retained.contains(new StringValue(key)));
  }

  /**
   * Merges every list named by a {@code $setElementOrder/<field>} directive and orders it:
   * the directive's order first, then the patch's, then the live list's.
   */
  private static void setElementOrder(Map<String, Value> merged, Map<String, Value> rest,
      PatchSchema schema) {
    List<String> directives = new ArrayList<>();
    for (String key : rest.keySet()) {
      if (key.startsWith(SET_ELEMENT_ORDER)) {
        directives.add(key);
      }
    }
    for (String directiveKey : directives) {
      Value orderValue = rest.remove(directiveKey);
      if (!(orderValue instanceof ListValue orderList)) {
        throw unmapped(badArgType(GO_SLICE, orderValue));
      }
      String key = extractKey(directiveKey, SET_ELEMENT_ORDER, BAD_SET_ELEMENT_ORDER);
      boolean foundOriginal = merged.containsKey(key);
      boolean foundPatch = rest.containsKey(key);
      ListValue originalList = ListValue.empty();
      ListValue patchList = ListValue.empty();
      if (foundOriginal) {
        originalList = asList(merged.get(key));
      }
      if (foundPatch) {
        patchList = asList(rest.get(key));
      }
      PatchField field = schema.field(key);
      String mergeKey = field.mergeKey().orElse("");
      validateAgainstOrder(patchList.items(), orderList.items(), mergeKey);

      Merged result;
      if (foundOriginal && !foundPatch) {
        result = new Merged(originalList.items(), originalList.items());
      } else if (!foundOriginal && foundPatch) {
        result = new Merged(((ListValue) removeDirectives(patchList)).items(), List.of());
      } else if (foundOriginal) {
        result = mergeListField(originalList, patchList, field, false);
      } else {
        continue;
      }
      Partition partition = partition(result.list(), orderList.items(), mergeKey);
      // kube reads the live list here through a slice header that the merge above may have
      // written through (see Merged), so the live order is the one of that view.
      Value.Kind kind = elementKind(result.originalView(), patchList.items());
      List<Value> ordered = normalizeOrder(partition.inPatch(), partition.serverOnly(),
          orderList.items(), result.originalView(), mergeKey, kind);
      merged.put(key, list(ordered, originalList));
      rest.remove(key);
    }
  }

  private static ListValue asList(Value value) {
    if (value instanceof ListValue list) {
      return list;
    }
    throw unmapped(badArgType(GO_SLICE, value));
  }

  /**
   * Checks that the patch list's elements (except deletions) appear in the
   * {@code $setElementOrder} list, in the same relative order.
   */
  private static void validateAgainstOrder(List<Value> patchList, List<Value> order,
      String mergeKey) {
    if (order.isEmpty() || patchList.isEmpty()) {
      return;
    }
    List<Value> kept = mergeKey.isEmpty() ? patchList : splitDeletions(patchList).kept();
    int p = 0;
    int o = 0;
    while (p < kept.size() && o < order.size()) {
      if (kept.get(p) instanceof MapValue m && m.containsKey(DIRECTIVE)) {
        p++;
        continue;
      }
      if (mergeKeyValueEqual(kept.get(p), order.get(o), mergeKey)) {
        p++;
      }
      o++;
    }
    if (p < kept.size() && o >= order.size()) {
      throw unmapped("The order in patch list:\n" + GoFormat.v(patchList) + "\n doesn't match "
          + SET_ELEMENT_ORDER + " list:\n" + GoFormat.v(order) + "\n");
    }
  }

  private static boolean mergeKeyValueEqual(Value left, Value right, String mergeKey) {
    if (mergeKey.isEmpty()) {
      return left.equals(right);
    }
    if (!(left instanceof MapValue l)) {
      throw unmapped(badArgType(GO_MAP, left));
    }
    if (!(right instanceof MapValue r)) {
      throw unmapped(badArgType(GO_MAP, right));
    }
    Value lv = l.getOrNull(mergeKey);
    if (lv == null) {
      throw unmapped(noMergeKey(l, mergeKey));
    }
    Value rv = r.getOrNull(mergeKey);
    if (rv == null) {
      throw unmapped(noMergeKey(r, mergeKey));
    }
    return lv.equals(rv);
  }

  /**
   * A merged list, and the live list as kube's Go code sees it afterwards through the original
   * slice header. The merge works in place on the decoded slice's backing array (deleting
   * elements shifts later ones down, new elements are appended into spare capacity, duplicate
   * scalars are swapped out), and the {@code $setElementOrder} step then orders server-only
   * elements by that view rather than by the untouched live list. kube's own tests depend on
   * this; it is modelled with the capacities that appending one element at a time gives
   * (decoding from JSON or protobuf does that), see {@link #goCapacity}.
   */
  private record Merged(List<Value> list, List<Value> originalView) {}

  private static Merged mergeListField(ListValue original, ListValue patch, PatchField field,
      boolean deleteList) {
    if (field.strategy() == PatchStrategy.MERGE || deleteList) {
      return mergeList(original.items(), patch.items(), field.schema().items(),
          field.mergeKey().orElse(""), deleteList);
    }
    return new Merged(patch.items(), original.items());
  }

  private static Merged mergeList(List<Value> original, List<Value> patch,
      PatchSchema itemSchema, String mergeKey, boolean deleteList) {
    if (original.isEmpty() && patch.isEmpty()) {
      return new Merged(original, original);
    }
    Value.Kind kind = elementKind(original, patch);
    int length = original.size();
    Value[] backing = Arrays.copyOf(original.toArray(new Value[0]), goCapacity(length));
    List<Value> merged;
    List<Value> serverOrder;
    if (kind != Value.Kind.MAP) {
      if (deleteList) {
        return new Merged(deleteScalars(original, patch), original);
      }
      merged = union(backing, length, patch);
      serverOrder = Arrays.asList(backing).subList(0, length);
    } else {
      if (mergeKey.isEmpty()) {
        throw unmapped("cannot merge lists without merge key for struct");
      }
      List<Value> withoutSpecial = new ArrayList<>(patch.size());
      boolean replace = false;
      for (Value item : patch) {
        MapValue element = (MapValue) item;
        Value directive = element.getOrNull(DIRECTIVE);
        if (directive == null) {
          withoutSpecial.add(item);
        } else if (directive.equals(DELETE)) {
          Value keyValue = element.getOrNull(mergeKey);
          if (keyValue == null) {
            throw unmapped(noMergeKey(element, mergeKey));
          }
          length = deleteMatching(backing, length, mergeKey, keyValue);
        } else if (directive.equals(REPLACE)) {
          // Keep going: the other directives are still pruned from the list.
          replace = true;
        } else if (directive.equals(MERGE)) {
          throw unmapped("merging lists cannot yet be specified in the patch");
        } else {
          throw unmapped(badPatchType(directive, element));
        }
      }
      if (replace) {
        serverOrder = withoutSpecial;
        patch = List.of();
        merged = mergeElements(withoutSpecial, null, 0, patch, mergeKey, itemSchema);
      } else {
        serverOrder = new ArrayList<>(Arrays.asList(backing).subList(0, length));
        patch = withoutSpecial;
        merged = mergeElements(serverOrder, backing, length, patch, mergeKey, itemSchema);
      }
    }
    Partition partition = partition(merged, patch, mergeKey);
    List<Value> ordered = normalizeOrder(partition.inPatch(), partition.serverOnly(), patch,
        serverOrder, mergeKey, kind);
    return new Merged(ordered, Arrays.asList(backing).subList(0, original.size()));
  }

  /**
   * The capacity of a Go slice of {@code length} elements built by appending one at a time
   * (doubling up to 256, then growing by about a quarter; allocator size classes ignored).
   */
  static int goCapacity(int length) {
    int capacity = 0;
    while (capacity < length) {
      capacity = capacity == 0 ? 1 : capacity < 256 ? capacity * 2
          : capacity + (capacity + 3 * 256) / 4;
    }
    return capacity;
  }

  /**
   * Merges patch elements into the live elements with the same key; appends the others. While
   * {@code backing} is non-null, appends are mirrored into it as long as Go's append would
   * still fit them into the original array.
   */
  private static List<Value> mergeElements(List<Value> original, Value[] backing, int length,
      List<Value> patch, String mergeKey, PatchSchema itemSchema) {
    List<Value> result = new ArrayList<>(original.size() + patch.size());
    result.addAll(original);
    for (Value item : patch) {
      MapValue element = (MapValue) item;
      Value keyValue = element.getOrNull(mergeKey);
      if (keyValue == null) {
        throw unmapped(noMergeKey(element, mergeKey));
      }
      int index = findByKey(result, mergeKey, keyValue);
      if (index >= 0) {
        result.set(index, mergeMap((MapValue) result.get(index), element, itemSchema));
      } else {
        result.add(item);
        if (backing != null && length < backing.length) {
          backing[length++] = item;
        } else {
          backing = null;
        }
      }
    }
    return result;
  }

  /**
   * Deletes, in place as Go's {@code append(s[:i], s[i+1:]...)} does, every element whose
   * merge key equals {@code keyValue}; returns the new length.
   */
  private static int deleteMatching(Value[] backing, int length, String mergeKey,
      Value keyValue) {
    while (true) {
      int found = findByKey(Arrays.asList(backing).subList(0, length), mergeKey, keyValue);
      if (found < 0) {
        return length;
      }
      System.arraycopy(backing, found + 1, backing, found, length - found - 1);
      length--;
    }
  }

  /** The first element that is an object with {@code mergeKey} equal to {@code value}, or -1. */
  private static int findByKey(List<Value> list, String mergeKey, Value value) {
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof MapValue m)) {
        throw unmapped("value for key " + i + " is not a map");
      }
      if (value.equals(m.getOrNull(mergeKey))) {
        return i;
      }
    }
    return -1;
  }

  private static List<Value> deleteScalars(List<Value> current, List<Value> toDelete) {
    Set<Value> deleted = new HashSet<>(toDelete);
    List<Value> result = new ArrayList<>(current.size());
    for (Value v : current) {
      if (!deleted.contains(v)) {
        result.add(v);
      }
    }
    return result;
  }

  /**
   * {@code append(original, patch...)} then apimachinery's in-place de-duplication (which swaps
   * the last element into a duplicate's slot). When the patch fits into the spare capacity,
   * Go writes into the live list's backing array, which this mirrors.
   */
  private static List<Value> union(Value[] backing, int length, List<Value> patch) {
    Value[] both = length + patch.size() <= backing.length ? backing
        : Arrays.copyOf(backing, length + patch.size());
    for (int i = 0; i < patch.size(); i++) {
      both[length + i] = patch.get(i);
    }
    int last = length + patch.size() - 1;
    for (int i = 0; i < last; i++) {
      for (int j = i + 1; j <= last; j++) {
        if (both[i].equals(both[j])) {
          both[j] = both[last];
          last--;
          j--;
        }
      }
    }
    return new ArrayList<>(Arrays.asList(both).subList(0, last + 1));
  }

  /**
   * The common kind of the elements; kube supports neither lists of lists nor mixed lists
   * (a list of lists is its only merge error reported as 422).
   */
  private static Value.Kind elementKind(List<Value> original, List<Value> patch) {
    Value.Kind kind = null;
    for (List<Value> list : List.of(original, patch)) {
      for (Value v : list) {
        if (kind == null) {
          if (v instanceof NullValue) {
            // reflect.TypeOf(nil).Kind() panics in kube; the request fails with a 500.
            throw unmapped("runtime error: invalid memory address or nil pointer dereference");
          }
          kind = v.kind();
          if (kind == Value.Kind.LIST) {
            throw PatchErrors.unprocessable();
          }
        } else if (v.kind() != kind) {
          throw unmapped("list element types are not identical: "
              + GoFormat.v(List.of(ListValue.of(original), ListValue.of(patch))));
        }
      }
    }
    if (kind == null) {
      throw unmapped("no elements in any of the given slices");
    }
    return kind;
  }

  private record Partition(List<Value> inPatch, List<Value> serverOnly) {}

  /** Splits {@code merged} into elements named by {@code by} and the others. */
  private static Partition partition(List<Value> merged, List<Value> by, String mergeKey) {
    List<Value> inPatch = new ArrayList<>(merged.size());
    List<Value> serverOnly = new ArrayList<>(merged.size());
    if (mergeKey.isEmpty()) {
      Set<Value> named = new HashSet<>(by);
      for (Value v : merged) {
        (named.contains(v) ? inPatch : serverOnly).add(v);
      }
      return new Partition(inPatch, serverOnly);
    }
    for (Value v : merged) {
      if (!(v instanceof MapValue m)) {
        throw unmapped(badArgType(GO_MAP, v));
      }
      Value keyValue = m.getOrNull(mergeKey);
      if (keyValue == null) {
        throw unmapped(noMergeKey(m, mergeKey));
      }
      (findByKey(by, mergeKey, keyValue) >= 0 ? inPatch : serverOnly).add(v);
    }
    return new Partition(inPatch, serverOnly);
  }

  private record Split(List<Value> kept, List<Value> deleted) {}

  /** Separates elements carrying {@code $patch: delete}; every element must be an object. */
  private static Split splitDeletions(List<Value> list) {
    List<Value> kept = new ArrayList<>(list.size());
    List<Value> deleted = new ArrayList<>();
    for (Value v : list) {
      if (!(v instanceof MapValue m)) {
        throw unmapped(badArgType(GO_MAP, v));
      }
      (DELETE.equals(m.getOrNull(DIRECTIVE)) ? deleted : kept).add(v);
    }
    return new Split(kept, deleted);
  }

  /**
   * Orders the patch's elements by {@code patchOrder} and the server-only ones by
   * {@code serverOrder}, then interleaves them: a server-only element goes first only when
   * both are in the live list and it comes first there.
   */
  private static List<Value> normalizeOrder(List<Value> patchItems, List<Value> serverOnly,
      List<Value> patchOrder, List<Value> serverOrder, String mergeKey, Value.Kind kind) {
    List<Value> right = sortBy(patchItems, patchOrder, mergeKey, kind);
    List<Value> left = sortBy(serverOnly, serverOrder, mergeKey, kind);
    Map<Object, Integer> positions = positions(serverOrder, mergeKey, kind);
    List<Value> result = new ArrayList<>(left.size() + right.size());
    int i = 0;
    int j = 0;
    while (i < left.size() || j < right.size()) {
      if (i >= left.size()) {
        result.add(right.get(j++));
      } else if (j >= right.size()) {
        result.add(left.get(i++));
      } else {
        int li = position(positions, left.get(i), mergeKey, kind);
        int ri = position(positions, right.get(j), mergeKey, kind);
        if (li >= 0 && ri >= 0 && li < ri) {
          result.add(left.get(i++));
        } else {
          result.add(right.get(j++));
        }
      }
    }
    return result;
  }

  /** A stable sort by position in {@code order}; {@code $patch: delete} elements go last. */
  private static List<Value> sortBy(List<Value> toSort, List<Value> order, String mergeKey,
      Value.Kind kind) {
    List<Value> sorted;
    List<Value> deleted = List.of();
    if (kind == Value.Kind.MAP) {
      validateMergeKeys(mergeKey, toSort);
      validateMergeKeys(mergeKey, order);
      Split split = splitDeletions(toSort);
      sorted = new ArrayList<>(split.kept());
      deleted = split.deleted();
    } else {
      sorted = new ArrayList<>(toSort);
    }
    Map<Object, Integer> positions = positions(order, mergeKey, kind);
    int[] index = new int[sorted.size()];
    boolean allFound = true;
    for (int i = 0; i < index.length; i++) {
      index[i] = position(positions, sorted.get(i), mergeKey, kind);
      allFound &= index[i] >= 0;
    }
    if (allFound) {
      List<Integer> idx = new ArrayList<>(index.length);
      for (int i = 0; i < index.length; i++) {
        idx.add(i);
      }
      idx.sort((a, b) -> Integer.compare(index[a], index[b]));
      List<Value> result = new ArrayList<>(sorted.size() + deleted.size());
      for (int i : idx) {
        result.add(sorted.get(i));
      }
      sorted = result;
    } else {
      insertionSort(sorted, index);
    }
    sorted.addAll(deleted);
    return sorted;
  }

  /**
   * Go's insertion sort with kube's comparator, which calls an element "less" whenever either
   * side is missing from the order; only reached by patches whose elements are not all in the
   * ordering list, where a consistent comparator would order differently from kube.
   */
  private static void insertionSort(List<Value> items, int[] index) {
    for (int i = 1; i < items.size(); i++) {
      for (int j = i; j > 0 && goLess(index[j], index[j - 1]); j--) {
        Value v = items.get(j);
        items.set(j, items.get(j - 1));
        items.set(j - 1, v);
        int t = index[j];
        index[j] = index[j - 1];
        index[j - 1] = t;
      }
    }
  }

  private static boolean goLess(int a, int b) {
    return a < 0 || b < 0 || a < b;
  }

  private static void validateMergeKeys(String mergeKey, List<Value> list) {
    for (Value v : list) {
      if (!(v instanceof MapValue m)) {
        throw unmapped(badArgType(GO_MAP, v));
      }
      if (m.getOrNull(mergeKey) == null) {
        throw unmapped(noMergeKey(m, mergeKey));
      }
    }
  }

  private static Map<Object, Integer> positions(List<Value> order, String mergeKey,
      Value.Kind kind) {
    Map<Object, Integer> positions = new HashMap<>(order.size() * 2);
    for (int i = 0; i < order.size(); i++) {
      positions.putIfAbsent(lookupKey(order.get(i), mergeKey, kind), i);
    }
    return positions;
  }

  private static int position(Map<Object, Integer> positions, Value item, String mergeKey,
      Value.Kind kind) {
    Integer i = positions.get(lookupKey(item, mergeKey, kind));
    return i == null ? -1 : i;
  }

  /** What kube compares elements by: the merge key's value for objects, else the element. */
  private static Object lookupKey(Value item, String mergeKey, Value.Kind kind) {
    if (kind != Value.Kind.MAP) {
      return item;
    }
    Value v = item instanceof MapValue m ? m.getOrNull(mergeKey) : null;
    return v == null || v instanceof NullValue ? NIL : v;
  }

  /** A value taken from the patch where there is nothing to merge with. */
  private static void putNew(Map<String, Value> merged, String key, Value patchValue) {
    Value cleaned = clean(patchValue);
    if (cleaned == null) {
      merged.remove(key);
    } else {
      merged.put(key, cleaned);
    }
  }

  /**
   * Drops {@code null} members, then objects carrying {@code $patch}, recursively; null when
   * the value itself is dropped.
   */
  private static Value clean(Value value) {
    if (value instanceof MapValue m) {
      Value directive = m.getOrNull(DIRECTIVE);
      if (directive != null && !(directive instanceof NullValue)) {
        return null;
      }
      return mapMembers(m, v -> v instanceof NullValue ? null : clean(v));
    }
    if (value instanceof ListValue l) {
      return cleanList(l, true);
    }
    return value;
  }

  /** Drops objects carrying {@code $patch}, recursively; null members stay. */
  private static Value removeDirectives(Value value) {
    if (value instanceof MapValue m) {
      if (m.containsKey(DIRECTIVE)) {
        return null;
      }
      return mapMembers(m, StrategicMerger::removeDirectives);
    }
    if (value instanceof ListValue l) {
      return cleanList(l, false);
    }
    return value;
  }

  /**
   * {@code m} with {@code f} applied to each member value (a null result drops the member);
   * {@code m} itself when nothing changed, so that unchanged subtrees stay shared.
   */
  private static MapValue mapMembers(MapValue m, UnaryOperator<Value> f) {
    MapValue.Builder out = null;
    for (int i = 0; i < m.size(); i++) {
      Value v = m.valueAt(i);
      Value c = f.apply(v);
      if (c != v && out == null) {
        out = MapValue.builder(m.size());
        for (int j = 0; j < i; j++) {
          out.put(m.keyAt(j), m.valueAt(j));
        }
      }
      if (out != null && c != null) {
        out.put(m.keyAt(i), c);
      }
    }
    return out == null ? m : out.build();
  }

  private static ListValue cleanList(ListValue l, boolean dropNulls) {
    ListValue.Builder out = null;
    for (int i = 0; i < l.size(); i++) {
      Value v = l.get(i);
      Value c = v instanceof NullValue ? v : dropNulls ? clean(v) : removeDirectives(v);
      if (c != v && out == null) {
        out = ListValue.builder(l.size());
        for (int j = 0; j < i; j++) {
          out.add(l.get(j));
        }
      }
      if (out != null && c != null) {
        out.add(c);
      }
    }
    return out == null ? l : out.build();
  }

  /** The field name after {@code prefix/}; {@code badFormat} when the key is not so shaped. */
  private static String extractKey(String key, String prefix, String badFormat) {
    int slash = key.indexOf('/');
    if (slash < 0 || !key.substring(0, slash).equals(prefix)) {
      throw PatchErrors.badRequest(badFormat);
    }
    return key.substring(slash + 1);
  }

  private static LinkedHashMap<String, Value> entries(MapValue map) {
    LinkedHashMap<String, Value> entries = new LinkedHashMap<>(Math.max(16, map.size() * 2));
    for (int i = 0; i < map.size(); i++) {
      entries.put(map.keyAt(i), map.valueAt(i));
    }
    return entries;
  }

  /** {@code original} itself when nothing changed, so that unchanged subtrees stay shared. */
  private static MapValue build(MapValue original, Map<String, Value> entries) {
    if (entries.size() == original.size()) {
      Iterator<Map.Entry<String, Value>> it = entries.entrySet().iterator();
      boolean same = true;
      for (int i = 0; i < original.size() && same; i++) {
        Map.Entry<String, Value> e = it.next();
        same = e.getKey().equals(original.keyAt(i)) && e.getValue() == original.valueAt(i);
      }
      if (same) {
        return original;
      }
    }
    MapValue.Builder b = MapValue.builder(entries.size());
    entries.forEach(b::put);
    return b.build();
  }

  private static ListValue list(List<Value> items, ListValue original) {
    if (items.size() == original.size()) {
      boolean same = true;
      for (int i = 0; i < items.size() && same; i++) {
        same = items.get(i) == original.get(i);
      }
      if (same) {
        return original;
      }
    }
    return ListValue.of(items);
  }

  private static StatusException unmapped(String message) {
    return PatchErrors.unmapped(message);
  }

  private static String badArgType(String expected, Value actual) {
    return "expected a " + expected + ", but received a " + GoFormat.goType(actual);
  }

  private static String noMergeKey(MapValue map, String mergeKey) {
    return "map: " + GoFormat.v(map) + " does not contain declared merge key: " + mergeKey;
  }

  private static String badPatchType(Value directive, MapValue map) {
    return "unknown patch type: " + GoFormat.s(directive) + " in map: " + GoFormat.v(map);
  }
}
