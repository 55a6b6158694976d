/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An immutable set of {@link FieldPath}s, stored as a trie the way structured-merge-diff's
 * {@code Set} is: each node holds its <em>members</em> (elements whose path ends here) and its
 * <em>children</em> (elements with longer paths below them, each mapped to the sub-set of those
 * paths). An element may be both a member and a child. Both lists are sorted by
 * {@link PathElement} order and no child set is empty, so two sets are equal exactly when they
 * contain the same paths.
 *
 * <p>The empty path is never a member: inserting it does nothing and {@link #contains} reports
 * {@code false} for it, as in SMD (nobody owns "the whole object").
 *
 * <p>Operations keep SMD's names and semantics ({@link #union}, {@link #intersection},
 * {@link #difference}, {@link #recursiveDifference}, {@link #leaves}). They run as linear merges
 * of the sorted node lists and return an operand unchanged, or share its untouched sub-trees,
 * whenever possible. Instances are thread-safe.
 */
public final class FieldSet implements Iterable<FieldPath> {
  static final PathElement[] NO_ELEMENTS = new PathElement[0];
  static final FieldSet[] NO_SETS = new FieldSet[0];
  private static final FieldSet EMPTY = new FieldSet(NO_ELEMENTS, NO_ELEMENTS, NO_SETS, 0);

  final PathElement[] members;
  final PathElement[] childElements;
  final FieldSet[] children;
  private final int size;
  private int hash;

  private FieldSet(PathElement[] members, PathElement[] childElements, FieldSet[] children,
      int size) {
    this.members = members;
    this.childElements = childElements;
    this.children = children;
    this.size = size;
  }

  /**
   * A node from sorted, duplicate-free arrays the caller hands over; child sets must be
   * non-empty.
   */
  static FieldSet node(PathElement[] members, PathElement[] childElements, FieldSet[] children) {
    if (members.length == 0 && childElements.length == 0) {
      return EMPTY;
    }
    int size = members.length;
    for (FieldSet c : children) {
      size += c.size;
    }
    return new FieldSet(members, childElements, children, size);
  }

  /**
   * The set with no paths.
   *
   * @return the shared empty set
   */
  public static FieldSet empty() {
    return EMPTY;
  }

  /**
   * A set of these paths; empty paths are ignored.
   *
   * @param paths the paths, in any order, duplicates allowed
   * @return the set
   */
  public static FieldSet of(FieldPath... paths) {
    requireNonNull(paths, "paths");
    Builder b = builder();
    for (FieldPath p : paths) {
      b.insert(p);
    }
    return b.build();
  }

  /**
   * A set of these paths; empty paths are ignored.
   *
   * @param paths the paths, in any order, duplicates allowed
   * @return the set
   */
  public static FieldSet of(Collection<FieldPath> paths) {
    requireNonNull(paths, "paths");
    Builder b = builder();
    for (FieldPath p : paths) {
      b.insert(p);
    }
    return b.build();
  }

  /**
   * A builder for a set built once, without the intermediate sets of repeated unions.
   *
   * @return a new, empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- queries

  /**
   * The number of paths in the set.
   *
   * @return the count of paths, members and their descendants alike
   */
  public int size() {
    return size;
  }

  /**
   * Whether the set has no paths.
   *
   * @return true for the empty set
   */
  public boolean isEmpty() {
    return size == 0;
  }

  /**
   * Whether {@code path} is in the set.
   *
   * @param path the path to look up
   * @return true when the set holds exactly this path; always false for the empty path
   */
  public boolean contains(FieldPath path) {
    requireNonNull(path, "path");
    PathElement[] p = path.array();
    if (p.length == 0) {
      return false;
    }
    FieldSet s = this;
    for (int i = 0; i < p.length - 1; i++) {
      int at = SortedElements.search(s.childElements, p[i]);
      if (at < 0) {
        return false;
      }
      s = s.children[at];
    }
    return SortedElements.search(s.members, p[p.length - 1]) >= 0;
  }

  /**
   * Whether {@code element} alone (a one-element path) is in the set.
   *
   * @param element the element
   * @return true when it is a member of this node
   */
  public boolean hasMember(PathElement element) {
    requireNonNull(element, "element");
    return SortedElements.search(members, element) >= 0;
  }

  /**
   * Whether some path of the set continues below {@code element}.
   *
   * @param element the element
   * @return true when this node has a child set at {@code element}
   */
  public boolean hasChild(PathElement element) {
    requireNonNull(element, "element");
    return SortedElements.search(childElements, element) >= 0;
  }

  /**
   * The paths below {@code element}, without the element.
   *
   * @param element the element
   * @return the non-empty child set; empty when there are none
   */
  public Optional<FieldSet> child(PathElement element) {
    requireNonNull(element, "element");
    int at = SortedElements.search(childElements, element);
    return at < 0 ? Optional.empty() : Optional.of(children[at]);
  }

  /**
   * The paths below {@code element}, without the element, or the empty set (SMD's
   * {@code Set.WithPrefix}; note that {@link #withPrefix} is the opposite operation).
   *
   * @param element the element
   * @return the child set, or the empty set
   */
  public FieldSet childOrEmpty(PathElement element) {
    requireNonNull(element, "element");
    int at = SortedElements.search(childElements, element);
    return at < 0 ? EMPTY : children[at];
  }

  /**
   * The elements that are members of this node (one-element paths).
   *
   * @return the members, sorted; an unmodifiable view
   */
  public List<PathElement> members() {
    return Collections.unmodifiableList(Arrays.asList(members));
  }

  /**
   * The number of members of this node, without allocating a list.
   *
   * @return the size of {@link #members()}
   */
  public int memberCount() {
    return members.length;
  }

  /**
   * A member of this node by position, without allocating a list.
   *
   * @param i the position, below {@link #memberCount()}
   * @return the {@code i}th member in sort order
   * @throws IndexOutOfBoundsException when {@code i} is out of range
   */
  public PathElement memberAt(int i) {
    return members[i];
  }

  /**
   * The elements that have children at this node.
   *
   * @return the elements, sorted; an unmodifiable view
   */
  public List<PathElement> childElements() {
    return Collections.unmodifiableList(Arrays.asList(childElements));
  }

  /**
   * The number of child sets of this node, without allocating a list.
   *
   * @return the size of {@link #childElements()}
   */
  public int childCount() {
    return childElements.length;
  }

  /**
   * The element of a child set by position, without allocating a list.
   *
   * @param i the position, below {@link #childCount()}
   * @return the {@code i}th child element in sort order
   * @throws IndexOutOfBoundsException when {@code i} is out of range
   */
  public PathElement childElementAt(int i) {
    return childElements[i];
  }

  /**
   * A child set by position, without allocating a list.
   *
   * @param i the position, below {@link #childCount()}
   * @return the non-empty set below {@link #childElementAt(int) childElementAt(i)}
   * @throws IndexOutOfBoundsException when {@code i} is out of range
   */
  public FieldSet childAt(int i) {
    return children[i];
  }

  /**
   * One child entry: the element and the non-empty set of paths below it.
   *
   * @param element the element the paths continue below
   * @param set the paths below it, without the element
   */
  public record Child(PathElement element, FieldSet set) {
    /**
     * Checks that no component is null.
     *
     * @param element see the record component
     * @param set see the record component
     * @throws NullPointerException when a component is null
     */
    public Child {
      requireNonNull(element, "element");
      requireNonNull(set, "set");
    }
  }

  /**
   * The children of this node in element order.
   *
   * @return the element and set of every child; an unmodifiable list
   */
  public List<Child> children() {
    Child[] out = new Child[childElements.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Child(childElements[i], children[i]);
    }
    return List.of(out);
  }

  // ---------------------------------------------------------------- algebra

  /**
   * Paths in this set or in {@code other}.
   *
   * @param other the other set
   * @return the union; shares unchanged subtrees with the operands
   */
  public FieldSet union(FieldSet other) {
    requireNonNull(other, "other");
    return union(this, other);
  }

  /**
   * Paths in both this set and {@code other}.
   *
   * @param other the other set
   * @return the intersection
   */
  public FieldSet intersection(FieldSet other) {
    requireNonNull(other, "other");
    return intersection(this, other);
  }

  /**
   * Paths of this set that are not in {@code other}. As in SMD this is a plain set difference on
   * paths: removing {@code a} does not remove {@code a.b}, and removing {@code a.b} leaves
   * {@code a}.
   *
   * @param other the paths to remove
   * @return the difference
   */
  public FieldSet difference(FieldSet other) {
    requireNonNull(other, "other");
    return difference(this, other);
  }

  /**
   * Paths of this set that are neither in {@code other} nor below a path of {@code other}: a path
   * {@code a.b} in {@code other} removes {@code a.b} and everything under it.
   *
   * @param other the paths to remove with their descendants
   * @return the recursive difference
   */
  public FieldSet recursiveDifference(FieldSet other) {
    requireNonNull(other, "other");
    return recursiveDifference(this, other);
  }

  /**
   * The paths that have no other path of this set below them.
   *
   * @return the leaves, as SMD's {@code Set.Leaves}
   */
  public FieldSet leaves() {
    return leaves(this);
  }

  /**
   * This set without the paths in {@code pattern} and everything below them (SMD's exclude filter).
   *
   * @param pattern the paths to drop with their descendants
   * @return the filtered set
   */
  public FieldSet exclude(FieldSet pattern) {
    return recursiveDifference(pattern);
  }

  /**
   * {@code filter} applied to this set.
   *
   * @param filter the filter
   * @return the filter's result
   */
  public FieldSet filter(FieldSetFilter filter) {
    requireNonNull(filter, "filter");
    return requireNonNull(filter.apply(this), "filter result");
  }

  /**
   * Every path of this set with {@code element} in front (the inverse of {@link #childOrEmpty}).
   *
   * @param element the element to put in front
   * @return the prefixed set; empty when this set is
   */
  public FieldSet withPrefix(PathElement element) {
    requireNonNull(element, "element");
    if (size == 0) {
      return EMPTY;
    }
    return new FieldSet(NO_ELEMENTS, new PathElement[] {element}, new FieldSet[] {this}, size);
  }

  /**
   * Every path of this set with all of {@code prefix} in front.
   *
   * @param prefix the path to put in front
   * @return the prefixed set; this set for the empty prefix
   */
  public FieldSet prefixedBy(FieldPath prefix) {
    requireNonNull(prefix, "prefix");
    FieldSet s = this;
    PathElement[] p = prefix.array();
    for (int i = p.length - 1; i >= 0; i--) {
      s = s.withPrefix(p[i]);
    }
    return s;
  }

  private static FieldSet union(FieldSet a, FieldSet b) {
    if (a == b || b.size == 0) {
      return a;
    }
    if (a.size == 0) {
      return b;
    }
    PathElement[] m = SortedElements.unionElements(a.members, b.members);
    // The union contains both operands, so it equals one exactly when it is as large.
    boolean sameAsA = m.length == a.members.length;
    boolean sameAsB = m.length == b.members.length;
    PathElement[] ae = a.childElements;
    PathElement[] be = b.childElements;
    PathElement[] ce;
    FieldSet[] cs;
    if (be.length == 0) {
      ce = ae;
      cs = a.children;
      sameAsB &= ae.length == 0;
    } else if (ae.length == 0) {
      ce = be;
      cs = b.children;
      sameAsA = false;
    } else {
      PathElement[] oe = new PathElement[ae.length + be.length];
      FieldSet[] os = new FieldSet[ae.length + be.length];
      int i = 0;
      int j = 0;
      int n = 0;
      while (i < ae.length && j < be.length) {
        int c = Elements.compare(ae[i], be[j]);
        if (c < 0) {
          oe[n] = ae[i];
          os[n++] = a.children[i++];
          sameAsB = false;
        } else if (c > 0) {
          oe[n] = be[j];
          os[n++] = b.children[j++];
          sameAsA = false;
        } else {
          FieldSet u = union(a.children[i], b.children[j]);
          sameAsA &= u.size == a.children[i].size;
          sameAsB &= u.size == b.children[j].size;
          oe[n] = ae[i];
          os[n++] = u;
          i++;
          j++;
        }
      }
      if (i < ae.length) {
        sameAsB = false;
        int k = ae.length - i;
        System.arraycopy(ae, i, oe, n, k);
        System.arraycopy(a.children, i, os, n, k);
        n += k;
      }
      if (j < be.length) {
        sameAsA = false;
        int k = be.length - j;
        System.arraycopy(be, j, oe, n, k);
        System.arraycopy(b.children, j, os, n, k);
        n += k;
      }
      ce = n == oe.length ? oe : Arrays.copyOf(oe, n);
      cs = n == os.length ? os : Arrays.copyOf(os, n);
    }
    if (sameAsA) {
      return a;
    }
    if (sameAsB) {
      return b;
    }
    return node(m, ce, cs);
  }

  private static FieldSet intersection(FieldSet a, FieldSet b) {
    if (a == b) {
      return a;
    }
    if (a.size == 0 || b.size == 0) {
      return EMPTY;
    }
    PathElement[] m = SortedElements.intersectElements(a.members, b.members);
    PathElement[] ae = a.childElements;
    PathElement[] be = b.childElements;
    PathElement[] ce = NO_ELEMENTS;
    FieldSet[] cs = NO_SETS;
    if (ae.length > 0 && be.length > 0) {
      int cap = Math.min(ae.length, be.length);
      PathElement[] oe = new PathElement[cap];
      FieldSet[] os = new FieldSet[cap];
      int i = 0;
      int j = 0;
      int n = 0;
      boolean sameAsA = ae.length == cap;
      while (i < ae.length && j < be.length) {
        int c = Elements.compare(ae[i], be[j]);
        if (c < 0) {
          i++;
          sameAsA = false;
        } else if (c > 0) {
          j++;
        } else {
          FieldSet x = intersection(a.children[i], b.children[j]);
          if (x.size > 0) {
            sameAsA &= x == a.children[i];
            oe[n] = ae[i];
            os[n++] = x;
          } else {
            sameAsA = false;
          }
          i++;
          j++;
        }
      }
      if (sameAsA && n == ae.length) {
        ce = ae;
        cs = a.children;
      } else if (n > 0) {
        ce = n == cap ? oe : Arrays.copyOf(oe, n);
        cs = n == cap ? os : Arrays.copyOf(os, n);
      }
    }
    if (m == a.members && cs == a.children) {
      return a;
    }
    return node(m, ce, cs);
  }

  /** How {@link #subtract} treats a child of {@code a} whose element is a member of {@code b}. */
  private enum Subtraction {
    /** SMD's Difference: only the same path is removed; the child's own paths stay. */
    EXACT,
    /** SMD's RecursiveDifference: a member of {@code b} removes everything below it too. */
    RECURSIVE
  }

  private static FieldSet difference(FieldSet a, FieldSet b) {
    return subtract(a, b, Subtraction.EXACT);
  }

  private static FieldSet recursiveDifference(FieldSet a, FieldSet b) {
    return subtract(a, b, Subtraction.RECURSIVE);
  }

  // One walk for both differences; unchanged subtrees are returned as they are (shared).
  private static FieldSet subtract(FieldSet a, FieldSet b, Subtraction mode) {
    if (a == b) {
      return EMPTY;
    }
    if (a.size == 0 || b.size == 0) {
      return a;
    }
    PathElement[] m = SortedElements.differenceElements(a.members, b.members);
    PathElement[] ce = a.childElements;
    FieldSet[] cs = a.children;
    if (ce.length > 0) {
      PathElement[] bm = mode == Subtraction.RECURSIVE ? b.members : NO_ELEMENTS;
      PathElement[] be = b.childElements;
      PathElement[] oe = null;
      FieldSet[] os = null;
      int n = 0;
      int j = 0;
      int k = 0;
      for (int i = 0; i < ce.length; i++) {
        FieldSet keep = cs[i];
        while (k < bm.length && Elements.compare(ce[i], bm[k]) > 0) {
          k++;
        }
        if (k < bm.length && Elements.compare(ce[i], bm[k]) == 0) {
          keep = EMPTY;
        } else {
          while (j < be.length && Elements.compare(ce[i], be[j]) > 0) {
            j++;
          }
          if (j < be.length && Elements.compare(ce[i], be[j]) == 0) {
            keep = subtract(cs[i], b.children[j], mode);
          }
        }
        if (keep != cs[i] && oe == null) {
          oe = new PathElement[ce.length];
          os = new FieldSet[ce.length];
          System.arraycopy(ce, 0, oe, 0, i);
          System.arraycopy(cs, 0, os, 0, i);
          n = i;
        }
        if (oe != null && keep.size > 0) {
          oe[n] = ce[i];
          os[n++] = keep;
        }
      }
      if (oe != null) {
        ce = n == oe.length ? oe : (n == 0 ? NO_ELEMENTS : Arrays.copyOf(oe, n));
        cs = n == os.length ? os : (n == 0 ? NO_SETS : Arrays.copyOf(os, n));
      }
    }
    if (m == a.members && cs == a.children) {
      return a;
    }
    return node(m, ce, cs);
  }

  private static FieldSet leaves(FieldSet a) {
    if (a.childElements.length == 0) {
      return a;
    }
    PathElement[] m = SortedElements.differenceElements(a.members, a.childElements);
    FieldSet[] cs = a.children;
    FieldSet[] os = null;
    for (int i = 0; i < cs.length; i++) {
      FieldSet l = leaves(cs[i]);
      if (l != cs[i] && os == null) {
        os = cs.clone();
      }
      if (os != null) {
        os[i] = l;
      }
    }
    if (os == null && m == a.members) {
      return a;
    }
    return node(m, a.childElements, os == null ? cs : os);
  }

  // ---------------------------------------------------------------- iteration

  /** The paths in ascending {@link FieldPath} order (a path before the paths below it). */
  @Override
  public Iterator<FieldPath> iterator() {
    return paths().iterator();
  }

  /**
   * The paths in ascending order.
   *
   * @return the paths, as an unmodifiable list
   */
  public List<FieldPath> paths() {
    List<FieldPath> out = new ArrayList<>(size);
    forEach(out::add);
    return Collections.unmodifiableList(out);
  }

  @Override
  public void forEach(Consumer<? super FieldPath> action) {
    requireNonNull(action, "action");
    if (size > 0) {
      walk(this, new PathElement[8], 0, action);
    }
  }

  private static void walk(FieldSet s, PathElement[] prefix, int depth,
      Consumer<? super FieldPath> action) {
    PathElement[] m = s.members;
    PathElement[] ce = s.childElements;
    int i = 0;
    int j = 0;
    while (i < m.length || j < ce.length) {
      int c = i == m.length ? 1 : (j == ce.length ? -1 : Elements.compare(m[i], ce[j]));
      if (c <= 0) {
        PathElement[] p = Arrays.copyOf(prefix, depth + 1);
        p[depth] = m[i++];
        action.accept(FieldPath.wrap(p));
      }
      if (c >= 0) {
        if (prefix.length == depth) {
          prefix = Arrays.copyOf(prefix, depth * 2 + 1);
        }
        prefix[depth] = ce[j];
        walk(s.children[j++], prefix, depth + 1, action);
      }
    }
  }

  // ---------------------------------------------------------------- identity

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof FieldSet s) || s.size != size
        || (hash != 0 && s.hash != 0 && hash != s.hash)) {
      return false;
    }
    if (!Arrays.equals(members, s.members) || !Arrays.equals(childElements, s.childElements)) {
      return false;
    }
    for (int i = 0; i < children.length; i++) {
      if (!children[i].equals(s.children[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(members);
      for (int i = 0; i < children.length; i++) {
        h = h * 31 + (childElements[i].hashCode() ^ children[i].hashCode());
      }
      h = h == 0 ? 1 : h;
      hash = h;
    }
    return h;
  }

  /** The paths as path strings, one per line, in ascending order. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    forEach(p -> {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(p);
    });
    return sb.toString();
  }

  // ---------------------------------------------------------------- builder

  /**
   * Mutable, single-use construction of a {@link FieldSet}. Adding elements in ascending order
   * is cheapest (an append); other orders cost an insertion. Not thread-safe; {@link #build()}
   * may be called once, after which the builder rejects further use.
   */
  public static final class Builder {
    private PathElement[] members = NO_ELEMENTS;
    private int memberCount;
    private PathElement[] childElements = NO_ELEMENTS;
    // each value is a FieldSet (shared, untouched) or a Builder (being modified)
    private Object[] children = new Object[0];
    private int childCount;
    private boolean built;

    private Builder() {}

    private static Builder from(FieldSet s) {
      Builder b = new Builder();
      b.members = s.members.clone();
      b.memberCount = s.members.length;
      b.childElements = s.childElements.clone();
      b.children = Arrays.copyOf(s.children, s.children.length, Object[].class);
      b.childCount = s.children.length;
      return b;
    }

    private void checkOpen() {
      if (built) {
        throw new IllegalStateException("FieldSet.Builder already built; use a new builder");
      }
    }

    /**
     * Adds {@code path}; the empty path is ignored (see {@link FieldSet}).
     *
     * @param path the path to add
     * @return this builder
     * @throws IllegalStateException when the builder was already built
     */
    public Builder insert(FieldPath path) {
      requireNonNull(path, "path");
      checkOpen();
      PathElement[] p = path.array();
      if (p.length == 0) {
        return this;
      }
      Builder b = this;
      for (int i = 0; i < p.length - 1; i++) {
        b = b.descend(p[i]);
      }
      b.addMemberUnchecked(p[p.length - 1]);
      return this;
    }

    /**
     * Adds every path of {@code set}.
     *
     * @param set the paths to add
     * @return this builder
     * @throws IllegalStateException when the builder was already built
     */
    public Builder addAll(FieldSet set) {
      requireNonNull(set, "set");
      checkOpen();
      addAllUnchecked(set);
      return this;
    }

    /**
     * Adds the one-element path {@code element}.
     *
     * @param element the member to add
     * @return this builder
     * @throws IllegalStateException when the builder was already built
     */
    public Builder addMember(PathElement element) {
      requireNonNull(element, "element");
      checkOpen();
      addMemberUnchecked(element);
      return this;
    }

    /**
     * Adds every path of {@code set} with {@code element} in front.
     *
     * @param element the element to put in front
     * @param set the paths below it
     * @return this builder
     * @throws IllegalStateException when the builder was already built
     */
    public Builder addChild(PathElement element, FieldSet set) {
      requireNonNull(element, "element");
      requireNonNull(set, "set");
      checkOpen();
      addChildUnchecked(element, set);
      return this;
    }

    /**
     * Builds the set; the builder cannot be used afterwards.
     *
     * @return the immutable set of the added paths
     * @throws IllegalStateException when the builder was already built
     */
    public FieldSet build() {
      checkOpen();
      built = true;
      return buildNode();
    }

    private FieldSet buildNode() {
      PathElement[] m = memberCount == 0 ? NO_ELEMENTS
          : (memberCount == members.length ? members : Arrays.copyOf(members, memberCount));
      if (childCount == 0) {
        return node(m, NO_ELEMENTS, NO_SETS);
      }
      PathElement[] ce = new PathElement[childCount];
      FieldSet[] cs = new FieldSet[childCount];
      int n = 0;
      for (int i = 0; i < childCount; i++) {
        Object c = children[i];
        FieldSet s = c instanceof Builder b ? b.buildNode() : (FieldSet) c;
        if (s.size > 0) {
          ce[n] = childElements[i];
          cs[n++] = s;
        }
      }
      if (n < childCount) {
        ce = Arrays.copyOf(ce, n);
        cs = Arrays.copyOf(cs, n);
      }
      return node(m, ce, cs);
    }

    private void addAllUnchecked(FieldSet set) {
      for (PathElement e : set.members) {
        addMemberUnchecked(e);
      }
      for (int i = 0; i < set.childElements.length; i++) {
        addChildUnchecked(set.childElements[i], set.children[i]);
      }
    }

    private void addMemberUnchecked(PathElement e) {
      int n = memberCount;
      int at;
      if (n == 0 || Elements.compare(members[n - 1], e) < 0) {
        at = n;
      } else {
        at = searchRange(members, n, e);
        if (at >= 0) {
          return;
        }
        at = -at - 1;
      }
      if (n == members.length) {
        members = Arrays.copyOf(members, Math.max(4, n * 2));
      }
      System.arraycopy(members, at, members, at + 1, n - at);
      members[at] = e;
      memberCount = n + 1;
    }

    private void addChildUnchecked(PathElement e, FieldSet set) {
      if (set.size == 0) {
        return;
      }
      int at = childSlot(e);
      if (at >= 0) {
        Object c = children[at];
        if (c instanceof Builder b) {
          b.addAllUnchecked(set);
        } else {
          children[at] = union((FieldSet) c, set);
        }
        return;
      }
      insertChild(-at - 1, e, set);
    }

    private Builder descend(PathElement e) {
      int at = childSlot(e);
      if (at >= 0) {
        Object c = children[at];
        if (c instanceof Builder b) {
          return b;
        }
        Builder b = from((FieldSet) c);
        children[at] = b;
        return b;
      }
      Builder b = new Builder();
      insertChild(-at - 1, e, b);
      return b;
    }

    private int childSlot(PathElement e) {
      int n = childCount;
      if (n == 0 || Elements.compare(childElements[n - 1], e) < 0) {
        return -(n + 1);
      }
      return searchRange(childElements, n, e);
    }

    private void insertChild(int at, PathElement e, Object value) {
      int n = childCount;
      if (n == childElements.length) {
        int cap = Math.max(4, n * 2);
        childElements = Arrays.copyOf(childElements, cap);
        children = Arrays.copyOf(children, cap);
      }
      System.arraycopy(childElements, at, childElements, at + 1, n - at);
      System.arraycopy(children, at, children, at + 1, n - at);
      childElements[at] = e;
      children[at] = value;
      childCount = n + 1;
    }

    private static int searchRange(PathElement[] sorted, int n, PathElement key) {
      int lo = 0;
      int hi = n - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int c = Elements.compare(sorted[mid], key);
        if (c < 0) {
          lo = mid + 1;
        } else if (c > 0) {
          hi = mid - 1;
        } else {
          return mid;
        }
      }
      return -(lo + 1);
    }
  }
}
