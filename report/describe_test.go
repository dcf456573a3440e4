package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

func TestEventAge(t *testing.T) {
	const m = time.Minute
	tests := []struct {
		name             string
		first, last, now time.Duration
		count            int32
		want             string
	}{
		{"single occurrence: its age", 30 * time.Second, 30 * time.Second, 90 * time.Second, 1, "60s"},
		{"single, old", 0, 0, 4 * m, 1, "4m"},
		// kubectl: "<age of last> (x<count> over <age of first>)"; the span
		// is the age of the first occurrence, not last-first (which is 2m).
		{"repeated", 0, 2 * m, 4 * m, 5, "2m (x5 over 4m)"},
		{"repeated, seconds", 8 * time.Second, 3*m + 48*time.Second, 4 * m, 4, "12s (x4 over 3m52s)"},
		{"repeated just now", 10 * time.Second, 4 * m, 4 * m, 2, "0s (x2 over 3m50s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &model.Event{FirstSeen: tc.first, LastSeen: tc.last, Count: tc.count}
			if got := EventAge(e, tc.now); got != tc.want {
				t.Errorf("EventAge = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSortedEventsByLastSeen(t *testing.T) {
	a := &model.Event{FirstSeen: 0, LastSeen: 50 * time.Second, Count: 2}
	b := &model.Event{FirstSeen: 10 * time.Second, LastSeen: 10 * time.Second, Count: 1}
	c := &model.Event{FirstSeen: 10 * time.Second, LastSeen: 10 * time.Second, Count: 1}
	d := &model.Event{FirstSeen: 5 * time.Second, Occurrences: 3} // never let through
	in := []*model.Event{a, b, c, d}
	got := sortedEvents(in)
	name := map[*model.Event]string{a: "A", b: "B", c: "C", d: "D"}
	var order string
	for _, e := range got {
		order += name[e]
	}
	if order != "BCA" {
		t.Errorf("order %s, want BCA (by last seen, ties in first-occurrence order; D never reached the API)", order)
	}
	if in[0] != a {
		t.Error("sortedEvents reordered its input")
	}
}

func TestDescribeProbe(t *testing.T) {
	attrs := " delay=5s timeout=1s period=10s successThreshold=1 failureThreshold=3"
	for _, c := range []struct {
		p    model.ProbeSpec
		want string
	}{
		{model.ProbeSpec{Handler: "exec", Command: []string{"cat", "/tmp/healthy"}}, "exec [cat /tmp/healthy]"},
		{model.ProbeSpec{Handler: "httpGet", Scheme: "HTTP", Port: "8080", Path: "/healthz"}, "http-get http://:8080/healthz"},
		{model.ProbeSpec{Handler: "httpGet", Scheme: "HTTPS", Host: "10.0.0.1", Port: "https"}, "http-get https://10.0.0.1:https"},
		{model.ProbeSpec{Handler: "tcpSocket", Port: "80"}, "tcp-socket :80"},
		{model.ProbeSpec{Handler: "grpc", Port: "9090"}, "grpc <pod>:9090 "},
		{model.ProbeSpec{}, "unknown"},
	} {
		p := c.p
		p.InitialDelay, p.Period, p.Timeout, p.SuccessThreshold, p.FailureThreshold = 5*time.Second, 10*time.Second, time.Second, 1, 3
		if got := DescribeProbe(&p); got != c.want+attrs {
			t.Errorf("%+v: got %q, want %q", c.p, got, c.want+attrs)
		}
	}
}

func TestFormatQuantities(t *testing.T) {
	cpu := map[int64]string{250: "250m", 1000: "1", 1500: "1500m", 4000: "4"}
	for in, want := range cpu {
		if got := FormatCPU(in); got != want {
			t.Errorf("FormatCPU(%d) = %q, want %q", in, got, want)
		}
	}
	mem := map[int64]string{
		128 << 20:     "128Mi",
		1 << 30:       "1Gi",
		1536 << 20:    "1536Mi",
		1_000_000_000: "1G",
		64_000_000:    "64M", // also 62500Ki: the shorter form wins
		1500:          "1500",
		1024:          "1Ki",
	}
	for in, want := range mem {
		if got := FormatMemory(in); got != want {
			t.Errorf("FormatMemory(%d) = %q, want %q", in, got, want)
		}
	}
}

// newWorld is a one-node world.
func newWorld() *model.World {
	w := cluster.New(1, model.DefaultSettings())
	w.AddNode(model.NodeSpec{Name: "node-a", Capacity: model.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}})
	return w
}

func describe(t *testing.T, w *model.World, p *model.Pod) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteDescribePod(&b, w, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// valueColumn returns where the value starts on the line that begins with key.
func valueColumn(t *testing.T, out, key string) int {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, key) {
			rest := l[len(key):]
			return len(key) + len(rest) - len(strings.TrimLeft(rest, " "))
		}
	}
	t.Fatalf("no line starts with %q:\n%s", key, out)
	return 0
}

func TestDescribePodLayout(t *testing.T) {
	w := newWorld()
	probe := &model.ProbeSpec{Handler: "httpGet", Scheme: "HTTP", Port: "8080", Path: "/healthz", Period: 10 * time.Second, Timeout: time.Second,
		SuccessThreshold: 1, FailureThreshold: 3}
	p := w.AddPod("web", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		InitContainers: []model.ContainerSpec{{Name: "setup", Image: "busybox:1", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 5 * time.Second, Times: 1}}}}},
		Containers: []model.ContainerSpec{{Name: "app", Image: "example/web:1", PullPolicy: model.PullIfNotPresent,
			Requests: model.Resources{MilliCPU: 1000, Memory: 64 << 20}, Liveness: probe}},
		ReadinessGates: []string{"example.com/gate"},
	}, model.PodOptions{Labels: map[string]string{"tier": "front", "app": "web"}})
	w.Run(time.Minute)
	out := describe(t, w, p)

	for _, want := range []string{
		"Name:        web\n",
		"Namespace:   default\n",
		"Node:        node-a\n",
		"Start Time:  Thu, 01 Jan 1970 00:00:00 +0000\n",
		// labels sorted by key, the second one under the first value
		"Labels:      app=web\n             tier=front\n",
		"Init Containers:\n  setup:\n    Image:          busybox:1\n    State:          Terminated\n      Reason:       Completed\n      Exit Code:    0\n      Started:      Thu, 01 Jan 1970 00:00:00 +0000\n      Finished:     Thu, 01 Jan 1970 00:00:05 +0000\n    Ready:          False\n    Restart Count:  0\n",
		"Containers:\n  app:\n",
		"    State:          Running\n      Started:      Thu, 01 Jan 1970 00:00:05 +0000\n",
		"    Requests:\n      cpu:     1\n      memory:  64Mi\n    Liveness:  http-get http://:8080/healthz delay=0s timeout=1s period=10s successThreshold=1 failureThreshold=3\n",
		"QoS Class:                    Burstable\n",
		"Readiness Gates:\n  Type               Status\n  example.com/gate   <none>\n",
		"Conditions:\n  Type",
		"\nEvents:\n  Type    Reason     Age   From               Message\n  ----    ------     ----  ----               -------\n",
		"  Normal  Scheduled  60s   default-scheduler  Successfully assigned default/web to node-a\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Last State:") {
		t.Errorf("Last State shown for containers that never restarted (kubectl omits it):\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, " ") || strings.Contains(l, "\t") {
			t.Errorf("line %q has a trailing blank or a tab", l)
		}
	}
	// The top block aligns on one column, two blanks after its longest key.
	if a, b := valueColumn(t, out, "Name:"), valueColumn(t, out, "Status:"); a != b {
		t.Errorf("Name value at column %d, Status value at %d", a, b)
	}
}

