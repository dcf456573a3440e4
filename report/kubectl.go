package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

// PodRow is one line of `kubectl get pods`; IP, Node, NominatedNode and
// ReadinessGates are the extra columns of `-o wide`.
type PodRow struct {
	Name, Ready, Status, Restarts, Age      string
	IP, Node, NominatedNode, ReadinessGates string
}

// PodView is what kubectl's columns of a pod are computed from: its spec
// and a copy of its status at one moment. A view does not change when the
// pod does, so it can be kept and printed later (podsim serve keeps one per
// pod and version).
type PodView struct {
	Name        string
	Spec        *model.PodSpec // shared, never changed
	Status      model.PodStatus
	Node        string // the node it is bound to, "" if none
	Nominated   string // status.nominatedNodeName: the node preemption made room on, "" if none
	Terminating bool   // it has a deletion timestamp
	CreatedAt   time.Duration
}

// ViewPod takes a view of p as it is now.
func ViewPod(p *model.Pod) PodView {
	var v PodView
	v.take(p)
	return v
}

// take makes v a view of p as it is now, in v's own slices where they
// have room.
func (v *PodView) take(p *model.Pod) {
	status := v.Status
	p.StatusInto(&status)
	*v = PodView{Name: p.Name, Spec: p.Spec, Status: status, Terminating: p.Terminating(), CreatedAt: p.CreatedAt,
		Nominated: p.NominatedNodeName()}
	if p.Node != nil {
		v.Node = p.Node.Name
	}
}

// GetPod computes the `kubectl get pods` columns of a pod as of now.
func GetPod(p *model.Pod, now time.Duration) PodRow {
	var v PodView
	return v.getPod(p, now)
}

// getPod is GetPod, with v's slices for the pod's status: a caller that
// reads many pods one after the other allocates them once.
func (v *PodView) getPod(p *model.Pod, now time.Duration) PodRow {
	v.take(p)
	return v.Row(now)
}

// Row computes the pod's `kubectl get pods -o wide` columns as of now, by
// the rules of kubectl's printer (pkg/printers/internalversion printPod).
// IP is status.podIP, <none> before the pod has a sandbox.
func (v *PodView) Row(now time.Duration) PodRow {
	ready, status, restarts := printPod(v, now)
	r := PodRow{Name: v.Name, Ready: ready, Status: status, Restarts: restarts, Age: HumanDuration(now - v.CreatedAt),
		IP: none, Node: v.Node, NominatedNode: v.Nominated, ReadinessGates: none}
	if v.Status.PodIP != "" {
		r.IP = v.Status.PodIP
	}
	if r.Node == "" {
		r.Node = none
	}
	if r.NominatedNode == "" {
		r.NominatedNode = none
	}
	if gates := v.Spec.ReadinessGates; len(gates) > 0 {
		n := 0
		for _, g := range gates {
			if c, ok := v.Status.Condition(g); ok && c.Status == model.True {
				n++
			}
		}
		r.ReadinessGates = fmt.Sprintf("%d/%d", n, len(gates))
	}
	return r
}

// none is how kubectl prints an empty cell.
const none = "<none>"

// StatusColumn is kubectl's STATUS column for a pod.
func StatusColumn(p *model.Pod, st *model.PodStatus) string {
	v := PodView{Spec: p.Spec, Status: *st, Terminating: p.Terminating()}
	_, status, _ := printPod(&v, 0)
	return status
}

// restartTally sums restarts and remembers the last termination.
type restartTally struct {
	n    int
	last time.Duration
	seen bool
}

func (r *restartTally) add(s *model.ContainerStatus) {
	r.n += int(s.RestartCount)
	if s.LastState.Kind == model.StateTerminated && (!r.seen || s.LastState.FinishedAt > r.last) {
		r.last, r.seen = s.LastState.FinishedAt, true
	}
}

