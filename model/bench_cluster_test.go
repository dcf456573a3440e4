package model_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// BenchmarkCapacityAtScale is issue 4's capacity scenario built directly:
// 100 nodes, 30 ReplicaSets of 100 pods with readiness probes, one node
// powered off at 5m, 30 minutes of virtual time per op.
func BenchmarkCapacityAtScale(b *testing.B) {
	b.ReportAllocs()
	var events uint64
	for b.Loop() {
		st := model.DefaultSettings()
		st.KubeAPIQPS, st.KubeAPIBurst = 1e6, 1e6 // every pod at once, as before the client was paced
		w := cluster.New(1, st)
		for i := range 100 {
			w.AddNode(model.NodeSpec{Name: fmt.Sprintf("node-%d", i), Capacity: model.Resources{MilliCPU: 16000, Memory: 64 << 30, Pods: 110}})
		}
		tmpl := &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "svc", PullPolicy: model.PullIfNotPresent,
				Requests:  model.Resources{MilliCPU: 250, Memory: 256 << 20},
				Readiness: &model.ProbeSpec{Handler: "httpGet", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}}}}
		for i := range 30 {
			w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: fmt.Sprintf("svc%02d", i), Template: tmpl, Replicas: 100})
		}
		w.Schedule(5*time.Minute, func() { w.Node("node-42").PowerOff(nil) })
		w.Run(30 * time.Minute)
		events += w.Engine().Fired()
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
