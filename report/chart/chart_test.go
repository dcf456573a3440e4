package chart

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// record runs s to its end with a Recorder and returns it, the world and
// the chart's meta.
func record(t *testing.T, s *scenarios.Scenario) (*Recorder, *model.World, Meta) {
	t.Helper()
	w := s.NewWorld()
	r := NewRecorder()
	w.Subscribe(r)
	s.Populate(w)
	w.Run(s.Duration)
	return r, w, Meta{Title: s.File.Metadata.Name, Description: s.File.Metadata.Description, Seed: s.Seed, End: s.Duration}
}

func load(t *testing.T, path string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pageData is the part of the page's data the tests read.
type pageData struct {
	Title string  `json:"title"`
	End   float64 `json:"end"`
	Str   []string
	Nodes []struct {
		N string `json:"n"`
	} `json:"nodes"`
	Pods []struct {
		N  string `json:"n"`
		Cs []struct {
			N string      `json:"n"`
			K int         `json:"k"`
			S [][]float64 `json:"s"`
		} `json:"cs"`
	} `json:"pods"`
}

const dataOpen, dataClose = `<script type="application/json" id="data">`, `</script>`

// splitPage returns the page's data and the page without it.
func splitPage(t *testing.T, page string) (string, string) {
	t.Helper()
	before, rest, ok := strings.Cut(page, dataOpen)
	if !ok {
		t.Fatal("the page has no data element")
	}
	data, after, ok := strings.Cut(rest, dataClose)
	if !ok {
		t.Fatal("the data element is not closed")
	}
	return data, before + after
}

// TestEveryScenario draws every library scenario as a page and as an SVG:
// the page embeds every pod and node and loads nothing from anywhere, the
// SVG is well-formed XML, and both are the same bytes on a second run.
func TestEveryScenario(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../../scenarios"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 30 {
		t.Fatalf("found %d scenarios: is the library where the test looks?", len(all))
	}
	for _, s := range all {
		t.Run(s.File.Metadata.Name, func(t *testing.T) {
			r, w, m := record(t, s)
			var page, pic bytes.Buffer
			if err := r.WriteHTML(&page, m); err != nil {
				t.Fatal(err)
			}
			if err := r.WriteSVG(&pic, m); err != nil {
				t.Fatal(err)
			}
			checkPage(t, page.String(), w)
			checkSVG(t, pic.Bytes())

			r2, _, _ := record(t, s)
			var page2, pic2 bytes.Buffer
			_ = r2.WriteHTML(&page2, m)
			_ = r2.WriteSVG(&pic2, m)
			if !bytes.Equal(page.Bytes(), page2.Bytes()) || !bytes.Equal(pic.Bytes(), pic2.Bytes()) {
				t.Error("a second run of the same scenario and seed drew different bytes")
			}
		})
	}
}

func checkPage(t *testing.T, page string, w *model.World) {
	t.Helper()
	data, rest := splitPage(t, page)
	for _, bad := range []string{"http://", "https://", "src=", "href=", "@import", "url(", "<link", "<iframe"} {
		if strings.Contains(rest, bad) {
			t.Errorf("the page outside its data has %q: it must load nothing", bad)
		}
	}
	if strings.Contains(data, "<") {
		t.Error("the data holds a raw '<': it could close its script element")
	}
	var d pageData
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatalf("the page's data is not JSON: %v", err)
	}
	pods := map[string]bool{}
	for _, p := range d.Pods {
		pods[p.N] = true
	}
	for _, p := range w.Pods() {
		if !pods[p.Key()] { // the page names a pod of another namespace ns/name
			t.Errorf("pod %s is not in the page's data", p.Key())
		}
	}
	if len(d.Pods) != len(w.Pods()) {
		t.Errorf("the page has %d pods, the run %d", len(d.Pods), len(w.Pods()))
	}
	nodes := map[string]bool{}
	for _, n := range d.Nodes {
		nodes[n.N] = true
	}
	for _, n := range w.Nodes() {
		if !nodes[n.Name] {
			t.Errorf("node %s is not in the page's data", n.Name)
		}
	}
	// Every interval lies within the run and follows the one before.
	for _, p := range d.Pods {
		for _, c := range p.Cs {
			prev := 0.0
			for _, sg := range c.S {
				if sg[0] < prev || sg[1] < sg[0] || sg[1] > d.End {
					t.Errorf("pod %s container %s: interval [%v, %v] after %v in a run of %v", p.N, c.N, sg[0], sg[1], prev, d.End)
				}
				prev = sg[1]
			}
		}
	}
}

