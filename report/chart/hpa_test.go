package chart

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podsim/podsim/model"
)

// hpaStatuses keeps each status an autoscaler announces once synced:
// [t, desired, current, utilization or -1].
type hpaStatuses struct{ got [][4]float64 }

func (h *hpaStatuses) Change(*model.Change) {}

func (h *hpaStatuses) Object(o *model.ObjectChange) {
	if o.Kind != model.ObjectAutoscaler || !o.Autoscaler.Status.Synced {
		return
	}
	st := &o.Autoscaler.Status
	v := -1.0
	if st.CurrentMetrics[0].Valid {
		v = float64(st.CurrentMetrics[0].Utilization)
	}
	h.got = append(h.got, [4]float64{o.T.Seconds(), float64(st.DesiredReplicas), float64(st.CurrentReplicas), v})
}

// TestHPALane: the page's data holds the load step's autoscaler with its
// target, bounds and metric, and a step at each status its controller
// wrote that moved the replicas or the utilization, with the status's
// values.
func TestHPALane(t *testing.T) {
	s := load(t, "../../scenarios/hpa/load-step.yaml")
	w := s.NewWorld()
	r := NewRecorder()
	w.Subscribe(r)
	want := &hpaStatuses{}
	w.Subscribe(want)
	s.Populate(w)
	w.Run(s.Duration)
	var b bytes.Buffer
	if err := r.WriteHTML(&b, Meta{Title: "t", End: s.Duration}); err != nil {
		t.Fatal(err)
	}
	data, _ := splitPage(t, b.String())
	var d struct {
		Hpas []struct {
			N, Ref, M string
			Min, Max  int
			Mt        float64
			Pct       bool
			S         [][4]*float64
			Ev        [][4]float64
		}
		HpaColors []string `json:"hpaColors"`
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Hpas) != 1 || len(d.HpaColors) != 3 {
		t.Fatalf("hpas %+v colours %v", d.Hpas, d.HpaColors)
	}
	a := d.Hpas[0]
	if a.N != "web" || a.Ref != "Deployment/web" || a.Min != 2 || a.Max != 10 || a.M != "cpu utilization (% of request)" || a.Mt != 50 || !a.Pct {
		t.Errorf("the autoscaler %+v", a)
	}
	var wantSteps [][4]float64
	for _, st := range want.got {
		if n := len(wantSteps); n > 0 && wantSteps[n-1][1] == st[1] && wantSteps[n-1][2] == st[2] && wantSteps[n-1][3] == st[3] {
			continue
		}
		wantSteps = append(wantSteps, st)
	}
	var got [][4]float64
	for _, st := range a.S {
		v := -1.0
		if st[3] != nil {
			v = *st[3]
		}
		got = append(got, [4]float64{*st[0], *st[1], *st[2], v})
	}
	if len(got) != len(wantSteps) || len(got) < 5 {
		t.Fatalf("steps %v\nthe model's %v", got, wantSteps)
	}
	for i := range got {
		if got[i] != wantSteps[i] {
			t.Errorf("step %d: %v, the model's %v", i, got[i], wantSteps[i])
		}
	}
	rescales := 0
	for _, e := range a.Ev {
		if e[0] > 0 && strings.HasPrefix(rStr(r, e[2]), "SuccessfulRescale") {
			rescales++
		}
	}
	if rescales != 3 {
		t.Errorf("%d SuccessfulRescale markers on the lane", rescales)
	}
}

func rStr(r *Recorder, i float64) string { return r.strs[int(i)] }

// TestBrowserHPA draws the load step in headless Chromium: the lane of the
// autoscaler comes first, its metric and desired-replicas lines are drawn
// in their colours, and the mouse over it at about 1m20s says what the status
// was then. With PODSIM_SCREENSHOT_HPA=FILE the screenshot is kept there.
func TestBrowserHPA(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium on this machine (make test-browser installs Debian's)")
	}
	shot := filepath.Join(t.TempDir(), "hpa.png")
	// The view is the whole run, 9s either side of its 900s; the lane is
	// the second row, under the section's 20 pixels.
	page := writePage(t, "../../scenarios/hpa/load-step.yaml", func(p string) string {
		return strings.Replace(p, "</body>", `<script>
(function () {
  function move() {
    var c = document.getElementById("lanes"), r = c.getBoundingClientRect();
    var x = 250 + (80 + 9) / 918 * (c.clientWidth - 250 - 12), y = 26 + 20 + 30;
    c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + x, clientY: r.top + y, bubbles: true}));
    var tip = document.getElementById("tip");
    document.body.setAttribute("data-tip", tip.hidden ? "" : tip.innerText.replace(/\s+/g, " "));
  }
  move();
  window.addEventListener("resize", move);
})();
</script>
</body>`, 1)
	})
	attrs := rendered(t, bin, page, "--window-size=1280,560", "--screenshot="+shot)
	if attrs["rendered"] != "1" || attrs["errors"] != "" {
		t.Fatalf("body %v; want rendered=1, no errors", attrs)
	}
	for _, want := range []string{"hpa/web at 1m1", "replicas 2 current, 4 desired (2–10)", "cpu utilization (% of request) 160% / 50%", "since 1m15s – 1m30s (15s)"} {
		if !strings.Contains(attrs["tip"], want) {
			t.Errorf("the tooltip says %q; want %q in it", attrs["tip"], want)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{metricColor, desiredColor} {
		if n := count(img, 300, c); n < 200 {
			t.Errorf("the screenshot has %d pixels of %s in its lanes", n, c)
		}
	}
	if keep := os.Getenv("PODSIM_SCREENSHOT_HPA"); keep != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
