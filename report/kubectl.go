package report

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/podsim/podsim/model"
)

// PodRow is one line of `kubectl get pods`.
type PodRow struct {
	Name, Ready, Status, Restarts, Age string
}

// GetPod computes the `kubectl get pods` columns of a pod as of now, by the
// rules of kubectl's printer (pkg/printers/internalversion printPod).
func GetPod(p *model.Pod, now time.Duration) PodRow {
	st := p.Status()
	return PodRow{
		Name:     p.Name,
		Ready:    readyColumn(p, &st),
		Status:   StatusColumn(p, &st),
		Restarts: restartsColumn(p, &st, now),
		Age:      HumanDuration(now - p.CreatedAt),
	}
}

func readyColumn(p *model.Pod, st *model.PodStatus) string {
	total, ready := len(p.Spec.Containers), 0
	for i, c := range p.Spec.InitContainers {
		if !c.Sidecar {
			continue
		}
		total++
		if i < len(st.InitContainerStatuses) {
			if s := st.InitContainerStatuses[i]; s.Started && s.Ready {
				ready++
			}
		}
	}
	for _, s := range st.ContainerStatuses {
		if s.Ready && s.State.Kind == model.StateRunning {
			ready++
		}
	}
	return fmt.Sprintf("%d/%d", ready, total)
}

// StatusColumn is kubectl's STATUS column for a pod.
func StatusColumn(p *model.Pod, st *model.PodStatus) string {
	reason := string(st.Phase)
	if st.Reason != "" {
		reason = st.Reason
	}
	if c, ok := st.Condition(model.PodScheduled); ok && c.Reason == "SchedulingGated" {
		reason = "SchedulingGated"
	}
	initializing := false
	for i, s := range st.InitContainerStatuses {
		sidecar := p.Spec.InitContainers[i].Sidecar
		switch {
		case s.State.Kind == model.StateTerminated && s.State.ExitCode == 0:
			continue
		case sidecar && s.Started:
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
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
			initializing = true
		}
		break
	}
	initCond, _ := st.Condition(model.Initialized)
	if !initializing || initCond.Status == model.True {
		hasRunning := false
		for i := len(st.ContainerStatuses) - 1; i >= 0; i-- {
			s := &st.ContainerStatuses[i]
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
			}
		}
		if reason == model.ReasonCompleted && hasRunning {
			reason = "NotReady"
			if c, ok := st.Condition(model.Ready); ok && c.Status == model.True {
				reason = "Running"
			}
		}
	}
	if p.Terminating() {
		if st.Reason == "NodeLost" {
			reason = "Unknown"
		} else if !st.Phase.Terminal() {
			reason = "Terminating"
		}
	}
	return reason
}

func restartsColumn(p *model.Pod, st *model.PodStatus, now time.Duration) string {
	restarts := 0
	var last time.Duration
	seen := false
	note := func(s *model.ContainerStatus) {
		restarts += int(s.RestartCount)
		if s.LastState.Kind == model.StateTerminated && (!seen || s.LastState.FinishedAt > last) {
			last, seen = s.LastState.FinishedAt, true
		}
	}
	for i := range st.InitContainerStatuses {
		if p.Spec.InitContainers[i].Sidecar {
			note(&st.InitContainerStatuses[i])
		}
	}
	for i := range st.ContainerStatuses {
		note(&st.ContainerStatuses[i])
	}
	s := strconv.Itoa(restarts)
	if restarts != 0 && seen {
		s += " (" + HumanDuration(now-last) + " ago)"
	}
	return s
}

// WriteGetPods prints `kubectl get pods` for every pod that still exists.
func WriteGetPods(w io.Writer, world *model.World) error {
	now := world.Now()
	var rows [][]string
	for _, p := range world.Pods() {
		if p.Deleted() {
			continue
		}
		r := GetPod(p, now)
		rows = append(rows, []string{r.Name, r.Ready, r.Status, r.Restarts, r.Age})
	}
	if len(rows) == 0 {
		_, err := io.WriteString(w, "No resources found in default namespace.\n")
		return err
	}
	return writeTable(w, []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}, rows)
}

// HumanDuration formats an age as kubectl does (apimachinery
// duration.HumanDuration): 45s, 5m30s, 3h12m, 4d2h.
func HumanDuration(d time.Duration) string {
	if s := int(d.Seconds()); s < -1 {
		return "<invalid>"
	} else if s < 0 {
		return "0s"
	} else if s < 120 {
		return fmt.Sprintf("%ds", s)
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		if s := int(d/time.Second) % 60; s != 0 {
			return fmt.Sprintf("%dm%ds", minutes, s)
		}
		return fmt.Sprintf("%dm", minutes)
	} else if minutes < 180 {
		return fmt.Sprintf("%dm", minutes)
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if m := minutes % 60; m != 0 {
			return fmt.Sprintf("%dh%dm", hours, m)
		}
		return fmt.Sprintf("%dh", hours)
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return fmt.Sprintf("%dd%dh", hours/24, h)
		}
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*2:
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*8:
		if dy := (hours / 24) % 365; dy != 0 {
			return fmt.Sprintf("%dy%dd", hours/24/365, dy)
		}
		return fmt.Sprintf("%dy", hours/24/365)
	}
	return fmt.Sprintf("%dy", hours/24/365)
}