func TestDescribePodWaitingForScheduling(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings()) // no node: nothing can run it
	p := w.AddPod("lonely", &model.PodSpec{RestartPolicy: model.RestartAlways,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img"}}}, model.PodOptions{})
	w.Run(10 * time.Second)
	out := describe(t, w, p)
	for _, want := range []string{"Node:       <none>\n", "Labels:     <none>\n", "Status:     Pending\n",
		"Containers:\n  app:\n    Image:  img\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, absent := range []string{"Start Time:", "State:", "Restart Count:"} {
		if strings.Contains(out, absent) {
			t.Errorf("unscheduled pod shows %q (kubectl has no status for it):\n%s", absent, out)
		}
	}
}

func TestDescribePodCrashLoop(t *testing.T) {
	w := newWorld()
	p := w.AddPod("web", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 10 * time.Second, OOM: true, Times: 1}}}}}},
		model.PodOptions{})
	w.Run(2 * time.Minute)
	out := describe(t, w, p)
	st := p.Status()
	cs := st.ContainerStatuses[0]
	if cs.LastState.Kind != model.StateTerminated || cs.RestartCount < 2 {
		t.Fatalf("scenario did not crash-loop: %+v", cs)
	}
	for _, want := range []string{
		"    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
		"    Ready:          False\n",
		"Restart Count:  " + strconv.Itoa(int(cs.RestartCount)) + "\n",
		"Warning  BackOff",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Repeated events carry kubectl's "(xN over ...)".
	for _, e := range w.EventsFor("Pod", "web") {
		if e.Count > 1 && !strings.Contains(out, EventAge(e, w.Now())) {
			t.Errorf("event %s x%d: age %q not shown:\n%s", e.Reason(), e.Count, EventAge(e, w.Now()), out)
		}
	}
}

