package report

import (
	"encoding/json"
	"io"

	"github.com/podsim/podsim/model"
)

// JSON view of `podsim describe -o json`: the pod's metadata, node and
// status under the Kubernetes API's field names, plus its events. Times
// are virtual seconds since the start of the scenario (numbers).

type describeJSON struct {
	At       float64        `json:"at"` // the virtual time of the view
	Deleted  bool           `json:"deleted,omitempty"`
	Metadata podMetaJSON    `json:"metadata"`
	Spec     podSpecJSON    `json:"spec"`
	Status   podStatusJSON  `json:"status"`
	Events   []podEventJSON `json:"events"`
	// Autoscaler is the node autoscaler's account of a Pending pod
	// (PodAutoscalerSays), if it has one.
	Autoscaler string `json:"autoscaler,omitempty"`
}

type podMetaJSON struct {
	Name              string            `json:"name"`
	Namespace         string            `json:"namespace"`
	Labels            map[string]string `json:"labels,omitempty"`
	CreationTimestamp float64           `json:"creationTimestamp"`
	DeletionTimestamp *float64          `json:"deletionTimestamp,omitempty"`
}

type podSpecJSON struct {
	NodeName string `json:"nodeName,omitempty"`
}

type podStatusJSON struct {
	Phase                 string                `json:"phase"`
	Reason                string                `json:"reason,omitempty"`
	Message               string                `json:"message,omitempty"`
	StartTime             *float64              `json:"startTime,omitempty"`
	Conditions            []podConditionJSON    `json:"conditions"`
	InitContainerStatuses []containerStatusJSON `json:"initContainerStatuses,omitempty"`
	ContainerStatuses     []containerStatusJSON `json:"containerStatuses"`
}

type podConditionJSON struct {
	Type               string  `json:"type"`
	Status             string  `json:"status"`
	Reason             string  `json:"reason,omitempty"`
	Message            string  `json:"message,omitempty"`
	LastTransitionTime float64 `json:"lastTransitionTime"`
}

type containerStatusJSON struct {
	Name         string             `json:"name"`
	Image        string             `json:"image"`
	State        containerStateJSON `json:"state"`
	LastState    containerStateJSON `json:"lastState"`
	Ready        bool               `json:"ready"`
	Started      bool               `json:"started"`
	RestartCount int32              `json:"restartCount"`
}

type containerStateJSON struct {
	Waiting    *stateWaitingJSON    `json:"waiting,omitempty"`
	Running    *stateRunningJSON    `json:"running,omitempty"`
	Terminated *stateTerminatedJSON `json:"terminated,omitempty"`
}

type stateWaitingJSON struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

type stateRunningJSON struct {
	StartedAt float64 `json:"startedAt"`
}

type stateTerminatedJSON struct {
	ExitCode   int32   `json:"exitCode"`
	Signal     int32   `json:"signal,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Message    string  `json:"message,omitempty"`
	StartedAt  float64 `json:"startedAt"`
	FinishedAt float64 `json:"finishedAt"`
}

type podEventJSON struct {
	Type           string          `json:"type"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message"`
	Source         eventSourceJSON `json:"source"`
	Count          int             `json:"count"`
	FirstTimestamp float64         `json:"firstTimestamp"`
	LastTimestamp  float64         `json:"lastTimestamp"`
}

type eventSourceJSON struct {
	Component string `json:"component"`
}

// WriteDescribePodJSON writes the pod as `podsim describe -o json` shows
// it: metadata, spec.nodeName, status (phase, conditions, container
// statuses with state, lastState, ready, restartCount) and events, with the
// Kubernetes API's field names; times are virtual seconds (numbers).
func WriteDescribePodJSON(w io.Writer, world *model.World, p *model.Pod) error {
	st := p.Status()
	doc := describeJSON{
		At: Seconds(world.Now()),
		Metadata: podMetaJSON{Name: p.Name, Namespace: p.Namespace, Labels: p.Labels,
			CreationTimestamp: Seconds(p.CreatedAt)},
		Status: podStatusJSON{Phase: string(st.Phase), Reason: st.Reason, Message: st.Message,
			Conditions: []podConditionJSON{}, ContainerStatuses: []containerStatusJSON{}},
		Events:     []podEventJSON{},
		Deleted:    p.Deleted(),
		Autoscaler: PodAutoscalerSays(world, p),
	}
	if ts, _, ok := p.DeletionTimestamp(); ok {
		t := Seconds(ts)
		doc.Metadata.DeletionTimestamp = &t
	}
	if p.Node != nil {
		doc.Spec.NodeName = p.Node.Name
	}
	if st.Started {
		t := Seconds(st.StartTime)
		doc.Status.StartTime = &t
	}
	for _, c := range st.Conditions {
		doc.Status.Conditions = append(doc.Status.Conditions, podConditionJSON{Type: c.Type,
			Status: string(c.Status), Reason: c.Reason, Message: c.Message,
			LastTransitionTime: Seconds(c.LastTransitionTime)})
	}
	doc.Status.InitContainerStatuses = containerStatusesJSON(st.InitContainerStatuses)
	if cs := containerStatusesJSON(st.ContainerStatuses); cs != nil {
		doc.Status.ContainerStatuses = cs
	}
	for _, e := range sortedEvents(world.EventsFor("Pod", p.Key())) {
		doc.Events = append(doc.Events, podEventJSON{Type: e.Type().String(), Reason: e.Reason(),
			Message: e.Message(), Source: eventSourceJSON{e.Source()}, Count: int(e.Count),
			FirstTimestamp: Seconds(e.FirstSeen), LastTimestamp: Seconds(e.LastSeen)})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func containerStatusesJSON(ss []model.ContainerStatus) []containerStatusJSON {
	var out []containerStatusJSON
	for i := range ss {
		s := &ss[i]
		if s.State.Kind == model.StateNone {
			continue // not reported by the kubelet yet
		}
		out = append(out, containerStatusJSON{Name: s.Name, Image: s.Image,
			State: stateJSON(s.State), LastState: stateJSON(s.LastState),
			Ready: s.Ready, Started: s.Started, RestartCount: s.RestartCount})
	}
	return out
}

func stateJSON(s model.ContainerState) containerStateJSON {
	switch s.Kind {
	case model.StateWaiting:
		return containerStateJSON{Waiting: &stateWaitingJSON{Reason: s.Reason, Message: s.Message}}
	case model.StateRunning:
		return containerStateJSON{Running: &stateRunningJSON{StartedAt: Seconds(s.StartedAt)}}
	case model.StateTerminated:
		return containerStateJSON{Terminated: &stateTerminatedJSON{ExitCode: s.ExitCode, Signal: s.Signal,
			Reason: s.Reason, Message: s.Message, StartedAt: Seconds(s.StartedAt), FinishedAt: Seconds(s.FinishedAt)}}
	}
	return containerStateJSON{}
}
