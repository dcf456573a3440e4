package model_test

import (
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/deployment"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/kubelet"
	"github.com/podsim/podsim/model/kubelet/oom"
	"github.com/podsim/podsim/model/scheduler"
)

// The package's own tests run the scheduler, ReplicaSets and Deployments
// with their real controllers, the kubelet and the kernel's OOM killers, registered
// as cluster.New registers them.
func init() {
	model.SetRegisterScheduler(func(w *model.World) { w.Register(scheduler.New(w)) })
	model.SetRegisterKinds(func(w *model.World) {
		rsc := replicaset.New(w)
		w.RegisterWorkloadController(model.KindReplicaSet, rsc)
		w.RegisterWorkloadController(model.KindDeployment, deployment.New(w, rsc))
	})
	model.SetRegisterKubelet(func(w *model.World) {
		w.Register(kubelet.New())
		w.Register(oom.New(w))
	})
}
