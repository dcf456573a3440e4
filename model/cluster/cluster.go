// Package cluster assembles a world: the core (package model, with the
// parts it still holds) and the parts that live in packages of their own,
// registered in a fixed order, as kube-controller-manager's
// NewControllerDescriptors lists its controllers. Adding a controller is a
// package under model/controller and one line in New: w.Register for a
// part that hears notifications (model/parts.go), or
// w.RegisterWorkloadController for the controller of a workload kind.
package cluster

import (
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/clusterautoscaler"
	"github.com/podsim/podsim/model/controller/cronjob"
	"github.com/podsim/podsim/model/controller/daemonset"
	"github.com/podsim/podsim/model/controller/deployment"
	"github.com/podsim/podsim/model/controller/disruption"
	"github.com/podsim/podsim/model/controller/endpointslice"
	"github.com/podsim/podsim/model/controller/job"
	"github.com/podsim/podsim/model/controller/karpenter"
	"github.com/podsim/podsim/model/controller/nodelifecycle"
	"github.com/podsim/podsim/model/controller/podautoscaler"
	"github.com/podsim/podsim/model/controller/podgc"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/controller/statefulset"
	"github.com/podsim/podsim/model/controller/tainteviction"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/kubelet/eviction"
	"github.com/podsim/podsim/model/kubelet/nodeshutdown"
	"github.com/podsim/podsim/model/kubelet/oom"
	"github.com/podsim/podsim/model/metricsserver"
	"github.com/podsim/podsim/model/proxy"
	"github.com/podsim/podsim/model/scheduler"
)

// New returns an empty cluster whose random streams derive from seed:
// model.NewCore with every part registered. The order of registration is
// the order in which parts hear a change (model.World.Register); it is
// part of the model's behaviour (a workload kind's controller hears
// notifications in its place too, and syncs the workloads of its kind).
func New(seed uint64, s model.Settings) *model.World {
	w := model.NewCore(seed, s)
	w.Register(tainteviction.New(w))
	w.Register(scheduler.New(w))
	w.Register(disruption.New(w))
	w.RegisterCoreParts() // a pod's owner syncs when the pod changes
	rsc := replicaset.New(w)
	w.RegisterWorkloadController(model.KindReplicaSet, rsc)
	w.RegisterWorkloadController(model.KindDeployment, deployment.New(w, rsc))
	w.RegisterWorkloadController(model.KindJob, job.New(w))
	w.RegisterWorkloadController(model.KindStatefulSet, statefulset.New(w))
	w.RegisterWorkloadController(model.KindDaemonSet, daemonset.New(w))
	w.Register(nodelifecycle.New(w))
	w.Register(podgc.New(w))
	w.RegisterWorkloadController(model.KindCronJob, cronjob.New(w))
	w.Register(podautoscaler.New(w))
	w.Register(clusterautoscaler.New(w))
	w.Register(karpenter.New(w))
	// The EndpointSlice controller, then kube-proxy, which watches it, and
	// metrics-server, which reads kube-proxy's counts of requests: idle
	// until the first Service (kube-proxy also until EnableUsage) or
	// EnableUsage (metrics-server).
	es := endpointslice.New(w)
	w.Register(es)
	px := proxy.New(w, es)
	w.Register(px)
	w.Register(metricsserver.New(w, px))
	w.Register(kubelet.New())       // the kubelets, which the core calls (model.Kubelet)
	w.Register(oom.New(w))          // the kernel's OOM killers, which hear PodUsesMemory first
	w.Register(eviction.New(w))     // the kubelets' eviction managers
	w.Register(nodeshutdown.New(w)) // the kubelets' graceful node shutdown managers
	return w
}