// checkSVG parses the picture as XML: one svg root, well-formed throughout.
func checkSVG(t *testing.T, pic []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(pic))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg" {
					t.Errorf("root element %v, want svg in the SVG namespace", e.Name)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%d root elements, want 1", roots)
	}
	if bytes.Contains(pic, []byte("href")) {
		t.Error("the SVG links to something")
	}
}

// segs renders a container's intervals as "start-end style(reason)".
func segs(r *Recorder, pod, container string) string {
	var b strings.Builder
	for _, s := range r.podIdx[pod].container(container).segs {
		fmt.Fprintf(&b, "%v-%v %s", s.start, s.end, styles[s.style].label)
		if s.hasExit {
			fmt.Fprintf(&b, " exit %d", s.exit)
		}
		b.WriteString("; ")
	}
	return b.String()
}

// TestDemoIntervals pins the demo's web container: pulled for 8s, ready,
// OOM-killed at 38s and restarted at once, then in CrashLoopBackOff.
func TestDemoIntervals(t *testing.T) {
	r, _, _ := record(t, load(t, "../../scenarios/demo.yaml"))
	got := segs(r, "web", "app")
	want := "0s-8s ContainerCreating; 8s-38s ready; 38s-38s OOMKilled exit 137; 38s-1m8s ready exit 137; " +
		"1m8s-1m8s OOMKilled exit 137; 1m8s-1m18s CrashLoopBackOff exit 137; 1m18s-1m48s ready exit 137; "
	if !strings.HasPrefix(got, want) {
		t.Errorf("web/app:\n got %s\nwant %s...", got, want)
	}
	web := r.podIdx["web"]
	if web.node == nil || web.node.name != "node-a" || web.wl != nil {
		t.Errorf("web: node %v, workload %v; want node-a, none", web.node, web.wl)
	}
	// Ready: False until 8s, True until 68s (the instant at 38s is no change).
	if len(web.ready) < 3 || web.ready[1].t != 8*time.Second || web.ready[2].t != 68*time.Second {
		t.Errorf("web's Ready steps: %+v", web.ready)
	}
	if r.bare.pods != 2 || r.bare.ready[0].v != 1 {
		t.Errorf("the bare group: %d pods, ready steps %+v", r.bare.pods, r.bare.ready)
	}
}

// TestReadinessShading: a failing readiness probe turns the running bar
// from ready to started-not-ready and back, with no change of state.
func TestReadinessShading(t *testing.T) {
	r, _, _ := record(t, load(t, "../../scenarios/probes/readiness-flap.yaml"))
	got := segs(r, "web", "app")
	if !strings.Contains(got, "0s-2m20s ready; 2m20s-4m0s started, not ready; 4m0s-") {
		t.Errorf("web/app: %s\nwant the ready bar to turn started-not-ready from 2m20s to 4m", got)
	}
}

// TestNodeFaultsAndTaints: a 2-minute partition from 3m shows as a fault
// interval; the node controller's taints come and go with Ready.
func TestNodeFaultsAndTaints(t *testing.T) {
	r, _, _ := record(t, load(t, "../../scenarios/cluster/partition-heals-in-time.yaml"))
	n := r.nodeIdx["node-a"]
	if len(n.faults) != 1 || n.faults[0].start != 3*time.Minute || n.faults[0].end != 5*time.Minute || faultNames[n.faults[0].what] != "partition" {
		t.Errorf("faults: %+v, want one partition 3m-5m", n.faults)
	}
	if len(n.taints) != 2 {
		t.Fatalf("taints: %+v, want unreachable NoSchedule and NoExecute", n.taints)
	}
	for _, tt := range n.taints {
		if r.strs[tt.what] != model.TaintUnreachable+":NoSchedule" && r.strs[tt.what] != model.TaintUnreachable+":NoExecute" || tt.open || tt.end > 5*time.Minute || tt.start < 3*time.Minute {
			t.Errorf("taint %s %v-%v", r.strs[tt.what], tt.start, tt.end)
		}
	}
	var statuses []string
	for _, s := range n.ready {
		statuses = append(statuses, statusNames[s.v])
	}
	if strings.Join(statuses, ",") != "True,Unknown,True" {
		t.Errorf("node Ready: %v", statuses)
	}
}

