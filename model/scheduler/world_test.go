package scheduler

import (
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/deployment"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/kubelet"
)

// newWorld is the world of the package's tests: the core with the
// scheduler, the owners' syncs and the ReplicaSet and Deployment
// controllers, registered in cluster.New's order (cluster imports this
// package).
func newWorld(seed uint64, s model.Settings) *model.World {
	w := model.NewCore(seed, s)
	w.Register(kubelet.New())
	sc := New(w)
	w.Register(sc)
	scheds[w] = sc
	w.RegisterCoreParts()
	rsc := replicaset.New(w)
	w.RegisterWorkloadController(model.KindReplicaSet, rsc)
	w.RegisterWorkloadController(model.KindDeployment, deployment.New(w, rsc))
	return w
}

// scheds are the schedulers of the worlds newWorld made.
var scheds = map[*model.World]*Scheduler{}

// schedOf returns the scheduler of a world newWorld made.
func schedOf(w *model.World) *Scheduler { return scheds[w] }
