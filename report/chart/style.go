package chart

import "github.com/podsim/podsim/model"

// style is how one kind of interval is drawn: its colour and its name in
// the legend. The page and the SVG share this table.
type style struct {
	state string // Waiting, Running, Terminated
	label string // the reason, or the shading's meaning
	color string
}

// The styles of container intervals; the indices are the data's.
const (
	styleCreating uint8 = iota
	stylePodInit
	styleCrashLoop
	styleImagePull
	styleWaitingOther
	styleRunning // not started yet (a startup probe has not passed)
	styleStarted // started, not ready
	styleReady
	styleCompleted
	styleError
	styleOOM
	styleTerminatedOther
)

var styles = []style{
	styleCreating:        {"Waiting", "ContainerCreating", "#b8c4d4"},
	stylePodInit:         {"Waiting", "PodInitializing", "#d8dee8"},
	styleCrashLoop:       {"Waiting", "CrashLoopBackOff", "#f4a6a6"},
	styleImagePull:       {"Waiting", "ImagePullBackOff, ErrImagePull", "#f5b461"},
	styleWaitingOther:    {"Waiting", "other reason", "#e3d38a"},
	styleRunning:         {"Running", "not started", "#b9e3b4"},
	styleStarted:         {"Running", "started, not ready", "#6cc070"},
	styleReady:           {"Running", "ready", "#238b45"},
	styleCompleted:       {"Terminated", "Completed", "#3f74c4"},
	styleError:           {"Terminated", "Error", "#d7301f"},
	styleOOM:             {"Terminated", "OOMKilled", "#7a2e8e"},
	styleTerminatedOther: {"Terminated", "other reason", "#555555"},
}

func waitingStyle(reason string) uint8 {
	switch reason {
	case model.ReasonContainerCreating:
		return styleCreating
	case model.ReasonPodInitializing:
		return stylePodInit
	case model.ReasonCrashLoopBackOff:
		return styleCrashLoop
	case model.ReasonImagePullBackOff, model.ReasonErrImagePull, model.ReasonErrImageNeverPull:
		return styleImagePull
	}
	return styleWaitingOther
}

func runningStyle(started, ready bool) uint8 {
	switch {
	case ready:
		return styleReady
	case started:
		return styleStarted
	}
	return styleRunning
}

func terminatedStyle(reason string) uint8 {
	switch reason {
	case model.ReasonCompleted:
		return styleCompleted
	case model.ReasonError:
		return styleError
	case model.ReasonOOMKilled:
		return styleOOM
	}
	return styleTerminatedOther
}

// Colours of the other bands: the pod's phase (phaseNames' order), a
// Ready condition (statusNames' order), node faults (faultNames' order),
// taints, events, the ready count.
var (
	phaseColors  = []string{"#f2d46b", "#8fd18a", "#3f74c4", "#d7301f", "#999999"}
	statusColors = []string{"#f0c9a0", "#5ab55e", "#b0b0b0"}
	faultColors  = []string{"#222222", "#8c510a", "#6d4c41"}
	taintColor   = "#e08214"
	normalColor  = "#6b7a8f"
	warnColor    = "#d7301f"
	countColor   = "#4c8cc9"
	dipColor     = "#fbe3b4" // a group's lane while fewer pods are ready than at its peak
	servedColor  = "#1b9e77" // a Service's requests served
	failedColor  = "#c51b7d" // and failed
)
