/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.controllers.cronjob.CronJobController.Missed;
import io.apiserver4j.controllers.cronjob.CronJobController.MostRecent;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's pkg/controller/cronjob/utils_test.go tables ({@code TestMostRecentScheduleTime},
 * {@code TestNextScheduleTimeDuration}, {@code TestByJobStartTime}, the rogue schedule of
 * {@code TestNextScheduleTime}) with kube's expected values, plus robfig/cron schedule times.
 */
class CronJobUtilsTest {
  /** kube's {@code topOfTheHour()}. */
  private static final Instant TOP = Instant.parse("2016-05-19T10:00:00Z");

  private static Instant at(Duration d) {
    return TOP.plus(d);
  }

  private static Duration h(long hours) {
    return Duration.ofHours(hours);
  }

  private static Duration m(long minutes) {
    return Duration.ofMinutes(minutes);
  }

  private static MapValue cronJob(Instant created, String schedule, Long deadline,
      Instant lastSchedule) {
    String d = deadline == null ? "" : ",\"startingDeadlineSeconds\":" + deadline;
    String st = lastSchedule == null ? "{}"
        : "{\"lastScheduleTime\":\"" + Meta.formatTime(lastSchedule) + "\"}";
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"cj\",\"namespace\":\"ns\","
        + "\"creationTimestamp\":\"" + Meta.formatTime(created) + "\"},\"spec\":{\"schedule\":\""
        + schedule + "\"" + d + "},\"status\":" + st + "}");
  }

  static Stream<Arguments> mostRecentCases() {
    Instant half = at(m(30));
    return Stream.of(
        Arguments.of("now before next schedule", cronJob(TOP, "0 * * * *", null, null), false,
            TOP.plusSeconds(30), TOP, null, Missed.NONE),
        Arguments.of("now just after next schedule", cronJob(TOP, "0 * * * *", null, null),
            false, at(m(61)), TOP, at(m(60)), Missed.NONE),
        Arguments.of("missed 5 schedules",
            cronJob(TOP.plusSeconds(10), "0 * * * *", null, null), false, at(m(301)),
            TOP.plusSeconds(10), at(m(300)), Missed.FEW),
        Arguments.of("complex schedule", cronJob(TOP, "30 6-16/4 * * 1-5", null, half), false,
            at(h(24).plus(m(31))), half, at(h(24).plus(m(30))), Missed.FEW),
        Arguments.of("another complex schedule",
            cronJob(TOP, "30 10,11,12 * * 1-5", null, half), false, at(h(30).plus(m(30))),
            half, null, Missed.FEW),
        Arguments.of("complex schedule with longer diff between executions",
            cronJob(TOP, "30 6-16/4 * * 1-5", null, half), false, at(h(96).plus(m(31))), half,
            at(h(96).plus(m(30))), Missed.FEW),
        Arguments.of("complex schedule with shorter diff between executions",
            cronJob(TOP, "30 6-16/4 * * 1-5", null, null), false, at(h(24).plus(m(31))), TOP,
            at(h(24).plus(m(30))), Missed.FEW),
        Arguments.of("@every schedule", cronJob(at(m(-59)), "@every 1h", 10L, at(m(1))), false,
            at(h(7 * 24)), at(m(1)), at(h(6 * 24 + 23).plus(m(1))), Missed.MANY),
        Arguments.of("earliestTime being CreationTimestamp and LastScheduleTime",
            cronJob(TOP, "0 * * * *", null, TOP), false, TOP.plusSeconds(30), TOP, null,
            Missed.NONE),
        Arguments.of("earliestTime being LastScheduleTime",
            cronJob(TOP, "*/5 * * * *", null, half), false, at(m(31)), half, null, Missed.NONE),
        Arguments.of("earliestTime being LastScheduleTime (within StartingDeadlineSeconds)",
            cronJob(TOP, "*/5 * * * *", 60L, half), false, at(m(31)), half, null, Missed.NONE),
        Arguments.of("earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)",
            cronJob(TOP, "*/5 * * * *", 60L, half), true, at(m(32)), at(m(31)), null,
            Missed.NONE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mostRecentCases")
  void mostRecentScheduleTime(String name, MapValue cj, boolean includeDeadline, Instant now,
      Instant earliest, Instant recent, Missed missed) {
    CronSchedule sched = CronSchedule.parse(Meta.string((MapValue) cj.getOrNull("spec"),
        "schedule"), CronSchedule.UTC);
    MostRecent got = CronJobController.mostRecentScheduleTime(cj, now, sched, includeDeadline);
    assertThat(got.earliest()).isEqualTo(earliest);
    assertThat(got.time()).isEqualTo(Optional.ofNullable(recent));
    assertThat(got.missed()).isEqualTo(missed);
  }

  @Test
  void rogueScheduleIsAnError() {
    MapValue cj = cronJob(TOP.plusSeconds(10), "59 23 31 2 *", null, null);
    CronSchedule sched = CronSchedule.parse("59 23 31 2 *", CronSchedule.UTC);
    assertThatThrownBy(() -> CronJobController.mostRecentScheduleTime(cj, at(h(1)), sched,
        false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CronJobController.nextScheduleTime(cj, at(h(1)), sched))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static Stream<Arguments> durationCases() {
    Duration delta = CronJobController.NEXT_SCHEDULE_DELTA;
    return Stream.of(
        Arguments.of("complex schedule skipping weekend",
            cronJob(TOP, "30 6-16/4 * * 1-5", null, at(m(30))), at(h(24).plus(m(31))),
            h(3).plus(m(59)).plus(delta)),
        Arguments.of("another complex schedule skipping weekend",
            cronJob(TOP, "30 10,11,12 * * 1-5", null, at(m(30))), at(h(30).plus(m(30))),
            h(66).plus(delta)),
        Arguments.of("once a week cronjob, missed two runs",
            cronJob(TOP, "0 12 * * 4", null, at(h(2))), at(h(19 * 24 + 1).plus(m(30))),
            h(48).plus(m(30)).plus(delta)),
        Arguments.of("no previous run of a cronjob", cronJob(TOP, "0 12 * * 5", null, null),
            at(h(6)), h(20).plus(delta)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("durationCases")
  void nextScheduleTimeDuration(String name, MapValue cj, Instant now, Duration expected) {
    CronSchedule sched = CronSchedule.parse(Meta.string((MapValue) cj.getOrNull("spec"),
        "schedule"), CronSchedule.UTC);
    assertThat(CronJobController.nextScheduleDuration(cj, now, sched)).isEqualTo(expected);
  }

  private static MapValue job(String name, String startTime) {
    String st = startTime == null ? "{}" : "{\"startTime\":\"" + startTime + "\"}";
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\"},\"status\":" + st
        + "}");
  }

  @Test
  void byJobStartTime() {
    String now = "2018-01-01T02:03:04Z";
    String later = "2019-01-01T02:03:04Z";
    MapValue aNil = job("a", null);
    MapValue bNil = job("b", null);
    MapValue aSet = job("a", now);
    MapValue bSet = job("b", now);
    MapValue aLater = job("a", later);
    assertThat(sorted(bNil, aNil)).containsExactly(aNil, bNil);
    assertThat(sorted(aNil, bSet)).containsExactly(bSet, aNil);
    assertThat(sorted(aSet, bNil)).containsExactly(aSet, bNil);
    assertThat(sorted(bSet, aSet)).containsExactly(aSet, bSet);
    assertThat(sorted(aLater, bSet)).containsExactly(bSet, aLater);
  }

  private static List<MapValue> sorted(MapValue... jobs) {
    List<MapValue> l = new ArrayList<>(List.of(jobs));
    l.sort(CronJobController.BY_START_TIME);
    return l;
  }

  @Test
  void jobNameIsTheScheduledTimeInMinutes() {
    MapValue cj = cronJob(TOP, "*/1 * * * *", null, null);
    // kube's getTimeHashInMinutes: Unix() / 60, and 2016-05-19T10:00:00Z is 1463652000
    assertThat(CronJobController.jobName(cj, TOP)).isEqualTo("cj-24394200");
  }

  @Test
  void scheduledTimestampAnnotationIsRfc3339InTheTimeZone() {
    assertThat(CronJobController.formatRfc3339(TOP, CronSchedule.UTC))
        .isEqualTo("2016-05-19T10:00:00Z");
    assertThat(CronJobController.formatRfc3339(TOP, ZoneId.of("America/New_York")))
        .isEqualTo("2016-05-19T06:00:00-04:00");
  }

  static Stream<Arguments> scheduleCases() {
    return Stream.of(
        // robfig/cron's TestActivation and spec_test.go-style expectations
        Arguments.of("*/1 * * * *", "2016-05-19T10:00:00Z", "2016-05-19T10:01:00Z"),
        Arguments.of("*/15 * * * *", "2016-05-19T10:00:00Z", "2016-05-19T10:15:00Z"),
        Arguments.of("0 * * * *", "2016-05-19T10:00:00Z", "2016-05-19T11:00:00Z"),
        Arguments.of("@hourly", "2016-05-19T10:00:30Z", "2016-05-19T11:00:00Z"),
        Arguments.of("@daily", "2016-05-19T10:00:00Z", "2016-05-20T00:00:00Z"),
        Arguments.of("@midnight", "2016-05-19T10:00:00Z", "2016-05-20T00:00:00Z"),
        Arguments.of("@weekly", "2016-05-19T10:00:00Z", "2016-05-22T00:00:00Z"),
        Arguments.of("@monthly", "2016-05-19T10:00:00Z", "2016-06-01T00:00:00Z"),
        Arguments.of("@yearly", "2016-05-19T10:00:00Z", "2017-01-01T00:00:00Z"),
        Arguments.of("@annually", "2016-05-19T10:00:00Z", "2017-01-01T00:00:00Z"),
        Arguments.of("@every 1h30m", "2016-05-19T10:00:00Z", "2016-05-19T11:30:00Z"),
        Arguments.of("30 6-16/4 * * 1-5", "2016-05-20T14:31:00Z", "2016-05-23T06:30:00Z"),
        Arguments.of("0 0 1 jan *", "2016-05-19T10:00:00Z", "2017-01-01T00:00:00Z"),
        Arguments.of("0 12 * * sun", "2016-05-19T10:00:00Z", "2016-05-22T12:00:00Z"),
        // day of month and day of week both restricted: either matches
        Arguments.of("0 0 1 * mon", "2016-05-19T10:00:00Z", "2016-05-23T00:00:00Z"),
        Arguments.of("0 0 29 2 *", "2016-05-19T10:00:00Z", "2020-02-29T00:00:00Z"),
        Arguments.of("TZ=America/New_York 0 6 * * *", "2016-05-19T09:00:00Z",
            "2016-05-19T10:00:00Z"),
        Arguments.of("CRON_TZ=Asia/Tokyo 0 9 * * *", "2016-05-19T00:00:00Z",
            "2016-05-20T00:00:00Z"));
  }

  @ParameterizedTest(name = "{0} after {1}")
  @MethodSource("scheduleCases")
  void nextActivation(String spec, String after, String expected) {
    assertThat(CronSchedule.parse(spec, CronSchedule.UTC).next(Instant.parse(after)))
        .contains(Instant.parse(expected));
  }

  @Test
  void aTimeZoneFieldAppliesWhenTheScheduleNamesNone() {
    MapValue cj = (MapValue) Json.read("{\"metadata\":{\"name\":\"cj\"},\"spec\":{\"schedule\":"
        + "\"0 6 * * *\",\"timeZone\":\"America/New_York\"}}");
    assertThat(CronJobController.schedule(cj).orElseThrow()
        .next(Instant.parse("2016-05-19T09:00:00Z")))
        .contains(Instant.parse("2016-05-19T10:00:00Z"));
  }

  static Stream<Arguments> badSpecs() {
    return Stream.of(
        Arguments.of("", "empty spec string"),
        Arguments.of("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
        Arguments.of("60 * * * *", "end of range (60) above maximum (59): 60"),
        Arguments.of("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
        Arguments.of("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"),
        Arguments.of("@fortnightly", "unrecognized descriptor: @fortnightly"),
        Arguments.of("TZ=Mars/Olympus 0 * * * *",
            "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("badSpecs")
  void badSpecsFailWithRobfigsMessage(String spec, String message) {
    assertThatThrownBy(() -> CronSchedule.parse(spec, CronSchedule.UTC))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }
}
