/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.dryrun.DeleteSettings.PropagationPolicy;
import io.apiserver4j.dryrun.DeletionPreview.Outcome;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeletionPreviewTest {
  private static final Instant NOW = Instant.parse("2024-05-06T07:08:09.750Z");

  private static MapValue obj(String metadataExtra) {
    return (MapValue) Json.read("{\"kind\":\"Thing\",\"metadata\":{\"name\":\"t\""
        + (metadataExtra.isEmpty() ? "" : "," + metadataExtra) + "}}");
  }

  /**
   * Table: existing metadata, settings, outcome, expected metadata (or "same").
   * Settings: "immediate", "graceful:N", "graceful", plus "|policy" for a propagation policy.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', textBlock = """
      no finalizers;                 ;                                                   immediate;        REMOVED;             same
      finalizer;                     "finalizers":["x"];                                 immediate;        MARKED_FOR_DELETION; "finalizers":["x"],"deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      finalizer bumps generation;    "generation":3,"finalizers":["x"];                  immediate;        MARKED_FOR_DELETION; "generation":4,"finalizers":["x"],"deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      already marked keeps stamp;    "generation":3,"finalizers":["x"],"deletionTimestamp":"2024-01-01T00:00:00Z","deletionGracePeriodSeconds":0; immediate; MARKED_FOR_DELETION; "generation":3,"finalizers":["x"],"deletionTimestamp":"2024-01-01T00:00:00Z","deletionGracePeriodSeconds":0
      future stamp pulled to now;    "finalizers":["x"],"deletionTimestamp":"2030-01-01T00:00:00Z","deletionGracePeriodSeconds":0; immediate; MARKED_FOR_DELETION; "finalizers":["x"],"deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      orphan adds finalizer;         ;                                                   immediate|Orphan; MARKED_FOR_DELETION; "deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0,"finalizers":["orphan"]
      foreground adds finalizer;     "finalizers":["x"];                                 immediate|Foreground; MARKED_FOR_DELETION; "finalizers":["x","foregroundDeletion"],"deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      background drops orphan;       "finalizers":["orphan"];                            immediate|Background; REMOVED;         same
      graceful 30;                   "generation":1;                                     graceful:30;      MARKED_FOR_DELETION; "generation":2,"deletionTimestamp":"2024-05-06T07:08:39Z","deletionGracePeriodSeconds":30
      graceful 0 removes marked;     ;                                                   graceful:0;       REMOVED;             "deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      graceful 0 with finalizer;     "finalizers":["x"];                                 graceful:0;       MARKED_FOR_DELETION; "finalizers":["x"],"deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      negative grace counts as 1;    ;                                                   graceful:-5;      MARKED_FOR_DELETION; "deletionTimestamp":"2024-05-06T07:08:10Z","deletionGracePeriodSeconds":1
      graceful without grace;        ;                                                   graceful;         REMOVED;             same
      pending not shortened;         "deletionTimestamp":"2024-05-06T07:08:30Z","deletionGracePeriodSeconds":30; graceful:30; ALREADY_DELETING; same
      pending no grace given;        "deletionTimestamp":"2024-05-06T07:08:30Z","deletionGracePeriodSeconds":30; graceful; ALREADY_DELETING; same
      pending shortened;             "deletionTimestamp":"2024-05-06T07:08:30Z","deletionGracePeriodSeconds":30; graceful:10; MARKED_FOR_DELETION; "deletionTimestamp":"2024-05-06T07:08:10Z","deletionGracePeriodSeconds":10
      shortened into the past;       "deletionTimestamp":"2024-05-06T07:08:30Z","deletionGracePeriodSeconds":30; graceful:5; MARKED_FOR_DELETION; "deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":1
      shortened to zero;             "deletionTimestamp":"2024-05-06T07:08:30Z","deletionGracePeriodSeconds":30; graceful:0; REMOVED; "deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      both gc finalizers, first wins; "finalizers":["x","foregroundDeletion","orphan"];  immediate;        MARKED_FOR_DELETION; "finalizers":["x","foregroundDeletion"],"deletionTimestamp":"2024-05-06T07:08:09Z","deletionGracePeriodSeconds":0
      pending with zero grace;       "deletionTimestamp":"2024-05-06T07:08:00Z","deletionGracePeriodSeconds":0; graceful:30; REMOVED; same
      grace ignored when not graceful; ;                                                 immediate-grace:30; REMOVED;           same
      """)
  void table(String name, String meta, String settings, Outcome outcome, String expected) {
    MapValue current = obj(meta == null ? "" : meta);
    DeletionPreview p = DeletionPreview.of(current, settings(settings), NOW);
    assertThat(p.outcome()).isEqualTo(outcome);
    if (expected.equals("same")) {
      assertThat(p.object()).isSameAs(current);
    } else {
      assertThat(p.object()).isEqualTo(obj(expected));
    }
  }

  private static DeleteSettings settings(String spec) {
    String[] parts = spec.split("\\|");
    String s = parts[0];
    DeleteSettings out;
    if (s.equals("immediate")) {
      out = DeleteSettings.immediate();
    } else if (s.equals("graceful")) {
      out = new DeleteSettings(true, Optional.empty(), Optional.empty());
    } else if (s.startsWith("graceful:")) {
      out = DeleteSettings.graceful(Long.parseLong(s.substring("graceful:".length())));
    } else if (s.startsWith("immediate-grace:")) {
      out = new DeleteSettings(false,
          Optional.of(Long.parseLong(s.substring("immediate-grace:".length()))), Optional.empty());
    } else {
      throw new IllegalArgumentException(spec);
    }
    return parts.length > 1 ? out.withPropagationPolicy(PropagationPolicy.fromWireName(parts[1]))
        : out;
  }

  @Test
  void badDeletionTimestampIsNamed() {
    MapValue current = obj("\"deletionTimestamp\":\"yesterday\",\"deletionGracePeriodSeconds\":30");
    assertThatThrownBy(() -> DeletionPreview.of(current, DeleteSettings.graceful(1), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"yesterday\"");
    assertThatThrownBy(() -> PropagationPolicy.fromWireName("orphan"))
        .hasMessageContaining("\"orphan\"");
  }
}
