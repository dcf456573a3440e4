package replicaset

import "time"

// What bounds how fast the controller creates and deletes pods: its API
// client's rate limiter. kube-controller-manager gives each controller its
// own client (ClientBuilder.ClientOrDie("replicaset-controller")), and
// client-go gives each client a token bucket (flowcontrol.
// NewTokenBucketRateLimiter) of --kube-api-qps tokens a second, holding at
// most --kube-api-burst, full at the start (k8s.io/controller-manager
// config defaults: 20 and 30; Settings.KubeAPIQPS and KubeAPIBurst). A
// request finding no token waits for one.
// Without it, a ReplicaSet whose pods the kubelet rejects at once (a
// template pinned by nodeName to a full node: OutOfcpu) would replace
// them all at one instant, for ever; with it, it makes 30 at once, then
// 20 a second, as a real cluster does until PodGC's threshold of
// terminated pods deletes the oldest.
//
// The workqueue's rate limiter (DefaultControllerRateLimiter: 5 ms
// doubling to 1000 s per key, and 10 a second, burst 100, overall) delays
// only a sync that returned an error, and burstReplicas (500 a sync),
// the slow-start batches (1, 2, 4, ...) and the expectations change
// nothing here: podsim's creations never fail, and the controller sees
// its own creations and deletions at once.

// client is the token bucket of the controller's API client
// (Settings.KubeAPIQPS and KubeAPIBurst), kept as the instant its next
// request would be due were the requests evenly spaced (the bucket is full
// when that is in the past).
type client struct {
	due   time.Duration
	every time.Duration // a token comes every 1/QPS seconds
	burst time.Duration // the bucket's size as time: (burst-1) tokens' worth
}

// newClient returns the full bucket of qps tokens a second, holding at
// most burst (both positive).
func newClient(qps float64, burst int) client {
	every := max(time.Duration(float64(time.Second)/qps), 1)
	return client{every: every, burst: time.Duration(burst-1) * every}
}

// take takes a token for a request at now and returns 0, or, when the
// bucket is empty, takes none and returns when the next token comes.
func (c *client) take(now time.Duration) (wait time.Duration) {
	t := max(c.due, now)
	if ahead := t - now; ahead > c.burst {
		return t - c.burst
	}
	c.due = t + c.every
	return 0
}
