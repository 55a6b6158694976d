/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;

/**
 * The Events kube's job controller records about a Job (job_controller.go and its
 * {@code RealPodControl}), with kube's types, reasons and messages. Thread-safe.
 */
final class JobEvents {
  private final EventRecorder recorder;

  JobEvents(EventRecorder recorder) {
    this.recorder = recorder;
  }

  private static InvolvedObject involved(MapValue job) {
    return InvolvedObject.of("batch/v1", "Job", job);
  }

  /** {@code RealPodControl.CreatePods}' success. */
  void created(MapValue job, MapValue pod) {
    recorder.normal(involved(job), "SuccessfulCreate",
        "Created pod: " + Meta.metaString(pod, "name"));
  }

  /** {@code RealPodControl.CreatePods}' failure (the caller leaves out a terminating namespace). */
  void createFailed(MapValue job, StatusException e) {
    recorder.warning(involved(job), "FailedCreate", "Error creating: " + e.getMessage());
  }

  /**
   * {@code RealPodControl.DeletePod}: runs {@code delete}, then records {@code SuccessfulDelete},
   * or {@code FailedDelete} and rethrows; a Pod gone already is rethrown without an Event.
   */
  void deletePod(MapValue job, MapValue pod, Runnable delete) {
    try {
      delete.run();
    } catch (NotFoundException e) {
      throw e;
    } catch (StatusException e) {
      recorder.warning(involved(job), "FailedDelete", "Error deleting: " + e.getMessage());
      throw e;
    }
    recorder.normal(involved(job), "SuccessfulDelete",
        "Deleted pod: " + Meta.metaString(pod, "name"));
  }

  /** The {@code Suspended} condition became true. */
  void suspended(MapValue job) {
    recorder.normal(involved(job), "Suspended", "Job suspended");
  }

  /** The {@code Suspended} condition became false. */
  void resumed(MapValue job) {
    recorder.normal(involved(job), "Resumed", "Job resumed");
  }

  /**
   * kube's {@code recordJobFinished}: {@code Completed} (after {@code TooManySucceededPods} when
   * more succeeded than asked), or a warning with the {@code Failed} condition's reason and
   * message.
   */
  void finished(MapValue job, MapValue condition) {
    if (Nested.str(condition, "type").equals("Complete")) {
      if (Nested.has(job, "spec", "completions") && Nested.integer(job, "status", "succeeded")
          > Nested.integer(job, "spec", "completions")) {
        recorder.warning(involved(job), "TooManySucceededPods",
            "Too many succeeded pods running after completion count reached");
      }
      recorder.normal(involved(job), "Completed", "Job completed");
    } else {
      recorder.warning(involved(job), Nested.str(condition, "reason"),
          Nested.str(condition, "message"));
    }
  }
}
