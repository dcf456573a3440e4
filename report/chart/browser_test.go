package chart

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless browser: Debian's chromium (make test-browser
// installs it), or another by the usual names.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browse runs the browser headless on page (a file) with the extra flags
// and returns what it printed.
func browse(t *testing.T, bin, page string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir=" + filepath.Join(t.TempDir(), "profile"), "--virtual-time-budget=5000"}, flags...)
	out, err := exec.CommandContext(ctx, bin, append(args, "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return out
}

var bodyAttr = regexp.MustCompile(`data-([a-z]+)="([^"]*)"`)

// rendered loads the page and returns the attributes its script set on
// <body> once it ran: rendered, rows, drawn, pods, errors.
func rendered(t *testing.T, bin, page string, flags ...string) map[string]string {
	t.Helper()
	dom := browse(t, bin, page, append(flags, "--dump-dom")...)
	i := bytes.Index(dom, []byte("<body"))
	if i < 0 {
		t.Fatalf("no <body> in the DOM:\n%s", dom)
	}
	tag := dom[i : i+bytes.IndexByte(dom[i:], '>')]
	attrs := map[string]string{}
	for _, m := range bodyAttr.FindAllSubmatch(tag, -1) {
		attrs[string(m[1])] = string(m[2])
	}
	return attrs
}

func writePage(t *testing.T, path string, mutate func(string) string) string {
	t.Helper()
	r, _, m := record(t, load(t, path))
	var b bytes.Buffer
	if err := r.WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "page.html")
	page := b.String()
	if mutate != nil {
		page = mutate(page)
	}
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestBrowser renders pages in headless Chromium: the script runs without
// an error and draws the lanes (the demo's node and two pods; the nodes and
// workloads of 3,000 pods); a screenshot of the demo shows its bars in
// their colours. A page whose data is broken must be caught.
// With PODSIM_SCREENSHOT=FILE the demo's screenshot is kept there.
func TestBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium on this machine (make test-browser installs Debian's)")
	}
	// The demo: drawn, and a screenshot of it in the same run.
	shot := filepath.Join(t.TempDir(), "demo.png")
	attrs := rendered(t, bin, writePage(t, "../../scenarios/demo.yaml", hover), "--window-size=1280,440", "--screenshot="+shot)
	if attrs["rendered"] != "1" || attrs["errors"] != "" || attrs["rows"] != "3" || attrs["drawn"] != "3" {
		t.Errorf("demo: body %v; want rendered=1, no errors, 3 rows (node-a, web, api) all drawn", attrs)
	}
	// The mouse over web's container at 1m11s: CrashLoopBackOff after an OOM kill.
	for _, want := range []string{"container web/app", "Waiting CrashLoopBackOff", "time 1m8s – 1m18s (10s)", "restartCount 1", "last state Terminated (OOMKilled), exit code 137"} {
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
	// The lanes lie below the header and legend; the web pod's bars are
	// ready green, CrashLoopBackOff pink, OOMKilled purple, first
	// ContainerCreating.
	for _, want := range []uint8{styleReady, styleCrashLoop, styleOOM, styleCreating} {
		if n := count(img, 220, styles[want].color); n < 6 {
			t.Errorf("the screenshot has %d pixels of %s (%s) in its lanes", n, styles[want].label, styles[want].color)
		}
	}

	// 3,000 pods: grouped by workload, closed; the lanes that fit drawn.
	attrs = rendered(t, bin, writePage(t, "../../scenarios/cluster/capacity-at-scale.yaml", nil), "--window-size=1280,900")
	if drawn, _ := strconv.Atoi(attrs["drawn"]); attrs["rendered"] != "1" || attrs["errors"] != "" || attrs["rows"] != "31" || drawn < 10 {
		t.Errorf("capacity-at-scale: body %v; want rendered=1, no errors, 31 rows (nodes, 30 workloads), at least 10 drawn", attrs)
	}

	// A rolling update's requests lane: served (teal) and, while kube-proxy
	// still sends requests to pods that stopped listening, failed (magenta).
	shot = filepath.Join(t.TempDir(), "requests.png")
	attrs = rendered(t, bin, writePage(t, "../../scenarios/traffic/rolling-update-502.yaml", nil), "--window-size=1280,2400", "--screenshot="+shot)
	if attrs["rendered"] != "1" || attrs["errors"] != "" {
		t.Errorf("rolling-update-502: body %v; want rendered=1, no errors", attrs)
	}
	if img := decodePNG(t, shot); count(img, 220, servedColor) < 500 || count(img, 220, failedColor) < 20 {
		t.Errorf("the requests lane has %d pixels of served (%s) and %d of failed (%s)", count(img, 220, servedColor), servedColor, count(img, 220, failedColor), failedColor)
	}
	if keep := os.Getenv("PODSIM_SCREENSHOT_REQUESTS"); keep != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The check can fail: a page whose data breaks the script.
	broken := writePage(t, "../../scenarios/demo.yaml", func(p string) string {
		return strings.Replace(p, `"pods":[`, `"pods":[null,`, 1)
	})
	if attrs := rendered(t, bin, broken); attrs["rendered"] == "1" || attrs["errors"] == "" {
		t.Errorf("a page with broken data: body %v; want an error and no rendered mark", attrs)
	}
	if keep := os.Getenv("PODSIM_SCREENSHOT"); keep != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hover adds a script to the demo's page that moves the mouse over web's
// container at 71s (the view is the whole run, 3s either side of its 300s;
// the lane is the second row's first container) and copies the tooltip's
// text to <body data-tip>; again when the window is resized.
func hover(page string) string {
	return strings.Replace(page, "</body>", `<script>
(function () {
  function move() {
    var c = document.getElementById("lanes"), r = c.getBoundingClientRect();
    var x = 250 + (71 + 3) / 306 * (c.clientWidth - 250 - 12), y = 26 + 28 + 24 + 6;
    c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + x, clientY: r.top + y, bubbles: true}));
    var tip = document.getElementById("tip");
    document.body.setAttribute("data-tip", tip.hidden ? "" : tip.innerText.replace(/\s+/g, " "));
  }
  move();
  window.addEventListener("resize", move); // the screenshot's window size comes after the load
})();
</script>
</body>`, 1)
}

func decodePNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// count is how many pixels below top have the colour hex (within 3 of
// each channel).
func count(img image.Image, top int, hex string) int {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	want := [3]int{int(v >> 16 & 0xff), int(v >> 8 & 0xff), int(v & 0xff)}
	n := 0
	b := img.Bounds()
	for y := max(b.Min.Y, top); y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			got := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
			ok := true
			for i := range got {
				if d := got[i] - want[i]; d < -3 || d > 3 {
					ok = false
				}
			}
			if ok {
				n++
			}
		}
	}
	return n
}
