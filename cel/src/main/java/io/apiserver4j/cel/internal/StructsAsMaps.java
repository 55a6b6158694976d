/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;

/**
 * Rewrites the object constructions of MutatingAdmissionPolicy expressions
 * ({@code Object{spec: Object.spec{replicas: 1}}}, {@code JSONPatch{op: 'add', path: '/x'}})
 * into map literals with the same fields, before type checking: the policies' values are
 * untyped here, and a map is what the mutation is applied from.
 */
final class StructsAsMaps {
  private long nextId;

  private StructsAsMaps(long firstFreeId) {
    this.nextId = firstFreeId;
  }

  static boolean isObjectType(String name) {
    return name.equals("Object") || name.startsWith("Object.") || name.equals("JSONPatch");
  }

  static CelAbstractSyntaxTree rewrite(CelAbstractSyntaxTree parsed) {
    long max = CelNavigableAst.fromAst(parsed).getRoot().allNodes()
        .mapToLong(n -> n.expr().id()).max().orElse(0);
    CelExpr root = new StructsAsMaps(max + 1).visit(parsed.getExpr());
    return CelAbstractSyntaxTree.newParsedAst(root, parsed.getSource());
  }

  private CelExpr visit(CelExpr e) {
    switch (e.getKind()) {
      case STRUCT: {
        CelExpr.CelStruct s = e.struct();
        ImmutableList.Builder<CelExpr.CelStruct.Entry> structEntries = ImmutableList.builder();
        ImmutableList.Builder<CelExpr.CelMap.Entry> mapEntries = ImmutableList.builder();
        for (CelExpr.CelStruct.Entry entry : s.entries()) {
          CelExpr value = visit(entry.value());
          structEntries.add(entry.toBuilder().setValue(value).build());
          mapEntries.add(CelExpr.ofMapEntry(entry.id(),
              CelExpr.ofConstant(nextId++, CelConstant.ofValue(entry.fieldKey())), value,
              entry.optionalEntry()));
        }
        if (isObjectType(s.messageName())) {
          return CelExpr.ofMap(e.id(), mapEntries.build());
        }
        return CelExpr.ofStruct(e.id(), s.messageName(), structEntries.build());
      }
      case SELECT: {
        CelExpr.CelSelect sel = e.select();
        return CelExpr.ofSelect(e.id(), visit(sel.operand()), sel.field(), sel.testOnly());
      }
      case CALL: {
        CelExpr.CelCall c = e.call();
        ImmutableList.Builder<CelExpr> args = ImmutableList.builder();
        c.args().forEach(a -> args.add(visit(a)));
        return CelExpr.ofCall(e.id(), c.target().map(this::visit), c.function(), args.build());
      }
      case LIST: {
        CelExpr.CelList l = e.list();
        ImmutableList.Builder<CelExpr> items = ImmutableList.builder();
        l.elements().forEach(a -> items.add(visit(a)));
        return CelExpr.ofList(e.id(), items.build(), l.optionalIndices());
      }
      case MAP: {
        ImmutableList.Builder<CelExpr.CelMap.Entry> entries = ImmutableList.builder();
        for (CelExpr.CelMap.Entry entry : e.map().entries()) {
          entries.add(CelExpr.ofMapEntry(entry.id(), visit(entry.key()), visit(entry.value()),
              entry.optionalEntry()));
        }
        return CelExpr.ofMap(e.id(), entries.build());
      }
      case COMPREHENSION: {
        CelExpr.CelComprehension c = e.comprehension();
        return CelExpr.ofComprehension(e.id(), c.iterVar(), c.iterVar2(), visit(c.iterRange()),
            c.accuVar(), visit(c.accuInit()), visit(c.loopCondition()), visit(c.loopStep()),
            visit(c.result()));
      }
      default:
        return e;
    }
  }
}
