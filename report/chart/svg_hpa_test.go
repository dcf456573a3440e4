package chart

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestSVGHPALane: the static picture of the load step has an autoscalers
// section with the autoscaler's lane: its name, target and bounds, its
// metric and target, the desired replicas as a step line with a step at
// each change of the page's data, the target dashed, and its events'
// marks; a run without an autoscaler has no such section.
func TestSVGHPALane(t *testing.T) {
	s := load(t, "../../scenarios/hpa/load-step.yaml")
	w := s.NewWorld()
	r := NewRecorder()
	w.Subscribe(r)
	s.Populate(w)
	w.Run(s.Duration)
	var b bytes.Buffer
	if err := r.WriteSVG(&b, Meta{Title: "t", End: s.Duration}); err != nil {
		t.Fatal(err)
	}
	pic := b.String()
	i := strings.Index(pic, ">autoscalers<")
	if i < 0 {
		t.Fatal("the picture has no autoscalers section")
	}
	lane := pic[i:]
	for _, want := range []string{">hpa/web<", ">→ Deployment/web, 2 to 10 replicas<", ">cpu utilization (% of request)<", ">target 50% (dashed)<",
		`stroke="` + metricColor + `" stroke-dasharray="4 3"`, ">desired replicas<", ">Autoscaler<"} {
		if !strings.Contains(lane, want) {
			t.Errorf("the picture's autoscaler lane has no %s", want)
		}
	}
	h := r.hpas[0]
	desired := regexp.MustCompile(`<path d="(M[^"]*)" stroke="` + desiredColor + `"`).FindStringSubmatch(lane)
	if desired == nil {
		t.Fatal("no desired-replicas line")
	}
	if got := strings.Count(desired[1], "H"); got != len(h.steps) {
		t.Errorf("the desired line has %d steps; the lane's data %d", got, len(h.steps))
	}
	if got := strings.Count(lane[:strings.Index(lane, ">Waiting<")], ": New size: "); got != 3 {
		t.Errorf("%d SuccessfulRescale marks on the lane; want 3", got)
	}

	s = load(t, "../../scenarios/demo.yaml")
	w = s.NewWorld()
	r = NewRecorder()
	w.Subscribe(r)
	s.Populate(w)
	w.Run(s.Duration)
	b.Reset()
	if err := r.WriteSVG(&b, Meta{Title: "t", End: s.Duration}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "autoscaler") {
		t.Error("a run without an autoscaler draws an autoscalers section or legend")
	}
}
