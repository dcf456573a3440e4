package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// details is a sink that keeps every change and every detail as a line.
type details struct {
	Timeline
	lines []string
}

func (d *details) Detail(x *Detail) {
	d.lines = append(d.lines, fmt.Sprintf("%v %d %s%s/%s %s:%s on=%v started=%v ready=%v",
		x.T, x.Kind, x.Node, x.Pod, x.Container, x.Key, x.Effect, x.On, x.Started, x.Ready))
}

// TestDetails: a subscribed DetailSink hears the container's flags flip as
// it starts and dies, and a node's partition, its heal and the node
// controller's taints, none of which the timeline carries.
func TestDetails(t *testing.T) {
	w, _ := world(t, RestartNever, &Behavior{Runs: []RunSpec{{ExitAfter: 30 * time.Second, ExitCode: 1}}}, DefaultSettings())
	d := &details{}
	w.Subscribe(d) // after the pod's first changes: the flags flip later
	for2m := 2 * time.Minute
	w.Schedule(time.Minute, func() { w.Node("n").Partition(&for2m) })
	w.Run(5 * time.Minute)
	got := strings.Join(d.lines, "\n")
	want := strings.Join([]string{
		"0s 1 p/app : on=false started=true ready=true",
		"30s 1 p/app : on=false started=false ready=false",
		"1m0s 3 n/ : on=true started=false ready=false",
		"1m35s 5 n/ node.kubernetes.io/unreachable:NoSchedule on=true started=false ready=false",
		"1m35s 5 n/ node.kubernetes.io/unreachable:NoExecute on=true started=false ready=false",
		"3m0s 3 n/ : on=false started=false ready=false",
		"3m0s 5 n/ node.kubernetes.io/unreachable:NoSchedule on=false started=false ready=false",
		"3m0s 5 n/ node.kubernetes.io/unreachable:NoExecute on=false started=false ready=false",
	}, "\n")
	if got != want {
		t.Errorf("details:\n%s\nwant:\n%s", got, want)
	}
}