// printPod computes READY, STATUS and RESTARTS by the rules of kubectl's
// printer (pkg/printers/internalversion printPod): init containers are
// looked at in order up to the first one not done; regular containers from
// the last to the first.
func printPod(v *PodView, now time.Duration) (ready, status, restarts string) {
	st := &v.Status
	total, readyN := len(v.Spec.Containers), 0
	var all, sidecars restartTally
	reason := string(st.Phase)
	if st.Reason != "" {
		reason = st.Reason
	}
	if c, ok := st.Condition(model.PodScheduled); ok && c.Reason == "SchedulingGated" {
		reason = "SchedulingGated"
	}
	for _, c := range v.Spec.InitContainers {
		if c.Sidecar {
			total++
		}
	}
	initializing := false
	inits := st.InitContainerStatuses
	if !reported(inits) {
		inits = nil // none in the API yet: the pod shows its phase (Pending), not Init:0/N
	}
	for i := range inits {
		s := &inits[i]
		sidecar := v.Spec.InitContainers[i].Sidecar
		all.add(s)
		if sidecar {
			sidecars.add(s)
		}
		switch {
		case s.State.Kind == model.StateTerminated && s.State.ExitCode == 0:
			continue
		case sidecar && s.Started:
			if s.Ready {
				readyN++
			}
			continue
		case s.State.Kind == model.StateTerminated:
			switch {
			case s.State.Reason != "":
				reason = "Init:" + s.State.Reason
			case s.State.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", s.State.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", s.State.ExitCode)
			}
			initializing = true
		case s.State.Kind == model.StateWaiting && s.State.Reason != "" && s.State.Reason != model.ReasonPodInitializing:
			reason = "Init:" + s.State.Reason
			initializing = true
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(v.Spec.InitContainers))
			initializing = true
		}
		break
	}
	initCond, _ := st.Condition(model.Initialized)
	if !initializing || initCond.Status == model.True {
		all = sidecars
		hasRunning := false
		for i := len(st.ContainerStatuses) - 1; i >= 0; i-- {
			s := &st.ContainerStatuses[i]
			all.add(s)
			switch {
			case s.State.Kind == model.StateWaiting && s.State.Reason != "":
				reason = s.State.Reason
			case s.State.Kind == model.StateTerminated && s.State.Reason != "":
				reason = s.State.Reason
			case s.State.Kind == model.StateTerminated && s.State.Signal != 0:
				reason = fmt.Sprintf("Signal:%d", s.State.Signal)
			case s.State.Kind == model.StateTerminated:
				reason = fmt.Sprintf("ExitCode:%d", s.State.ExitCode)
			case s.Ready && s.State.Kind == model.StateRunning:
				hasRunning = true
				readyN++
			}
		}
		if reason == model.ReasonCompleted && hasRunning {
			reason = "NotReady"
			if c, ok := st.Condition(model.Ready); ok && c.Status == model.True {
				reason = "Running"
			}
		}
	}
	if v.Terminating && !st.Phase.Terminal() {
		reason = "Terminating"
	}
	restarts = strconv.Itoa(all.n)
	if all.n != 0 && all.seen {
		restarts += " (" + HumanDuration(now-all.last) + " ago)"
	}
	return strconv.Itoa(readyN) + "/" + strconv.Itoa(total), reason, restarts
}

// reported reports whether the kubelet has reported any of these statuses:
// until then the API object has none (serve renders none either).
func reported(cs []model.ContainerStatus) bool {
	for i := range cs {
		if cs[i].State.Kind != model.StateNone {
			return true
		}
	}
	return false
}

// WriteGetPods prints `kubectl get pods` for every pod that still exists,
// sorted by namespace and name, with a NAMESPACE column (as -A) when a pod
// lives outside default.
func WriteGetPods(w io.Writer, world *model.World) error {
	now := world.Now()
	// Pods of namespaces other than default: every namespace's, as
	// kubectl get pods -A shows them.
	all := false
	for _, p := range world.Pods() {
		all = all || p.Namespace != model.DefaultNamespace
	}
	var pods []*model.Pod
	for _, p := range world.Pods() {
		if !p.Deleted() {
			pods = append(pods, p)
		}
	}
	// As the API server lists them (by key: namespace, then name, byte
	// by byte), as kubectl prints them.
	slices.SortFunc(pods, func(a, b *model.Pod) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	var rows [][]string
	var view PodView
	for _, p := range pods {
		r := view.getPod(p, now)
		row := []string{r.Name, r.Ready, r.Status, r.Restarts, r.Age}
		if all {
			row = append([]string{p.Namespace}, row...)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		_, err := io.WriteString(w, "No resources found in default namespace.\n")
		return err
	}
	head := []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}
	if all {
		head = append([]string{"NAMESPACE"}, head...)
	}
	return writeTable(w, head, rows)
}

// HumanDuration formats an age as kubectl does (apimachinery
// duration.HumanDuration): 45s, 5m30s, 3h12m, 4d2h.
func HumanDuration(d time.Duration) string {
	if s := int(d.Seconds()); s < -1 {
		return "<invalid>"
	} else if s < 0 {
		return "0s"
	} else if s < 120 {
		return strconv.Itoa(s) + "s"
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		if s := int(d/time.Second) % 60; s != 0 {
			return strconv.Itoa(minutes) + "m" + strconv.Itoa(s) + "s"
		}
		return strconv.Itoa(minutes) + "m"
	} else if minutes < 180 {
		return strconv.Itoa(minutes) + "m"
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if m := minutes % 60; m != 0 {
			return strconv.Itoa(hours) + "h" + strconv.Itoa(m) + "m"
		}
		return strconv.Itoa(hours) + "h"
	case hours < 48:
		return strconv.Itoa(hours) + "h"
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return strconv.Itoa(hours/24) + "d" + strconv.Itoa(h) + "h"
		}
		return strconv.Itoa(hours/24) + "d"
	case hours < 24*365*2:
		return strconv.Itoa(hours/24) + "d"
	case hours < 24*365*8:
		if dy := (hours / 24) % 365; dy != 0 {
			return strconv.Itoa(hours/24/365) + "y" + strconv.Itoa(dy) + "d"
		}
		return strconv.Itoa(hours/24/365) + "y"
	}
	return strconv.Itoa(hours/24/365) + "y"
}
