package expect_test

import (
	"strings"
	"testing"

	"github.com/podsim/podsim/expect"
	"github.com/podsim/podsim/scenarios"
)

// A crash loop in another namespace logs more kubelet events than the spam
// filter's burst of 25: count is what reached the API (describe's xN),
// emitted every occurrence; namespace may sit inside the event check.
func TestEventCountIsWhatReachedTheAPI(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: spam}
spec:
  duration: 10m
  seed: 1
  settings: {kubeletSync: realistic}
  nodes: [{name: node-a}]
  pods:
    - metadata: {name: api, namespace: shop}
      spec:
        nodeName: node-a
        containers: [{name: app, image: example/api:1}]
  behavior:
    - {pod: api, namespace: shop, container: app, runs: [{exitAfter: 1s, exitCode: 1}]}
  expect:
    - event: {pod: api, namespace: shop, reason: Started, count: 5, emitted: 7}
`
	s, err := scenarios.Parse("spam.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := s.NewWorld()
	c := expect.Arm(s, w)
	s.Populate(w)
	w.Run(s.Duration)
	c.Finish()
	v := c.Verdicts()[0]
	if !v.Passed() {
		t.Errorf("failed: %s", messages(&v))
	}
	var started int64
	for _, e := range w.EventsFor("Pod", "shop/api") {
		if e.Reason() == "Started" {
			started = int64(e.Count)
		}
	}
	if started != 5 {
		t.Errorf("the API's Started count is %d; the expectation above assumes 5", started)
	}
	bad := strings.Replace(src, "reason: Started,", "reason: Started, namespace: other,", 1)
	bad = strings.Replace(bad, "    - event: {pod: api, namespace: shop,", "    - namespace: shop\n      event: {pod: api,", 1)
	if _, err := scenarios.Parse("spam.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), `event: namespace "other", but the expectation's is "shop"`) {
		t.Errorf("two namespaces: got %v", err)
	}
}