func TestDescribePodTerminating(t *testing.T) {
	w := newWorld()
	p := w.AddPod("web", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{ShutdownTime: time.Minute}}}}, model.PodOptions{})
	w.Schedule(10*time.Second, func() { p.Delete(nil) })

	// During the grace period the deletion timestamp (request + grace, as
	// the API server sets it) lies ahead: kubectl prints "<invalid>".
	w.Run(20 * time.Second)
	out := describe(t, w, p)
	for _, want := range []string{"Status:                    Terminating (lasts <invalid>)\n",
		"Termination Grace Period:  30s\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("at 20s, output lacks %q:\n%s", want, out)
		}
	}
	// Once gone, the pod shows its last status: a phase, no Terminating.
	w.Run(2 * time.Minute)
	out = describe(t, w, p)
	if !p.Deleted() {
		t.Fatal("pod not deleted after its grace period")
	}
	if strings.Contains(out, "Terminating") || !strings.Contains(out, "Status:      Failed\n") {
		t.Errorf("deleted pod (SIGKILLed, exit 137) should show phase Failed:\n%s", out)
	}
}

func TestDescribePodJSON(t *testing.T) {
	w := newWorld()
	p := w.AddPod("web", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
			Behavior: &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 10 * time.Second, ExitCode: 3, Times: 1}}}}}},
		model.PodOptions{Labels: map[string]string{"app": "web"}})
	w.Run(15 * time.Second)
	var b bytes.Buffer
	if err := WriteDescribePodJSON(&b, w, p); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		At       float64 `json:"at"`
		Metadata struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			NodeName string `json:"nodeName"`
		} `json:"spec"`
		Status struct {
			Phase      string `json:"phase"`
			Conditions []struct {
				Type, Status string
			} `json:"conditions"`
			ContainerStatuses []struct {
				Name      string `json:"name"`
				LastState struct {
					Terminated *struct {
						ExitCode   int32   `json:"exitCode"`
						FinishedAt float64 `json:"finishedAt"`
					} `json:"terminated"`
				} `json:"lastState"`
				State struct {
					Running *struct {
						StartedAt float64 `json:"startedAt"`
					} `json:"running"`
				} `json:"state"`
				Ready        bool  `json:"ready"`
				RestartCount int32 `json:"restartCount"`
			} `json:"containerStatuses"`
		} `json:"status"`
		Events []struct {
			Reason string `json:"reason"`
			Count  int    `json:"count"`
			Source struct {
				Component string `json:"component"`
			} `json:"source"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if doc.At != 15 || doc.Metadata.Name != "web" || doc.Metadata.Labels["app"] != "web" || doc.Spec.NodeName != "node-a" {
		t.Errorf("header wrong: %+v", doc)
	}
	if doc.Status.Phase != "Running" || len(doc.Status.Conditions) == 0 || len(doc.Status.ContainerStatuses) != 1 {
		t.Fatalf("status wrong:\n%s", b.String())
	}
	cs := doc.Status.ContainerStatuses[0]
	if cs.LastState.Terminated == nil || cs.LastState.Terminated.ExitCode != 3 || cs.LastState.Terminated.FinishedAt != 10 ||
		cs.State.Running == nil || cs.State.Running.StartedAt != 10 || cs.RestartCount != 1 {
		t.Errorf("container status wrong:\n%s", b.String())
	}
	created := 0
	for _, e := range doc.Events {
		if e.Reason == "Created" {
			created = e.Count
		}
		if e.Source.Component == "" {
			t.Errorf("event %s has no source", e.Reason)
		}
	}
	if created != 2 {
		t.Errorf("Created count %d, want 2:\n%s", created, b.String())
	}
}

// Node-Selectors and Tolerations as kubectl describe prints them: the
// tolerations sorted by key, with the not-ready and unreachable ones the
// API server adds unless the pod tolerates those taints itself.
func TestDescribePodSelectorsAndTolerations(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	secs := int64(30)
	p := w.AddPod("web", &model.PodSpec{RestartPolicy: model.RestartAlways, NodeSelector: map[string]string{"kubernetes.io/os": "linux", "disk": "ssd"},
		Containers: []model.ContainerSpec{{Name: "app", Image: "img"}}},
		model.PodOptions{Tolerations: []model.Toleration{{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute", Seconds: &secs},
			{Key: "dedicated", Operator: "Equal", Value: "db", Effect: "NoSchedule"}, {Operator: "Exists", Effect: "NoSchedule"}}})
	w.Run(time.Second)
	out := describe(t, w, p)
	pad := strings.Repeat(" ", valueColumn(t, out, "Tolerations:"))
	want := "Node-Selectors:" + pad[len("Node-Selectors:"):] + "disk=ssd\n" + pad + "kubernetes.io/os=linux\n" +
		"Tolerations:" + pad[len("Tolerations:"):] + ":NoSchedule op=Exists\n" +
		pad + "dedicated=db:NoSchedule\n" +
		pad + "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n" +
		pad + "node.kubernetes.io/unreachable:NoExecute op=Exists for 30s\n"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks\n%s\n%s", want, out)
	}
}