// TestSidecarAndInitKinds: the batch pod's sidecar is drawn apart from its
// job container.
func TestSidecarAndInitKinds(t *testing.T) {
	r, _, _ := record(t, load(t, "../../scenarios/init/batch-job-sidecar.yaml"))
	for _, p := range r.pods {
		var kinds []uint8
		for _, c := range p.conts {
			kinds = append(kinds, c.kind)
		}
		if fmt.Sprint(kinds) != "[1 2]" {
			t.Errorf("pod %s: container kinds %v, want a sidecar then a main container", p.name, kinds)
		}
	}
}

// TestSVGCapsLanes: thousands of pods draw at most svgMaxPods pod lanes,
// the faulty node among the nodes shown, and a note of what was left out.
func TestSVGCapsLanes(t *testing.T) {
	r, _, m := record(t, load(t, "../../scenarios/cluster/capacity-at-scale.yaml"))
	var pic bytes.Buffer
	if err := r.WriteSVG(&pic, m); err != nil {
		t.Fatal(err)
	}
	out := pic.String()
	if !strings.Contains(out, "Showing 12 of 100 nodes, 40 of 3030 pods, 24 of 30 groups; podsim run FILE -o html shows them all.") {
		t.Error("the SVG does not say what it left out")
	}
	if !strings.Contains(out, ">node-42</text>") {
		t.Error("the node that lost power is not among the nodes shown")
	}
	if pic.Len() > 1<<20 {
		t.Errorf("the capped SVG is %d bytes", pic.Len())
	}
}

// BenchmarkRecorder runs the 110-pod crash loop (30 minutes, every pod
// restarting on the KEP-4603 schedule) with the picture's recorder and
// writes the page: allocations per run show what the intervals cost.
func BenchmarkRecorder(b *testing.B) {
	s, err := scenarios.LoadFile("../../scenarios/studies/crashloop-110.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		w := s.NewWorld()
		r := NewRecorder()
		w.Subscribe(r)
		s.Populate(w)
		w.Run(s.Duration)
		if err := r.WriteHTML(io.Discard, Meta{End: s.Duration}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(w.ChangeCount()), "changes/op")
	}
}

// BenchmarkRunAlone is the same run without the recorder, to compare.
func BenchmarkRunAlone(b *testing.B) {
	s, err := scenarios.LoadFile("../../scenarios/studies/crashloop-110.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		w := s.Build()
		w.Run(s.Duration)
	}
}

// The page has a requests lane per Service with traffic: its served and
// failed requests per second as steps whose integral is the Service's
// counts (the rolling update's 723 failed requests: 600 before any pod was
// ready, 123 during the rollout).
func TestRequestsLane(t *testing.T) {
	r, w, m := record(t, load(t, "../../scenarios/traffic/rolling-update-502.yaml"))
	var b bytes.Buffer
	if err := r.WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	data, _ := splitPage(t, b.String())
	var d struct {
		Svcs []struct {
			N string       `json:"n"`
			R [][3]float64 `json:"r"`
		} `json:"svcs"`
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Svcs) != 1 || d.Svcs[0].N != "web" {
		t.Fatalf("svcs %+v, want the Service web", d.Svcs)
	}
	var served, failed float64
	steps := d.Svcs[0].R
	for i, s := range steps {
		end := m.End.Seconds()
		if i+1 < len(steps) {
			end = steps[i+1][0]
		}
		served += s[1] * (end - s[0])
		failed += s[2] * (end - s[0])
	}
	offered, wantServed := w.Service("web").Requests()
	if math.Abs(served-float64(wantServed)) > 1 || math.Abs(failed-float64(offered-wantServed)) > 1 {
		t.Errorf("the lane integrates to %.1f served and %.1f failed; the Service counted %d and %d", served, failed, wantServed, offered-wantServed)
	}
}

// TestReplicaSetEventsOnDeploymentLane: a rolling update's pod creations
// and deletions, which the timeline names by their ReplicaSet, are marks
// on the one lane of the Deployment.
func TestReplicaSetEventsOnDeploymentLane(t *testing.T) {
	r, _, _ := record(t, load(t, "../../scenarios/rollouts/rolling-update.yaml"))
	var names []string
	for _, wl := range r.wls {
		names = append(names, wl.kind+"/"+wl.name)
	}
	if len(r.wls) != 1 || r.wls[0].name != "web" || r.wls[0].kind != "Deployment" {
		t.Fatalf("lanes %v, want Deployment/web alone", names)
	}
	created := 0
	for _, m := range r.wls[0].marks {
		if r.strs[m.reason] == "SuccessfulCreate" {
			created++
		}
	}
	if created == 0 {
		t.Errorf("web's lane has no SuccessfulCreate mark: %+v", r.wls[0].marks)
	}
}
