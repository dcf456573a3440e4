package scenarios

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// The schedules the controller accepts, read as cron.ParseStandard reads
// them: the next time after 2024-06-01 12:00:30 UTC (a Saturday).
func TestParseScheduleMacros(t *testing.T) {
	from := time.Date(2024, 6, 1, 12, 0, 30, 0, time.UTC)
	for _, tc := range []struct {
		schedule string
		want     string
	}{
		{"*/15 * * * *", "2024-06-01T12:15:00Z"},
		{"0 9-17 * * 1-5", "2024-06-03T09:00:00Z"},
		{"@hourly", "2024-06-01T13:00:00Z"},
		{"@daily", "2024-06-02T00:00:00Z"},
		{"@midnight", "2024-06-02T00:00:00Z"},
		{"@weekly", "2024-06-02T00:00:00Z"},
		{"@monthly", "2024-07-01T00:00:00Z"},
		{"@yearly", "2025-01-01T00:00:00Z"},
		{"@every 90m", "2024-06-01T13:30:30Z"},
	} {
		s, err := parseSchedule(tc.schedule)
		if err != nil {
			t.Errorf("%s: %v", tc.schedule, err)
			continue
		}
		if got := s.Next(from).Format(time.RFC3339); got != tc.want {
			t.Errorf("%s: next %s, want %s", tc.schedule, got, tc.want)
		}
	}
	for _, bad := range []string{"* * * *", "61 * * * *", "@fortnightly", "* * * * * *"} {
		if _, err := parseSchedule(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// spec.startTime, written bare (YAML reads it as a timestamp) or quoted,
// sets the wall clock: the Jobs are named after it.
func TestStartTimeNamesTheJobs(t *testing.T) {
	for _, st := range []string{"2024-06-01T12:00:00Z", `"2024-06-01T14:00:00+02:00"`, "", "0001-01-01T00:00:00Z"} {
		src := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: x}
spec:
  duration: 3m
  startTime: ` + st + `
  workloads:
    - apiVersion: batch/v1
      kind: CronJob
      metadata: {name: cj}
      spec:
        schedule: "*/2 * * * *"
        jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i:1}]}}}}
`
		s, err := Parse("x.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		w := s.Build()
		w.Run(s.Duration)
		want := "cj-28620722" // 12:02 UTC, in minutes since the epoch
		switch st {
		case "":
			want = "cj-2"
		case "0001-01-01T00:00:00Z": // the zero time is a start time, not unset
			want = "cj--1035593278"
		}
		j := w.Workload(want)
		if j == nil || j.Spec.Kind != model.KindJob || j.Parent() != w.Workload("cj") {
			t.Errorf("startTime %s: no Job %s", st, want)
		}
	}
}
